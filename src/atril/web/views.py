"""What one seat may see of a game, as JSON: never the opponent's rack nor the bag's order.

The page draws everything from this view; the server sends it after every change.
"""

from __future__ import annotations

import time

from .. import tiles as T
from ..board import PREMIUM_NAME
from ..game import PLAY, VERDICTS, Game, Turn
from ..move import THROUGH
from ..scoresheet import Scoresheet
from .games import BOTH

#: the tile table the page needs: letter → value, in alphabetical tile order.
TILE_VALUES = {t.letter: t.value for t in T.TILES}
PREMIUMS = list(PREMIUM_NAME)


def seat_view(game_id: str, version: int, doc: dict, game: Game, seat: int | str | None
              ) -> dict:
    """The state ``seat`` sees (0, 1, ``BOTH`` for one device, None for a spectator)."""
    meta = doc["meta"]
    bot = meta["computer"]
    over = game.is_over()
    to_move = game.player_to_move
    me = to_move if seat == BOTH else seat
    pending = game.pending
    can_act = (not over and me == to_move and not meta.get("clock_waiting")
               and not (bot is not None and bot["seat"] == to_move))
    return {
        "id": game_id,
        "version": version,
        "mode": meta["mode"],
        "seat": seat,
        "me": me,
        "players": [{"name": name, "score": game.scores[p],
                     "computer": bot is not None and bot["seat"] == p,
                     "rack_count": len(game.racks[p])} for p, name in enumerate(game.players)],
        "board": [T.tile_to_human(t) if t else None for t in game.board.squares],
        "premiums": PREMIUMS,
        "values": TILE_VALUES,
        "rack": [T.tile_to_human(t) for t in game.racks[me]] if me is not None else [],
        "to_move": to_move,
        "pending": _pending(game, me) if pending is not None else None,
        "can": {"play": can_act, "accept": can_act and pending is not None,
                "exchange": can_act and len(game.bag) >= max(1, game.ruleset.exchange_min_bag)},
        "bag": len(game.bag),
        "unseen": _unseen(game, me),
        "last": _last(game),
        "verdict": _verdict(game),
        "sheet": Scoresheet.from_game(game).to_dict()["rows"],
        "clock": _clock(game),
        "waiting_for_rival": bool(meta.get("clock_waiting")),
        "challenge": game.challenge_mode,
        "ruleset": game.ruleset.name,
        "lexicon": doc["game"]["lexicon"],
        "over": _result(game) if over else None,
        "thinking": (not over and bot is not None and bot["seat"] == to_move),
    }


def _pending(game: Game, me: int | None) -> dict:
    turn = game.pending
    assert turn is not None
    return {"player": turn.player, "move": turn.notation(), "score": turn.score,
            "mine": turn.player == me}


def _unseen(game: Game, me: int | None) -> dict[str, int]:
    if me is None:
        return {}
    counts = game.unseen(me)
    return {T.tile_to_human(code): n for code, n in enumerate(counts) if n > 0}


def _squares(turn: Turn) -> list[int]:
    return [sq for sq, t in zip(turn.move.squares(), turn.move.tiles) if t != THROUGH]


def _last(game: Game) -> dict | None:
    """The newest play on the board (pending or accepted), to highlight it."""
    if game.pending is not None:
        return {"squares": _squares(game.pending), "player": game.pending.player}
    for turn in reversed(game.history):
        if turn.kind == PLAY:
            return {"squares": _squares(turn), "player": turn.player}
    return None


def _verdict(game: Game) -> dict | None:
    """The latest challenge verdict, only ever "jugada correcta" or "jugada no válida" (art. 40)."""
    for n in range(len(game.history) - 1, -1, -1):
        turn = game.history[n]
        if turn.challenged:
            return {"turn": n, "text": VERDICTS[turn.kind == PLAY], "valid": turn.kind == PLAY,
                    "player": turn.player}
    return None


def _clock(game: Game) -> dict | None:
    clock = game.clock
    if clock is None:
        return None
    return {"minutes": clock.minutes, "mode": clock.mode, "running": clock.running,
            "remaining": [clock.remaining(p) for p in (0, 1)] if clock.minutes else None,
            "used": [clock.used_seconds(p) for p in (0, 1)],
            "turn_seconds": clock.turn_seconds,
            "turn_left": (clock.turn_seconds - clock.turn_elapsed()
                          if clock.turn_seconds and clock.running is not None else None),
            "server_time": time.time()}


def _result(game: Game) -> dict:
    result = game.result
    assert result is not None
    data = result.to_dict()
    data["winner_name"] = None if result.winner is None else game.players[result.winner]
    data["players"] = list(game.players)
    return data
