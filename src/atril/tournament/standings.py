"""Standings: wins (a draw is half a win), losses, spread, total points and the tie-breaks.

- **Buchholz**: the sum of the final wins of every opponent; **median Buchholz** the same
  without the highest and the lowest (7, 6, 5, 5, 3, 2 → 28 and 19); **Sonneborn-Berger**: for
  each win the beaten opponent's final wins, for each draw half the opponent's (beat a 6, drew
  a 4, lost to a 5: 8).
- **A game not played** (a bye, an absence, a forfeit either way) counts in these sums as a
  game against a *virtual opponent* (the chess convention, FIDE 2012): one who had the
  player's own wins before that round, got the opposite result in it and drew every later
  round. A bye won in round 3 of 5 by a player with 1 win before it adds 1 + 0 + 2 × ½ = 2 to
  the Buchholz and, being a win, 2 to the Sonneborn-Berger. So a bye neither pads nor sinks a
  player's tie-breaks, and the player's bye win still counts in their opponents' sums as any
  win does.
- **Ranking**: wins, then the director's tie-breaks in order (by default median Buchholz,
  Sonneborn-Berger, spread), higher first. Players equal on all of them share the rank and are
  listed by rating (the unrated last), then by number.

Losses are games minus wins: a draw is half a loss too, as TSH counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .model import DEFAULT_TIEBREAKS, Player, Tournament

#: the fields of a standings row in JSON and CSV, in the order of the CLI's contract.
FIELDS = ("rank", "name", "wins", "losses", "spread", "median_buchholz", "buchholz",
          "sonneborn_berger")


@dataclass(frozen=True)
class Entry:
    """One result of a player: ``opponent`` None for a game not played (bye, absence,
    forfeit); ``points``: what the player scored on the board (0 if not played)."""

    round: int
    opponent: int | None
    result: float
    spread: int
    points: int = 0


@dataclass
class Standing:
    player: Player
    entries: list[Entry] = field(default_factory=list)
    rank: int = 0
    wins: float = 0
    spread: int = 0
    points: int = 0
    buchholz: float = 0
    median_buchholz: float = 0
    sonneborn_berger: float = 0

    @property
    def losses(self) -> float:
        return len(self.entries) - self.wins

    def value(self, key: str) -> float:
        """A tie-break (or ``wins``) by its key."""
        return float(getattr(self, key))

    def to_dict(self) -> dict[str, object]:
        """The row as ``atril torneo clasificacion --json`` writes it: whole numbers as
        integers, halves as .5."""
        return {"rank": self.rank, "name": self.player.name,
                **{key: number(getattr(self, key)) for key in FIELDS[2:]}}


def number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def results(t: Tournament, through: int) -> dict[int, list[Entry]]:
    """Every player's results in rounds 1 to ``through``, in round order; games without a
    result yet are left out."""
    out: dict[int, list[Entry]] = {p.number: [] for p in t.players}
    spread = t.settings.bye_spread
    for rnd in t.rounds[:through]:
        for game in rnd.games:
            a, b = game.players
            if game.forfeits:
                for p in (a, b):
                    won = p not in game.forfeits
                    out[p].append(Entry(rnd.number, None, 1.0 if won else 0.0,
                                        spread if won else -spread))
            elif game.scores is not None:
                for (p, mine), theirs in zip(zip((a, b), game.scores), reversed(game.scores)):
                    result = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                    out[p].append(Entry(rnd.number, game.opponent(p), result, mine - theirs,
                                        mine))
        for p, s in rnd.byes.items():
            out[p].append(Entry(rnd.number, None, 1.0 if s > 0 else 0.0, s))
    for entries in out.values():
        entries.sort(key=lambda e: e.round)
    return out


def standings(t: Tournament, through: int | None = None,
              tiebreaks: Sequence[str] | None = None) -> list[Standing]:
    """The standings after round ``through``, ranked. By default, after the last round with
    a game's result in (or with no games at all): a round just paired does not count yet, not
    even its bye."""
    if through is None:
        through = max((r.number for r in t.rounds
                       if not r.games or any(g.done for g in r.games)), default=0)
    entries = results(t, through)
    last = max((e.round for es in entries.values() for e in es), default=0)
    rows = {p.number: Standing(p, entries[p.number]) for p in t.players}
    for row in rows.values():
        row.wins = sum(e.result for e in row.entries)
        row.spread = sum(e.spread for e in row.entries)
        row.points = sum(e.points for e in row.entries)
    for row in rows.values():
        before = 0.0
        sums = []
        for e in row.entries:
            if e.opponent is not None:
                sums.append(rows[e.opponent].wins)
            else:  # the virtual opponent
                sums.append(before + (1 - e.result) + 0.5 * (last - e.round))
            row.sonneborn_berger += e.result * sums[-1]
            before += e.result
        row.buchholz = sum(sums)
        row.median_buchholz = sum(sorted(sums)[1:-1])
    return rank(list(rows.values()), tiebreaks or t.settings.tiebreaks or DEFAULT_TIEBREAKS)


def rank(rows: list[Standing], tiebreaks: Sequence[str]) -> list[Standing]:
    """Sort by wins and the tie-breaks; equal rows share a rank."""
    def merit(row: Standing) -> tuple[float, ...]:
        return (row.wins, *(row.value(k) for k in tiebreaks))

    rows.sort(key=lambda r: (tuple(-x for x in merit(r)),
                             r.player.rating is None, -(r.player.rating or 0), r.player.number))
    for i, row in enumerate(rows):
        row.rank = rows[i - 1].rank if i and merit(rows[i - 1]) == merit(row) else i + 1
    return rows
