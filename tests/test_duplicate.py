"""Duplicate (issue 15, docs/DUPLICATE.md): the rack rule, the master move and its tie-breaks,
the slips that score 0, bonuses, standings, storage and ``atril duplicada``; on seeded games,
the master is the top score of every legal play (``atril.reference``) and the 100 tiles stay
100."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from test_movegen import reference_words, small_lexicon

from atril import movegen, reference
from atril import tiles as T
from atril.bag import Bag
from atril.board import Board, parse_square
from atril.cli import main
from atril.duplicate import Bonuses, Duplicate, Slip, master, score_slip
from atril.duplicate import game as G
from atril.duplicate import slips as S
from atril.duplicate.racks import could_meet, draw_rack, meets_rule, minimum
from atril.duplicate.standings import standings
from atril.errors import AtrilError
from atril.lexicon import Lexicon
from atril.rack import Rack

EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"


@pytest.fixture(scope="module")
def lex():
    return Lexicon.load()


def tiles_of(game: Duplicate) -> list[int]:
    """Board, rack and bag counted together, per tile code (a blank on the board as a blank)."""
    counts = Counter(game.rack)
    return [game.board.usage()[c] + counts[c] + game.bag.counts()[c]
            for c in range(T.ALPHABET_SIZE)]


# --- the rack rule ------------------------------------------------------------------------------

def test_two_of_each_until_round_15_then_one():
    assert (minimum(1), minimum(15), minimum(16), minimum(30)) == (2, 2, 1, 1)
    assert meets_rule(Rack("ABCDEFG"), 15)
    assert not meets_rule(Rack("ABCDFGH"), 15) and meets_rule(Rack("ABCDFGH"), 16)
    assert not meets_rule(Rack("BCDFGHJ"), 16)  # no vowel at all


def test_y_is_a_consonant():
    assert not meets_rule(Rack("AAEEIOY"), 15)  # one consonant: the Y
    assert meets_rule(Rack("AAEEIOY"), 16)
    assert meets_rule(Rack("AEIOUYR"), 15)


def test_a_blank_counts_as_either():
    assert meets_rule(Rack("AEIOU??"), 15) and meets_rule(Rack("BCDFG??"), 15)
    assert meets_rule(Rack("AEIOU?"), 16) and not meets_rule(Rack("AEIOUO?"), 15)
    assert meets_rule(Rack("??"), 16) and not meets_rule(Rack("??"), 15)  # four tiles needed
    assert meets_rule(Rack("A?"), 16) and not meets_rule(Rack("AEI"), 16)


def test_a_failed_draw_goes_back_and_is_drawn_again():
    tiles = T.tokenize_machine("AEBCDFGHJLMNPRST")  # two vowels among sixteen tiles
    redrawn = 0
    for seed in range(20):
        bag = Bag(seed, tiles)
        rack, redraws = draw_rack(bag, (), 1)
        assert meets_rule(rack, 1) and T.code("A") in rack and T.code("E") in rack
        assert sorted(rack + bag.tiles()) == sorted(tiles)  # nothing lost, nothing added
        redrawn += redraws > 0
    assert redrawn > 10


def test_the_leftover_goes_back_too_unless_kept():
    leave = Rack("AEIO")  # four vowels kept; the bag has two consonants among twelve tiles
    pool = T.tokenize_machine("AAEEIOOUUUBC")
    returned = kept = 0
    for seed in range(40):
        for keep_leave in (False, True):
            bag = Bag(seed, pool)
            rack, redraws = draw_rack(bag, leave, 1, keep_leave=keep_leave)
            assert meets_rule(rack, 1) and sorted(rack + bag.tiles()) == sorted(pool + leave)
            if redraws and keep_leave:
                kept += 1
                assert not Counter(leave) - Counter(rack)  # the leftover stayed
            elif redraws:
                returned += bool(Counter(leave) - Counter(rack))
    assert kept and returned  # without keep_leave, some redraws lost the leftover


def test_a_leftover_no_draw_can_complete_goes_back_anyway():
    leave = Rack("BCDFGH")  # six consonants, one tile to draw: two vowels impossible
    bag = Bag(3, "AEIOUSTR")
    assert not could_meet(leave, bag.tiles(), 7, 10) and could_meet((), bag.tiles() + leave, 7, 10)
    rack, redraws = draw_rack(bag, leave, 10, keep_leave=True)
    assert redraws >= 1 and meets_rule(rack, 10)


def test_no_valid_rack_left():
    assert draw_rack(Bag(1, "AEIOUA"), Rack("E"), 20) is None  # all vowels
    assert draw_rack(Bag(1, "ABC"), (), 15) is None  # three tiles, four needed before 16
    assert draw_rack(Bag(1, ""), (), 16) is None
    bag = Bag(1, "AB")
    assert draw_rack(bag, (), 16) == (tuple(Rack("AB")), 0) and len(bag) == 0


# --- the master move and its tie-breaks -----------------------------------------------------

def master_of(words: list[str], rack: str, board: Board | None = None):
    """The chosen play and every play of the top score, on a lexicon of ``words``."""
    lexicon = Lexicon.from_words(words, id="PRUEBA")
    moves = movegen.generate(board or Board(), Rack(rack), lexicon)
    top = [str(c) for c in moves if c.score == moves[0].score]
    return str(master.find(board or Board(), Rack(rack), lexicon)), top


def test_the_master_uses_no_blank():
    chosen, top = master_of(["za", "zas"], "ZA?")
    assert "H6 ZAs 22" in top  # the same score with a blank (and a better leave: none)
    assert chosen == "H7 ZA 22"


def test_then_the_more_balanced_leave():
    chosen, top = master_of(["za", "hepc"], "ACEHPSZ")
    assert "H7 ZA 22" in top  # fewer tiles, but leaves C E H P S (four consonants, one vowel)
    assert chosen == "H5 HEPC 22"  # leaves A S Z
    assert master.imbalance(Rack("CEHPS")) == 3 and master.imbalance(Rack("ASZ")) == 1
    assert master.imbalance(Rack("AE?")) == 1 and master.imbalance(Rack("AB")) == 0
    assert master.imbalance(()) == 0 and master.imbalance(Rack("AEIO??")) == 2


def test_then_fewer_tiles():
    chosen, top = master_of(["za", "jota"], "AAEJOTZ")
    assert "H5 JOTA 22" in top  # first in the alphabet and closer to A1; the same balance
    assert chosen == "H7 ZA 22"


def test_then_alphabetical():
    board = Board("15/15/15/15/15/15/15/7A7/15/15/15/15/15/15/15")  # an A on H8
    chosen, top = master_of(["ax", "xa"], "X", board)
    assert "H7 X(A) 9" in top  # starts closer to A1, but XA comes after AX
    assert chosen == "H8 (A)X 9"  # and across before down: 8H (A)X starts on the same square


def test_then_closest_to_a1():
    chosen, top = master_of(["as"], "AS")
    assert top == ["H7 AS 4", "H8 AS 4"] and chosen == "H7 AS 4"


def test_the_arbiter_may_override(lex):
    game = Duplicate(["Ana"], seed=7, lexicon=lex, rounds=2)
    rnd = game.start_round()
    assert str(rnd.master.move) == "H3 AZIMUT"
    with pytest.raises(AtrilError, match="jugada no válida"):
        game.override("H8 ZUMOTI")
    with pytest.raises(AtrilError, match="art. 6"):
        game.override("A1 ZUMO")
    game.override("H8 ZUMO")
    game.submit(0, "H3 AZIMUT")
    game.close_round()
    assert rnd.overridden and rnd.master.score == 30
    assert game.board[parse_square("H8")] == T.code("Z")
    assert rnd.scores == [54] and game.standings()[0].masters == 1  # more than the master
    assert game.rack == tuple(Rack("AIT"))


# --- the slips ----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, late, reason, detail", [
    (None, False, S.MISSING, ""),
    ("  ", False, S.MISSING, ""),
    ("paso", False, S.MISSING, ""),
    ("H8 CASO", True, S.LATE, ""),                      # valid, but after the time
    ("H8", False, S.MALFORMED, "no es una jugada"),
    ("Z99 CASO", False, S.MALFORMED, "coordenada"),
    ("H8 C@SO", False, S.MALFORMED, "caracteres no válidos"),
    ("cambio AE", False, S.MALFORMED, ""),               # no exchanges in duplicate
    ("H8 CASA", False, S.UNMARKED_BLANK, ""),            # one A on the rack, and a blank
    ("H8 CAsa", False, S.INVALID, "no tienes"),          # one blank only
    ("H8 PERRO", False, S.INVALID, "no tienes"),
    ("A1 CASO", False, S.INVALID, "art. 6"),
    ("H8 RACSO", False, S.INVALID, ""),                  # not a word: which one is not said
])
def test_each_slip_that_scores_zero(lex, text, late, reason, detail):
    scored = score_slip(Board(), Rack("ACEORS?"), lex, Slip(text, late))
    assert (scored.score, scored.reason) == (0, reason)
    assert detail in scored.detail and (detail or not scored.detail)


def test_a_slip_scores_what_it_would_score_on_the_board(lex):
    board = Board(EMPTY)
    scored = score_slip(board, Rack("ACEORS?"), lex, Slip("H8 CASa"))
    assert (scored.score, scored.reason) == (10, None) and board.is_empty()  # never placed
    assert score_slip(board, Rack("ACEORS?"), lex, Slip("8B ARCEdOS")).score == 72  # down


# --- bonuses and standings ------------------------------------------------------------------

ALWAYS = Bonuses(cap=None, min_players=None)


@pytest.mark.parametrize("scores, bonuses", [
    ([30, 20, 10], [10, 5, 0]),
    ([30, 30, 20], [0, 0, 5]),       # two found the master: no 10; the best below still alone
    ([30, 20, 20], [10, 0, 0]),      # two share the best below: no 5
    ([20, 10, 0], [5, 0, 0]),        # nobody found the master; the best below is alone
    ([0, 0, 0], [0, 0, 0]),
    ([25, 0, 0], [5, 0, 0]),         # alone below the master; 0 is never best below
    ([35, 30, 0], [0, 0, 0]),        # above an arbiter's master counts as finding it
])
def test_bonuses_go_to_the_only_one(scores, bonuses):
    assert ALWAYS.for_round(scores, 30) == bonuses


def test_bonus_defaults_cap_and_players():
    assert Bonuses() == Bonuses(master=10, runner_up=5, cap=25, min_players=10)
    assert Bonuses().for_round([30, 20, 10], 30) == [0, 0, 0]  # fewer than ten players
    ten = [30, 20] + [0] * 8
    assert Bonuses().for_round(ten, 30) == [10, 5] + [0] * 8
    rounds = [(30, ten)] * 4
    assert [g[:2] for g in Bonuses().awarded(rounds)] == [[10, 5], [10, 5], [5, 5], [0, 5]]


NONE = Bonuses(master=0, runner_up=0)


def test_standings_by_total_with_bonuses():
    table = standings(["Ana", "Luis", "Eva"], [(50, [50, 40, 0]), (40, [0, 40, 40])], ALWAYS)
    # Round 1: Ana +10, Luis +5 (best below, alone). Round 2: two masters, nobody below.
    assert [(s.name, s.rank, s.points, s.bonus, s.total) for s in table] == [
        ("Luis", 1, 80, 5, 85), ("Ana", 2, 50, 10, 60), ("Eva", 3, 40, 0, 40)]
    assert table[0].percentage == pytest.approx(100 * 85 / 90) and table[0].master_total == 90
    assert table[0].to_dict()["percentage"] == 94.44


def test_equal_totals_more_masters_first():
    table = standings(["A", "B"], [(30, [30, 0]), (20, [20, 0]), (60, [0, 50])], NONE)
    assert [(s.name, s.rank, s.total, s.masters, s.best) for s in table] == [
        ("A", 1, 50, 2, 30), ("B", 2, 50, 0, 50)]  # B's best play does not count first


def test_equal_totals_and_masters_best_play_first():
    table = standings(["A", "B"], [(60, [40, 50]), (60, [40, 30])], NONE)
    assert [(s.name, s.rank, s.best) for s in table] == [("B", 1, 50), ("A", 2, 40)]


def test_equal_in_everything_a_shared_rank():
    table = standings(["A", "B", "C"], [(60, [40, 30, 40]), (60, [20, 30, 20])], NONE)
    assert [(s.name, s.rank) for s in table] == [("A", 1), ("C", 1), ("B", 3)]


# --- a whole game -------------------------------------------------------------------------------

def test_a_game_with_players(lex):
    game = Duplicate(["Ana", "Luis", "Eva"], seed=7, lexicon=lex, rounds=4, bonuses=ALWAYS)
    rnd = game.start_round()
    moves = movegen.generate(rnd.board, rnd.rack, lex)
    lower = next(c for c in moves if c.score < rnd.master.score)
    game.submit(0, rnd.master.move.notation(rnd.board))
    game.submit(1, lower.move.notation())
    game.submit(2, "H8 XYZ")
    game.submit(2, "paso")  # handed in again: the last one counts
    game.close_round()
    assert rnd.scores == [rnd.master.score, lower.score, 0] and game.awarded() == [[10, 5, 0]]
    assert rnd.results[2].reason == S.MISSING
    with pytest.raises(AtrilError, match="no hay ninguna ronda abierta"):
        game.submit(0, "H8 CASA")
    game.correct(1, 2, rnd.master.move.notation(rnd.board))  # the arbiter finds Eva's slip
    assert game.awarded() == [[0, 5, 0]]
    ranks = {s.name: (s.rank, s.total) for s in game.standings()}
    assert ranks["Ana"] == ranks["Eva"] == (ranks["Ana"][0], rnd.master.score)
    assert ranks["Luis"][1] == lower.score + 5
    while game.start_round() is not None:
        game.close_round()
    assert game.end == G.ROUNDS and len(game.rounds) == 4 and tiles_of(game) == list(T.COUNTS)
    text = game.to_text()
    assert "Ronda 1 · atril: A I M O T U Z" in text and "Maestra: H3 AZIMUT — 54" in text
    assert "Clasificación tras la ronda 3:" in text and "Clasificación final:" in text
    assert "sin jugada" in text and "Fin: se han jugado todas las rondas." in text
    again = Duplicate.from_dict(json.loads(json.dumps(game.to_dict())), lexicon=lex)
    assert again.to_dict() == game.to_dict() and again.board == game.board


def test_storage_is_checked_against_the_seed(lex):
    game = Duplicate(["Ana"], seed=7, lexicon=lex)
    game.start_round()
    game.override("H8 ZUMO")
    game.close_round()
    game.start_round()
    game.submit(0, "I8 A")
    data = game.to_dict()
    again = Duplicate.from_dict(data, lexicon=lex)
    assert again.current is not None and again.to_dict() == data  # an open round, reloaded
    wrong = json.loads(json.dumps(data))
    wrong["rounds"][0]["rack"] = "AEIOUST"
    with pytest.raises(AtrilError, match="la ronda 1 guardada no es la que dan la semilla"):
        Duplicate.from_dict(wrong, lexicon=lex)
    wrong = json.loads(json.dumps(data))
    wrong["rounds"][1]["master"]["move"] = "H8 OCA"
    with pytest.raises(AtrilError, match="la ronda 2 guardada"):
        Duplicate.from_dict(wrong, lexicon=lex)
    wrong = json.loads(json.dumps(data))
    del wrong["rounds"][0]["slips"]
    with pytest.raises(AtrilError, match="incompleta o mal formada"):
        Duplicate.from_dict(wrong, lexicon=lex)
    game.stop()
    assert game.end == G.ARBITER and len(game.rounds) == 1  # the open round is dropped
    assert tiles_of(game) == list(T.COUNTS)
    assert Duplicate.from_dict(game.to_dict(), lexicon=lex).to_dict() == game.to_dict()


def test_no_valid_play_ends_the_game():
    lexicon = Lexicon.from_words(["ñu"], id="PRUEBA")
    game = Duplicate(seed=1, lexicon=lexicon)
    assert game.start_round() is None and game.end == G.NO_PLAY
    assert len(game.rack) == 7 and tiles_of(game) == list(T.COUNTS)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2 ** 32), part=st.integers(0, 4), keep_leave=st.booleans())
def test_the_master_is_the_top_score_and_tiles_are_kept(seed, part, keep_leave):
    """Over seeded games, the master scores the most of every legal play (the reference
    generator's list, which shares no code with the engine) and the 100 tiles stay 100."""
    lexicon, words = small_lexicon(part), reference_words(part)
    game = Duplicate(seed=seed, lexicon=lexicon, keep_leave=keep_leave)
    while (rnd := game.start_round()) is not None:
        assert tiles_of(game) == list(T.COUNTS) and meets_rule(rnd.rack, rnd.number)
        found = reference.generate(rnd.board, rnd.rack, words)
        assert rnd.master.score == max(f.score for f in found)
        game.close_round()
    assert game.end in (G.BAG, G.NO_PLAY) and tiles_of(game) == list(T.COUNTS)


# --- atril duplicada ------------------------------------------------------------------------

def cli(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_the_json_lines():
    lines = [json.loads(line) for line in cli("duplicada", "--semilla", "7", "--rondas", "3",
                                               "--json").splitlines()]
    assert [list(line) for line in lines] == [["round", "rack", "redrawn", "master"]] * 3 + [
        ["end", "total"]]
    first = lines[0]
    assert first["round"] == 1 and first["rack"] == ["A", "I", "M", "O", "T", "U", "Z"]
    assert first["master"] == {"notation": "H3 AZIMUT", "score": 54, "placed": [
        ["H3", "A"], ["H4", "Z"], ["H5", "I"], ["H6", "M"], ["H7", "U"], ["H8", "T"]]}
    assert lines[-1] == {"end": "rounds", "total": sum(line["master"]["score"]
                                                       for line in lines[:-1])}
    # The master as ``atril moves --json`` writes that move.
    moves = json.loads(cli("moves", "--all", "--json", "--cgp", f"{EMPTY} AIMOTUZ/ 0/0 0"))
    assert first["master"] in [{k: m[k] for k in ("notation", "score", "placed")}
                               for m in moves["moves"]]


def test_a_whole_game_and_its_redraws(lex):
    seed = next(s for s in range(50) if _redraws(s, lex))
    lines = [json.loads(line) for line in cli("duplicada", "--semilla", str(seed),
                                               "--json").splitlines()]
    assert any(line.get("redrawn") for line in lines[:-1])
    assert lines[-1]["end"] in ("bag", "no_play") and len(lines) > 15
    assert all(len(line["rack"]) <= 7 and isinstance(line["rack"][0], str)
               for line in lines[:-1])
    text = cli("duplicada", "--semilla", str(seed))
    assert "(repetido)" in text and "Fin: " in text and "bolsa completa" in text


def _redraws(seed: int, lex: Lexicon) -> bool:
    game = Duplicate(seed=seed, lexicon=lex)
    while (rnd := game.start_round()) is not None:
        if rnd.redraws:
            return True
        game.close_round()
    return False


def test_docstring_examples():
    import doctest
    assert doctest.testmod(G).failed == 0
