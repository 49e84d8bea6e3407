"""Study searches (anagrams, buildable words, patterns, hooks, lists, probability) checked
against brute force over word lists, by tiles: CH, LL, RR and Ñ are one tile each."""

import json
import random
import re
from collections import Counter
from functools import partial
from itertools import combinations

import pytest
from click.testing import CliRunner

from atril import tiles as T
from atril import wordtools as W
from atril.cli import main
from atril.errors import InvalidTextError
from atril.kwg import Kwg
from atril.lexicon import Lexicon

CH, LL, RR, NY = T.code("CH"), T.code("LL"), T.code("RR"), T.code("Ñ")
HAND_MADE = ["chocho", "chacho", "ocho", "coche", "hoce", "choco", "charro", "carro", "caro",
             "llave", "lave", "valle", "calle", "año", "ano", "ña", "ñu", "un", "casa", "saca",
             "cosa", "ocas", "asa", "as", "sa", "ch", "rr", "zuzar", "perro", "pero", "erre"]


def tw(word: str) -> tuple[int, ...]:
    return T.tokenize_word(word)


@pytest.fixture(scope="module")
def es09() -> Lexicon:
    return Lexicon.load("ES09")


@pytest.fixture(scope="module")
def sample(es09) -> list[tuple[int, ...]]:
    """A seeded random subset of ES09 (every digraph word among them kept), plus hand-made."""
    rng = random.Random(2009)
    words = [w for w in es09.words() if rng.random() < 0.004]
    return sorted(set(words) | {tw(w) for w in HAND_MADE})


@pytest.fixture(scope="module")
def small(sample) -> Kwg:
    return Kwg.build(sample)


# --- brute force oracles --------------------------------------------------------------------

def brute_rack(words, rack, exact):
    """``words``: (word, its tile counts) pairs."""
    have = Counter(rack)
    blanks = have.pop(T.BLANK, 0)
    out = []
    for w, counts in words:
        if exact and len(w) != len(rack):
            continue
        short = sum(max(0, k - have[t]) for t, k in counts.items())
        if short <= blanks:
            out.append(w)
    return out


def check_designations(found, rack):
    """Real tiles come from the rack and blanks make up exactly the rest."""
    for f in found:
        real = Counter(t for t in f.tiles if not t & T.BLANK_BIT)
        assert not real - Counter(rack), f.word
        assert len(f.tiles) - sum(real.values()) <= rack.count(T.BLANK)


def random_rack(rng, words):
    """Mostly a shuffled word with some tiles blanked and maybe one extra, sometimes random."""
    if rng.random() < 0.8:
        rack = list(rng.choice(words))
        for _ in range(rng.randint(0, min(2, len(rack)))):
            rack[rng.randrange(len(rack))] = T.BLANK
        if rng.random() < 0.5:
            rack.append(rng.randint(1, T.NUM_LETTERS))
    else:
        bag = [t for t in range(T.ALPHABET_SIZE) for _ in range(T.COUNTS[t])]
        rack = rng.sample(bag, rng.randint(1, 8))
    rng.shuffle(rack)
    return tuple(rack)


def letter_char(t):
    return chr(0x40 + t)


def as_text(word):
    return "".join(letter_char(t) for t in word)


def brute_pattern(words, items, texts=None):
    """The words a regular expression built from the pattern items matches."""
    regex = "".join(
        ".*" if it == W.STAR else "[" + "".join(re.escape(letter_char(t)) for t in it) + "]"
        for it in items)
    rx = re.compile(regex + r"\Z", re.S)
    texts = texts or [as_text(w) for w in words]
    return [w for w, text in zip(words, texts) if rx.match(text)]


def random_items(rng, words):
    """Random pattern items, often cut from a real word so there are hits."""
    base = list(rng.choice(words))
    items = []
    for t in base:
        r = rng.random()
        if r < 0.4:
            items.append(frozenset({t}))
        elif r < 0.6:
            items.append(W._ALL_LETTERS)
        elif r < 0.75:
            items.append(frozenset({t} | set(rng.sample(range(1, T.ALPHABET_SIZE), 3))))
        elif r < 0.9:
            if not items or items[-1] != W.STAR:
                items.append(W.STAR)
        # else: drop the tile
    return items or [W.STAR]


def render(items):
    """Pattern text: tiles separated by commas (so a C before an H stays two tiles)."""
    parts = []
    for it in items:
        if it == W.STAR:
            parts.append("*")
        elif it == W._ALL_LETTERS:
            parts.append("?")
        elif len(it) == 1:
            parts.append(T.tile_to_human(next(iter(it))))
        else:
            parts.append("[" + ",".join(T.tile_to_human(t) for t in sorted(it)) + "]")
    return ",".join(parts)


# --- anagrams and buildable words -----------------------------------------------------------

@pytest.mark.parametrize("exact", [True, False])
def test_rack_searches_match_brute_force(sample, small, exact):
    rng = random.Random(40 + exact)
    counted = [(w, Counter(w)) for w in sample]
    for _ in range(200):
        rack = random_rack(rng, sample)
        found = W.anagrams(small, rack) if exact else W.buildable(small, rack, min_length=1)
        assert sorted(f.letters for f in found) == sorted(brute_rack(counted, rack, exact)), rack
        assert len({f.letters for f in found}) == len(found)  # each word once
        check_designations(found, rack)


def test_digraph_needs_its_own_tile(small):
    # CHOCHO is CH·O·CH·O: the bag has one CH, so only a blank can be the second one
    assert tw("chocho") == (CH, T.code("O"), CH, T.code("O"))
    assert [f.word for f in W.anagrams(small, "CH?OO")] == ["CHOcO", "CHOchO"]  # and CHOCO
    assert [f.blanks for f in W.anagrams(small, "CH?OO")] == [["C"], ["CH"]]
    c_h = (CH, T.code("O"), T.code("C"), T.code("H"), T.code("O"))  # CH, O and a loose C, H
    assert tw("chocho") not in {f.letters for f in W.buildable(small, c_h)}
    with pytest.raises(InvalidTextError, match="art. 3"):
        W.anagrams(small, "CHOCHO")  # two CH tiles do not exist


def test_rack_reading():
    assert W.parse_tiles("chaRRo?") == (CH, T.code("A"), RR, T.code("O"), T.BLANK)
    assert W.parse_tiles("C,H") == W.parse_tiles("[C][H]") == (T.code("C"), T.code("H"))
    assert W.parse_tiles("1 2 3") == W.parse_tiles("[CH][LL][RR]") == (CH, LL, RR)
    assert W.parse_tiles("ñandú") == (NY, T.code("A"), T.code("N"), T.code("D"), T.code("U"))
    for bad, message in [("kilo", "10.2"), ("cas@", "art. 3"), ("???", "comodines"), ("", "vacío"),
                         ("[ch", "falta"), ("a]", "sobra"), ("A" * 16, "15"), ("zz", "art. 3")]:
        with pytest.raises(InvalidTextError, match=re.escape(message)):
            W.parse_tiles(bad)


def test_two_blank_anagrams_on_es09(es09):
    found = W.anagrams(es09, "CHAVAL?")
    assert {f.word for f in found} >= {"CHAVALa"}
    assert all(f.letters in {w for w in [tw("chavala"), tw("chavola")]} for f in found)
    found = W.anagrams(es09, "AEIRST??")  # its speed is measured in bench/bench_wordtools.py
    rack = Counter(tw("aeirst"))
    expected = {w for w in es09.words() if len(w) == 8
                and sum((rack - Counter(w)).values()) == 0}  # the two blanks cover the rest
    assert {f.letters for f in found} == expected and len(expected) > 100
    for f in found[:50]:
        assert f.letters in es09 and len(f.tiles) == 8 and len(f.blanks) == 2


# --- patterns --------------------------------------------------------------------------------

def test_patterns_match_brute_force(sample, small):
    rng = random.Random(7)
    texts = [as_text(w) for w in sample]
    for _ in range(300):
        items = random_items(rng, sample)
        pat = W.Pattern.parse(render(items))
        assert list(pat.items) == items, render(items)
        expected = brute_pattern(sample, items, texts)
        assert [f.letters for f in W.pattern_words(small, pat)] == expected, render(items)
        assert [f.letters for f in W.pattern_words(small, pat, limit=3)] == expected[:3]


def test_pattern_reading():
    P = W.Pattern.parse
    assert P("?ach*").items == (W._ALL_LETTERS, {T.code("A")}, {CH}, W.STAR)
    assert P("*[AEIOU]RR?").items[1:3] == (frozenset(map(T.code, "AEIOU")), {RR})
    assert P("[ACH]").items == ({T.code("A"), CH},)
    assert P("[A,C,H]").items == ({T.code("A"), T.code("C"), T.code("H")},)
    assert P("[^AEIOU]").items == (W._ALL_LETTERS - set(map(T.code, "AEIOU")),)
    assert P("a**b").items == ({T.code("A")}, W.STAR, {T.code("B")})
    for bad in ["", "[", "[]", "k*", "ca$a", "?" * 16, "[^" + "]"]:
        with pytest.raises(InvalidTextError):
            P(bad)


def test_patterns_on_es09(es09):
    for text in ["?ACH*", "*[AEIOU]RR?", "*LL?", "CH*RR*"]:
        found = W.pattern_words(es09, text)  # speed: bench/bench_wordtools.py
        assert found and found == sorted(found, key=lambda f: f.letters)
        rx = W.Pattern.parse(text).items
        assert brute_pattern([f.letters for f in found], rx) == [f.letters for f in found]
    assert tw("bachata") in {f.letters for f in W.pattern_words(es09, "?ACH*")}
    assert tw("cachorro") in {f.letters for f in W.pattern_words(es09, "*[AEIOU]RR?")}


# --- hooks and lists -------------------------------------------------------------------------

def test_hooks_match_brute_force(sample, small):
    words = set(sample)
    rng = random.Random(3)
    for w in rng.sample(sample, 200) + [tw("aso"), tw("ocho"), (T.code("A"),)]:
        h = W.hooks(small, w)
        assert h.is_word == (w in words)
        assert h.front == tuple(t for t in range(1, T.ALPHABET_SIZE) if (t,) + w in words)
        assert h.back == tuple(t for t in range(1, T.ALPHABET_SIZE) if w + (t,) in words)
    assert W.hooks(small, "ocho").front == (CH,)  # CH·O·CH·O: a digraph hook


def test_lists_match_brute_force(sample, small):
    rng = random.Random(5)
    for _ in range(60):
        low = rng.randint(1, 6)
        high = low + rng.randint(0, 4)
        contains = tuple(rng.choice(sample)[:rng.randint(0, 2)])
        need = Counter(contains)
        expected = [w for w in sample if low <= len(w) <= high and not need - Counter(w)]
        found = W.word_list(small, min_length=low, max_length=high, contains=contains)
        assert [f.letters for f in found] == expected


def test_two_and_three_tile_words_on_es09(es09):
    two = W.word_list(es09, min_length=2, max_length=2)
    assert all(len(f.tiles) == 2 for f in two) and tw("ch") not in {f.letters for f in two}
    ranked = W.by_probability(W.word_list(es09, min_length=2, max_length=3))
    assert [f.rank for f in ranked if len(f.tiles) == 2] == list(range(1, len(two) + 1))
    probs = [f.probability for f in ranked if len(f.tiles) == 3]
    assert probs == sorted(probs, reverse=True)


# --- work budgets ---------------------------------------------------------------------------

def test_a_budget_cuts_a_search_short_and_says_so(sample, small):
    """Cut by nodes or by words, a search keeps what it found: a search that walks forwards
    (DAWG order), the first words of the whole answer; a backwards pattern, some of them."""
    rng = random.Random(12)
    cuts = 0
    for _ in range(300):
        kind = rng.choice(["pattern", "anagram", "build", "list"])
        if kind == "pattern":
            pat = W.Pattern(tuple(random_items(rng, sample)), "")
            search = partial(W.pattern_words, small, pat)
            forwards = not pat.better_backwards()
        elif kind == "list":
            search = partial(W.word_list, small, contains=rng.choice(sample)[:rng.randint(0, 2)])
            forwards = True
        elif kind == "anagram":
            search, forwards = partial(W.anagrams, small, random_rack(rng, sample)), True
        else:  # buildable sorts by length afterwards
            search = partial(W.buildable, small, random_rack(rng, sample), min_length=1)
            forwards = False
        whole = search()
        budget = W.Budget(rng.randint(1, 3000), rng.randint(1, 60))
        part = search(budget=budget)
        assert len(part) <= budget.max_words
        if not budget.cut:
            assert part == whole and budget.nodes > 0
            continue
        cuts += 1
        assert len(part) < len(whole) or budget.nodes >= budget.max_nodes
        assert set(part) <= set(whole)
        if forwards:
            assert part == whole[:len(part)]
    assert cuts > 50


# --- probability -----------------------------------------------------------------------------

BAG = [t for t in range(T.ALPHABET_SIZE) for _ in range(T.COUNTS[t])]


def brute_ways(word, blanks=True):
    """Every set of physical tiles (by position in the bag) that spells the word."""
    need = Counter(word)
    count = 0
    for draw in combinations(range(len(BAG)), len(word)):
        have = Counter(BAG[i] for i in draw)
        wild = have.pop(T.BLANK, 0) if blanks else 0
        if have.get(T.BLANK):
            continue
        if sum(max(0, k - have[t]) for t, k in need.items()) <= wild and not have - need:
            count += 1
    return count


@pytest.mark.parametrize("word", ["as", "ch", "rr", "zz", "ea", "aa", "ñu"])
def test_draw_ways_match_enumeration(word):
    tiles = tuple(T.code(c) for c in (["CH"] if word == "ch" else ["RR"] if word == "rr"
                                      else list(word.upper())))
    assert W.draw_ways(tiles) == brute_ways(tiles)
    assert W.draw_ways(tiles, blanks=False) == brute_ways(tiles, blanks=False)


def test_blanks_count_for_impossible_words():
    assert W.draw_ways(tw("chocho"), blanks=False) == 0
    # a blank as one CH (2 blanks × C(9,2) O pairs), or both blanks: as a CH and an O
    # (9 single O) or as both CH (C(9,2))
    assert W.draw_ways(tw("chocho")) == 2 * 36 + 9 + 36
    assert W.probability(tw("ea")) > W.probability(tw("ch")) > 0


# --- command line ----------------------------------------------------------------------------

def run(*args):
    return CliRunner().invoke(main, list(args))


def test_cli_searches_json():
    data = json.loads(run("anagram", "--json", "chaval?").output)
    assert data[0] == {"word": "CHAVALa", "tiles": 6, "blanks": ["A"]}
    data = json.loads(run("pattern", "--json", "--sort", "prob", "--limit", "3", "*[AEIOU]RR?"
                          ).output)
    assert [d["rank"] for d in data] == [1, 2, 3] and all(0 < d["probability"] < 1 for d in data)
    data = json.loads(run("build", "--json", "--limit", "0", "casa").output)
    assert [d["tiles"] for d in data] == sorted((d["tiles"] for d in data), reverse=True)
    data = json.loads(run("hooks", "--json", "casa").output)
    assert data == [{"word": "CASA", "tiles": 4, "valid": True, "front": [],
                     "back": data[0]["back"]}] and "S" in data[0]["back"]
    data = json.loads(run("list", "--json", "--length", "2", "--limit", "0").output)
    assert len(data) == len(W.word_list(Lexicon.load("ES09"), min_length=2, max_length=2))


def test_cli_text_and_limits():
    result = run("pattern", "--limit", "2", "?ACH*")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["BACHACA", "BACHACAS"]
    result = run("build", "chaval?")
    assert "6 fichas" in result.stdout


@pytest.mark.parametrize("args", [["anagram", "kiwi"], ["pattern", "[AE"], ["pattern", "c$"],
                                  ["hooks", "w"], ["list", "--length", "x"], ["list"],
                                  ["anagram", "???"], ["list", "--length", "3-2"],
                                  ["list", "--contains", "A" * 16]])
def test_cli_bad_input_is_a_message(args):
    result = run(*args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "error" in result.output
