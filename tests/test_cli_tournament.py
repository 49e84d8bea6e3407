"""``atril torneo``: the two JSON contracts of issue 14 on hand-written TSH files (every figure
computed by hand in the comments), a director's whole session, the exports, the simulation
and the errors (a clear Spanish message naming the line or field, exit code 2)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from atril.cli import main

#: four players, a round robin in three rounds, with who started (p12).
#: Ana W L W (2), Luis L W L (1), Eva W W L (2), Juan L L W (1).
SMALL_T = """\
# four players, three rounds
Ana Pérez      1900  4 2 3; 400 380 420 ; p12 1 2 1
Luis Gómez     1800  3 1 4; 350 390 300 ; p12 1 1 2
Eva Ruiz       1750  2 4 1; 360 410 400 ; p12 2 1 2
Juan Soler        0  1 3 2; 300 370 310 ; p12 2 2 1
"""

#: three players: a draw, and each rests once (+50).
BYES_T = """\
Rosa     1600  2 0 3; 350 50 300
Tomás    1500  1 3 0; 350 400 50
Nuria       0  0 2 1; 50 330 310
"""

#: Ana wins all three; Luis, Juan and Eva one each (spreads −20, −80, −170); no p12.
LEADER_T = """\
Ana   1900  4 2 3; 400 420 450
Luis  1800  3 1 4; 350 400 410
Eva   1750  2 4 1; 380 340 300
Juan  1700  1 3 2; 300 390 380
"""


def run(*args: str, code: int = 0):
    result = CliRunner().invoke(main, ["--lang", "es", *args])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result


def out_json(*args: str):
    return json.loads(run(*args, "--json").output)


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, text in (("small", SMALL_T), ("byes", BYES_T), ("leader", LEADER_T)):
        paths[name] = tmp_path / f"{name}.t"
        paths[name].write_text(text, encoding="utf-8")
    return {k: str(v) for k, v in paths.items()}


# --- the contracts -------------------------------------------------------------------------------

def test_standings_of_a_t_file(files):
    """Ana: opponents Juan 1, Luis 1, Eva 2 → Buchholz 4, median 1, SB 1 + 2 = 3; Eva: Luis
    1, Juan 1, Ana 2 → 4, 1, SB 2; Luis: Eva 2, Ana 2, Juan 1 → 5, 2, SB 2 (beat Ana); Juan: 5,
    2, SB 1. Ana above Eva and Luis above Juan on Sonneborn-Berger."""
    assert out_json("torneo", "clasificacion", files["small"]) == [
        {"rank": 1, "name": "Ana Pérez", "wins": 2, "losses": 1, "spread": 110,
         "median_buchholz": 1, "buchholz": 4, "sonneborn_berger": 3},
        {"rank": 2, "name": "Eva Ruiz", "wins": 2, "losses": 1, "spread": 30,
         "median_buchholz": 1, "buchholz": 4, "sonneborn_berger": 2},
        {"rank": 3, "name": "Luis Gómez", "wins": 1, "losses": 2, "spread": -10,
         "median_buchholz": 2, "buchholz": 5, "sonneborn_berger": 2},
        {"rank": 4, "name": "Juan Soler", "wins": 1, "losses": 2, "spread": -130,
         "median_buchholz": 2, "buchholz": 5, "sonneborn_berger": 1},
    ]


def test_standings_with_draws_and_byes(files):
    """Tomás: drew Rosa (1.5), beat Nuria (2), bye in round 3 after 1.5 wins: a virtual 1.5
    → Buchholz 5, median 1.5, SB ½·1.5 + 2 + 1.5 = 4.25. Nuria: bye in round 1 (0 + 0 + 2 ×
    ½ = 1), lost to Tomás (2.5), beat Rosa (1.5) → 5, 1.5, SB 1 + 1.5 = 2.5. Rosa: Tomás 2.5,
    bye in round 2 after ½ (½ + 0 + ½ = 1), Nuria 2 → 5.5, 2, SB 1.25 + 1 = 2.25."""
    assert out_json("torneo", "clasificacion", files["byes"]) == [
        {"rank": 1, "name": "Tomás", "wins": 2.5, "losses": 0.5, "spread": 120,
         "median_buchholz": 1.5, "buchholz": 5, "sonneborn_berger": 4.25},
        {"rank": 2, "name": "Nuria", "wins": 2, "losses": 1, "spread": -10,
         "median_buchholz": 1.5, "buchholz": 5, "sonneborn_berger": 2.5},
        {"rank": 3, "name": "Rosa", "wins": 1.5, "losses": 1.5, "spread": 40,
         "median_buchholz": 2, "buchholz": 5.5, "sonneborn_berger": 2.25},
    ]


def pairs(*items: tuple[str, str]) -> list[dict[str, object]]:
    return [{"players": [a, b], "starts": a} for a, b in items]


def test_swiss_pairing_of_a_t_file(files):
    """Everyone has met: the nearest records, Ana v Eva and Luis v Juan. Eva has started once
    in three (Ana twice), so Eva starts; Juan too (art. 4.2, balanced)."""
    assert out_json("torneo", "emparejar", files["small"], "--sistema", "suizo") == {
        "round": 4, "pairings": pairs(("Eva Ruiz", "Ana Pérez"), ("Juan Soler", "Luis Gómez")),
        "bye": None}
    # three players, each rested once, all have met: the lowest-placed rests again
    assert out_json("torneo", "emparejar", files["byes"], "--sistema", "suizo") == {
        "round": 4, "pairings": pairs(("Tomás", "Nuria")), "bye": "Rosa"}


KOTH = {"round": 4, "pairings": pairs(("Ana", "Luis"), ("Eva", "Juan")), "bye": None}
#: Gibson: Ana v the lowest-placed (no one is out of 2 prizes), then Luis v Juan. No start
#: is known: table 1 the higher-placed starts, table 2 the lower-placed.
GIBSON = {"round": 4, "pairings": pairs(("Ana", "Eva"), ("Juan", "Luis")), "bye": None}


@pytest.mark.parametrize("options, expected", [
    (["--sistema", "rey"], KOTH),                       # 1v2, 3v4
    (["--sistema", "suizo"], KOTH),                     # Ana alone on 3: Luis floats up
    (["--sistema", "gibson", "--premios", "2"], GIBSON),  # the last round: 3 > 1 + 1
    (["--sistema", "gibson", "--premios", "1"], KOTH),  # all out; all met Ana: the best, Luis
    (["--sistema", "gibson", "--premios", "2", "--rondas", "5"], KOTH),  # 3 = 1 + 2: open
    # on spread: Ana is 290 ahead of Luis; two games at 50 cannot undo it, at 100 they can
    (["--sistema", "gibson", "--premios", "2", "--rondas", "5", "--desempates",
      "spread,mediana", "--spread-max", "50"], GIBSON),
    (["--sistema", "gibson", "--premios", "2", "--rondas", "5", "--desempates",
      "spread,mediana", "--spread-max", "100"], KOTH),
    (["--sistema", "todos"], {"round": 4, "pairings": pairs(("Juan", "Ana"), ("Eva", "Luis")),
                              "bye": None}),  # Berger round 1 again, the starts swapped
])
def test_king_of_the_hill_and_gibson_on_a_t_file(files, options, expected):
    assert out_json("torneo", "emparejar", files["leader"], *options) == expected


def test_a_t_file_is_never_written(files):
    before = open(files["small"], encoding="utf-8").read()
    run("torneo", "emparejar", files["small"])
    assert open(files["small"], encoding="utf-8").read() == before
    result = run("torneo", "resultado", files["small"], "Ana Pérez", "1", "Eva Ruiz", "2",
                 code=2)
    assert "un fichero .t solo se lee" in result.output


# --- a director's session ------------------------------------------------------------------------

def test_a_directors_session(tmp_path):
    t = str(tmp_path / "open.json")
    run("torneo", "crear", t, "--nombre", "Open de Prueba", "--rondas", "3", "--rey", "1",
        "--bye-spread", "60")
    for k, name in enumerate(["Ana", "Luis", "Eva", "Juan", "Pedro"]):
        run("torneo", "alta", t, name, "--rating", str(2000 - 50 * k))
    first = out_json("torneo", "emparejar", t)
    assert first["round"] == 1 and first["bye"] == "Pedro"  # the lowest rated
    assert first["pairings"] == pairs(("Ana", "Eva"), ("Juan", "Luis"))  # 1v3, 2v4
    run("torneo", "resultado", t, "Ana", "420", "Eva", "380")
    assert "falta el resultado de la ronda 1, mesa 2: Juan – Luis" in run(
        "torneo", "emparejar", t, code=2).output
    run("torneo", "resultado", t, "--no-presentado", "Luis")
    table = out_json("torneo", "clasificacion", t)
    # Juan (forfeit win) and Pedro (bye) tie on everything: by rating
    assert [(r["rank"], r["name"], r["wins"], r["spread"]) for r in table] == [
        (1, "Juan", 1, 60), (1, "Pedro", 1, 60), (3, "Ana", 1, 40), (4, "Eva", 0, -40),
        (5, "Luis", 0, -60)]
    second = out_json("torneo", "emparejar", t, "--manual", "Ana", "Luis")
    assert {"players": ["Luis", "Ana"], "starts": "Luis"} in second["pairings"]
    assert second["bye"] == "Eva"  # the lowest-placed without a bye
    changed = out_json("torneo", "cambiar", t, "Pedro", "Ana")
    assert [set(p["players"]) for p in changed["pairings"]] == [{"Pedro", "Ana"},
                                                                  {"Juan", "Luis"}]
    redone = out_json("torneo", "emparejar", t, "--rehacer", "--bye", "Juan")
    assert redone["round"] == 2 and redone["bye"] == "Juan"
    for p in redone["pairings"]:
        a, b = p["players"]
        run("torneo", "resultado", t, a, "400", b, "350")
    run("torneo", "baja", t, "Eva")
    run("torneo", "alta", t, "Nuria", "--rating", "1800")
    third = out_json("torneo", "emparejar", t)  # the last round: King of the Hill, Gibson
    names = {n for p in third["pairings"] for n in p["players"]} | {third["bye"]}
    assert "Eva" not in names and "Nuria" in names and len(names) == 5
    sheet = run("torneo", "hoja", t, "--ronda", "2").output
    assert "Mesa" in sheet and "400–350" in sheet and "Juan" in sheet
    html = tmp_path / "hoja.html"
    run("torneo", "hoja", t, "--html", str(html))
    page = html.read_text(encoding="utf-8")
    assert "@media print" in page and "Ronda 3: emparejamientos" in page
    assert "Por orden alfabético" in page and "mesa 1" in page


def test_exports_and_imports(tmp_path, files):
    t = str(tmp_path / "t.json")
    run("torneo", "importar", files["small"], t)
    assert out_json("torneo", "clasificacion", t) == out_json("torneo", "clasificacion",
                                                              files["small"])
    again = tmp_path / "again.t"
    run("torneo", "exportar", t, str(again))
    assert again.read_text(encoding="utf-8").splitlines()[0].split() == [
        "Ana", "Pérez", "1900", "4", "2", "3;", "400", "380", "420", ";", "p12", "1", "2", "1"]
    csv_path, html_path = tmp_path / "c.csv", tmp_path / "c.html"
    run("torneo", "exportar", t, str(csv_path))
    run("torneo", "exportar", t, str(html_path))
    assert csv_path.read_text(encoding="utf-8").splitlines()[:2] == [
        "rank,name,wins,losses,spread,median_buchholz,buchholz,sonneborn_berger,points",
        "1,Ana Pérez,2,1,110,1,4,3,1200"]
    assert "Clasificación tras la ronda 3" in html_path.read_text(encoding="utf-8")
    lista = tmp_path / "lista.csv"
    lista.write_text("name,rating,games\nJuan Soler,1650,10\nRosa Díaz,1700,0\n",
                     encoding="utf-8")
    assert out_json("torneo", "importar", str(lista), t) == {"added": 1, "updated": 1}
    changes = out_json("torneo", "ratings", t, "--lista", str(tmp_path / "nueva.csv"))
    juan = next(c for c in changes if c["name"] == "Juan Soler")
    assert (juan["before"], juan["games"], juan["score"]) == (1650, 3, 1)
    assert (tmp_path / "nueva.csv").read_text(encoding="utf-8").startswith("name,rating,games")


def test_the_simulation_is_a_seeded_swiss_king_and_gibson_event(tmp_path):
    saved = tmp_path / "sim.json"
    data = out_json("torneo", "simular", "--jugadores", "7", "--rondas", "3", "--rey", "1",
                    "--semilla", "4", "--guardar", str(saved))
    assert (data["players"], data["rounds"], data["games"]) == (7, 3, 9)
    assert len(data["standings"]) == 7 and data["standings"][0]["rank"] == 1
    assert sum(r["wins"] + r["losses"] for r in data["standings"]) == 7 * 3
    again = out_json("torneo", "simular", "--jugadores", "7", "--rondas", "3", "--rey", "1",
                     "--semilla", "4")
    assert again["standings"] == data["standings"]
    systems = [r["system"] for r in json.loads(saved.read_text(encoding="utf-8"))["rounds"]]
    assert systems == ["suizo", "suizo", "gibson"]
    text = run("torneo", "simular", "--jugadores", "4", "--rondas", "1").output
    assert "jugadores: 4, rondas: 1, partidas: 2, en" in text


# --- errors --------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["clasificacion", "{bad}"], "línea 3: «x» no es un número (oponentes)"),
    (["emparejar", "{small}", "--manual", "Ana Pérez", "Nadie"],
     "no hay ningún jugador «Nadie» en el torneo"),
    (["resultado", "{json}", "Ana", "400", "Luis", "300"],
     "aún no hay ninguna ronda emparejada"),
    (["resultado", "{json}", "--ronda", "1", "Ana", "400", "Luis", "300"],
     "la ronda 1 no está emparejada"),
    (["resultado", "{json}", "Ana", "400"], "o bien JUGADOR PUNTOS JUGADOR PUNTOS"),
    (["hoja", "{json}"], "aún no hay ninguna ronda emparejada"),
    (["crear", "{json}"], "ya existe"),
    (["exportar", "{json}", "x.pdf"], "la extensión ha de ser .json, .t, .csv o .html"),
    (["clasificacion", "{missing}"], "no existe el fichero"),
    (["clasificacion", "{small}", "--desempates", "mediana,nada"], "«nada» no es un desempate"),
])
def test_bad_input_is_a_clear_error(tmp_path, files, args, message):
    bad = tmp_path / "bad.t"
    bad.write_text("Ana 1800 2; 300\nLuis 1700 1; 200\nEva 1700 x; 1\n", encoding="utf-8")
    t = str(tmp_path / "t.json")
    run("torneo", "crear", t)
    for name in ("Ana", "Luis"):
        run("torneo", "alta", t, name)
    where = {"bad": str(bad), "json": t, "missing": str(tmp_path / "no.t"), **files}
    result = run("torneo", *[a.format(**where) for a in args], code=2)
    assert message in result.output
    if args[0] == "clasificacion" and "{bad}" in args:
        assert str(bad) in result.output
        data = json.loads(run("torneo", "clasificacion", str(bad), "--json", code=2).output)
        assert "línea 3" in data["error"]
