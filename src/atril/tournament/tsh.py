"""TSH division files (``.t``), read and written.

One line per player, numbered from 1 in file order::

    Pérez, Ana        1850  2 3 0; 420 398 50 ; p12 1 2 0

the name, the rating (0: unrated), the opponent's number in each round (0: no opponent), a
``;``, the player's score in each round, and optional ``; key values`` fields. With opponent 0
the "score" is a spread: positive, a bye (a win); negative, an absence or forfeit (a loss); 0,
atril reads and writes a round the player sat out (a late entry, a withdrawal). atril reads
``p12`` (1: started, 2: replied; anything else: not known) and ``off`` (withdrawn: not paired
again); other fields are ignored. Blank lines and lines starting with ``#`` are skipped.

Writing, a forfeit between two paired players becomes opponent 0 with ± the bye spread for
each (TSH's way), a game without a result yet ends the scores, ``p12`` is written when every
start of the player is known, and ``off 1`` marks a withdrawal. Ratings, names and results
round-trip; settings (bye spread, tie-breaks …) are atril's and stay in its JSON file.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..i18n import _, ngettext
from .model import Game, Player, Round, Settings, Tournament, TournamentError, read_text

_HEAD = re.compile(r"^(?P<name>.*?\S)\s+(?P<rating>\d+)(?P<opponents>(?:\s+\S+)*)\s*$")
_NUMBER_END = re.compile(r"\s-?\d+$")


class _Line:
    """One player's line as written."""

    def __init__(self, where: str, name: str, rating: int, opponents: list[int],
                 scores: list[int], extras: dict[str, list[str]]):
        self.where, self.name, self.rating = where, name, rating
        self.opponents, self.scores, self.extras = opponents, scores, extras


def _ints(where: str, field: str, text: str) -> list[int]:
    out = []
    for token in text.split():
        try:
            out.append(int(token))
        except ValueError:
            raise TournamentError(_("{where}: «{token}» no es un número ({field})").format(
                where=where, token=token, field=field)) from None
    return out


def _parse(where: str, text: str) -> _Line:
    head, *rest = text.split(";")
    match = _HEAD.match(head.strip())
    if match is None:
        raise TournamentError(_("{where}: se esperaba «nombre rating oponentes; puntos»")
                              .format(where=where))
    opponents = _ints(where, _("oponentes"), match["opponents"])
    if any(o < 0 for o in opponents):
        raise TournamentError(_("{where}: un oponente es un número de jugador, no negativo")
                              .format(where=where))
    scores = _ints(where, _("puntuaciones"), rest[0]) if rest else []
    if len(scores) > len(opponents):
        raise TournamentError(ngettext("{where}: {scores} puntuaciones para {rounds} ronda",
                                       "{where}: {scores} puntuaciones para {rounds} rondas",
                                       len(opponents)).format(
            where=where, scores=len(scores), rounds=len(opponents)))
    extras = {}
    for field in rest[1:]:
        key, *values = field.split()
        if key:
            extras[key] = values
    return _Line(where, match["name"], int(match["rating"]), opponents, scores, extras)


def loads(text: str, source: str = ".t", name: str = "") -> Tournament:
    """A tournament from the text of a ``.t`` file; errors name ``source`` and the line."""
    lines = []
    for k, raw in enumerate(text.splitlines(), 1):
        if raw.strip() and not raw.lstrip().startswith("#"):
            lines.append(_parse(_("{source}, línea {line}").format(source=source, line=k), raw))
    if not lines:
        raise TournamentError(_("{source}: no hay ningún jugador").format(source=source))
    t = Tournament(name, Settings())
    for line in lines:
        t.players.append(Player(len(t.players) + 1, line.name, line.rating or None))
        if "off" in line.extras:
            t.players[-1].withdrawn = max(len(x.opponents) for x in lines) + 1
    n = len(lines)
    for line in lines:
        for r, o in enumerate(line.opponents, 1):
            if o > n:
                raise TournamentError(_("{where}: ronda {round}: no hay jugador número "
                                        "{number}").format(where=line.where, round=r, number=o))
    for number in range(1, max(len(x.opponents) for x in lines) + 1):
        t.rounds.append(_round(t, lines, number))
    t.check()
    return t


def _round(t: Tournament, lines: list[_Line], number: int) -> Round:
    rnd = Round(number, "tsh")
    r = number - 1
    for i, line in enumerate(lines, 1):
        if r >= len(line.opponents):
            continue
        o = line.opponents[r]
        score = line.scores[r] if r < len(line.scores) else None
        if o == 0:
            if score != 0:
                rnd.byes[i] = t.settings.bye_spread if score is None else score
            continue
        other = lines[o - 1]
        if o == i or r >= len(other.opponents) or other.opponents[r] != i:
            said = other.opponents[r] if r < len(other.opponents) else None
            raise TournamentError(_("{where}: en la ronda {round} juega con el {number}, pero "
                                    "la línea de {name} dice {said}").format(
                where=line.where, round=number, number=o, name=other.name,
                said=_("nada") if said is None else said))
        theirs = other.scores[r] if r < len(other.scores) else None
        if (score is None) != (theirs is None):
            missing = other if theirs is None else line
            raise TournamentError(_("{where}: falta la puntuación de la ronda {round} (la de "
                                    "su oponente está)").format(where=missing.where,
                                                                round=number))
        if i < o:
            started = {p: line.extras.get("p12", [])[r:r + 1] == [code]
                       for p, code in ((i, "1"), (o, "2"))}
            starts = i if started[i] else o if started[o] else None
            rnd.games.append(Game(len(rnd.games) + 1, (i, o), starts,
                                  None if score is None or theirs is None else (score, theirs)))
    return rnd


def read(path: str | Path) -> Tournament:
    return loads(read_text(path), source=str(path), name=Path(path).stem)


def dumps(t: Tournament) -> str:
    """The tournament as a ``.t`` file."""
    width = max((len(p.name) for p in t.players), default=0) + 2
    out = []
    for p in t.players:
        if ";" in p.name or "#" in p.name or _NUMBER_END.search(p.name):
            raise TournamentError(_("el nombre «{name}» no cabe en un fichero .t (lleva ; o # "
                                    "o acaba en un número)").format(name=p.name))
        opponents, scores, p12 = [], [], []
        open_game = False
        for rnd in t.rounds:
            game = rnd.game_of(p.number)
            score: int | None
            if game is None or game.forfeits:
                opponents.append(0)
                if game is not None:
                    spread = t.settings.bye_spread
                    score = -spread if p.number in game.forfeits else spread
                else:
                    score = rnd.byes.get(p.number, 0)
                p12.append("0")
            else:
                opponents.append(game.opponent(p.number))
                score = None if game.scores is None else game.scores[game.players.index(p.number)]
                p12.append("" if game.starts is None else "1" if game.starts == p.number else "2")
            if score is None:
                open_game = True
            elif not open_game:
                scores.append(score)
        line = (f"{p.name:<{width}}{p.rating or 0:>4} {' '.join(map(str, opponents))}; "
                f"{' '.join(map(str, scores))}").rstrip()
        if t.rounds and all(p12):
            line += f" ; p12 {' '.join(p12)}"
        if p.withdrawn is not None:
            line += " ; off 1"
        out.append(line)
    return "\n".join(out) + "\n"


def write(t: Tournament, path: str | Path) -> None:
    Path(path).write_text(dumps(t), encoding="utf-8")
