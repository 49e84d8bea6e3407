"""Study searches over a lexicon, by tiles: anagrams, buildable words, patterns, hooks, lists.

Everything works on tiles (CH, LL, RR and Ñ are one tile each) and walks the lexicon's word
graph (``atril.kwg``) instead of scanning the word list, so a two-blank anagram or a pattern
over all of ES09 answers in milliseconds.

How text is read here (study input, typed by a person):

- Letters read as in words: ``ch``, ``ll``, ``rr`` are the digraph tiles, accents are ignored,
  ``ñ`` is its own tile. The digits ``1 2 3`` and ``[CH] [LL] [RR]`` also name the digraphs.
  To mean C and H as two tiles, split them: ``C,H``, ``C H`` or ``[C][H]``.
- A rack may hold ``?`` for a blank (at most two, as the bag has) and no more copies of a tile
  than the bag holds (art. 3).
- A pattern: ``?`` is exactly one tile, ``*`` any run of tiles (also none), ``[AEIOU]`` one tile
  of a set and ``[^AEIOU]`` one tile not in it. Inside a set, items read as in words and may be
  separated by commas: ``[ACH]`` is A or CH, ``[A,C,H]`` is A, C or H.

Probability is the chance of drawing the word's tiles from the full 100-tile bag, exactly:
the number of sets of ``n`` physical tiles that can spell the word divided by C(100, n). The two
blanks count as wildcards by default (as Zyzzyva does), which also gives a chance to words the
bag cannot spell without them (CHOCHO needs two CH). Ranks compare words of the same length.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING, NamedTuple, Union

from . import tiles as T
from .errors import InvalidTextError
from .i18n import _
from .kwg import ACCEPTS_BIT, ARC_MASK, IS_END_BIT, Kwg

if TYPE_CHECKING:
    from .lexicon import Lexicon

Source = Union["Lexicon", Kwg]

#: longest rack or pattern a search takes (a line of the board).
MAX_TILES = 15
MAX_BLANKS = T.BLANK_COUNT
_DIGRAPHS = {"CH": T.code("CH"), "LL": T.code("LL"), "RR": T.code("RR")}
_ALIASES = {"1": T.code("CH"), "2": T.code("LL"), "3": T.code("RR")}
_SEPARATORS = " ,.;\t"
_ALL_LETTERS = frozenset(range(1, T.ALPHABET_SIZE))


def kwg_of(source: Source) -> Kwg:
    """The word graph of a lexicon (or the graph itself): every search walks it."""
    return source if isinstance(source, Kwg) else source.kwg


@dataclass
class Budget:
    """A cap on the work of one search, for searches anyone may type (the web's study page).

    ``max_nodes`` graph nodes visited bounds the walk; ``max_words`` words kept bounds what
    keeping, sorting and ranking them costs afterwards. A search given a budget stops when
    either runs out and returns what it found so far (for a search that walks forwards, the
    first words in alphabetical order); without one it runs to the end. One budget per search:
    the search fills in ``nodes`` and ``cut``.
    """

    max_nodes: int
    max_words: int
    #: graph nodes the search visited (in the sibling lists it walked to the end).
    nodes: int = 0
    #: True if the search stopped before the end for lack of budget: there may be more words.
    cut: bool = False


def _caps(budget: Budget | None) -> tuple[int, int]:
    """The most nodes and words a search may use; no limit without a budget."""
    return (sys.maxsize, sys.maxsize) if budget is None else (budget.max_nodes, budget.max_words)


class _OutOfBudget(Exception):
    """Stops a walk whose budget ran out."""


# --- results ---------------------------------------------------------------------------------

class Found(NamedTuple):
    """A word found by a search. Blanks are tiles with ``BLANK_BIT`` set (shown lower case).

    A named tuple: searches make hundreds of thousands of these, and tuples are cheap to make.
    """

    tiles: tuple[int, ...]
    #: rank by probability among the results of the same length (1 = likeliest), once ranked.
    rank: int | None = None
    #: the chance of drawing its tiles from a full bag, once ranked (see ``probability``).
    probability: float | None = None

    @property
    def word(self) -> str:
        """Human form: digraphs as ``CH``, blanks lower case (``CHAvAL``)."""
        return T.to_human(self.tiles)

    @property
    def letters(self) -> tuple[int, ...]:
        """The letters the word shows, blanks resolved."""
        return tuple(T.letter_of(t) for t in self.tiles)

    @property
    def blanks(self) -> list[str]:
        """What each blank stands for, in word order."""
        return [T.TILES[T.letter_of(t) - 1].letter for t in self.tiles if t & T.BLANK_BIT]

    def to_json(self) -> dict:
        data: dict = {"word": self.word, "tiles": len(self.tiles)}
        if self.rank is not None:
            data["rank"] = self.rank
            data["probability"] = self.probability
        if any(t & T.BLANK_BIT for t in self.tiles):
            data["blanks"] = self.blanks
        return data


# --- reading input -----------------------------------------------------------------------

def _read_letters(text: str, where: str) -> list[int]:
    """Tiles of a run of letters read as a word (greedy digraphs, digit aliases, separators)."""
    out: list[int] = []
    i, n = 0, len(text)
    while i < n:
        pair = text[i:i + 2]
        ch = text[i]
        if pair in _DIGRAPHS:
            out.append(_DIGRAPHS[pair])
            i += 2
            continue
        if ch in _ALIASES:
            out.append(_ALIASES[ch])
        elif ch in "KW":
            raise InvalidTextError(
                _("«{text}»: la {letter} no existe en el Scrabble en español, ni como comodín "
                  "(art. 10.2)").format(text=where, letter=ch))
        elif ch.isalpha() and ch in _LETTERS:
            out.append(_LETTERS[ch])
        elif ch not in _SEPARATORS:
            raise InvalidTextError(_("«{text}»: «{piece}» no es una ficha del juego español "
                                     "(art. 3)").format(text=where, piece=ch))
        i += 1
    return out


_LETTERS = {t.letter: t.code for t in T.TILES if len(t.letter) == 1}


def _normalize(text: str) -> str:
    if not isinstance(text, str):
        raise InvalidTextError(_("se esperaba un texto"))
    return T.strip_accents(text.strip()).upper()


def _read_set(inner: str, where: str) -> frozenset[int]:
    negated = inner.startswith("^")
    members = frozenset(_read_letters(inner[1:] if negated else inner, where))
    if not members:
        raise InvalidTextError(_("«{text}»: el conjunto «[{inner}]» está vacío").format(
            text=where, inner=inner))
    return _ALL_LETTERS - members if negated else members


def _split_brackets(text: str, where: str) -> Iterator[tuple[str, str]]:
    """Pieces of text: ("set", inner) for ``[...]``, ("text", run) for the rest."""
    i = 0
    while i < len(text):
        if text[i] == "[":
            end = text.find("]", i)
            if end < 0:
                raise InvalidTextError(_("«{text}»: falta «]»").format(text=where))
            yield "set", text[i + 1:end]
            i = end + 1
        else:
            end = text.find("[", i)
            end = len(text) if end < 0 else end
            if "]" in text[i:end]:
                raise InvalidTextError(_("«{text}»: sobra «]»").format(text=where))
            yield "text", text[i:end]
            i = end


def parse_tiles(text: str) -> tuple[int, ...]:
    """Tiles typed for a search (``?`` = blank), read like a word: ``CH`` is the digraph tile
    (a game rack reads CH as two tiles: ``atril.rack.parse_rack``); see the module docstring."""
    where = text
    text = _normalize(text)
    tiles: list[int] = []
    for kind, piece in _split_brackets(text, where):
        if kind == "set":
            one = _read_letters(piece, where)
            if len(one) != 1:
                raise InvalidTextError(
                    _("«{text}»: entre corchetes va una sola ficha, como [CH]").format(text=where))
            tiles.extend(one)
            continue
        for chunk in piece.split("?"):
            tiles.extend(_read_letters(chunk, where))
            tiles.append(T.BLANK)
        tiles.pop()
    if not tiles:
        raise InvalidTextError(_("el atril está vacío"))
    if len(tiles) > MAX_TILES:
        raise InvalidTextError(_("«{text}»: como mucho {most} fichas, no {tiles}").format(
            text=where, most=MAX_TILES, tiles=len(tiles)))
    for t in set(tiles):
        have = tiles.count(t)
        if have > T.COUNTS[t]:
            message = (_("«{text}»: {count} comodines, pero la bolsa solo tiene {most} (art. 3)")
                       if t == T.BLANK else
                       _("«{text}»: {count} {tile}, pero la bolsa solo tiene {most} (art. 3)"))
            raise InvalidTextError(message.format(text=where, count=have,
                                                  tile=T.tile_to_human(t), most=T.COUNTS[t]))
    return tuple(tiles)


def parse_word(text: str) -> tuple[int, ...]:
    """Tiles of a word typed for a search (hooks, "contains"): no blanks, no wildcards."""
    where = text
    text = _normalize(text)
    tiles: list[int] = []
    for kind, piece in _split_brackets(text, where):
        one = _read_letters(piece, where)
        if kind == "set" and len(one) != 1:
            raise InvalidTextError(
                _("«{text}»: entre corchetes va una sola ficha, como [CH]").format(text=where))
        tiles.extend(one)
    if not tiles:
        raise InvalidTextError(_("«{text}»: no hay fichas").format(text=where))
    return tuple(tiles)


STAR = -1  # a pattern item matching any run of tiles


@dataclass(frozen=True)
class Pattern:
    """A parsed pattern: a tuple of items, each a frozenset of tiles (one tile) or ``STAR``."""

    items: tuple[frozenset[int] | int, ...]
    text: str

    @classmethod
    def parse(cls, text: str) -> Pattern:
        where = text
        norm = _normalize(text)
        items: list[frozenset[int] | int] = []
        for kind, piece in _split_brackets(norm, where):
            if kind == "set":
                items.append(_read_set(piece, where))
                continue
            run = ""
            for ch in piece + "\0":
                if ch in "?*\0":
                    items.extend(frozenset({t}) for t in _read_letters(run, where))
                    run = ""
                    if ch == "?":
                        items.append(_ALL_LETTERS)
                    elif ch == "*" and (not items or items[-1] != STAR):
                        items.append(STAR)
                else:
                    run += ch
        if not items:
            raise InvalidTextError(_("el patrón está vacío"))
        if sum(1 for it in items if it != STAR) > MAX_TILES:
            raise InvalidTextError(_("«{text}»: el patrón pide más de {most} fichas").format(
                text=where, most=MAX_TILES))
        return cls(tuple(items), where)

    def reversed(self) -> Pattern:
        return Pattern(self.items[::-1], self.text)

    def _anchor(self, items: Iterable[frozenset[int] | int]) -> float:
        """How much the fixed items at one end narrow a search (more = better start there)."""
        score = 0.0
        for it in items:
            if isinstance(it, int):  # STAR
                break
            score += 1 + (T.NUM_LETTERS - len(it)) / T.NUM_LETTERS
        return score

    def better_backwards(self) -> bool:
        """True if the pattern's end pins more than its start (``*ARRO`` vs ``CH*``)."""
        return self._anchor(reversed(self.items)) > self._anchor(self.items)


class _Matcher:
    """The pattern as an NFA over tiles: states are item positions, as bit masks."""

    def __init__(self, pattern: Pattern) -> None:
        self.items = pattern.items
        self.final = 1 << len(self.items)
        self.masks = [0 if isinstance(it, int) else sum(1 << t for t in it) for it in self.items]
        self.start = self._close(1)
        self._rows: dict[int, list[int]] = {}

    def _close(self, states: int) -> int:
        for i, it in enumerate(self.items):
            if it == STAR and states >> i & 1:
                states |= 1 << (i + 1)
        return states

    def row(self, states: int) -> list[int]:
        """The next state set for every tile code (0, the GADDAG separator, leads nowhere)."""
        row = self._rows.get(states)
        if row is None:
            row = [0] * T.ALPHABET_SIZE
            for tile in range(1, T.ALPHABET_SIZE):
                out = 0
                for i, mask in enumerate(self.masks):
                    if states >> i & 1:
                        if self.items[i] == STAR:
                            out |= 1 << i
                        elif mask >> tile & 1:
                            out |= 1 << (i + 1)
                row[tile] = self._close(out)
            self._rows[states] = row
        return row


# --- searches --------------------------------------------------------------------------------

def _counts(rack: Iterable[int]) -> list[int]:
    counts = [0] * T.ALPHABET_SIZE
    for t in rack:
        counts[t] += 1
    return counts


def _rack_words(kwg: Kwg, rack: tuple[int, ...], *, exact: bool, min_length: int = 1,
                budget: Budget | None = None) -> list[Found]:
    """Words spelt with tiles of the rack (all of them if ``exact``, else at least
    ``min_length``), blanks designated, in alphabetical (tile) order.

    A real tile is always tried before a blank for the same letter, so each word comes once,
    with its blanks on the last copies of their letters (swapping never loses a word).
    """
    nodes = kwg.nodes
    counts = _counts(rack)
    blanks = counts[T.BLANK]
    total = len(rack)
    found: list[Found] = []
    prefix: list[int] = []
    max_nodes, max_words = _caps(budget)
    spent = 0

    def walk(arc: int, left: int) -> None:
        nonlocal blanks, spent
        if spent >= max_nodes:
            raise _OutOfBudget
        i = arc
        while True:
            node = nodes[i]
            t = node >> 24
            if counts[t]:
                counts[t] -= 1
                tile = t
            elif blanks:
                blanks -= 1
                tile = t | T.BLANK_BIT
            else:
                tile = -1
            if tile >= 0:
                prefix.append(tile)
                if node & ACCEPTS_BIT and (left == 1 if exact else len(prefix) >= min_length):
                    if len(found) == max_words:
                        raise _OutOfBudget
                    found.append(Found(tuple(prefix)))
                child = node & ARC_MASK
                if child and left > 1:
                    walk(child, left - 1)
                prefix.pop()
                if tile == t:
                    counts[t] += 1
                else:
                    blanks += 1
            if node & IS_END_BIT:
                break
            i += 1
        spent += i - arc + 1

    cut = False
    if kwg.dawg_root:
        try:
            walk(kwg.dawg_root, total)
        except _OutOfBudget:
            cut = True
    if budget is not None:
        budget.nodes, budget.cut = spent, cut
    return found


def anagrams(source: Source, rack: str | tuple[int, ...], *, budget: Budget | None = None
             ) -> list[Found]:
    """Words that use every tile of the rack, in alphabetical (tile) order."""
    tiles = parse_tiles(rack) if isinstance(rack, str) else tuple(rack)
    return _rack_words(kwg_of(source), tiles, exact=True, budget=budget)


def buildable(source: Source, rack: str | tuple[int, ...], *, min_length: int = 2,
              budget: Budget | None = None) -> list[Found]:
    """Words spelt with some of the rack's tiles, longest first, then alphabetical."""
    tiles = parse_tiles(rack) if isinstance(rack, str) else tuple(rack)
    found = _rack_words(kwg_of(source), tiles, exact=False, min_length=min_length,
                        budget=budget)
    found.sort(key=lambda f: -len(f.tiles))  # stable: alphabetical within a length
    return found


class _Enough(Exception):
    """Stops a walk once it has found as many words as asked for."""


def pattern_words(source: Source, pattern: str | Pattern, *, limit: int | None = None,
                  budget: Budget | None = None) -> list[Found]:
    """Words matching a pattern, in alphabetical order (the first ``limit`` of them, if given).

    Walks the DAWG forwards, or the GADDAG's reversed words when the pattern's end is more
    specific; dead (list, NFA state) pairs are remembered, so a leading ``*`` costs one pass
    over the graph's distinct sibling lists, not over all words. A backwards walk cut short by
    its budget has found the words whose reversal comes first, not an alphabetical prefix.
    """
    kwg = kwg_of(source)
    pat = Pattern.parse(pattern) if isinstance(pattern, str) else pattern
    backwards = pat.better_backwards() and kwg.gaddag_root != 0
    stop_at = None if backwards else limit  # forwards, words come in order: stop early
    root = kwg.gaddag_root if backwards else kwg.dawg_root
    matcher = _Matcher(pat.reversed() if backwards else pat)
    nodes = kwg.nodes
    final = matcher.final
    row_of = matcher.row
    dead: set[tuple[int, int]] = set()
    found: list[bytes] = []  # bytes: quicker to make and to sort than tuples
    prefix: list[int] = []
    max_nodes, max_words = _caps(budget)
    spent = 0

    def walk(arc: int, states: int) -> bool:
        nonlocal spent
        if spent >= max_nodes:
            raise _OutOfBudget
        row = row_of(states)
        any_found = False
        i = arc
        while True:
            node = nodes[i]
            nxt = row[node >> 24]
            if nxt:
                child = node & ARC_MASK
                accepted = node & ACCEPTS_BIT and nxt & final
                if accepted or (child and (child, nxt) not in dead):
                    prefix.append(node >> 24)
                    if accepted:
                        if len(found) == max_words:
                            raise _OutOfBudget
                        found.append(bytes(prefix))
                        any_found = True
                        if len(found) == stop_at:
                            raise _Enough
                    if child and (child, nxt) not in dead and walk(child, nxt):
                        any_found = True
                    prefix.pop()
            if node & IS_END_BIT:
                break
            i += 1
        spent += i - arc + 1
        if not any_found:
            dead.add((arc, states))
        return any_found

    cut = False
    if root:
        try:
            walk(root, matcher.start)
        except _Enough:
            pass
        except _OutOfBudget:
            cut = True
    if budget is not None:
        budget.nodes, budget.cut = spent, cut
    if backwards:
        found = sorted(w[::-1] for w in found)
    return [Found(tuple(w)) for w in found[:limit]]


@dataclass(frozen=True)
class Hooks:
    """The tiles that make a word longer by one at the front or at the back."""

    tiles: tuple[int, ...]
    is_word: bool
    front: tuple[int, ...]
    back: tuple[int, ...]

    @property
    def word(self) -> str:
        return T.to_human(self.tiles)

    def to_json(self) -> dict:
        return {"word": self.word, "tiles": len(self.tiles), "valid": self.is_word,
                "front": [T.tile_to_human(t) for t in self.front],
                "back": [T.tile_to_human(t) for t in self.back]}


def hooks(source: Source, word: str | tuple[int, ...]) -> Hooks:
    """Front and back hooks of a word (it need not be a word itself)."""
    kwg = kwg_of(source)
    tiles = parse_word(word) if isinstance(word, str) else tuple(word)
    node = kwg.follow(tiles)
    back: list[int] = []
    if node:
        for i in kwg.siblings(kwg.arc(node)):
            if kwg.node_accepts(i):
                back.append(kwg.tile(i))
    front = [t for t in range(1, T.ALPHABET_SIZE) if kwg.accepts((t,) + tiles)]
    return Hooks(tiles, kwg.accepts(tiles), tuple(front), tuple(back))


def word_list(source: Source, *, min_length: int = 1, max_length: int = MAX_TILES,
              contains: str | tuple[int, ...] = (), budget: Budget | None = None
              ) -> list[Found]:
    """Words of a length range holding all the given tiles (as a multiset), alphabetical."""
    kwg = kwg_of(source)
    if isinstance(contains, str):
        contains = parse_word(contains) if contains.strip() else ()
    if len(contains) > MAX_TILES:
        raise InvalidTextError(_("ninguna palabra tiene más de {most} fichas").format(
            most=MAX_TILES))
    need = _counts(contains)
    needed = sum(need)
    if min_length < 1 or max_length < min_length:
        raise InvalidTextError(_("longitudes no válidas: de {low} a {high}").format(
            low=min_length, high=max_length))
    nodes = kwg.nodes
    found: list[Found] = []
    prefix: list[int] = []
    # Sub-lists known to hold no result for a given remaining need (and depth, when lengths
    # are bounded): the DAWG shares suffixes, so a word list with "contains" skips most of it.
    depth_matters = min_length > 1 or max_length < MAX_TILES
    dead: set[tuple[int, int, int]] = set()
    need_key = sum(k << (4 * t) for t, k in enumerate(need))  # a digit per tile (k ≤ 15)
    max_nodes, max_words = _caps(budget)
    spent = 0

    def walk(arc: int) -> bool:
        nonlocal needed, need_key, spent
        depth = len(prefix) + 1
        key = (arc, need_key, depth if depth_matters else 0)
        if key in dead:
            return False
        if spent >= max_nodes:
            raise _OutOfBudget
        any_found = False
        i = arc
        while True:
            node = nodes[i]
            t = node >> 24
            took = need[t] > 0
            if took:
                need[t] -= 1
                needed -= 1
                need_key -= 1 << (4 * t)
            if depth + needed <= max_length:
                prefix.append(t)
                if node & ACCEPTS_BIT and not needed and depth >= min_length:
                    if len(found) == max_words:
                        raise _OutOfBudget
                    found.append(Found(tuple(prefix)))
                    any_found = True
                child = node & ARC_MASK
                if child and depth < max_length and walk(child):
                    any_found = True
                prefix.pop()
            if took:
                need[t] += 1
                needed += 1
                need_key += 1 << (4 * t)
            if node & IS_END_BIT:
                break
            i += 1
        spent += i - arc + 1
        if not any_found:
            dead.add(key)
        return any_found

    cut = False
    if kwg.dawg_root:
        try:
            walk(kwg.dawg_root)
        except _OutOfBudget:
            cut = True
    if budget is not None:
        budget.nodes, budget.cut = spent, cut
    return found


def parse_length(text: str | None) -> tuple[int, int]:
    """A length or range of lengths in tiles, ``"2"`` or ``"2-3"``; None is any length."""
    if text is None:
        return 1, MAX_TILES
    low, _dash, high = text.strip().partition("-")
    try:
        return int(low), int(high or low)
    except ValueError:
        raise InvalidTextError(_("longitud no válida: «{text}» (usa 2 o 2-3)").format(
            text=text)) from None


# --- probability -------------------------------------------------------------------------

def draw_ways(letters: Iterable[int], *, blanks: bool = True) -> int:
    """How many sets of physical tiles from the full bag spell the word (blanks as wildcards)."""
    need = _counts(letters)
    need_items = [(T.COUNTS[t], k) for t, k in enumerate(need) if k]
    # ways[b]: sets spelling the word with exactly b of its tiles left to blanks
    ways = [1] + [0] * MAX_BLANKS
    for have, k in need_items:
        new = [0] * (MAX_BLANKS + 1)
        for b, w in enumerate(ways):
            if not w:
                continue
            for r in range(0, min(k, MAX_BLANKS - b) + 1 if blanks else 1):
                new[b + r] += w * comb(have, k - r)
        ways = new
    return sum(w * comb(T.BLANK_COUNT, b) for b, w in enumerate(ways))


def probability(letters: Iterable[int], *, blanks: bool = True) -> float:
    """Chance that ``len(letters)`` tiles drawn from the full bag spell the word."""
    letters = tuple(letters)
    return draw_ways(letters, blanks=blanks) / comb(T.TOTAL_TILES, len(letters))


def by_probability(found: Iterable[Found], *, blanks: bool = True) -> list[Found]:
    """Results ranked by probability within each length: shortest first, likeliest first,
    ties alphabetical (the order study lists use)."""
    keyed = sorted(((len(f.tiles), -draw_ways(f.letters, blanks=blanks), f.letters, f)
                    for f in found), key=lambda k: k[:3])
    out: list[Found] = []
    length, rank = 0, 0
    for n, minus_ways, _letters, f in keyed:
        rank = rank + 1 if n == length else 1
        length = n
        out.append(Found(f.tiles, rank, -minus_ways / comb(T.TOTAL_TILES, n)))
    return out
