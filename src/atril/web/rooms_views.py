"""What each client of a duplicate room sees, as JSON.

- **Everyone** (``shared``): the phase, the board, the round's rack and its deadline, and once a
  round is closed its master move, its ranking (every player's play and score) and the
  standings. Never the open round's master move, never another player's play before the close.
- **A player** (``for_player``): that, and their own play of the open round as the server
  received it and checked it, their result and their line in the standings.
- **The director** (``for_director``): that, the join code, who has handed in a play (not
  what), the open round's master move (to override it) and the whole record.
- **The projector** (``for_screen``): that, and how many plays have come in.
"""

from __future__ import annotations

from typing import Any

from ..duplicate import END_REASONS, ZERO_REASONS, Duplicate, Round
from ..i18n import _
from .rooms_service import PLAYING, Context, check, rack_shown
from .views import _SHOWN, PREMIUMS, TILE_VALUES


def _master(rnd: Round) -> dict:
    return {"notation": rnd.master.move.notation(rnd.board), "score": rnd.master.score,
            "squares": [sq for sq, _t in rnd.master.placed], "overridden": rnd.overridden}


def ranking(game: Duplicate, rnd: Round, bonus: list[int]) -> list[dict]:
    """A closed round's plays, best first (equal totals share a rank)."""
    assert rnd.results is not None
    rows: list[dict[str, Any]] = []
    for p, (slip, result) in enumerate(zip(rnd.slips, rnd.results)):
        rows.append({"player": p, "name": game.players[p], "text": slip.text,
                     "score": result.score, "bonus": bonus[p] if p < len(bonus) else 0,
                     "reason": result.reason,
                     "reason_text": None if result.reason is None
                     else _(ZERO_REASONS[result.reason]),
                     "master": result.score >= rnd.master.score and result.score > 0})
    rows.sort(key=lambda r: (-(r["score"] + r["bonus"]), r["name"]))
    for i, row in enumerate(rows):
        same = i and rows[i - 1]["score"] + rows[i - 1]["bonus"] == row["score"] + row["bonus"]
        row["rank"] = rows[i - 1]["rank"] if same else i + 1
    return rows


def shared(room_id: str, version: int, doc: dict, game: Duplicate) -> dict[str, Any]:
    """The part of the view every client of the room sees (once per version and language)."""
    options = doc["options"]
    last = game.rounds[-1] if game.rounds else None
    closed = last if last is not None and last.closed else None
    awarded = game.awarded()
    return {
        "id": room_id, "version": version, "phase": doc["phase"], "code": doc["code"],
        "director": doc["director"]["name"], "ruleset": options["ruleset"],
        "lexicon": options["lexicon"], "rounds": options["rounds"],
        "seconds": options["seconds"], "auto_advance": options["auto_advance"],
        "bonuses": options["bonuses"], "players_count": len(doc["players"]),
        "round": 0 if last is None else last.number,
        "board": [_SHOWN[t] for t in game.board.squares],
        "rack": rack_shown(last),
        "deadline": doc.get("deadline") if doc["phase"] == PLAYING else None,
        "master": None if closed is None else _master(closed),
        "ranking": None if closed is None else ranking(game, closed, awarded[-1]),
        "standings": [s.to_dict() for s in game.standings()] if awarded else [],
        "master_total": game.master_total(),
        "end": None if game.end is None else {"code": game.end,
                                              "text": _(END_REASONS[game.end])},
        "seed": game.seed if game.is_over() else None,
        "premiums": PREMIUMS, "values": TILE_VALUES,
    }


def with_clock(view: dict, now: float) -> dict:
    """The seconds left, read now (the page counts down from them: no clock skew)."""
    deadline = view.get("deadline")
    return {**view, "now": now,
            "remaining": None if deadline is None else round(max(0.0, deadline - now), 3)}


def for_player(view: dict, doc: dict, game: Duplicate, player: int,
               slip: tuple[str | None, float] | None, ctx: Context | None) -> dict:
    """A player's view: their own play of the open round (checked as on receipt), their
    result in the last closed round and their line in the standings."""
    mine: dict[str, Any] = {"player": player, "name": doc["players"][player]["name"],
                            "hall": doc["players"][player]["hall"], "slip": None,
                            "result": None, "standing": None}
    if doc["phase"] == PLAYING and slip is not None and ctx is not None and ctx.board is not None:
        mine["slip"] = {"received": slip[1], **check(ctx, slip[0])}
    if view["ranking"] is not None:
        mine["result"] = next((r for r in view["ranking"] if r["player"] == player), None)
    mine["standing"] = next((s for s in view["standings"] if s["player"] == player), None)
    return {**view, "role": "player", "me": mine}


def for_director(view: dict, doc: dict, game: Duplicate, submitted: set[int]) -> dict:
    """The arbiter's view: the players and who has handed in, the open round's master move,
    the record of every round (slips, scores, bonuses) and the arbiter's log."""
    current = game.current
    data = game.to_dict()
    return {**view, "role": "director",
            "players": [{"player": p, "name": e["name"], "hall": e["hall"],
                         "account": e["user"] is not None, "submitted": p in submitted}
                        for p, e in enumerate(doc["players"])],
            "master_now": None if current is None else _master(current),
            "record": data["rounds"], "log": doc["log"][-50:]}


def for_screen(view: dict, submitted: int) -> dict:
    """The projector: the shared view and how many plays have come in."""
    return {**view, "role": "screen", "submitted": submitted}
