"""Computer players: levels, challenges, exchanges, passes and the blocked end (art. 25, 38–45)."""

import pytest

from atril import leaves, players
from atril.bag import Bag
from atril.errors import AtrilError
from atril.game import Game
from atril.lexicon import Lexicon
from atril.referee import can_play


@pytest.fixture(scope="module")
def lex():
    return Lexicon.load()


def test_levels_have_spanish_descriptions():
    assert list(players.LEVELS) == ["principiante", "intermedio", "greedy", "equity", "campeon"]
    for level in players.LEVELS.values():
        assert level.title and level.description.endswith(".")
    with pytest.raises(AtrilError):
        players.get("gran maestro")


def test_greedy_plays_the_top_score(lex):
    game = Game(["a", "b"], draws=["AEIRSTN", "CHAOSLE"], lexicon=lex)
    move = players.get("greedy", lexicon=lex).choose(game)
    assert game.play(move).score == 66  # H2 ARESTIN or an anagram (docs/BENCH.md, P1)


def test_equity_uses_the_shipped_table(lex):
    assert players.get("equity", lexicon=lex).leaves is leaves.load()
    assert players.get("greedy", lexicon=lex).leaves is None


def test_learner_levels_keep_their_limits(lex):
    for seed in range(4):
        game = Game(["a", "b"], seed=seed, draws=["AEIRSTN"], lexicon=lex)
        move = players.get("principiante", lexicon=lex, seed=seed).choose(game)
        turn = game.play(move)
        assert len(turn.word) <= 5 and len(turn.rack) - len(game.racks[0]) < 7


def test_same_seed_same_choices(lex):
    def choices(seed):
        engine = players.get("intermedio", lexicon=lex, seed=seed)
        return [str(engine.choose(Game(["a", "b"], seed=s, lexicon=lex))) for s in range(6)]
    assert choices(1) == choices(1)
    assert choices(1) != choices(2)


def _invalid_pending(lex):
    game = Game(["a", "b"], draws=["AEIRSTN", "CHAOSLE"], lexicon=lex)
    game.play("H8 NATSIRE")  # not a word
    return game


def test_experts_challenge_exactly_the_invalid_plays(lex):  # art. 39–40
    game = _invalid_pending(lex)
    assert not players.pending_is_valid(game, lex)
    assert players.get("equity", lexicon=lex).challenges(game)
    assert not players.get("principiante", lexicon=lex).challenges(game)
    assert not game.challenge()  # withdrawn: the tiles go back, the turn is lost
    assert game.history[-1].kind == "withdrawn" and game.scores == [0, 0]
    move = players.get("greedy", lexicon=lex).choose(game)  # b plays on normally
    assert game.play(move).score > 0
    assert not players.get("greedy", lexicon=lex).challenges(game)  # a valid play


def test_nothing_to_place_exchanges_once_then_passes():  # art. 25, 26, 45.2
    nothing = Lexicon.from_words(["zzzz"])  # one Z in the set: never playable
    game = players.play_game([players.get("equity", lexicon=nothing),
                              players.get("greedy", lexicon=nothing)], seed=1, lexicon=nothing)
    kinds = [t.kind for t in game.history]
    assert kinds == ["exchange", "exchange", "pass", "pass", "pass", "pass"]
    assert game.result.reason == "passes"


def test_blocked_end_is_declared(lex):  # art. 45.1
    nothing = Lexicon.from_words(["zzzz"])
    game = Game(["a", "b"], seed=3, lexicon=nothing)
    game.bag = Bag(3, tiles=())
    assert not any(can_play(nothing)(game.board, rack) for rack in game.racks)
    players.play_out(game, [players.get("greedy", lexicon=nothing)] * 2, nothing)
    assert game.result.reason == "blocked" and not game.history
    # each player subtracts the value of their own rack (art. 45, cases 2–4)
    assert [a.kind for a in game.result.adjustments] == ["rack", "rack"]
    fresh = Game(["a", "b"], seed=3)
    assert any(can_play(lex)(fresh.board, rack) for rack in fresh.racks)


def test_no_exchange_when_the_bag_is_too_small(lex):  # art. 25
    nothing = Lexicon.from_words(["zzzz"])
    game = Game(["a", "b"], seed=4, lexicon=nothing)
    game.bag = Bag(4, tiles=game.bag.tiles()[:2])
    move = players.get("greedy", lexicon=nothing).choose(game)
    assert move.is_exchange and len(move.tiles) == 2
    game.bag = Bag(4, tiles=())
    assert players.get("equity", lexicon=nothing).choose(game).is_pass
