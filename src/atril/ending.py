"""How a game ends (art. 45; overtime, art. 35): which ending a finished turn brings, and the
final score each ending gives.

- 45.1 nobody can place a tile (declared, or seen through the game's ``can_play`` hook);
- 45.2 two passes in a row by each player (a withdrawn play counts as a pass);
- 45.3 twelve scoreless turns in a row, unless the score is still 0–0 (the ruleset says how
  many and which turns count: FILE 2024 ends on six, with no separate rule for passes);
- 45.4 a player places all their tiles with the bag empty: they gain the opponent's rack
  value and the opponent loses it;
- 45.5 the game's own time is over (after equal turns);
- FILE 2024: more than 8 minutes over the clock loses the game;
- a player resigns (``resign``): no article says so, but the texts count a game abandoned as
  lost; the scores stand as they are, without rack adjustments.

In 45.1–45.3 each player loses the value of their own rack; overtime points (art. 35) come off
in every ending.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import tiles as T
from .errors import AtrilError
from .i18n import N_, _, ngettext
from .move import EXCHANGE, PASS, PLAY, WITHDRAWN
from .rack import Rack

if TYPE_CHECKING:
    from .game import Game, Turn
    from .ruleset import Ruleset

#: end reasons: code → (article of the 2009 text, or None; Spanish text: a msgid).
END_REASONS: dict[str, tuple[str | None, str]] = {
    "out": ("45.4", N_("un jugador ha colocado todas sus fichas y la bolsa está vacía")),
    "passes": ("45.2", N_("ambos jugadores han pasado dos veces seguidas")),
    "scoreless": ("45.3", N_("turnos seguidos sin puntuar")),  # text: see Result.text
    "blocked": ("45.1", N_("ningún jugador puede colocar fichas")),
    "time": ("45.5", N_("se ha acabado el tiempo de la partida")),
    "overtime": ("35", N_("un jugador ha superado el límite de tiempo extra")),
    "resign": (None, N_("un jugador ha abandonado la partida")),  # text: see Result.text
}
#: the turns that score nothing: a CGP's zero-turn count.
SCORELESS = (PASS, WITHDRAWN, EXCHANGE)


@dataclass(frozen=True)
class Adjustment:
    """A change to a final score (art. 35, 45): ``kind`` is ``rack`` (own rack off), ``out``
    (the opponent's rack gained, 45.4) or ``time`` (overtime, art. 35)."""

    player: int
    kind: str
    points: int
    tiles: tuple[int, ...] = ()


@dataclass(frozen=True)
class Result:
    """How a game ended: ``reason`` code (see ``END_REASONS``), article, the adjustments in
    order, final scores and the winner (None = a draw); ``name`` is the player the ending
    names (who went out, 45.4; who lost on time, 35, beyond ``minutes`` of overtime; who
    resigned); ``turns`` the scoreless turns that ended it (45.3). ``article`` is in the
    numbering of the game's ruleset; None for a resignation, which no article covers.

    ``text`` says it in the language of whoever reads it: a web game's result is made once
    and shown to players in different languages."""

    reason: str
    article: str | None
    adjustments: tuple[Adjustment, ...]
    scores: tuple[int, int]
    winner: int | None
    name: str | None = None
    minutes: int | None = None
    turns: int | None = None

    @property
    def text(self) -> str:
        if self.reason == "out":
            return _("{name} ha colocado todas sus fichas y la bolsa está vacía").format(
                name=self.name)
        if self.reason == "overtime":
            minutes = self.minutes or 0
            return ngettext(
                "{name} ha superado en más de {minutes} minuto su tiempo y pierde la partida",
                "{name} ha superado en más de {minutes} minutos su tiempo y pierde la partida",
                minutes).format(name=self.name, minutes=minutes)
        if self.reason == "resign":
            return _("{name} abandona la partida y la pierde").format(name=self.name)
        if self.reason == "scoreless":
            turns = self.turns or 0
            return ngettext("{turns} turno seguido sin puntuar (pases, cambios o jugadas no "
                            "válidas)",
                            "{turns} turnos seguidos sin puntuar (pases, cambios o jugadas no "
                            "válidas)", turns).format(turns=turns)
        return _(END_REASONS[self.reason][1])

    def to_dict(self) -> dict:
        return {"reason": self.reason, "article": self.article, "text": self.text,
                "adjustments": [{"player": a.player, "kind": a.kind, "points": a.points,
                                 "tiles": T.to_machine(a.tiles)} for a in self.adjustments],
                "scores": list(self.scores), "winner": self.winner}


def streak(history: Sequence[Turn], kinds: tuple[str, ...]) -> int:
    """How many of the last turns in a row are of these kinds."""
    n = 0
    for turn in reversed(history):
        if turn.kind not in kinds:
            break
        n += 1
    return n


def streaks(history: Sequence[Turn], rules: Ruleset) -> tuple[int, int]:
    """The last turns in a row as the two rules count them: passes (45.2; a withdrawn play is
    one where the ruleset says so) and scoreless turns (45.3, the ruleset's kinds)."""
    pass_like = (PASS, WITHDRAWN) if rules.withdrawn_is_pass else (PASS,)
    return streak(history, pass_like), streak(history, rules.scoreless_counts)


def after_turn(game: Game) -> str | None:
    """The ending the last completed turn brings, if any (time aside: ``Game.check_time``)."""
    last = game.history[-1]
    rules = game.ruleset
    if last.kind == PLAY and not game.racks[last.player] and not game.bag:
        return "out"
    passes, scoreless = streaks(game.history, rules)
    if rules.max_passes is not None and passes >= rules.max_passes:
        return "passes"
    if (rules.max_scoreless_turns is not None
            and not (rules.scoreless_spares_zero and game.scores == [0, 0])
            and scoreless >= rules.max_scoreless_turns):
        return "scoreless"
    if (game.can_play is not None and not game.bag
            and not any(game.can_play(game.board, r) for r in game.racks)):
        return "blocked"
    return None


def result(game: Game, reason: str, loser: int | None = None) -> Result:
    """The final scores of ``game`` ending for ``reason`` (``loser``: who lost on time, or
    who resigned)."""
    adjustments = _rack_adjustments(game, reason)
    for p in (0, 1):
        if game.overtime[p]:
            adjustments.append(Adjustment(
                p, "time", -game.ruleset.overtime_penalty * game.overtime[p]))
    final = list(game.scores)
    for a in adjustments:
        final[a.player] += a.points
    if loser is not None:
        winner: int | None = 1 - loser
    elif final[0] == final[1]:
        winner = None
    else:
        winner = 0 if final[0] > final[1] else 1
    name: str | None = None
    minutes = turns = None
    if reason == "out":
        name = game.players[game.history[-1].player]
    elif reason == "overtime":
        assert loser is not None
        name, minutes = game.players[loser], game.ruleset.overtime_limit
    elif reason == "resign":
        if loser is None:
            raise AtrilError(_("falta quién abandona la partida"))
        name = game.players[loser]
    elif reason == "scoreless":
        turns = game.ruleset.max_scoreless_turns
    article = END_REASONS[reason][0]
    return Result(reason, None if article is None else game.ruleset.article(article),
                  tuple(adjustments),
                  (final[0], final[1]), winner, name, minutes, turns)


def _rack_adjustments(game: Game, reason: str) -> list[Adjustment]:
    """The racks' values: to the one who went out (45.4), or off each player's own score."""
    if reason == "out":
        out = game.history[-1].player
        rack = game.racks[1 - out]
        value = Rack(rack).value()
        return [Adjustment(1 - out, "rack", -value, rack), Adjustment(out, "out", value, rack)]
    if reason in ("passes", "scoreless", "blocked"):
        return [Adjustment(p, "rack", -Rack(game.racks[p]).value(), game.racks[p])
                for p in (0, 1) if game.racks[p]]
    return []
