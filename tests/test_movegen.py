"""The move generator: the C fast path against the brute-force reference on a seeded corpus,
Quackle's move counts on ES09 (docs/BENCH.md), scores against ``rules.check_play``, bad input."""

from __future__ import annotations

import random
import subprocess
import sys
from array import array
from functools import cache

import crafted_kwg as crafted
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atril import movegen, reference
from atril import tiles as T
from atril.board import Board
from atril.cgp import loads
from atril.errors import InvalidPositionError
from atril.kwg import Kwg
from atril.lexicon import Lexicon, bundled_words
from atril.move import Move
from atril.rules import apply_play, check_play

# docs/BENCH.md: position, placements counted by Quackle on ES09, top score.
BENCH = {
    "P1": ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEIRSTN/ 0/0 0", 1376, 66),
    "P2": ("15/15/15/15/8C6/8A6/6N1[LL]AVE3/5[CH]ICO6/6Ñ8/3PE[rr]O8/15/15/15/15/15 "
           "[RR]AEIST?/ 0/0 0", 18349, 117),
    "P3": ("15/15/15/15/15/5ZO[RR]OS5/5U3U5/3JAMON1E5/3E1O3L5/3F5O5/3EXITO7/7[LL]7/4CAÑA7/15/15 "
           "QUEDAST/ 0/0 0", 550, 46),
    "P4": ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 [CH][LL]AEOR?/ 0/0 0", 5516, 100),
}

CORPUS_LEXICONS = 5
GAMES_PER_LEXICON = 3
MIN_POSITIONS = 500


@cache
def es09() -> Lexicon:
    return Lexicon.load("ES09")


@cache
def es09_words() -> list[tuple[int, ...]]:
    """ES09 read from its text, not from a graph: the reference generator's word list."""
    return bundled_words("ES09")


@cache
def small_words(seed: int) -> list[tuple[int, ...]]:
    """Every two-letter word of ES09 (so boards fill up) and a random 5–8k sample of the rest."""
    words = es09_words()
    rng = random.Random(seed)
    short = [w for w in words if len(w) == 2]
    return short + rng.sample([w for w in words if len(w) > 2], rng.randint(5000, 8000))


@cache
def small_lexicon(seed: int) -> Lexicon:
    return Lexicon.from_words([T.word_text(w) for w in small_words(seed)], id=f"SUB{seed}")


@cache
def reference_words(seed: int | None) -> reference.Words:
    """The reference's words for small_lexicon(seed), or for ES09 (None)."""
    return reference.Words(es09_words() if seed is None else small_words(seed))


def found(moves: movegen.MoveList) -> list[reference.Found]:
    """The engine's moves as the reference gives them."""
    return [reference.Found(c.equity, c.score, c.move, c.placed) for c in moves]


def assert_same_moves(fast: movegen.MoveList, slow: list[reference.Found], what: str) -> None:
    """Same moves, scores, equities and order; and packed, the very same records."""
    if found(fast) != slow or b"".join(map(movegen._record, slow)) != fast._buf:
        only_fast = {str(c) for c in fast} - {str(movegen.MoveList(movegen._record(f), ())[0])
                                              for f in slow}
        only_slow = {str(movegen.MoveList(movegen._record(f), ())[0]) for f in slow} - {
            str(c) for c in fast}
        pytest.fail(f"{what}: solo rápido {sorted(only_fast)[:5]}, "
                    f"solo referencia {sorted(only_slow)[:5]}")


def random_positions(seed: int, games: int) -> list[tuple[Board, tuple[int, ...], int]]:
    """(board, rack, bag count) before every turn of random games on a small lexicon.

    Moves are picked at random among the ten best, so boards look played; every third rack is
    spiced with blanks and digraphs so those paths are exercised often.
    """
    lex = small_lexicon(seed)
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        board = Board()
        bag = [t for t, n in enumerate(T.COUNTS) for _ in range(n)]
        rng.shuffle(bag)
        rack: list[int] = []
        for turn in range(40):
            while len(rack) < T.RACK_SIZE and bag:
                rack.append(bag.pop())
            if not rack:
                break
            if turn % 3 == 2 and bag:  # swap a tile for a blank or a digraph from the bag
                for want in (T.BLANK, 4, 13, 21):
                    if want in bag and want not in rack:
                        i = bag.index(want)
                        bag[i], rack[0] = rack[0], want
                        break
            out.append((board.copy(), tuple(rack), len(bag)))
            moves = movegen.generate(board, rack, lex)
            if not len(moves):  # stuck: change the whole rack
                bag.extend(rack)
                rng.shuffle(bag)
                rack.clear()
                continue
            chosen = moves[rng.randrange(min(10, len(moves)))]
            apply_play(board, check_play(board, chosen.move))
            for t in chosen.used:
                rack.remove(t)
    return out


@cache
def corpus() -> list[tuple[int, Board, tuple[int, ...], int]]:
    return [(seed, *p) for seed in range(CORPUS_LEXICONS)
            for p in random_positions(seed, GAMES_PER_LEXICON)]


def test_corpus_is_large_and_varied():
    positions = corpus()
    assert len(positions) >= MIN_POSITIONS
    assert sum(1 for _, _, rack, _ in positions if T.BLANK in rack) >= 30
    assert sum(1 for _, b, _, _ in positions if any(t & T.BLANK_BIT for t in b.squares)) >= 50
    assert sum(1 for _, b, _, _ in positions if any(b[sq] for sq in range(15))) >= 5  # edge


@pytest.mark.parametrize("part", range(CORPUS_LEXICONS))
def test_fast_equals_reference(part):
    """Same moves, same scores, same order, exchanges and pass included."""
    lex, words = small_lexicon(part), reference_words(part)
    for seed, board, rack, bag in corpus():
        if seed != part:
            continue
        fast = movegen.generate(board, rack, lex, exchanges=True, bag_count=bag)
        slow = reference.generate(board, rack, words, exchanges=True, bag_count=bag)
        assert_same_moves(fast, slow, f"{board!r} {T.to_machine(rack)}")


# The full ES09: mid-game boards from a seeded self-play game (turns 7, 12 and 14: a blank on
# the board and on a rack, the Ñ, every digraph), with the tiles left in the bag, and BENCH's
# P2 (18 349 placements) and P3. The reference takes about a second on the biggest.
ES09_POSITIONS = [
    ("15/9[CH]5/9U5/6AHO[RR]EN3/[LL]8I5/O8T5/rOQUEDO2A5/A5LEVS5/DEBRUCE8/A14/S14/15/15/15/15 "
     "ARRSTTU/ 0/0 0", 59),
    ("OH13/CE7[CH]3F1/1N6TURUTAS/1D4AHO[RR]EN1X1/[LL]E7I5/O8T5/rOQUEDOS1A5/A5LEVS5/"
     "DEBRUCES7/A6I7/S14/15/15/15/15 EGMORR?/ 0/0 0", 41),
    ("OH13/CE2MALGA[CH]E2F1/1N6TURUTAS/1D4AHO[RR]EN1X1/[LL]E2p4I5/O3R4T5/rOQUEDOS1A5/"
     "A3M1LEVS5/DEBRUCES7/A3E2I7/S3R10/4O10/15/15/15 EIÑPRST/ 0/0 0", 29),
    (BENCH["P2"][0], 50),
    (BENCH["P3"][0], 50),
]


@pytest.mark.parametrize("cgp, bag", ES09_POSITIONS)
def test_fast_equals_reference_on_es09(cgp, bag):
    pos = loads(cgp)
    fast = movegen.generate(pos.board, pos.rack, es09(), exchanges=True, bag_count=bag)
    slow = reference.generate(pos.board, pos.rack, reference_words(None), exchanges=True,
                              bag_count=bag)
    assert len(fast) > 250
    assert_same_moves(fast, slow, cgp)


@pytest.mark.parametrize("name", sorted(BENCH))
def test_quackle_counts_on_es09(name):
    cgp, count, top = BENCH[name]
    pos = loads(cgp)
    moves = movegen.generate(pos.board, pos.rack, es09())
    assert len(moves) == count
    assert moves[0].score == top
    # Many plays tie at the top (19 anagrams of ARESTIN score 66): the order breaks the tie.
    for n in (1, 3, 25):
        assert list(movegen.best(pos.board, pos.rack, es09(), n=n)) == list(moves[:n])


@pytest.mark.parametrize("name", ["P2", "P3"])
def test_every_move_rechecked(name):
    """Each move is legal by rules.check_play, every word it forms is a word, same score."""
    pos = loads(BENCH[name][0])
    lex = es09()
    moves = movegen.generate(pos.board, pos.rack, lex)
    seen = set()
    for c in moves:
        play = check_play(pos.board, c.move)
        assert play.score == c.score, str(c)
        assert play.placed == c.placed
        assert all(lex.is_word(w.tiles) for w in play.words), str(c)
        assert sorted(c.leave + c.used) == sorted(pos.rack)
        assert c.bingo == (len(c.placed) == 7)
        seen.add(play.placed)
    assert len(seen) == len(moves)  # one-tile plays are not repeated the other way


def test_first_examples():
    moves = movegen.generate(loads(BENCH["P1"][0]).board, tuple(T.tokenize_word("aeirstn")), es09())
    assert str(moves[0]) == "H2 ARESTIN 66"
    assert moves[0].bingo and moves[0].leave == ()
    assert sum(c.bingo for c in moves) == 133
    scores = moves.scores()
    assert scores == sorted(scores, reverse=True)
    pos = loads(BENCH["P2"][0])
    top = movegen.generate(pos.board, pos.rack, es09())[0]
    assert str(top) == "5D TIERRAl(E)S 117"
    assert top.move == Move("5D TIERRAlES")


def test_one_tile_play_is_reported_along_its_longer_word():
    board = Board()
    for sq, t in zip((112, 113, 114), T.tokenize_word("sal")):  # H8 SAL
        board[sq] = t
    moves = movegen.generate(board, (T.code("E"),), es09())
    texts = {str(c) for c in moves}
    assert "H8 (SAL)E 4" in texts  # E at H11 forms SALE across only
    for c in moves:
        assert len(c.placed) == 1
        words = check_play(board, c.move).words
        assert len(words[0].tiles) >= max(len(w.tiles) for w in words)


def test_exchanges_follow_the_bag():
    pos = loads(BENCH["P3"][0])
    rack = pos.rack
    moves = movegen.generate(pos.board, rack, es09(), exchanges=True, bag_count=3)
    exchanges = [c for c in moves if c.move.is_exchange]
    assert max(len(c.move.tiles) for c in exchanges) == 3
    assert len(exchanges) == 7 + 21 + 35  # QUEDAST: seven different tiles
    assert moves[-1].move.is_pass and str(moves[-1]) == "paso 0"
    none = movegen.generate(pos.board, rack, es09(), exchanges=True, bag_count=0)
    assert sum(1 for c in none if not c.move.is_play) == 1


def test_best_is_the_top_of_generate():
    for _, board, rack, _bag in corpus()[:200:7]:
        lex = small_lexicon(0)
        everything = movegen.generate(board, rack, lex)
        for n in (1, 5):
            assert list(movegen.best(board, rack, lex, n=n)) == list(everything[:n])


def test_best_is_the_top_of_generate_on_the_full_lexicon():
    """ES09 boards fill with long words, so the bounds' bingo test (can the rack and the
    letters a span runs through spell a word at all?) decides often; it must never skip the
    best move."""
    lex, rng, checked = es09(), random.Random(11), 0
    for _ in range(4):
        board, bag = Board(), [t for t, n in enumerate(T.COUNTS) for _ in range(n)]
        rng.shuffle(bag)
        rack: list[int] = []
        for _turn in range(25):
            while len(rack) < T.RACK_SIZE and bag:
                rack.append(bag.pop())
            everything = movegen.generate(board, rack, lex)
            if not len(everything):
                break
            for n in (1, 4):
                assert list(movegen.best(board, rack, lex, n=n)) == list(everything[:n])
            checked += 1
            chosen = everything[rng.randrange(min(5, len(everything)))]
            apply_play(board, check_play(board, chosen.move))
            for t in chosen.used:
                rack.remove(t)
    assert checked >= 60


class Leaves:
    """A leave table in the protocol ``movegen.best`` reads (wolges KLV layout)."""

    def __init__(self, values: dict[tuple[int, ...], float]):
        ordered = sorted(values)
        # Kwg.build refuses tile 0 (the separator), so build with every tile shifted up by
        # one and shift the DAWG back down: the blank is tile 0 in a leave DAWG.
        nodes = Kwg.build([tuple(t + 1 for t in leave) for leave in ordered]).nodes
        self.kwg_nodes = array("I", nodes[:2]) + array(
            "I", (n - (1 << 24) if n >> 24 else n for n in nodes[2:]))
        self.values = array("f", (values[leave] for leave in ordered))


def test_best_with_leaves_matches_reference():
    rng = random.Random(7)
    lex = small_lexicon(1)
    for _, board, rack, bag in corpus()[:300:10]:
        subsets = {tuple(sorted(rng.sample(rack, k)))
                   for k in range(1, len(rack)) for _ in range(6)}
        table = Leaves({s: round(rng.uniform(-20, 20), 1) for s in subsets})
        for exchanges in (False, True):
            fast = movegen.best(board, rack, lex, n=3, leave_values=table, exchanges=exchanges,
                                bag_count=bag)
            slow = reference.best(board, rack, reference_words(1), n=3, leave_values=table,
                                  exchanges=exchanges, bag_count=bag)
            assert_same_moves(fast, slow, f"{board!r} {T.to_machine(rack)}")


def test_inputs_are_not_mutated():
    pos = loads(BENCH["P2"][0])
    before = bytes(pos.board.squares)
    rack = list(pos.rack)
    movegen.generate(pos.board, rack, es09(), exchanges=True)
    movegen.best(pos.board, rack, es09(), n=3)
    assert bytes(pos.board.squares) == before and rack == list(pos.rack)


@pytest.mark.parametrize("board_tile, rack", [
    (29, ()), (0x40, ()), (0x80, ()), (0xFF, ()),
    (0, (1,) * 8), (0, (29,)), (0, (-1,)), (0, ("A",)),
    (T.code("Z"), (T.code("Z"),)), (T.BLANK_BIT | 1, (0, 0)),
])
def test_bad_input(board_tile, rack):
    board = Board()
    board[112] = board_tile
    with pytest.raises(InvalidPositionError):
        movegen.generate(board, rack, es09())
    with pytest.raises(InvalidPositionError):
        movegen.best(board, rack, es09())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([1, 4, T.code("Z"), T.code("Ñ"), T.BLANK_BIT | 5]), max_size=12),
       st.lists(st.sampled_from([0, 1, 4, T.code("Z"), T.code("Ñ")]), max_size=7))
def test_too_many_of_a_tile_is_refused(board_tiles, rack):  # art. 3
    board = Board()
    for sq, t in enumerate(board_tiles):
        board[sq * 15] = t  # a column of tiles: no need to be words
    uses = [T.BLANK if t & T.BLANK_BIT else t for t in board_tiles] + rack
    over = [c for c in range(T.ALPHABET_SIZE) if uses.count(c) > T.COUNTS[c]]
    if not over:
        movegen.generate(board, rack, es09())
        return
    with pytest.raises(InvalidPositionError, match=r"art\. 3") as err:
        movegen.generate(board, rack, es09())
    name = "comodines" if over[0] == T.BLANK else T.tile_to_human(over[0])
    assert f"hay {uses.count(over[0])} " in str(err.value) and name in str(err.value)


def test_native_inputs_that_are_no_buffers_are_named():
    kwg = es09().kwg
    with pytest.raises(TypeError, match="tablero: se esperaba un búfer"):
        movegen._native.generate(None, bytes(29), kwg.nodes, kwg.child_masks, -1)


def test_a_graph_that_crashed_the_generator_is_refused_first():
    """Its GADDAG root list far outside the array made the generator read there and crash (a
    segmentation fault): the graph is refused before the generator sees it, even bytes taken
    as atril's own (``check=False``, as the web app takes its compiled uploads). In a child
    process, so that a crash fails this test, not the test run."""
    code = ("import sys\nfrom atril import movegen\nfrom atril.board import Board\n"
            "from atril.kwg import Kwg, KwgError\n"
            "try:\n    kwg = Kwg.from_bytes(sys.stdin.buffer.read(), check=False)\n"
            "    movegen.generate(Board(), (1, 20, 22, 1), kwg)\n"
            "except KwgError as exc:\n    print(exc)\n")
    out = subprocess.run([sys.executable, "-c", code], input=crafted.gaddag_out_of_range(),
                         capture_output=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr.decode()[-3000:]
    assert "el nodo 1 apunta fuera" in out.stdout.decode()


def test_not_a_board():
    with pytest.raises(InvalidPositionError):
        movegen.generate("no", (), es09())


def test_docstring_examples():
    import doctest
    assert doctest.testmod(movegen).failed == 0


def test_falls_back_to_the_reference(monkeypatch):
    """Without the C extension the same calls answer, from atril.reference."""
    _, board, rack, bag = corpus()[40]
    lex = small_lexicon(0)
    fast = movegen.generate(board, rack, lex, exchanges=True, bag_count=bag)
    fast_best = movegen.best(board, rack, lex, n=4)
    monkeypatch.setattr(movegen, "_native", None)
    assert list(movegen.generate(board, rack, lex, exchanges=True, bag_count=bag)) == list(fast)
    assert list(movegen.best(board, rack, lex, n=4)) == list(fast_best)


def test_candidate_fields_for_exchange_and_pass():
    rack = tuple(T.tokenize_word("quedast"))
    moves = movegen.generate(Board(), rack, es09(), exchanges=True, bag_count=7)
    exchange = next(c for c in moves if c.move.is_exchange and len(c.move.tiles) == 2)
    assert exchange.score == 0 and exchange.placed == () and not exchange.bingo
    assert sorted(exchange.leave + exchange.move.tiles) == sorted(rack)
    assert str(exchange).startswith("cambio ") and str(exchange).endswith(" 0")
    passing = moves[-1]
    assert passing.move.is_pass and passing.leave == tuple(sorted(rack))
