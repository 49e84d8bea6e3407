"""Issue 13: accounts, sessions and roles — and tests that try to break the session cookie and
the CSRF defence. On SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from http.cookies import SimpleCookie

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from test_web_api import assert_error

from atril.cli import main
from atril.web.accounts import CSRF_HEADER, SESSION_COOKIE, csrf_for
from atril.web.app import create_app
from atril.web.store import open_store

PASSWORD = "clave-secreta-1"


class Player:
    """A browser of its own (cookies) on the app under test, logged in or not, that sends the
    session's CSRF token with every state-changing request, as the pages do."""

    def __init__(self, client: TestClient, base_url: str = "http://testserver"):
        self.http = TestClient(client.app, base_url=base_url)
        self.csrf: str | None = None
        self.name: str | None = None

    def headers(self) -> dict[str, str]:
        return {CSRF_HEADER: self.csrf} if self.csrf else {}

    def post(self, url: str, body: object = None, **kwargs):
        return self.http.post(url, json={} if body is None else body,
                              headers=self.headers(), **kwargs)

    def delete(self, url: str):
        return self.http.delete(url, headers=self.headers())

    def get(self, url: str):
        return self.http.get(url)

    def sign_up(self, name: str | None = None, password: str = PASSWORD) -> Player:
        name = name or unique("ana")
        r = self.post("/api/cuenta/alta", {"name": name, "password": password})
        assert r.status_code == 201, r.text
        self.csrf, self.name = r.json()["csrf"], r.json()["name"]
        return self

    def log_in(self, name: str, password: str = PASSWORD):
        r = self.post("/api/cuenta/entrar", {"name": name, "password": password})
        if r.status_code == 200:
            self.csrf, self.name = r.json()["csrf"], r.json()["name"]
        return r

    @property
    def session(self) -> str | None:
        return self.http.cookies.get(SESSION_COOKIE)


def unique(prefix: str) -> str:
    """An account name no other test uses (the PostgreSQL database is shared by the tests)."""
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def set_cookie(response) -> SimpleCookie:
    cookie = SimpleCookie()
    cookie.load(response.headers["set-cookie"])
    return cookie


# -- signing up, in and out --------------------------------------------------------------------
def test_sign_up_log_in_log_out_and_change_the_password(client):
    ana = Player(client).sign_up(name := unique("Ana"))
    me = ana.get("/api/cuenta").json()
    assert me == {"name": name, "roles": ["player"], "csrf": ana.csrf,
                  "rating": {"rating": 1800, "games": 0, "provisional": True}}
    assert ana.post("/api/cuenta/salir").status_code == 204
    assert ana.get("/api/cuenta").json() == {"name": None}
    assert ana.session is None
    elsewhere = Player(client)
    assert elsewhere.log_in(name.upper()).status_code == 200  # names ignore case
    assert elsewhere.name == name
    r = elsewhere.post("/api/cuenta/clave", {"old": PASSWORD, "new": "otra-clave-2"})
    assert r.status_code == 204, r.text
    assert_error(Player(client).log_in(name), 401)
    assert Player(client).log_in(name, "otra-clave-2").status_code == 200


def test_names_and_passwords_are_checked(client):
    player = Player(client)
    name = unique("luis")
    for bad in ("ab", "x" * 21, "con espacio", "raro!", "a\u202eb", 12, None):
        assert_error(player.post("/api/cuenta/alta", {"name": bad, "password": PASSWORD}), 400)
    for bad in ("corta", "x" * 257, 12345678, None):
        assert_error(player.post("/api/cuenta/alta", {"name": name, "password": bad}), 400)
    assert Player(client).sign_up(name).name == name
    taken = assert_error(player.post("/api/cuenta/alta", {"name": name.upper(),
                                                          "password": PASSWORD}), 409)
    assert name.upper() in taken["error"]
    assert Player(client).sign_up("Ñandú_" + uuid.uuid4().hex[:6]).name.startswith("Ñandú_")
    assert_error(player.post("/api/cuenta/alta", ["a", "b"]), 400)


def test_a_wrong_name_and_a_wrong_password_get_one_answer(client):
    name = unique("eva")
    Player(client).sign_up(name)
    unknown = assert_error(Player(client).log_in(unique("nadie")), 401)
    wrong = assert_error(Player(client).log_in(name, "no-es-esta"), 401)
    assert unknown == wrong == {"error": "nombre o clave incorrectos", "article": None}
    assert_error(Player(client).post("/api/cuenta/entrar", {"name": name}), 400)


def test_passwords_are_stored_hashed(db_url, client):
    name = unique("pepa")
    Player(client).sign_up(name, "mi clave en claro")
    user = client.app.state.store.user_named(name)
    assert user.password.startswith("$argon2id$") and "mi clave en claro" not in user.password
    if db_url.startswith("sqlite"):
        raw = open(db_url.removeprefix("sqlite:///"), "rb").read()
        raw += open(db_url.removeprefix("sqlite:///") + "-wal", "rb").read()
        assert b"mi clave en claro" not in raw


# -- the session cookie ------------------------------------------------------------------------
def test_the_session_cookie_flags(client):
    player = Player(client)
    r = player.post("/api/cuenta/alta", {"name": unique("ana"), "password": PASSWORD})
    morsel = set_cookie(r)[SESSION_COOKIE]
    assert morsel["httponly"] and morsel["samesite"].lower() == "lax" and morsel["path"] == "/"
    assert not morsel["secure"]  # plain HTTP (a local server): a Secure cookie would be lost
    assert int(morsel["max-age"]) == 30 * 86400
    assert len(morsel.value) >= 43 and morsel.value not in r.text  # the secret is not in the body
    secure = Player(client, base_url="https://testserver")
    r = secure.post("/api/cuenta/alta", {"name": unique("ana"), "password": PASSWORD})
    assert set_cookie(r)[SESSION_COOKIE]["secure"]
    secure.csrf = r.json()["csrf"]
    r = secure.post("/api/cuenta/salir")
    cleared = set_cookie(r)[SESSION_COOKIE]
    assert cleared.value == "" and cleared["secure"] and cleared["httponly"]


def test_sessions_are_stored_hashed(db_url, client):
    player = Player(client).sign_up()
    if db_url.startswith("sqlite"):
        raw = open(db_url.removeprefix("sqlite:///"), "rb").read()
        raw += open(db_url.removeprefix("sqlite:///") + "-wal", "rb").read()
        assert player.session.encode() not in raw and player.csrf.encode() not in raw


def test_a_forged_session_is_a_guest(client):
    forger = Player(client)
    forger.http.cookies.set(SESSION_COOKIE, "inventada" * 5)
    forger.csrf = csrf_for("inventada" * 5)  # the right header for the forged cookie
    r = forger.get("/api/cuenta")
    assert r.json() == {"name": None}
    assert set_cookie(r)[SESSION_COOKIE].value == ""  # the dead cookie is cleared
    forger.http.cookies.set(SESSION_COOKIE, "inventada" * 5)
    assert_error(forger.post("/api/cuenta/clave", {"old": PASSWORD, "new": "x" * 10}), 401)
    forger.http.cookies.set(SESSION_COOKIE, "x" * 5000)  # too long even to look up
    assert forger.get("/api/cuenta").json() == {"name": None}


def test_a_session_ends_on_the_server_when_logging_out(client):
    ana = Player(client).sign_up()
    stolen, csrf = ana.session, ana.csrf
    assert ana.post("/api/cuenta/salir").status_code == 204
    thief = Player(client)
    thief.http.cookies.set(SESSION_COOKIE, stolen)
    thief.csrf = csrf
    assert thief.get("/api/cuenta").json() == {"name": None}  # replaying the cookie: nothing


def test_an_expired_session_is_refused(client):
    ana = Player(client).sign_up()
    assert ana.get("/api/cuenta").json()["name"] == ana.name
    store = client.app.state.store
    with store._tx(write=True) as cur:  # thirty days pass
        cur.execute(store._sql("UPDATE atril_sessions SET expires = ?"), (time.time() - 1,))
    assert ana.get("/api/cuenta").json() == {"name": None}
    store.expire_sessions(time.time(), 0)
    with store._tx() as cur:
        cur.execute("SELECT COUNT(*) FROM atril_sessions")
        assert cur.fetchone()[0] == 0


def test_changing_the_password_ends_the_other_sessions(client):
    name = unique("ana")
    here, there = Player(client).sign_up(name), Player(client)
    assert there.log_in(name).status_code == 200
    assert_error(here.post("/api/cuenta/clave", {"old": "no-es-esta", "new": "nueva-clave"}),
                 403)
    assert_error(here.post("/api/cuenta/clave", {"old": PASSWORD, "new": "corta"}), 400)
    assert here.post("/api/cuenta/clave", {"old": PASSWORD, "new": "nueva-clave"}
                     ).status_code == 204
    assert here.get("/api/cuenta").json()["name"] == name  # this one goes on
    assert there.get("/api/cuenta").json() == {"name": None}  # the old-password session: gone
    assert_error(Player(client).post("/api/cuenta/clave", {"old": "a", "new": "b" * 9}), 401)


# -- CSRF ---------------------------------------------------------------------------------------
def test_a_logged_in_request_without_the_csrf_header_is_refused(client):
    ana = Player(client).sign_up()
    options = {"mode": "remote", "lexicon": "ES09"}
    no_header = ana.http.post("/api/partidas", json=options)
    body = assert_error(no_header, 403)
    assert CSRF_HEADER in body["error"]
    wrong = ana.http.post("/api/partidas", json=options, headers={CSRF_HEADER: "0" * 32})
    assert_error(wrong, 403)
    other = Player(client).sign_up()  # another session's token is not this one's
    assert_error(ana.http.post("/api/partidas", json=options,
                               headers={CSRF_HEADER: other.csrf}), 403)
    for url in ("/api/cuenta/salir", "/api/cuenta/clave", "/api/busquedas"):
        assert_error(ana.http.post(url, json={}), 403)
    assert_error(ana.http.delete("/api/busquedas/x?key=y"), 403)
    assert ana.get("/api/cuenta").json()["name"] == ana.name  # still logged in: nothing ran
    assert ana.post("/api/partidas", options).status_code == 201  # with the header it works
    assert client.post("/api/partidas", json=options).status_code == 201  # a guest needs none


def test_another_site_cannot_act_even_with_the_token(client):
    ana = Player(client).sign_up()
    r = ana.http.post("/api/cuenta/salir", headers={**ana.headers(),
                                                    "Origin": "https://malo.example"})
    assert_error(r, 403)
    form = ana.http.post("/api/cuenta/clave", content=b"old=a&new=b",
                         headers={**ana.headers(),
                                  "Content-Type": "application/x-www-form-urlencoded"})
    assert_error(form, 415)  # a form another site could send is not JSON
    assert ana.get("/api/cuenta").json()["name"] == ana.name


def test_reading_needs_no_token(client):
    ana = Player(client).sign_up()
    for url in ("/api/cuenta", "/api/busquedas", "/api/en-juego", "/api/mis-partidas",
                f"/api/jugadores/{ana.name}"):
        assert ana.get(url).status_code == 200, url


# -- roles and the admin command -----------------------------------------------------------------
def make_admin(db_url: str, name: str) -> None:
    result = CliRunner().invoke(main, ["admin", "crear", name, "--db", db_url],
                                input=f"{PASSWORD}\n{PASSWORD}\n")
    assert result.exit_code == 0, result.output
    assert f"{name} es administrador" in result.output


def test_roles_and_the_admin_command(db_url, client):
    boss, name = unique("jefa"), unique("eva")
    make_admin(db_url, boss)
    admin = Player(client)
    assert admin.log_in(boss).status_code == 200
    assert admin.get("/api/cuenta").json()["roles"] == ["player", "admin"]
    eva = Player(client).sign_up(name)
    grant = {"name": name, "role": "director", "grant": True}
    assert_error(eva.post("/api/admin/roles", grant), 403)  # a player cannot
    assert_error(Player(client).post("/api/admin/roles", grant), 403)  # nor a guest
    r = admin.post("/api/admin/roles", grant)
    assert r.status_code == 200 and r.json() == {"name": name, "roles": ["player", "director"]}
    assert eva.get("/api/cuenta").json()["roles"] == ["player", "director"]
    assert_error(eva.post("/api/admin/roles", grant), 403)  # a director is not an admin
    r = admin.post("/api/admin/roles", {"name": name.upper(), "role": "admin", "grant": True})
    assert r.json()["roles"] == ["player", "director", "admin"]
    r = admin.post("/api/admin/roles", {"name": name, "role": "director", "grant": False})
    assert r.json()["roles"] == ["player", "admin"]
    for bad in ({"name": name, "role": "player", "grant": True},
                {"name": name, "role": "rey", "grant": True},
                {"name": name, "role": "admin", "grant": "sí"},
                {"name": boss, "role": "admin", "grant": False}):  # no admin removes their own
        assert_error(admin.post("/api/admin/roles", bad), 400)
    assert_error(admin.post("/api/admin/roles", {"name": unique("x"), "role": "admin",
                                                 "grant": True}), 404)


def test_the_admin_command_checks_what_it_is_given(db_url, client):
    name = unique("ana")
    runner = CliRunner()
    mismatch = runner.invoke(main, ["admin", "crear", name, "--db", db_url],
                             input=f"{PASSWORD}\notra-clave\n{PASSWORD}\n{PASSWORD}\n")
    assert mismatch.exit_code == 0  # asked again until both match
    again = runner.invoke(main, ["admin", "crear", name, "--db", db_url], input=PASSWORD + "\n"
                          + PASSWORD + "\n")
    assert again.exit_code == 2 and "ya hay una cuenta" in again.output
    short = runner.invoke(main, ["admin", "crear", unique("b"), "--db", db_url,
                                 "--password-stdin"], input="corta\n")
    assert short.exit_code == 2 and "la clave tiene de 8 a 256 caracteres" in short.output
    assert Player(client).log_in(name).status_code == 200


def test_the_admin_command_reads_the_password_from_stdin(tmp_path):
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    done = subprocess.run([sys.executable, "-m", "atril", "admin", "crear", "jefa", "--db", url,
                           "--password-stdin"], input=PASSWORD + "\n", capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    store = open_store(url)
    try:
        assert store.user_named("JEFA").roles == ("admin",)
    finally:
        store.close()


# -- rate limits ---------------------------------------------------------------------------------
def test_signing_up_and_logging_in_are_rate_limited(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.sqlite3'}")) as client:
        for i in range(3):
            r = client.post("/api/cuenta/alta", json={"name": f"ana{i}", "password": PASSWORD})
            assert r.status_code == 201
            client.cookies.clear()
        r = client.post("/api/cuenta/alta", json={"name": "ana9", "password": PASSWORD})
        assert_error(r, 429)
        assert int(r.headers["retry-after"]) >= 1
        for _ in range(5):
            assert_error(client.post("/api/cuenta/entrar", json={"name": "ana0",
                                                                 "password": "mala-clave"}), 401)
        assert_error(client.post("/api/cuenta/entrar", json={"name": "ana0",
                                                             "password": PASSWORD}), 429)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_account_errors_speak_the_requests_language(client, lang):
    r = Player(client).post(f"/api/cuenta/entrar?lang={lang}", {"name": "x", "password": "y"})
    assert r.json()["error"] == {"es": "nombre o clave incorrectos",
                                 "en": "wrong name or password"}[lang]
