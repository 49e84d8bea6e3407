"""The pages in Chromium (Playwright): a whole game against the computer played through the page,
two browsers playing each other with challenges and an exchange, a reload, a phone screen.

The game against the computer uses the bundled ES09 list; the others the two-tile list
(conftest), where any two tiles make a word and three never do.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

from atril import movegen
from atril import tiles as T
from atril.board import Board
from atril.lexicon import Lexicon

from conftest import TWO_TILE_WORDS, screenshot, upload_words

TWO_TILES = Lexicon.from_words(TWO_TILE_WORDS.splitlines(), id="PRUEBA")
READY = "() => state && (state.over || state.can.play)"


def create(base: str, **options) -> dict:
    options.setdefault("lexicon", upload_words(base))
    req = urllib.request.Request(f"{base}/api/partidas", data=json.dumps(options).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    return json.load(urllib.request.urlopen(req))


def page_state(page) -> dict:
    return page.evaluate("() => state")


def best_move(state: dict, lexicon: Lexicon = TWO_TILES):
    board = Board(bytes(_code(t) for t in state["board"]))
    rack = tuple(T.BLANK if t == "?" else T.code(t) for t in state["rack"])
    found = movegen.best(board, rack, lexicon, n=1)
    return found[0] if len(found) else None


def _code(text: str | None) -> int:
    if not text:
        return T.EMPTY
    code = T.code(text)
    return code | T.BLANK_BIT if text != text.upper() else code


def place(page, sq: int, tile: int, *, drag: bool = False) -> None:
    """Put a rack tile on a square: by dragging or by two clicks; a blank asks its letter."""
    letter = "?" if tile & T.BLANK_BIT else T.tile_to_human(tile)
    source = page.locator(f'#rack .tile:not(.used)[data-letter="{letter}"]').first
    target = page.locator(f'#board .sq[data-sq="{sq}"]')
    if drag:
        source.drag_to(target)
    else:
        source.click()
        target.click()
    if letter == "?":
        name = T.TILES[T.letter_of(tile) - 1].letter
        page.locator(f'#blank-picker button[data-letter="{name}"]').click()


def test_a_whole_game_against_the_computer(server, browser):
    game = create(server.base, mode="computer", seed=21, minutes=30, lexicon="ES09")
    es09 = Lexicon.load("ES09")
    page = browser.new_page(viewport={"width": 1200, "height": 950})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + game["url"])
    turns = 0
    for _ in range(200):
        page.wait_for_function(READY, timeout=15000)
        state = page_state(page)
        if state["over"]:
            break
        if state["can"]["accept"]:
            page.click("#accept")
            page.wait_for_function(f"() => state.version > {state['version']}")
            continue
        cand = best_move(state, es09)
        if cand is None:
            page.click("#pass")
        else:
            for i, (sq, tile) in enumerate(cand.placed):
                place(page, sq, tile, drag=i == 0)
            page.click("#play")
        turns += 1
        page.wait_for_function(f"() => state.version > {state['version']}")
    state = page_state(page)
    assert state["over"], "la partida no terminó"
    assert turns > 5, [(r["name"], r["text"]) for r in state["sheet"]]
    print(f"partida de {turns} turnos; final: {state['over']['text']}")
    over = page.locator("#over")
    over.wait_for()
    assert "art." in over.inner_text()
    assert page.locator("#gcg").get_attribute("href").endswith(game["url"].split("?t=")[1])
    page.click("#show-analysis")
    page.locator("#analysis table").wait_for()
    assert page.locator("#analysis tr").count() == len(state["sheet"]) - len(
        state["over"]["adjustments"]) + 1
    screenshot(page, "partida-terminada")
    assert not errors


def test_two_browsers_challenges_exchange_and_reload(server, browser, tmp_path):
    words = tmp_path / "dos.txt"
    words.write_text(TWO_TILE_WORDS)
    one = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    one.goto(server.base + "/")
    one.check("input[name=mode][value=remote]")
    one.fill("input[name=name0]", "Ana")
    one.fill("input[name=name1]", "Luis")
    one.set_input_files("input[name=wordlist]", str(words))
    one.click("button[type=submit]")
    one.locator("#invite:not(.hidden)").wait_for()
    invite = one.locator("#invite-link").get_attribute("href")
    one.click("#own-link")
    two = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    two.goto(invite)
    pages = {0: one, 1: two}
    for p in pages.values():
        p.wait_for_function("() => state && !state.waiting_for_rival")
    state = page_state(one)
    first = pages[state["to_move"]]
    other = pages[1 - state["to_move"]]
    first.wait_for_function(READY)

    # 1. three tiles typed on the board: no such word; the opponent challenges
    rack = [t for t in page_state(first)["rack"] if len(t) == 1 and t != "?"]
    picks = [rack[0]]
    for t in rack[1:]:
        if (picks[-1] + t).upper() not in ("CH", "LL", "RR") and len(picks) < 3:
            picks.append(t)
    first.click('#board .sq[data-sq="111"]')  # H7, across
    for letter in picks:
        first.keyboard.press(letter.lower())
    assert first.locator("#board .tile.new").count() == 3
    first.keyboard.press("Enter")
    other.locator("#challenge").wait_for()
    other.click("#challenge")
    for p in pages.values():
        p.locator("#verdict.bad").wait_for()
        assert p.locator("#verdict").inner_text() == "jugada no válida"
    screenshot(other, "impugnacion-no-valida")

    # 2. the other player plays two tiles by clicking; the challenge fails
    other.wait_for_function(READY)
    cand = best_move(page_state(other))
    for sq, tile in cand.placed:
        place(other, sq, tile)
    other.click("#play")
    first.locator("#challenge").wait_for()
    first.click("#challenge")
    for p in pages.values():
        p.locator("#verdict.ok").wait_for()
        assert p.locator("#verdict").inner_text() == "jugada correcta"

    # 3. an exchange of two tiles through the dialog
    first.wait_for_function(READY)
    before = page_state(first)
    first.click("#exchange")
    first.locator("#exchange-picker .tile").nth(0).click()
    first.locator("#exchange-picker .tile").nth(1).click()
    first.click("#exchange-do")
    for p in pages.values():
        p.wait_for_function(f"() => state.version > {before['version']}")
        assert p.locator("#sheet").inner_text().count("C-2") == 1
    assert "cambio" not in other.locator("#sheet").inner_text()

    # 4. a reload in the middle of the game restores it
    seen = page_state(other)
    other.reload()
    other.wait_for_function("() => state !== null")
    again = page_state(other)
    assert again["rack"] == seen["rack"] and again["board"] == seen["board"]
    assert other.locator("#board .tile").count() == sum(1 for t in seen["board"] if t)
    screenshot(first, "dos-navegadores")


def test_phone_screen_and_a_blank(server, browser):
    for seed in range(1, 200):
        game = create(server.base, mode="local", seed=seed)
        token = game["tokens"]["both"]
        view = json.load(urllib.request.urlopen(
            f"{server.base}/api/partidas/{game['id']}?t={token}"))
        if "?" in view["rack"] and any(len(t) == 1 and t != "?" for t in view["rack"]):
            break
    else:
        pytest.fail("ninguna semilla da un comodín")
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True,
                            has_touch=True, device_scale_factor=2)
    page.goto(server.base + game["url"])
    page.wait_for_function(READY)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"la página es más ancha que el teléfono: {width}px"
    box = page.locator("#board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    real = next(t for t in page_state(page)["rack"] if len(t) == 1 and t != "?")
    page.locator('#rack .tile[data-letter="?"]').first.tap()
    page.locator('#board .sq[data-sq="112"]').tap()
    page.locator('#blank-picker button[data-letter="CH"]').tap()
    page.locator(f'#rack .tile:not(.used)[data-letter="{real}"]').first.tap()
    page.locator('#board .sq[data-sq="113"]').tap()
    page.locator("#play").tap()
    page.wait_for_function("() => state.board[112] === 'ch'")
    assert page.locator('#board .sq[data-sq="112"] .tile.blank').inner_text().startswith("CH")
    screenshot(page, "telefono")
