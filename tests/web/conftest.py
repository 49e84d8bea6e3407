"""Fixtures for the web app: databases (SQLite always, PostgreSQL when ``ATRIL_TEST_PG_URL`` is
set), an in-process client, real server processes, and Chromium for the browser tests.

Tests needing PostgreSQL or Chromium skip when those are missing, and fail instead when
``ATRIL_REQUIRE_SERVICES=1`` (as in CI).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from atril import tiles as T

PG_URL = os.environ.get("ATRIL_TEST_PG_URL")
REQUIRE = os.environ.get("ATRIL_REQUIRE_SERVICES") == "1"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).parent / "screenshots"

#: the test word list: every word of two tiles, nothing longer. Any two tiles side by side make
#: a word, any three do not: plays are easy to find and invalid ones easy to make.
LETTERS = [t.letter.lower() for t in T.TILES]
TWO_TILE_WORDS = "\n".join(a + b for a, b in itertools.product(LETTERS, LETTERS))


def missing(what: str) -> None:
    """Skip, or fail when the services are required."""
    if REQUIRE:
        pytest.fail(f"{what} hace falta (ATRIL_REQUIRE_SERVICES=1)")
    pytest.skip(f"{what} no está disponible")


@pytest.fixture(scope="session")
def pg_url():
    """A fresh PostgreSQL database for this test session."""
    if not PG_URL:
        missing("PostgreSQL (ATRIL_TEST_PG_URL)")
    import psycopg

    name = f"atril_test_{uuid.uuid4().hex[:8]}"
    try:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
    except psycopg.OperationalError as exc:
        missing(f"PostgreSQL en {PG_URL} ({exc})")
    base, _, _ = PG_URL.rpartition("/")
    yield f"{base}/{name}"
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'atril.sqlite3'}"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def client(db_url):
    from starlette.testclient import TestClient

    from atril.web.app import create_app

    with TestClient(create_app(db_url, test_seeds=True, rate_limits=False)) as c:
        yield c


OCTETS = {"Content-Type": "application/octet-stream"}


def upload_words(base_or_client, words: str = TWO_TILE_WORDS) -> str:
    """Upload a word list; its lexicon id."""
    if isinstance(base_or_client, str):
        req = urllib.request.Request(f"{base_or_client}/api/lexicos?nombre=prueba",
                                     data=words.encode(), method="POST", headers=OCTETS)
        import json
        return json.load(urllib.request.urlopen(req))["id"]
    r = base_or_client.post("/api/lexicos?nombre=prueba", content=words.encode(), headers=OCTETS)
    assert r.status_code == 201, r.text
    return r.json()["id"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``atril serve`` in a child process (with test seeds: tests choose the bag)."""

    def __init__(self, db: str, *options: str, port: int | None = None):
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "atril", "serve", "--port", str(self.port), "--db", db,
             "--test-seeds", *options],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                urllib.request.urlopen(f"{self.base}/api/opciones", timeout=1)
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(self.proc.stdout.read()) from None
                time.sleep(0.1)
        raise RuntimeError("el servidor no arrancó")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@contextlib.contextmanager
def served(app) -> Iterator[str]:
    """``app`` served by uvicorn in a thread, for the browser: its base URL."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=free_port(),
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "el servidor no arrancó"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{server.config.port}"
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture
def server(tmp_path):
    srv = Server(f"sqlite:///{tmp_path / 'served.sqlite3'}", "--analisis-tiempo", "0.1")
    yield srv
    srv.stop()


class SpanishBrowser:
    """Chromium whose pages and contexts speak Spanish unless a test says otherwise: the pages
    (and the server's answers to them) follow the browser's language, and these tests read the
    Spanish texts."""

    def __init__(self, browser):
        self._browser = browser

    def new_page(self, **options):
        return self._browser.new_page(**{"locale": "es-ES", **options})

    def new_context(self, **options):
        return self._browser.new_context(**{"locale": "es-ES", **options})

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        missing("Chromium (/usr/bin/chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("playwright (pip install playwright)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield SpanishBrowser(b)
        b.close()


def screenshot(page, name: str) -> Path:
    """Save a screenshot of the page and print where it is."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    print(f"captura: {path}")
    return path
