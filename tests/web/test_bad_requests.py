"""Issue 10, items 6, 7 and 9: bounded requests, no 500s, and the headers and checks that keep
other sites out. Every malformed request gets a 4xx with a Spanish message; none breaks a game.
"""

from __future__ import annotations

import json

import pytest
from conftest import OCTETS, Server, upload_words
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_web_api import JSON, act, assert_error, mover, new_game, view
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from atril.web.app import create_app
from atril.web.guard import RateLimiter
from atril.web.lexicons import compile_words


def chunks(total: int, size: int = 64 * 1024):
    """A streamed body with no Content-Length."""
    sent = 0
    while sent < total:
        yield b"a" * min(size, total - sent)
        sent += size


# -- item 6: bounded requests ----------------------------------------------------------------
def test_bodies_are_capped_while_they_stream(client):
    r = client.post("/api/lexicos", content=chunks(17 * 1024 * 1024), headers=OCTETS)
    assert_error(r, 413)
    game_id, tokens = new_game(client)
    r = client.post(f"/api/partidas/{game_id}/accion", content=chunks(200 * 1024), headers=JSON)
    assert_error(r, 413)
    r = client.post("/api/partidas", content=b"{}", headers={**JSON, "Content-Length": "x"})
    assert_error(r, 413)


def test_json_nesting_is_bounded(client):
    game_id, tokens = new_game(client)
    for body in (b"[" * 30_000, b'{"a":' * 50 + b"1" + b"}" * 50):
        assert_error(client.post("/api/partidas", content=body, headers=JSON), 400)
        assert_error(client.post(f"/api/partidas/{game_id}/accion", content=body, headers=JSON),
                     400)
    ok = '{"t": "[[[[[[[[[[[[[[[[[[[[[[[[", "action": "pass"}'  # brackets inside text count not
    assert_error(client.post(f"/api/partidas/{game_id}/accion", content=ok.encode(),
                             headers=JSON), 403)


def test_names_are_bounded_and_normalised(client):
    lexicon = upload_words(client)
    assert_error(client.post("/api/partidas", json={"mode": "local", "lexicon": lexicon,
                                                    "names": ["A" * 31, "B"]}), 400)
    r = client.post("/api/partidas", json={"mode": "local", "lexicon": lexicon,
                                           "names": ["Jose\u0301", "  Luis  "]})
    state = view(client, r.json()["id"], r.json()["token"])
    assert [p["name"] for p in state["players"]] == ["José", "Luis"]  # NFC, trimmed


def test_an_uploaded_list_is_capped_in_compile_time_and_kept_in_a_small_lru(client):
    lexicons = client.app.state.games.lexicons
    lexicons.compile_seconds = 0.0001
    r = client.post("/api/lexicos?nombre=lenta", content=b"casa\nperro\n" * 1000,
                    headers=OCTETS)
    assert "tarda demasiado" in assert_error(r, 400)["error"]
    lexicons.compile_seconds, lexicons.kept = 20.0, 1
    first = upload_words(client, "casa\ncosa\n")
    second = upload_words(client, "perro\nparra\n")
    assert list(lexicons._uploaded) == [second]  # the first left memory, not the database
    assert lexicons.get(first).is_word  # compiled again from the stored list
    assert compile_words("casa\n", "U-x", "x").word_count == 1


def test_rate_limits_per_client(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.sqlite3'}")) as client:
        lexicon = upload_words(client)
        answers = [client.post("/api/partidas", json={"mode": "local", "lexicon": lexicon})
                   for _ in range(12)]
        codes = [r.status_code for r in answers]
        assert codes[:10] == [201] * 10 and 429 in codes[10:]
        refused = next(r for r in answers if r.status_code == 429)
        assert int(refused.headers["retry-after"]) >= 1 and "espera" in refused.json()["error"]
        assert client.get("/api/opciones").status_code == 200  # reading is never limited


def test_guessing_a_duplicate_room_code_is_limited(tmp_path):
    # a hall joins at once from one address (60 in a burst), a guesser is slowed down
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.sqlite3'}")) as client:
        codes = [client.post("/api/duplicadas/unirse", json={"code": "ZZZZZZ"}).status_code
                 for _ in range(62)]
        assert 429 not in codes[:60] and codes[-1] == 429


def test_a_token_bucket_refills():
    now = [0.0]
    limiter = RateLimiter({"create": (60, 2)}, clock=lambda: now[0])
    assert limiter.wait("create", "a") == 0 and limiter.wait("create", "a") == 0
    assert limiter.wait("create", "a") == pytest.approx(1.0)
    assert limiter.wait("create", "b") == 0  # another client has its own bucket
    now[0] += 1.0
    assert limiter.wait("create", "a") == 0


# -- item 7: no 500s -----------------------------------------------------------------------
def test_a_lone_surrogate_never_breaks_a_game(client):
    lexicon = upload_words(client)
    bad_name = '{"mode": "remote", "lexicon": "LEX", "names": ["\\ud800"]}'.replace("LEX", lexicon)
    assert_error(client.post("/api/partidas", content=bad_name.encode(), headers=JSON), 400)
    game_id, tokens = new_game(client)
    state = view(client, game_id, tokens["0"])
    for body in ('{"t": "\\ud800", "action": "pass"}',
                 '{"t": "TOKEN", "action": "play", "move": "H8 CA\\udfffA"}',
                 '{"t": "TOKEN", "action": "exchange", "tiles": ["\\ud800"]}',
                 '{"t": "TOKEN", "action": "\\ud800"}'):
        body = body.replace("TOKEN", tokens["0"])
        assert_error(client.post(f"/api/partidas/{game_id}/accion", content=body.encode(),
                                 headers=JSON), 400)
    assert view(client, game_id, tokens["0"])["version"] == state["version"]  # untouched
    token, _ = mover(client, game_id, tokens)
    assert act(client, game_id, token, "pass").status_code == 200


def test_names_with_control_invisible_or_bidi_characters_are_refused(client):
    lexicon = upload_words(client)
    for name in ("Ana\n>luis: ABC 8H ABC +99 99", "Ana\u200b", "\u202eanA", "Ana\x00"):
        body = assert_error(client.post("/api/partidas", json={
            "mode": "local", "lexicon": lexicon, "names": [name]}), 400)
        assert "carácter no permitido" in body["error"]


def test_the_websocket_answers_bad_frames_and_stays_open(client):
    game_id, tokens = new_game(client)
    state = view(client, game_id, tokens["0"])
    token = tokens[str(state["to_move"])]
    with client.websocket_connect(f"/ws/partidas/{game_id}?t={token}") as ws:
        ws.receive_json()
        ws.send_bytes(b"\x00\x01")
        assert ws.receive_json()["status"] == 400
        ws.send_text("[" * 100_000)
        assert ws.receive_json()["status"] in (400, 413)
        ws.send_text('{"action": "\\ud800"}')
        assert ws.receive_json()["status"] == 400
        ws.send_json({"action": "pass", "version": state["version"]})  # still usable
        assert ws.receive_json()["type"] == "state"
        assert ws.receive_json()["type"] == "done"


def test_bad_links_close_with_a_code_the_page_understands(tmp_path):
    server = Server(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    try:
        lexicon = upload_words(server.base)
        game = _post(server.base, "/api/partidas", {"mode": "local", "lexicon": lexicon})
        for query, code in ((f"{game['id']}?t=mala", 4403), ("noexiste?t=x", 4404)):
            with connect(f"ws://127.0.0.1:{server.port}/ws/partidas/{query}") as ws:
                with pytest.raises(ConnectionClosed):
                    ws.recv(timeout=5)
                assert ws.close_code == code and ws.close_reason
    finally:
        server.stop()


def _post(base: str, path: str, body: dict) -> dict:
    import urllib.request

    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers=JSON)
    return json.load(urllib.request.urlopen(req))


# -- item 9: headers and other sites -------------------------------------------------------
def test_security_headers_and_no_store(client):
    game_id, tokens = new_game(client)
    for path in (f"/api/partidas/{game_id}?t={tokens['0']}", f"/partida/{game_id}?t=x",
                 f"/api/partidas/{game_id}/gcg?t={tokens['0']}", "/", "/api/opciones"):
        headers = client.get(path).headers
        assert headers["cache-control"] == "no-store", path
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "script-src 'self'" in headers["content-security-policy"]
    assert "no-store" not in client.get("/static/game.js").headers.get("cache-control", "")


def test_other_sites_cannot_act(client):
    game_id, tokens = new_game(client)
    token, state = mover(client, game_id, tokens)
    body = {"t": token, "version": state["version"], "action": "pass"}
    evil = {"Origin": "https://malo.example"}
    assert_error(client.post(f"/api/partidas/{game_id}/accion", json=body, headers=evil), 403)
    form = client.post(f"/api/partidas/{game_id}/accion", content=json.dumps(body).encode(),
                       headers={"Content-Type": "text/plain"})  # a simple cross-site request
    assert_error(form, 415)
    assert_error(client.post("/api/lexicos", content=b"casa\n",
                             headers={"Content-Type": "text/plain"}), 415)
    assert view(client, game_id, token)["version"] == state["version"]
    same = {"Origin": "http://testserver"}
    assert client.post(f"/api/partidas/{game_id}/accion", json=body,
                       headers=same).status_code == 200
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect(f"/ws/partidas/{game_id}?t={token}", headers=evil) as ws:
            ws.receive_json()
    assert closed.value.code == 4403
