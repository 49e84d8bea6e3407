"""What one seat may see of a game, as JSON: never the opponent's rack nor the bag's order.

The page draws everything from this view; the server sends it after every change. A finished
game's replay (``replay_view``) shows everything, as the full record does.
"""

from __future__ import annotations

import time

from .. import tiles as T
from ..bag import unseen
from ..board import PREMIUM_NAME
from ..game import PLAY, Game, Turn, verdict
from ..scoresheet import Scoresheet

#: the tile table the page needs: letter → value, in alphabetical tile order.
TILE_VALUES = {t.letter: t.value for t in T.TILES}
PREMIUMS = list(PREMIUM_NAME)
BOTH = "both"  # the seat of a token that plays both sides on one device


def _shown_table() -> tuple[str | None, ...]:
    """Board byte → how the page shows it (``A``, ``CH``, ``ch`` for a blank; None = empty)."""
    table: list[str | None] = [None] * 256
    for code in range(1, T.ALPHABET_SIZE):
        table[code] = T.tile_to_human(code)
        table[code | T.BLANK_BIT] = T.tile_to_human(code | T.BLANK_BIT)
    return tuple(table)


_SHOWN = _shown_table()


def shared_view(game_id: str, version: int, doc: dict, game: Game) -> dict:
    """The part of the view that is the same for every seat (computed once per version)."""
    meta = doc["meta"]
    bot = meta["computer"]
    over = game.is_over()
    sheet = Scoresheet.from_game(game)
    pending = game.pending
    return {
        "id": game_id,
        "version": version,
        "mode": meta["mode"],
        "players": [{**player(meta, game, p),
                     "score": game.scores[p] - (pending.score if pending and pending.player == p
                                                else 0),
                     "rack_count": len(game.racks[p])} for p in (0, 1)],
        "rated": bool(meta.get("rated")),
        "final": list(game.result.scores) if game.result is not None else None,
        "board": [_SHOWN[t] for t in game.board.squares],
        "to_move": game.player_to_move,
        "bag": len(game.bag),
        "last": _last(game),
        "verdict": _verdict(game),
        "sheet": sheet.to_dict()["rows"],
        "waiting_for_rival": invite_open(meta),
        "downtime": [{"from": a, "to": b, "seconds": round(b - a)}
                     for a, b in meta.get("downtime", ())],
        "challenge": game.challenge_mode,
        "ruleset": game.ruleset.name,
        "lexicon": doc["game"]["lexicon"],
        "over": _result(game) if over else None,
        "thinking": not over and bot is not None and bot["seat"] == game.player_to_move,
    }


def seat_view(shared: dict, doc: dict, game: Game, seat: int | str | None, *,
              full: bool = False) -> dict:
    """The state ``seat`` sees (0, 1, ``BOTH`` for one device, None for a spectator):
    ``shared`` plus its rack, what it may do, the tiles it has not seen, and the clocks read
    now. ``full`` adds the premium map and tile values the page needs once."""
    meta = doc["meta"]
    bot = meta["computer"]
    to_move = game.player_to_move
    me = to_move if seat == BOTH or isinstance(seat, str) else seat
    pending = game.pending
    can_act = (not game.is_over() and me == to_move and not shared["waiting_for_rival"]
               and not (bot is not None and bot["seat"] == to_move))
    over = game.is_over()
    rematch = meta.get("rematch")
    view = dict(shared)
    view.update({
        "seat": seat,
        "me": me,
        "rack": [T.tile_to_human(t) for t in game.racks[me]] if me is not None else [],
        "pending": _pending(game, me) if pending is not None else None,
        "can": {"play": can_act, "accept": can_act and pending is not None,
                "exchange": can_act and len(game.bag) >= max(1, game.ruleset.exchange_min_bag),
                "resign": seat is not None and not over and not shared["waiting_for_rival"],
                "abort": (seat is not None and not over and not game.history
                          and pending is None),
                "rematch": seat is not None and over and rematch is None},
        "rematch": (rematch["url"] if rematch is not None and seat in (0, 1)
                    and seat != rematch["by"] else None),
        "unseen": _unseen(game, me),
        "clock": _clock(game),
    })
    if full:
        view["premiums"] = PREMIUMS
        view["values"] = TILE_VALUES
    return view


def player(meta: dict, game: Game, p: int) -> dict:
    """Who sits in seat ``p``: the name, whether it is the computer, the account and its
    rating (after the game once a rated game has changed it, else as it was when seated)."""
    bot = meta["computer"]
    account = (meta.get("accounts") or {}).get(str(p))
    ratings = meta.get("ratings")
    shown = None if account is None else (
        ratings[p]["after"] if ratings else account["rating"])
    return {"name": game.players[p], "computer": bot is not None and bot["seat"] == p,
            "account": None if account is None else account["name"],
            "rating": None if shown is None else round(shown, 2)}


def replay_view(doc: dict, game: Game) -> dict:
    """A finished game move by move: each turn (``Turn.to_dict`` with its number ``n`` from
    1, as on the planilla) with the board and the scores after it and the mover's rack before
    it; a play left waiting by a resignation comes last, marked ``pending``. The game is
    played again once from its record."""
    again = game.position_at(0)
    turns = []
    for n, turn in enumerate(game.history, start=1):
        again.replay(turn)
        turns.append(_replayed(turn, n, again))
    if game.pending is not None:
        again.play(game.pending.move)
        turns.append({**_replayed(game.pending, len(turns) + 1, again), "pending": True})
    return {"players": [player(doc["meta"], game, p) for p in (0, 1)],
            "ruleset": game.ruleset.name, "lexicon": doc["game"]["lexicon"],
            "result": _result(game), "turns": turns,
            "final": list(game.result.scores) if game.result is not None else None}


def _replayed(turn: Turn, n: int, game: Game) -> dict:
    return {**turn.to_dict(), "n": n, "board": [_SHOWN[t] for t in game.board.squares],
            "scores": list(game.scores), "rack": [T.tile_to_human(t) for t in turn.rack]}


def _pending(game: Game, me: int | None) -> dict:
    turn = game.pending
    assert turn is not None
    return {"player": turn.player, "move": turn.notation(), "score": turn.score,
            "mine": turn.player == me,
            "words": [T.to_human(w) for w in game.pending_words]}  # on the board: public


def _unseen(game: Game, me: int | None) -> dict[str, int]:
    """The tiles ``me`` has not seen; for a spectator, every tile not on the board."""
    counts = unseen(game.board, ()) if me is None else game.unseen(me)
    return {T.tile_to_human(code): n for code, n in enumerate(counts) if n > 0}


def _last(game: Game) -> dict | None:
    """The newest play on the board (pending or accepted), to highlight it."""
    if game.pending is not None:
        return {"squares": [sq for sq, _ in game.pending.placed()], "player": game.pending.player}
    for turn in reversed(game.history):
        if turn.kind == PLAY:
            return {"squares": [sq for sq, _ in turn.placed()], "player": turn.player}
    return None


def _verdict(game: Game) -> dict | None:
    """The latest challenge verdict: only "jugada correcta" or "jugada no válida" (art. 40)."""
    for n in range(len(game.history) - 1, -1, -1):
        turn = game.history[n]
        if turn.challenged:
            return {"turn": n, "text": verdict(turn.kind == PLAY), "valid": turn.kind == PLAY,
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
    data["seed"] = str(game.seed)  # published once the game is over, so its draws can be checked
    return data


def invite_open(meta: dict) -> bool:
    """A game against a person whose invitation nobody has used yet: it has not started."""
    invite = meta.get("invite")
    return invite is not None and not invite["used"]
