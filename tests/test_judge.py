"""The challenge judge (art. 39–40): one verdict for the whole play, never which word failed;
the judgment log; ``atril judge``."""

import json

import pytest
from click.testing import CliRunner

from atril.cli import main
from atril.errors import InvalidTextError
from atril.judge import JudgmentLog, judge, split_words
from atril.lexicon import Lexicon

CORRECT, INVALID = "JUGADA CORRECTA", "JUGADA NO VÁLIDA"  # art. 40

WORDS = ["casa", "perro", "charro", "llave", "año", "chocho"]


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.from_words(WORDS, id="PRUEBA")


def test_capitalised_words_keep_their_digraphs(lexicon):  # art. 11
    assert judge(lexicon, ["Llave", "Chocho", "Charro"]).valid
    assert judge(lexicon, ["LLave", "CHOCHO"]).valid


def test_verdicts(lexicon):
    assert judge(lexicon, ["casa"]).verdict == CORRECT
    assert judge(lexicon, ["CASA", "Perro", "chárro", "AÑO"]).valid  # case and accents ignored
    assert judge(lexicon, ["casa", "cosa"]).verdict == INVALID
    assert not judge(lexicon, ["ano"]).valid  # ñ is its own letter


def test_same_answer_whichever_word_fails(lexicon):  # art. 40
    answers = {json.dumps(judge(lexicon, play).to_json()) for play in [
        ["xx", "casa", "perro"], ["casa", "xx", "perro"], ["casa", "perro", "xx"],
        ["kiwi", "casa"], ["casa", "c@sa"], ["xx", "yy"]]}
    assert answers == {json.dumps({"verdict": INVALID, "valid": False})}


def test_judgment_says_nothing_per_word(lexicon):
    data = judge(lexicon, ["casa", "xx"]).to_json()
    assert set(data) == {"verdict", "valid"} and "xx" not in json.dumps(data)


def test_digraphs_are_tiles(lexicon):
    assert judge(lexicon, ["CHOCHO", "LLAVE"]).valid
    assert not judge(lexicon, ["[C][H]OCHO"]).valid  # C and H as two tiles spell nothing here


def test_no_words_is_an_error(lexicon):
    with pytest.raises(InvalidTextError):
        judge(lexicon, [])
    with pytest.raises(InvalidTextError):
        judge(lexicon, ["  "])
    with pytest.raises(InvalidTextError):
        judge(lexicon, ["casa"] * 17)


def test_split_words():
    assert split_words(" casa, perro;charro  llave\n") == ("casa", "perro", "charro", "llave")
    assert split_words("   ") == ()


def test_log(lexicon, tmp_path):
    log = JudgmentLog(tmp_path / "juez.jsonl", "PRUEBA")
    log.record(judge(lexicon, ["casa", "perro"]))
    log.record(judge(lexicon, ["casa", "xx"]))
    entries = log.read()
    assert [e["verdict"] for e in entries] == [CORRECT, INVALID]
    assert entries[1]["words"] == ["casa", "xx"] and entries[1]["lexicon"] == "PRUEBA"
    assert entries[0]["time"].endswith("+00:00")


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_cli_one_judgment(tmp_path):
    ok = run("judge", "casa", "perro")
    assert ok.exit_code == 0 and ok.output.strip() == CORRECT
    bad = run("judge", "--json", "casa", "xyzzy")
    assert bad.exit_code == 1
    assert json.loads(bad.output) == {"verdict": INVALID, "valid": False}
    assert "xyzzy" not in bad.output
    assert run("judge", "kiwi").output.strip() == INVALID  # a K is simply no word


def test_cli_loop_and_log(tmp_path):
    path = tmp_path / "juez.jsonl"
    result = run("judge", "--log", str(path), input="casa perro\n\ncasa, xyzzy\n")
    assert result.exit_code == 0
    assert result.output.split("\n")[:2] == [CORRECT, INVALID]
    entries = [json.loads(line) for line in path.read_text().splitlines()]
    assert [e["words"] for e in entries] == [["casa", "perro"], ["casa", "xyzzy"]]
    assert entries[0]["lexicon"] == "ES09"


def test_cli_custom_lexicon(tmp_path):
    words = tmp_path / "lista.txt"
    words.write_text("zzz\ncasa\n")
    assert run("judge", "--lexicon", str(words), "casa").exit_code == 0
    assert run("judge", "--lexicon", str(words), "perro").exit_code == 1
    missing = run("judge", "--lexicon", str(tmp_path / "no.txt"), "casa")
    assert missing.exit_code == 2 and "Traceback" not in missing.output
