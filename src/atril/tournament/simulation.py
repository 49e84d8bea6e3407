"""A whole event played by the computer: ``atril torneo simular``, a demo and a test at scale.

The field mixes the computer's levels in turn (by default ``equity`` and ``greedy``, the
fastest: a game takes a few milliseconds), seeded for the first round by a rating that
follows the level (``LEVEL_RATINGS``, ± 50 drawn). Rounds are paired by the settings' plan —
Swiss, then King of the Hill with the Gibson rule for the last ``king_rounds`` — and each
game is played through ``players.play_game`` with the player who starts in seat 0 and a bag
seeded by the event's seed, the round and the table, so an event replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .. import players as P
from ..game import Game as Played
from ..i18n import _
from ..lexicon import Lexicon
from .model import Settings, Tournament, TournamentError
from .pairing import pair

#: the first-round seeding rating of each level (roughly what the levels score against
#: each other in self-play).
LEVEL_RATINGS = {"equity": 2000, "greedy": 1850, "intermedio": 1600, "principiante": 1300}


def simulate(players: int, rounds: int, *, levels: Sequence[str] = ("equity", "greedy"),
             king_rounds: int = Settings.king_rounds, seed: int = 0,
             lexicon: Lexicon | None = None,
             on_game: Callable[[Played], None] | None = None) -> Tournament:
    """Play the event (the players are named after their level). ``on_game`` is called after
    every game (a progress bar)."""
    if players < 2:
        raise TournamentError(_("hacen falta al menos dos jugadores"))
    for name in levels:
        if name not in LEVEL_RATINGS:
            raise TournamentError(_("nivel «{name}» desconocido; los hay: {known}").format(
                name=name, known=", ".join(LEVEL_RATINGS)))
    lexicon = lexicon or Lexicon.load()
    t = Tournament(_("Simulación"), Settings(rounds=rounds, king_rounds=king_rounds, seed=seed))
    draw = random.Random(seed)
    level_of = {}
    for k in range(players):
        level = levels[k % len(levels)]
        p = t.add_player(f"{_(P.LEVELS[level].title)} {k + 1}",
                         LEVEL_RATINGS[level] + draw.randint(-50, 50))
        level_of[p.number] = level
    engines = {name: P.get(name, lexicon=lexicon, seed=f"{seed}:{name}") for name in levels}
    for number in range(1, rounds + 1):
        rnd = pair(t)
        t.add_round(rnd)
        for game in rnd.games:
            seats = [engines[level_of[p]] for p in game.players]
            played = P.play_game(seats, seed=f"{seed}:{number}:{game.table}", lexicon=lexicon)
            assert played.result is not None
            game.scores = (played.result.scores[0], played.result.scores[1])
            if on_game is not None:
                on_game(played)
    return t
