"""The message catalogs: extract the messages from the source and bring every ``.po`` file up to
date with them (Babel). Spanish is the source language of atril's messages; click's own are
English, translated to Spanish in ``es/LC_MESSAGES/click.po``.

    .venv/bin/python tools/i18n.py update   # extract, merge into every .po (new ones empty)
    .venv/bin/python tools/i18n.py check    # list what is untranslated or fuzzy (exit 1 if any)

Then translate the empty ``msgstr`` entries; any build (``pip install -e .``, a wheel) compiles
the ``.po`` files to the ``.mo`` files gettext reads (``setup.py``). Messages are found in:

- Python (``src/atril/**.py``): ``_("…")``, ``ngettext("…", "…", n)`` and ``N_("…")``;
- the pages' scripts (``src/atril/web/static/**.js``): ``t("…")``, ``tn("…", "…", n)``,
  ``showText(element, "…")`` and ``noticeText("…")``, template strings included;
- the pages' HTML: the text of an element marked ``data-i18n``, and the attributes an element
  names in ``data-i18n-attr`` (``aria-label``, ``placeholder``);
- click's own messages: its installed source.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import IO

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "atril"
LOCALE = PACKAGE / "locale"
#: domain → the languages it is translated into (its source language needs no catalog).
TRANSLATED = {"atril": ("en",), "click": ("es",)}
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}  # Python
PAGE_KEYWORDS = {"t": None, "tn": (1, 2), "showText": (2,), "noticeText": None}  # the pages
#: messages click translates through a variable (``_(extra["required"])``), which Babel no
#: longer extracts from 2.19 on
CLICK_DYNAMIC: list[tuple[str, int, str, list[str], str | None]] = [
    ("core.py", 0, "required", [], None)]


def extract_html(fileobj: IO[bytes], keywords, comment_tags, options) -> Iterator[tuple]:
    """Babel extractor for the pages: ``data-i18n`` text and ``data-i18n-attr`` attributes
    (whitespace squashed, as the pages' ``translate`` reads them)."""
    parser = _Html()
    parser.feed(fileobj.read().decode("utf-8"))
    parser.close()
    for line, text in parser.found:
        yield line, None, text, []


class _Html(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.open: list[tuple[str, int, list[str]]] = []  # marked elements: tag, line, text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        line = self.getpos()[0]
        for name in (values.get("data-i18n-attr") or "").split():
            if values.get(name):
                self.found.append((line, squash(values[name] or "")))
        if "data-i18n" in values:
            self.open.append((tag, line, []))

    def handle_data(self, data: str) -> None:
        if self.open:
            self.open[-1][2].append(data)

    def handle_endtag(self, tag: str) -> None:
        if self.open and self.open[-1][0] == tag:
            _, line, parts = self.open.pop()
            if squash("".join(parts)):
                self.found.append((line, squash("".join(parts))))


def squash(text: str) -> str:
    return " ".join(text.split())


def template(domain: str) -> Catalog:
    """Every message of ``domain`` in the source, as Babel finds it."""
    catalog = Catalog(domain=domain, project="atril" if domain == "atril" else "click",
                      fuzzy=False)
    if domain == "atril":
        # Python and the pages each with their own keywords: a page's ``t("…")`` is a call,
        # while ``t["points"]`` in Python is not a message (Babel 2.19 takes it for one).
        found = [*extract_from_dir(
            PACKAGE, [("**.py", "python")], keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",), strip_comment_tags=True), *extract_from_dir(
            PACKAGE, [("web/static/**.js", "javascript"), ("web/static/**.html", extract_html)],
            options_map={"web/static/**.js": {"parse_template_string": True}},
            keywords=PAGE_KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True)]
        prefix = "src/atril/"
    else:
        import click
        found = [*extract_from_dir(Path(click.__file__).parent, [("**.py", "python")],
                                   keywords={"_": None, "ngettext": (1, 2)}),
                 *CLICK_DYNAMIC]
        prefix = "click/"
    for filename, line, message, comments, context in found:
        catalog.add(message, None, [(prefix + filename, line)], auto_comments=comments,
                    context=context)
    return catalog


def po_path(domain: str, lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"


def read(path: Path, domain: str, lang: str) -> Catalog:
    """A catalog as committed (a new one when ``path`` does not exist yet)."""
    if not path.exists():
        return Catalog(locale=lang, domain=domain, project="atril", fuzzy=False,
                       header_comment=f"# The {domain} messages in {lang}.\n# Updated by "
                                      "tools/i18n.py from the source; compiled to .mo by every "
                                      "build (setup.py).\n#", last_translator="atril")
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


def update() -> None:
    """Merge the extracted messages into every catalog: new msgids come in untranslated (or
    fuzzy, from a similar old one), msgids no longer in the source go."""
    for domain, langs in TRANSLATED.items():
        fresh = template(domain)
        for lang in langs:
            path = po_path(domain, lang)
            catalog = read(path, domain, lang)
            catalog.update(fresh, update_creation_date=False)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as f:
                write_po(f, catalog, width=100, ignore_obsolete=True, include_lineno=False)
            print(f"{path.relative_to(ROOT)}: {len(catalog)} mensajes")


def problems(domain: str, lang: str, fresh: Catalog | None = None) -> list[str]:
    """What keeps a catalog from being complete: messages missing, untranslated or fuzzy."""
    fresh = fresh or template(domain)
    catalog = read(po_path(domain, lang), domain, lang)
    out = []
    for message in fresh:
        if not message.id:
            continue
        found = catalog.get(message.id, message.context)
        strings = [] if found is None else (
            list(found.string) if isinstance(found.string, tuple) else [found.string])
        if found is None:
            out.append(f"{lang}/{domain}: falta {message.id!r}")
        elif found.fuzzy or not all(strings):
            out.append(f"{lang}/{domain}: sin traducir {message.id!r}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["update", "check"])
    args = parser.parse_args(argv)
    if args.command == "update":
        update()
        return 0
    found = [p for domain, langs in TRANSLATED.items() for lang in langs
             for p in problems(domain, lang)]
    print("\n".join(found) or "todos los mensajes están traducidos")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
