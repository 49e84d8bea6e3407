"""The record of a duplicate game as a person reads it: the planilla of each round (rack,
master move, each player's play and score), the standings every ``PARTIAL_EVERY`` rounds and
at the end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n import _, ngettext
from ..rack import Rack
from .game import END_REASONS
from .slips import ZERO_REASONS
from .standings import PARTIAL_EVERY, Standing

if TYPE_CHECKING:
    from .game import Duplicate, Round


def to_text(game: Duplicate) -> str:
    limit = (_("bolsa completa") if game.max_rounds is None else
             ngettext("{rounds} ronda", "{rounds} rondas", game.max_rounds).format(
                 rounds=game.max_rounds))
    lines = [_("Duplicada: semilla {seed}, léxico {lexicon}, {limit}").format(
        seed=game.seed, lexicon=game.lexicon.id, limit=limit)]
    given = iter(game.awarded())
    for rnd in game.rounds:
        lines += ["", *_round(game, rnd, next(given) if rnd.closed else None)]
        if rnd.closed and rnd.number % PARTIAL_EVERY == 0 and game.players and not (
                game.is_over() and rnd is game.rounds[-1]):
            lines += ["", _("Clasificación tras la ronda {round}:").format(round=rnd.number),
                      *_standings(game.standings(rnd.number))]
    if game.end is not None:
        rounds = len(game.closed_rounds())
        lines += ["", ngettext("Fin: {reason}. Jugada maestra: {total} puntos en {rounds} ronda.",
                               "Fin: {reason}. Jugada maestra: {total} puntos en {rounds} rondas.",
                               rounds).format(reason=_(END_REASONS[game.end]),
                                              total=game.master_total(), rounds=rounds)]
        if game.players:
            lines += [_("Clasificación final:"), *_standings(game.standings())]
    return "\n".join(lines)


def _round(game: Duplicate, rnd: Round, bonus: list[int] | None) -> list[str]:
    heading = _("Ronda {round} · atril: {rack}").format(round=rnd.number,
                                                        rack=Rack(rnd.rack).human())
    if rnd.redraws:
        heading += "  " + _("(repetido)")
    chosen = "  " + _("(elegida por el árbitro)") if rnd.overridden else ""
    lines = [heading, "  " + _("Maestra: {move} — {score}").format(
        move=rnd.master.move.notation(rnd.board), score=rnd.master.score) + chosen]
    width = max((len(name) for name in game.players), default=0)
    for p, name in enumerate(game.players):
        slip = rnd.slips[p]
        written = slip.text.strip() if slip.text else "—"
        if rnd.results is None or bonus is None:
            lines.append(f"  {name:<{width}}  {written}")
            continue
        result = rnd.results[p]
        line = f"  {name:<{width}}  {written:<24} {result.score:>4}"
        if bonus[p]:
            line += f" +{bonus[p]}"
        if result.reason is not None:
            line += "  " + _(ZERO_REASONS[result.reason])
        lines.append(line)
    return lines


def _standings(table: list[Standing]) -> list[str]:
    width = max(len(s.name) for s in table)
    return ["  " + _("{rank}. {name} {total} ({percentage} %), maestras: {masters}, mejor "
                     "jugada: {best}").format(
        rank=f"{s.rank:>2}", name=f"{s.name:<{width}}", total=f"{s.total:>5}",
        percentage=f"{s.percentage:.1f}", masters=s.masters, best=s.best) for s in table]
