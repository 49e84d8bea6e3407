"""Pairing a round: round robin (Berger tables), Swiss, King of the Hill and the Gibson rule;
byes, manual pairs, table numbers and who starts each game.

**Swiss** is a minimum-cost perfect matching (``rustworkx.max_weight_matching``, Edmonds'
blossom algorithm in Rust) over every pair of players still to pair, plus a bye node when
their number is odd. Each edge's cost is a tuple compared level by level (``swiss_costs``),
folded into one integer weight so that no amount of a lower level outweighs one unit of a
higher one:

0. a bye to a player who has already had k byes costs k (at most one bye each while anyone
   is left without one);
1. a pair that has already met k times costs k (no repeat while one can be avoided);
2. the bye to the player i places from the bottom costs i (the lowest-placed player
   without a bye gets it);
3. a pair whose wins differ by d costs (2d)² (the same or the nearest record; squared, so
   two pairs one win apart beat one pair two wins apart);
4. the Dutch order inside a score group: in a group of g players, the players at positions
   i < j cost |(j − i) − ⌊g/2⌋| (the top half meets the bottom half, 1st v (g/2+1)th); a
   pair across groups costs how far the higher one is from the bottom of its group plus how
   far the lower one is from the top of its group (the lowest of a group floats down to the
   highest of the next).

Positions follow the standings before the round (ranked by wins and the tie-breaks); the
first round is in rating order or, if the director asks, drawn.

**King of the Hill** pairs 1st v 2nd, 3rd v 4th … in the standings, repeats allowed. **Gibson**
is King of the Hill after one check: the leader has first place decided when no other player
can catch them, that is, for every other player, losing every remaining round (this one
included) the leader still has more wins than the other winning every one of them, or
exactly as many with more spread even after the leader loses each remaining game by the
director's maximum spread per game and the other wins each by it; the spread case counts only
when spread is the director's first tie-break. Then the leader meets the best-placed player
who can no longer reach a prize (the director's number of prizes: a player is out when that
many others are sure to finish above them, by the same test), one the leader has not met if
there is one; if every player can still reach a prize, the lowest-placed. King of the Hill
pairs the rest: 2nd v 3rd, 4th v 5th …

**Byes**: in King of the Hill and Gibson rounds, the lowest-placed player without a bye (the
lowest-placed of all if everyone has had one); in Swiss rounds by the costs above. A bye is a
win by the director's bye spread.

**Who starts** (art. 4): in a round robin the first-named player of the Berger table (art.
4.1), with the starts swapped in a second cycle; in Swiss, King of the Hill and Gibson rounds
art. 4.2 leaves it to the pairing system, and atril balances: the player who has started less
often than replied (starts minus replies) starts; if equal, the one who replied in the most
recent round where the two histories differ; if the histories are the same, the higher-placed
player on odd tables and the lower-placed on even ones. With ``draw_starts`` (team events,
art. 4.4) every game is drawn for.

**Tables** follow the better-placed player of each game (table 1: the leaders); in a round
robin, the Berger table's boards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

import rustworkx as rx

from ..i18n import _
from .model import SYSTEMS, Game, Round, Tournament, TournamentError
from .standings import Standing, standings

BYE = 0  # the bye's node (players are numbered from 1)
Cost = tuple[int, int, int, int, int]


# --- round robin ------------------------------------------------------------------------------

def berger(n: int) -> list[list[tuple[int, int]]]:
    """The Berger tables for ``n`` players: each round's boards as (first, second) seat
    numbers, board 1 first. With an odd ``n``, seat ``BYE`` marks who rests."""
    seats = n + n % 2
    rounds = []
    for r in range(1, seats):
        k = (r - 1) * (seats // 2) % (seats - 1) + 1  # the last seat's opponent
        boards = [(seats, k) if r % 2 == 0 else (k, seats)]
        for b in range(1, seats // 2):
            boards.append(((k + b - 1) % (seats - 1) + 1, (k - b - 1) % (seats - 1) + 1))
        if n % 2:
            boards = [(BYE if x == seats else x, BYE if y == seats else y) for x, y in boards]
        rounds.append(boards)
    return rounds


def round_robin(t: Tournament, number: int) -> Round:
    """Round ``number`` of a round robin among every player by number (a second cycle
    repeats the tables with the starts swapped). A player whose table opponent is not
    active (withdrawn, or not yet entered) sits the round out; the bye seat's opponent gets
    the bye."""
    tables = berger(len(t.players))
    cycle, index = divmod(number - 1, len(tables))
    rnd = Round(number, "todos")
    for a, b in tables[index]:
        if cycle % 2:
            a, b = b, a
        if BYE in (a, b):
            rester = t.player(a or b)
            if rester.active(number):
                rnd.byes[rester.number] = t.settings.bye_spread
        elif t.player(a).active(number) and t.player(b).active(number):
            table = len(rnd.games) + 1
            first = _drawn(t, number, table, a, b) if t.settings.draw_starts else a
            rnd.games.append(Game(table, (first, b if first == a else a), starts=first))
    return rnd


# --- Swiss -----------------------------------------------------------------------------------

def swiss_costs(order: Sequence[int], wins2: Mapping[int, int],
                met: Mapping[frozenset[int], int],
                byes: Mapping[int, int]) -> dict[tuple[int, int], Cost]:
    """The cost of every possible pair (see the module's docstring): ``order`` the players
    best-placed first, ``wins2`` their wins doubled (draws are halves), ``met`` how often
    each pair has met, ``byes`` how many byes each has had. Keys are (higher-placed, lower)
    and, with an odd field, (player, ``BYE``)."""
    n = len(order)
    group_pos: list[int] = []
    group_size: list[int] = []
    start = 0
    for i in range(n + 1):
        if i == n or wins2[order[i]] != wins2[order[start]]:
            group_pos += range(i - start)
            group_size += [i - start] * (i - start)
            start = i
    costs: dict[tuple[int, int], Cost] = {}
    for i, a in enumerate(order):
        wa, pa, ga = wins2[a], group_pos[i], group_size[i]
        for j in range(i + 1, n):
            b = order[j]
            d = wins2[b] - wa
            if d == 0:
                dutch = abs(group_pos[j] - pa - ga // 2)
            else:
                dutch = (ga - 1 - pa) + group_pos[j]
            costs[a, b] = (0, met.get(frozenset((a, b)), 0), 0, d * d, dutch)
        if n % 2:
            costs[a, BYE] = (byes.get(a, 0), 0, n - 1 - i, 0, 0)
    return costs


def weights(costs: Mapping[tuple[int, int], Cost], pairs: int) -> dict[tuple[int, int], int]:
    """Integer weights whose maximum-weight perfect matching has the least cost, level by
    level: each level's unit outweighs the most all lower levels can add up to over
    ``pairs`` edges."""
    top = [max(level) for level in zip(*costs.values())]
    scale = [1] * len(top)
    for k in range(len(top) - 2, -1, -1):
        scale[k] = 1 + pairs * top[k + 1] * scale[k + 1] + scale[k + 1] - 1
    ceiling = 1 + sum(m * s for m, s in zip(top, scale))
    s0, s1, s2, s3, s4 = scale
    return {edge: ceiling - (c0 * s0 + c1 * s1 + c2 * s2 + c3 * s3 + c4 * s4)
            for edge, (c0, c1, c2, c3, c4) in costs.items()}


def swiss(order: Sequence[int], wins2: Mapping[int, int], met: Mapping[frozenset[int], int],
          byes: Mapping[int, int]) -> tuple[list[tuple[int, int]], int | None]:
    """The Swiss pairs (higher-placed first) and the bye, by the least-cost matching."""
    if len(order) < 2:
        return [], (order[0] if order else None)
    costs = swiss_costs(order, wins2, met, byes)
    weight = weights(costs, (len(order) + 1) // 2)
    graph = rx.PyGraph()
    nodes = [*order, BYE] if len(order) % 2 else list(order)
    index = {p: graph.add_node(p) for p in nodes}
    graph.add_edges_from([(index[a], index[b], w) for (a, b), w in weight.items()])
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    place = {p: i for i, p in enumerate(order)}
    pairs, bye = [], None
    for u, v in matched:
        a, b = sorted((nodes[u], nodes[v]), key=lambda p: place.get(p, len(order)))
        if b == BYE:
            bye = a
        else:
            pairs.append((a, b))
    return pairs, bye


# --- King of the Hill and Gibson ----------------------------------------------------------------

def lowest_without_bye(order: Sequence[int], byes: Mapping[int, int]) -> int:
    """Who gets the bye in a King of the Hill round."""
    return next((p for p in reversed(order) if not byes.get(p)), order[-1])


def king(order: Sequence[int]) -> list[tuple[int, int]]:
    """1st v 2nd, 3rd v 4th … (an even field)."""
    return [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]


def sure_above(a: Standing, b: Standing, remaining: int, max_spread: int,
               spread_first: bool) -> bool:
    """Whether ``a`` finishes above ``b`` however the ``remaining`` rounds go."""
    margin = a.wins - b.wins - remaining
    return margin > 0 or (margin == 0 and spread_first
                          and a.spread - b.spread > 2 * remaining * max_spread)


def gibson_opponent(table: Sequence[Standing], candidates: Sequence[int], remaining: int,
                    max_spread: int, prizes: int, spread_first: bool,
                    met: Mapping[frozenset[int], int]) -> int | None:
    """The leader's opponent under the Gibson rule, or None if first place is not decided.

    ``table``: the standings (everyone); ``candidates``: the players still to pair in rank
    order, the leader first."""
    leader, rows = table[0], {s.player.number: s for s in table}
    if not candidates or candidates[0] != leader.player.number or len(candidates) < 2:
        return None
    if not all(sure_above(leader, s, remaining, max_spread, spread_first) for s in table[1:]):
        return None
    out = [p for p in candidates[1:]
           if sum(sure_above(q, rows[p], remaining, max_spread, spread_first)
                  for q in table if q is not rows[p]) >= prizes]
    fresh = [p for p in out if not met.get(frozenset((leader.player.number, p)))]
    return (fresh or out or [candidates[-1]])[0]


# --- who starts ------------------------------------------------------------------------------

def first_player(a: int, b: int, table: int, history: Mapping[int, Sequence[bool]]) -> int:
    """Who starts between ``a`` (the higher-placed) and ``b`` (art. 4.2: the module's
    rule)."""
    ha, hb = history.get(a, ()), history.get(b, ())
    balance_a = 2 * sum(ha) - len(ha)
    balance_b = 2 * sum(hb) - len(hb)
    if balance_a != balance_b:
        return a if balance_a < balance_b else b
    for x, y in zip(reversed(ha), reversed(hb)):
        if x != y:
            return b if x else a
    return a if table % 2 else b


# --- a round ---------------------------------------------------------------------------------

def pair(t: Tournament, system: str | None = None, *, fixed: Sequence[tuple[int, int]] = (),
         bye: int | None = None, rounds: int | None = None, prizes: int | None = None,
         max_spread: int | None = None) -> Round:
    """The next round (not added to ``t``): by ``system`` (the settings' plan if None), with
    the director's ``fixed`` pairs and ``bye`` kept as given. ``rounds``, ``prizes`` and
    ``max_spread`` override the settings for the Gibson check; without a planned number of
    rounds, the round being paired is taken as the last."""
    number = t.next_round
    for rnd in t.rounds:
        for g in rnd.games:
            if not g.done:
                a, b = (t.player(p).name for p in g.players)
                raise TournamentError(_("falta el resultado de la ronda {round}, mesa {table}: "
                                        "{a} – {b}").format(round=rnd.number, table=g.table,
                                                            a=a, b=b))
    system = system or t.settings.system_for(number)
    if system not in SYSTEMS:
        raise TournamentError(_("sistema «{name}» desconocido; los hay: {known}").format(
            name=system, known=", ".join(SYSTEMS)))
    active = {p.number for p in t.active(number)}
    if not active:
        raise TournamentError(_("no hay jugadores que emparejar en la ronda {round}").format(
            round=number))
    if system == "todos":
        if fixed or bye is not None:
            raise TournamentError(_("un todos contra todos sigue su tabla: sin emparejamientos "
                                    "manuales"))
        return round_robin(t, number)
    chosen = [p for pair_ in fixed for p in pair_] + ([bye] if bye is not None else [])
    for p in chosen:
        if p not in active:
            raise TournamentError(_("«{name}» no juega la ronda {round}").format(
                name=t.player(p).name, round=number))
    twice = [p for p, k in Counter(chosen).items() if k > 1]
    if twice:
        raise TournamentError(_("{name} aparece dos veces en los emparejamientos manuales")
                              .format(name=t.player(twice[0]).name))

    table = standings(t)
    order = [s.player.number for s in table if s.player.number in active]
    if number == 1 and t.settings.first_round == "random":
        random.Random(f"{t.settings.seed}:sorteo").shuffle(order)
    rest = [p for p in order if p not in chosen]
    met, byes_had = t.met(), t.byes_had()
    wins2 = {s.player.number: round(2 * s.wins) for s in table}
    pairs, given = list(fixed), [bye] if bye is not None else []
    if system == "suizo":
        found, extra = swiss(rest, wins2, met, byes_had)
        pairs += found
    else:
        extra = lowest_without_bye(rest, byes_had) if len(rest) % 2 else None
        rest = [p for p in rest if p != extra]
        if system == "gibson":
            remaining = max(1, (rounds or t.settings.rounds or number) - number + 1)
            tiebreaks = t.settings.tiebreaks
            opponent = gibson_opponent(
                table, rest, remaining,
                t.settings.max_spread if max_spread is None else max_spread,
                t.settings.prizes if prizes is None else prizes,
                bool(tiebreaks) and tiebreaks[0] == "spread", met)
            if opponent is not None:
                pairs.append((rest[0], opponent))
                rest = [p for p in rest[1:] if p != opponent]
        pairs += king(rest)
    if extra is not None:
        given.append(extra)
    return _seat(t, number, system, pairs, given, order)


def _seat(t: Tournament, number: int, system: str, pairs: list[tuple[int, int]],
          byes: list[int], order: list[int]) -> Round:
    """Number the tables by the better-placed player and decide who starts."""
    place = {p: i for i, p in enumerate(order)}
    pairs.sort(key=lambda ab: min(place[ab[0]], place[ab[1]]))
    rnd = Round(number, system)
    history = t.starts(number)
    for table, (a, b) in enumerate(pairs, 1):
        rnd.games.append(_game(t, number, table, a, b, place, history))
    for p in byes:
        rnd.byes[p] = t.settings.bye_spread
    return rnd


def _game(t: Tournament, number: int, table: int, a: int, b: int, place: Mapping[int, int],
          history: Mapping[int, Sequence[bool]]) -> Game:
    """A Swiss-family game at ``table``, the player who starts named first."""
    a, b = sorted((a, b), key=place.__getitem__)
    if t.settings.draw_starts:
        first = _drawn(t, number, table, a, b)
    else:
        first = first_player(a, b, table, history)
    return Game(table, (first, b if first == a else a), starts=first)


def _drawn(t: Tournament, number: int, table: int, a: int, b: int) -> int:
    """Who starts by draw (art. 4.4), seeded by the event, the round and the table."""
    return a if random.Random(f"{t.settings.seed}:{number}:{table}").random() < 0.5 else b


def swap(t: Tournament, number: int, a: int, b: int) -> None:
    """The director's change (``Tournament.swap``): ``a`` and ``b`` meet in round
    ``number``, their former opponents meet each other; who starts in the new games by the
    Swiss rule (or drawn for, with ``draw_starts``), as no table says it any more."""
    new = t.swap(number, t.player(a), t.player(b))
    place = {s.player.number: i for i, s in enumerate(standings(t, number - 1))}
    history = t.starts(number)
    for game in new:
        seated = _game(t, number, game.table, *game.players, place, history)
        game.players, game.starts = seated.players, seated.starts
