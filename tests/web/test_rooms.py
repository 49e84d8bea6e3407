"""Issue 15, web rooms: a director opens a duplicate room, players join by code (guests and
accounts), submit plays scored as ``atril.duplicate`` scores them, a play after the deadline is
refused, nobody sees another player's play before the round closes, and the arbiter enters
paper slips, overrides a master move and corrects a slip (the standings follow). On SQLite and
PostgreSQL. The server's clock is replaced by a test clock (``Rooms.clock``)."""

from __future__ import annotations

import json

import pytest
from test_accounts import PASSWORD, Player, unique
from test_web_api import assert_error

from atril.duplicate import Bonuses, Duplicate, Slip, score_slip
from atril.web.accounts import Accounts
from atril.web.rooms import Rooms

SEED = 7  # ES09: AIMOTUZ (H3 AZIMUT 54), then AADHMOU (I8 AHUMADO 71), BDEGISS (15E BIDES 38)
ROOM = {"rounds": 3, "seconds": 60, "seed": SEED}


class Clock:
    """The server's clock in these tests: it moves only when told."""

    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def rooms_of(client) -> Rooms:
    """The app's ``Rooms`` (its routes' owner)."""
    for route in client.app.routes:
        if getattr(route, "path", None) == "/api/duplicadas":
            return route.endpoint.__self__
    raise AssertionError("no hay salas")


@pytest.fixture
def clock(client) -> Clock:
    test_clock = Clock()
    rooms_of(client).clock = test_clock
    return test_clock


def director(client) -> Player:
    """An account with the director role, logged in."""
    name = unique("dire")
    Accounts(client.app.state.store).sign_up(name, PASSWORD, granted=("director",))
    boss = Player(client)
    assert boss.log_in(name).status_code == 200
    return boss


def open_room(boss: Player, **options) -> dict:
    r = boss.post("/api/duplicadas", {**ROOM, **options})
    assert r.status_code == 201, r.text
    return r.json()


def join(who, code: str, name: str | None = None) -> dict:
    poster = who if isinstance(who, Player) else Player(who)
    r = poster.post("/api/duplicadas/unirse", {"code": code, "name": name})
    assert r.status_code == 201, r.text
    return r.json()


def arbiter(boss: Player, room: dict, **body):
    return boss.post(f"/api/duplicadas/{room['id']}/arbitro", body)


def act(boss: Player, room: dict, **body) -> dict:
    r = arbiter(boss, room, **body)
    assert r.status_code == 200, r.text
    return r.json()


def view(client, room: dict, token: str | None = None, rol: str | None = None) -> dict:
    query = "&".join(f"{k}={v}" for k, v in (("t", token), ("rol", rol)) if v)
    r = client.get(f"/api/duplicadas/{room['id']}?{query}")
    assert r.status_code == 200, r.text
    return r.json()


def submit(client, room: dict, token: str, move: str):
    return client.post(f"/api/duplicadas/{room['id']}/jugada", json={"t": token, "move": move})


def receive(ws, kind: str) -> dict:
    """The next message of that type (views pushed meanwhile are skipped)."""
    while True:
        message = ws.receive_json()
        if message["type"] == kind or kind != "state" and message["type"] == "error":
            return message


def library_round(number: int, names: tuple[str, ...] = ("Ana", "Luis", "Eva")) -> Duplicate:
    """The same game in the library, with round ``number`` open."""
    game = Duplicate(names, seed=SEED, rounds=3)
    for _ in range(number - 1):
        game.start_round()
        game.close_round()
    game.start_round()
    return game


# -- opening and joining -----------------------------------------------------------------------
def test_only_a_director_opens_a_room(client):
    assert_error(client.post("/api/duplicadas", json=ROOM), 403)
    assert_error(Player(client).sign_up().post("/api/duplicadas", ROOM), 403)
    boss = director(client)
    room = open_room(boss)
    assert room["url"] == f"/duplicada/{room['id']}"
    assert len(room["code"]) == 6
    for bad in ({"seconds": 1}, {"rounds": 0}, {"bonuses": {"master": -1}},
                {"auto_advance": "sí"}, {"ruleset": "nada"}):
        assert_error(boss.post("/api/duplicadas", {**ROOM, **bad}), 400)
    # a player is not the director, nor is another director
    other = director(client)
    assert_error(arbiter(other, room, action="next"), 403)
    assert_error(arbiter(Player(client), room, action="next"), 403)
    assert client.get(f"/api/duplicadas/{room['id']}?rol=arbitro").status_code == 403


def test_players_join_by_code_as_guests_and_as_accounts(client):
    boss = director(client)
    room = open_room(boss)
    guest = join(client, room["code"].lower(), "Ana")  # the code ignores case
    assert guest["id"] == room["id"] and guest["player"] == 0 and guest["token"]
    twin = join(client, room["code"], "Ana")
    assert twin["player"] == 1
    luis = Player(client).sign_up()
    mine = join(luis, room["code"], "no cuenta")
    again = join(luis, room["code"])
    assert mine["player"] == again["player"] == 2  # an account is one player
    assert_error(Player(client).post("/api/duplicadas/unirse", {"code": "ZZZZZZ"}), 404)
    me = view(client, room, guest["token"])
    assert me["role"] == "player" and me["me"]["name"] == "Ana" and me["phase"] == "lobby"
    assert view(client, room, twin["token"])["me"]["name"] == "Ana (2)"
    by_session = luis.get(f"/api/duplicadas/{room['id']}").json()
    assert by_session["me"]["name"] == luis.name
    staff = boss.get(f"/api/duplicadas/{room['id']}?rol=arbitro").json()
    assert [p["name"] for p in staff["players"]] == ["Ana", "Ana (2)", luis.name]
    assert view(client, room)["role"] == "screen"


# -- a round -------------------------------------------------------------------------------------
def test_plays_are_scored_as_the_library_scores_them(client, clock):
    boss = director(client)
    room = open_room(boss)
    tokens = [join(client, room["code"], n)["token"] for n in ("Ana", "Luis", "Eva")]
    started = act(boss, room, action="next")
    assert started["phase"] == "playing" and started["round"] == 1
    assert sorted(started["rack"]) == sorted("AIMOTUZ")
    assert started["master_now"]["notation"] == "H3 AZIMUT"  # the director sees it
    assert started["remaining"] == 60
    plays = ["H3 AZIMUT", "H8 ZUMO", "H8 MUTIZ"]
    game = library_round(1)
    rnd = game.current
    acks = []
    for token, play in zip(tokens, plays):
        clock.now += 1
        r = submit(client, room, token, play)
        assert r.status_code == 200, r.text
        acks.append(r.json())
    expected = [score_slip(rnd.board, rnd.rack, game.lexicon, Slip(p)) for p in plays]
    assert [a["score"] for a in acks[:2]] == [54, 30] == [e.score for e in expected[:2]]
    # a word not in the lexicon: the placement's score on receipt, 0 «jugada no válida» at
    # the close (no word judge during the round)
    assert expected[2].reason == "invalid" and acks[2]["reason"] is None
    assert acks[2]["score"] == expected[2].play.score > 0
    bad = submit(client, room, tokens[2], "hola").json()
    assert bad["reason"] == "malformed" and bad["score"] == 0
    assert submit(client, room, tokens[2], "H8 MUTIZ").status_code == 200  # changed back
    clock.now += 60
    closed = view(client, room, tokens[0])
    assert closed["phase"] == "results"
    assert closed["master"]["notation"] == "H3 AZIMUT" and closed["master"]["score"] == 54
    for p, play in enumerate(plays):
        game.submit(p, play)
    game.close_round()
    by_player = {r["player"]: r for r in closed["ranking"]}
    assert [by_player[p]["score"] for p in range(3)] == game.rounds[0].scores == [54, 30, 0]
    assert by_player[2]["reason"] == "invalid"
    assert closed["me"]["result"]["score"] == 54 and closed["me"]["result"]["rank"] == 1
    assert closed["standings"] == [s.to_dict() for s in game.standings()]
    # the next rounds, to the end of the game (3 rounds)
    for number in (2, 3):
        assert act(boss, room, action="next")["round"] == number
        clock.now += 61
        assert view(client, room)["phase"] == ("results" if number < 3 else "over")
    over = view(client, room)
    assert over["end"]["code"] == "rounds" and over["seed"] == SEED
    assert_error(arbiter(boss, room, action="next"), 409)


def test_a_play_after_the_deadline_is_refused(client, clock):
    boss = director(client)
    room = open_room(boss)
    ana, luis = (join(client, room["code"], n)["token"] for n in ("Ana", "Luis"))
    assert_error(submit(client, room, ana, "H8 ZUMO"), 409)  # not started
    act(boss, room, action="next")
    clock.now += 60 - 0.001  # the last millisecond still counts
    assert submit(client, room, ana, "H8 ZUMO").status_code == 200
    clock.now += 0.001  # the deadline itself is late: no grace
    late = assert_error(submit(client, room, luis, "H3 AZIMUT"), 409)
    assert "fuera de tiempo" in late["error"]
    assert_error(submit(client, room, ana, "H3 AZIMUT"), 409)  # nor may Ana change hers
    results = view(client, room)
    scores = {r["name"]: (r["score"], r["reason"]) for r in results["ranking"]}
    assert scores == {"Ana": (30, None), "Luis": (0, "missing")}
    assert_error(client.post(f"/api/duplicadas/{room['id']}/jugada",
                             json={"t": "otro", "move": "H8 ZUMO"}), 403)


def test_nobody_sees_another_play_before_the_close(client, clock):
    boss = director(client)
    room = open_room(boss)
    ana, luis = (join(client, room["code"], n)["token"] for n in ("Ana", "Luis"))
    act(boss, room, action="next")
    with client.websocket_connect(f"/ws/duplicada/{room['id']}?t={luis}") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["state"]["me"]["name"] == "Luis"
        ws.send_text(json.dumps({"action": "submit", "id": 1, "move": "H8 ZUMO"}))
        ack = receive(ws, "ack")
        assert ack["type"] == "ack" and ack["id"] == 1 and ack["score"] == 30
        assert submit(client, room, ana, "H3 AZIMUT").status_code == 200
        for seen in (view(client, room, luis), view(client, room), view(client, room, ana)):
            text = json.dumps(seen)
            assert "AZIMUT" not in text if seen.get("me", {}).get("name") != "Ana" else True
            assert seen["master"] is None and seen["ranking"] is None
            assert "master_now" not in seen and "record" not in seen
        assert "ZUMO" not in json.dumps(view(client, room, ana))
        assert view(client, room, ana)["me"]["slip"]["notation"] == "H3 AZIMUT"
        staff = boss.get(f"/api/duplicadas/{room['id']}?rol=arbitro").json()
        assert [p["submitted"] for p in staff["players"]] == [True, True]
        assert "ZUMO" not in json.dumps(staff) and "AZIMUT" in json.dumps(staff["master_now"])
        clock.now += 60
        ws.send_text(json.dumps({"action": "submit", "id": 2, "move": "H3 AZIMUT"}))
        refused = receive(ws, "error")
        assert refused == {"type": "error", "id": 2, "status": 409, "error": refused["error"]}
        assert "fuera de tiempo" in refused["error"]
    after = view(client, room, luis)
    assert {r["text"] for r in after["ranking"]} == {"H8 ZUMO", "H3 AZIMUT"}


def test_the_arbiter_enters_slips_overrides_and_corrects(client, clock):
    boss = director(client)
    room = open_room(boss, bonuses={"min_players": None})
    ana = join(client, room["code"], "Ana")["token"]
    hall = act(boss, room, action="add_player", name="Pepe")
    assert hall["players"][1] == {"player": 1, "name": "Pepe", "hall": True, "account": False,
                                  "submitted": False}
    act(boss, room, action="next")
    assert submit(client, room, ana, "H8 ZUMO").status_code == 200
    # the arbiter picks another master move while the round is open
    assert_error(arbiter(boss, room, action="override", move="H8 ZZZ"), 400)
    chosen = act(boss, room, action="override", move="H8 ZUMO")
    assert chosen["master_now"] == {"notation": "H8 ZUMO", "score": 30, "overridden": True,
                                    "squares": chosen["master_now"]["squares"]}
    # Pepe's paper slip, typed by the arbiter during the round
    entered = act(boss, room, action="slip", round=1, player=1, move="H3 AZIMUT")
    assert entered["players"][1]["submitted"]
    clock.now += 61
    closed = view(client, room)
    assert closed["master"]["notation"] == "H8 ZUMO" and closed["master"]["overridden"]
    ranks = {r["name"]: (r["score"], r["bonus"]) for r in closed["ranking"]}
    # both found the master score (30, or more): no one alone, so no 10; nobody below it
    assert ranks == {"Ana": (30, 0), "Pepe": (54, 0)}
    # the arbiter corrects Ana's slip afterwards: the standings are computed again
    corrected = act(boss, room, action="slip", round=1, player=0, move="H8 MU")
    game = Duplicate(["Ana", "Pepe"], seed=SEED, rounds=3, bonuses=Bonuses(min_players=None))
    game.start_round()
    game.override("H8 ZUMO")
    game.submit(0, "H8 MU")
    game.submit(1, "H3 AZIMUT")
    game.close_round()
    assert corrected["standings"] == [s.to_dict() for s in game.standings()]
    assert {s["name"]: s["bonus"] for s in corrected["standings"]} == {"Ana": 5, "Pepe": 10}
    assert corrected["record"][0]["slips"][0]["text"] == "H8 MU"
    assert [e["action"] for e in corrected["log"]] == ["override", "entry", "correction"]
    player_view = view(client, room, ana)
    assert player_view["me"]["standing"]["total"] == game.standings()[1].total
    assert_error(arbiter(boss, room, action="slip", round=5, player=0, move="H8 MU"), 409)
    assert_error(arbiter(boss, room, action="volar"), 400)
    stopped = act(boss, room, action="stop")
    assert stopped["phase"] == "over" and stopped["end"]["code"] == "arbiter"


def test_the_screen_follows_the_rounds_over_its_websocket(client, clock):
    boss = director(client)
    room = open_room(boss)
    ana = join(client, room["code"], "Ana")["token"]
    with client.websocket_connect(f"/ws/duplicada/{room['id']}?rol=pantalla") as ws:
        assert ws.receive_json()["state"]["phase"] == "lobby"
        act(boss, room, action="next")
        state = ws.receive_json()["state"]
        while state["phase"] != "playing":
            state = ws.receive_json()["state"]
        assert state["role"] == "screen" and state["master"] is None and state["remaining"]
        submit(client, room, ana, "H8 ZUMO")
        counted = receive(ws, "count")
        assert counted == {"type": "count", "round": 1, "submitted": 1}
        clock.now += 61
        state = ws.receive_json()["state"]  # the watch closes the round by itself
        assert state["phase"] == "results" and state["master"]["score"] == 54
        assert state["ranking"][0]["text"] == "H8 ZUMO"


def test_tiles_placed_on_squares_are_a_play(client, clock):
    boss = director(client)
    room = open_room(boss)
    ana = join(client, room["code"], "Ana")["token"]
    act(boss, room, action="next")
    url = f"/api/duplicadas/{room['id']}/jugada"
    placed = [["H8", "Z"], ["H9", "U"], ["H10", "M"], ["H11", "O"]]
    ack = client.post(url, json={"t": ana, "placed": placed}).json()
    assert ack["text"] == ack["notation"] == "H8 ZUMO" and ack["score"] == 30
    assert_error(client.post(url, json={"t": ana, "placed": [["H8", "Z"], ["J8", "U"]]}), 422)
    clock.now += 61
    assert view(client, room, ana)["me"]["result"]["score"] == 30
