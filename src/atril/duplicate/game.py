"""A duplicate game (docs/DUPLICATE.md): one board and one rack for every player, each round
played against the master move, which is then placed for everyone.

    >>> from atril.duplicate import Duplicate
    >>> game = Duplicate(["Ana", "Luis"], seed=7, rounds=2)
    >>> rnd = game.start_round()            # the rack drawn under the rule, the master found
    >>> rnd.rack_text(), str(rnd.master.move), rnd.master.score
    ('AIMOTUZ', 'H3 AZIMUT', 54)
    >>> game.submit(0, "H3 AZIMUT")         # Ana's slip
    >>> game.submit(1, "H8 ZUMO")           # Luis's
    >>> game.close_round().scores           # the master is placed, its leave kept
    [54, 30]

Rounds go ``start_round`` (None once the game is over), ``submit`` (a slip per player, handed
in again to change it), ``override`` (the arbiter's master), ``close_round``; ``correct``
re-scores a slip of a closed round, and the standings follow, as they are computed from the
slips each time. ``stop`` ends the game on the arbiter's decision (an open round is dropped).
``to_dict``/``from_dict`` keep a game as JSON values; reading replays it from its seed, so a
stored game is checked again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..bag import Bag
from ..board import Board
from ..errors import AtrilError
from ..i18n import N_, _
from ..lexicon import Lexicon
from ..move import Move
from ..rack import format_rack
from ..rules import ScoredPlay, apply_play, check_play, leave_after
from . import master
from .racks import draw_rack
from .slips import ZERO_REASONS, Scored, Slip, score_slip
from .standings import Bonuses, Standing, standings

ROUNDS, BAG, NO_PLAY, ARBITER = "rounds", "bag", "no_play", "arbiter"
#: how a game ends: code → Spanish text (a msgid, translated where shown).
END_REASONS: dict[str, str] = {
    ROUNDS: N_("se han jugado todas las rondas"),
    BAG: N_("la bolsa ya no puede formar un atril válido"),
    NO_PLAY: N_("el atril no tiene ninguna jugada válida"),
    ARBITER: N_("decisión del árbitro"),
}
FORMAT, VERSION = "atril-duplicada", 1


@dataclass(eq=False)
class Round:
    """One round: the board before it, the rack (in rack order), how many drawn racks failed
    the rule first, the master move, each player's slip and, once closed, their scores."""

    number: int
    board: Board
    rack: tuple[int, ...]
    redraws: int
    master: ScoredPlay
    slips: list[Slip]
    overridden: bool = False
    results: list[Scored] | None = None

    @property
    def closed(self) -> bool:
        return self.results is not None

    @property
    def scores(self) -> list[int]:
        return [r.score for r in self.results or ()]

    def rack_text(self) -> str:
        """The rack in machine form: ``AIMOTUZ``, ``[CH]AE?``."""
        return format_rack(self.rack)

    @property
    def leave(self) -> tuple[int, ...]:
        """The rack tiles the master move leaves for the next round."""
        return leave_after(self.rack, self.master.placed_tiles())


class Duplicate:
    """A duplicate game; see the module docstring. ``players`` may be empty (the master moves
    alone); ``rounds`` None plays to the end of the bag (*bolsa completa*)."""

    def __init__(self, players: Sequence[str] = (), *, seed: int | str | None = None,
                 lexicon: Lexicon | None = None, rounds: int | None = None,
                 keep_leave: bool = False, bonuses: Bonuses | None = None):
        if rounds is not None and rounds < 1:
            raise AtrilError(_("una partida tiene al menos una ronda"))
        self.players = tuple(players)
        self.seed = random.SystemRandom().randrange(2 ** 63) if seed is None else seed
        self.lexicon = Lexicon.load() if lexicon is None else lexicon
        self.max_rounds = rounds
        self.keep_leave = keep_leave
        self.bonuses = Bonuses() if bonuses is None else bonuses
        self.bag = Bag(self.seed)
        self.board = Board()
        #: the tiles off the bag and off the board: the round's rack, the leave between rounds
        self.rack: tuple[int, ...] = ()
        self.rounds: list[Round] = []
        self.end: str | None = None

    # -- the rounds ---------------------------------------------------------------------------
    @property
    def current(self) -> Round | None:
        """The open round, if any."""
        return self.rounds[-1] if self.rounds and not self.rounds[-1].closed else None

    def is_over(self) -> bool:
        return self.end is not None

    def start_round(self) -> Round | None:
        """Draw the next rack and find its master move; None (and ``end`` set) when the bag
        can make no valid rack, the rack has no play, or the game was over already."""
        if self.end is not None:
            return None
        if self.current is not None:
            raise AtrilError(_("la ronda {round} sigue abierta").format(round=len(self.rounds)))
        number = len(self.rounds) + 1
        drawn = draw_rack(self.bag, self.rack, number, keep_leave=self.keep_leave)
        if drawn is None:
            self.end = BAG
            return None
        self.rack, redraws = drawn
        best = master.find(self.board, self.rack, self.lexicon)
        if best is None:
            self.end = NO_PLAY
            return None
        rnd = Round(number, self.board.copy(), self.rack, redraws,
                    check_play(self.board, best.move), [Slip()] * len(self.players))
        self.rounds.append(rnd)
        return rnd

    def _open(self) -> Round:
        rnd = self.current
        if rnd is None:
            raise AtrilError(_("no hay ninguna ronda abierta"))
        return rnd

    def _player(self, player: int) -> int:
        if not 0 <= player < len(self.players):
            raise AtrilError(_("no hay jugador número {player}").format(player=player))
        return player

    def submit(self, player: int, text: str | None, *, late: bool = False) -> None:
        """Hand in (or replace) ``player``'s slip for the open round; scored at the close."""
        self._open().slips[self._player(player)] = Slip(text, late)

    def override(self, move: Move | str) -> ScoredPlay:
        """The arbiter's master move for the open round instead of the top: any valid play
        (its score is then the round's master score)."""
        rnd = self._open()
        scored = score_slip(rnd.board, rnd.rack, self.lexicon, Slip(str(move)))
        if scored.reason is not None:
            reason = _(ZERO_REASONS[scored.reason])
            raise AtrilError(_("el árbitro no puede elegir esa jugada: {reason}").format(
                reason=f"{reason}: {scored.detail}" if scored.detail else reason))
        assert scored.play is not None
        rnd.master, rnd.overridden = scored.play, True
        return scored.play

    def close_round(self) -> Round:
        """Score every slip, place the master move and keep its leave for the next rack."""
        rnd = self._open()
        rnd.results = [score_slip(rnd.board, rnd.rack, self.lexicon, s) for s in rnd.slips]
        apply_play(self.board, rnd.master)
        self.rack = rnd.leave
        if self.max_rounds is not None and rnd.number >= self.max_rounds:
            self.end = ROUNDS
        return rnd

    def correct(self, number: int, player: int, text: str | None, *, late: bool = False
                ) -> Scored:
        """The arbiter's correction of a slip of a closed round (read again, scored again)."""
        if not 1 <= number <= len(self.rounds) or self.rounds[number - 1].results is None:
            raise AtrilError(_("la ronda {round} no está cerrada").format(round=number))
        rnd = self.rounds[number - 1]
        assert rnd.results is not None
        slip = rnd.slips[self._player(player)] = Slip(text, late)
        rnd.results[player] = score_slip(rnd.board, rnd.rack, self.lexicon, slip)
        return rnd.results[player]

    def stop(self) -> None:
        """End the game on the arbiter's decision; an open round is dropped (its rack stays
        off the bag)."""
        if self.end is not None:
            raise AtrilError(_("la partida ya ha terminado"))
        if self.current is not None:
            self.rounds.pop()
        self.end = ARBITER

    # -- results ------------------------------------------------------------------------------
    def closed_rounds(self, upto: int | None = None) -> list[Round]:
        """The closed rounds, the first ``upto`` of them if given."""
        return [r for r in self.rounds[:upto] if r.closed]

    def _tally(self, upto: int | None = None) -> list[tuple[int, Sequence[int]]]:
        return [(r.master.score, r.scores) for r in self.closed_rounds(upto)]

    def master_total(self, upto: int | None = None) -> int:
        return sum(r.master.score for r in self.closed_rounds(upto))

    def awarded(self) -> list[list[int]]:
        """Each closed round's bonuses, per player (``Bonuses.awarded``)."""
        return self.bonuses.awarded(self._tally())

    def standings(self, upto: int | None = None) -> list[Standing]:
        """The standings after the closed rounds (the first ``upto`` rounds if given)."""
        return standings(self.players, self._tally(upto), self.bonuses)

    def to_text(self) -> str:
        """The record a person reads: each round's planilla and the standings."""
        from .sheet import to_text
        return to_text(self)

    # -- storage ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The game as JSON values: what ``from_dict`` reads (the slips as written, the
        arbiter's masters), with what follows from them (scores, bonuses, standings) for
        readers."""
        given = iter(self.awarded())
        rounds = []
        for r in self.rounds:
            bonus = next(given) if r.closed else None
            slips = []
            for p, slip in enumerate(r.slips):
                entry: dict[str, Any] = {"player": self.players[p], "text": slip.text,
                                         "late": slip.late}
                if r.results is not None and bonus is not None:
                    entry.update(score=r.results[p].score, reason=r.results[p].reason,
                                 bonus=bonus[p])
                slips.append(entry)
            rounds.append({"round": r.number, "rack": r.rack_text(),
                           "redraws": r.redraws,
                           "master": {"move": str(r.master.move),
                                      "notation": r.master.move.notation(r.board),
                                      "score": r.master.score, "overridden": r.overridden},
                           "slips": slips, "closed": r.closed})
        return {"format": FORMAT, "version": VERSION, "players": list(self.players),
                "seed": self.seed, "lexicon": self.lexicon.id, "rounds_limit": self.max_rounds,
                "keep_leave": self.keep_leave, "bonuses": self.bonuses.to_dict(),
                "rounds": rounds, "end": self.end, "master_total": self.master_total(),
                "standings": [s.to_dict() for s in self.standings()]}

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, lexicon: Lexicon | None = None) -> Duplicate:
        """A game from ``to_dict``, played again from its seed: every rack, master and slip
        must be what the seed and the lexicon give."""
        try:
            if data.get("format") != FORMAT or data.get("version") != VERSION:
                raise AtrilError(_("no es una duplicada guardada por esta versión de atril "
                                   "({format} {version})").format(
                    format=data.get("format"), version=data.get("version")))
            game = cls(data["players"], seed=data["seed"],
                       lexicon=lexicon if lexicon is not None else Lexicon.load(data["lexicon"]),
                       rounds=data["rounds_limit"], keep_leave=bool(data["keep_leave"]),
                       bonuses=Bonuses(**data["bonuses"]))
            for stored in data["rounds"]:
                rnd = game.start_round()
                stored_master = stored["master"]
                if (rnd is None or rnd.rack_text() != stored["rack"]
                        or rnd.redraws != stored["redraws"]
                        or not stored_master["overridden"]
                        and str(rnd.master.move) != stored_master["move"]):
                    raise AtrilError(_("la ronda {round} guardada no es la que dan la semilla "
                                       "y el léxico").format(round=stored["round"]))
                if stored_master["overridden"]:
                    game.override(stored_master["move"])
                if len(stored["slips"]) != len(game.players):
                    raise AtrilError(_("la ronda {round} no tiene una jugada por jugador")
                                     .format(round=stored["round"]))
                for p, slip in enumerate(stored["slips"]):
                    game.submit(p, slip["text"], late=bool(slip["late"]))
                if stored["closed"]:
                    game.close_round()
            if data["end"] == ARBITER:
                game.stop()
            elif data["end"] is not None:
                game.start_round()
            if game.end != data["end"]:
                raise AtrilError(_("la partida guardada no termina como dicen sus rondas"))
            return game
        except AtrilError:
            raise
        except (KeyError, TypeError, IndexError, ValueError, AttributeError) as exc:
            raise AtrilError(_("duplicada guardada incompleta o mal formada: {error}").format(
                error=repr(exc))) from None
