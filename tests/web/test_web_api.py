"""The JSON API: every rejection is a clear 4xx, never a 500; on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
import urllib.request

import pytest
from conftest import OCTETS, upload_words

from atril import tiles as T
from atril.web.app import create_app

JSON = {"Content-Type": "application/json"}


def new_game(client, **options):
    """A game between two people (remote mode unless told), on the two-tile word list; the
    invitation is claimed, so the game has started. Returns the id and the seats' tokens
    (``{"0": …, "1": …}``, ``{"both": …}`` on one device, ``{"0": …}`` against the computer)."""
    options.setdefault("mode", "remote")
    options.setdefault("lexicon", upload_words(client))
    options.setdefault("seed", 11)
    r = client.post("/api/partidas", json=options)
    assert r.status_code == 201, r.text
    data = r.json()
    assert set(data) == {"id", "token", "url", "invite"}
    if options["mode"] == "local":
        return data["id"], {"both": data["token"]}
    tokens = {"0": data["token"]}
    if data["invite"] is not None:
        tokens["1"] = join(client, data["id"], data["invite"])
    return data["id"], tokens


def join(client, game_id, invite_link):
    """Claim the seat of an invitation link; its token."""
    code = invite_link.split("invitacion=")[1]
    r = client.post(f"/api/partidas/{game_id}/unirse", json={"invite": code})
    assert r.status_code == 201, r.text
    return r.json()["token"]


def view(client, game_id, token):
    r = client.get(f"/api/partidas/{game_id}?t={token}")
    assert r.status_code == 200, r.text
    return r.json()


def act(client, game_id, token, action, **extra):
    state = view(client, game_id, token)
    return client.post(f"/api/partidas/{game_id}/accion",
                       json={"t": token, "version": state["version"], "action": action, **extra})


def mover(client, game_id, tokens):
    """(token, view) of the player to move."""
    state = view(client, game_id, tokens["0"])
    token = tokens[str(state["to_move"])]
    return token, view(client, game_id, token)


def two_tiles(rack):
    """Two real tiles (no blank) of a rack, as the page names them."""
    real = [t for t in rack if t != "?"]
    return real[0], real[1]


def assert_error(r, status, article=None):
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error", "article"} and body["error"]
    if article is not None:
        assert body["article"] == article
    return body


def test_a_play_accepted_and_the_sheet(client):
    game_id, tokens = new_game(client)
    token, state = mover(client, game_id, tokens)
    a, b = two_tiles(state["rack"])
    r = act(client, game_id, token, "play", placed=[["H8", a], ["H9", b]])
    assert r.status_code == 200, r.text
    assert r.json()["pending"]["mine"]
    other = tokens[str(1 - state["to_move"])]
    r = act(client, game_id, other, "accept")
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["board"][112] == a and after["board"][113] == b
    assert after["sheet"][0]["points"] > 0 and after["bag"] == 100 - 14 - 2


def test_wrong_token(client):
    game_id, tokens = new_game(client)
    assert_error(client.get(f"/api/partidas/{game_id}?t=nada"), 403)
    spectator = client.get(f"/api/partidas/{game_id}").json()  # no token: watching only
    assert spectator["seat"] is None and spectator["rack"] == []
    assert not any(spectator["can"].values())
    assert_error(client.post(f"/api/partidas/{game_id}/accion",
                             json={"t": "falsa", "action": "pass"}), 403)
    assert_error(client.post(f"/api/partidas/{game_id}/accion", json={"action": "pass"}), 403)


def test_wrong_turn(client):
    game_id, tokens = new_game(client)
    state = view(client, game_id, tokens["0"])
    waiting = tokens[str(1 - state["to_move"])]
    assert_error(act(client, game_id, waiting, "pass"), 409)
    assert_error(act(client, game_id, waiting, "accept"), 409)


def test_malformed_moves(client):
    game_id, tokens = new_game(client)
    token, _ = mover(client, game_id, tokens)
    for extra in ({"move": "Z99 CASA"}, {"move": "H8 CA$A"}, {"placed": "H8"},
                  {"placed": [["H8"]]}, {"placed": [[999, "A"]]}, {"placed": [["H8", "K"]]},
                  {"placed": [["H8", "?"]]}, {}, {"move": 12}):
        assert_error(act(client, game_id, token, "play", **extra), 400)
    assert_error(act(client, game_id, token, "exchange", tiles=[]), 400)
    assert_error(act(client, game_id, token, "jugar"), 400)
    assert_error(client.post(f"/api/partidas/{game_id}/accion",
                             json={"t": token, "action": "pass", "version": "1"}), 400)


def test_illegal_placements(client):
    game_id, tokens = new_game(client)
    token, state = mover(client, game_id, tokens)
    a, b = two_tiles(state["rack"])
    body = assert_error(act(client, game_id, token, "play", placed=[["A1", a], ["A2", b]]), 422)
    assert body["article"] == "6"  # the first play covers H8
    assert_error(act(client, game_id, token, "play", placed=[["H8", a], ["I9", b]]), 422, "8")
    assert_error(act(client, game_id, token, "play", placed=[["H8", a], ["H10", b]]), 422, "8")
    assert_error(act(client, game_id, token, "play", placed=[["H8", a]]), 422, "2")
    absent = next(t.letter for t in T.TILES if t.letter not in state["rack"])
    assert_error(act(client, game_id, token, "play", placed=[["H8", absent], ["H9", a]]), 422)
    assert_error(act(client, game_id, token, "exchange", tiles=[absent]), 422, "25")
    assert view(client, game_id, token)["version"] == state["version"]  # nothing changed


def test_double_submit_and_stale_version(client):
    game_id, tokens = new_game(client)
    token, state = mover(client, game_id, tokens)
    body = {"t": token, "version": state["version"], "action": "pass"}
    assert client.post(f"/api/partidas/{game_id}/accion", json=body).status_code == 200
    assert_error(client.post(f"/api/partidas/{game_id}/accion", json=body), 409)


def test_simultaneous_submissions_only_one_counts(client):
    game_id, tokens = new_game(client)
    token, state = mover(client, game_id, tokens)
    body = {"t": token, "version": state["version"], "action": "pass"}
    results = []
    start = threading.Barrier(4)

    def submit():
        start.wait()
        results.append(client.post(f"/api/partidas/{game_id}/accion", json=body).status_code)

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(results) == [200, 409, 409, 409]
    assert len(view(client, game_id, token)["sheet"]) == 1


def test_bad_json_and_unknown_things(client):
    game_id, tokens = new_game(client)
    assert_error(client.post(f"/api/partidas/{game_id}/accion", content=b"{no json",
                             headers=JSON), 400)
    assert_error(client.post(f"/api/partidas/{game_id}/accion", json=[1, 2]), 400)
    assert_error(client.post("/api/partidas", content=b"\xff\xfe", headers=JSON), 400)
    assert_error(client.post("/api/partidas", json={"mode": "ajedrez"}), 400)
    assert_error(client.post("/api/partidas", json={"ruleset": "FISE1990"}), 400)
    assert_error(client.post("/api/partidas", json={"lexicon": "U-000000000000"}), 400)
    assert_error(client.post("/api/partidas", json={"minutes": -5}), 400, "34")
    for key in ("mode", "level", "challenge", "ruleset", "lexicon"):  # not text: 400, not 500
        assert_error(client.post("/api/partidas", json={key: {"x": 1}}), 400)
    assert_error(client.get("/api/partidas/noexiste?t=x"), 404)
    assert_error(client.post("/api/partidas/noexiste/accion", json={"t": "x", "action": "pass"}),
                 404)
    assert_error(client.get("/api/no/such"), 404)  # a page outside /api/: test_players.py
    assert_error(client.post("/api/lexicos", content=b"\n\n", headers=OCTETS), 400)


def test_challenge_both_verdicts_without_saying_which_word(client):
    game_id, tokens = new_game(client)
    token, state = mover(client, game_id, tokens)
    other = tokens[str(1 - state["to_move"])]
    rack = [t for t in state["rack"] if t != "?"]
    r = act(client, game_id, token, "play", placed=[["H7", rack[0]], ["H8", rack[1]],
                                                    ["H9", rack[2]]])
    assert r.status_code == 200  # three tiles: no word in this list, but a challenge decides
    r = act(client, game_id, other, "challenge")
    verdict = r.json()["verdict"]
    assert verdict["text"] == "jugada no válida" and set(verdict) == {
        "turn", "text", "valid", "player"}
    assert r.json()["sheet"][-1]["mark"] == "I"
    assert r.json()["board"][112] is None
    # now the other player plays a good word and is challenged in vain
    state = view(client, game_id, other)
    a, b = two_tiles(state["rack"])
    assert act(client, game_id, other, "play", placed=[["H8", a], ["I8", b]]).status_code == 200
    r = act(client, game_id, token, "challenge")
    assert r.json()["verdict"]["text"] == "jugada correcta"
    assert r.json()["board"][112] == a


def test_void_mode_refuses_invalid_plays(client):
    game_id, tokens = new_game(client, challenge="void", ruleset="LIBRE")
    token, state = mover(client, game_id, tokens)
    rack = [t for t in state["rack"] if t != "?"]
    body = assert_error(act(client, game_id, token, "play", placed=[
        ["H7", rack[0]], ["H8", rack[1]], ["H9", rack[2]]]), 422, "40")
    assert "jugada no válida" in body["error"]
    r = act(client, game_id, token, "play", placed=[["H8", rack[0]], ["H9", rack[1]]])
    assert r.status_code == 200 and r.json()["pending"] is None


def test_views_hide_the_opponents_rack_and_the_bag(client):
    game_id, tokens = new_game(client)
    mine = view(client, game_id, tokens["0"])
    theirs = view(client, game_id, tokens["1"])
    assert len(mine["rack"]) == 7 and mine["players"][1]["rack_count"] == 7
    for state in (mine, theirs):
        text = str(state)
        assert "initial_racks" not in text and "seed" not in text and "tokens" not in text
        assert sum(state["unseen"].values()) == 100 - 7
    r = client.get(f"/api/partidas/{game_id}/analisis?t={tokens['0']}")
    assert_error(r, 409, "43")  # no analysis (word validity) during the game


def test_exchange_and_pass_end_the_game_with_analysis_and_gcg(client):
    game_id, tokens = new_game(client)
    token, state = mover(client, game_id, tokens)
    r = act(client, game_id, token, "exchange", tiles=state["rack"][:3])
    assert r.status_code == 200, r.text
    assert r.json()["sheet"][-1]["mark"] == "C-3"
    other = tokens[str(1 - state["to_move"])]
    assert "cambio" not in str(view(client, game_id, other)["sheet"])  # tiles stay secret
    for _ in range(4):
        who, _ = mover(client, game_id, tokens)
        assert act(client, game_id, who, "pass").status_code == 200
    final = view(client, game_id, token)
    assert final["over"]["reason"] == "passes" and final["over"]["article"] == "45.2"
    assert_error(act(client, game_id, token, "pass"), 409, "45.2")
    analysis = client.get(f"/api/partidas/{game_id}/analisis?t={token}").json()
    assert len(analysis["turns"]) == 5 and analysis["turns"][1]["best"]
    gcg = client.get(f"/api/partidas/{game_id}/gcg?t={token}")
    assert gcg.status_code == 200 and "#player1" in gcg.text


def test_against_the_computer(client):
    lexicon = upload_words(client)
    r = client.post("/api/partidas", json={"mode": "computer", "lexicon": lexicon, "seed": 3})
    game_id, token = r.json()["id"], r.json()["token"]
    assert r.json()["invite"] is None
    for _ in range(50):
        state = view(client, game_id, token)
        if state["to_move"] == 0 and not state["thinking"]:
            break
        time.sleep(0.05)
    assert state["to_move"] == 0
    if state["pending"]:  # the computer started; its plays are valid
        r = act(client, game_id, token, "challenge")
        assert r.json()["verdict"]["text"] == "jugada correcta"
    a, b = two_tiles(view(client, game_id, token)["rack"])
    board = view(client, game_id, token)["board"]
    spot = [["H8", a], ["H9", b]] if board[112] is None else None
    if spot is None:
        assert act(client, game_id, token, "pass").status_code == 200
    else:
        assert act(client, game_id, token, "play", placed=spot).status_code == 200
    for _ in range(100):  # the computer answers in the background
        state = view(client, game_id, token)
        if state["to_move"] == 0 and not state["thinking"]:
            break
        time.sleep(0.05)
    assert state["to_move"] == 0 and len(state["sheet"]) >= 1
    assert_error(client.post(f"/api/partidas/{game_id}/accion",
                             json={"t": token, "action": "pass", "version": 1}), 409)


def test_restart_loses_nothing_and_clocks_keep_time(db_url):
    from starlette.testclient import TestClient

    with TestClient(create_app(db_url, test_seeds=True)) as c:
        game_id, tokens = new_game(c, minutes=25)
        token, state = mover(c, game_id, tokens)
        assert act(c, game_id, token, "pass").status_code == 200
        before = view(c, game_id, token)
    time.sleep(0.3)
    with TestClient(create_app(db_url, test_seeds=True)) as c:  # a new server, same database
        after = view(c, game_id, token)
        assert after["sheet"] == before["sheet"] and after["version"] == before["version"]
        running = after["clock"]["running"]
        assert after["clock"]["remaining"][running] < before["clock"]["remaining"][running] - 0.25
        other = tokens[str(after["to_move"])]
        assert act(c, game_id, other, "pass").status_code == 200


def test_websocket_clients_see_each_change(client):
    game_id, tokens = new_game(client)
    with client.websocket_connect(f"/ws/partidas/{game_id}?t={tokens['0']}") as ws0, \
            client.websocket_connect(f"/ws/partidas/{game_id}?t={tokens['1']}") as ws1:
        first0, first1 = ws0.receive_json()["state"], ws1.receive_json()["state"]
        assert first0["seat"] == 0 and first1["seat"] == 1
        token = tokens[str(first0["to_move"])]
        assert act(client, game_id, token, "pass").status_code == 200
        for ws, seat in ((ws0, 0), (ws1, 1)):
            state = ws.receive_json()["state"]
            assert state["version"] == first0["version"] + 1 and state["seat"] == seat
            assert state["sheet"][-1]["mark"] == "P"


def test_websocket_with_a_bad_token_is_closed(client):
    from starlette.websockets import WebSocketDisconnect

    game_id, _ = new_game(client)
    with pytest.raises(WebSocketDisconnect) as info:
        with client.websocket_connect(f"/ws/partidas/{game_id}?t=mala") as ws:
            ws.receive_json()
    assert info.value.code == 4403


def test_local_game_one_token_plays_both_seats(client):
    game_id, tokens = new_game(client, mode="local", names=["Ana", "Luis"])
    assert list(tokens) == ["both"]
    token = tokens["both"]
    for _ in range(2):
        state = view(client, game_id, token)
        assert state["me"] == state["to_move"] and state["can"]["play"]
        assert act(client, game_id, token, "pass").status_code == 200
    assert [p["name"] for p in view(client, game_id, token)["players"]] == ["Ana", "Luis"]


def test_remote_clock_waits_for_the_invited_player(client):
    lexicon = upload_words(client)
    r = client.post("/api/partidas", json={"mode": "remote", "lexicon": lexicon, "minutes": 10})
    game_id, token, invite = r.json()["id"], r.json()["token"], r.json()["invite"]
    state = view(client, game_id, token)
    assert state["waiting_for_rival"] and state["clock"] is None
    r = client.post(f"/api/partidas/{game_id}/accion",
                    json={"t": token, "version": state["version"], "action": "pass"})
    assert_error(r, 409)
    joined = view(client, game_id, join(client, game_id, invite))
    assert not joined["waiting_for_rival"] and joined["clock"]["remaining"][0] <= 600


def test_actions_over_the_websocket(client):
    game_id, tokens = new_game(client)
    state = view(client, game_id, tokens["0"])
    token = tokens[str(state["to_move"])]
    with client.websocket_connect(f"/ws/partidas/{game_id}?t={token}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_text("{roto")
        assert ws.receive_json() == {"type": "error", "status": 400, "article": None,
                                     "error": "el mensaje no es JSON válido"}
        ws.send_json({"action": "play", "placed": [["A1", "A"], ["A2", "B"]]})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] in (422, 400)
        ws.send_json({"action": "pass", "version": state["version"]})
        assert ws.receive_json()["state"]["sheet"][-1]["mark"] == "P"
        done = ws.receive_json()
        assert done["type"] == "done" and done["version"] == state["version"] + 1
        ws.send_json({"action": "pass", "version": state["version"]})  # not their turn now
        assert ws.receive_json()["status"] == 409


def test_atril_serve_prints_the_address(server):
    assert server.proc.stdout.readline().startswith(f"atril: abre {server.base}/ en el navegador")
    page = urllib.request.urlopen(f"{server.base}/").read().decode()
    assert "Nueva partida" in page and "/static/lobby.js" in page


def test_a_huge_word_list_is_refused_before_reading_it(client):
    r = client.post("/api/lexicos", content=b"casa\n",
                    headers={"Content-Length": str(64 * 1024 * 1024),
                             "Content-Type": "application/octet-stream"})
    assert_error(r, 413)


def test_clock_settings_reach_the_page(client):
    game_id, tokens = new_game(client, minutes=0, timer=True)
    clock = view(client, game_id, tokens["0"])["clock"]
    assert clock["remaining"] is None and clock["turn_seconds"] == 120
    assert 0 < clock["turn_left"] <= 120
    game_id, tokens = new_game(client, minutes=25, clock_mode="no corrido")
    token, state = mover(client, game_id, tokens)
    assert state["clock"]["running"] == state["to_move"]
    a, b = two_tiles(state["rack"])
    after = act(client, game_id, token, "play", placed=[["H8", a], ["H9", b]]).json()
    assert after["clock"]["running"] is None  # both clocks stop while the play is counted
    assert_error(client.post("/api/partidas", json={"clock_mode": "rápido", "minutes": 5}), 400)


def test_a_challenge_names_some_of_the_words(client):  # art. 40, 42.1
    game_id, tokens = new_game(client)
    token, state = mover(client, game_id, tokens)
    other = tokens[str(1 - state["to_move"])]
    a, b = two_tiles(state["rack"])
    assert act(client, game_id, token, "play", placed=[["H8", a], ["H9", b]]).status_code == 200
    assert act(client, game_id, other, "accept").status_code == 200
    c, d = two_tiles(view(client, game_id, other)["rack"])
    assert act(client, game_id, other, "play", placed=[["H10", c], ["I10", d]]).status_code == 200
    words = view(client, game_id, token)["pending"]["words"]  # on the board: public
    assert words == [c + d, a + b + c]  # two tiles, a word of the list; three tiles, not one
    assert client.get(f"/api/partidas/{game_id}").json()["pending"]["words"] == words
    for bad in ("CASA", [], [12], [c + d] * 9, ["A" * 31]):
        body = assert_error(act(client, game_id, token, "challenge", words=bad), 400, "40")
        assert "«words» es una lista" in body["error"]
    body = assert_error(act(client, game_id, token, "challenge", words=[c + d, "casa"]), 422,
                        "40")
    assert "«casa» no es una de las palabras que forma la jugada" in body["error"]
    assert view(client, game_id, token)["pending"]["words"] == words  # still waiting
    r = act(client, game_id, token, "challenge", words=[(c + d).lower()])
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["verdict"]["text"] == "jugada correcta"  # the three tiles were not challenged
    assert after["board"][114] == c and after["board"][129] == d
    record = client.get(f"/api/partidas/{game_id}/gcg?t={token}").text
    machine = "".join(T.tile_to_machine(T.code(x)) for x in (c, d))
    assert f"#note impugnadas: {machine}" in record.splitlines()


def test_errors_cite_the_games_own_ruleset(client):  # FISE 2004 art. 24 is 2009's art. 25
    game_id, tokens = new_game(client, ruleset="FISE2004")
    token, state = mover(client, game_id, tokens)
    missing = next(t for t in ("Z", "X", "Ñ", "Q") if t not in state["rack"])
    body = assert_error(act(client, game_id, token, "exchange", tiles=[missing]), 422,
                        "24 FISE 2004")
    assert "(art. 24 FISE 2004)" in body["error"]


def test_word_testing_only_in_a_casual_game(client):  # art. 43, 46.2
    lexicon = upload_words(client)
    for ruleset in ("FISE2004", "FISE2009", "FILE2018", "FILE2024"):
        assert_error(client.post("/api/partidas", json={
            "mode": "local", "lexicon": lexicon, "challenge": "void", "ruleset": ruleset}), 400)
    rulesets = {r["id"]: r for r in client.get("/api/opciones").json()["rulesets"]}
    assert [r for r in rulesets if rulesets[r]["casual"]] == ["LIBRE"]
    assert "doce turnos" in rulesets["FILE2018"]["note"]  # said where the ruleset is chosen


def test_deep_analysis_runs_in_the_background_once_the_game_is_over(db_url):  # art. 43
    """The analysis by simulation: refused during the game, then asked once (a second ask
    joins the same job), its progress readable by anyone who may see the game, and at the end
    the per-turn verdicts of ``atril analizar`` for every turn."""
    from starlette.testclient import TestClient

    app = create_app(db_url, test_seeds=True, rate_limits=False, analysis_seconds=0.05)
    with TestClient(app) as client:
        game_id, tokens = new_game(client)
        path = f"/api/partidas/{game_id}/analisis/fondo"
        assert client.get(path).json() == {"state": "none", "done": 0, "total": 0}
        assert_error(client.post(f"{path}?t={tokens['0']}", json={}), 409, "43")
        token, state = mover(client, game_id, tokens)
        assert act(client, game_id, token, "exchange", tiles=state["rack"][:2]).status_code == 200
        for _ in range(4):
            who, _ = mover(client, game_id, tokens)
            assert act(client, game_id, who, "pass").status_code == 200
        first = client.post(path, json={})  # a spectator may ask: the game is over
        assert first.status_code == 200 and first.json()["total"] == 5
        assert first.json()["state"] in ("queued", "running", "done")
        again = client.post(f"{path}?t={token}", json={}).json()
        assert again["total"] == 5 and again["state"] != "none"
        for _ in range(200):
            status = client.get(path).json()
            assert 0 <= status["done"] <= status["total"] == 5
            if status["state"] == "done":
                break
            time.sleep(0.05)
        assert status["state"] == "done", status
        analysis = status["analysis"]
        assert analysis["seconds"] == 0.05 and len(analysis["turns"]) == 5
        assert analysis["turns"][0]["played"]["notation"].startswith("cambio")
        assert {t["method"] for t in analysis["turns"]} <= {"simulation", "static"}
        assert all(0 <= t["win_lost"] <= 1 for t in analysis["turns"])
        assert client.post(path, json={}).json() == status  # done once: not run again
