"""Two ``atril serve`` processes on one PostgreSQL database: an action through one reaches the
WebSocket clients of the other (LISTEN/NOTIFY)."""

from __future__ import annotations

import json
import urllib.request

from conftest import Server, upload_words
from websockets.sync.client import connect


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(req, timeout=10))


def test_a_move_through_one_server_reaches_a_client_of_the_other(pg_url):
    a, b = Server(pg_url), Server(pg_url)
    try:
        lexicon = upload_words(a.base)
        game = post(f"{a.base}/api/partidas", {"mode": "remote", "lexicon": lexicon, "seed": 5})
        code = game["invite"].split("invitacion=")[1]
        joined = post(f"{b.base}/api/partidas/{game['id']}/unirse", {"invite": code})
        tokens = {"0": game["token"], "1": joined["token"]}
        ws_url = f"ws://127.0.0.1:{b.port}/ws/partidas/{game['id']}?t={tokens['1']}"
        with connect(ws_url, open_timeout=10) as ws:
            first = json.loads(ws.recv(timeout=10))["state"]
            mover = tokens[str(first["to_move"])]
            post(f"{a.base}/api/partidas/{game['id']}/accion",
                 {"t": mover, "version": first["version"], "action": "pass"})
            state = json.loads(ws.recv(timeout=10))["state"]
        assert state["version"] == first["version"] + 1
        assert state["sheet"][-1]["mark"] == "P" and state["seat"] == 1
    finally:
        a.stop()
        b.stop()
