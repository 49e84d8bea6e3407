"""The judge page (/juez) in headless Chromium against a real server, and the judge and study
JSON endpoints. The server is ``atril.web.app`` run by uvicorn in a thread."""

from __future__ import annotations

import json

import pytest
from conftest import screenshot, served
from starlette.testclient import TestClient

from atril.web.app import create_app

CORRECT, INVALID = "JUGADA CORRECTA", "JUGADA NO VÁLIDA"  # art. 40


def make_app(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'atril.sqlite3'}")
    app.state.judge_log = str(tmp_path / "juez.jsonl")
    return app


@pytest.fixture
def api(tmp_path):
    with TestClient(make_app(tmp_path)) as client:
        yield client


@pytest.fixture
def live(tmp_path):
    """A real HTTP server for the browser: (base URL, judgment log path)."""
    with served(make_app(tmp_path)) as base:
        yield base, tmp_path / "juez.jsonl"


# --- JSON endpoints --------------------------------------------------------------------------

def test_judge_api(api, tmp_path):
    capital = api.post("/juez/api/juzgar", json={"palabras": "Lluvia Chocho Charro"})
    assert capital.json()["valid"]  # art. 11: typed words, case means nothing
    ok = api.post("/juez/api/juzgar", json={"palabras": "casa perro"})
    assert ok.status_code == 200 and ok.json() == {"verdict": CORRECT, "valid": True}
    for words in (["xyzzy", "casa"], ["casa", "xyzzy"], "kiwi"):  # art. 40: one answer
        bad = api.post("/juez/api/juzgar", json={"palabras": words})
        assert bad.json() == {"verdict": INVALID, "valid": False}
    assert api.post("/juez/api/juzgar", json={"palabras": ""}).status_code == 400
    assert api.post("/juez/api/juzgar", content=b"{",
                    headers={"Content-Type": "application/json"}).status_code == 400
    assert api.post("/juez/api/juzgar", content=b"{}").status_code == 415  # a form can't
    unknown = api.post("/juez/api/juzgar", json={"palabras": "casa", "lexico": "/etc/passwd"})
    assert unknown.status_code == 400 and "error" in unknown.json()
    log = [json.loads(line) for line in (tmp_path / "juez.jsonl").read_text().splitlines()]
    assert [e["verdict"] for e in log] == [CORRECT, CORRECT, INVALID, INVALID, INVALID]


def test_judge_with_an_uploaded_lexicon(api):
    lex = api.post("/api/lexicos?nombre=prueba", content=b"zuzar\nxx\n",
                   headers={"Content-Type": "application/octet-stream"}).json()["id"]
    def judge(words: str) -> bool:
        return api.post("/juez/api/juzgar", json={"palabras": words, "lexico": lex}).json()["valid"]

    assert judge("zuzar xx") and not judge("casa")


def test_study_api(api):
    r = api.get("/estudio/api/anagrama", params={"atril": "chaval?"}).json()
    assert r["results"][0] == {"word": "CHAVALa", "tiles": 6, "blanks": ["A"]}
    r = api.get("/estudio/api/patron", params={"patron": "?ACH*", "limite": 3}).json()
    assert [x["word"] for x in r["results"]] == ["BACHACA", "BACHACAS", "BACHACO"]
    assert r["complete"] is False
    r = api.get("/estudio/api/patron", params={"patron": "*[AEIOU]RR?", "orden": "prob"}).json()
    assert r["complete"] and r["results"][0]["rank"] == 1
    r = api.get("/estudio/api/construir", params={"atril": "casa"}).json()
    assert r["results"][0]["tiles"] == 4
    r = api.get("/estudio/api/ganchos", params={"palabras": "casa"}).json()
    assert "S" in r["results"][0]["back"]
    r = api.get("/estudio/api/lista", params={"longitud": "2", "limite": 2000}).json()
    assert r["total"] == len(r["results"]) and all(x["tiles"] == 2 for x in r["results"])
    for path, params in [("anagrama", {"atril": "kilo"}), ("patron", {"patron": "[A"}),
                         ("lista", {}), ("anagrama", {}),
                         ("patron", {"patron": "A", "limite": "x"})]:
        bad = api.get(f"/estudio/api/{path}", params=params)
        assert bad.status_code == 400 and bad.json()["error"]


def test_pages_are_served(api):
    for path in ("/juez/", "/estudio/"):
        r = api.get(path)
        assert r.status_code == 200 and "<html" in r.text
    assert api.get("/juez/static/juez.js").status_code == 200
    assert api.get("/estudio/static/estudio.js").status_code == 200


# --- the page in a browser -------------------------------------------------------------------

def judge_in_page(page, words: str) -> str:
    page.fill("#palabras", words)
    page.press("#palabras", "Enter")
    page.wait_for_selector("#veredicto:not(.oculto)")
    return page.inner_text("#veredicto")


def test_judge_page(browser, live):
    base, log_path = live
    page = browser.new_page()
    try:
        page.goto(f"{base}/juez/?segundos=1")
        assert judge_in_page(page, "casa, perro") == CORRECT
        assert page.get_attribute("#veredicto", "class") == "correcta"
        screenshot(page, "juez-correcta")
        # the verdict clears itself, field included, ready for the next challenge
        page.wait_for_selector("#veredicto.oculto", state="attached", timeout=5000)
        assert page.input_value("#palabras") == ""

        assert judge_in_page(page, "casa xyzzy") == INVALID  # never which word failed
        assert page.get_attribute("#veredicto", "class") == "no-valida"
        assert "XYZZY" not in page.inner_text("#veredicto").upper()
        screenshot(page, "juez-no-valida")
        page.wait_for_selector("#veredicto.oculto", state="attached", timeout=5000)

        page.click("button[type=submit]")  # nothing typed: a hint, no verdict
        assert page.inner_text("#aviso")
        assert page.get_attribute("#veredicto", "class") == "oculto"
    finally:
        page.close()
    entries = [json.loads(line) for line in log_path.read_text().splitlines()]
    assert [e["words"] for e in entries] == [["casa", "perro"], ["casa", "xyzzy"]]


def test_study_page(browser, live):
    base, _ = live
    page = browser.new_page()
    try:
        page.goto(f"{base}/estudio/")
        page.fill("#texto", "chaval?")
        page.click("button[type=submit]")
        page.wait_for_selector(".palabras span")
        assert "CHAVALa" in page.inner_text("#resultados")
        page.select_option("#tipo", "patron")
        page.fill("#texto", "[A")
        page.click("button[type=submit]")
        page.wait_for_selector("#error:not(:empty)")  # the page's CSP forbids eval
        assert "]" in page.inner_text("#error")
    finally:
        page.close()
