"""The study searches' limits: a work budget per request, pages, and worker processes with a
bound on searches in flight and a time limit. Speed is measured in bench/bench_wordtools.py,
never asserted here."""

from __future__ import annotations

import multiprocessing
import re
import threading
import time
from collections.abc import Callable

import pytest
from conftest import screenshot, served
from starlette.testclient import TestClient

from atril import wordtools as W
from atril.lexicon import Lexicon
from atril.web import study
from atril.web.app import create_app

WIDEST = {"patron": "*", "orden": "prob"}  # every word, ranked: 36 s in the audit


@pytest.fixture
def api(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.sqlite3'}")) as client:
        yield client


def get(api, kind: str, **params):
    r = api.get(f"/estudio/api/{kind}", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def spawned(action: Callable[[], object]) -> multiprocessing.Process:
    """The worker process an action started (an app's first search starts its pool)."""
    before = set(multiprocessing.active_children())
    action()
    (worker,) = set(multiprocessing.active_children()) - before
    return worker


def wait_dead(process: multiprocessing.Process) -> None:
    deadline = time.monotonic() + 10
    while process.is_alive():
        assert time.monotonic() < deadline, "the worker is still running"
        time.sleep(0.05)


def test_the_widest_search_is_cut_and_says_so(api):
    r = get(api, "patron", **WIDEST)
    assert r["complete"] is False and r["total"] == study.MAX_RANKED
    assert r["note"].startswith("búsqueda demasiado amplia") and "afina el patrón" in r["note"]
    assert len(r["results"]) == study.DEFAULT_LIMIT and r["siguiente"] == study.DEFAULT_LIMIT
    assert [x["rank"] for x in r["results"][:3]] == [1, 2, 3]  # ranked among those found
    whole = get(api, "lista", longitud="1-15", limite=2000)  # alphabetical: a larger budget
    assert not whole["complete"] and whole["total"] == study.MAX_WORDS and "note" in whole
    small = get(api, "patron", patron="*[AEIOU]RR?", orden="prob", limite=2000)
    assert small["complete"] and "note" not in small and "siguiente" not in small


@pytest.mark.parametrize("kind, params", [
    ("patron", {"patron": "CHA*RR*"}),
    ("patron", {"patron": "*[AEIOU]RR?", "orden": "prob"}),
    ("construir", {"atril": "CHAVAL?"}),
    ("lista", {"longitud": "2"}),
])
def test_pages_are_consecutive_and_make_the_whole(api, kind, params):
    whole = get(api, kind, **params, limite=2000)
    assert whole["complete"] and "siguiente" not in whole and whole["desde"] == 0
    assert 50 < whole["total"] == len(whole["results"]) < 1000
    size = whole["total"] // 4 + 1  # four pages, the last one shorter
    pages, start = [], 0
    while True:
        page = get(api, kind, **params, limite=size, desde=start)
        assert page["desde"] == start and len(page["results"]) <= size
        pages.append(page["results"])
        if "siguiente" not in page:
            break
        assert page["siguiente"] == start + size and len(page["results"]) == size
        start = page["siguiente"]
    assert [x for p in pages for x in p] == whole["results"] and len(pages) == 4
    last = get(api, kind, **params, limite=size, desde=whole["total"])
    assert last["results"] == [] and "siguiente" not in last


def test_alphabetical_patterns_stop_one_past_the_page(api):
    r = get(api, "patron", patron="?ACH*", limite=3, desde=2)
    assert [x["word"] for x in r["results"]] == ["BACHACO", "BACHACOS", "BACHATA"]
    assert (r["total"], r["complete"], r["siguiente"]) == (6, False, 5) and "note" not in r


@pytest.mark.parametrize("params", [{"desde": "-1"}, {"desde": "x"},
                                    {"desde": str(study.MAX_WORDS + 1)}])
def test_bad_pages_are_400(api, params):
    r = api.get("/estudio/api/patron", params={"patron": "CASA", **params})
    assert r.status_code == 400 and r.json()["error"] and r.json()["article"] is None


def test_searches_beyond_the_bound_get_503(api, monkeypatch):
    monkeypatch.setattr(study, "WORKERS", 1)
    monkeypatch.setattr(study, "WAIT_SECONDS", 0.2)
    answers: list = []
    threads = [threading.Thread(target=lambda: answers.append(
        api.get("/estudio/api/patron", params=WIDEST))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status_code for r in answers) == [200, 503]
    busy = next(r for r in answers if r.status_code == 503).json()
    assert busy == {"error": study.BUSY, "article": None}
    assert get(api, "anagrama", atril="CHAVAL?")["total"] == 2  # the slot is free again


def test_a_search_past_its_time_is_503_and_its_worker_replaced(api, monkeypatch):
    old = spawned(lambda: get(api, "anagrama", atril="CHAVAL?"))
    monkeypatch.setattr(study, "TIMEOUT_SECONDS", 0.05)
    r = api.get("/estudio/api/patron", params=WIDEST)
    assert r.status_code == 503 and r.json() == {"error": study.TOO_SLOW, "article": None}
    wait_dead(old)
    monkeypatch.setattr(study, "TIMEOUT_SECONDS", 10.0)
    new = spawned(lambda: get(api, "anagrama", atril="CHAVAL?"))  # a new worker answers
    assert new.is_alive()


def test_the_pool_stops_with_the_app(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.sqlite3'}")) as client:
        worker = spawned(lambda: get(client, "ganchos", palabras="casa"))
    wait_dead(worker)


def test_an_uploaded_lexicon_works_in_the_worker(tmp_path, monkeypatch):
    monkeypatch.setenv("ATRIL_CACHE_DIR", str(tmp_path / "cache"))  # before the worker starts
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.sqlite3'}")) as client:
        up = client.post("/api/lexicos?nombre=x", content="casa\ncasas\nsaca\nchacha\nzuzar\n",
                         headers={"Content-Type": "application/octet-stream"})
        assert up.status_code == 201, up.text
        lex = up.json()["id"]
        r = get(client, "patron", patron="*", lexico=lex)
        assert [x["word"] for x in r["results"]] == ["CASA", "CASAS", "CHACHA", "SACA", "ZUZAR"]
        assert [x["word"] for x in get(client, "anagrama", atril="AACS", lexico=lex)["results"]
                ] == ["CASA", "SACA"]
        assert get(client, "ganchos", palabras="casa", lexico=lex)["results"][0]["back"] == ["S"]
        assert get(client, "lista", contiene="CH", lexico=lex)["total"] == 1
        assert len(list((tmp_path / "cache").glob("estudio-*.kwg"))) == 1  # written once
        missing = client.get("/estudio/api/patron", params={"patron": "*", "lexico": "U-0"})
        assert missing.status_code == 400 and "U-0" in missing.json()["error"]


# --- the library without a budget: what it always answered -----------------------------------

@pytest.fixture(scope="module")
def es09() -> Lexicon:
    return Lexicon.load("ES09")


def regex_of(pattern: W.Pattern) -> re.Pattern[str]:
    """The pattern as a regular expression over words written one character per tile."""
    def item(it) -> str:
        return ".*" if it == W.STAR else "[" + "".join(re.escape(chr(0x40 + t)) for t in it) + "]"

    return re.compile("".join(item(it) for it in pattern.items) + r"\Z")


@pytest.mark.parametrize("text", ["?ACH*", "*CION", "C*N", "*LL*Ñ*", "[^AEIOU]*[AEIOU]RR?"])
def test_patterns_without_a_budget_find_every_word(es09, text):
    pattern = W.Pattern.parse(text)
    rx = regex_of(pattern)
    expected = [w for w in es09.words() if rx.match("".join(chr(0x40 + t) for t in w))]
    assert [f.letters for f in W.pattern_words(es09, pattern)] == expected
    roomy = W.Budget(10 ** 9, 10 ** 9)
    assert W.pattern_words(es09, pattern, budget=roomy) == W.pattern_words(es09, pattern)
    assert not roomy.cut and roomy.nodes > 0


def test_other_searches_without_a_budget_are_unchanged(es09):
    roomy = W.Budget(10 ** 9, 10 ** 9)
    searches = [lambda **b: W.anagrams(es09, "AEIRST??", **b),
                lambda **b: W.buildable(es09, "CHAVAL?", min_length=3, **b),
                lambda **b: W.word_list(es09, min_length=5, max_length=5, contains="Ñ", **b)]
    for search in searches:
        assert search() == search(budget=roomy) and not roomy.cut
    assert len(W.buildable(es09, "CHAVAL?", min_length=3)) == len(
        [f for f in W.buildable(es09, "CHAVAL?") if len(f.tiles) >= 3])


# --- the page ---------------------------------------------------------------------------------

@pytest.fixture
def live(tmp_path):
    """The app served by uvicorn in a thread: its base URL."""
    with served(create_app(f"sqlite:///{tmp_path / 'a.sqlite3'}")) as base:
        yield base


def test_the_page_pages_and_shows_the_note(browser, live):
    page = browser.new_page()
    refused: list[str] = []  # what the Content-Security-Policy blocked, if anything
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    try:
        page.goto(f"{live}/estudio/")
        page.select_option("#tipo", "patron")
        page.fill("#texto", "CHA*RR*")  # 572 words: three pages of 200
        page.click("button[type=submit]")
        page.wait_for_selector(".palabras span")
        assert page.locator(".palabras span").count() == 200
        assert page.inner_text("#resumen").startswith("Al menos 201 palabras")
        for shown in (400, 572):
            page.click("#mas")
            page.locator(f".palabras span >> nth={shown - 1}").wait_for()
        assert page.locator(".palabras span").count() == 572
        assert page.is_hidden("#mas") and page.is_hidden("#nota")
        assert page.inner_text("#resumen") == "572 palabras."

        page.fill("#texto", "*")
        page.select_option("#orden", "prob")
        page.click("button[type=submit]")
        page.wait_for_selector("#nota:not(.oculto)", timeout=30000)
        assert "demasiado amplia" in page.inner_text("#nota")
        assert page.is_visible("#mas")
        screenshot(page, "estudio-recortada")
    finally:
        page.close()
    assert refused == []
