"""Lexicons: reading word lists (digraphs, accents, skipped lines), errors, and the caches."""

from __future__ import annotations

import gzip
import json
import os
import resource
import subprocess
import sys
import zlib

import crafted_kwg as crafted
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atril import lexicon as lexicon_module
from atril import movegen
from atril.board import Board
from atril.errors import InvalidTextError, LexiconError
from atril.kwg import ACCEPTS_BIT, ARC_MASK, IS_END_BIT, MAX_WORDS, Kwg, KwgError
from atril.lexicon import Lexicon, bundled_words, cache_dir
from atril.tiles import BLANK_BIT, tokenize_word


@pytest.fixture(autouse=True)
def fresh_caches(tmp_path, monkeypatch):
    """Every test gets its own disk cache and an empty process cache."""
    monkeypatch.setenv("ATRIL_CACHE_DIR", str(tmp_path / "cache"))
    lexicon_module._LOADED.clear()
    yield
    lexicon_module._LOADED.clear()


def write_list(tmp_path, name: str, lines: list[str], encoding: str = "utf-8"):
    path = tmp_path / name
    data = "\n".join(lines).encode(encoding)
    path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    return path


BASIC = ["casa", "casas", "chacha", "charro", "chocho", "llave", "ñandú", "Camión", "PERRO"]


def test_digraph_traps(tmp_path):
    lex = Lexicon.load(write_list(tmp_path, "mini.txt", BASIC))
    assert "chacha" in lex
    assert len(tokenize_word("chacha")) == 4
    assert lex.is_word(tokenize_word("chacha"))
    assert "chocho" in lex and "CHOCHO" in lex
    assert (3, 9, 17, 3, 9, 17) not in lex  # C-H-O-C-H-O as six tiles is no word
    assert not lex.is_word((3, 9, 17, 3, 9, 17))
    assert tokenize_word("charro") in lex
    assert list(tokenize_word("charro")) in lex
    assert "cha" not in lex
    assert 42 not in lex


def test_accents_stripped_and_enye_kept(tmp_path):
    lex = Lexicon.load(write_list(tmp_path, "mini.txt", BASIC))
    assert "camion" in lex and "camión" in lex and "CAMIÓN" in lex
    assert "ñandu" in lex and "Ñandú" in lex
    assert "nandu" not in lex
    assert "perro" in lex


def test_blanks_count_as_their_letter(tmp_path):
    lex = Lexicon.load(write_list(tmp_path, "mini.txt", BASIC))
    casa = tokenize_word("casa")
    assert lex.is_word((casa[0] | BLANK_BIT,) + casa[1:])
    assert not lex.is_word((999,))


def test_skipped_lines_are_counted_by_reason(tmp_path):
    lines = ["casa", "kilo", "Walter", "y", "ch", "",
             "abcdefghijabcdefg",  # 17 tiles
             "chchchchchchchchch",  # 18 letters but 9 tiles: kept
             "dos palabras", "123", "#comentario", "casa", "CASA", "casá"]
    lex = Lexicon.load(write_list(tmp_path, "raro.txt", lines))
    report = lex.report
    assert report.lines == len(lines)
    assert report.kept == lex.word_count == len(lex) == 2
    assert report.duplicates == 3
    assert report.skipped == {"k_w": 2, "one_tile": 2, "too_long": 1, "junk": 3}
    assert report.examples["k_w"] == ["kilo", "Walter"]
    assert report.examples["junk"] == ["dos palabras", "123", "#comentario"]
    text = str(report)
    assert "descartadas 2 con K o W" in text and "«kilo»" in text
    assert "chchchchchchchchch" in lex


def test_gz_and_latin1_lists(tmp_path):
    lex = Lexicon.load(write_list(tmp_path, "lista.txt.gz", BASIC))
    assert lex.id == "LISTA"
    assert "charro" in lex and "ñandu" in lex
    lex = Lexicon.load(write_list(tmp_path, "viejo.txt", ["camión", "ñoño"], encoding="latin-1"))
    assert "camion" in lex and "ñoño" in lex


def test_words_and_metadata(tmp_path):
    lex = Lexicon.load(write_list(tmp_path, "mini.txt", BASIC))
    assert lex.id == "MINI"
    assert lex.name == "mini.txt"
    assert sorted(lex.words()) == sorted(
        tokenize_word(word.lower()) for word in BASIC)
    assert repr(lex) == "<Lexicon MINI: 9 palabras>"


@pytest.mark.parametrize("content, message", [
    (b"", "vac"),
    (b"\x00\x01\x02binario\xff\xfe", "binario"),
    (b"\x1f\x8b\x08\x00roto", ".gz"),
    (b"kilo\nwifi\n1234\n", "ninguna palabra"),
])
def test_bad_files_give_lexicon_error(tmp_path, content, message):
    path = tmp_path / "malo.txt"
    path.write_bytes(content)
    with pytest.raises(LexiconError, match=message):
        Lexicon.load(path)


def test_missing_file_unknown_id_and_folder(tmp_path):
    with pytest.raises(LexiconError, match="no existe"):
        Lexicon.load(tmp_path / "nada.txt")
    with pytest.raises(LexiconError, match="desconocido.*ES09"):
        Lexicon.load("FILE2099")
    with pytest.raises(LexiconError, match="carpeta"):
        Lexicon.load(tmp_path)


def test_lexicon_passes_through_and_process_cache(tmp_path):
    path = write_list(tmp_path, "mini.txt", BASIC)
    lex = Lexicon.load(path)
    assert Lexicon.load(lex) is lex
    assert Lexicon.load(str(path)) is lex


def test_a_new_version_of_a_list_replaces_its_cache_file(tmp_path):
    path = write_list(tmp_path, "mini.txt", BASIC)
    Lexicon.load(path)
    other = Lexicon.load(write_list(tmp_path, "other.txt", BASIC))
    assert len(list(cache_dir().iterdir())) == 2
    lexicon_module._LOADED.clear()
    edited = Lexicon.load(write_list(tmp_path, "mini.txt", BASIC + ["zorro"]))
    assert edited.is_word(tokenize_word("zorro"))
    assert len(list(cache_dir().iterdir())) == 2  # the old mini.txt cache is gone, other's kept
    lexicon_module._LOADED.clear()
    assert Lexicon.load(tmp_path / "other.txt").kwg.nodes == other.kwg.nodes


def test_disk_cache_hit_without_rebuilding(tmp_path, monkeypatch, capsys):
    path = write_list(tmp_path, "mini.txt", BASIC)
    first = Lexicon.load(path)
    files = list(cache_dir().iterdir())
    assert len(files) == 1 and files[0].name.startswith("lexicon-")
    lexicon_module._LOADED.clear()

    def no_build(*args, **kwargs):
        raise AssertionError("the cache should have been used")

    monkeypatch.setattr(Kwg, "build_blob", no_build)
    second = Lexicon.load(path)
    assert second is not first
    assert second.kwg.nodes == first.kwg.nodes
    assert second.report == first.report
    assert (second.id, second.name, second.word_count) == (first.id, first.name, first.word_count)
    assert capsys.readouterr() == ("", "")


def test_changed_list_is_rebuilt(tmp_path):
    path = write_list(tmp_path, "mini.txt", BASIC)
    assert "perro" in Lexicon.load(path)
    path.write_text("gato\nratón\n", encoding="utf-8")
    os.utime(path, ns=(1, 1))
    lex = Lexicon.load(path)
    assert "gato" in lex and "perro" not in lex


@pytest.mark.parametrize("damage", [
    lambda data: b"garbage",
    lambda data: data[:len(data) // 2],
    lambda data: data[:-1] + bytes([data[-1] ^ 0x40]),
])
def test_corrupted_cache_is_rebuilt(tmp_path, damage):
    path = write_list(tmp_path, "mini.txt", BASIC)
    good = Lexicon.load(path)
    (cache_file,) = cache_dir().iterdir()
    cache_file.write_bytes(damage(cache_file.read_bytes()))
    lexicon_module._LOADED.clear()
    again = Lexicon.load(path)
    assert again.kwg.nodes == good.kwg.nodes
    assert "chacha" in again
    lexicon_module._LOADED.clear()
    assert Lexicon.load(path).kwg.nodes == good.kwg.nodes  # the cache file was rewritten


def test_unwritable_cache_is_skipped(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv("ATRIL_CACHE_DIR", str(blocker / "cache"))
    assert "casa" in Lexicon.load(write_list(tmp_path, "mini.txt", BASIC))


def test_from_words():
    lex = Lexicon.from_words(["Chacha", "kilo", "casa"], id="PRUEBA")
    assert lex.id == "PRUEBA" and len(lex) == 2
    assert "chacha" in lex and "kilo" not in lex
    with pytest.raises(LexiconError):
        Lexicon.from_words(["k", "w"])


@given(st.text(alphabet="abcdehlnorsñz", min_size=1, max_size=20))
def test_fast_reading_matches_tokenize_word(word):
    fast = lexicon_module._simple_tiles(word)
    assert tuple(c - lexicon_module._OFFSET for c in fast) == tokenize_word(word)


def test_bundled_es09():
    lex = Lexicon.load("ES09")
    assert Lexicon.load("es09") is lex
    assert lex.id == "ES09" and Lexicon.load("ES09-RAW").word_count == 636_598  # as published
    for word in ("casa", "charro", "chacha", "chocho", "ñandú", "zuzar", "lluvia"):
        assert word in lex, word
    for word in ("nandu", "casaw", "xyzzy", "chach"):
        assert word not in lex, word
    assert (3, 9, 17, 3, 9, 17) not in lex
    assert len(lex.kwg) < 0x400000


def test_compiled_kwg_file(tmp_path):
    path = tmp_path / "FILE2017.kwg"
    Kwg.build(tokenize_word(word) for word in ("charro", "casa", "lluvia")).write(path)
    lex = Lexicon.load(path)
    assert lex.id == "FILE2017" and len(lex) == 3
    assert "charro" in lex and "casas" not in lex
    (tmp_path / "roto.kwg").write_bytes(b"\x01\x02\x03")
    with pytest.raises(LexiconError, match="KWG"):
        Lexicon.load(tmp_path / "roto.kwg")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="aAáchlLrñÑkw ü1", max_size=8), max_size=30))
def test_reading_a_list_is_tokenize_word_per_line(lines):
    """The fast whole-text reading keeps exactly what tokenize_word would, line by line."""
    expected = set()
    for line in lines:
        try:
            tiles = tokenize_word(line.strip().lower())
        except InvalidTextError:
            continue
        if 2 <= len(tiles) <= 15:
            expected.add(tiles)
    if not expected:
        with pytest.raises(LexiconError):
            Lexicon.from_words(lines)
        return
    lex = Lexicon.from_words(lines)
    assert set(lex.words()) == expected
    report = lex.report
    assert report.kept == len(expected)
    assert report.kept + report.duplicates + sum(report.skipped.values()) == sum(
        1 for line in lines if line.strip())


def test_same_words_under_two_names(tmp_path):
    first = Lexicon.load(write_list(tmp_path, "uno.txt", BASIC))
    second = Lexicon.load(write_list(tmp_path, "dos.txt", BASIC))
    assert (first.id, second.id) == ("UNO", "DOS")
    assert second.report.source.endswith("dos.txt")


def load_in_child(path, tmp_path) -> str:
    """``Lexicon.load(path)`` in a child process with 1 GiB of memory and a minute: a crash,
    a MemoryError or a hang fails the test, not the test run. What it printed: the
    LexiconError's message."""
    code = ("import sys\nfrom atril.errors import LexiconError\nfrom atril.lexicon import Lexicon\n"
            "try:\n    Lexicon.load(sys.argv[1])\nexcept LexiconError as exc:\n    print(exc)\n")
    limit = (1 << 30, 1 << 30)
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                         text=True, timeout=60, check=False,
                         preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, limit),
                         env=dict(os.environ, ATRIL_CACHE_DIR=str(tmp_path / "cache")))
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


@pytest.mark.parametrize("make, message", [
    (crafted.exponential, f"más de {MAX_WORDS} palabras"),  # was a MemoryError (or OOM kill)
    (crafted.dead_paths, "no lleva a ninguna palabra"),  # was a hang
    (crafted.cycle, "ciclo"),  # was a bare ValueError
])
def test_crafted_kwg_files_give_lexicon_error(tmp_path, make, message):
    path = tmp_path / "malo.kwg"
    path.write_bytes(make())
    out = load_in_child(path, tmp_path)
    assert f"«{path}» no es un archivo KWG válido" in out and message in out


def test_kwg_files_the_engine_cannot_use(tmp_path):
    def refused(kwg_bytes: bytes, message: str) -> None:
        path = tmp_path / "x.kwg"
        path.write_bytes(kwg_bytes)
        lexicon_module._LOADED.clear()
        with pytest.raises(LexiconError, match=message):
            Lexicon.load(path)

    refused(crafted.chain(3), "no tiene GADDAG")  # a DAWG with an empty GADDAG root
    # wolges' DAWG-only layout: no GADDAG root, the DAWG's root list from node 1
    nodes = crafted.unpack(Kwg.build([tokenize_word("casa")]).to_bytes())
    refused(crafted.pack([n - 1 if n & ARC_MASK else n for n in nodes[:1] + nodes[2:]]),
            "no tiene GADDAG")
    refused(Kwg.build([(1, 30), (31, 2)]).to_bytes(), r"alfabeto español \(1..28\): 30, 31")
    zero = crafted.unpack(Kwg.build([(1, 2)]).to_bytes())
    zero[zero[0] & ARC_MASK] &= ARC_MASK | IS_END_BIT | ACCEPTS_BIT  # DAWG tile 1 becomes 0
    refused(crafted.pack(zero), "ficha 0")
    refused(Kwg.build([]).to_bytes(), "ninguna palabra")


def cache_file_with(nodes: bytes, word_count: int) -> bytes:
    """A cache file as atril writes one (so its checksum holds) around any nodes."""
    meta = json.dumps({"id": "MINI", "name": "mini.txt", "word_count": word_count,
                       "report": {"source": "mini.txt"}}).encode()
    body = meta + nodes
    return lexicon_module._HEADER.pack(lexicon_module._CACHE_MAGIC, lexicon_module.CACHE_VERSION,
                                       len(meta), zlib.crc32(body)) + body


def test_a_cache_file_is_checked_too(tmp_path):
    """A cache file whose checksum holds is still checked: what walks rely on when it is
    read (else it is rebuilt), its GADDAG before the move generator walks it."""
    path = write_list(tmp_path, "mini.txt", BASIC)
    good = Lexicon.load(path)
    (cache_file,) = cache_dir().iterdir()
    for nodes, count in [(crafted.cycle(), 1), (crafted.exponential(), 2),
                         (good.kwg.to_bytes(), len(good) + 1)]:
        cache_file.write_bytes(cache_file_with(nodes, count))
        lexicon_module._LOADED.clear()
        assert Lexicon.load(path).kwg.nodes == good.kwg.nodes  # rebuilt
    nodes = crafted.gaddag_word_dropped(good.kwg)
    cache_file.write_bytes(cache_file_with(nodes.tobytes(), len(good)))
    lexicon_module._LOADED.clear()
    lex = Lexicon.load(path)
    assert "chacha" in lex and list(lex.words()) == list(good.words())
    with pytest.raises(KwgError, match="el GADDAG no corresponde al DAWG"):
        movegen.generate(Board(), tokenize_word("casa"), lex)


def test_bundled_words_are_read_from_the_text():
    words = bundled_words("ES09")
    assert len(words) == Lexicon.load("ES09").word_count and words == sorted(words)
    assert tokenize_word("chacha") in words
    with pytest.raises(LexiconError, match="desconocido"):
        bundled_words("FILE2099")
