"""Self-play invariants over many seeded games, and ``atril selfplay``."""

import json

import pytest
from click.testing import CliRunner

from atril import players
from atril import tiles as T
from atril.cli import main
from atril.lexicon import Lexicon


@pytest.fixture(scope="module")
def lex():
    return Lexicon.load()


class Checked:
    """Wraps a player: every move it makes must be legal, every play it faces valid."""

    def __init__(self, inner, lexicon):
        self.inner, self.name, self.lexicon = inner, inner.name, lexicon

    def choose(self, game):
        move = self.inner.choose(game)
        game.check(move)  # placement, tiles and bag (art. 2, 8, 25): raises if illegal
        return move

    def challenges(self, game):
        assert players.pending_is_valid(game, self.lexicon)  # computers play only words
        return self.inner.challenges(game)


def check_turn(game):
    # art. 3: the 100 tiles are in the bag, on the racks or on the board after every turn
    assert len(game.bag) + sum(map(len, game.racks)) + game.board.tile_count() == T.TOTAL_TILES
    for p in (0, 1):  # running totals are the sum of the turns' scores
        assert game.scores[p] == sum(t.points for t in game.history if t.player == p)


def check_end(game):
    result = game.result
    values = [sum(T.value(t) for t in rack) for rack in game.racks]
    adjust = [0, 0]
    for a in result.adjustments:
        adjust[a.player] += a.points
    if result.reason == "out":  # art. 45.4: the opponent's rack moves from them to the player
        out = game.history[-1].player
        assert not game.racks[out] and not game.bag
        assert adjust[out] == values[1 - out] and adjust[1 - out] == -values[1 - out]
    else:  # art. 45.1–45.3: each subtracts the value of their own rack
        assert result.reason in ("passes", "scoreless", "blocked")
        assert adjust == [-values[0], -values[1]]
    assert list(result.scores) == [game.scores[p] + adjust[p] for p in (0, 1)]


@pytest.mark.parametrize("pair", [("equity", "greedy"), ("intermedio", "principiante")])
def test_invariants_over_seeded_games(lex, pair):
    games = 30 if pair[0] == "equity" else 5
    for seed in range(games):
        engines = [Checked(players.get(n, lexicon=lex, seed=seed), lex) for n in pair]
        game = players.play_game(engines, seed=seed, lexicon=lex, on_turn=check_turn)
        check_end(game)


def test_paired_games_swap_seats(lex):
    engines = [players.get("greedy", lexicon=lex), players.get("greedy", lexicon=lex)]
    (a, seats_a), (b, seats_b) = players.match(engines, 2, seed=7, lexicon=lex)
    assert seats_a == (0, 1) and seats_b == (1, 0)
    assert a.initial_racks == b.initial_racks  # same bag: seat 0 gets the same first rack


def test_selfplay_json_shape(lex):
    result = CliRunner().invoke(main, ["selfplay", "--games", "2", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    games = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(games) == 2 and games[0]["players"] == ["equity", "greedy"]
    assert games[1]["players"] == ["greedy", "equity"]
    for g in games:
        totals = [0, 0]
        for turn in g["turns"]:
            assert turn["type"] in ("play", "exchange", "pass", "withdrawn")
            totals[turn["player"]] += turn["score"] if turn["type"] == "play" else 0
            assert turn["cumulative"] == totals
            assert bool(turn["placed"]) == (turn["type"] in ("play", "withdrawn"))
        assert [t + a for t, a in zip(totals, g["end"]["adjustments"])] == g["final"]


def test_selfplay_summary():
    result = CliRunner().invoke(main, ["selfplay", "--games", "2", "--players", "greedy,greedy"])
    assert result.exit_code == 0, result.output
    assert "victorias" in result.stdout and "turnos/s" in result.stdout
    bad = CliRunner().invoke(main, ["selfplay", "--players", "greedy"])
    assert bad.exit_code == 2 and "dos jugadores" in bad.output
