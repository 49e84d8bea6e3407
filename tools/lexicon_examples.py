"""The word examples of the FISE *Reglamento de Léxico* (2009, version 16) against ES09.

The rulebook's word-use part (XII, articles 1–18) shows its rules with example words, which it
calls valid or invalid. This script finds them, article by article, and compares them with the
bundled list as published (``ES09-RAW``). Where they disagree the rulebook wins: the difference
is the errata ``Lexicon.load("ES09")`` applies (``src/atril/data/es09-errata.tsv``,
docs/RULES.md §7).

    .venv/bin/python tools/lexicon_examples.py [TEXT]           # counts and disagreements
    .venv/bin/python tools/lexicon_examples.py [TEXT] --write   # rewrite the two files below
    .venv/bin/python tools/lexicon_examples.py [TEXT] --check   # exit 1 if either is stale

TEXT is the FISE 2009 rulebook as plain text (by default ``../shared/seeds/000_….txt`` beside
the repository). The files: ``tools/lexicon_examples.tsv``, every example found (the word as
written, its article, its verdict: only words and article numbers, none of the rules' text), and
the errata. Without TEXT, ``--check`` checks the errata against the committed examples.

How the examples are found, as mechanically as the text allows:

- **Articles**: a line starting with the next number in order (``17.10`` after ``17.9``, ``18``
  after ``17.11``) and no full stop or colon at its end; the table of contents, out of order or
  ending in a full stop, is skipped.
- **Cut words**: the text was extracted from a PDF that cut every run of text after 51
  characters, so a space there between two letters splits a word (``cor redizo``); inside a
  list of examples it is removed, but for the few real spaces in ``REAL_SPACES``.
- **Lists**: what follows «Ejemplo(s)», «Ej(s)» or a colon after one of ``LIST_CUES``
  («Permanecen invariables:», «Agregan –s:», «Verbos regulares:»), up to the end of the
  sentence; items are split at commas, «y», «o», «ni», slashes, and dashes (``flor–flores``: a
  word and its plural). An item that is a phrase ends the list. Parentheses are dropped, but
  «(no X, ni Y)» (invalid forms) and the DRAE's feminine endings (``agestado(da)``,
  ``mano, na``).
- **Verdicts**: a list is of invalid words when its sentence, or else the sentence before,
  refuses the words themselves («No se aceptan», «no son válidas»); a refusal of other forms
  («no admiten plural», «no se aceptan las formas conjugadas») leaves the words listed valid.
  An affix (``bi–``, ``–ción``, art. 14) is no word, and no example.
- **By hand** (``FIXES``, ``PROSE``): typos, lists that are not examples of words, and the
  examples given in running prose, each with its reason.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXT = ROOT.parent / "shared" / "seeds" / "000_e0c192ca572bbca7.txt"
#: the text this script was written against (its SHA-256): another one needs a new reading.
TEXT_SHA256 = "b351e72aa37a784e2d664aecb607d816ca1815ed4b6712d38df7a1ef4c285d5b"
EXAMPLES = ROOT / "tools" / "lexicon_examples.tsv"
ERRATA = ROOT / "src" / "atril" / "data" / "es09-errata.tsv"
VALID, INVALID = "válida", "no válida"

#: how long a run of text the PDF extraction wrote before cutting it with a space; a run
#: starts a line, or follows a double space or «Ejemplos:» (a change of type).
RUN = 51
RUN_START = re.compile(r"  +|Ejemplos?: ")
CUT = "\ue000"  # marks a cut in the text
#: spaces at a cut that are real spaces between two words (word before, word after).
REAL_SPACES = {
    ("o", "desabrir"): "«abolir, aterir, o desabrir»: three verbs",
    ("o", "despiporren"): "«despiporre o despiporren»: two forms",
    ("los", "crónlech"): "«los crónlech»: an article and a word",
    ("no", "caerse"): "«(no caerse)»",
    ("cambráis", "o"): "«cambráis o cambrayes»: two plurals",
}
#: what, before a colon, introduces a list of example words.
LIST_CUES = re.compile(
    r"invariable|[Aa]gregan?\b|[Aa]dmiten?|plural|[Ss]e pluraliza|Casos especiales|formas|"
    r"Verbos (?:regulares|irregulares)|^Del verbo|siguientes|son$")
#: what, before a colon, introduces names of categories, not words.
NOT_A_LIST = re.compile(r"tales como$")
MARKER = re.compile(r"\b(?:[Ee]jemplos?|Ejs?)\b\s*[:,]?\s*")
#: a refusal of the words themselves; one of other forms of them (``FORMS``: their plural,
#: their conjugation) leaves the words listed valid.
REFUSAL = re.compile(r"\b[Nn]o (?:se )?(?:aceptan?|admiten?|permite)\b|\b[Nn]o (?:son|es) válid"
                     r"|\bNo está permitido")
FORMS = re.compile(r"plural|singular|formas conjugadas")
SEPARATORS = re.compile(r"\s*[,;/]\s*|\s+(?:y|o|u|ni)\s+")
CONNECTORS = {"y", "o", "u", "ni", "e"}
#: an article before a word shows that word's plural (``los crómlech``).
ARTICLES = {"los"}
DASHES = re.compile(r"\s*[–-]\s*")
WORD = re.compile(r"[a-záéíóúüñ]+")
#: the DRAE's feminine ending after a masculine word: ``mano, na``, ``agestado(da)``.
ENDINGS = {"na", "ra", "ta", "da", "ca"}
#: a phrase, not a list item, has more words than this (two: a comma missing).
MAX_ITEM_WORDS = 2

#: corrections by hand before the lists are read: (article, pattern, replacement, reason).
FIXES: list[tuple[str, str, str, str]] = [
    ("8", r"ping-pong.*?zis zas", "",
     "what a compound form looks like (ping-pong, per se): phrases, not words"),
    ("18.1.2", r"casas grandes, perro pequeño", "",
     "how an adjective agrees with its noun: phrases, not examples of words"),
    ("18.1.2", r"apretador, ra .*?obyectos", "", "prose after the marker (in PROSE)"),
    ("18.2.1", r"\w+ \((aquí, cerca)\), \w+ \((hoy, luego)\), \w+ \((así, bien)\) \w+ \w+",
     r"\1, \2, \3", "kinds of adverbs, each with its examples in brackets"),
    ("18.2.8", r"bien/mal ", "", "bien/mal is how the DRAE shows these locutions"),
    ("17.11", r" (?=Del verbo)", " • ", "the verbs with forms omitted: one a line, no full stops"),
    ("18.2.5", r"(según\.) ", r"\1 • ", "a page break lost the start of the next sentence"),
    ("18.2.8", r"\(da\) carado \(da\) complexionado", "(da), carado (da), complexionado",
     "two commas missing"),
    ("18.3", r"(\w+) ?[–-] ?\w+ (\w+)", r"\1–\2",
     "an envío is shown as «word–phrase with its plural» (uvas alarijes): the phrase's noun "
     "is no example"),
    ("18.4.2", r"paspartú\.paspartús", "paspartú–paspartús", "a full stop typed for the dash"),
    ("18.4.3", r"ampay- ?amapayes", "ampay-ampayes",
     "«amapayes» misspells the plural of ampay (the rule of the article: -y adds -es)"),
    ("18.4.3", r"aguáis\. bacaray", "aguáis, bacaray", "a full stop typed for a comma"),
    ("18.4.3", r"pijabay-pijabayes", "pijibay-pijibayes",
     "the DRAE's word is pijibay (Costa Rica: pejibaye), as in ES09; pijabay is no entry"),
]
#: examples given in running prose: (article, valid words, invalid words, reason).
PROSE: list[tuple[str, str, str, str]] = [
    ("12", "", "figos", "an old word has no plural, not even from a set phrase"),
    ("12", "lejura lejuras argullo argullos", "",
     "old words still used somewhere, or as vulgarisms: their plurals are accepted"),
    ("17.2", "podando", "pudando", "the gerund of podar; pudando is a typo of the CD"),
    ("17.4", "boxeado adolecido afalagado afalagados afalagada afalagadas", "medrados",
     "participles: intransitive boxear and adolecer only in masculine singular, transitive "
     "afalagar in all four; no plural medrados"),
    ("17.5", "jactar", "jactarse", "the entry jactar shows no «se»: no jactarse"),
    ("17.5", "amara amase amaras amases amáramos amásemos amarais amaseis amaran amasen", "",
     "the «se» of the subjunctive is part of the verb, no enclitic"),
    ("17.6", "adonarse adonar yantar abondar",  "",
     "old pronominal verbs with and without «se»; old verbs with a current use"),
    ("17.7", "balbucir soler garantir podrir repodrir usucapir podrida podridos repodridas "
     "usucapido", "", "defective verbs, and the participles accepted for three of them"),
    ("17.8", "granices granizadas granizásemos", "",
     "granizar is conjugated in full, as a transitive verb"),
    ("17.10", "arrepiento arrepienta", "arrepiéntome arrepiéntase aduéñate adueñaos",
     "forms of pronominal verbs without enclitics; their imperative takes them"),
    ("17.10", "fugar jarretar amalar", "fugarse",
     "fugar: its paradigm shows fugarse, the infinitive accepted is fugar; jarretar and "
     "amalar end a list the prose goes on with"),
    ("17.11", "her", "", "the infinitive of her, and no other form"),
    ("18.1.2", "burladero burladera burladeros apretador apretadora apretadoras obyecto obyecta "
     "obyectos", "burladeras",
     "old adjectives, accepted in the singular, whose masculine (or feminine) is also a noun: "
     "that plural only"),
    ("18.1.9", "chanás", "chanaes", "the DPD's plural of chaná wins over the DRAE's"),
    ("18.2", "hurra hurras", "", "an interjection that is also a noun takes a plural"),
    ("18.2.8", "acato acatos endolencia ires venires moliente molientes", "",
     "words of locutions that take a plural"),
    ("18.2.9", "surgido dignado", "surgidos surgidas dignados dignadas",
     "intransitive and pronominal participles: masculine singular only"),
    ("18.2.10", "boshita adagio", "", "foreign words: boshita has no plural, adagio has"),
    ("18.3", "birrectángulo larderos cagalar cormano", "larderas",
     "envíos: lardero has a current use in «jueves lardero», its feminine none"),
    ("18.4.1", "afra", "", "afra, with no plural"),
    ("18.4.3", "fraque fraques faradio faradios ergio ergios ohmio ohmios carcaj carcajes "
     "fraile frailes sah sahs bustrófedon bustrofedones", "",
     "the notes on plurals of other words"),
]


@dataclass(frozen=True, order=True)
class Example:
    """A word the rulebook calls valid or invalid, as written there, with its article."""

    article: str
    word: str
    verdict: str


# --- reading the text ----------------------------------------------------------------------

def articles(text: str) -> Iterator[tuple[str, str]]:
    """The articles of the word-use part (XII) as (number, text), lines joined, cuts marked."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("XII USO DE"))
    number: list[int] = [0]
    current, body = "", []
    for line in lines[start:]:
        line = _mark_cuts(line)
        heading = re.match(r"\s*(\d{1,2}(?:\.\d{1,2})*)\.?\s+[A-ZÁÉÍÓÚ]", line)
        if heading and not line.rstrip().endswith((".", ":")):
            found = [int(n) for n in heading.group(1).split(".")]
            if _follows(number, found):
                if current:
                    yield current, _squash(" ".join(body))
                number, current, body = found, heading.group(1), []
                continue
        if current and line.strip() == "NOTA FINAL":
            break
        body.append(line.strip())
    yield current, _squash(" ".join(body))


def _mark_cuts(line: str) -> str:
    """The line with ``CUT`` for each space the PDF extraction put between two letters."""
    for start in [0, *(m.end() for m in RUN_START.finditer(line))]:
        at = start + RUN
        if at + 1 < len(line) and line[at] == " " and line[at - 1].isalpha() and \
                line[at + 1].isalpha():
            line = line[:at] + CUT + line[at + 1:]
    return line


def _follows(before: list[int], after: list[int]) -> bool:
    """Whether article ``after`` comes right after ``before``: its first child, or the next of
    it or of one of its parents."""
    if after == before + [1]:
        return True
    return any(after == before[:k] + [before[k] + 1] for k in range(len(before)))


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def sentences(text: str) -> list[str]:
    """Sentences: a full stop (or ! ?) before a capital, and bullets."""
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-ZÁÉÍÓÚ¿¡])|\s*•\s*", text) if s.strip()]


# --- the lists ----------------------------------------------------------------------------

def examples(text: str) -> list[Example]:
    """Every example of the rulebook, in article order, each once per article."""
    found: list[Example] = []
    for number, body in articles(text):
        for article, pattern, replacement, _reason in FIXES:
            if article == number:  # a space in a pattern matches a cut too
                body, count = re.subn(pattern.replace(" ", f"[ {CUT}]"), replacement, body)
                assert count, f"art. {number}: nada que corregir con {pattern!r}"
        words = list(_article_examples(body))
        for article, valid, invalid, _reason in PROSE:
            if article == number:
                words += [(w, VALID) for w in valid.split()]
                words += [(w, INVALID) for w in invalid.split()]
        seen = set()
        for word, verdict in words:
            if (word, verdict) not in seen:
                seen.add((word, verdict))
                found.append(Example(number, word, verdict))
    return found


def _article_examples(body: str) -> Iterator[tuple[str, str]]:
    before = ""  # the sentence before
    for sentence in sentences(body):
        listed = _list_of(sentence)
        if listed is not None:
            lead, items = listed
            yield from _items(items, _verdict(lead) or _verdict(before) or VALID)
        before = sentence


def _list_of(sentence: str) -> tuple[str, str] | None:
    """(what comes before the list, the list) of a sentence, or None if it has none."""
    marker = MARKER.search(sentence)
    colon = sentence.rfind(":")
    lead = sentence[:colon].replace(CUT, " ").strip()
    if colon >= 0 and (marker and marker.start() < colon or
                       LIST_CUES.search(lead) and not NOT_A_LIST.search(lead)):
        return sentence[:colon], sentence[colon + 1:]
    if marker:
        return sentence[:marker.start()], sentence[marker.end():]
    return None


def _verdict(text: str) -> str | None:
    """INVALID if the text refuses the words themselves; None if it says nothing."""
    text = text.replace(CUT, " ")
    for clause in re.split(r"[.;]", text)[::-1]:
        if REFUSAL.search(clause):
            return VALID if FORMS.search(clause) else INVALID
    return None


def _items(text: str, default: str) -> Iterator[tuple[str, str]]:
    """The words of a list, each with its verdict; a phrase ends the list."""
    text = re.sub(rf"(\w*){CUT}(\w*)", _cut, text)
    text = text.rstrip(" .")
    refused: list[str] = []

    def parenthesis(match: re.Match[str]) -> str:
        inside = match.group(1).strip()
        if inside.startswith("no "):
            refused.extend(WORD.findall(inside[3:].lower().replace(" ni ", " ")))
            return ""
        if inside in ENDINGS:
            return "(" + inside + ")"  # kept for _feminine
        return ""

    text = re.sub(r"\s*\(([^()]*)\)", parenthesis, text)
    previous = ""
    for item in SEPARATORS.split(text):
        item = item.strip(" ¡!\"“”").lower()
        if not item or item in CONNECTORS:
            continue
        if item in ENDINGS and previous.endswith(("o", "or")):
            yield _feminine(previous, item), default
            continue
        tokens = DASHES.sub("–", item).split()  # no space by a dash: ``pe- pes`` ended a line
        if len(tokens) == 2 and tokens[0] in ARTICLES:
            tokens = tokens[1:]
        if len(tokens) > MAX_ITEM_WORDS:
            break
        for token in tokens:
            parts = token.split("–")
            if len(parts) > 1 and "" in (parts[0], parts[-1]):  # an affix: bi–, –ción
                continue
            for k, part in enumerate(parts):
                part, _, ending = part.partition("(")
                # «o» is a letter in «o–oes», a conjunction in «o desabrir» or «guirigáis–o»
                if not WORD.fullmatch(part) or part in CONNECTORS and (k or len(tokens) > 1):
                    continue
                yield part, default
                previous = part
                if ending:
                    yield _feminine(part, ending.rstrip(")")), default
    for word in refused:
        yield word, INVALID


def _cut(match: re.Match[str]) -> str:
    left, right = match.groups()
    return f"{left} {right}" if (left.lower(), right.lower()) in REAL_SPACES else left + right


def _feminine(masculine: str, ending: str) -> str:
    """``burladero, ra`` → burladera: the ending replaces the word from its last letter like
    the ending's first."""
    return masculine[:masculine.rfind(ending[0])] + ending


# --- against ES09 ---------------------------------------------------------------------------

@dataclass
class Comparison:
    """The examples against a word list: how many agree, and the disagreements."""

    examples: list[Example]
    unplayable: list[Example]
    agreeing: list[Example]
    missing: list[Example]   # valid in the rulebook, not in the list
    present: list[Example]   # invalid in the rulebook, in the list


def compare(found: Iterable[Example], lexicon) -> Comparison:
    from atril.errors import InvalidTextError
    from atril.lexicon import MAX_WORD_TILES
    from atril.tiles import tokenize_word

    result = Comparison([], [], [], [], [])
    for example in found:
        result.examples.append(example)
        try:
            tiles = tokenize_word(example.word)
        except InvalidTextError:  # K or W
            result.unplayable.append(example)
            continue
        if not 1 < len(tiles) <= MAX_WORD_TILES:
            result.unplayable.append(example)
        elif (tiles in lexicon) == (example.verdict == VALID):
            result.agreeing.append(example)
        elif example.verdict == VALID:
            result.missing.append(example)
        else:
            result.present.append(example)
    return result


def errata(comparison: Comparison) -> list[tuple[str, str, str]]:
    """The errata rows: (word as ES09 spells it, add or remove, article), one per word."""
    from atril.tiles import strip_accents

    rows: dict[str, tuple[str, str, str]] = {}
    for examples, action in ((comparison.missing, "add"), (comparison.present, "remove")):
        for example in examples:
            word = strip_accents(example.word).lower()
            rows.setdefault(word, (word, action, example.article))
    return sorted(rows.values())


# --- files ------------------------------------------------------------------------------------

def read_examples(path: Path = EXAMPLES) -> list[Example]:
    with path.open(encoding="utf-8", newline="") as f:
        rows = [row for row in csv.reader(f, delimiter="\t") if row and not row[0].startswith("#")]
    return [Example(article, word, verdict) for word, article, verdict in rows]


def examples_tsv(found: list[Example]) -> str:
    lines = ["# Word examples of the FISE Reglamento de Léxico (2009, v16), by "
             "tools/lexicon_examples.py:", "# word, article, verdict (válida / no válida)."]
    lines += [f"{e.word}\t{e.article}\t{e.verdict}" for e in found]
    return "\n".join(lines) + "\n"


def errata_tsv(rows: list[tuple[str, str, str]]) -> str:
    lines = ["# ES09 errata: where the word examples of the FISE Reglamento de Léxico (2009, v16)",
             "# disagree with the published list, the rulebook wins. Made by",
             "# tools/lexicon_examples.py --write; applied when ES09 loads (ES09-RAW: without).",
             "# word (as the list spells it), add or remove, article of the Reglamento de Léxico."]
    lines += ["\t".join(row) for row in rows]
    return "\n".join(lines) + "\n"


def _report(comparison: Comparison) -> str:
    words = {e.word for e in comparison.examples}
    out = [f"ejemplos encontrados: {len(comparison.examples)} ({len(words)} palabras distintas; "
           f"{sum(e.verdict == VALID for e in comparison.examples)} válidos, "
           f"{sum(e.verdict == INVALID for e in comparison.examples)} no válidos)",
           f"no jugables (una ficha, K o W): {len(comparison.unplayable)}",
           f"de acuerdo con ES09-RAW: {len(comparison.agreeing)}",
           f"válidos que faltan en ES09-RAW: {len(comparison.missing)}",
           f"no válidos presentes en ES09-RAW: {len(comparison.present)}"]
    for label, examples in (("falta", comparison.missing), ("sobra", comparison.present)):
        out += [f"  {label}: {e.word} (art. {e.article})" for e in examples]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("text", nargs="?", type=Path, default=TEXT,
                        help="the FISE 2009 rulebook as plain text")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="rewrite the examples and errata")
    action.add_argument("--check", action="store_true", help="exit 1 if either is stale")
    args = parser.parse_args(argv)
    from atril.lexicon import Lexicon

    if args.text.exists():
        raw = args.text.read_bytes()
        if not hashlib.sha256(raw).hexdigest().startswith(TEXT_SHA256):
            print(f"{args.text}: no es el texto para el que se escribió este programa",
                  file=sys.stderr)
            return 2
        found = examples(raw.decode("utf-8"))
    elif args.check:
        print(f"{args.text} no está: se comprueba la fe de erratas con {EXAMPLES.name}")
        found = read_examples()
    else:
        print(f"no existe {args.text}", file=sys.stderr)
        return 2
    comparison = compare(found, Lexicon.load("ES09-RAW"))
    print(_report(comparison))
    texts = {EXAMPLES: examples_tsv(found), ERRATA: errata_tsv(errata(comparison))}
    if args.write:
        for path, content in texts.items():
            path.write_text(content, encoding="utf-8")
            print(f"escrito {path.relative_to(ROOT)}")
    elif args.check:
        stale = [path for path, content in texts.items()
                 if not path.exists() or path.read_text(encoding="utf-8") != content]
        for path in stale:
            print(f"desactualizado: {path.relative_to(ROOT)} (tools/lexicon_examples.py --write)")
        return 1 if stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
