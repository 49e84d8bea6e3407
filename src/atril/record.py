"""A game kept as data and played again: ``to_dict``/``from_dict`` (plain JSON values, what the
web app stores), ``replay`` (one recorded turn, challenge outcome included) and ``position_at``
(the game after its first n turns).

Reading replays every turn through the referee with the draws the record holds, so a stored
game is checked again by the rules; a record that breaks one is refused with an ``AtrilError``.
``Game.to_dict``, ``Game.from_dict``, ``Game.replay`` and ``Game.position_at`` call these.

Format ``atril-game`` version 2 (version 1, whose turns said ``kind`` where they now say
``type``, is read too).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import ending
from . import tiles as T
from .bag import Bag
from .board import Board
from .clock import Clock, TimeSource
from .errors import AtrilError
from .i18n import _
from .move import EXCHANGE, PLAY, Move

if TYPE_CHECKING:
    from .game import Game, Turn, WordJudge

FORMAT, VERSION = "atril-game", 2


def to_dict(game: Game) -> dict:
    """The whole game as JSON-able values."""
    return {
        "format": FORMAT, "version": VERSION,
        "players": list(game.players), "ruleset": game.ruleset.name, "seed": game.seed,
        "first": game.first, "start_draws": [[a, b] for a, b in game.start_draws],
        "challenge": game.challenge_mode,
        "lexicon": getattr(game.lexicon, "id", None),
        "initial_racks": [T.to_machine(r) for r in game.initial_racks],
        "history": [t.to_dict() for t in game.history],
        "pending": None if game.pending is None else game.pending.move.notation(machine=True),
        "overtime": list(game.overtime),
        "clock": None if game.clock is None else game.clock.to_dict(),
        "bag": game.bag.to_dict(),
        "scores": list(game.scores),
        "result": None if game.result is None else game.result.to_dict(),
    }


def from_dict(data: dict, *, lexicon: WordJudge | None = None,
              can_play: Callable[[Board, tuple[int, ...]], bool] | None = None,
              time_source: TimeSource | None = None) -> Game:
    """Rebuild a game from ``to_dict`` by replaying it (so it is checked again)."""
    from .game import Game, Turn

    try:
        if data.get("format", FORMAT) != FORMAT or not 1 <= data.get("version", 1) <= VERSION:
            raise AtrilError(_("no es una partida guardada por esta versión de atril "
                               "({format} {version})").format(format=data.get("format"),
                                                              version=data.get("version")))
        turns = [Turn.from_dict(t) for t in data["history"]]
        first = data["first"]
        game = Game(data["players"], ruleset=data["ruleset"], seed=data["seed"],
                    first=None if data["start_draws"] else first,
                    challenge=data["challenge"], lexicon=lexicon, can_play=can_play,
                    draws=_stored_draws(data, turns))
        game.overtime = [int(x) for x in data["overtime"]]
        for turn in turns:
            replay(game, turn)
        if data["pending"]:
            game.play(Move.parse(data["pending"], machine=True))
        if game.bag.tiles() != Bag.from_dict(data["bag"]).tiles():
            raise AtrilError(_("la bolsa guardada no coincide con la partida"))
        stored = data["result"]
        if stored is not None and game.result is None:
            loser = (1 - stored["winner"]) if stored["reason"] in ("overtime", "resign") \
                else None
            game.end(stored["reason"], loser=loser)
        if data["clock"] is not None:
            kwargs = {} if time_source is None else {"time_source": time_source}
            game.clock = Clock.from_dict(data["clock"], **kwargs)
        return game
    except AtrilError:
        raise
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as exc:
        raise AtrilError(_("partida guardada incompleta o mal formada: {error}").format(
            error=repr(exc))) from None


def _stored_draws(data: dict, turns: list[Turn]) -> list[tuple[int, ...]]:
    draws: list[tuple[int, ...]] = []
    for a, b in data["start_draws"]:
        draws += [(a,), (b,)]
    racks = [T.tokenize_machine(r) for r in data["initial_racks"]]
    first = data["first"]
    draws += [racks[first], racks[1 - first]]
    return draws + [t.drawn for t in turns if t.kind in (PLAY, EXCHANGE)]


def all_draws(game: Game) -> list[tuple[int, ...]]:
    """Every bag draw so far, in order: what ``draws=`` needs to replay this game."""
    out: list[tuple[int, ...]] = []
    for a, b in game.start_draws:
        out += [(a,), (b,)]
    out += [game.initial_racks[game.first], game.initial_racks[1 - game.first]]
    return out + [t.drawn for t in game.history if t.kind in (PLAY, EXCHANGE)]


def replay(game: Game, turn: Turn) -> None:
    """Make a recorded turn again, challenge outcome and words challenged included (a record
    older than the naming of words challenged every word), through the referee."""
    from .game import SINGLE
    from .referee import Action, Referee

    if turn.player != game.player_to_move:
        raise AtrilError(_("le toca a {name}, no a {other}").format(
            name=game.players[game.player_to_move], other=game.players[turn.player]))
    referee = Referee(game)
    referee.act(Action.of(turn.move))
    if turn.kind in (PLAY, ending.WITHDRAWN) and game.challenge_mode == SINGLE:
        referee.act(Action.challenge(verdict=turn.kind == PLAY,
                                     words=turn.challenged_words or None)
                    if turn.challenged else Action.accept())


def position_at(game: Game, turns: int) -> Game:
    """A new game (no clock) rebuilt from the first ``turns`` turns of ``game``."""
    from .game import Game

    if not 0 <= turns <= len(game.history):
        raise AtrilError(_("la partida tiene {turns} turnos, no {asked}").format(
            turns=len(game.history), asked=turns))
    kept = game.history[:turns]
    used = 2 * len(game.start_draws) + 2 + sum(t.kind in (PLAY, EXCHANGE) for t in kept)
    again = Game(game.players, ruleset=game.ruleset, seed=game.seed,
                 first=None if game.start_draws else game.first,
                 challenge=game.challenge_mode, lexicon=game.lexicon, can_play=game.can_play,
                 draws=all_draws(game)[:used])  # later draws are the bag's own
    again.overtime = list(game.overtime)
    for turn in kept:
        replay(again, turn)
    return again
