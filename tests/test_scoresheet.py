"""The scoresheet (planilla, art. 5, 38, 41, 45): codes P, I, C-x, running totals, adjustments."""

import json
import re

from atril import tiles as T
from atril.clock import Clock
from atril.game import Game
from atril.scoresheet import Scoresheet


def finished_game() -> Game:
    game = Game(["Ana", "Luis"], draws=["CASAEIO", "PERROSL", "BBXD"])
    game.play("H8 CASA")
    game.play("10F PE(S)O")        # accepts CASA (art. 38)
    game.challenge(valid=False)    # withdrawn: I
    game.exchange("BBX")           # C-3
    game.play("10F PE(S)O")
    game.accept()
    game.record_overtime(1, 2)     # art. 35: two started minutes
    for _ in range(4):
        game.pass_()               # P ×4: art. 45.2
    return game


def test_rows_codes_and_running_totals():
    sheet = Scoresheet.from_game(finished_game())
    turns = [r for r in sheet.rows if r.number]
    assert [r.text for r in turns] == [  # art. 42.1: the words challenged written down
        "H8 CASA", "10F PE(S)O, impugnadas: PESO", "", "10F PE(S)O", "", "", "", ""]
    # P, I and C-x go in the points column, as a planilla filled in by hand has them
    assert [r.shown for r in turns] == ["12", "I", "C-3", "12", "P", "P", "P", "P"]
    assert [r.points for r in turns] == [12, 0, 0, 12, 0, 0, 0, 0]
    assert [r.totals for r in turns][:4] == [(12, 0), (12, 0), (12, 0), (12, 12)]
    assert [r.name for r in turns][:2] == ["Ana", "Luis"]


def test_adjustments_and_final_line():  # art. 35, 45
    game = finished_game()
    sheet = Scoresheet.from_game(game)
    adjustments = [r for r in sheet.rows if not r.number]
    racks = [sum(T.value(t) for t in rack) for rack in game.racks]
    assert [(r.name, r.points) for r in adjustments] == [
        ("Ana", -racks[0]), ("Luis", -racks[1]), ("Luis", -20)]  # own racks, then time
    assert adjustments[-1].totals == game.result.scores
    assert "tiempo excedido (art. 35)" in adjustments[-1].text
    assert sheet.result.startswith(f"Ana {game.result.scores[0]} – Luis {game.result.scores[1]}")
    assert "(art. 45.2)" in sheet.result


def test_text_is_aligned_and_spanish():
    text = Scoresheet.from_game(finished_game()).to_text()
    lines = text.splitlines()
    assert lines[0] == "Planilla: Ana contra Luis (FISE2009)"
    assert lines[1].split() == ["nº", "jugador", "jugada", "puntos", "Ana", "Luis"]
    body = [line for line in lines[3:] if line and not line.startswith("-")][:-1]
    assert len({len(line) for line in body}) == 1  # every row has the same width
    assert re.search(r"  Ana\s+C-3 ", text) and re.search(r"impugnadas: PESO\s+I ", text)


def test_json():
    data = json.loads(Scoresheet.from_game(finished_game()).to_json())
    assert data["players"] == ["Ana", "Luis"]
    assert data["rows"][0] == {"number": 1, "player": 0, "name": "Ana", "text": "H8 CASA",
                               "points": 12, "totals": [12, 0], "mark": None}
    assert data["rows"][2]["mark"] == "C-3" and data["rows"][2]["text"] == ""


def test_rack_deductions_write_digraphs_unambiguously():  # art. 45, 11: R+RR is not R+R+R
    game = Game(["Ana", "Luis"], draws=["CASAEIO", "PERROSL"])
    game.racks = [tuple(sorted(T.tokenize_machine("DEIOR[RR]U"))), game.racks[1]]
    for _ in range(4):
        game.pass_()
    notes = [r.text for r in Scoresheet.from_game(game).rows if not r.number]
    assert notes[0].endswith(": DEIOR[RR]U")


def test_notes_cite_the_ruleset_articles():  # FISE 2004 art. 40.2 is 2009's 45.2; 32 is 35
    game = Game(["Ana", "Luis"], ruleset="FISE2004", draws=["CASAEIO", "PERROSL"])
    game.record_overtime(1, 1)
    for _ in range(4):
        game.pass_()
    sheet = Scoresheet.from_game(game)
    assert "(art. 40 FISE 2004)" in sheet.rows[-3].text
    assert "(art. 32 FISE 2004)" in sheet.rows[-1].text
    assert "(art. 40.2 FISE 2004)" in sheet.result and "45" not in sheet.result


def test_a_pending_play_is_not_on_the_sheet_yet():  # art. 38: writing the score accepts it
    game = Game(draws=["CASAEIO"])
    game.play("H8 CASA")
    assert Scoresheet.from_game(game).rows == ()
    assert Scoresheet.from_game(game).result is None


def test_clock_overtime_goes_on_the_sheet():
    now = [0.0]
    game = Game(clock=Clock(1, time_source=lambda: now[0]), draws=["CASAEIO", "PERROSL"])
    now[0] = 125.0  # 65 s over: two started minutes
    for _ in range(4):
        game.pass_()
    rows = Scoresheet.from_game(game).rows
    assert rows[-1].points == -20 and rows[-1].name == "Jugador 1"
