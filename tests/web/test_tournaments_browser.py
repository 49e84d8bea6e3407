"""Issue 14, done when: a director runs a 6-player, 3-round online event to the end in
Chromium, and the public standings match a hand count.

The director signs up, is made a director by the admin, opens «Torneos» from the lobby,
creates the event, enters the six players by their accounts and pairs each round in the
browser; the games are played through the API by the players' own sessions (the lower-numbered
player lays the engine's best first play, the other resigns), each finished game posts its
result, and an anonymous browser watches the public page follow the event live.
"""

from __future__ import annotations

import httpx
from click.testing import CliRunner
from conftest import Server, screenshot
from test_tournaments_web import play_and_resign
from test_web_players import PASSWORD, sign_up, watch_errors, wide

from atril.cli import main
from atril.lexicon import Lexicon

BYE_SPREAD = 50


class Http:
    """A person's own session over HTTP, as the pages talk (the CSRF header once logged in)."""

    def __init__(self, base: str):
        self.http = httpx.Client(base_url=base)
        self.csrf: str | None = None

    def get(self, url: str):
        return self.http.get(url)

    def post(self, url: str, body: object = None):
        headers = {"X-CSRF-Token": self.csrf} if self.csrf else {}
        return self.http.post(url, json={} if body is None else body, headers=headers)

    def enter(self, name: str, *, new: bool) -> Http:
        r = self.post("/api/cuenta/alta" if new else "/api/cuenta/entrar",
                      {"name": name, "password": PASSWORD})
        assert r.status_code in (200, 201), r.text
        self.csrf = r.json()["csrf"]
        return self


def test_a_director_runs_a_six_player_three_round_online_event(browser, tmp_path):
    db = f"sqlite:///{tmp_path / 'served.sqlite3'}"
    server = Server(db, "--no-rate-limit")  # eight accounts sign up or log in at once
    try:
        run_the_event(server, browser, db)
    finally:
        server.stop()


def run_the_event(server: Server, browser, db: str) -> None:
    made = CliRunner().invoke(main, ["admin", "crear", "jefa", "--db", db, "--password-stdin"],
                              input=PASSWORD + "\n")
    assert made.exit_code == 0, made.output
    admin = Http(server.base).enter("jefa", new=False)
    names = ["ana", "luis", "eva", "juan", "marta", "pablo"]
    players = {name: Http(server.base).enter(name, new=True) for name in names}

    director = wide(browser)
    errors = watch_errors(director)
    sign_up(director, server.base, "directora")
    r = admin.post("/api/admin/roles", {"name": "directora", "role": "director", "grant": True})
    assert r.status_code == 200, r.text

    # the lobby links the tournaments; the director creates an online event
    director.goto(server.base + "/")
    director.click("header >> text=Torneos")
    director.wait_for_url("**/torneos")
    form = director.locator("#create-form")
    form.wait_for()
    form.locator("input[name=name]").fill("Open en línea de prueba")
    form.locator("input[name=mode][value=online]").check()
    form.locator("input[name=rounds]").fill("3")
    form.locator("input[name=king_rounds]").fill("1")
    form.locator("select[name=lexicon]").select_option("ES09")
    director.click("#create")
    director.wait_for_url("**/torneos/*")
    tid = director.url.rstrip("/").split("/")[-1]
    director.locator("#director:not(.hidden)").wait_for()
    for i, name in enumerate(names, 1):
        director.locator("#add-form input[name=account]").fill(name)
        director.click("#add")
        director.wait_for_function(f"() => event && event.players.length === {i}")
    assert director.locator("#standings tr[data-player]").count() == 6

    public = wide(browser)  # nobody logged in
    errors += watch_errors(public)
    public.goto(f"{server.base}/torneos/{tid}")
    public.wait_for_function("() => event && event.players.length === 6")
    assert public.locator("#director").is_hidden()

    es09 = Lexicon.load("ES09")
    number = {name: i for i, name in enumerate(names, 1)}
    wins = dict.fromkeys(names, 0)
    spread = dict.fromkeys(names, 0)
    for n in (1, 2, 3):
        director.click("#pair")
        director.wait_for_function(f"() => event && event.rounds.length === {n}")
        boards = director.evaluate(f"() => event.rounds[{n - 1}].games")
        assert len(boards) == 3
        assert not director.evaluate(f"() => event.rounds[{n - 1}].byes.length")
        for board in boards:
            a, b = (names[p - 1] for p in board["players"])
            winner, loser = sorted((a, b), key=number.__getitem__)  # the lower number wins
            won, lost = play_and_resign(players[winner], players[loser], board["game"], es09)
            margin = won - lost if won > lost else BYE_SPREAD  # else posted as a forfeit
            wins[winner] += 1
            spread[winner] += margin
            spread[loser] -= margin
        # the public page follows: every result of the round in, without reloading
        public.wait_for_function(f"() => event.rounds.length === {n} && "
                                 f"event.rounds[{n - 1}].games.every((g) => g.done)",
                                 timeout=20000)
        director.wait_for_function(f"() => event.rounds[{n - 1}].games.every((g) => g.done)",
                                   timeout=20000)
    assert director.locator("#pair").is_disabled()  # all three rounds played

    shown = {}
    for row in public.locator("#standings tr[data-player]").all():
        shown[row.locator("td.name").inner_text()] = (
            float(row.locator("td.wins").inner_text().replace(",", ".")),
            int(row.locator("td.spread").inner_text().replace("+", "")))
    assert shown == {name: (wins[name], spread[name]) for name in names}
    order = [public.locator("#standings tr[data-player] td.wins").nth(i).inner_text()
             for i in range(6)]
    assert [float(w) for w in order] == sorted((float(w) for w in order), reverse=True)
    assert sum(wins.values()) == 9 and sum(spread.values()) == 0
    # the scorecard of the winner of every game: three wins
    public.goto(f"{server.base}/torneos/{tid}/jugador/1")
    public.wait_for_function("() => event && document.querySelectorAll('#card tr').length === 4")
    assert "3 victorias" in public.locator("#summary").inner_text()
    screenshot(director, "torneo-director")
    assert not errors, errors
