"""The bag (art. 3, 7, 25), the start (art. 4, 6), turns (art. 8, 25, 26, 32), history, storage."""

import json

import pytest

from atril import tiles as T
from atril.bag import Bag, full_set, unseen
from atril.board import Board
from atril.errors import AtrilError, IllegalMoveError
from atril.game import EXCHANGE, PASS, PLAY, Game, Turn, move_from_text, move_text
from atril.move import Move


def conserved(game: Game) -> bool:
    """100 tiles: bag + racks + board (+ a pending play, already on the board) (art. 3)."""
    counts = game.bag.counts()
    for rack in game.racks:
        for t in rack:
            counts[t] += 1
    for code, n in enumerate(game.board.usage()):
        counts[code] += n
    return counts == list(T.COUNTS)


# -- the bag ---------------------------------------------------------------------------------------
def test_full_bag_has_the_spanish_set():  # art. 3
    bag = Bag(seed=1)
    assert len(bag) == 100 == len(full_set())
    assert bag.counts() == list(T.COUNTS)


def test_seeded_bag_is_reproducible():
    a, b, c = Bag(seed=42), Bag(seed=42), Bag(seed=43)
    assert a.draw(7) == b.draw(7)
    assert a.draw(7) == b.draw(7)
    assert Bag(seed=42).draw(14) != c.draw(14)


def test_draw_stops_when_the_bag_runs_out():  # art. 32
    bag = Bag(tiles=[1, 2, 3])
    assert sorted(bag.draw(7)) == [1, 2, 3]
    assert len(bag) == 0 and bag.draw(7) == ()


def test_exchange_draws_before_putting_back():  # art. 25
    bag = Bag(seed=9, tiles=[1, 2, 3])
    new = bag.exchange([26, 27, 28])
    assert sorted(new) == [1, 2, 3]  # the old tiles could not come straight back
    assert bag.tiles() == (26, 27, 28)


def test_exchange_needs_as_many_tiles_in_the_bag():  # art. 25
    bag = Bag(tiles=[1, 2])
    with pytest.raises(IllegalMoveError) as err:
        bag.exchange([5, 6, 7])
    assert err.value.article == "25"


def test_take_refuses_tiles_not_in_the_bag():
    with pytest.raises(IllegalMoveError):
        Bag(tiles=[1]).take([2])


def test_bag_round_trips_and_prints():
    bag = Bag(seed=3)
    bag.draw(10)
    again = Bag.from_dict(json.loads(json.dumps(bag.to_dict())))
    assert again == bag and again.draw(5) == bag.draw(5)
    assert repr(Bag(tiles=[4, 0])) == "Bag(seed=0, tiles='?[CH]', draws=0)"


def test_unseen_counts_bag_and_opponent_rack():
    board = Board()
    board[112] = T.code("Z")
    board[113] = T.code("A") | T.BLANK_BIT
    counts = unseen(board, (T.code("A"), T.BLANK))
    assert counts[T.code("Z")] == 0
    assert counts[T.BLANK] == 0  # one blank on the board, one on the rack
    assert counts[T.code("A")] == 11
    assert sum(counts) == 100 - 4


# -- a new game (art. 4, 6) ------------------------------------------------------------------------
def test_new_game_deals_seven_each():
    game = Game(["Ana", "Luis"], seed=1)
    assert [len(r) for r in game.racks] == [7, 7]
    assert len(game.bag) == 86 and conserved(game)
    assert game.player_to_move == 0 and game.scores == [0, 0]
    assert not game.is_over() and game.result is None


def test_same_seed_same_game():
    a, b = Game(seed="x"), Game(seed="x")
    assert a.racks == b.racks
    a.exchange(a.rack[:3]), b.exchange(b.rack[:3])
    assert a.racks == b.racks and a.bag == b.bag


def test_unseeded_games_still_record_their_seed():
    game = Game()
    assert isinstance(game.seed, int)
    assert tuple(Game(seed=game.seed).racks) == game.initial_racks


def test_forced_draws_set_the_racks():
    game = Game(draws=["AEIRSTN", "[CH]AOSLE?"])
    assert game.rack_text(0) == "AEINRST"
    assert game.rack_text(1) == "A[CH]ELOS?"
    assert conserved(game)


@pytest.mark.parametrize("draws, first, rounds", [
    (["E", "A"], 1, 1),        # closest to A starts (art. 4)
    (["A", "?"], 1, 1),        # a blank beats all
    (["?", "Z"], 0, 1),
    (["E", "E", "B", "C"], 0, 2),  # a tie draws again
])
def test_draw_for_the_start(draws, first, rounds):  # art. 4
    game = Game(["Ana", "Luis"], first=None, draws=draws)
    assert game.first == first == game.player_to_move
    assert len(game.start_draws) == rounds
    assert len(game.bag) == 86 and conserved(game)  # the drawn tiles went back


def test_a_game_needs_two_players():
    with pytest.raises(AtrilError):
        Game(["Solo"])


# -- turns -----------------------------------------------------------------------------------------
def test_play_scores_waits_then_draws():  # art. 32, 38
    game = Game(["Ana", "Luis"], seed=1, draws=["AEIRSTN"])
    turn = game.play("H2 ARESTIN")
    assert turn.score == 66 and turn.kind == PLAY
    assert game.pending is turn and game.player_to_move == 1
    assert game.racks[0] == () and game.history == []
    game.accept()
    assert game.pending is None and len(game.racks[0]) == 7 and len(game.bag) == 79
    assert game.history[0].drawn and game.scores == [66, 0]
    assert conserved(game)


def test_play_reports_the_article_broken():
    game = Game(draws=["CASAEIO"])
    with pytest.raises(IllegalMoveError) as err:
        game.play("A1 CASA")
    assert err.value.article == "6"  # the first play covers H8
    with pytest.raises(IllegalMoveError) as err:
        game.play("H8 ZAS")
    assert err.value.article == "8"  # tiles not on the rack: "las fichas jugadas" are the player's
    assert "Z" in str(err.value)


def test_turn_notation_shows_board_tiles_in_parentheses():
    game = Game(draws=["CASAEIO", "PERROSL"])
    game.play("H8 CASA")
    turn = game.play("10F PE(S)O")
    assert turn.notation() == "10F PE(S)O"
    assert str(turn) == "10F PE(S)O +12"  # P on a 3L (art. 13)
    assert move_text(turn.move) == "10F PE.O"


def test_exchange_and_pass():  # art. 25, 26
    game = Game(draws=["CASAEIO", "PERROSL", "BBX"])
    turn = game.exchange("CSO")
    assert turn.kind == EXCHANGE and turn.points == 0 and str(turn) == "cambio COS C-3"
    assert game.rack_text(0) == "AABBEIX"
    assert game.player_to_move == 1 and conserved(game)
    assert game.pass_().kind == PASS and game.player_to_move == 0
    assert game.play("paso").kind == PASS
    assert game.play("cambio E").kind == EXCHANGE


def test_exchange_refused_when_the_bag_is_short():  # art. 25
    game = Game(seed=2)
    game.bag.draw(len(game.bag) - 2)  # (test only: tiles leave the game)
    with pytest.raises(IllegalMoveError) as err:
        game.exchange(game.rack[:3])
    assert err.value.article == "25"
    game.exchange(game.rack[:2])  # n tiles when the bag holds n


def test_exchange_of_tiles_not_on_the_rack():  # art. 25
    game = Game(draws=["CASAEIO"])
    with pytest.raises(IllegalMoveError) as err:
        game.exchange("ZZ")
    assert err.value.article == "25"


def test_check_and_is_legal_do_not_act():
    game = Game(draws=["CASAEIO"])
    assert game.check("H8 CASA").score == 12
    assert game.is_legal("H8 CASA") and not game.is_legal("A1 CASA")
    assert game.history == [] and game.board.is_empty()


def test_turns_after_a_short_bag_draw_what_is_left():  # art. 32
    game = Game(draws=["CASAEIO"])
    game.bag.draw(len(game.bag) - 2)  # (test only)
    game.play("H8 CASA")
    game.accept()
    assert len(game.racks[0]) == 5 and len(game.bag) == 0


# -- history and storage ---------------------------------------------------------------------------
def _sample_game() -> Game:
    game = Game(["Ana", "Luis"], seed=11, draws=["CASAEIO", "PERROSL"])
    game.play("H8 CASA")
    game.play("10F PE(S)O")      # accepts CASA by acting (art. 38)
    game.challenge(valid=False)  # PESO withdrawn
    game.exchange("EIO")
    game.play("10F PE(S)O")
    game.challenge(valid=True)
    game.pass_()
    return game


def test_position_at_rebuilds_any_earlier_position():
    game = _sample_game()
    for n in range(len(game.history) + 1):
        past = game.position_at(n)
        assert past.history == game.history[:n]
        assert conserved(past)
    assert game.position_at(0).racks == list(game.initial_racks)
    whole = game.position_at(len(game.history))
    assert whole.board == game.board and whole.racks == game.racks
    assert whole.scores == game.scores and whole.bag == game.bag
    with pytest.raises(AtrilError):
        game.position_at(99)


def test_to_dict_round_trips_through_json_and_continues_the_same():
    game = _sample_game()
    tile = next(t for t in game.rack if t)
    game.play(Move.play(6, 7, False, (tile, 0)))  # G8 down over the C; left pending, stored too
    data = json.loads(json.dumps(game.to_dict()))
    again = Game.from_dict(data)
    assert again.history == game.history and again.pending == game.pending
    assert again.racks == game.racks and again.scores == game.scores and again.bag == game.bag
    game.accept(), again.accept()
    assert again.racks == game.racks  # the seeded bag carries on identically


def test_from_dict_refuses_damaged_data():
    data = _sample_game().to_dict()
    del data["history"][0]["move"]
    with pytest.raises(AtrilError):
        Game.from_dict(data)
    data = _sample_game().to_dict()
    data["history"][0]["move"] = "A1 CASA"
    with pytest.raises(IllegalMoveError):
        Game.from_dict(data)


def test_move_text_round_trips_digraphs_and_separate_letters():
    for move in (Move.play(7, 7, True, (T.code("C"), T.code("H"), 0, T.code("CH") | T.BLANK_BIT)),
                 Move.exchange((T.code("LL"), T.BLANK)), Move.pass_()):
        assert move_from_text(move_text(move)) == move


def test_values_print_well():
    game = _sample_game()
    assert repr(game).startswith("<Game FISE2009 seed=11: Ana ")
    assert "bolsa:" in str(game)


# -- property: many seeded random games ------------------------------------------------------------
import lzma  # noqa: E402
import random  # noqa: E402
from importlib import resources  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from atril import movegen  # noqa: E402
from atril.game import WITHDRAWN  # noqa: E402
from atril.lexicon import Lexicon  # noqa: E402

_LEXICONS: dict[str, Lexicon] = {}


def small_lexicons() -> tuple[Lexicon, Lexicon]:
    """Words of up to 4 letters from the bundled list (to find plays), and a judge that knows
    only about half of them, so some plays fall to a challenge."""
    if not _LEXICONS:
        path = resources.files("atril") / "data" / "es09.txt.xz"
        with lzma.open(path, "rt", encoding="utf-8") as f:
            words = [w for w in f.read().split() if len(w) <= 4]
        _LEXICONS["all"] = Lexicon.from_words(words, id="CORTAS")
        _LEXICONS["judge"] = Lexicon.from_words(words[::2] + ["aa"], id="JUEZ")
    return _LEXICONS["all"], _LEXICONS["judge"]


def random_game(seed: int, *, max_turns: int = 400) -> Game:
    """A game of random legal moves; every action is checked against the invariants."""
    words, judge = small_lexicons()
    rng = random.Random(seed)
    game = Game(["Ana", "Luis"], seed=seed, first=None if seed % 2 else 0, lexicon=judge,
                can_play=lambda board, rack: len(movegen.generate(board, rack, words)) > 0,
                ruleset=rng.choice(["FISE2004", "FISE2009", "FILE2018", "FILE2024"]))
    for _ in range(max_turns):
        if game.is_over():
            break
        if game.pending is not None and rng.random() < 0.5:
            game.challenge() if rng.random() < 0.5 else game.accept()
        else:
            # Acting accepts a pending play first (art. 38): the board stays, the bag shrinks.
            bag = len(game.bag)
            if game.pending is not None:
                bag -= min(bag, T.RACK_SIZE - len(game.racks[game.pending.player]))
            moves = movegen.generate(game.board, game.rack, words)
            roll = rng.random()
            try:
                if moves and roll < 0.85:
                    game.play(moves[rng.randrange(min(len(moves), 8))].move)
                elif bag >= 1 and roll < 0.95:
                    game.exchange(rng.sample(game.rack, rng.randint(1, min(len(game.rack), bag))))
                else:
                    game.pass_()
            except IllegalMoveError:
                assert game.is_over()  # accepting the pending play ended the game
        check_invariants(game)
    return game


def check_invariants(game: Game) -> None:
    assert conserved(game)  # art. 3: 100 tiles, always
    for p in (0, 1):  # running totals are the sums of the turns' points
        pending = game.pending.score if game.pending and game.pending.player == p else 0
        assert game.scores[p] == sum(t.points for t in game.history if t.player == p) + pending
    for turn in game.history:
        if turn.kind == WITHDRAWN:
            assert turn.points == 0 and turn.drawn == ()


def check_end(game: Game) -> None:
    """The adjustments follow art. 45 for the reason the game ended."""
    r = game.result
    assert r is not None
    last = game.history[-1]
    rack_adj = {(a.player, a.kind): a.points for a in r.adjustments if a.kind != "time"}
    value = [sum(T.value(t) for t in rack) for rack in game.racks]
    if r.reason == "out":  # 45.4
        assert last.kind == PLAY and not game.racks[last.player] and not game.bag
        other = 1 - last.player
        assert rack_adj == ({(other, "rack"): -value[other], (last.player, "out"): value[other]}
                            if game.racks[other] else {})
    elif r.reason in ("passes", "scoreless", "blocked"):  # 45.1–45.3: each their own rack
        assert rack_adj == {(p, "rack"): -value[p] for p in (0, 1) if game.racks[p]}
        if r.reason == "passes":
            assert all(t.kind in (PASS, WITHDRAWN) for t in game.history[-4:])
        if r.reason == "scoreless":
            n = game.ruleset.max_scoreless_turns
            assert n is not None and all(t.kind != PLAY for t in game.history[-n:])
    final = list(game.scores)
    for a in r.adjustments:
        final[a.player] += a.points
    assert tuple(final) == r.scores


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10 ** 9))
def test_random_games_keep_the_invariants(seed):
    game = random_game(seed)
    if game.is_over():
        check_end(game)
    again = Game.from_dict(json.loads(json.dumps(game.to_dict())), lexicon=game.lexicon)
    assert again.history == game.history and again.result == game.result
    assert again.racks == game.racks and again.bag == game.bag


def test_position_for_the_player_to_move():
    game = Game(draws=["CASAEIO", "PERROSL"])
    game.play("H8 CASA")
    game.accept()
    pos = game.position()
    assert pos.racks[0] == game.racks[1] and pos.scores == (0, 12)
    assert pos.lexicon == "ES09" and pos.zero_turns == 0
    game.pass_()
    assert game.position().zero_turns == 1


def test_turn_repr():
    game = Game(draws=["CASAEIO", "PERROSL", "BBXD"])
    game.play("H8 CASA")
    game.accept()
    turn = game.history[0]
    assert repr(turn).startswith(
        "Turn.from_dict({'player': 0, 'type': 'play', 'notation': 'H8 CASA'")
    assert eval(repr(turn), {"Turn": Turn}) == turn


def test_module_examples():
    import doctest

    import atril.game
    import atril.referee
    import atril.ruleset
    for module in (atril.game, atril.referee, atril.ruleset):
        assert doctest.testmod(module).failed == 0


def test_a_refused_action_leaves_the_game_as_it_was():  # art. 38
    # Acting accepts the pending play; if the action itself is refused, nothing happens at all.
    game = Game(["Ana", "Luis"], seed=3, draws=["AEIRSTN", "CHAOSLE"])
    game.play("H2 ARESTIN")
    before = game.to_dict()
    with pytest.raises(IllegalMoveError):
        game.play("A1 CHAOS")  # not connected (art. 9)
    assert game.to_dict() == before and game.pending is not None
    with pytest.raises(IllegalMoveError):
        game.exchange("ZZ")  # tiles Luis does not hold
    assert game.to_dict() == before


def test_a_printed_rack_tells_the_digraph_tile_from_two_letters():
    # art. 3: LL is one tile; «ACLLÑRT» would not say whether it is the LL tile or two L
    game = Game(["Ana", "Luis"], seed=1, draws=["[LL]LACÑRT", "CHAOSLE"])
    line = str(game).splitlines()[-3]
    assert line.endswith("A C L LL Ñ R T") and "A C L L Ñ" not in line
