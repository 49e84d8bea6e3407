"""Every message in the user's language.

Spanish is the source: the messages in the code are the msgids, and other languages come from
gettext catalogs compiled at build time (``locale/<lang>/LC_MESSAGES/<domain>.mo``, from the
committed ``.po`` files; ``tools/i18n.py`` extracts and updates them). The language is a context
variable, so each command, web request or WebSocket has its own: ``use("en")`` for a block,
``set_language("en")`` for the rest of the context; without either, ``ATRIL_LANG`` or Spanish.

A message is translated when it is made, with named placeholders filled after the lookup::

    _("la partida ha terminado: {text}").format(text=result.text)

(never an f-string inside ``_()``: extraction must see the msgid). ``N_`` marks a message kept as
data (a table, a help text) and translated where it is shown.

Two domains: ``atril`` (Spanish msgids) and ``click`` (click's own English msgids, translated to
Spanish). A msgid a catalog lacks falls back to its source text and is noted in ``misses``, so a
test can ask for none.
"""

from __future__ import annotations

import contextlib
import gettext
import os
from collections.abc import Iterator
from contextvars import ContextVar, Token
from functools import cache
from pathlib import Path

LANGUAGES = ("es", "en")
DEFAULT = "es"
LOCALE_DIR = Path(__file__).parent / "locale"
#: each domain's source language: its msgids are written in it, so it needs no catalog.
SOURCES = {"atril": "es", "click": "en"}

_language: ContextVar[str | None] = ContextVar("atril_language", default=None)
#: (domain, language, msgid) of every lookup a catalog could not answer, since the start.
misses: set[tuple[str, str, str]] = set()


def supported(tag: str | None) -> str | None:
    """The supported language a tag names (``en``, ``en-GB``, ``EN_us`` → ``en``), else None."""
    if not tag:
        return None
    base = tag.strip().replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None


def current() -> str:
    """The language messages are made in now."""
    return _language.get() or supported(os.environ.get("ATRIL_LANG")) or DEFAULT


def set_language(lang: str) -> Token:
    """Make messages in ``lang`` for the rest of this context (a token to reset it)."""
    return _language.set(_checked(lang))


@contextlib.contextmanager
def use(lang: str) -> Iterator[None]:
    """Make messages in ``lang`` inside the block."""
    token = set_language(lang)
    try:
        yield
    finally:
        _language.reset(token)


def _checked(lang: str) -> str:
    found = supported(lang)
    if found is None:
        raise ValueError(f"unsupported language {lang!r}: {', '.join(LANGUAGES)}")
    return found


class _Miss(gettext.NullTranslations):
    """The last fallback of a catalog: the source text, noted as a miss."""

    def __init__(self, domain: str, lang: str):
        super().__init__()
        self.key = (domain, lang)

    def gettext(self, message: str) -> str:
        misses.add((*self.key, message))
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        misses.add((*self.key, msgid1))
        return super().ngettext(msgid1, msgid2, n)


@cache
def catalog(domain: str, lang: str) -> gettext.NullTranslations:
    """The translations of ``domain`` into ``lang`` (none for the domain's source language)."""
    if lang == SOURCES[domain]:
        return gettext.NullTranslations()
    miss = _Miss(domain, lang)
    try:
        found = gettext.translation(domain, LOCALE_DIR, languages=[lang])
    except OSError:  # not compiled (a source tree that was never built): every lookup misses
        return miss
    found.add_fallback(miss)
    return found


class Domain:
    """Lookups in one domain, in the language of the moment."""

    def __init__(self, name: str):
        self.name = name

    def gettext(self, message: str) -> str:
        return catalog(self.name, current()).gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return catalog(self.name, current()).ngettext(singular, plural, n)


ATRIL = Domain("atril")
CLICK = Domain("click")
_ = ATRIL.gettext
ngettext = ATRIL.ngettext


def N_(message: str) -> str:
    """Mark a message for extraction without translating it here (it is translated where shown)."""
    return message


def number(n: int) -> str:
    """An integer with the thousands separator of the current language (200.000, 200,000)."""
    # TRANSLATORS: the thousands separator (Spanish: a point).
    return f"{n:,}".replace(",", _("."))


def messages(lang: str) -> dict[str, str | list[str]]:
    """Every translation of the atril domain into ``lang``: msgid → text, or → the plural
    forms (for the web pages; empty for Spanish, whose msgids are the text)."""
    found = catalog("atril", _checked(lang))
    # GNUTranslations keeps its entries in ``_catalog`` (as Django's JavaScript catalog reads
    # them): msgid → text, (msgid, n) → plural form n, and "" → the header.
    entries = getattr(found, "_catalog", {})
    out: dict[str, str | list[str]] = {}
    plurals: dict[str, dict[int, str]] = {}
    for key, text in entries.items():
        if isinstance(key, tuple):
            plurals.setdefault(key[0], {})[key[1]] = text
        elif key:
            out[key] = text
    for msgid, forms in plurals.items():
        out[msgid] = [forms[n] for n in sorted(forms)]
    return out


__all__ = ["LANGUAGES", "DEFAULT", "misses", "supported", "current", "set_language", "use",
           "catalog", "Domain", "ATRIL", "CLICK", "_", "ngettext", "N_", "number", "messages"]
