"""Issue 10, item 5: the clocks are the server's. Games end on time when time runs out, not
when someone next acts; the computer plays after a restart with no page asking; time the
server was down is not charged to anyone.

To reach an 8-minute overtime without waiting 8 minutes, a test moves a stored clock forward
(the seconds already used), exactly as if that time had passed; everything else is the real
server: its database, its watch task, its WebSocket.
"""

from __future__ import annotations

import json
import time

import pytest
from conftest import Server, upload_words
from starlette.testclient import TestClient
from test_web_api import assert_error, join, view
from websockets.sync.client import connect

from atril.errors import LexiconError
from atril.game import Game
from atril.web.app import create_app
from atril.web.games import Games, index
from atril.web.lexicons import Lexicons
from atril.web.store import open_store


def spend(store, game_id: str, player: int, seconds: float) -> None:
    """Charge ``seconds`` more to ``player``'s clock of a stored game (time passing)."""
    version, doc = store.load(game_id)
    lexicon = Lexicons(store).get(doc["game"]["lexicon"])

    def change(doc: dict, version: int):
        doc["game"]["clock"]["used"][player] += seconds
        return None, index(doc, Game.from_dict(doc["game"], lexicon=lexicon))

    store.update(game_id, version, change)


def wait_for(predicate, seconds: float = 10.0):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("no llegó a tiempo")


def until_over(ws) -> dict:
    """The first state pushed to this WebSocket with the game over (with PostgreSQL the
    test's own change to the clock is pushed first)."""
    for _ in range(5):
        state = ws.receive_json()["state"]
        if state["over"] is not None:
            return state
    raise AssertionError("la partida no terminó")


def remote_game(client, **options) -> tuple[str, dict[str, str]]:
    options = {"mode": "remote", "lexicon": upload_words(client), "seed": 11, **options}
    created = client.post("/api/partidas", json=options).json()
    return created["id"], {"0": created["token"],
                           "1": join(client, created["id"], created["invite"])}


def test_an_overtime_loss_ends_the_game_when_it_happens(client):
    # art. 35 (FILE 2024): more than 8 minutes over the clock loses the game
    game_id, tokens = remote_game(client, ruleset="FILE2024", minutes=1)
    state = view(client, game_id, tokens["0"])
    late = state["to_move"]
    with client.websocket_connect(f"/ws/partidas/{game_id}?t={tokens[str(1 - late)]}") as ws:
        ws.receive_json()
        spend(client.app.state.store, game_id, late, 60 + 8 * 60 + 0.5)
        pushed = until_over(ws)  # nobody acted: the server's watch ended it
    assert pushed["over"]["reason"] == "overtime" and pushed["over"]["winner"] == 1 - late
    assert view(client, game_id, tokens["0"])["over"]["reason"] == "overtime"


def test_the_late_player_acting_gets_the_ending_and_it_is_stored(tmp_path):
    # art. 35 (FILE 2024); the watch is slowed down so that the action comes first
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    with TestClient(create_app(url, test_seeds=True, rate_limits=False, tick=3600)) as client:
        game_id, tokens = remote_game(client, ruleset="FILE2024", minutes=1)
        late = view(client, game_id, tokens["0"])["to_move"]
        spend(client.app.state.store, game_id, late, 60 + 8 * 60 + 0.5)
        state = view(client, game_id, tokens[str(late)])
        r = client.post(f"/api/partidas/{game_id}/accion",
                        json={"t": tokens[str(late)], "version": state["version"],
                              "action": "pass"})
        assert_error(r, 409, "35 FISE 2009")  # FILE 2024: as the 2018 summary, no time rules
        other = view(client, game_id, tokens[str(1 - late)])  # stored: not 409 for ever
        assert other["over"]["reason"] == "overtime" and other["over"]["winner"] == 1 - late


def test_the_game_time_limit_ends_the_game_unasked(client):
    # art. 30, 45.5: the game's own time; here 1.2 seconds from the invitee's arrival
    game_id, tokens = remote_game(client, game_minutes=0.02)
    with client.websocket_connect(f"/ws/partidas/{game_id}") as ws:
        first = ws.receive_json()["state"]
        assert first["over"] is None
        over = until_over(ws)["over"]
    assert over["reason"] == "time" and over["article"] == "45.5"


def test_downtime_is_not_charged_to_the_clocks(tmp_path):
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    with TestClient(create_app(url, test_seeds=True, rate_limits=False,
                               downtime_after=0.5)) as client:
        game_id, tokens = remote_game(client, minutes=25)
        before = view(client, game_id, tokens["0"])
    time.sleep(2.0)  # the server is down
    with TestClient(create_app(url, test_seeds=True, rate_limits=False,
                               downtime_after=0.5)) as client:
        after = view(client, game_id, tokens["0"])
    running = before["clock"]["running"]
    lost = before["clock"]["remaining"][running] - after["clock"]["remaining"][running]
    assert lost < 1.0  # not the two seconds the server was away
    assert len(after["downtime"]) == 1 and after["downtime"][0]["seconds"] >= 1


def test_a_game_whose_list_is_gone_does_not_stop_the_server_starting(tmp_path, monkeypatch):
    # a game on a word list removed while the server was down: its clock is left as it is
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    with TestClient(create_app(url, test_seeds=True, rate_limits=False,
                               downtime_after=0.5)) as client:
        gone, _tokens = remote_game(client, minutes=25)
        kept, tokens = remote_game(client, minutes=25, lexicon="ES09")
    time.sleep(1.0)
    lists = Lexicons.get

    def get(self, lex_id):
        if lex_id != "ES09":
            raise LexiconError(f"no hay ningún léxico «{lex_id}»")
        return lists(self, lex_id)

    monkeypatch.setattr(Lexicons, "get", get)
    with TestClient(create_app(url, test_seeds=True, rate_limits=False,
                               downtime_after=0.5)) as client:
        assert len(view(client, kept, tokens["0"])["downtime"]) == 1
        assert client.get(f"/api/partidas/{gone}").status_code == 400


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_the_computer_plays_after_a_restart_with_no_request(db, tmp_path, request):
    url = (f"sqlite:///{tmp_path / 'a.sqlite3'}" if db == "sqlite"
           else request.getfixturevalue("pg_url"))
    store = open_store(url)  # a server that stored the game and died before the computer moved
    games = Games(store, Lexicons(store), test_seeds=True)
    game_id, token, _ = games.create({"mode": "computer", "lexicon": "ES09", "seed": 4})
    version, doc = store.load(game_id)
    if games.game(game_id, version, doc).player_to_move == 0:
        games.act(game_id, {"t": token, "action": "pass"})
    version, doc = store.load(game_id)
    assert games.game(game_id, version, doc).player_to_move == 1
    store.close()
    server = Server(url)
    try:
        with connect(f"ws://127.0.0.1:{server.port}/ws/partidas/{game_id}?t={token}",
                     open_timeout=10) as ws:
            state = json.loads(ws.recv(timeout=10))["state"]
            while state["to_move"] != 0 or state["thinking"]:
                state = json.loads(ws.recv(timeout=20))["state"]
        computer_moved = (state["pending"] or {}).get("player") == 1 or (
            len(state["sheet"]) >= 2 and state["sheet"][-1]["player"] == 1)
        assert computer_moved  # a play waits for the person's decision; else it is on the sheet
    finally:
        server.stop()
