"""The KWG word graph: format, lookup, GADDAG paths, and the C builder against the reference."""

from __future__ import annotations

import random
from array import array

import crafted_kwg as crafted
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atril import _kwg as _native
from atril import kwg as kwg_module
from atril.kwg import (
    ACCEPTS_BIT,
    ARC_MASK,
    IS_END_BIT,
    MAX_DEPTH,
    MAX_WORDS,
    SEPARATOR,
    TILE_SHIFT,
    Kwg,
    KwgError,
    Shape,
)
from atril.tiles import tokenize_word

Word = tuple[int, ...]

# Small alphabets make shared prefixes, suffixes and sibling-list tails likely.
small_lexicons = st.sets(
    st.lists(st.integers(1, 5), min_size=1, max_size=7).map(tuple), max_size=40)


def w(text: str) -> Word:
    return tokenize_word(text)


def gaddag_paths(kwg: Kwg) -> set[Word]:
    """Every accepting path of the GADDAG, read node by node."""
    out: set[Word] = set()

    def walk(first: int, prefix: Word) -> None:
        for i in kwg.siblings(first):
            path = prefix + (kwg.tile(i),)
            if kwg.node_accepts(i):
                out.add(path)
            if kwg.arc(i):
                walk(kwg.arc(i), path)

    walk(kwg.gaddag_root, ())
    return out


def expected_gaddag(words: set[Word]) -> set[Word]:
    """ci..c1 ^ ci+1..cn for i < n, and cn..c1 (docs/FORMATS.md §7)."""
    out = set()
    for word in words:
        n = len(word)
        out.add(word[::-1])
        for i in range(1, n):
            out.add(word[:i][::-1] + (SEPARATOR,) + word[i:])
    return out


WORDS = {w(t) for t in ("casa", "casas", "masa", "chacha", "charro", "ca", "as", "llave")}


@pytest.fixture(params=["native", "reference"])
def builder(request):
    return Kwg.build if request.param == "native" else Kwg.build_reference


def test_lookup_and_words(builder):
    kwg = builder(WORDS)
    for word in WORDS:
        assert kwg.accepts(word)
    for non_word in ("cas", "casass", "c", "chach", "rr"):
        assert not kwg.accepts(w(non_word))
    assert not kwg.accepts(())
    assert not kwg.accepts((300,))
    assert list(kwg.words()) == sorted(WORDS)


def test_gaddag_paths(builder):
    assert gaddag_paths(builder(WORDS)) == expected_gaddag(WORDS)


def test_digraph_tiles_are_not_letter_pairs():
    kwg = Kwg.build([w("chacha")])
    assert len(w("chacha")) == 4
    assert kwg.accepts(w("chacha"))
    assert not kwg.accepts((3, 9, 1, 3, 9, 1))  # C H A C H A as separate tiles


def test_root_nodes_and_node_layout():
    kwg = Kwg.build(WORDS)
    assert kwg.nodes[0] == IS_END_BIT | kwg.dawg_root
    assert kwg.nodes[1] == IS_END_BIT | kwg.gaddag_root
    tiles = [kwg.tile(i) for i in kwg.siblings(kwg.dawg_root)]
    assert tiles == sorted({word[0] for word in WORDS})
    for i in range(2, len(kwg)):
        assert kwg.arc(i) < len(kwg)
        assert kwg.nodes[i] >> 24 == kwg.tile(i)
        assert kwg.node_accepts(i) == bool(kwg.nodes[i] & ACCEPTS_BIT)
        assert kwg.is_end(i) == bool(kwg.nodes[i] & IS_END_BIT)


def test_helpers_follow_and_child():
    kwg = Kwg.build(WORDS)
    node = kwg.follow(w("cas"))
    assert node and kwg.tile(node) == w("s")[0] and not kwg.node_accepts(node)
    assert kwg.node_accepts(kwg.child(kwg.arc(node), w("a")[0]))
    assert kwg.follow(w("x")) == 0
    assert kwg.child(0, 1) == 0
    assert list(kwg.siblings(0)) == []
    # GADDAG: "sac^" then "a" completes "casa"
    node = kwg.follow(w("sac") + (SEPARATOR,), kwg.gaddag_root)
    assert kwg.node_accepts(kwg.child(kwg.arc(node), w("a")[0]))


def test_identical_suffixes_are_shared():
    kwg = Kwg.build([w("cama"), w("rama"), w("lama")])
    arcs = {kwg.arc(i) for i in kwg.siblings(kwg.dawg_root)}
    assert len(arcs) == 1  # c-, r-, l- all lead to the one "ama" list
    # a list that is the tail of another is stored inside it, not copied
    kwg = Kwg.build([w("ab"), w("ac"), w("bc")])
    a_node, b_node = kwg.siblings(kwg.dawg_root)
    assert kwg.arc(b_node) == kwg.arc(a_node) + 1


def test_empty_lexicon():
    kwg = Kwg.build([])
    assert len(kwg) == 2
    assert kwg.dawg_root == 0 and kwg.gaddag_root == 0
    assert list(kwg.words()) == []
    assert not kwg.accepts((1,))
    assert Kwg.build_reference([]).nodes == kwg.nodes


def test_bad_words_rejected():
    for bad in [(), (0,), (1, 256), ("a",)]:
        with pytest.raises(KwgError):
            Kwg.build([bad])
        with pytest.raises(KwgError):
            Kwg.build_reference([bad])
    with pytest.raises(KwgError):
        Kwg.build_blob(b"\x01\x00\x00\x02")


def test_bytes_and_file_round_trip(tmp_path):
    kwg = Kwg.build(WORDS)
    data = kwg.to_bytes()
    assert len(data) == 4 * len(kwg)
    assert data[:4] == (IS_END_BIT | kwg.dawg_root).to_bytes(4, "little")
    assert Kwg.from_bytes(data).nodes == kwg.nodes
    path = tmp_path / "x.kwg"
    kwg.write(path)
    assert Kwg.read(path).nodes == kwg.nodes
    assert memoryview(kwg.nodes).nbytes == len(data)  # the buffer the move generator reads


def test_malformed_bytes_rejected(tmp_path):
    with pytest.raises(KwgError):
        Kwg.from_bytes(b"\x00" * 6)
    with pytest.raises(KwgError):
        Kwg.from_bytes(b"\x00" * 4)
    nodes = array("I", Kwg.build(WORDS).nodes)
    nodes[3] = (nodes[3] & ~ARC_MASK) | (len(nodes) + 5)
    outside = f"el nodo 3 apunta fuera \\({len(nodes) + 5} ≥ {len(nodes)}\\)"
    with pytest.raises(KwgError, match=outside):
        Kwg.from_bytes(nodes.tobytes())
    nodes = array("I", Kwg.build(WORDS).nodes)
    nodes[-1] &= ~IS_END_BIT
    with pytest.raises(KwgError):
        Kwg.from_bytes(nodes.tobytes())
    with pytest.raises(KwgError):
        Kwg.read(tmp_path / "missing.kwg")
    with pytest.raises(KwgError):
        Kwg(array("H", [0, 0]))


def test_python_fallbacks_match_native(monkeypatch):
    kwg = Kwg.build(WORDS)
    native_words = list(kwg.words())
    monkeypatch.setattr(kwg_module, "_native", None)
    assert list(kwg.words()) == native_words
    assert all(kwg.accepts(word) for word in WORDS)
    assert not kwg.accepts(w("cas"))
    assert Kwg(array("I", kwg.nodes)).shape == kwg.shape  # checked by _check_python
    assert Kwg.build(WORDS).nodes == kwg.nodes


@settings(max_examples=300, deadline=None)
@given(small_lexicons)
def test_native_builder_equals_reference(words):
    native = Kwg.build(words)
    reference = Kwg.build_reference(words)
    assert native.nodes == reference.nodes
    assert set(native.words()) == words
    assert gaddag_paths(native) == expected_gaddag(words)


@settings(max_examples=100, deadline=None)
@given(small_lexicons)
def test_child_masks_find_every_child(words):
    """The move generator's one-step child lookup agrees with scanning the sibling list."""
    kwg = Kwg.build(words)
    masks = array("I", kwg.child_masks)
    assert masks.tobytes() == kwg_module._child_masks_python(kwg.nodes)
    assert masks[0] == 0
    arcs = {kwg.arc(i) for i in range(len(kwg)) if kwg.arc(i)}
    for arc in arcs:
        for tile in range(32):
            below = bin(masks[arc] & ((1 << tile) - 1)).count("1")
            expected = kwg.child(arc, tile)
            found = arc + below if masks[arc] >> tile & 1 else 0
            assert found == expected


def test_an_unsorted_list_is_refused():
    """The generator finds a child by counting the tiles below it in its list: a list out of
    order would send it to the wrong node."""
    kwg = Kwg.build([w("ab"), w("ac")])
    nodes = array("I", kwg.nodes)
    first = next(a for a in (kwg.arc(i) for i in range(len(kwg))) if a and not kwg.is_end(a))
    a, b = nodes[first], nodes[first + 1]
    nodes[first] = (b & ~IS_END_BIT) | (a & IS_END_BIT)
    nodes[first + 1] = (a & ~IS_END_BIT) | (b & IS_END_BIT)
    with pytest.raises(KwgError, match="desordenada"):
        Kwg(nodes)
    with pytest.raises(ValueError, match="desordenada"):
        kwg_module._check_python(nodes, True)
    tile_bits = 0xFF << TILE_SHIFT
    nodes[first + 1] = (nodes[first + 1] & ~tile_bits) | (nodes[first] & tile_bits)
    with pytest.raises(KwgError, match="desordenada"):  # the same tile twice
        Kwg(nodes)


def test_check_measures_the_graph():
    kwg = Kwg.build(WORDS)
    tiles = sum(len(word) for word in WORDS)
    assert kwg.shape == Shape(words=len(WORDS), tiles=tiles, longest=max(map(len, WORDS)),
                              gaddag_paths=tiles,
                              tile_set=sum(1 << t for t in set().union(*WORDS, {SEPARATOR})))
    assert kwg.has_gaddag
    empty = Kwg.build([]).shape
    assert (empty.words, empty.tiles, empty.longest, empty.gaddag_paths) == (0, 0, 0, 0)


@pytest.mark.parametrize("make, message", [
    (crafted.exponential, f"más de {MAX_WORDS} palabras"),
    (crafted.dead_paths, "no lleva a ninguna palabra"),
    (crafted.dead_end, "no lleva a ninguna palabra"),
    (crafted.cycle, "ciclo: el nodo 2 lleva de vuelta al nodo 2"),
    (crafted.too_deep, f"caminos de más de {MAX_DEPTH} fichas"),
    (crafted.gaddag_out_of_range, f"el nodo 1 apunta fuera \\({ARC_MASK} ≥"),
])
def test_unsafe_graphs_are_refused(make, message):
    """What each rule guards against, each also refused when the GADDAG's walk waits."""
    data = make()
    for check in (True, False):
        with pytest.raises(KwgError, match=message):
            Kwg.from_bytes(data, check=check)
    with pytest.raises(ValueError, match=message):
        kwg_module._check_python(array("I", data), True)


def test_the_limits_themselves_are_allowed():
    assert Kwg.from_bytes(crafted.chain(MAX_DEPTH)).shape.longest == MAX_DEPTH


def test_a_gaddag_that_does_not_match_its_dawg_is_refused():
    """A GADDAG made from the DAWG has one accepted path per tile of each word; one more, or
    one less, and the generator would play a word the DAWG lacks or miss one it holds."""
    nodes = crafted.gaddag_word_dropped(Kwg.build(WORDS))
    with pytest.raises(KwgError, match="el GADDAG no corresponde al DAWG"):
        Kwg(nodes)
    lazy = Kwg(nodes, check_gaddag=False)  # atril's own cache: the DAWG is checked now…
    assert lazy.shape.words == len(WORDS) and lazy.shape.gaddag_paths is None
    with pytest.raises(KwgError, match="el GADDAG no corresponde al DAWG"):
        _ = lazy.child_masks  # …the GADDAG before the generator walks it
    with pytest.raises(KwgError, match="el GADDAG no corresponde al DAWG"):
        _ = lazy.gaddag_root
    no_gaddag = array("I", nodes)
    no_gaddag[1] = IS_END_BIT  # a root pointer to nothing: no GADDAG to hold to the DAWG
    assert not Kwg(no_gaddag).has_gaddag


@settings(max_examples=300, deadline=None)
@given(small_lexicons, st.randoms(use_true_random=False))
def test_native_check_equals_reference(words, rng):
    """The C checker and its Python twin give the same verdict and measures, on graphs and on
    damaged graphs."""
    data = Kwg.build(words).to_bytes()
    for damaged in (data, crafted.mutate(rng, data), crafted.mutate(rng, data)):
        if len(damaged) % 4 or len(damaged) < 8:
            continue
        nodes = array("I", damaged)
        for gaddag in (False, True):
            try:
                native = _native.check(nodes, gaddag)
            except ValueError as exc:
                native = str(exc)
            try:
                python = kwg_module._check_python(nodes, gaddag)
            except ValueError as exc:
                python = str(exc)
            assert native == python


@settings(max_examples=100, deadline=None)
@given(small_lexicons, st.lists(st.integers(1, 6), min_size=1, max_size=8).map(tuple))
def test_accepts_exactly_the_words(words, probe):
    kwg = Kwg.build(words)
    assert kwg.accepts(probe) == (probe in words)
    assert kwg.follow(probe) != 0 or not any(x[:len(probe)] == probe for x in words)


def test_native_equals_reference_on_a_larger_lexicon():
    """Thousands of words: exercises the radix sort and hash table growth of the C builder."""
    rng = random.Random(2009)
    words = {tuple(rng.choice((1, 5, 6, 10, 15, 17, 20, 22, 4, 13, 21))
                   for _ in range(rng.randint(2, 15))) for _ in range(4000)}
    native = Kwg.build(words)
    assert native.nodes == Kwg.build_reference(words).nodes
    assert list(native.words()) == sorted(words)
