"""Simulation, win probability, the campeón level and game analysis (issue 16; docs/SIMULATION.md).

Time budgets are only checked loosely (that the clock stops a simulation); speed belongs in
bench/bench_sim.py."""

import json

import pytest
from click.testing import CliRunner

from atril import analysis, gcg, players, sim, winprob
from atril import tiles as T
from atril.bag import unseen
from atril.board import Board
from atril.cgp import loads
from atril.cli import main
from atril.game import WITHDRAWN, Game
from atril.lexicon import Lexicon
from atril.move import Move
from atril.rack import parse_rack
from atril.rules import check_play

P1 = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEIRSTN/ 0/0 0"


@pytest.fixture(scope="module")
def lex():
    return Lexicon.load()


@pytest.fixture(scope="module")
def small(lex):
    """ES09's words of up to five tiles: games and endgames are quick on it."""
    return Lexicon.from_words([T.to_human(w) for w in lex.kwg.words() if len(w) <= 5],
                              id="PEQUE")


def simulate_p1(lex, **options):
    position = loads(P1)
    return sim.simulate(position.board, position.rack, lex,
                        unseen=unseen(position.board, position.rack), bag=86, **options)


# -- simulation ---------------------------------------------------------------------------------

def test_the_scrabble_wins_the_opening(lex):  # art. 19: seven tiles, 50 points more
    result = simulate_p1(lex, n=12, seconds=None, iterations=96, seed=1)
    assert result.best.candidate.bingo and result.best.candidate.score == 66
    assert result.iterations <= 96 and not result.by_win
    assert all(o.iterations > 0 for o in result.outcomes)


def test_a_clearly_worse_candidate_is_dropped(lex):
    position = loads(P1)
    moves = sim.candidates(position.board, position.rack, lex, bag=86, n=400)
    top, poor = moves[0], moves[-1]  # a 66-point scrabble against a small play
    assert top.score - poor.score > 40
    result = sim.simulate(position.board, position.rack, lex, moves=[poor, top],
                          unseen=unseen(position.board, position.rack), bag=86, seconds=None,
                          iterations=10_000, seed=2)
    assert result.stopped == "clear" and result.iterations < 10_000
    assert result.best.candidate == top and result.outcomes[1].dropped


def test_same_seed_same_simulation(lex):
    a = simulate_p1(lex, n=6, seconds=None, iterations=40, seed="x")
    b = simulate_p1(lex, n=6, seconds=None, iterations=40, seed="x")
    c = simulate_p1(lex, n=6, seconds=None, iterations=40, seed="y")
    assert [(o.candidate, o.value, o.win) for o in a.outcomes] == \
        [(o.candidate, o.value, o.win) for o in b.outcomes]
    assert [o.value for o in a.outcomes] != [o.value for o in c.outcomes]


def test_the_clock_stops_the_simulation(lex):
    result = simulate_p1(lex, n=20, seconds=0.05, iterations=10**7, z=50.0)
    assert result.stopped == "time" and 0 < result.iterations < 10**7


def test_going_out_ends_the_playout():  # art. 45.4: the rack left is gained and lost
    board = Board("15/15/15/15/15/15/15/3CASA8/15/15/15/15/15/15/15")
    lexicon = Lexicon.from_words(["casa", "casas", "es"])
    rack = parse_rack("S")
    left = unseen(board, rack)
    # the opponent holds exactly one E: the rest of the unseen tiles stay out of the game
    opp = [0] * T.ALPHABET_SIZE
    opp[T.tokenize_machine("E")[0]] = 1
    moves = sim.candidates(board, rack, lexicon, bag=0)
    out = next(c for c in moves if c.move.is_play and c.score == 14)
    runner = sim._Runner(board, rack, lexicon, opp, 0, [sim.Outcome(out, out.equity)], 2,
                         sim_table(), 1, 7)
    [(_, rows)] = runner.run([True], 0, 3)
    for spread, leave, _unseen, flags in rows:
        assert spread == 14 + 2 * T.VALUES[T.tokenize_machine("E")[0]]
        assert leave == 0 and int(flags) & sim.FLAG_OVER
    assert sum(left) > 1


def sim_table():
    from atril import leaves
    return leaves.load()


def test_near_the_end_it_chooses_by_win_probability(lex):
    game = Game(["a", "b"], seed=11, lexicon=lex)
    equity = players.get("equity", lexicon=lex)
    while len(game.bag) > sim.WIN_BAG:
        game.play(equity.choose(game))
        if game.pending is not None:
            game.accept()
    result = sim.simulate_game(game, seconds=None, iterations=40, seed=3)
    assert result.by_win
    assert all(0 <= o.win <= 1 for o in result.outcomes)


# -- win probability ----------------------------------------------------------------------------

def test_win_probability_is_monotone_and_in_range():
    for u in (1, 3, 7, 15, 40, 70, 93, 120):
        ps = [winprob.probability(s, u) for s in range(-200, 201, 5)]
        assert all(0 <= p <= 1 for p in ps)
        assert all(a <= b for a, b in zip(ps, ps[1:]))
        assert ps[0] < 0.1 and ps[-1] > 0.9
    assert 0.5 < winprob.probability(0, 93) < 0.6  # the first move is worth a little


def test_win_probability_of_the_player_not_on_move():
    for s, u in ((10, 30), (-25, 7), (0, 60)):
        assert winprob.probability(s, u, to_move=False) == pytest.approx(
            1 - winprob.probability(-s, u))
    assert (winprob.final(3), winprob.final(0), winprob.final(-1)) == (1.0, 0.5, 0.0)
    assert winprob.probability(5, 0) == 1.0  # nothing unseen: the game is decided


# -- the campeón level --------------------------------------------------------------------------

def test_campeon_is_a_level():
    assert "campeon" in players.LEVELS and players.LEVELS["campeon"].simulate
    engine = players.get("campeon", seconds=0.3)
    assert isinstance(engine, players.Champion) and engine.seconds == 0.3
    assert players.get("campeon").seconds == players.DEFAULT_SECONDS


def test_campeon_plays_a_whole_game_legally(small):  # art. 6, 8, 12, 45
    champion = players.get("campeon", lexicon=small, seed=1, seconds=0.02)
    seen = []

    def check(game):
        turn = game.history[-1]
        seen.append(turn)
        assert turn.kind != WITHDRAWN  # equity challenges every invalid play: none were

    game = players.play_game([champion, players.get("equity", lexicon=small)], seed=5,
                             lexicon=small, on_turn=check)
    assert game.is_over() and seen
    board = Board()
    for turn in game.history:
        if turn.kind == "play":
            scored = check_play(board, turn.move)
            assert all(small.is_word(w.tiles) for w in scored.words)
            assert scored.score == turn.score
            for sq, t in turn.placed():
                board[sq] = t


def test_selfplay_with_campeon_keeps_the_contract():
    result = CliRunner().invoke(main, ["selfplay", "--players", "campeon,equity", "--games", "2",
                                       "--seed", "3", "--tiempo", "0.02", "--json"])
    assert result.exit_code == 0, result.output
    games = [json.loads(line) for line in result.stdout.splitlines()]
    assert [g["players"] for g in games] == [["campeon", "equity"], ["equity", "campeon"]]
    for g in games:
        assert set(g) == {"players", "seed", "lexicon", "turns", "end", "final"}
        totals = [0, 0]
        for turn in g["turns"]:
            totals[turn["player"]] += turn["points"]
            assert turn["cumulative"] == totals
        assert [t + a for t, a in zip(totals, g["end"]["adjustments"])] == g["final"]


# -- analysis -----------------------------------------------------------------------------------

def test_analysis_finds_the_missed_scrabble(lex):  # art. 19
    game = Game(["Ana", "Luis"], draws=["AEIRSTN", "CHAOSLE"], lexicon=lex)
    game.play("H8 RIEN")
    game.accept()
    report = analysis.analyse(game, lex, seconds=0)
    first = report.turns[0]
    assert first.played.notation == "H8 RIEN" and first.best.score == 66
    assert first.missed_scrabbles and first.missed_scrabbles[0]["score"] == 66
    assert first.equity_lost > 30 and 0 < first.win_lost < 1


def test_analizar_json_contract(tmp_path, lex):
    game = players.play_game([players.get("greedy", lexicon=lex),
                              players.get("equity", lexicon=lex)], seed=2, lexicon=lex)
    path = tmp_path / "partida.gcg"
    path.write_text(gcg.dumps(game), encoding="utf-8")
    result = CliRunner().invoke(main, ["analizar", str(path), "--tiempo", "0.02", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"players", "lexicon", "seconds", "final", "turns"}
    assert data["final"] == list(game.result.scores)
    assert len(data["turns"]) == len(game.history)
    for n, turn in enumerate(data["turns"], start=1):
        assert turn["n"] == n and turn["player"] in (0, 1)
        for key in ("played", "best"):
            assert set(turn[key]) == {"notation", "score", "equity", "win"}
            assert 0 <= turn[key]["win"] <= 1
        assert turn["equity_lost"] >= 0 and 0 <= turn["win_lost"] <= 1
        assert 0 <= turn["win_before"] <= 1
        assert turn["method"] in ("simulation", "static", "endgame")
        assert isinstance(turn["missed_scrabbles"], list)
    assert data["turns"][0]["method"] == "simulation"
    text = CliRunner().invoke(main, ["analizar", str(path), "--tiempo", "0"])
    assert text.exit_code == 0 and "final:" in text.stdout


def test_analizar_batch_on_workers_equals_one_by_one(tmp_path, lex):
    """Several records at once, their turns shared among processes: one JSON line per game,
    in the order given, each the same as the game's own analysis in one process."""
    paths = []
    for seed in (3, 4):
        game = players.play_game([players.get("greedy", lexicon=lex),
                                  players.get("equity", lexicon=lex)], seed=seed, lexicon=lex)
        path = tmp_path / f"partida{seed}.gcg"
        path.write_text(gcg.dumps(game), encoding="utf-8")
        paths.append(str(path))
    batch = CliRunner().invoke(main, ["analizar", *paths, "--tiempo", "0", "--workers", "2",
                                      "--json"])
    assert batch.exit_code == 0, batch.output
    lines = [json.loads(line) for line in batch.stdout.splitlines()]
    alone = [json.loads(CliRunner().invoke(main, ["analizar", p, "--tiempo", "0", "--json"]
                                           ).stdout) for p in paths]
    assert lines == alone and lines[0] != lines[1]
    text = CliRunner().invoke(main, ["analizar", *paths, "--tiempo", "0"])
    assert text.exit_code == 0 and text.stdout.count("final:") == 2
    assert f"== {paths[1]} ==" in text.stdout


def test_docstring_examples():
    import doctest

    for module in (sim, winprob, analysis):
        assert doctest.testmod(module).failed == 0


def test_analysis_of_an_exchange_and_a_pass(lex):  # art. 25, 26
    game = Game(["a", "b"], seed=4, lexicon=lex)
    game.exchange(game.rack[:3])
    game.pass_()
    for seconds in (0, 0.02):
        first, second = analysis.analyse(game, lex, seconds=seconds).turns
        assert first.played.notation.startswith("cambio") and first.played.score == 0
        assert second.played.notation == "paso" and second.equity_lost > 0



class _BagEmpty(Exception):
    pass


def test_analysis_values_the_pass_that_ends_the_game(small):  # art. 45.2
    """With the bag empty, the fourth pass in a row (FISE 2009) ends the game: the analysis
    values it as the end it is, each player losing their own rack, without a search."""
    held: list[Game] = []

    def stop(game):
        if not len(game.bag) and not game.is_over():
            held.append(game)
            raise _BagEmpty

    with pytest.raises(_BagEmpty):
        for seed in range(50):
            players.play_game([players.get("greedy", lexicon=small)] * 2, seed=seed,
                              lexicon=small, on_turn=stop)
    game = held[0]
    for _ in range(4):
        game.pass_()
    assert game.is_over() and game.result.article == "45.2"
    last = analysis.analyse_turn(game, len(game.history) - 1, small, seconds=0.05)
    mover = game.history[-1].player
    racks = [sum(T.VALUES[t] for t in game.history[-1 - k].rack) for k in (0, 1)]
    assert game.history[-2].player == 1 - mover
    assert last.method == "endgame" and last.played.notation == "paso"
    assert last.played.equity == racks[1] - racks[0]  # the other's rack less one's own


def test_campeon_hands_the_pre_endgame_to_the_endgame_module(small, monkeypatch):  # art. 25
    from atril import endgame

    equity = players.get("equity", lexicon=small)
    for seed in range(20):
        game = Game(["a", "b"], seed=seed, lexicon=small)
        while not game.is_over() and len(game.bag) > 1:
            game.play(equity.choose(game))
            if game.pending is not None:
                game.accept()
        if len(game.bag) == 1:
            break
    assert len(game.bag) == 1
    calls = []
    pass_ = Move.pass_()

    class Found:
        move = pass_

    def preendgame(position, lexicon, **options):
        calls.append((position, options))
        return [Found()]

    monkeypatch.setattr(endgame, "preendgame", preendgame)
    # a short budget simulates; from PREENDGAME_SECONDS on, the pre-endgame decides
    assert players.get("campeon", lexicon=small, seconds=0.05).choose(game) is not pass_
    assert not calls
    champion = players.get("campeon", lexicon=small, seconds=players.PREENDGAME_SECONDS)
    assert champion.choose(game) is pass_
    [(position, options)] = calls
    assert position.racks == (game.rack, ())  # the opponent's rack stays hidden
    assert options["top"] == players.PREENDGAME_TOP and options["seconds"] > 0
