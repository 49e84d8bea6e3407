"""Issue 15 in Chromium: a director opens a duplicate room with a short round, three players
(two guests and an account) join with its code and a projector shows it; they play three
rounds, each player typing their play and seeing it acknowledged, then the master move, their
score and the ranking; a play sent after the deadline is refused by the server. Screenshots of
the player's page, the projector and the arbiter go to ``tests/web/screenshots/``."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import screenshot
from test_web_players import PASSWORD, sign_up, watch_errors, wide

from atril.web.accounts import Accounts
from atril.web.store import open_store

SECONDS = 8


def make_director(tmp_path: Path, name: str) -> None:
    """A director's account in the served database (the ``server`` fixture's file)."""
    store = open_store(f"sqlite:///{tmp_path / 'served.sqlite3'}")
    try:
        Accounts(store).sign_up(name, PASSWORD, granted=("director",))
    finally:
        store.close()


def log_in(page, base: str, name: str) -> None:
    page.goto(base + "/#cuenta")
    page.locator("#login-form input[name=user]").fill(name)
    page.locator("#login-form input[name=password]").fill(PASSWORD)
    page.click("#login")
    page.locator("#member-box:not(.hidden)").wait_for()


def join(page, base: str, code: str, name: str | None) -> None:
    page.goto(f"{base}/duplicada?codigo={code}")
    if name is not None:
        page.locator("#join-form input[name=name]").fill(name)
    page.click("#join")
    page.wait_for_url(re.compile(r".*/duplicada/[0-9a-f]+$"))
    page.wait_for_function("() => roomState && roomState.role === 'player'")


def send_play(page, text: str) -> str:
    """Type a play and send it; the acknowledgement the page shows."""
    page.locator("#move").fill(text)
    page.click("#send")
    page.wait_for_function(
        "() => document.getElementById('ack').textContent.startsWith('Recibida')")
    return page.locator("#ack").inner_text()


def send_raw(page, text: str) -> dict:
    """A play sent straight over the page's socket (as a page would, ignoring its own clock):
    the server's answer."""
    return page.evaluate("""(text) => new Promise((resolve) => {
        roomSocket.addEventListener("message", (event) => {
            const m = JSON.parse(event.data);
            if (m.type === "ack" || m.type === "error") resolve(m);
        });
        roomSocket.send(JSON.stringify({ action: "submit", id: 99, move: text }));
    })""", text)


def test_three_players_and_a_projector_play_three_rounds(server, browser, tmp_path):
    make_director(tmp_path, "directora")
    boss = wide(browser)
    errors = watch_errors(boss)
    log_in(boss, server.base, "directora")
    boss.goto(server.base + "/duplicada")
    form = boss.locator("#create-form")
    form.wait_for()
    form.locator("input[name=rounds]").fill("3")
    form.locator("input[name=seconds]").fill(str(SECONDS))
    form.locator("input[name=min_players]").fill("")  # bonuses with three players
    boss.click("#create")
    boss.wait_for_url("**/arbitro")
    boss.wait_for_function("() => roomState && roomState.role === 'director'")
    code = boss.locator("#code").inner_text()
    room_url = boss.url.removesuffix("/arbitro")

    ana, luis, eva = wide(browser), wide(browser), wide(browser)
    for page in (ana, luis, eva):
        page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(eva, server.base, "eva")
    join(ana, server.base, code, "Ana")
    join(luis, server.base, code, "Luis")
    join(eva, server.base, code, None)  # an account plays under its name
    assert eva.locator("#me-name").inner_text() == "eva"
    screen = browser.new_page(viewport={"width": 1920, "height": 1080})
    screen.on("pageerror", lambda e: errors.append(str(e)))
    screen.goto(room_url + "/pantalla")
    screen.wait_for_function("() => roomState && roomState.players_count === 3")
    assert screen.locator("#code").inner_text() == code

    masters = []
    for number in (1, 2, 3):
        boss.locator("#next:not([disabled])").click()
        for page in (ana, luis, eva, screen):
            page.wait_for_function(
                f"() => roomState.phase === 'playing' && roomState.round === {number}")
        master, score = boss.locator("#master-now").inner_text().split(" · ")
        masters.append(int(score))
        assert screen.locator("#master-box").is_hidden()  # the hall does not see it yet
        assert master not in screen.content()
        said = send_play(ana, "A1 ZZ")  # first a play that scores nothing
        assert "0 puntos" in said
        said = send_play(ana, master)  # then changed: the last one counts
        assert said == f"Recibida: {master} — {score} puntos si sus palabras son válidas"
        send_play(luis, "A1 ZZ")
        if number < 3:
            send_play(eva, master)
        screen.wait_for_function("() => /2 de 3|3 de 3/.test(document.getElementById('count')"
                                 ".textContent)")
        assert master not in luis.content()  # Ana's play is not shown to Luis
        if number == 1:
            screenshot(ana, "duplicada-jugador")
            screenshot(screen, "duplicada-pantalla")
        if number == 3:  # Eva waits for the end of the time, then sends her play
            eva.wait_for_function("() => secondsLeft() === 0")
            late = send_raw(eva, master)
            assert late["type"] == "error" and late["status"] == 409
            assert "fuera de tiempo" in late["error"]
        for page in (ana, luis, eva, screen):
            page.wait_for_function(f"() => roomState.phase !== 'playing' && roomState.round === "
                                   f"{number}", timeout=SECONDS * 1000 + 10_000)
        assert screen.locator("#master").inner_text() == f"{master} · {score}"
        assert ana.locator("#master").inner_text() == f"{master} · {score}"
        assert ana.locator("#my-result").inner_text().startswith(f"Tu jugada: {master} — ")
        assert f" — {score}" in ana.locator("#my-result").inner_text()
        assert "jugada no válida" in luis.locator("#my-result").inner_text() \
            or " — 0 puntos" in luis.locator("#my-result").inner_text()
        eva_result = eva.locator("#my-result").inner_text()
        assert (f"{master}" in eva_result) == (number < 3)
        ranking = screen.locator("#ranking").inner_text()
        assert "Ana" in ranking and "Luis" in ranking and "eva" in ranking
    for page in (ana, screen, boss):
        page.wait_for_function("() => roomState.phase === 'over'")
    final = ana.evaluate("() => roomState.standings")
    totals = {s["name"]: s["total"] for s in final}
    assert totals["Ana"] >= sum(masters)
    assert totals["Luis"] == 0
    assert sum(masters[:2]) <= totals["eva"] < totals["Ana"]
    screenshot(screen, "duplicada-pantalla-final")
    screenshot(boss, "duplicada-arbitro")
    assert not errors, errors
