"""The lexicon a ruleset names, in the web app (issue 12, item 5): the lobby offers each
ruleset's own list (one the server installed for it with ``atril lexicon install``), a game that
names none plays it, and the lobby says plainly when the rules' text names another list than the
bundled one chosen (FILE 2018 art. 2: the *Lexicon para Scrabble* 2017)."""

from __future__ import annotations

import pytest
from conftest import screenshot, served

from atril import lexicon as lexicon_module
from atril.lexicon import install
from atril.web.app import create_app

WORDS = "\n".join(a + b for a in "aeiou" for b in "lmnrst")


@pytest.fixture
def official(tmp_path, monkeypatch):
    """A data folder of the test's own, and an official list to install there."""
    monkeypatch.setenv("ATRIL_DATA_DIR", str(tmp_path / "data"))
    lexicon_module._LOADED.clear()
    path = tmp_path / "oficial.txt"
    path.write_text(WORDS, encoding="utf-8")
    yield path
    lexicon_module._LOADED.clear()


def rulesets(client, lang: str = "es") -> dict:
    return {r["id"]: r for r in client.get(f"/api/opciones?lang={lang}").json()["rulesets"]}


def test_the_options_and_a_new_game_follow_the_installed_list(client, official):
    before = rulesets(client)
    assert before["FILE2024"]["lexicon"] == "ES09"
    assert "Lexicon para Scrabble 2017" in before["FILE2024"]["lexicon_notes"]["ES09"]
    assert "ES09-RAW" in before["FILE2018"]["lexicon_notes"]["ES09-RAW"]
    assert before["FISE2009"]["lexicon_notes"] == {} and before["LIBRE"]["lexicon_notes"] == {}
    assert "uses the Lexicon" in rulesets(client, "en")["FILE2024"]["lexicon_notes"]["ES09"]

    install(official, ["FILE2024"])
    after = rulesets(client)
    assert after["FILE2024"]["lexicon"] == "OFICIAL" and after["FILE2018"]["lexicon"] == "ES09"
    offered = [lexicon["id"] for lexicon in client.get("/api/opciones").json()["lexicons"]]
    assert offered == ["ES09", "ES09-RAW", "OFICIAL"]
    r = client.post("/api/partidas", json={"mode": "local", "ruleset": "FILE2024", "seed": 3})
    assert r.status_code == 201, r.text
    game_id, token = r.json()["id"], r.json()["token"]
    state = client.get(f"/api/partidas/{game_id}?t={token}").json()
    assert state["lexicon"] == "OFICIAL"
    client.app.state.games._cache.clear()  # read back from the store: the id loads again
    assert client.get(f"/api/partidas/{game_id}?t={token}").json()["lexicon"] == "OFICIAL"


def test_the_lobby_says_which_list_the_rules_name(browser, official, tmp_path):
    install(official, ["FILE2018"])
    app = create_app(f"sqlite:///{tmp_path / 'lobby.sqlite3'}", rate_limits=False)
    with served(app) as base:
        page = browser.new_page(viewport={"width": 1000, "height": 1100})
        page.goto(base + "/")
        page.wait_for_function("() => document.querySelector('select[name=ruleset]').options"
                               ".length > 0")
        note = page.locator("#lexicon-note")
        assert page.input_value("select[name=lexicon]") == "ES09" and note.is_hidden()
        page.select_option("select[name=ruleset]", "FILE2024")
        assert note.is_visible() and "Lexicon para Scrabble 2017" in note.inner_text()
        assert "ES09" in note.inner_text()
        screenshot(page, "vestibulo-lexico-del-reglamento")
        page.select_option("select[name=ruleset]", "FILE2018")  # its own list, installed here
        assert page.input_value("select[name=lexicon]") == "OFICIAL" and note.is_hidden()
        page.select_option("select[name=lexicon]", "ES09-RAW")
        assert note.is_visible() and "ES09-RAW" in note.inner_text()
        page.select_option("select[name=ruleset]", "FISE2009")
        assert page.input_value("select[name=lexicon]") == "ES09" and note.is_hidden()
