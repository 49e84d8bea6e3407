"""The server and the pages in the user's language (issue 11): each request speaks the language
of ``?lang=``, the ``atril-lang`` cookie or ``Accept-Language`` (Spanish by default), in the
event loop and in the thread pool alike; the texts of a game's view (verdicts, the planilla, the
result) follow whoever reads them, over HTTP and over each WebSocket; the pages take their
strings from the same catalog (``/i18n/<lang>.json``) and switch language in Chromium."""

from __future__ import annotations

import pytest
from conftest import served, upload_words
from test_web_api import act, mover, new_game, view

from atril import i18n
from atril.web.app import create_app

EN = {"Accept-Language": "en-GB,en;q=0.9"}
BAD_MODE_ES = "modo de partida desconocido «x»: computer, remote o local"
BAD_MODE_EN = "unknown game mode “x”: computer, remote or local"


def bad_mode(client, **request) -> str:
    r = client.post("/api/partidas", json={"mode": "x"}, **request)
    assert r.status_code == 400
    return r.json()["error"]


def test_api_errors_speak_the_requests_language(client):
    i18n.misses.clear()
    assert bad_mode(client) == BAD_MODE_ES  # made in the thread pool: the context is copied
    assert bad_mode(client, headers=EN) == BAD_MODE_EN
    assert bad_mode(client, headers={"Accept-Language": "fr, en;q=0.5"}) == BAD_MODE_EN
    assert bad_mode(client, headers={"Accept-Language": "fr, de"}) == BAD_MODE_ES
    assert bad_mode(client, params={"lang": "en"}) == BAD_MODE_EN
    cookie = {"Cookie": "atril-lang=en"}  # what the pages' language selector sets
    assert bad_mode(client, headers={**cookie, "Accept-Language": "es"}) == BAD_MODE_EN
    assert bad_mode(client, params={"lang": "es"}, headers=cookie) == BAD_MODE_ES
    assert client.get("/api/partidas/nada", headers=EN).json()["error"] == "there is no such game"
    assert client.get("/api/no/such", headers=EN).json()["error"] == "there is no such page"
    refused = client.post("/api/partidas", json={}, headers={**EN, "Origin": "http://evil.example"})
    assert refused.status_code == 403 and refused.json()["error"].startswith(
        "request from another website refused")
    assert not {m for m in i18n.misses if m[1] == "en"}


def test_a_games_texts_follow_whoever_reads_them(client):
    """One version of a game, read in two languages: the verdict, the planilla's adjustments
    and the result; and each WebSocket gets its own language."""
    game_id, tokens = new_game(client, mode="local")
    token = tokens["both"]
    state = view(client, game_id, token)
    rack = [t for t in state["rack"] if t != "?"]
    assert act(client, game_id, token, "play",
               placed=[["H7", rack[0]], ["H8", rack[1]], ["H9", rack[2]]]).status_code == 200
    assert act(client, game_id, token, "challenge").status_code == 200  # three tiles: no word
    url = f"/api/partidas/{game_id}?t={token}"
    assert client.get(url).json()["verdict"]["text"] == "jugada no válida"
    assert client.get(url, headers=EN).json()["verdict"]["text"] == \
        "jugada no válida (invalid play)"
    with client.websocket_connect(f"/ws/partidas/{game_id}") as es, \
            client.websocket_connect(f"/ws/partidas/{game_id}", headers=EN) as en:
        es.receive_json(), en.receive_json()
        for _turn in range(3):  # with the withdrawn play, two passes each: the end (art. 45.2)
            assert act(client, game_id, token, "pass").status_code == 200
            seen = es.receive_json()["state"], en.receive_json()["state"]
    over_es, over_en = (s["over"] for s in seen)
    assert over_es["text"] == "ambos jugadores han pasado dos veces seguidas"
    assert over_en["text"] == "both players have passed twice in a row"
    assert seen[0]["sheet"][-1]["text"].startswith("fichas en el atril (art. 45)")
    assert seen[1]["sheet"][-1]["text"].startswith("tiles on the rack (art. 45)")
    assert client.get(url, headers=EN).json()["over"]["text"] == over_en["text"]


def test_socket_errors_speak_the_sockets_language(client):
    game_id, tokens = new_game(client)
    token, _state = mover(client, game_id, tokens)
    with client.websocket_connect(f"/ws/partidas/{game_id}?t={token}&lang=en") as ws:
        ws.receive_json()
        ws.send_text("{")
        assert ws.receive_json()["error"] == "the message is not valid JSON"
        ws.send_text('{"action": "accept"}')
        error = ws.receive_json()
        assert error["error"] == "there is no pending play to accept or challenge"


def test_the_pages_strings_come_from_the_catalog(client):
    english = client.get("/i18n/en.json")
    assert english.status_code == 200
    strings = english.json()
    assert strings["Nueva partida"] == "New game"
    assert strings["{count} palabra"] == ["{count} word", "{count} words"]  # plural forms
    assert strings["Pasa el dispositivo a {name}"] == "Pass the device to {name}"
    again = client.get("/i18n/en.json", headers={"If-None-Match": english.headers["etag"]})
    assert again.status_code == 304
    assert "no-store" not in english.headers["cache-control"]
    assert client.get("/i18n/es.json").json() == {}  # the msgids are the Spanish
    assert client.get("/i18n/fr.json").status_code == 404


@pytest.fixture
def live(tmp_path):
    with served(create_app(f"sqlite:///{tmp_path / 'a.sqlite3'}", test_seeds=True)) as base:
        yield base


def test_the_pages_in_english(browser, live):
    """The selector switches the lobby to English (the server's names too), the choice holds
    on the game page, and an error the server sends shows in English."""
    page = browser.new_page()
    refused: list[str] = []  # what the Content-Security-Policy blocked, if anything
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    try:
        page.goto(live)
        page.wait_for_function("() => document.querySelector('select[name=level]').options.length")
        assert page.inner_text("h1") == "Nueva partida"
        page.select_option("#lang", "en")
        page.wait_for_function("() => document.documentElement.lang === 'en'")
        assert page.inner_text("h1") == "New game" and page.title() == "atril — Spanish Scrabble"
        assert page.inner_text("button[type=submit]") == "Create game"
        page.wait_for_function(
            "() => document.querySelector('select[name=level]').selectedOptions[0]"
            ".textContent.startsWith('Intermediate')")
        assert page.input_value("select[name=level]") == "intermedio"  # the choice is kept

        lexicon = upload_words(live)
        game = page.evaluate("""async (lexicon) => (await fetch('/api/partidas', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({mode: 'local', seed: 3, lexicon})})).json()""", lexicon)
        page.goto(f"{live}{game['url']}")
        page.wait_for_function("() => state !== null")
        assert page.inner_text("#play") == "Play" and page.inner_text("#pass") == "Pass"
        assert page.get_attribute("#board", "aria-label") == "board"
        page.click("#handoff-ok")
        for sq in (0, 1):  # two tiles far from the centre: refused by the server (art. 6)
            page.locator("#rack .tile:not(.used):not([data-letter='?'])").first.click()
            page.locator(f'#board .sq[data-sq="{sq}"]').click()
        page.click("#play")
        page.locator("#toast:not(.hidden)").wait_for()
        assert page.inner_text("#toast") == \
            "the first play must cover the centre square H8 (art. 6)"
    finally:
        page.close()
    assert refused == []
