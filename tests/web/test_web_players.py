"""Issue 13 in Chromium (Playwright), each player in a browser context of their own: two
accounts sign up, meet through a seek in the lobby and play a rated game to the end, and both
ratings move by the Elo formula (``atril.rating``); a guest closes the tab and resumes from «Mis
partidas»; a finished game replays move by move with the arrow keys; a spectator from the
lobby's list sees no rack; resign, rematch and abort; the game page at 1366×768 with the accept
box open; the 404 page. Screenshots of the lobby, a game, the replay and a profile at 1366×768
and at a phone's 390×844 go to ``tests/web/screenshots/``.

The games use the two-tile list (conftest): any two tiles make a word, three never do.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from conftest import TWO_TILE_WORDS, screenshot
from test_web_browser import (
    OFF_BOARD_TILES,
    READY,
    api_view,
    best_move,
    create,
    page_state,
    place,
    post,
)

from atril import rating
from atril import tiles as T

WIDE = {"width": 1366, "height": 768}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
PASSWORD = "contraseña-larga"
#: the page's view has moved on from the version it had
MOVED_ON = "(v) => state && state.version > v"


def wide(browser):
    """A new browser context (a person of their own) with a page at 1366×768."""
    return browser.new_context(viewport=WIDE).new_page()


def watch_errors(page) -> list[str]:
    """Script errors and refused resources (a CSP refusal is a console error) of a page."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def sign_up(page, base: str, name: str) -> None:
    page.goto(base + "/#cuenta")
    page.locator("#login-form input[name=user]").fill(name)
    page.locator("#login-form input[name=password]").fill(PASSWORD)
    page.click("#signup")
    page.locator("#member-box:not(.hidden)").wait_for()
    assert page.locator("#me-link").inner_text() == name
    assert page.locator("#account-link").inner_text() == name


def who(page) -> dict:
    """``GET /api/cuenta`` as this page's browser asks it."""
    return page.evaluate("() => fetch('/api/cuenta').then((r) => r.json())")


def words_file(tmp_path):
    path = tmp_path / "dos.txt"
    path.write_text(TWO_TILE_WORDS)
    return str(path)


def seek_and_accept(seeker, accepter, base: str, words: str, *, rated: bool) -> None:
    """The seeker publishes a seek from the lobby's form; the accepter takes it from the list;
    both pages end in the game."""
    seeker.goto(base + "/")
    seeker.check("input[name=mode][value=seek]")
    assert seeker.locator("input[name=rated]").is_visible() == rated
    if rated:
        seeker.check("input[name=rated]")
    seeker.set_input_files("input[name=wordlist]", words)
    seeker.click("#create")
    seeker.locator("#my-seek:not(.hidden)").wait_for()
    accepter.goto(base + "/")
    accepter.locator("#seeks .accept-seek").click()
    for page in (seeker, accepter):
        page.wait_for_url("**/partida/**")
        page.wait_for_function("() => state && !state.waiting_for_rival")


def pages_by_seat(*pages) -> dict:
    return {page_state(p)["seat"]: p for p in pages}


def play_two_tiles(page) -> int:
    """The player lays two tiles where the engine finds a play; the score the page counted
    before sending them."""
    page.wait_for_function(READY)
    for sq, tile in best_move(page_state(page)).placed:
        place(page, sq, tile)
    shown = page.locator(f"#extra-{page_state(page)['me']}").inner_text()
    assert shown.endswith("provisional"), shown
    version = page_state(page)["version"]
    page.click("#play")
    page.wait_for_function(MOVED_ON, arg=version)
    return int(shown.split()[0])


def pass_to_the_end(pages) -> None:
    """Each player in turn accepts what is pending and passes, until the game is over."""
    for _ in range(12):
        for page in pages:
            state = page_state(page)
            if state["over"]:
                return
            if state["can"]["accept"]:
                page.click("#accept")
            elif state["can"]["play"]:
                page.click("#pass")
            else:
                continue
            page.wait_for_function(MOVED_ON, arg=state["version"])
            for other in pages:
                other.wait_for_function(f"() => state.version >= {page_state(page)['version']}")
    raise AssertionError("la partida no terminó")


def test_two_accounts_play_a_rated_game_and_both_ratings_move(server, browser, tmp_path):
    ana, luis = wide(browser), wide(browser)
    errors = watch_errors(ana) + watch_errors(luis)
    sign_up(ana, server.base, "ana")
    sign_up(luis, server.base, "luis")
    seek_and_accept(ana, luis, server.base, words_file(tmp_path), rated=True)
    seats = pages_by_seat(ana, luis)
    for page in (ana, luis):
        state = page_state(page)
        assert state["rated"] and page.locator("#rated").inner_text() == "Puntuable"
        assert {p["account"] for p in state["players"]} == {"ana", "luis"}
        assert page.locator("#players").inner_text().count("(1800)") == 2
    first = seats[page_state(ana)["to_move"]]
    second = seats[1 - page_state(ana)["to_move"]]

    # the first play: a provisional count while placing, the server's the same; the header of
    # the one who must accept shows it apart, never in the score
    counted = play_two_tiles(first)
    second.wait_for_function("() => state.pending !== null")
    pending = page_state(second)["pending"]
    assert pending["score"] == counted
    mover = pending["player"]
    assert second.locator(f"#score-{mover}").inner_text() == "0"
    assert second.locator(f"#extra-{mover}").inner_text() == f"+{counted} por aceptar"
    second.click("#accept")

    # the second player's play is challenged in vain: the banner says whose play was judged
    play_two_tiles(second)
    first.locator("#challenge").wait_for()
    move = page_state(first)["pending"]["move"]
    first.click("#challenge")
    names = [p["name"] for p in page_state(first)["players"]]
    for page, said in ((first, f"Has impugnado la jugada {move} de {names[1 - mover]}:"),
                       (second, f"{names[mover]} ha impugnado tu jugada {move}:")):
        page.locator("#verdict.ok").wait_for()
        assert page.locator("#verdict-who").inner_text() == said
        assert page.locator("#verdict-text").inner_text() == "jugada correcta"

    pass_to_the_end([first, second])
    for page in (ana, luis):
        page.locator("#over:not(.hidden)").wait_for()
    state = page_state(ana)
    final = state["final"]
    assert final is not None and final == page_state(luis)["final"]
    for page in (ana, luis):  # one final score everywhere: the boxes and «Resultado»
        for seat in (0, 1):
            assert page.locator(f"#score-{seat}").inner_text() == str(final[seat])
        assert f"{final[0]} – " in page.locator("#over-text").inner_text()
    winner = state["over"]["winner"]
    if winner is not None:
        assert ana.locator(".player.winner").count() == 1
        assert "gana" in ana.locator(".player.winner").inner_text()

    # both ratings moved by the formula: a first rated game, both at 1800
    result = {0: 0.5, 1: 0.5} if winner is None else {winner: 1.0, 1 - winner: 0.0}
    for seat, page in seats.items():
        expected = rating.INITIAL_RATING + rating.change(
            rating.INITIAL_RATING, rating.INITIAL_RATING, result[seat], games=0)
        account = who(page)["rating"]
        assert account["games"] == 1
        assert abs(account["rating"] - expected) < 0.01, (seat, account, expected)
    assert not errors


def test_a_guest_resumes_a_game_after_closing_the_tab(server, browser):
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    page.goto(server.base + "/")
    assert page.locator("input[name=rated]").is_hidden()  # a guest plays unrated games only
    page.click("#create")  # against the computer, at the default level
    page.wait_for_url("**/partida/**")
    page.wait_for_function(READY)
    game_id = page_state(page)["id"]
    rack = page_state(page)["rack"]
    page.close()

    page = context.new_page()  # the tab is closed; the browser remembers the seat
    page.goto(server.base + "/mis-partidas")
    row = page.locator("#playing tr", has_text="Ordenador")
    row.wait_for()
    assert row.locator("a").inner_text() == "Seguir jugando"
    row.locator("a").click()
    page.wait_for_function("() => state && state.seat === 0")
    assert page_state(page)["id"] == game_id and page_state(page)["rack"] == rack
    page.goto(f"{server.base}/partida/{game_id}")  # the bare address: the kept token
    page.wait_for_function("() => state && state.seat === 0")
    assert page.locator("#rack .tile").count() == 7


def test_the_default_computer_level_is_fair_for_a_newcomer(server):
    options = json.load(urllib.request.urlopen(f"{server.base}/api/opciones"))
    assert options["default_level"] == "intermedio"


def act(base: str, game: dict, action: str, **extra) -> dict:
    """One action through the API, for the seat of the game's token; the new view."""
    state = api_view(base, game["id"], game["token"])
    body = {"t": game["token"], "version": state["version"], "action": action, **extra}
    status, view = post(f"{base}/api/partidas/{game['id']}/accion", body)
    assert status == 200, view
    return view


def a_finished_game(base: str) -> dict:
    """A game on one device with every kind of turn: two plays (each accepted), an exchange,
    a play of three tiles withdrawn after a challenge, then passes to the end."""
    game = create(base, mode="local", names=["Ana", "Luis"], seed=7)
    for _play in range(2):
        state = api_view(base, game["id"], game["token"])
        if state["can"]["accept"]:
            state = act(base, game, "accept")
        placed = [[sq, T.tile_to_human(tile)] for sq, tile in best_move(state).placed]
        act(base, game, "play", placed=placed)
    state = act(base, game, "accept")
    act(base, game, "exchange", tiles=state["rack"][:2])
    state = api_view(base, game["id"], game["token"])
    rack = [t for t in state["rack"] if len(t) == 1 and t != "?"]
    lowest = max(sq for sq, tile in enumerate(state["board"]) if tile)  # under it, three tiles
    act(base, game, "play", placed=[[lowest + 15 + i, letter] for i, letter in enumerate(rack[:3])])
    state = act(base, game, "challenge")
    while not state["over"]:
        state = act(base, game, "pass")
    return game


def test_a_finished_game_replays_move_by_move(server, browser):
    game = a_finished_game(server.base)
    page = wide(browser)
    errors = watch_errors(page)
    page.goto(server.base + game["url"])
    replay_url = f"{server.base}/partida/{game['id']}/repeticion"
    page.wait_for_function("() => document.querySelector('#replay')?.getAttribute('href')")
    assert page.locator("#replay").get_attribute("href") == f"/partida/{game['id']}/repeticion"

    viewer = wide(browser)  # anyone with the address: read-only, no token
    errors += watch_errors(viewer)
    viewer.goto(replay_url)
    viewer.locator("#sheet tr:nth-child(2)").wait_for()
    turns = json.load(urllib.request.urlopen(
        f"{server.base}/api/partidas/{game['id']}/repeticion"))["turns"]
    assert viewer.locator("#position").inner_text() == f"Turno 0 de {len(turns)}"
    assert viewer.locator("#board .tile").count() == 0
    for n, turn in enumerate(turns, start=1):
        viewer.keyboard.press("ArrowRight")
        assert viewer.locator("#position").inner_text() == f"Turno {n} de {len(turns)}"
        assert viewer.locator("#board .tile").count() == sum(1 for sq in turn["board"] if sq)
        assert viewer.locator("#board .tile.last").count() == (
            len(turn["placed"]) if turn["type"] == "play" else 0)
        assert viewer.locator("#sheet tr.current td").first.inner_text() == str(n)
        assert viewer.locator("#rack .tile").count() == len(turn["rack"])
        if n == 2:
            assert viewer.url.endswith("#2")
            viewer.locator("#analysis ol").wait_for()  # the analysis of the turn, alongside
            screenshot(viewer, "repeticion-1366")
    viewer.keyboard.press("ArrowRight")  # the end: nothing further
    assert viewer.locator("#position").inner_text() == f"Turno {len(turns)} de {len(turns)}"
    viewer.keyboard.press("ArrowLeft")
    assert viewer.locator("#position").inner_text() == f"Turno {len(turns) - 1} de {len(turns)}"
    viewer.keyboard.press("Home")
    assert viewer.locator("#board .tile").count() == 0
    viewer.locator("#sheet tr:nth-child(3)").click()  # a row of the planilla opens its turn
    assert viewer.locator("#position").inner_text() == f"Turno 2 de {len(turns)}"
    assert "Resultado" in viewer.locator("#result").inner_text()

    phone = browser.new_page(**PHONE)
    phone.goto(replay_url + "#3")
    phone.locator("#sheet tr.current").wait_for()
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    screenshot(phone, "repeticion-telefono")
    assert not errors


def test_a_spectator_from_the_lobby_sees_no_rack(server, browser):
    game = create(server.base, mode="remote", names=["Ana", "Luis"], seed=5)
    luis = wide(browser)
    luis.goto(server.base + game["invite"])
    luis.wait_for_function("() => state && !state.waiting_for_rival")
    frames: list[str] = []
    spectator = wide(browser)
    spectator.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
    spectator.goto(server.base + "/")
    row = spectator.locator("#live tr", has_text="Ana")
    row.wait_for()
    row.locator("a").click()
    spectator.wait_for_url(f"**/partida/{game['id']}")
    spectator.wait_for_function("() => state !== null")
    assert spectator.locator("#spectator").is_visible()
    assert spectator.locator("#rack .tile").count() == 0
    assert spectator.evaluate(OFF_BOARD_TILES) == 0
    for control in ("#controls", "#pending", "#resign", "#abort"):
        assert spectator.locator(control).is_hidden(), control
    assert frames and all(json.loads(f)["state"]["rack"] == [] for f in frames
                          if json.loads(f)["type"] == "state")


def remote_pair(server, browser) -> tuple[dict, dict]:
    """A game between two guests, each in a context of their own: {seat: page}, the game."""
    game = create(server.base, mode="remote", names=["Ana", "Luis"], seed=5)
    ana, luis = wide(browser), wide(browser)
    ana.goto(server.base + game["url"])
    luis.goto(server.base + game["invite"])
    for page in (ana, luis):
        page.wait_for_function("() => state && !state.waiting_for_rival")
    return {0: ana, 1: luis}, game


def test_resign_and_rematch(server, browser):
    seats, game = remote_pair(server, browser)
    first_mover = page_state(seats[0])["to_move"]
    first_name = page_state(seats[0])["players"][first_mover]["name"]
    resigner = seats[1 - first_mover]  # not on move: a resignation may come at any time
    resigner.click("#resign")
    assert resigner.locator("#confirm-dialog").evaluate("(d) => d.open")
    resigner.click("#confirm-no")  # asked first: nothing happens
    assert page_state(resigner)["over"] is None
    resigner.click("#resign")
    resigner.click("#confirm-yes")
    for page in seats.values():
        page.locator("#over:not(.hidden)").wait_for()
        over = page_state(page)["over"]
        assert over["winner"] == first_mover and over["reason"] == "resign", over
        assert page.locator(".player.winner").count() == 1

    asker = seats[first_mover]
    asker.click("#rematch")
    asker.wait_for_url(lambda url: game["id"] not in url)
    asker.wait_for_function("() => state && state.seat !== null")
    other = seats[1 - first_mover]
    other.locator("#rematch-card:not(.hidden)").wait_for()
    other.click("#rematch-link")
    other.wait_for_function(f"() => state && state.id !== '{game['id']}' && state.seat !== null")
    for page in (asker, other):
        page.wait_for_function("() => !state.waiting_for_rival")
    new = page_state(other)
    assert new["id"] == page_state(asker)["id"] != game["id"]
    # the other player starts (art. 4): the one who did not start the first game
    assert new["players"][new["to_move"]]["name"] != first_name


def test_abort_before_the_first_move(server, browser):
    seats, game = remote_pair(server, browser)
    page = seats[0]
    page.wait_for_function("() => state.can.abort")
    page.click("#abort")
    page.click("#confirm-yes")
    for p in seats.values():
        p.locator("#notice:not(.hidden)").wait_for()
        assert p.locator("#notice").inner_text() == "La partida se ha anulado."
        assert p.locator("#game").is_hidden()
    status = urllib.request.Request(f"{server.base}/api/partidas/{game['id']}")
    try:
        urllib.request.urlopen(status)
        raise AssertionError("la partida anulada sigue existiendo")
    except urllib.error.HTTPError as exc:
        assert exc.code == 404


def test_the_game_page_at_1366x768(server, browser):
    """With the accept box open the board, the rack and every button fit the window; an old
    error never covers Aceptar/Impugnar; a drag selects no text; the keyboard shortcuts; the
    signals when the opponent moves (sound off by default; the tab's title)."""
    seats, game = remote_pair(server, browser)
    first_seat = page_state(seats[0])["to_move"]
    first, second = seats[first_seat], seats[1 - first_seat]
    second.evaluate("""() => {
        window.beeps = 0;
        window.AudioContext = class { constructor() { this.currentTime = 0; this.destination = {}; }
          createOscillator() { window.beeps += 1; return { frequency: {}, connect: (g) => g,
            start() {}, stop() {} }; }
          createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
            connect: (d) => d }; } };
        Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
    }""")
    assert not second.locator("#sound-setting").is_checked()  # off by default
    assert second.locator("#title-setting").is_checked()
    second.check("#sound-setting")
    assert second.evaluate("() => window.beeps") == 1  # the sample as it is switched on

    # the first player's error toast, then their play
    first.wait_for_function(READY)
    state = page_state(first)
    rack = [t for t in state["rack"] if t != "?"]
    for sq, letter in ((0, rack[0]), (224, rack[1])):  # not in a line: the server refuses it
        first.locator(f'#rack .tile:not(.used)[data-letter="{letter}"]').first.click()
        first.locator(f'#board .sq[data-sq="{sq}"]').click()
    first.click("#play")
    first.locator("#toast:not(.hidden)").wait_for()
    first.click("#recall")
    first.locator("#rack .tile").first.drag_to(first.locator('#board .sq[data-sq="112"]'))
    assert first.evaluate("() => getSelection().toString()") == ""
    first.click("#recall")
    play_two_tiles(first)
    assert first.locator("#toast").is_hidden()  # the error went with the position it was about

    second.wait_for_function("() => state.can.accept")
    assert second.evaluate("() => window.beeps") == 2
    assert second.title().startswith("● Te toca")
    second.locator("#pending:not(.hidden)").wait_for()
    for selector in ("#board", "#rack", "#controls", "#accept", "#challenge", "#play", "#pass"):
        box = second.locator(selector).bounding_box()
        assert box and box["x"] >= 0 and box["y"] >= 0, selector
        assert box["x"] + box["width"] <= WIDE["width"], (selector, box)
        assert box["y"] + box["height"] <= WIDE["height"], (selector, box)
    screenshot(second, "partida-1366")

    # an error while the accept box is open stays clear of its buttons
    second.evaluate("() => toast('un error cualquiera')")
    toast = second.locator("#toast").bounding_box()
    for button in ("#accept", "#challenge"):
        box = second.locator(button).bounding_box()
        apart = (toast["y"] >= box["y"] + box["height"]
                 or toast["y"] + toast["height"] <= box["y"]
                 or toast["x"] >= box["x"] + box["width"]
                 or toast["x"] + toast["width"] <= box["x"])
        assert apart, button

    # the shortcuts: Shift+P asks before passing, Shift+C opens the exchange, Space shuffles
    version = page_state(second)["version"]
    second.click("#accept")
    second.wait_for_function(MOVED_ON, arg=version)
    second.keyboard.press("Shift+P")
    assert second.locator("#confirm-dialog").evaluate("(d) => d.open")
    second.keyboard.press("Escape")
    assert page_state(second)["version"] == version + 1
    second.keyboard.press("Shift+C")
    assert second.locator("#exchange-dialog").evaluate("(d) => d.open")
    second.click("#exchange-cancel")
    before = second.evaluate("() => order.join()")
    shuffled = False
    for _ in range(5):
        second.keyboard.press(" ")
        shuffled = shuffled or second.evaluate("() => order.join()") != before
    assert shuffled

    phone = browser.new_page(**PHONE)
    phone.goto(server.base + f"/partida/{game['id']}")  # a spectator on a phone
    phone.wait_for_function("() => state !== null")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    screenshot(phone, "partida-telefono")


def test_lobby_account_box_and_a_profile(server, browser, tmp_path):
    page = wide(browser)
    errors = watch_errors(page)
    sign_up(page, server.base, "marta")
    page.click("#logout")
    page.locator("#guest-box:not(.hidden)").wait_for()
    assert who(page)["name"] is None
    page.locator("#login-form input[name=user]").fill("marta")
    page.locator("#login-form input[name=password]").fill("no-es-la-clave")
    page.click("#login")
    page.locator("#login-error:not(:empty)").wait_for()
    errors.clear()  # the browser logs the refusal (401) it was meant to get
    page.locator("#login-form input[name=password]").fill(PASSWORD)
    page.click("#login")
    page.locator("#member-box:not(.hidden)").wait_for()
    page.locator("#password-details summary").click()
    page.locator("#password-form input[name=old]").fill(PASSWORD)
    page.locator("#password-form input[name=new]").fill("otra-clave-larga")
    page.click("#password-form button[type=submit]")
    page.locator("#password-said:not(:empty)").wait_for()
    assert page.locator("#password-said").inner_text() == "Contraseña cambiada"

    # a seek of hers, followed until cancelled; a guest's seek; a game between people to watch
    page.check("input[name=mode][value=seek]")
    page.set_input_files("input[name=wordlist]", words_file(tmp_path))
    page.click("#create")
    page.locator("#my-seek:not(.hidden)").wait_for()
    assert post(f"{server.base}/api/busquedas", {"minutes": 20, "clock_mode": "no corrido",
                                                 "ruleset": "FILE2024", "name": "Luis"})[0] == 201
    game = create(server.base, mode="remote", names=["Ana", "Luis"], seed=5)
    other = wide(browser)
    other.goto(server.base + game["invite"])
    other.wait_for_function("() => state && !state.waiting_for_rival")
    page.goto(server.base + "/")  # her own seek is still followed, above the others
    page.locator("#seeks tr", has_text="Luis").wait_for()
    assert page.locator("#seeks tr").count() == 1 and page.locator("#my-seek").is_visible()
    page.locator("#live tr").first.wait_for()
    screenshot(page, "vestibulo-1366")
    phone = browser.new_page(**PHONE)
    phone.goto(server.base + "/")
    phone.locator("#live tr").first.wait_for()
    assert phone.locator("#seeks tr").count() == 2
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    screenshot(phone, "vestibulo-telefono")
    page.click("#cancel-seek")
    page.locator("#my-seek.hidden").wait_for(state="attached")

    page.click("#profile-link")
    page.wait_for_url("**/jugadores/marta")
    page.locator("#figures dt").first.wait_for()
    assert page.locator("#name").inner_text() == "marta"
    assert not errors


def test_a_profile_after_rated_games(server, browser, tmp_path):
    ana, luis = wide(browser), wide(browser)
    sign_up(ana, server.base, "ana")
    sign_up(luis, server.base, "luis")
    words = words_file(tmp_path)
    for _game in range(2):
        seek_and_accept(ana, luis, server.base, words, rated=True)
        seats = pages_by_seat(ana, luis)
        mover = seats[page_state(ana)["to_move"]]
        play_two_tiles(mover)
        mover.click("#resign")
        mover.click("#confirm-yes")
        for page in (ana, luis):
            page.locator("#over:not(.hidden)").wait_for()
    ana.goto(server.base + "/jugadores/ana")
    ana.locator("#plot circle").nth(1).wait_for()
    assert ana.locator("#plot circle").count() == 2
    assert ana.locator("#last-games tr").count() == 2
    profile = json.load(urllib.request.urlopen(f"{server.base}/api/jugadores/ana"))
    assert ana.locator("#rating").inner_text() == f"{round(profile['rating'])} Elo · provisional"
    screenshot(ana, "perfil-1366")
    phone = browser.new_page(**PHONE)
    phone.goto(server.base + "/jugadores/ana")
    phone.locator("#plot circle").nth(1).wait_for()
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    screenshot(phone, "perfil-telefono")
    ana.goto(server.base + "/mis-partidas")
    ana.locator("#finished tr").nth(1).wait_for()
    assert ana.locator("#finished tr a", has_text="Repetición").count() == 2


def test_an_unknown_address_is_a_page(server, browser):
    page = wide(browser)
    response = page.goto(server.base + "/no/existe")
    assert response.status == 404
    assert page.locator("h1").inner_text() == "No existe esa página"
    page.click("a.button")
    page.wait_for_url(server.base + "/")
    try:
        urllib.request.urlopen(server.base + "/api/no-existe")
    except urllib.error.HTTPError as exc:
        assert exc.code == 404 and json.load(exc)["error"] == "no existe esa página"
