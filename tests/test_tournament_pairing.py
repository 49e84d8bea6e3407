"""Pairing properties over random fields and whole random events (hypothesis): the Swiss
matching is optimal for the documented costs (``pairing.swiss_costs``) against a brute force
over every perfect matching; in every round each active player is paired once; no one gets
a second bye while someone has had none; a Swiss round repeats a pairing only when every
pairing of the field would (or would give someone a second bye)."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from atril.tournament import Settings, Tournament, pair
from atril.tournament.pairing import BYE, swiss, swiss_costs


def matchings(nodes: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of ``nodes``, each edge in the order the nodes are listed."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for i, other in enumerate(rest):
        for m in matchings(rest[:i] + rest[i + 1:]):
            yield [(first, other), *m]


def total(costs, edges) -> tuple[int, ...]:
    return tuple(map(sum, zip(*(costs[e] for e in edges))))


@st.composite
def fields(draw):
    """A field to pair: players 1..n best-placed first, their wins (doubled: draws are
    halves) in standings order, who has met whom how often, who has had byes."""
    n = draw(st.integers(1, 10))
    order = list(range(1, n + 1))
    wins2 = dict(zip(order, sorted(draw(st.lists(st.integers(0, 10), min_size=n, max_size=n)),
                                   reverse=True)))
    pairs = [frozenset((a, b)) for a in order for b in order if a < b]
    met = draw(st.dictionaries(st.sampled_from(pairs), st.integers(1, 2))) if pairs else {}
    byes = draw(st.dictionaries(st.sampled_from(order), st.integers(1, 2)))
    return order, wins2, met, byes


@settings(max_examples=300, deadline=None)
@given(fields())
def test_the_swiss_matching_is_optimal_for_the_documented_costs(field):
    order, wins2, met, byes = field
    pairs, bye = swiss(order, wins2, met, byes)
    seated = [p for ab in pairs for p in ab] + ([bye] if bye is not None else [])
    assert sorted(seated) == order  # each player once
    assert (bye is not None) == (len(order) % 2 == 1)
    if len(order) < 2:
        return
    costs = swiss_costs(order, wins2, met, byes)
    chosen = list(pairs) + ([(bye, BYE)] if bye is not None else [])
    nodes = order + ([BYE] if len(order) % 2 else [])
    best = min(total(costs, m) for m in matchings(nodes))
    assert total(costs, chosen) == best


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_random_events_pair_everyone_once_with_fair_byes_and_no_avoidable_repeat(data):
    n = data.draw(st.integers(2, 10), label="players")
    rounds = data.draw(st.integers(1, n), label="rounds")
    t = Tournament("azar", Settings(rounds=rounds, king_rounds=data.draw(st.integers(0, 3)),
                                    first_round=data.draw(st.sampled_from(["rating", "random"])),
                                    seed=data.draw(st.integers(0, 9))))
    for k in range(n):
        t.add_player(f"J{k + 1}", data.draw(st.none() | st.integers(1200, 2200)))
    for number in range(1, rounds + 1):
        active = [p.number for p in t.active(number)]
        if len(active) > 3 and data.draw(st.booleans(), label="withdraw"):
            t.withdraw(t.player(data.draw(st.sampled_from(active))))
        if data.draw(st.integers(0, 4), label="late") == 0:
            t.add_player(f"Tarde {number}")
        system = data.draw(st.sampled_from([None, "suizo", "rey", "gibson"]), label="system")
        met, byes_had = t.met(), t.byes_had()
        rnd = pair(t, system)
        active = sorted(p.number for p in t.active(number))
        assert sorted(rnd.paired()) == active  # each active player once
        assert len(rnd.byes) == len(active) % 2
        for p in rnd.byes:
            if byes_had[p]:
                assert all(byes_had[q] for q in active)
        if rnd.system == "suizo" and any(met[frozenset(g.players)] for g in rnd.games):
            nodes = active + ([BYE] if len(active) % 2 else [])
            for m in matchings(nodes):  # every other pairing repeats too, or a bye
                assert any(byes_had[a] if b == BYE else met[frozenset((a, b))] for a, b in m)
        t.add_round(rnd)
        for g in rnd.games:
            if data.draw(st.integers(0, 9), label="forfeit") == 0:
                t.forfeit(number, t.player(g.players[0]))
            else:
                g.scores = (data.draw(st.integers(200, 600)), data.draw(st.integers(200, 600)))
