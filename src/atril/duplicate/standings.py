"""Bonuses and standings (docs/DUPLICATE.md §5, §6).

Bonuses: ``master`` points to the only player who found the master score, ``runner_up`` to
the only player whose score is the best below it. The regulations also cap a player's bonuses
at 25 points a game and advise against bonuses below 10 players: both are options here, and
defaults (``Bonuses()``). A bonus needs a score above 0; "found the master score" means
scoring at least the master (an arbiter's master may score less than the top).

Standings: total (points and bonuses), then the number of master scores found, then the best
single play; players equal in all three share a rank. The percentage is the total over the
master moves' total.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

#: partial results are announced after every this many rounds.
PARTIAL_EVERY = 3


def found_master(score: int, master: int) -> bool:
    """Whether a play of ``score`` found the master score (a play of 0 never does)."""
    return score >= master and score > 0


@dataclass(frozen=True)
class Bonuses:
    """The bonus rules of a game; ``cap`` and ``min_players`` None turn those rules off."""

    master: int = 10
    runner_up: int = 5
    cap: int | None = 25
    min_players: int | None = 10

    def for_round(self, scores: Sequence[int], master: int) -> list[int]:
        """Each player's bonus for one round, before the cap."""
        out = [0] * len(scores)
        if self.min_players is not None and len(scores) < self.min_players:
            return out
        found = [p for p, s in enumerate(scores) if found_master(s, master)]
        if len(found) == 1:
            out[found[0]] = self.master
        below = [s for s in scores if 0 < s < master]
        if below:
            best = [p for p, s in enumerate(scores) if s == max(below)]
            if len(best) == 1:
                out[best[0]] = self.runner_up
        return out

    def awarded(self, rounds: Sequence[tuple[int, Sequence[int]]]) -> list[list[int]]:
        """The bonuses each player receives in each round, ``rounds`` being (master score,
        players' scores): the cap counts what a player has received so far."""
        out: list[list[int]] = []
        received: list[int] = []
        for master, scores in rounds:
            received += [0] * (len(scores) - len(received))
            given = []
            for p, bonus in enumerate(self.for_round(scores, master)):
                if self.cap is not None:
                    bonus = max(0, min(bonus, self.cap - received[p]))
                received[p] += bonus
                given.append(bonus)
            out.append(given)
        return out

    def to_dict(self) -> dict[str, int | None]:
        return asdict(self)


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings after some rounds."""

    player: int
    name: str
    rank: int
    points: int  # the plays' scores
    bonus: int
    masters: int  # rounds in which the player found the master score
    best: int  # the best single play
    master_total: int

    @property
    def total(self) -> int:
        return self.points + self.bonus

    @property
    def percentage(self) -> float:
        """The total as a percentage of the master moves' total."""
        return 100 * self.total / self.master_total if self.master_total else 0.0

    def to_dict(self) -> dict[str, object]:
        return {**asdict(self), "total": self.total, "percentage": round(self.percentage, 2)}


def standings(names: Sequence[str], rounds: Sequence[tuple[int, Sequence[int]]],
              bonuses: Bonuses) -> list[Standing]:
    """The standings after ``rounds`` ((master score, players' scores) each), best first."""
    given = bonuses.awarded(rounds)
    master_total = sum(master for master, _scores in rounds)
    lines = []
    for p, name in enumerate(names):
        scores = [s[p] for _master, s in rounds]
        lines.append((sum(scores) + sum(g[p] for g in given),
                      sum(1 for master, s in rounds if found_master(s[p], master)),
                      max(scores, default=0), p, name, sum(scores)))
    lines.sort(key=lambda line: (-line[0], -line[1], -line[2], line[3]))
    out: list[Standing] = []
    for i, (total, masters, best, p, name, points) in enumerate(lines):
        tied = out and (out[-1].total, out[-1].masters, out[-1].best) == (total, masters, best)
        rank = out[-1].rank if tied else i + 1
        out.append(Standing(p, name, rank, points, total - points, masters, best,
                            master_total))
    return out
