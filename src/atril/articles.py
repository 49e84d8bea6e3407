"""Article numbers in the numbering of the rules text in force.

The code and its messages cite FISE 2009, the reference text (``IllegalMoveError(..., "25")``,
"(art. 45.2)"). A game under another ruleset shows its own text's numbers: while the ruleset
is in force (``Ruleset.in_force()``, a context variable, so each game, request or thread has
its own), ``cite`` maps one number and ``renumber`` every "art. N" in a text. A rule the text
in force does not have keeps the 2009 number, naming that text (the ruleset follows 2009 there).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping
from contextvars import ContextVar

REFERENCE = "FISE 2009"
#: the numbering in force: the text's name and FISE 2009 number → its own (None: it has no
#: such rule); None = FISE 2009's own numbering.
_NUMBERING: ContextVar[tuple[str, Mapping[str, str | None]] | None] = ContextVar(
    "atril_articles", default=None)
#: "art. 25", "art. 38–40", "art. 3, 6" — not one already renumbered ("art. 24 FISE 2004").
_CITATION = re.compile(r"(art\. )((?>\d+(?:\.\d+)?(?:(?:–|, )\d+(?:\.\d+)?)*))(?! FISE| FILE)")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def cite(article: str | None) -> str | None:
    """A FISE 2009 article in the numbering in force, naming the text (``"24 FISE 2004"``;
    ``"45.3 FISE 2009"`` when the text in force has no such rule). A citation already made
    (it names its text) is returned as it is."""
    numbering = _NUMBERING.get()
    if article is None or numbering is None or " " in article:
        return article
    name, mapping = numbering
    mine = mapping.get(article, article)
    return f"{mine} {name}" if mine is not None else f"{article} {REFERENCE}"


def renumber(text: str) -> str:
    """``text`` with every FISE 2009 citation in the numbering in force, naming the text:
    "art. 25" → "art. 24 FISE 2004" (so a text renumbered once is never renumbered again)."""
    numbering = _NUMBERING.get()
    if numbering is None or "art. " not in text:
        return text
    name, mapping = numbering

    def one(match: re.Match[str]) -> str:
        numbers = _NUMBER.findall(match.group(2))
        if any(mapping.get(n, n) is None for n in numbers):
            return f"{match.group(0)} {REFERENCE}"
        mine = _NUMBER.sub(lambda n: mapping.get(n.group(0)) or n.group(0), match.group(2))
        return f"{match.group(1)}{mine} {name}"

    return _CITATION.sub(one, text)


#: a message's citation of the rule it breaks: "(art. 3)", "(art. 24 FISE 2004)"
_BROKEN = re.compile(r"\(art\. ([^)]+)\)")


def broken(text: str) -> str | None:
    """The article a message cites as the rule broken (its first "(art. …)", as renumbered),
    or None."""
    match = _BROKEN.search(text)
    return match.group(1) if match else None


@contextlib.contextmanager
def numbering(name: str, mapping: Mapping[str, str | None] | None) -> Iterator[None]:
    """Cite in the numbering of the text ``name`` (``mapping``: FISE 2009 number → its own,
    None for a rule it lacks; None: FISE 2009's own) inside the block."""
    token = _NUMBERING.set(None if mapping is None else (name, mapping))
    try:
        yield
    finally:
        _NUMBERING.reset(token)
