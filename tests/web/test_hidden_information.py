"""Issue 10, items 1–3: what a seat, a spectator and a creator may learn of a game in progress.

A real two-seat game over HTTP and WebSocket: no answer, record or frame a seat receives
holds the other seat's rack, a leave, a draw or the tiles of an exchange until the game is
over; the bag's seed is the server's secret until then; an invitation is used once.
"""

from __future__ import annotations

import re

from conftest import upload_words
from starlette.testclient import TestClient
from test_web_api import JSON, act, assert_error, join, mover, new_game, two_tiles, view

from atril import tiles as T
from atril.web.app import create_app


def rack_of(client, game_id, token) -> list[str]:
    return view(client, game_id, token)["rack"]


def gcg(client, game_id, token=None) -> str:
    r = client.get(f"/api/partidas/{game_id}/gcg" + (f"?t={token}" if token else ""))
    assert r.status_code == 200, r.text
    return r.text


def machine(rack: list[str]) -> str:
    """A rack as the page shows it (``CH``, ``?``) in GCG's machine form (``[CH]``, ``?``)."""
    return "".join("?" if t == "?" else T.tile_to_machine(T.code(t)) for t in sorted(
        rack, key=lambda t: (t == "?", T.code(t) if t != "?" else 0)))


def event_racks(text: str, nick: str) -> list[str]:
    """The rack field of every event line of ``nick`` ('' when there is none)."""
    out = []
    for line in text.splitlines():
        if line.startswith(f">{nick}:"):
            fields = line.split(":", 1)[1].split()
            looks_like_rack = fields and not re.match(r"^(\d+[A-O]|[A-O]\d+|-.*|\(.*)$", fields[0])
            out.append(fields[0] if looks_like_rack and len(fields) > 3 else "")
    return out


def play_some_turns(client, game_id, tokens):
    """A play (accepted), an exchange by the other seat, a pass: returns each seat's racks seen
    along the way (every rack either seat held)."""
    held = {0: [], 1: []}
    for seat in (0, 1):
        held[seat].append(rack_of(client, game_id, tokens[str(seat)]))
    token, state = mover(client, game_id, tokens)
    a, b = two_tiles(state["rack"])
    assert act(client, game_id, token, "play", placed=[["H8", a], ["H9", b]]).status_code == 200
    other = tokens[str(1 - state["to_move"])]
    assert act(client, game_id, other, "accept").status_code == 200
    for seat in (0, 1):
        held[seat].append(rack_of(client, game_id, tokens[str(seat)]))
    exchanger = rack_of(client, game_id, other)
    assert act(client, game_id, other, "exchange", tiles=exchanger[:3]).status_code == 200
    for seat in (0, 1):
        held[seat].append(rack_of(client, game_id, tokens[str(seat)]))
    assert act(client, game_id, token, "pass").status_code == 200
    return held, state["to_move"]


def pass_until_over(client, game_id, tokens) -> None:
    """Pass until the game ends (art. 45.2: two passes each in a row)."""
    for _ in range(4):
        who, state = mover(client, game_id, tokens)
        if state["over"]:
            return
        assert act(client, game_id, who, "pass").status_code == 200
    assert view(client, game_id, tokens["0"])["over"] is not None


# -- item 1: records and views during the game ----------------------------------------------
def test_a_seat_record_during_the_game_holds_only_what_the_seat_may_know(client):
    # art. 25: exchanged tiles go face down; the planilla writes C-x
    game_id, tokens = new_game(client, names=["Ana", "Luis"])
    held, first = play_some_turns(client, game_id, tokens)
    text = gcg(client, game_id, tokens["0"])
    assert "#rack1" in text and "#rack2" not in text
    assert f"#rack1 {machine(rack_of(client, game_id, tokens['0']))}" in text
    # Luis's lines show at most the tiles his play laid on the board, never a whole rack
    for field in event_racks(text, "Luis"):
        assert len(field.replace("[", "").replace("]", "")) <= 2
    for rack in held[1]:
        assert f">Luis: {machine(rack)} " not in text
    luis_exchange = [ln for ln in text.splitlines() if ln.startswith(">Luis:") and " -3 " in ln]
    ana_exchange = [ln for ln in text.splitlines() if ln.startswith(">Ana:") and " -3 " in ln]
    assert luis_exchange or ana_exchange  # whoever exchanged: a count if it was Luis
    if first == 0:  # Luis exchanged: only the count
        assert luis_exchange and not any(re.search(r" -[^\d\s]", ln) for ln in luis_exchange)
    # the other seat's record mirrors it
    other = gcg(client, game_id, tokens["1"])
    assert "#rack2" in other and "#rack1" not in other
    for rack in held[0]:
        assert f">Ana: {machine(rack)} " not in other


def test_a_spectator_record_has_no_racks_and_the_full_one_comes_at_the_end(client):
    game_id, tokens = new_game(client, names=["Ana", "Luis"])
    play_some_turns(client, game_id, tokens)
    watching = gcg(client, game_id)
    assert "#rack" not in watching and "espectador" in watching
    pass_until_over(client, game_id, tokens)
    full = gcg(client, game_id)
    assert full == gcg(client, game_id, tokens["0"]) == gcg(client, game_id, tokens["1"])
    assert "vista por" not in full and "(" in full  # the final racks are deducted in the open


def test_websocket_and_http_views_never_carry_the_other_rack(client):
    game_id, tokens = new_game(client)
    with client.websocket_connect(f"/ws/partidas/{game_id}?t={tokens['0']}") as ws0, \
            client.websocket_connect(f"/ws/partidas/{game_id}") as spectator:
        seen = [(ws0.receive_json()["state"], rack_of(client, game_id, tokens["0"]))]
        watched = [spectator.receive_json()["state"]]
        token, state = mover(client, game_id, tokens)
        a, b = two_tiles(state["rack"])
        other = tokens[str(1 - state["to_move"])]
        for action, extra in (("play", {"placed": [["H8", a], ["H9", b]]}), ("accept", {}),
                              ("pass", {})):
            who = token if action == "play" else other
            assert act(client, game_id, who, action, **extra).status_code == 200
            seen.append((ws0.receive_json()["state"], rack_of(client, game_id, tokens["0"])))
            watched.append(spectator.receive_json()["state"])
    for frame, own in seen:  # the only rack a seat's frame holds is its own
        assert frame["seat"] == frame["me"] == 0 and frame["rack"] == own
        assert set(frame) >= {"rack", "unseen"} and "racks" not in frame
    for frame in watched:
        assert frame["seat"] is None and frame["rack"] == [] and not any(frame["can"].values())
        on_board = sum(t is not None for t in frame["board"])
        assert sum(frame["unseen"].values()) == 100 - on_board
    # a spectator cannot act
    assert_error(client.post(f"/api/partidas/{game_id}/accion",
                             json={"action": "pass", "t": ""}), 403)


def test_analysis_waits_for_the_end(client):
    game_id, tokens = new_game(client)
    assert_error(client.get(f"/api/partidas/{game_id}/analisis?t={tokens['0']}"), 409, "43")
    assert_error(client.get(f"/api/partidas/{game_id}/analisis"), 409, "43")


# -- item 2: the server shuffles the bag --------------------------------------------------
def test_a_client_cannot_choose_the_bag(tmp_path):
    # art. 7: tiles are drawn at random; whoever knew the seed would know every draw
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.sqlite3'}")) as client:
        lexicon = upload_words(client)
        body = assert_error(client.post("/api/partidas", json={"lexicon": lexicon, "seed": 5,
                                                               "mode": "remote"}), 400, "7")
        assert "semilla" in body["error"] or "seed" in body["error"]
        games = []
        for _ in range(2):
            r = client.post("/api/partidas", json={"mode": "local", "lexicon": lexicon})
            assert r.status_code == 201
            games.append(view(client, r.json()["id"], r.json()["token"]))
        assert "seed" not in str(games[0])
        assert games[0]["rack"] != games[1]["rack"] or games[0]["to_move"] != games[1]["to_move"]


def test_the_seed_is_published_when_the_game_is_over(client):
    game_id, tokens = new_game(client, seed=1234)
    assert "1234" not in str(view(client, game_id, tokens["0"]))
    pass_until_over(client, game_id, tokens)
    assert view(client, game_id, tokens["0"])["over"]["seed"] == "1234"


# -- item 3: an invitation is used once -----------------------------------------------------
def test_an_invitation_is_claimed_once(client):
    lexicon = upload_words(client)
    r = client.post("/api/partidas", json={"mode": "remote", "lexicon": lexicon})
    created = r.json()
    assert set(created) == {"id", "token", "url", "invite"}  # no token of the other seat
    game_id, code = created["id"], created["invite"].split("invitacion=")[1]
    assert created["invite"] == f"/partida/{game_id}?invitacion={code}"
    assert_error(client.post(f"/api/partidas/{game_id}/unirse", json={"invite": "otra"}), 403)
    assert_error(client.get(f"/api/partidas/{game_id}?t={code}"), 403)  # a code is no token
    token = join(client, game_id, created["invite"])
    assert view(client, game_id, token)["seat"] == 1
    again = assert_error(client.post(f"/api/partidas/{game_id}/unirse", json={"invite": code}),
                         409)
    assert again["error"] == "esta invitación ya se ha usado"
    assert_error(client.post(f"/api/partidas/{game_id}/unirse", content=b'{"invite": 1}',
                             headers=JSON), 400)
