"""Tournaments: the director's tool for FISE events (issue 14) — players, rounds, pairings,
results, standings with the Spanish tie-breaks, ratings, TSH files.

    >>> from atril.tournament import Tournament, pair, standings
    >>> t = Tournament("Open")
    >>> for name in ("Ana", "Luis", "Eva", "Juan"):
    ...     _ = t.add_player(name)
    >>> t.add_round(pair(t, "todos"))                # Berger table, round 1: 1–4, 2–3
    >>> [[t.player(p).name for p in g.players] for g in t.rounds[0].games]
    [['Ana', 'Juan'], ['Luis', 'Eva']]
    >>> _ = t.record(1, t.find("Ana"), 420, t.find("Juan"), 380)
    >>> _ = t.record(1, t.find("Eva"), 400, t.find("Luis"), 400)
    >>> [(s.rank, s.player.name, s.wins, s.spread) for s in standings(t)]
    [(1, 'Ana', 1.0, 40), (2, 'Luis', 0.5, 0), (2, 'Eva', 0.5, 0), (4, 'Juan', 0.0, -40)]

The modules:

- ``model``: ``Tournament`` (settings, players, rounds, games, byes; entering results,
  forfeits, withdrawals, late entries, manual changes) and its JSON file;
- ``standings``: wins, losses, spread, points, Buchholz, median Buchholz, Sonneborn-Berger,
  the ranking (and how a bye counts: a virtual opponent);
- ``pairing``: round robin, Swiss (a least-cost matching with rustworkx: the costs are
  documented there), King of the Hill, the Gibson rule, byes, tables, who starts (art. 4);
- ``ratings``: rating changes with ``atril.rating`` and the rating list (CSV);
- ``tsh``: TSH ``.t`` files; ``export``: standings as CSV and HTML, pairing sheets;
- ``simulation``: a whole event played by the computer.

``docs/TOURNAMENTS.md`` is the director's guide to all of it and to ``atril torneo``.
"""

from __future__ import annotations

from pathlib import Path

from . import tsh
from .model import SYSTEMS, TIEBREAKS, Game, Player, Round, Settings, Tournament, TournamentError
from .pairing import pair
from .standings import Standing, standings

__all__ = ["SYSTEMS", "TIEBREAKS", "Game", "Player", "Round", "Settings", "Standing",
           "Tournament", "TournamentError", "load", "pair", "standings"]


def load(path: str | Path) -> Tournament:
    """A tournament from atril's JSON file or, by its extension, a TSH ``.t`` file."""
    if Path(path).suffix.lower() == ".t":
        return tsh.read(path)
    return Tournament.load(path)
