"""ES09 against the FISE *Reglamento de Léxico* (2009, v16): the errata loaded on top of the
published list (``src/atril/data/es09-errata.tsv``), the raw list beside it (``ES09-RAW``), and
the script that finds the errata in the rulebook's examples (``tools/lexicon_examples.py``)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from atril import lexicon as lexicon_module
from atril.lexicon import BUNDLED, Lexicon, bundled_words, errata
from atril.tiles import strip_accents, tokenize_word

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location(
        "lexicon_examples", ROOT / "tools" / "lexicon_examples.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_every_erratum_is_honoured_and_the_raw_list_differs():
    es09, raw = Lexicon.load("ES09"), Lexicon.load("ES09-RAW")
    fixes = errata("ES09")
    assert fixes and errata("ES09-RAW") == [] and "ES09-RAW" in BUNDLED
    for fix in fixes:
        assert (fix.word in es09) == (fix.action == "add"), fix
        assert (fix.word in raw) != (fix.word in es09), fix
    added = sum(fix.action == "add" for fix in fixes)
    assert es09.word_count == raw.word_count + added - (len(fixes) - added)
    assert len(bundled_words("ES09")) == es09.word_count  # the reference list has them too


def test_calentapies():  # Reglamento de Léxico 2009, art. 18.4.3: compounds in -piés
    assert "calentapiés" in Lexicon.load("ES09")
    assert "calentapiés" not in Lexicon.load("ES09-RAW")
    assert "calientapiés" in Lexicon.load("ES09")  # the other form was already there


def test_every_erratum_cites_the_article_whose_example_calls_for_it(tool):
    examples = {(strip_accents(e.word).lower(), e.article, e.verdict)
                for e in tool.read_examples()}
    for fix in errata("ES09"):
        assert re.fullmatch(r"\d{1,2}(\.\d{1,2})*", fix.article), fix
        assert fix.action in ("add", "remove"), fix
        verdict = tool.VALID if fix.action == "add" else tool.INVALID
        assert (fix.word, fix.article, verdict) in examples, fix


def test_the_errata_are_what_the_examples_and_the_raw_list_disagree_on(tool):
    examples = tool.read_examples()
    found = tool.compare(examples, Lexicon.load("ES09-RAW"))
    assert tool.errata_tsv(tool.errata(found)) == tool.ERRATA.read_text(encoding="utf-8")
    fixed = tool.compare(examples, Lexicon.load("ES09"))
    assert fixed.missing == [] and fixed.present == []
    assert len(fixed.agreeing) + len(fixed.unplayable) == len(examples) > 1000


def test_the_examples_are_what_the_script_reads_in_the_rulebook(tool):
    if not tool.TEXT.exists():
        pytest.skip(f"no está el texto del reglamento ({tool.TEXT})")
    text = tool.TEXT.read_text(encoding="utf-8")
    assert tool.examples_tsv(tool.examples(text)) == tool.EXAMPLES.read_text(encoding="utf-8")


def test_the_script_checks_its_files(tool, capsys):
    assert tool.main(["--check"]) == 0
    out = capsys.readouterr().out
    assert "ejemplos encontrados" in out and "desactualizado" not in out


def test_examples_the_script_reads(tool):
    """A few readings the script must get right: cut words joined, enclitics refused, the
    DRAE's feminine endings, a refusal of the plural that leaves the singular valid."""
    read = {(e.word, e.article): e.verdict for e in tool.read_examples()}
    assert read[("corredizo", "17.1")] == tool.VALID       # «cor redizo»: a cut word
    assert read[("cómetela", "17.5")] == tool.INVALID      # art. 17.5: enclitics
    assert read[("mana", "3")] == tool.VALID               # «mano, na»
    assert read[("ballet", "18.2.10")] == tool.VALID       # no plural, but the word is valid
    assert read[("caerse", "17.10")] == tool.INVALID       # «(no caerse)»
    assert ("bi", "14") not in read                        # an affix is no word


def test_the_errata_are_part_of_the_cache_key(tmp_path, monkeypatch):
    """A changed errata file makes ES09 another cache entry: rebuilt, never read stale."""
    monkeypatch.setenv("ATRIL_CACHE_DIR", str(tmp_path / "cache"))
    lexicon_module._LOADED.clear()
    before = Lexicon.load("ES09")
    data = lexicon_module._data
    monkeypatch.setattr(lexicon_module, "_data", lambda name: b"zuzuz\tadd\t1\n"
                        if name == BUNDLED["ES09"].errata else data(name))
    lexicon_module._LOADED.clear()
    try:
        after = Lexicon.load("ES09")
        assert "zuzuz" in after and "zuzuz" not in before
        assert "calentapiés" not in after and tokenize_word("calentapiés") in before
    finally:
        lexicon_module._LOADED.clear()
