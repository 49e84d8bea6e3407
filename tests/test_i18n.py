"""Every message in the user's language (issue 11): the catalogs are complete and compiled,
every error path of the command line speaks Spanish or English as asked (click's own texts
included), and the terminal game speaks English with ``lang="en"``. The server and the pages:
``tests/web/test_i18n_web.py``."""

from __future__ import annotations

import importlib.util
import io
import json
import re
import string
from pathlib import Path

import pytest
from click.testing import CliRunner

from atril import i18n
from atril.cli import main
from atril.terminal import run

ROOT = Path(__file__).resolve().parent.parent
EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
START = f"{EMPTY} AEIRSTN/ 0/0 0"


def _tools():
    spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "tools" / "i18n.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the catalogs -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tool():
    return _tools()


@pytest.mark.parametrize("domain, lang", [("atril", "en"), ("click", "es")])
def test_every_message_in_the_source_is_translated(tool, domain, lang):
    """The messages extracted from the source now (Python, the pages' scripts and HTML, click)
    all have a translation that is not fuzzy, and the catalog holds nothing else."""
    template = tool.template(domain)
    assert tool.problems(domain, lang, template) == []
    catalog = tool.read(tool.po_path(domain, lang), domain, lang)
    assert {m.id for m in catalog if m.id} == {m.id for m in template if m.id}
    assert len(template) > (400 if domain == "atril" else 60)


def _fields(text: str) -> set[str]:
    """The placeholders of a message: ``{name}`` and ``%(name)s``."""
    braces = {field for _text, field, _spec, _conv in string.Formatter().parse(text) if field}
    return braces | set(re.findall(r"%\((\w+)\)", text))


@pytest.mark.parametrize("domain, lang", [("atril", "en"), ("click", "es")])
def test_translations_fill_the_same_placeholders(tool, domain, lang):
    """A translation uses only the placeholders its msgid has (it may leave one out, as
    click's number type name in Spanish), and the compiled catalog says what the .po says: the
    build compiled the catalogs in the tree."""
    catalog = tool.read(tool.po_path(domain, lang), domain, lang)
    compiled = i18n.catalog(domain, lang)
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in texts:
            assert _fields(text) <= set().union(*map(_fields, ids)), message.id
        if isinstance(message.id, tuple):
            assert compiled.ngettext(*message.id, 1) == texts[0]
            assert compiled.ngettext(*message.id, 5) == texts[-1]
        else:
            assert compiled.gettext(message.id) == texts[0], message.id


def test_the_language_follows_the_context(monkeypatch):
    monkeypatch.delenv("ATRIL_LANG", raising=False)
    assert i18n.current() == "es"
    with i18n.use("en-GB"):
        assert i18n.current() == "en"
        assert i18n._("jugada no válida") == "jugada no válida (invalid play)"
        with i18n.use("es"):
            assert i18n._("jugada no válida") == "jugada no válida"
    monkeypatch.setenv("ATRIL_LANG", "en")
    assert i18n.current() == "en"
    with pytest.raises(ValueError):
        i18n.use("fr").__enter__()


# --- every error path of the command line, in both languages ------------------------------------

#: (arguments, exit code) of every way the command line refuses its input, and its help.
ERRORS = [
    (["nope"], 2),                                            # unknown command
    (["check"], 2),                                           # missing argument
    (["check", "--nope", "casa"], 2),                         # unknown option
    (["check", "--lexicon", "NOPE", "casa"], 2),              # unknown lexicon
    (["check", "--lexicon"], 2),                              # option without its value
    (["score", "--move", "H8 CASA"], 2),                      # missing option
    (["score", "--cgp", "15/15 X/ 0/0 0", "--move", "H8 CASA"], 2),        # bad CGP
    (["score", "--cgp", "nada", "--move", "H8 CASA"], 2),                  # incomplete CGP
    (["score", "--cgp", START, "--move", "Z99 CASA"], 2),                  # bad coordinate
    (["score", "--cgp", START, "--move", "H8 C@SA"], 2),                   # bad word
    (["score", "--cgp", START, "--move", "H8 KIWI"], 2),                   # no K in Spanish
    (["score", "--cgp", START, "--move", "A1 ARESTIN"], 2),                # art. 6
    (["score", "--cgp", START, "--move", "H8 ZZ"], 2),                     # not on the rack
    (["score", "--cgp", START, "--move", "paso"], 2),                      # art. 25
    (["score", "--json", "--cgp", START, "--move", "cambio"], 2),          # JSON error
    (["show", "--cgp", f"{EMPTY} AAAAAAA/AAAAAAA 0/0 0"], 2),              # too many A (art. 3)
    (["moves"], 2),                                           # neither --cgp nor --cgp-file
    (["moves", "--top", "x", "--cgp", START], 2),             # bad number
    (["moves", "--top", "0", "--cgp", START], 2),             # out of range
    (["selfplay", "--players", "equity"], 2),                 # one player
    (["selfplay", "--players", "equity,nadie"], 2),           # unknown player
    (["selfplay", "--ruleset", "NOPE"], 2),                   # bad ruleset
    (["play", "--vs", "nadie"], 2),                           # bad choice
    (["play", "--lang", "fr"], 2),                            # bad language
    (["duplicada", "--rondas", "0"], 2),                      # out of range
    (["duplicada", "--semilla"], 2),                          # option without its value
    (["duplicada", "--json", "--lexicon", "NOPE"], 2),        # unknown lexicon, JSON error
    (["duplicada", "nada"], 2),                               # unknown subcommand
    (["duplicada", "practicar", "--segundos", "0"], 2),       # out of range
    (["duplicada", "practicar", "--lang", "fr"], 2),          # bad language
    (["duplicada", "practicar", "--help"], 0),
    (["serve", "--port", "x"], 2),                            # bad number
    (["judge", "--lexicon", "NOPE", "casa"], 2),              # unknown lexicon
    (["anagram", "KW"], 2),                                   # no K, no W
    (["anagram", "AAAAAAAAAAAAAAAAA"], 2),                    # too many tiles
    (["build", "--min", "0", "casa"], 2),                     # out of range
    (["pattern", "[A"], 2),                                   # bad pattern
    (["pattern", "--sort", "nope", "A*"], 2),                 # bad choice
    (["hooks"], 2),                                           # missing argument
    (["list"], 2),                                            # neither --length nor --contains
    (["list", "--length", "x"], 2),                           # bad length
    (["list", "--length", "3-2"], 2),                         # empty range
    (["lexicon", "install", "nope.txt", "--for", "FILE2024"], 2),   # no such list
    (["lexicon", "install", "nope.txt", "--for", "FILE2099"], 2),   # unknown ruleset
    (["lexicon", "install", "nope.txt"], 2),                  # missing --for
    (["lexicon", "remove"], 2),                               # neither an id nor --for
    (["lexicon", "remove", "NOPE"], 2),                       # not installed
    *[(["lexicon", command, "--help"], 0) for command in ("install", "list", "remove")],
    (["torneo", "crear"], 2),                                 # missing argument
    (["torneo", "crear", "nope.t"], 2),                       # a .t file is only read
    (["torneo", "clasificacion", "nope.t"], 2),               # no such file
    (["torneo", "clasificacion", "--desempates", "nada", "nope.t"], 2),  # unknown tie-break
    (["torneo", "emparejar", "nope.json", "--sistema", "nada"], 2),     # bad choice
    (["torneo", "resultado", "nope.t", "Ana", "1", "Luis", "2"], 2),    # a .t file is only read
    (["torneo", "importar", "nope.pdf", "nope.json"], 2),     # bad extension
    (["torneo", "simular", "--jugadores", "1"], 2),           # out of range
    (["torneo", "simular", "--niveles", "nadie", "--jugadores", "2", "--rondas", "1"], 2),
    *[(["torneo", command, "--help"], 0) for command in main.commands["torneo"].commands],
    (["--version"], 0),
    (["--help"], 0),
    *[([command, "--help"], 0) for command in main.commands],
]

SPANISH_WORDS = re.compile(r"\b(de|la|el|los|las|una|que|con|por|para|fichas?|jugadas?|falta|"
                           r"debe|tiene|esta|está|Uso|Opciones|Prueba|palabras?)\b|[¿¡]", re.I)
ENGLISH_WORDS = re.compile(r"\b(the|is|not|of|must|with|Usage|Options|Try|Show|Missing|"
                           r"Invalid|words?|tiles?)\b")
#: what may stay Spanish in English: the verdict (art. 40) and what the user typed.
KEPT = re.compile(r"jugadas? (correcta|no válida)|JUGADA (CORRECTA|NO VÁLIDA)", re.I)


def cli(lang: str, args: list[str]):
    i18n.misses.clear()
    result = CliRunner().invoke(main, ["--lang", lang, *args])
    misses = {m for m in i18n.misses if m[1] == lang}
    return result, result.output, misses


def _without_input(text: str, args: list[str]) -> str:
    for arg in sorted(args, key=len, reverse=True):
        if len(arg) > 2:
            text = text.replace(arg, "")
    return KEPT.sub("", text)


@pytest.mark.parametrize("args, code", ERRORS, ids=[" ".join(a) for a, _ in ERRORS])
def test_every_error_path_speaks_the_language_asked_for(args, code):
    es, es_text, es_misses = cli("es", args)
    en, en_text, en_misses = cli("en", args)
    for result in (es, en):
        assert result.exit_code == code, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "Traceback" not in result.output
    assert es_misses == set() and en_misses == set()  # no message without its translation
    assert es_text.strip() and en_text.strip() and es_text != en_text
    assert not ENGLISH_WORDS.search(_without_input(es_text, args)), es_text
    assert not SPANISH_WORDS.search(_without_input(en_text, args)), en_text
    if "Usage:" in en_text or "Uso:" in es_text:  # click's own texts are translated too
        assert "Uso:" in es_text and "[OPCIONES]" in es_text and "Usage:" not in es_text
        assert "Usage:" in en_text and "[OPTIONS]" in en_text and "Uso:" not in en_text


def test_known_texts_in_both_languages():
    _, es, _ = cli("es", ["check"])
    _, en, _ = cli("en", ["check"])
    assert "Uso:" in es and "Error: Falta el argumento 'PALABRA...'." in es
    assert "Usage:" in en and "Error: Missing argument 'WORD...'." in en
    _, es, _ = cli("es", ["--help"])
    _, en, _ = cli("en", ["--help"])
    assert "Muestra este mensaje y sale." in es and "Show this message and exit." in en
    _, es, _ = cli("es", ["score", "--cgp", START, "--move", "A1 ARESTIN"])
    _, en, _ = cli("en", ["score", "--cgp", START, "--move", "A1 ARESTIN"])
    assert "la primera jugada debe ocupar la casilla central H8 (art. 6)" in es
    assert "the first play must cover the centre square H8 (art. 6)" in en
    result, _, _ = cli("en", ["score", "--json", "--cgp", START, "--move", "paso"])
    assert json.loads(result.output) == {
        "error": "only plays with tiles are scored; an exchange or a pass scores 0 (art. 25)",
        "article": "25"}


def test_the_language_anywhere_on_the_line_or_from_the_environment(monkeypatch):
    """``--lang`` after the command (``atril play --lang``) counts before click parses
    anything, and ``ATRIL_LANG`` is the default; Spanish without either."""
    monkeypatch.delenv("ATRIL_LANG", raising=False)
    bad = CliRunner().invoke(main, ["play", "--lang=en", "--vs", "nadie"]).output
    assert "Invalid value for '--vs'" in bad
    assert "Falta el argumento" in CliRunner().invoke(main, ["hooks"]).output
    monkeypatch.setenv("ATRIL_LANG", "en")
    assert "Missing argument" in CliRunner().invoke(main, ["hooks"]).output
    assert "Falta el argumento" in CliRunner().invoke(main, ["--lang", "es", "hooks"]).output


def test_a_bad_line_of_a_cgp_file(tmp_path):
    path = tmp_path / "posiciones.cgp"
    path.write_text(f"{START}\nnada\n", encoding="utf-8")
    _, es, es_misses = cli("es", ["moves", "--cgp-file", str(path)])
    _, en, en_misses = cli("en", ["moves", "--cgp-file", str(path)])
    assert "error: línea 2: CGP incompleto" in es and "error: line 2: incomplete CGP" in en
    assert not es_misses and not en_misses


def test_tournament_errors_name_the_line_the_player_and_the_round(tmp_path):
    bad = tmp_path / "mal.t"
    bad.write_text("Ana 1800 2; 300\nLuis 1700 1; 2x0\n", encoding="utf-8")
    _, es, es_misses = cli("es", ["torneo", "clasificacion", str(bad)])
    _, en, en_misses = cli("en", ["torneo", "clasificacion", str(bad)])
    assert "línea 2: «2x0» no es un número (puntuaciones)" in es
    assert "line 2: “2x0” is not a number (scores)" in en
    t = str(tmp_path / "t.json")
    for args in (["crear", t], ["alta", t, "Ana"], ["alta", t, "Luis"]):
        assert cli("es", ["torneo", *args])[0].exit_code == 0
    for args, said_es, said_en in (
            (["emparejar", t, "--bye", "Nadie"], "no hay ningún jugador «Nadie» en el torneo",
             "there is no player “Nadie” in the tournament"),
            (["resultado", t, "--ronda", "2", "Ana", "400", "Luis", "300"],
             "la ronda 2 no está emparejada", "round 2 is not paired")):
        result, es, es_more = cli("es", ["torneo", *args])
        assert result.exit_code == 2 and said_es in es
        result, en, en_more = cli("en", ["torneo", *args])
        assert result.exit_code == 2 and said_en in en
        es_misses |= es_more
        en_misses |= en_more
    assert not es_misses and not en_misses


def test_outputs_in_english():
    result, text, misses = cli("en", ["check", "casa", "kiwi"])
    assert result.exit_code == 1 and text.splitlines() == ["casa: valid", "kiwi: not valid"]
    result, text, misses = cli("en", ["check", "--judge", "casa", "kiwi"])
    assert text.strip() == "jugada no válida (invalid play)" and not misses
    result, text, misses = cli("en", ["moves", "--top", "2", "--cgp", START])
    assert "1376 legal moves" in text and "leave:" in text and not misses
    result, text, misses = cli("en", ["show", "--cgp", START])
    assert "Player 1 (to move):" in text and "lower case = blank" in text and not misses


# --- the terminal ---------------------------------------------------------------------------

def play(lang: str, lines: list[str]) -> str:
    out = io.StringIO()
    run(io.StringIO("".join(line + "\n" for line in lines)), out, opponent="greedy", seed=1,
        lang=lang)
    return out.getvalue()


def test_the_terminal_speaks_english():
    i18n.misses.clear()
    out = play("en", ["A1 ARESTIN", "tablero", "salir"])
    assert "★ start   lower case = blank" in out  # the board's legend
    assert "Not possible: the first play must cover the centre square H8 (art. 6)" in out
    assert "You start." in out and "Game abandoned." in out
    assert not {m for m in i18n.misses if m[1] == "en"}
    out = play("es", ["A1 ARESTIN", "salir"])
    assert "★ salida   minúscula = comodín" in out
    assert "No se puede: la primera jugada debe ocupar la casilla central H8 (art. 6)" in out
