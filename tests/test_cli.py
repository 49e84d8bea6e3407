"""The core commands: ``atril check``, ``atril score``, ``atril show`` (their names and JSON are
an API)."""

import json

import pytest
from click.testing import CliRunner

from atril.cli import main

EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_check_says_which_words_are_valid():
    result = run("check", "--json", "casa", "charro", "kiwi")
    assert result.exit_code == 1
    assert json.loads(result.output) == {"words": [
        {"word": "casa", "valid": True}, {"word": "charro", "valid": True},
        {"word": "kiwi", "valid": False}], "lexicon": "ES09"}
    assert run("check", "casa", "cása").exit_code == 0  # accents are ignored


def test_capitalised_words_are_checked_as_words():  # art. 11: case carries no meaning
    assert run("check", "Lluvia", "Chocho", "Charro").exit_code == 0
    assert run("judge", "Lluvia").output.strip() == "JUGADA CORRECTA"


def test_check_judge_never_says_which_word_failed():  # art. 40
    bad = run("check", "--judge", "casa", "xyzzy")
    assert bad.output.strip() == "jugada no válida" and "xyzzy" not in bad.output
    good = run("check", "--judge", "casa", "perro")
    assert good.output.strip() == "jugada correcta" and good.exit_code == 0


def test_score_json():  # art. 16, 19
    result = run("score", "--json", "--cgp", f"{EMPTY} AEIRSTN/ 0/0 0", "--move", "H2 ARESTIN")
    data = json.loads(result.output)
    assert result.exit_code == 0
    assert data["score"] == 66 and data["bingo"] is True
    assert data["words"] == [{"word": "ARESTIN", "score": 16}]
    assert data["placed"][0] == ["H2", "A"]


def test_score_illegal_play_exits_2_with_article():  # art. 6
    result = run("score", "--json", "--cgp", f"{EMPTY} AEIRSTN/ 0/0 0", "--move", "A1 ARESTIN")
    assert result.exit_code == 2
    assert json.loads(result.output)["article"] == "6"


def test_score_needs_the_tiles_on_the_rack():
    result = run("score", "--cgp", f"{EMPTY} AEIRSTN/ 0/0 0", "--move", "H8 ZETA")
    assert result.exit_code == 2 and "Z" in result.output


def test_score_with_digraphs_and_board_tiles():  # art. 11, 18
    cgp = "15/15/15/15/15/15/15/7CASA4/15/15/15/15/15/15/15 [CH]OEAS??/ 0/0 0"
    result = run("score", "--json", "--cgp", cgp, "--move", "8G CHC")
    # G8 CH above C on H8? CH·C is no word: it is scored all the same, exit 1 for the lexicon.
    data = json.loads(result.output)
    assert data["score"] == (5 + 3) and data["valid"] is False and result.exit_code == 1


@pytest.mark.parametrize("args", [
    ("show", "--cgp", "nonsense"),
    ("score", "--cgp", f"{EMPTY} A/ 0/0 0", "--move", "H8 K"),
    ("score", "--cgp", f"{EMPTY} A/ 0/0 0", "--move", "Q99 CASA"),
    ("check", "--lexicon", "/no/such/file.txt", "casa"),
])
def test_bad_input_is_a_message_not_a_traceback(args):
    result = run(*args)
    assert result.exit_code == 2
    assert result.output.startswith("error: ")
    assert isinstance(result.exception, SystemExit)  # exited on purpose, nothing raised


def test_show_prints_board_and_racks():
    result = run("show", "--cgp",
                 "15/15/15/15/15/15/15/7[CH]A[RR]O4/15/15/15/15/15/15/15 AB?/ 10/0 0")
    assert result.exit_code == 0
    assert "CH  A RR  O" in result.output and "A B ?" in result.output
