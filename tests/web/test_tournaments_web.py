"""Issue 14, item 3: tournaments on ``atril serve`` — who may create and direct an event, the
venue and online modes, results posted by the games themselves, the players' confirmations
(art. 44) and what the public pages show. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import upload_words
from test_accounts import Player, make_admin, unique
from test_web_api import assert_error
from test_web_browser import TWO_TILES, best_move

from atril import tiles as T


@pytest.fixture
def director(db_url, client) -> Player:
    """An account with the director role, granted by an admin."""
    boss = unique("jefa")
    make_admin(db_url, boss)
    admin = Player(client)
    assert admin.log_in(boss).status_code == 200
    director = Player(client).sign_up(unique("dire"))
    r = admin.post("/api/admin/roles", {"name": director.name, "role": "director",
                                        "grant": True})
    assert r.status_code == 200, r.text
    return director


def create(director: Player, **options) -> str:
    r = director.post("/api/torneos", {"name": "Open de prueba", "rounds": 3, **options})
    assert r.status_code == 201, r.text
    assert r.json()["url"] == f"/torneos/{r.json()['id']}"
    return r.json()["id"]


def view(player: Any, tid: str) -> dict:
    http = player.http if isinstance(player, Player) else player
    r = http.get(f"/api/torneos/{tid}")
    assert r.status_code == 200, r.text
    return r.json()


def add(director: Player, tid: str, **body) -> int:
    r = director.post(f"/api/torneos/{tid}/jugadores", body)
    assert r.status_code == 201, r.text
    return r.json()["number"]


def pair(director: Player, tid: str, **body) -> dict:
    r = director.post(f"/api/torneos/{tid}/rondas", body)
    assert r.status_code == 201, r.text
    return view(director, tid)["rounds"][-1]


# -- creating ------------------------------------------------------------------------------------
def test_only_a_director_creates_a_tournament(client, director):
    body = {"name": "Open", "rounds": 3}
    assert_error(client.post("/api/torneos", json=body), 403)           # a guest
    assert_error(Player(client).sign_up().post("/api/torneos", body), 403)  # a player
    for bad in ({"name": ""}, {"name": 5}, {"name": "x" * 81}, {"name": "Open", "rounds": 0},
                {"name": "Open", "rounds": "3"}, {"name": "Open", "mode": "mixto"},
                {"name": "Open", "system": "rey"}, {"name": "Open", "rated": "sí"},
                {"name": "Open", "mode": "online", "game": {"ruleset": "nada"}},
                {"name": "Open", "mode": "online", "game": {"minutes": 999}},
                {"name": "Open", "game": [1]}, {"name": "Open", "prizes": 0}):
        assert_error(director.post("/api/torneos", bad), 400)
    assert_error(director.post("/api/torneos", ["Open"]), 400)
    assert_error(director.post("/api/torneos", {"name": "Open\u200b"}), 400)
    create(director, name="Campeonato de España de Scrabble por parejas 2025")  # > 30 characters
    tid = create(director)
    listed = client.get("/api/torneos").json()["tournaments"]
    mine = next(t for t in listed if t["id"] == tid)
    assert mine == {**mine, "name": "Open de prueba", "mode": "venue", "director": director.name,
                    "players": 0, "rounds": 0, "planned": 3}
    assert client.get(f"/torneos/{tid}").status_code == 200        # the pages, for anyone
    assert client.get("/torneos").status_code == 200
    assert client.get(f"/torneos/{tid}/jugador/1").status_code == 200
    assert_error(client.get("/api/torneos/nada"), 404)


# -- at the venue ----------------------------------------------------------------------------------
def test_a_venue_event_the_director_pairs_and_enters_results(client, director):
    tid = create(director, rounds=2, king_rounds=1)
    stranger = Player(client).sign_up()
    assert_error(stranger.post(f"/api/torneos/{tid}/jugadores", {"name": "Eva"}), 403)
    assert_error(client.post(f"/api/torneos/{tid}/jugadores", json={"name": "Eva"}), 403)
    numbers = [add(director, tid, name=n, rating=r) for n, r in
               (("Ana", 1900), ("Luis", 1850), ("Eva", 1700), ("Juan", None))]
    assert numbers == [1, 2, 3, 4]
    assert_error(director.post(f"/api/torneos/{tid}/jugadores", {"name": "ana"}), 400)  # twice
    assert_error(director.post(f"/api/torneos/{tid}/jugadores", {"name": "Pepe",
                                                                 "rating": -5}), 400)
    assert_error(director.post(f"/api/torneos/{tid}/jugadores", {"name": "a\u202eb"}), 400)
    assert_error(director.post(f"/api/torneos/{tid}/jugadores", {"account": "nadie-aqui"}), 404)
    assert_error(stranger.post(f"/api/torneos/{tid}/rondas"), 403)
    assert_error(director.post(f"/api/torneos/{tid}/rondas", {"system": "azar"}), 400)
    rnd = pair(director, tid)
    assert rnd["number"] == 1 and rnd["system"] == "suizo"
    assert len(rnd["games"]) == 2 and not rnd["byes"]
    assert all(g["game"] is None for g in rnd["games"])   # at the venue: no server games
    assert_error(director.post(f"/api/torneos/{tid}/rondas"), 400)  # results missing
    (a, b), (c, d) = (g["players"] for g in rnd["games"])
    r = director.post(f"/api/torneos/{tid}/resultado",
                      {"round": 1, "a": a, "score_a": 420, "b": b, "score_b": 380})
    assert r.status_code == 200, r.text
    version = r.json()["version"]
    stale = {"round": 1, "a": c, "score_a": 300, "b": d, "score_b": 310, "version": version - 1}
    assert_error(director.post(f"/api/torneos/{tid}/resultado", stale), 409)
    for bad in ({"round": 1, "a": a, "score_a": 1, "b": c, "score_b": 2},   # not paired
                {"round": 9, "a": a, "score_a": 1, "b": b, "score_b": 2},
                {"round": 1, "a": a, "score_a": "x", "b": b, "score_b": 2},
                {"round": 1, "a": a, "b": b}, {"a": a}, {"round": 1, "forfeit": 99}):
        assert_error(director.post(f"/api/torneos/{tid}/resultado", bad), 400)
    assert_error(stranger.post(f"/api/torneos/{tid}/resultado", {**stale, "version": None}), 403)
    r = director.post(f"/api/torneos/{tid}/resultado", {"round": 1, "forfeit": d})
    assert r.status_code == 200, r.text
    public = view(client, tid)  # no login at all
    assert not public["you"]["director"] and public["you"]["player"] is None
    wins = {s["name"]: s["wins"] for s in public["standings"]}
    names = {p["number"]: p["name"] for p in public["players"]}
    assert wins == {names[a]: 1, names[b]: 0, names[c]: 1, names[d]: 0}
    spreads = {s["name"]: s["spread"] for s in public["standings"]}
    assert spreads[names[a]] == 40 and spreads[names[c]] == 50  # a forfeit: the bye spread
    card_a = public["cards"][str(a)]
    assert card_a == [{"round": 1, "opponent": b, "started": True, "score": 420,
                       "opponent_score": 380, "result": 1, "spread": 40, "kind": "game",
                       "wins": 1, "total_spread": 40}]
    assert public["cards"][str(d)][0]["kind"] == "forfeit"
    # the director corrects a result at any time; withdraws a player from the next round
    r = director.post(f"/api/torneos/{tid}/resultado",
                      {"round": 1, "a": b, "score_a": 400, "b": a, "score_b": 399})
    assert r.status_code == 200
    assert view(client, tid)["cards"][str(b)][0]["result"] == 1
    assert director.post(f"/api/torneos/{tid}/jugadores/{d}/baja").status_code == 200
    assert_error(director.post(f"/api/torneos/{tid}/jugadores/{d}/baja"), 400)
    rnd2 = pair(director, tid)
    assert d not in [p for g in rnd2["games"] for p in g["players"]]
    assert [b["player"] for b in rnd2["byes"]] and len(rnd2["games"]) == 1
    assert view(director, tid)["you"]["director"]
    backup = director.get(f"/api/torneos/{tid}/json")
    assert backup.status_code == 200 and backup.json()["format"] == "atril-tournament"
    assert_error(stranger.get(f"/api/torneos/{tid}/json"), 403)
    assert_error(client.get(f"/api/torneos/{tid}/json"), 403)
    assert_error(director.post(f"/api/torneos/{tid}/rondas"), 409)  # both rounds planned


# -- online ----------------------------------------------------------------------------------------
def online_event(client, director, n: int = 4, **options) -> tuple[str, list[Player]]:
    lexicon = upload_words(client)
    tid = create(director, mode="online", rounds=2, game={"lexicon": lexicon}, **options)
    players = [Player(client).sign_up(unique(f"p{i}")) for i in range(n)]
    assert_error(director.post(f"/api/torneos/{tid}/jugadores", {"name": "Sin cuenta"}), 400)
    for i, p in enumerate(players):
        assert add(director, tid, account=p.name) == i + 1
    assert_error(director.post(f"/api/torneos/{tid}/jugadores",
                               {"account": str(players[0].name).upper()}), 409)
    return tid, players


def game_view(player, game_id: str) -> dict:
    http = player.http if isinstance(player, Player) else player
    r = http.get(f"/api/partidas/{game_id}")
    assert r.status_code == 200, r.text
    return r.json()


def test_online_pairings_create_the_games_with_the_players_accounts(client, director):
    tid, players = online_event(client, director)
    rnd = pair(director, tid)
    by_number = {i + 1: p for i, p in enumerate(players)}
    for board in rnd["games"]:
        assert board["game"] and board["starts"] == board["players"][0]
        for seat, number in enumerate(board["players"]):
            seen = game_view(by_number[number], board["game"])
            assert seen["seat"] == seat and len(seen["rack"]) == 7  # found by their account
            assert seen["players"][seat]["account"] == by_number[number].name
        watcher = game_view(client, board["game"])
        assert watcher["seat"] is None and watcher["rack"] == []
        other = Player(client).sign_up()
        assert game_view(other, board["game"])["seat"] is None
        # a tournament game is never aborted by a player
        r = by_number[board["players"][0]].post(f"/api/partidas/{board['game']}/accion",
                                                {"action": "abort"})
        assert_error(r, 409)
        assert_error(other.post(f"/api/partidas/{board['game']}/accion", {"action": "pass"}),
                     403)
    mine = by_number[1].get("/api/mis-partidas").json()["games"]
    assert [g["id"] for g in mine] == [b["game"] for b in rnd["games"] if 1 in b["players"]]


def play_and_resign(winner: Any, loser: Any, game_id: str,
                    lexicon=TWO_TILES) -> tuple[int, int]:
    """The winner lays the best two tiles (after the loser passes if the loser starts, and
    after exchanging a rack that makes no word); the loser resigns. The winner's and the
    loser's final scores."""
    state = game_view(winner, game_id)
    if not state["can"]["play"]:
        r = loser.post(f"/api/partidas/{game_id}/accion", {"action": "pass"})
        assert r.status_code == 200, r.text
        state = game_view(winner, game_id)
    move = best_move(state, lexicon)
    for _ in range(2):  # a rack with no word (the bag is the server's): exchange it (art. 25)
        if move is not None:
            break
        r = winner.post(f"/api/partidas/{game_id}/accion",
                        {"action": "exchange", "tiles": state["rack"]})
        assert r.status_code == 200, r.text
        r = loser.post(f"/api/partidas/{game_id}/accion", {"action": "pass"})
        assert r.status_code == 200, r.text
        state = game_view(winner, game_id)
        move = best_move(state, lexicon)
    assert move is not None
    placed = [[sq, T.tile_to_human(tile)] for sq, tile in move.placed]
    r = winner.post(f"/api/partidas/{game_id}/accion", {"action": "play", "placed": placed})
    assert r.status_code == 200, r.text
    r = loser.post(f"/api/partidas/{game_id}/accion", {"action": "resign"})
    assert r.status_code == 200, r.text
    final = game_view(winner, game_id)
    assert final["over"]
    seat = final["seat"]
    scores = final["final"]
    return scores[seat], scores[1 - seat]


def test_finished_games_post_their_results_and_players_confirm(client, director):
    tid, players = online_event(client, director)
    by_number = {i + 1: p for i, p in enumerate(players)}
    rnd = pair(director, tid)
    (a, b), (c, d) = (g["players"] for g in rnd["games"])
    first, second = (g["game"] for g in rnd["games"])
    # the director enters the second board before its game ends: that result stands
    r = director.post(f"/api/torneos/{tid}/resultado",
                      {"round": 1, "a": c, "score_a": 0, "b": d, "score_b": 100})
    assert r.status_code == 200
    mine, theirs = play_and_resign(by_number[a], by_number[b], first)
    assert mine > 0 and theirs == 0
    r = by_number[d].post(f"/api/partidas/{second}/accion", {"action": "resign"})
    assert r.status_code == 200, r.text
    public = view(client, tid)
    boards = public["rounds"][0]["games"]
    assert boards[0]["scores"] == [mine, 0] and boards[0]["done"]
    assert boards[1]["scores"] == [0, 100] and not boards[1]["forfeits"]
    # confirmations: only the two players of the game, once the result is in
    stranger = Player(client).sign_up()
    url = f"/api/torneos/{tid}/confirmar"
    assert_error(stranger.post(url, {"round": 1}), 403)
    assert_error(client.post(url, json={"round": 1}), 403)
    assert_error(director.post(url, {"round": 1}), 403)  # the director signs nothing
    assert_error(by_number[a].post(url, {"round": 7}), 404)
    assert_error(by_number[a].post(url, {}), 400)
    r = by_number[a].post(url, {"round": 1})
    assert r.status_code == 200 and r.json()["confirmed"] == [a]
    r = by_number[b].post(url, {"round": 1})
    assert r.json()["confirmed"] == sorted([a, b])
    assert view(client, tid)["rounds"][0]["games"][0]["confirmed"] == sorted([a, b])
    assert view(by_number[b], tid)["you"] == {"director": False, "player": b}
    # a correction asks for new signatures
    director.post(f"/api/torneos/{tid}/resultado",
                  {"round": 1, "a": a, "score_a": mine + 1, "b": b, "score_b": 0})
    assert view(client, tid)["rounds"][0]["games"][0]["confirmed"] == []
    # round 2: a resignation at 0–0 is a forfeit of the one who resigned
    rnd2 = pair(director, tid)
    board = rnd2["games"][0]
    loser = by_number[board["players"][1]]
    r = loser.post(f"/api/partidas/{board['game']}/accion", {"action": "resign"})
    assert r.status_code == 200, r.text
    posted = view(client, tid)["rounds"][1]["games"][0]
    assert posted["forfeits"] == [board["players"][1]] and posted["scores"] is None
    r = loser.post(url, {"round": 2})
    assert r.status_code == 200 and r.json()["confirmed"] == [board["players"][1]]
    assert_error(by_number[rnd2["games"][1]["players"][0]].post(url, {"round": 2}), 409)
    assert_error(director.post(f"/api/torneos/{tid}/rondas"), 409)  # both rounds planned


def test_public_pages_show_nothing_hidden(client, director):
    tid, players = online_event(client, director)
    rnd = pair(director, tid)
    text = client.get(f"/api/torneos/{tid}").text
    ids = [p.get("/api/cuenta").json() for p in players]
    assert all(i["name"] in text for i in ids)
    doc = client.get(f"/api/torneos/{tid}").json()
    assert "seed" not in text and "csrf" not in text and "token" not in text
    assert set(doc["players"][0]) == {"number", "name", "rating", "account", "joined",
                                      "withdrawn"}
    dump = json.dumps(doc)
    for board in rnd["games"]:
        game = game_view(client, board["game"])  # a spectator: no rack, no seed
        assert game["rack"] == [] and game["seat"] is None
    assert "rack" not in dump
