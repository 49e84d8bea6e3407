"""Tournaments (issue 14): every tie-break by hand, the Berger tables, King of the Hill, the
Gibson rule, byes, who starts, withdrawals, late entries, forfeits, manual changes, the JSON
file, TSH files and ratings. Property tests over random fields and events:
``tests/test_tournament_pairing.py``; the command line: ``tests/test_cli_tournament.py``."""

from __future__ import annotations

import doctest
import re

import pytest

import atril.tournament
from atril import rating
from atril.tournament import Round, Settings, Tournament, TournamentError, pair, standings, tsh
from atril.tournament.model import Game
from atril.tournament.pairing import berger, first_player
from atril.tournament.ratings import apply_list, changes, read_list, write_list


def event(names: str, played: list[list[tuple]], **settings) -> Tournament:
    """A tournament from hand-written rounds: ``(a, b, score_a, score_b)`` a game (``a``
    starts), ``("bye", p, spread)`` a bye or an absence."""
    t = Tournament("prueba", Settings(**settings))
    for name in names.split():
        t.add_player(name)
    for k, items in enumerate(played, 1):
        rnd = Round(k, "manual")
        for item in items:
            if item[0] == "bye":
                rnd.byes[t.find(item[1]).number] = item[2]
            else:
                a, b, sa, sb = item
                rnd.games.append(Game(len(rnd.games) + 1, (t.find(a).number, t.find(b).number),
                                      t.find(a).number, (sa, sb)))
        t.add_round(rnd)
    return t


def row(t: Tournament, name: str, **kwargs):
    return next(s for s in standings(t, **kwargs) if s.player.name == name)


def names(t: Tournament, rnd: Round) -> list[list[str]]:
    return [[t.player(p).name for p in g.players] for g in rnd.games]


def test_the_package_docstring_runs():
    assert doctest.testmod(atril.tournament).failed == 0


# --- the tie-breaks, by hand ---------------------------------------------------------------------

def test_buchholz_28_and_median_19():
    """Opponents finishing with 7, 6, 5, 5, 3, 2 wins (each beat X; their other wins are
    byes): Buchholz 28, median Buchholz 6 + 5 + 5 + 3 = 19."""
    targets = {"A": 7, "B": 6, "C": 5, "D": 5, "E": 3, "F": 2}
    rounds: list[list[tuple]] = [[] for _ in range(8)]
    for k, (name, wins) in enumerate(targets.items()):
        rounds[k].append((name, "X", 400, 300))
        others = [r for r in range(8) if r != k]
        for i, r in enumerate(others):
            rounds[r].append(("bye", name, 50 if i < wins - 1 else -50))
    t = event("X A B C D E F", rounds)
    assert {s.player.name: s.wins for s in standings(t)} == {"X": 0, **targets}
    x = row(t, "X")
    assert (x.buchholz, x.median_buchholz, x.sonneborn_berger) == (28, 19, 0)
    assert (x.wins, x.losses, x.spread) == (0, 6, -600)


def test_sonneborn_berger_6_plus_2_plus_0():
    """Beat a 6, drew a 4, lost to a 5: 6 + 2 + 0 = 8."""
    t = event("Y A B C D", [
        [("Y", "A", 400, 300), ("bye", "B", 50), ("bye", "C", 50)],
        [("Y", "B", 350, 350), ("bye", "A", 50), ("bye", "C", 50)],
        [("C", "Y", 420, 380), ("bye", "A", 50), ("bye", "B", 50)],
        [("B", "D", 300, 300), ("bye", "A", 50), ("bye", "C", 50)],
        [("bye", "A", 50), ("bye", "B", 50), ("bye", "C", 50)],
        [("bye", "A", 50), ("bye", "B", -50), ("bye", "C", -50)],
        [("bye", "A", 50), ("bye", "B", -50), ("bye", "C", -50)],
        [("bye", "A", -50), ("bye", "B", -50), ("bye", "C", -50)],
    ])
    wins = {s.player.name: s.wins for s in standings(t)}
    assert (wins["A"], wins["B"], wins["C"]) == (6, 4, 5)
    y = row(t, "Y")
    assert y.sonneborn_berger == 8 and y.buchholz == 15 and y.median_buchholz == 5
    assert (y.wins, y.losses) == (1.5, 1.5)


def three_rounds_with_byes() -> Tournament:
    return event("P Q R S T", [
        [("P", "Q", 400, 300), ("R", "S", 400, 300), ("bye", "T", 50)],
        [("P", "R", 400, 300), ("T", "Q", 400, 300), ("bye", "S", 50)],
        [("P", "T", 300, 400), ("R", "S", 400, 300), ("bye", "Q", 50)],
    ])


def test_a_bye_is_a_virtual_opponent_in_the_sums():
    """T's bye in round 1 of 3 (no wins before it): a virtual opponent with 0 + 0 + 2 × ½ = 1;
    Q's bye in round 3 after two losses: 0 + 0 + 0 = 0."""
    t = three_rounds_with_byes()
    tt = row(t, "T")
    assert (tt.wins, tt.spread, tt.buchholz, tt.median_buchholz, tt.sonneborn_berger) == (
        3, 250, 1 + 1 + 2, 1, 1 + 1 + 2)
    q = row(t, "Q")
    assert (q.wins, q.spread, q.buchholz, q.median_buchholz, q.sonneborn_berger) == (
        1, -150, 2 + 3 + 0, 2, 0)
    s = row(t, "S")  # bye in round 2 after a loss: 0 + 0 + ½
    assert (s.buchholz, s.median_buchholz, s.sonneborn_berger) == (2 + 0.5 + 2, 2, 0.5)
    # P and R on 2 wins: median 2 against 1; Q and S on 1 win and median 2: SB 0.5 against 0
    assert [r.player.name for r in standings(t)] == ["T", "P", "R", "S", "Q"]
    assert [r.rank for r in standings(t)] == [1, 2, 3, 4, 5]


def test_the_tie_break_order_is_the_directors():
    t = three_rounds_with_byes()
    assert [r.player.name for r in standings(t, tiebreaks=("buchholz",))] == [
        "T", "P", "R", "Q", "S"]  # Q's Buchholz 5 beats S's 4.5
    by_points = standings(t, tiebreaks=("points",))  # equal on everything: a shared rank
    assert [(r.rank, r.player.name, r.points) for r in by_points] == [
        (1, "T", 800), (2, "P", 1100), (2, "R", 1100), (4, "Q", 600), (4, "S", 600)]


def test_standings_after_a_given_round_and_a_round_just_paired():
    t = three_rounds_with_byes()
    assert row(t, "T", through=1).wins == 1 and row(t, "P", through=2).wins == 2
    t.add_round(pair(t, "rey"))  # paired, no result yet: its bye does not count yet
    assert {s.player.name: s.wins for s in standings(t)} == {
        s.player.name: s.wins for s in standings(t, through=3)}


def test_forfeits_and_absences():
    t = event("A B C D", [[("A", "B", 0, 0), ("C", "D", 0, 0)]], bye_spread=75)
    t.forfeit(1, t.find("B"))
    t.forfeit(1, t.find("C"))
    t.forfeit(1, t.find("D"))  # both absent: both lose
    table = {s.player.name: (s.wins, s.spread, s.points) for s in standings(t)}
    assert table == {"A": (1, 75, 0), "B": (0, -75, 0), "C": (0, -75, 0), "D": (0, -75, 0)}
    assert row(t, "A").buchholz == 0  # an unplayed win: a virtual opponent on 0
    t.record(1, t.find("D"), 400, t.find("C"), 390)  # a correction: it was played after all
    assert row(t, "D").wins == 1 and row(t, "D").spread == 10


# --- round robin ---------------------------------------------------------------------------------

def test_berger_tables_for_4_5_and_6():
    assert berger(4) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    assert berger(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]
    bye = 0  # with 5 players the sixth seat is the bye
    assert berger(5) == [
        [(1, bye), (2, 5), (3, 4)],
        [(bye, 4), (5, 3), (1, 2)],
        [(2, bye), (3, 1), (4, 5)],
        [(bye, 5), (1, 4), (2, 3)],
        [(3, bye), (4, 2), (5, 1)],
    ]


def test_a_five_player_round_robin_with_its_byes():
    """Art. 4.1: the first-named starts; everyone meets everyone once and rests once."""
    t = Tournament("rr", Settings(system="todos"))
    for name in "Ana Luis Eva Juan Pedro".split():
        t.add_player(name)
    rounds = []
    for _ in range(5):
        rnd = pair(t)
        t.add_round(rnd)
        for g in rnd.games:
            assert g.starts == g.players[0]
            g.scores = (400, 300)
        rounds.append(rnd)
    assert names(t, rounds[0]) == [["Luis", "Pedro"], ["Eva", "Juan"]]
    assert [t.player(p).name for r in rounds for p in r.byes] == [
        "Ana", "Juan", "Luis", "Pedro", "Eva"]
    assert all(k == 1 for k in t.met().values()) and len(t.met()) == 10
    assert [g.table for g in rounds[1].games] == [1, 2]


def test_a_second_cycle_swaps_the_starts_and_withdrawn_opponents_leave_a_player_out():
    t = Tournament("rr", Settings(system="todos"))
    for name in "A B C D".split():
        t.add_player(name)
    for _ in range(3):
        t.add_round(pair(t))
        for g in t.rounds[-1].games:
            g.scores = (1, 0)
    fourth = pair(t)
    assert names(t, fourth) == [["D", "A"], ["C", "B"]]  # round 1 again, the other way round
    t.withdraw(t.find("D"))
    fourth = pair(t)
    assert names(t, fourth) == [["C", "B"]] and not fourth.byes  # A's opponent is gone
    assert [g.table for g in fourth.games] == [1]


# --- Swiss, King of the Hill, Gibson, byes ----------------------------------------------------

def wins_by_byes(wins: dict[str, int], spreads: dict[str, int] | None = None,
                 **settings) -> Tournament:
    """Players whose wins come from byes (so no one has met)."""
    spreads = spreads or {}
    rounds = max(wins.values()) + 1
    t = event(" ".join(wins), [[("bye", n, spreads.get(n, 50) if r < w else -50)
                                 for n, w in wins.items()] for r in range(rounds)], **settings)
    for p in t.players:  # the byes above only build standings; bye counts stay fair
        p.rating = 2000 - p.number
    return t


def test_king_of_the_hill_1v2_3v4_repeats_allowed_bye_to_the_lowest_without_one():
    """Standings T, P, R, S, Q; Q, S and T have had byes, so R rests; then T v P (they met
    in round 3: King of the Hill repeats) and S v Q. T starts (0 starts net against P's 3);
    S and Q have the same history: on an even table the lower-placed, Q."""
    t = three_rounds_with_byes()
    rnd = pair(t, "rey")
    assert {t.player(p).name: s for p, s in rnd.byes.items()} == {"R": 50}
    assert names(t, rnd) == [["T", "P"], ["Q", "S"]]
    assert t.met()[frozenset(rnd.games[0].players)] == 1


def test_gibson_the_leader_meets_the_best_placed_player_out_of_the_prizes():
    """6 of 7 rounds played (remaining: 1). L 6 wins, A 4, B 3, C 3, D 1, E 1. With 3
    prizes D and E are out (L, A, B and C are sure to finish above them; B only has L sure
    above): L meets D; then King of the Hill: A v B, C v E."""
    t = wins_by_byes({"L": 6, "A": 4, "B": 3, "C": 3, "D": 1, "E": 1}, rounds=8, prizes=3)
    rnd = pair(t, "gibson")
    assert sorted(map(sorted, names(t, rnd))) == [["A", "B"], ["C", "E"], ["D", "L"]]
    assert {t.player(p).name for p in rnd.games[0].players} == {"L", "D"}  # table 1
    last, leader, d = t.rounds[-1], t.find("L").number, t.find("D").number
    del last.byes[leader], last.byes[d]  # both lost that round: make it a double forfeit
    last.games.append(Game(1, (leader, d), forfeits=(leader, d)))
    assert [(s.player.name, s.wins) for s in standings(t)][:1] == [("L", 6)]
    rnd = pair(t, "gibson")  # L has met D: the next one out of the prizes, E
    assert {t.player(p).name for p in rnd.games[0].players} == {"L", "E"}


def test_gibson_waits_while_first_place_is_open():
    t = wins_by_byes({"L": 6, "A": 4, "B": 3, "C": 3, "D": 1, "E": 1}, rounds=9, prizes=3)
    rnd = pair(t, "gibson")  # two rounds left: A could still catch L (6 v 4 + 2)
    assert sorted(map(sorted, names(t, rnd))) == [["A", "L"], ["B", "C"], ["D", "E"]]


def test_gibson_with_no_one_out_of_the_prizes_takes_the_lowest_placed():
    t = wins_by_byes({"L": 6, "A": 4, "B": 3, "C": 3, "D": 1, "E": 1}, rounds=8, prizes=5)
    rnd = pair(t, "gibson")
    assert {t.player(p).name for p in rnd.games[0].players} == {"L", "E"}


def test_gibson_on_spread_needs_spread_first_and_a_margin_over_the_maximum():
    """L 5 wins and A 4 with one round left tie at best; L's spread is 350 ahead. With the
    maximum spread per game at 100 (A could gain 200 on L) first place is decided, if spread
    breaks ties, and with no one out of the 3 prizes L meets the lowest-placed, E; at 250 it
    is not decided."""
    wins = {"L": 5, "A": 4, "B": 2, "C": 2, "D": 1, "E": 1}
    spreads = {"L": 100, "A": 50}
    t = wins_by_byes(wins, spreads, rounds=7, tiebreaks=("spread", "median_buchholz"))
    assert standings(t)[0].spread - standings(t)[1].spread == 350
    assert {t.player(p).name for p in pair(t, "gibson", max_spread=100).games[0].players} == {
        "L", "E"}
    assert {t.player(p).name for p in pair(t, "gibson", max_spread=250).games[0].players} == {
        "L", "A"}
    t.settings.tiebreaks = ("median_buchholz", "spread")
    assert {t.player(p).name for p in pair(t, "gibson", max_spread=100).games[0].players} == {
        "L", "A"}


def test_swiss_first_round_by_rating_or_drawn():
    t = Tournament("s", Settings(rounds=5))
    for k in range(8):
        t.add_player(f"J{k + 1}", 2000 - 10 * k)
    rnd = pair(t)
    # one score group of 8: the top half meets the bottom half, 1 v 5, 2 v 6 …
    assert [sorted(g.players) for g in rnd.games] == [[1, 5], [2, 6], [3, 7], [4, 8]]
    t.settings.first_round = "random"
    drawn = pair(t)
    assert [sorted(g.players) for g in drawn.games] != [[1, 5], [2, 6], [3, 7], [4, 8]]
    assert pair(t).games == drawn.games  # seeded


def test_a_bye_is_a_win_by_the_bye_spread_and_goes_to_the_lowest_placed():
    t = Tournament("s", Settings(bye_spread=30))
    for k in range(5):
        t.add_player(f"J{k + 1}", 2000 - 10 * k)
    rnd = pair(t)
    assert rnd.byes == {5: 30}
    t.add_round(rnd)
    for g in rnd.games:
        g.scores = (400, 300)
    assert row(t, "J5").wins == 1 and row(t, "J5").spread == 30
    assert 5 not in pair(t).byes  # a second bye only when everyone has had one
    with pytest.raises(TournamentError):
        Settings(bye_spread=0)


def test_the_plan_swiss_then_king_of_the_hill_with_gibson():
    s = Settings(rounds=8, king_rounds=2)
    assert [s.system_for(r) for r in range(1, 9)] == ["suizo"] * 6 + ["gibson"] * 2
    assert Settings(system="todos", rounds=3).system_for(3) == "todos"


# --- who starts --------------------------------------------------------------------------------

def test_who_starts_balances_starts_and_replies():
    S, R = True, False
    assert first_player(1, 2, 1, {1: [S, S, R], 2: [S, R]}) == 2  # +1 against 0
    assert first_player(1, 2, 1, {1: [S, R], 2: [R, S]}) == 1  # 1 replied last time
    assert first_player(1, 2, 1, {1: [R, S], 2: [S, R]}) == 2
    assert first_player(1, 2, 1, {1: [S, R], 2: [S, R]}) == 1  # the same: odd table, higher
    assert first_player(1, 2, 2, {1: [S, R], 2: [S, R]}) == 2  # even table, lower
    assert first_player(1, 2, 3, {}) == 1


def test_team_events_draw_who_starts():
    """Art. 4.4: the same pairs, the first player drawn for (seeded)."""
    t = Tournament("equipos", Settings(seed=3))
    for k in range(20):
        t.add_player(f"J{k}")
    plain = pair(t)
    t.settings.draw_starts = True
    drawn = pair(t)
    assert [set(g.players) for g in drawn.games] == [set(g.players) for g in plain.games]
    assert [g.starts for g in drawn.games] != [g.starts for g in plain.games]
    assert [g.starts for g in pair(t).games] == [g.starts for g in drawn.games]
    assert all(g.starts == g.players[0] for g in drawn.games)  # the starter is named first


# --- the director's changes ---------------------------------------------------------------------

def test_withdrawals_late_entries_manual_pairs_and_changes():
    t = Tournament("t", Settings(rounds=4))
    for name in "Ana Luis Eva Juan Pedro Rosa".split():
        t.add_player(name)
    first = pair(t, fixed=[(t.find("ana").number, t.find("rosa").number)])
    assert {1, 6} in [set(g.players) for g in first.games]
    t.add_round(first)
    t.swap(1, t.find("Luis"), t.find("Eva"))  # and their opponents meet each other
    tables = [set(g.players) for g in t.rounds[0].games]
    assert {2, 3} in tables and {1, 6} in tables and {4, 5} in tables
    assert [g.table for g in t.rounds[0].games] == [1, 2, 3]
    for g in t.rounds[0].games:
        g.scores = (400, 300)
    t.withdraw(t.find("Pedro"))
    t.withdraw(t.find("Rosa"))
    late = t.add_player("Nuria", 1900)
    assert late.joined == 2
    second = pair(t, bye=t.find("Juan").number)
    playing = {p for g in second.games for p in g.players}
    assert {t.find("Pedro").number, t.find("Rosa").number}.isdisjoint(playing)
    assert late.number in playing
    assert second.byes == {t.find("Juan").number: 50}
    t.add_round(second)
    t.unpair_last()
    assert t.next_round == 2
    with pytest.raises(TournamentError, match="ya se retiró"):
        t.withdraw(t.find("Pedro"))
    with pytest.raises(TournamentError, match="ya hay un jugador"):
        t.add_player("ana")


def test_errors_name_what_is_wrong():
    t = Tournament("t")
    for name in "Ana Luis Eva".split():
        t.add_player(name)
    with pytest.raises(TournamentError, match="no hay ningún jugador «Nadie»"):
        t.find("Nadie")
    with pytest.raises(TournamentError, match="la ronda 1 no está emparejada"):
        t.record(1, t.find("Ana"), 1, t.find("Luis"), 0)
    t.add_round(pair(t))
    game = t.rounds[0].games[0]
    a, b = (t.player(p) for p in game.players)
    rester = t.player(next(iter(t.rounds[0].byes)))
    with pytest.raises(TournamentError, match=f"{rester.name} descansa"):
        t.record(1, rester, 1, a, 0)
    with pytest.raises(TournamentError, match="falta el resultado de la ronda 1, mesa 1"):
        pair(t)
    with pytest.raises(TournamentError, match="aparece dos veces"):
        t.rounds[0].games[0].scores = (1, 0)
        pair(t, fixed=[(a.number, b.number), (a.number, rester.number)])
    with pytest.raises(TournamentError, match="sin emparejamientos manuales"):
        pair(t, "todos", fixed=[(a.number, b.number)])
    with pytest.raises(TournamentError, match="ya tiene resultados"):
        t.unpair_last()


def test_the_file_round_trips(tmp_path):
    t = three_rounds_with_byes()
    t.players[0].rating = 1900
    t.withdraw(t.players[1])
    t.rounds[0].games[0].forfeits = (1,)
    path = tmp_path / "torneo.json"
    t.save(path)
    again = Tournament.load(path)
    assert again == t
    path.write_text('{"format": "atril-tournament", "name": 1}', encoding="utf-8")
    with pytest.raises(TournamentError, match="fichero de torneo no válido"):
        Tournament.load(path)
    data = t.to_dict()
    data["players"][0]["rating"] = "mucho"
    with pytest.raises(TournamentError, match="«rating» no puede ser \"mucho\""):
        Tournament.from_dict(data)
    data = t.to_dict()
    data["rounds"][0]["games"][0]["starts"] = 5
    with pytest.raises(TournamentError, match="ronda 1, mesa 1: quien sale"):
        Tournament.from_dict(data)
    path.write_text("{", encoding="utf-8")
    with pytest.raises(TournamentError, match="línea 1, columna 2: JSON no válido"):
        Tournament.load(path)


# --- TSH ---------------------------------------------------------------------------------------

SMALL_T = """\
# four players, three rounds
Ana Pérez      1900  4 2 3; 400 380 420 ; p12 1 2 1
Luis Gómez     1800  3 1 4; 350 390 300 ; p12 1 1 2
Eva Ruiz       1750  2 4 1; 360 410 400 ; p12 2 1 2
Juan Soler        0  1 3 2; 300 370 310 ; p12 2 2 1
"""


def test_a_t_file_reads_and_round_trips():
    t = tsh.loads(SMALL_T)
    assert [(p.name, p.rating) for p in t.players] == [
        ("Ana Pérez", 1900), ("Luis Gómez", 1800), ("Eva Ruiz", 1750), ("Juan Soler", None)]
    first = t.rounds[0].games
    assert [(g.players, g.starts, g.scores) for g in first] == [
        ((1, 4), 1, (400, 300)), ((2, 3), 2, (350, 360))]
    assert t.starts()[1] == [True, False, True]
    again = tsh.loads(tsh.dumps(t))
    assert [(r.games, r.byes) for r in again.rounds] == [(r.games, r.byes) for r in t.rounds]
    assert tsh.dumps(again) == tsh.dumps(t)


def test_t_byes_absences_and_rounds_sat_out():
    t = tsh.loads("A 0 2 0 0; 300 50 0\nB 0 1 0; 250 -50\n")
    assert t.rounds[1].byes == {1: 50, 2: -50} and t.rounds[2].byes == {}
    assert {s.player.name: s.wins for s in standings(t)} == {"A": 2, "B": 0}
    assert tsh.loads(tsh.dumps(t)).rounds == t.rounds


@pytest.mark.parametrize("text, message", [
    ("Ana 1800 2 x; 300\nLuis 1700 1; 200\n", "línea 1: «x» no es un número (oponentes)"),
    ("Ana; 300\n", "línea 1: se esperaba «nombre rating oponentes; puntos»"),
    ("Ana 1800 2; 300\nLuis 1700 3; 200\nEva 1 2; 1\n",
     "línea 1: en la ronda 1 juega con el 2, pero la línea de Luis dice 3"),
    ("Ana 1800 5; 300\nLuis 1700 1; 200\n", "línea 1: ronda 1: no hay jugador número 5"),
    ("\nAna 1800 2; 300 20\nLuis 1700 1; 200\n", "línea 2: 2 puntuaciones para 1 ronda"),
    ("Ana 1800 2; 300\nLuis 1700 1;\n", "línea 2: falta la puntuación de la ronda 1"),
    ("Ana 1800 2; 3x0\nLuis 1700 1; 2\n", "línea 1: «3x0» no es un número (puntuaciones)"),
    ("# nadie\n", "no hay ningún jugador"),
])
def test_a_bad_t_line_is_named(text, message):
    with pytest.raises(TournamentError, match=re.escape(message)):
        tsh.loads(text, source="x.t")


def test_a_name_a_t_file_cannot_hold():
    t = Tournament("t")
    t.add_player("Ana 2")
    with pytest.raises(TournamentError, match="no cabe en un fichero .t"):
        tsh.dumps(t)


# --- ratings -------------------------------------------------------------------------------------

def test_rating_changes_add_up_against_the_ratings_before_the_event():
    t = event("A B C", [[("A", "B", 400, 300)], [("A", "C", 300, 300)]])
    t.players[0].rating, t.players[0].rated_games = 1800, 100  # established: K 10
    t.players[1].rating = 1800  # provisional: K 20
    by = {c.player.name: c for c in changes(t)}
    assert by["A"].change == pytest.approx(10 * 0.5 + 10 * (0.5 - 0.5))
    assert by["B"].change == pytest.approx(-20 * 0.5)
    assert by["C"].before == rating.INITIAL_RATING and by["C"].change == pytest.approx(0)
    assert (by["A"].games, by["A"].score, by["A"].expected) == (2, 1.5, 1.0)


def test_the_rating_list_imports_and_exports(tmp_path):
    t = event("Ana Luis", [[("Ana", "Luis", 400, 300)]])
    path = tmp_path / "lista.csv"
    path.write_text("name,rating,games\nAna,1900,60\nEva,1700,\n", encoding="utf-8")
    assert apply_list(t, read_list(path)) == (1, 1)
    assert [(p.name, p.rating, p.rated_games) for p in t.players] == [
        ("Ana", 1900, 60), ("Luis", None, 0), ("Eva", 1700, 0)]
    write_list(changes(t), path)
    lines = path.read_text(encoding="utf-8").splitlines()
    expected_ana = round(1900 + 10 * (1 - rating.expected(1900, 1800)))
    assert lines == ["name,rating,games", f"Ana,{expected_ana},61",
                     f"Luis,{round(1800 + 20 * (0 - rating.expected(1800, 1900)))},1",
                     "Eva,1700,0"]
    path.write_text("nombre;elo\n", encoding="utf-8")
    with pytest.raises(TournamentError, match="cabecera"):
        read_list(path)
    path.write_text("name,rating\nAna,mucho\n", encoding="utf-8")
    with pytest.raises(TournamentError, match="línea 2: «mucho» no es un número"):
        read_list(path)
