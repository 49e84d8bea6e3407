"""The lexicon a ruleset names (issue 12, item 5): the lists installed for a ruleset
(``atril lexicon install``), the one place a game's default lexicon is chosen
(``Ruleset.lexicon``), and the notice when a game plays ES09 under rules whose text names
another list (FILE 2018 art. 2: the *Lexicon para Scrabble* 2017; FISE 2004: its own annex)."""

from __future__ import annotations

import gzip
import io
import json

import pytest
from click.testing import CliRunner

from atril import lexicon as lexicon_module
from atril.cli import main
from atril.errors import AtrilError, LexiconError
from atril.game import Game
from atril.kwg import Kwg
from atril.lexicon import Lexicon, install, installed, notice, unassign, uninstall
from atril.ruleset import Ruleset
from atril.terminal import Session

EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
WORDS = ["casa", "casas", "saca", "sacas", "asa", "asas", "cas", "ca", "sa"]


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    """A data folder and a lexicon cache of the test's own; the process cache emptied."""
    monkeypatch.setenv("ATRIL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("ATRIL_CACHE_DIR", str(tmp_path / "cache"))
    lexicon_module._LOADED.clear()
    yield tmp_path / "data"
    lexicon_module._LOADED.clear()


@pytest.fixture
def official(tmp_path):
    path = tmp_path / "lexicon-2017.txt"
    path.write_text("\n".join(WORDS), encoding="utf-8")
    return path


def cli(*args):
    return CliRunner().invoke(main, list(args))


# --- the registry ---------------------------------------------------------------------------

def test_an_installed_list_is_its_rulesets_default(official, data):  # FILE 2018 art. 2
    lexicon = install(official, ["FILE2024", "file-2018"])
    assert lexicon.id == "LEXICON-2017" and len(lexicon) == len(WORDS)
    assert Ruleset.get("FILE2024").lexicon == Ruleset.get("FILE2018").lexicon == "LEXICON-2017"
    assert Ruleset.get("FISE2009").lexicon == "ES09"  # the others keep theirs
    assert Ruleset.get("FILE2024").bundled_lexicon == "ES09"
    entry = installed()["LEXICON-2017"]
    assert entry.path.parent.parent == data and entry.name == "lexicon-2017.txt"
    assert set(entry.rulesets) == {"FILE2024", "FILE2018"} and entry.words == len(WORDS)


def test_a_list_is_compiled_once_and_kept(official, monkeypatch):
    install(official, ["FILE2024"], id="oficial")
    official.unlink()  # the data folder keeps a copy
    lexicon_module._LOADED.clear()
    monkeypatch.setattr(Kwg, "build_blob", lambda blob: pytest.fail("compiled again"))
    assert "sacas" in Lexicon.load("OFICIAL") and Lexicon.load("oficial").id == "OFICIAL"


def test_installing_an_id_again_replaces_its_list(official, tmp_path):
    install(official, ["FILE2024"], id="OFICIAL")
    gz = tmp_path / "otra.txt.gz"
    gz.write_bytes(gzip.compress(b"perro\nperros\n"))
    install(gz, ["FILE2018"], id="OFICIAL")
    lexicon = Lexicon.load("OFICIAL")
    assert "perro" in lexicon and "casa" not in lexicon
    assert [p.name for p in installed()["OFICIAL"].path.parent.glob("OFICIAL*")] == [
        "OFICIAL.txt.gz"]
    assert Ruleset.get("FILE2018").lexicon == Ruleset.get("FILE2024").lexicon == "OFICIAL"


def test_a_game_under_the_ruleset_plays_it(official):
    install(official, ["FILE2024"])
    game = Game(["Ana", "Luis"], ruleset="FILE2024", seed=1)
    assert game.position().lexicon == "LEXICON-2017"  # the one default: Ruleset.lexicon
    session = Session(io.StringIO("salir\n"), io.StringIO(), ruleset="FILE2024", seed=1)
    assert session.lexicon.id == "LEXICON-2017"
    out = io.StringIO()
    Session(io.StringIO("salir\n"), out, ruleset="FILE2024", seed=1).play()
    assert "Lexicon para Scrabble" not in out.getvalue()  # nothing to warn about


def test_remove_for_a_ruleset_and_uninstall(official):
    install(official, ["FILE2024", "FILE2018"])
    assert unassign(["FILE2018", "FISE2009"]) == {"FILE2018": "LEXICON-2017"}
    assert Ruleset.get("FILE2018").lexicon == "ES09"
    assert "LEXICON-2017" in installed()  # still installed, still loadable by its id
    assert uninstall("lexicon-2017") == ("FILE2024",)
    assert installed() == {} and Ruleset.get("FILE2024").lexicon == "ES09"
    with pytest.raises(LexiconError, match="no hay ninguna lista instalada"):
        uninstall("LEXICON-2017")


@pytest.mark.parametrize("content, message", [
    (None, "no existe la lista"),
    (b"\x00\x01\x02binario", "no es una lista de palabras"),
    (b"", "está vacía"),
    (b"k\nw\n1234\n", "ninguna palabra válida"),
])
def test_bad_lists_are_refused_and_nothing_is_installed(tmp_path, content, message):
    path = tmp_path / "lista.txt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(LexiconError, match=message):
        install(path, ["FILE2024"])
    assert installed() == {} and Ruleset.get("FILE2024").lexicon == "ES09"


def test_bad_ids_and_rulesets(official):
    for bad in ("ES09", "es09-raw", "U-123", "con espacio", "x" * 40):
        with pytest.raises(LexiconError, match="no sirve como nombre"):
            install(official, ["FILE2024"], id=bad)
    with pytest.raises(AtrilError, match="reglamento desconocido"):
        install(official, ["FILE2099"])
    assert installed() == {}


@pytest.mark.parametrize("damage", ["{roto", '{"lexicons": {"X": {"file": 3}}, "rulesets": {}}',
                                    '{"lexicons": {}, "rulesets": {"FILE2024": null}}', "[]"])
def test_a_damaged_registry_says_so(official, data, damage):
    install(official, ["FILE2024"])
    (data / "lexicons" / "installed.json").write_text(damage, encoding="utf-8")
    with pytest.raises(LexiconError, match="está dañado"):
        Lexicon.load(Ruleset.get("FILE2024").lexicon)


def test_a_missing_copy_says_so(official):
    install(official, ["FILE2024"])
    installed()["LEXICON-2017"].path.unlink()
    lexicon_module._LOADED.clear()
    with pytest.raises(LexiconError, match="vuelve a instalarla"):
        Lexicon.load("LEXICON-2017")


# --- saying it plainly ------------------------------------------------------------------------

def test_the_notice_names_the_texts_list():  # FILE 2018 art. 2; FISE 2004 annex
    said = notice("FILE2024", "ES09")
    assert "Lexicon para Scrabble 2017" in said and "ES09" in said
    assert "2004" in notice("FISE2004", "es09-raw") and "ES09-RAW" in notice("FISE2004", "ES09-RAW")
    assert notice("FISE2009", "ES09") is None and notice("LIBRE", "ES09") is None
    assert notice("FILE2018", "LEXICON-2017") is None  # a list of the user's own
    assert Ruleset.get("FILE2018").text_lexicon and Ruleset.get("FISE2009").text_lexicon is None


def test_the_terminal_says_it_when_the_game_starts():
    out = io.StringIO()
    Session(io.StringIO("salir\n"), out, ruleset="FILE2018", seed=1).play()
    text = out.getvalue()
    assert notice("FILE2018", "ES09") in text
    assert "atril lexicon install RUTA --for FILE2018" in text
    out = io.StringIO()
    Session(io.StringIO("salir\n"), out, ruleset="FISE2009", seed=1).play()
    assert "Lexicon para Scrabble" not in out.getvalue()


def test_json_outputs_carry_the_lexicon_id(official):
    cgp = f"{EMPTY} AEIRSTN/ 0/0 0"
    assert json.loads(cli("check", "--json", "casa").output)["lexicon"] == "ES09"
    assert json.loads(cli("check", "--json", "--judge", "casa").output)["lexicon"] == "ES09"
    score = cli("score", "--json", "--cgp", cgp, "--move", "H2 ARESTIN")
    assert json.loads(score.output)["lexicon"] == "ES09"
    moves = cli("moves", "--json", "--top", "1", "--cgp", cgp, "--lexicon", "ES09-RAW")
    assert json.loads(moves.output)["lexicon"] == "ES09-RAW"
    install(official, ["FILE2024"])
    played = cli("selfplay", "--games", "1", "--json", "--ruleset", "FILE2024")
    assert played.exit_code == 0, played.output
    assert json.loads(played.stdout)["lexicon"] == "LEXICON-2017"
    played = cli("selfplay", "--games", "1", "--json", "--ruleset", "FILE2018")
    assert json.loads(played.stdout)["lexicon"] == "ES09"
    assert notice("FILE2018", "ES09") in played.stderr  # said where people read


# --- the command --------------------------------------------------------------------------------

def test_the_lexicon_command(official):
    result = cli("lexicon", "install", str(official), "--for", "FILE2024", "--id", "oficial")
    assert result.exit_code == 0, result.output
    assert "instalada la lista OFICIAL (9 palabras)" in result.output
    listed = json.loads(cli("lexicon", "list", "--json").output)
    rows = {row["ruleset"]: row for row in listed["rulesets"]}
    assert rows["FILE2024"]["lexicon"] == "OFICIAL" and rows["FILE2024"]["installed"]
    assert rows["FILE2018"]["lexicon"] == "ES09" and "2017" in rows["FILE2018"]["text_lexicon"]
    assert [entry["id"] for entry in listed["installed"]] == ["OFICIAL"]
    text = cli("lexicon", "list").output
    assert "FILE2024   OFICIAL" in text and "OFICIAL: 9 palabras" in text
    assert "vuelve a usar ES09" in cli("lexicon", "remove", "--for", "FILE2024").output
    assert "borrada la lista OFICIAL" in cli("lexicon", "remove", "oficial").output
    assert "Ninguna lista instalada" in cli("lexicon", "list").output


@pytest.mark.parametrize("args, message", [
    (["install", "nope.txt", "--for", "FILE2024"], "no existe la lista"),
    (["install", "nope.txt", "--for", "FILE2099"], "FILE2099"),
    (["install", "nope.txt"], "--for"),
    (["remove"], "indica una lista instalada"),
    (["remove", "NOPE"], "no hay ninguna lista instalada"),
])
def test_bad_input_is_a_clear_error(args, message):
    result = cli("lexicon", *args)
    assert result.exit_code == 2 and message in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
