"""Rating changes from a tournament's games (``atril.rating``: Elo, 1800 to start, faster in
the first games) and the rating list a director imports and exports (CSV).

Every game played with a result is rated, the way FIDE rates an event: against the
opponent's rating before the event, with the player's count of rated games before the event
(so a provisional player's K stays the same all event), the changes of all the games added up.
Byes, absences and forfeits are not rated. An unrated player starts at
``rating.INITIAL_RATING`` with no games.

The rating list is a CSV file with a header ``name,rating,games`` (``games``, the rated games
so far, may be left out: 0); exporting writes the ratings after the event, rounded, with the
games of the event added.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from .. import rating as elo
from ..i18n import _
from .model import Player, Tournament, TournamentError, read_text
from .standings import number

LIST_FIELDS = ("name", "rating", "games")


@dataclass
class RatingChange:
    player: Player
    before: float
    games: int = 0
    score: float = 0
    expected: float = 0
    change: float = 0

    @property
    def after(self) -> float:
        return self.before + self.change

    def to_dict(self) -> dict[str, object]:
        return {"name": self.player.name, "before": round(self.before), "games": self.games,
                "score": number(self.score), "expected": round(self.expected, 2),
                "change": round(self.change, 1), "after": round(self.after)}


def changes(t: Tournament) -> list[RatingChange]:
    """Each player's rating change over the games with a result, in player order."""
    rows = {p.number: RatingChange(p, float(elo.INITIAL_RATING if p.rating is None
                                            else p.rating)) for p in t.players}
    for rnd in t.rounds:
        for game in rnd.games:
            if game.scores is None or game.forfeits:
                continue
            a, b = (rows[p] for p in game.players)
            sa, sb = game.scores
            result = 1.0 if sa > sb else 0.5 if sa == sb else 0.0
            for me, them, res in ((a, b, result), (b, a, 1 - result)):
                me.games += 1
                me.score += res
                me.expected += elo.expected(me.before, them.before)
                me.change += elo.change(me.before, them.before, res,
                                        games=me.player.rated_games)
    return list(rows.values())


def read_list(path: str | Path) -> list[tuple[str, int, int]]:
    """(name, rating, games) from a rating list."""
    reader = csv.DictReader(io.StringIO(read_text(path)))
    if reader.fieldnames is None or not {"name", "rating"} <= set(reader.fieldnames):
        raise TournamentError(_("{path}: la primera línea ha de ser la cabecera "
                                "name,rating,games").format(path=path))
    out = []
    for row in reader:
        where = _("{source}, línea {line}").format(source=path, line=reader.line_num)
        name = (row.get("name") or "").strip()
        if not name:
            raise TournamentError(_("{where}: falta el nombre").format(where=where))
        values = []
        for key in ("rating", "games"):
            text = (row.get(key) or "0").strip() or "0"
            try:
                values.append(int(text))
            except ValueError:
                raise TournamentError(_("{where}: «{text}» no es un número ({field})").format(
                    where=where, text=text, field=key)) from None
        out.append((name, values[0], values[1]))
    return out


def apply_list(t: Tournament, rows: list[tuple[str, int, int]]) -> tuple[int, int]:
    """Enter the players of a rating list: those already in ``t`` take the list's rating and
    games, the others are added. Returns (added, updated)."""
    added = updated = 0
    for name, rating, games in rows:
        try:
            player = t.find(name)
        except TournamentError:
            t.add_player(name, rating or None, games)
            added += 1
        else:
            player.rating, player.rated_games = rating or None, games
            updated += 1
    return added, updated


def write_list(changes: list[RatingChange], path: str | Path) -> None:
    """The rating list after the event."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(LIST_FIELDS)
    for c in changes:
        writer.writerow((c.player.name, round(c.after), c.player.rated_games + c.games))
    Path(path).write_text(out.getvalue(), encoding="utf-8")
