"""Issue 13: rated games between two accounts — seats that follow the account, the ratings
changed by ``atril.rating`` once when a game ends (by play, resignation or the server's clock),
and nothing for unrated games or games against the computer. Also resign, abort and rematch."""

from __future__ import annotations

import threading

import pytest
from conftest import upload_words
from test_accounts import Player
from test_server_clock import until_over, wait_for
from test_web_api import assert_error, two_tiles

from atril import rating
from atril.web.accounts import SESSION_COOKIE
from atril.web.app import create_app


def create(player: Player, lexicon: str, **options) -> dict:
    r = player.post("/api/partidas", {"mode": "remote", "lexicon": lexicon, "seed": 11,
                                      **options})
    assert r.status_code == 201, r.text
    return r.json()


def claim(player: Player, created: dict):
    code = created["invite"].split("invitacion=")[1]
    return player.post(f"/api/partidas/{created['id']}/unirse", {"invite": code})


def two_accounts_game(client, **options) -> tuple[str, Player, Player]:
    """A game between two new accounts (rated unless told), each seated by its session."""
    ana, luis = Player(client).sign_up(), Player(client).sign_up()
    created = create(ana, upload_words(client), **{"rated": True, **options})
    assert claim(luis, created).status_code == 201
    return created["id"], ana, luis


def state(player: Player, game_id: str) -> dict:
    r = player.get(f"/api/partidas/{game_id}")
    assert r.status_code == 200, r.text
    return r.json()


def act(player: Player, game_id: str, action: str, **extra):
    return player.post(f"/api/partidas/{game_id}/accion",
                       {"version": state(player, game_id)["version"], "action": action, **extra})


def computer_done(player: Player, game_id: str) -> dict:
    """The view once the computer, which may start (art. 4), has made its move in the
    background: an action sent with an older version would rightly get 409."""
    return wait_for(lambda: view if not (view := state(player, game_id))["thinking"] else None)


def to_move(game_id: str, a: Player, b: Player) -> Player:
    return (a, b)[state(a, game_id)["to_move"]]


def play_to_the_end(game_id: str, a: Player, b: Player) -> dict:
    """A play, accepted, then passes until the game ends (art. 45.2); the final view."""
    mover = to_move(game_id, a, b)
    x, y = two_tiles(state(mover, game_id)["rack"])
    assert act(mover, game_id, "play", placed=[["H8", x], ["H9", y]]).status_code == 200
    assert act(b if mover is a else a, game_id, "accept").status_code == 200
    while not state(a, game_id)["over"]:
        assert act(to_move(game_id, a, b), game_id, "pass").status_code == 200
    return state(a, game_id)


def account(player: Player) -> dict:
    return player.get("/api/cuenta").json()["rating"]


def expected_ratings(final: dict, before: list[float], games: list[int]) -> list[float]:
    winner = final["over"]["winner"]
    scores = [0.5, 0.5] if winner is None else [float(winner == p) for p in (0, 1)]
    return [before[p] + rating.change(before[p], before[1 - p], scores[p], games=games[p])
            for p in (0, 1)]


def test_a_rated_game_played_to_the_end_changes_both_ratings_by_the_formula(client):
    game_id, ana, luis = two_accounts_game(client)
    view = state(ana, game_id)  # no token: the session's account is seat 0
    assert view["seat"] == 0 and view["rated"] and view["rack"]
    assert [p["account"] for p in view["players"]] == [ana.name, luis.name]
    assert [p["name"] for p in view["players"]] == [ana.name, luis.name]
    assert [p["rating"] for p in view["players"]] == [1800, 1800]
    assert state(luis, game_id)["seat"] == 1
    final = play_to_the_end(game_id, ana, luis)
    want = expected_ratings(final, [1800, 1800], [0, 0])
    assert [account(ana)["rating"], account(luis)["rating"]] == pytest.approx(want, abs=0.01)
    assert account(ana)["games"] == account(luis)["games"] == 1
    assert [p["rating"] for p in final["players"]] == pytest.approx(want, abs=0.01)
    assert final["final"] == final["over"]["scores"]
    # a second game: each with the ratings the first left, still provisional K
    game_id, _, _ = two_accounts_game(client)  # new accounts: the first two play again below
    created = create(ana, upload_words(client), rated=True)
    assert claim(luis, created).status_code == 201
    before = [account(ana)["rating"], account(luis)["rating"]]
    final = play_to_the_end(created["id"], ana, luis)
    want = expected_ratings(final, before, [1, 1])
    assert [account(ana)["rating"], account(luis)["rating"]] == pytest.approx(want, abs=0.01)
    history = ana.get(f"/api/jugadores/{ana.name}").json()["history"]
    assert [h["game"] for h in history] == [game for game in (history[0]["game"], created["id"])]
    assert history[-1]["rating"] == pytest.approx(want[0], abs=0.01)


def test_unrated_games_and_games_against_the_computer_change_no_rating(client):
    game_id, ana, luis = two_accounts_game(client, rated=False)
    assert not state(ana, game_id)["rated"]
    play_to_the_end(game_id, ana, luis)
    assert account(ana) == account(luis) == {"rating": 1800, "games": 0, "provisional": True}
    lexicon = upload_words(client)
    for mode in ("computer", "local"):
        r = ana.post("/api/partidas", {"mode": mode, "lexicon": lexicon, "rated": True})
        assert_error(r, 400)
    r = Player(client).post("/api/partidas", {"mode": "remote", "lexicon": lexicon,
                                              "rated": True})
    assert_error(r, 400)  # a guest cannot ask for a rated game
    r = ana.post("/api/partidas", {"mode": "remote", "lexicon": lexicon, "rated": True,
                                   "ruleset": "LIBRE"})
    assert "no es puntuable" in assert_error(r, 400)["error"]  # the casual ruleset (art. 43)
    assert_error(ana.post("/api/partidas", {"mode": "remote", "rated": "sí"}), 400)
    r = ana.post("/api/partidas", {"mode": "computer", "lexicon": lexicon, "seed": 3})
    computer_game = r.json()["id"]
    assert computer_done(ana, computer_game)["players"][0]["account"] == ana.name
    assert act(ana, computer_game, "resign").status_code == 200
    assert state(ana, computer_game)["over"]["reason"] == "resign"
    assert account(ana) == {"rating": 1800, "games": 0, "provisional": True}


def test_a_rated_seat_is_for_another_logged_in_account(client):
    ana = Player(client).sign_up()
    created = create(ana, upload_words(client), rated=True)
    body = assert_error(claim(Player(client), created), 403)  # a guest
    assert body["error"] == "inicia sesión para jugar una partida puntuable"
    assert_error(claim(ana, created), 403)  # the creator
    luis = Player(client).sign_up()
    assert claim(luis, created).status_code == 201
    assert_error(claim(Player(client).sign_up(), created), 409)  # once


def test_resigning_loses_and_rates_once(client):
    game_id, ana, luis = two_accounts_game(client)
    mover = to_move(game_id, ana, luis)
    x, y = two_tiles(state(mover, game_id)["rack"])
    assert act(mover, game_id, "play", placed=[["H8", x], ["H9", y]]).status_code == 200
    waiting = state(ana, game_id)["pending"]
    scores = [p["score"] for p in state(ana, game_id)["players"]]
    assert scores == [0, 0]  # a play waiting adds nothing to the players' scores yet
    assert waiting["score"] > 0
    resigner = luis if mover is ana else ana
    assert state(resigner, game_id)["can"]["resign"]
    r = act(mover, game_id, "resign")  # the one who played resigns (not their turn: any time)
    assert r.status_code == 200, r.text
    over = r.json()["over"]
    loser = 0 if mover is ana else 1
    assert over["reason"] == "resign" and over["winner"] == 1 - loser and over["article"] is None
    assert r.json()["final"] == over["scores"] and over["scores"][loser] == waiting["score"]
    assert not r.json()["can"]["resign"] and r.json()["can"]["rematch"]
    want = [1800 - 10, 1800 + 10] if loser == 0 else [1810, 1790]
    assert [account(ana)["rating"], account(luis)["rating"]] == pytest.approx(want)
    assert_error(act(resigner, game_id, "resign"), 409)
    gcg = ana.get(f"/api/partidas/{game_id}/gcg").text
    nick = (ana if loser == 0 else luis).name
    assert gcg.splitlines()[-1] == f"#note final: resign {nick}"
    store = client.app.state.store
    with store._tx() as cur:
        cur.execute(store._sql("SELECT COUNT(*) FROM atril_ratings WHERE game_id = ?"),
                    (game_id,))
        assert cur.fetchone()[0] == 2


def test_two_resignations_at_once_rate_the_game_once(client):
    game_id, ana, luis = two_accounts_game(client)
    results = []
    start = threading.Barrier(2)

    def resign(player: Player) -> None:
        start.wait()
        results.append(player.post(f"/api/partidas/{game_id}/accion",
                                   {"action": "resign"}).status_code)

    threads = [threading.Thread(target=resign, args=(p,)) for p in (ana, luis)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(results) == [200, 409]
    assert sorted([account(ana)["rating"], account(luis)["rating"]]) == [1790, 1810]
    assert account(ana)["games"] == account(luis)["games"] == 1


def test_a_game_the_server_ends_on_time_is_rated(client):
    # art. 45.5: the game's own time runs out with nobody acting; the watch stores the ending
    game_id, ana, luis = two_accounts_game(client, game_minutes=0.02)
    # the session's seat, on the app's own client: the watch pushes from that client's loop
    cookie = {"cookie": f"{SESSION_COOKIE}={ana.session}"}
    with client.websocket_connect(f"/ws/partidas/{game_id}", headers=cookie) as ws:
        first = ws.receive_json()["state"]
        assert first["seat"] == 0 and first["rack"]
        over = until_over(ws)
    assert over["over"]["reason"] == "time"
    want = expected_ratings(over, [1800, 1800], [0, 0])
    assert [account(ana)["rating"], account(luis)["rating"]] == pytest.approx(want, abs=0.01)


def test_a_session_acts_over_the_websocket_and_another_account_only_watches(client):
    game_id, ana, luis = two_accounts_game(client, rated=False)
    eva = Player(client).sign_up()
    assert state(eva, game_id)["seat"] is None and state(eva, game_id)["rack"] == []
    assert_error(act(eva, game_id, "pass"), 403)
    assert_error(act(eva, game_id, "resign"), 403)
    mover = to_move(game_id, ana, luis)
    cookie = {"cookie": f"{SESSION_COOKIE}={mover.session}"}  # on the app's own client (loop)
    with client.websocket_connect(f"/ws/partidas/{game_id}", headers=cookie) as ws:
        start = ws.receive_json()["state"]
        ws.send_json({"action": "pass", "version": start["version"]})
        assert ws.receive_json()["state"]["sheet"][-1]["mark"] == "P"
        assert ws.receive_json()["type"] == "done"


# -- abort ------------------------------------------------------------------------------------
def test_abort_before_the_first_move_deletes_the_game(client):
    game_id, ana, luis = two_accounts_game(client)
    assert state(ana, game_id)["can"]["abort"]
    watcher = Player(client).sign_up()
    assert_error(watcher.post(f"/api/partidas/{game_id}/accion", {"action": "abort"}), 403)
    with client.websocket_connect(f"/ws/partidas/{game_id}") as spectator:
        spectator.receive_json()
        r = luis.post(f"/api/partidas/{game_id}/accion", {"action": "abort"})
        assert r.status_code == 200 and r.json() == {"type": "aborted"}
        assert spectator.receive_json() == {"type": "aborted"}
    assert_error(ana.get(f"/api/partidas/{game_id}"), 404)
    assert account(ana)["games"] == account(luis)["games"] == 0  # never rated
    assert_error(luis.post(f"/api/partidas/{game_id}/accion", {"action": "abort"}), 404)


def test_no_abort_once_a_move_is_made(client):
    game_id, ana, luis = two_accounts_game(client)
    assert act(to_move(game_id, ana, luis), game_id, "pass").status_code == 200
    assert not state(ana, game_id)["can"]["abort"]
    assert_error(ana.post(f"/api/partidas/{game_id}/accion", {"action": "abort"}), 409)
    created = create(Player(client), upload_words(client))  # waiting for the invitee
    token = created["token"]
    with client.websocket_connect(f"/ws/partidas/{created['id']}?t={token}") as ws:
        ws.receive_json()
        ws.send_json({"action": "abort"})  # over the WebSocket too
        assert ws.receive_json() == {"type": "aborted"}
    assert_error(client.get(f"/api/partidas/{created['id']}"), 404)


# -- rematch ----------------------------------------------------------------------------------
def test_rematch_the_other_player_starts_and_the_seat_is_kept_for_the_account(client):
    game_id, ana, luis = two_accounts_game(client)
    assert_error(ana.post(f"/api/partidas/{game_id}/revancha"), 409)  # not over yet
    old = play_to_the_end(game_id, ana, luis)
    old_first = old["sheet"][0]["player"]
    assert_error(Player(client).post(f"/api/partidas/{game_id}/revancha"), 403)  # a spectator
    r = luis.post(f"/api/partidas/{game_id}/revancha")
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["url"] == f"/partida/{new['id']}?t={new['token']}"
    link = state(ana, game_id)["rematch"]  # the other seat's view offers the new game
    assert link.startswith(f"/partida/{new['id']}?invitacion=")
    assert state(luis, game_id)["rematch"] is None  # not to the one who asked
    assert client.get(f"/api/partidas/{game_id}").json()["rematch"] is None  # nor a spectator
    assert not state(luis, game_id)["can"]["rematch"]
    assert_error(ana.post(f"/api/partidas/{game_id}/revancha"), 409)  # once
    code = link.split("invitacion=")[1]
    assert_error(Player(client).sign_up().post(f"/api/partidas/{new['id']}/unirse",
                                               {"invite": code}), 403)  # kept for Ana
    assert_error(Player(client).post(f"/api/partidas/{new['id']}/unirse", {"invite": code}),
                 403)
    assert ana.post(f"/api/partidas/{new['id']}/unirse", {"invite": code}).status_code == 201
    again = state(ana, new["id"])
    assert again["rated"] and again["seat"] == 1 and state(luis, new["id"])["seat"] == 0
    assert [p["account"] for p in again["players"]] == [luis.name, ana.name]
    first_player_name = old["players"][old_first]["name"]
    assert again["players"][again["to_move"]]["name"] != first_player_name  # art. 4


def test_rematch_against_the_computer_and_on_one_device(client):
    lexicon = upload_words(client)
    for mode in ("computer", "local"):
        created = client.post("/api/partidas", json={"mode": mode, "lexicon": lexicon,
                                                     "seed": 5}).json()
        token = created["token"]
        r = client.post(f"/api/partidas/{created['id']}/accion",
                        json={"t": token, "action": "resign"})
        assert r.status_code == 200, r.text
        first = r.json()["sheet"][0]["player"] if r.json()["sheet"] else None
        r = client.post(f"/api/partidas/{created['id']}/revancha", json={"t": token})
        assert r.status_code == 201, r.text
        new = client.get(r.json()["url"].replace("/partida/", "/api/partidas/")).json()
        assert new["mode"] == mode and new["seat"] == (0 if mode == "computer" else "both")
        if first is not None:
            assert new["sheet"] == [] or new["sheet"][0]["player"] != first


def test_a_rated_game_needs_two_players_not_one_account_twice():
    # the same account cannot take both seats (create, then claim its own invitation)
    with_app = create_app("sqlite:///:memory:", test_seeds=True, rate_limits=False)
    from starlette.testclient import TestClient

    with TestClient(with_app) as client:
        ana = Player(client).sign_up()
        created = create(ana, upload_words(client), rated=False)
        assert claim(ana, created).status_code == 201  # allowed, but the seat is not bound
        view = state(ana, created["id"])
        assert view["seat"] == 0 and view["players"][1]["account"] is None
