"""``atril duplicada practicar``: scripted rounds on a clock the test drives (the warnings, the
end of the time, a late slip), the commands, saving, English, and once on a real terminal."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import subprocess
import sys
import time

import pytest

from atril import i18n
from atril.duplicate import Duplicate
from atril.duplicate import game as G
from atril.duplicate import slips as S
from atril.duplicate.practice import Practice, keyboard, run
from atril.lexicon import Lexicon

# Seed 7 (tests/test_duplicate.py): round 1 is A I M O T U Z, master H3 AZIMUT 54; round 2 is
# A A D H M O U, master I8 AHUMADO 71.
SEED = 7


@pytest.fixture(scope="module")
def lex():
    return Lexicon.load()


class Typist:
    """A keyboard and its clock: each line is typed at its moment on the clock, which moves
    only while the game waits. With ``timer=False`` the game cannot wait for a moment: it
    reads each line whenever it comes (a plain stream)."""

    def __init__(self, lines: list[tuple[float, str]], *, timer: bool = True):
        self.lines = list(lines)
        self.time = 0.0
        self.timer = timer

    def now(self) -> float:
        return self.time

    def ready(self, timeout: float | None) -> bool:
        if not self.lines or not self.timer:
            return True
        at = self.lines[0][0]
        if timeout is None or at <= self.time + timeout:
            self.time = max(self.time, at)
            return True
        self.time += timeout
        return False

    def readline(self) -> str:
        if not self.lines:
            return ""
        at, text = self.lines.pop(0)
        self.time = max(self.time, at)
        return text + "\n"

    def discard(self) -> None:
        pass


def practise(lines, lex, *, timer=True, **options):
    typist = Typist(lines, timer=timer)
    out = io.StringIO()
    game = run(typist, out, seed=SEED, lexicon=lex, time_source=typist.now, **options)
    return game, out.getvalue()


def test_finding_the_master(lex):
    game, out = practise([(10, "H3 AZIMUT"), (20, "I8 AHUMA"), (30, "salir")], lex)
    assert "Atril: A I M O T U Z" in out and "[3:00]> " in out
    assert "Tu jugada: H3 AZIMUT — 54 puntos." in out
    assert "¡Has encontrado la jugada maestra!" in out
    assert "Llevas 54 de 54 puntos (100.0 %)." in out
    assert "Jugada maestra: I8 AHUMADO — 71 puntos." in out
    assert "Tu jugada: I8 AHUMA — 16 puntos." in out
    assert "Llevas 70 de 125 puntos (56.0 %)." in out
    assert out.rstrip().endswith("Total: 70 de 125 puntos (56.0 %) en 2 rondas; jugadas "
                                 "maestras encontradas: 1.")
    assert "Partida abandonada." in out and game.end == G.ARBITER and len(game.rounds) == 2


def test_the_time_runs_out(lex):
    game, out = practise([(200, "H3 AZIMUT")], lex)
    warnings = ["Queda 1 minuto.", "Quedan 30 segundos.", "¡Alcen! Quedan 5 segundos.",
                "¡Tiempo!", "Sin jugada: 0 puntos.", "Jugada maestra: H3 AZIMUT — 54 puntos."]
    where = [out.index(w) for w in warnings]
    assert where == sorted(where) and "Ronda 2" in out[where[-1]:]
    assert game.rounds[0].results[0].reason == S.MISSING
    # The line typed at 200 s came in round 2 (from 180 s): a slip for round 2's rack.
    assert game.rounds[1].slips[0].text == "H3 AZIMUT" and not game.rounds[1].slips[0].late


def test_warnings_the_round_is_long_enough_for(lex):
    _game, out = practise([(44, "salir")], lex, seconds=45)
    assert "Queda 1 minuto." not in out and "Quedan 30 segundos." in out
    assert "[0:45]> " in out and "¡Alcen!" in out


def test_a_slip_read_after_the_time_is_late(lex):
    game, out = practise([(181, "H3 AZIMUT"), (182, "salir")], lex, timer=False)
    assert "Tu jugada: H3 AZIMUT — 0 puntos: fuera de tiempo." in out
    assert game.rounds[0].results[0].reason == S.LATE and game.rounds[0].slips[0].late


def test_commands_and_zero_scores(lex):
    game, out = practise([(1, "ayuda"), (2, "basura"), (3, "tiempo"), (4, "tablero"),
                          (5, "H3 AZIMUt"),  # the T is no blank here
                          (6, "planilla"), (7, "paso"), (8, "XX9 CASA")], lex)
    assert "Órdenes:" in out and "«tiempo»" not in out and "tiempo       el tiempo" in out
    assert "No entiendo «basura»." in out and "Quedan 2:57." in out
    assert "[2:59]> " in out  # the prompt after «ayuda» counts down
    assert out.count("Atril: A I M O T U Z") == 2  # «tablero» shows it again
    assert "Tu jugada: H3 AZIMUt — 0 puntos: jugada no válida (no tienes en el atril ?" in out
    assert "Tú  H3 AZIMUt" in out and "jugada no válida" in out  # the planilla
    assert "Sin jugada: 0 puntos." in out  # «paso»
    assert "Tu jugada: XX9 CASA — 0 puntos: mal escrita (coordenada «XX9» no válida" in out
    assert [r.results[0].reason for r in game.rounds[:3]] == [S.INVALID, S.MISSING, S.MALFORMED]
    assert game.end == G.ARBITER and "Partida abandonada." in out  # the end of the input


def test_a_whole_game_saved(lex, tmp_path):
    path = tmp_path / "duplicada.json"
    game, out = practise([(10, "H3 AZIMUT"), (20, "I8 AHUMADO")], lex, rounds=2, save=path)
    assert "Fin de la partida: se han jugado todas las rondas." in out
    assert "Total: 125 de 125 puntos (100.0 %) en 2 rondas; jugadas maestras encontradas: 2." \
        in out and f"Partida guardada en {path}." in out
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data == game.to_dict() and Duplicate.from_dict(data, lexicon=lex).end == G.ROUNDS
    assert data["players"] == ["Tú"] and data["standings"][0]["masters"] == 2


def test_in_english(lex):
    i18n.misses.clear()
    _game, out = practise([(1, "help"), (2, "nonsense"), (200, "H3 AZIMUT"), (300, "quit")],
                          lex, lang="en")
    assert "Commands (" in out and "I don't understand “nonsense”." in out
    assert "Time!" in out and "Master move: H3 AZIMUT — 54 points." in out
    assert "Game abandoned." in out
    assert not {m for m in i18n.misses if m[1] == "en"}


def test_a_stream_is_read_line_by_line(lex):
    assert keyboard(io.StringIO("x\n")).ready(0)
    session = Practice(io.StringIO("H3 AZIMUT\nsalir\n"), io.StringIO(), seed=SEED, lexicon=lex)
    session.play()
    assert session.game.rounds[0].results[0].score == 54


def test_real_terminal():
    """``atril duplicada practicar`` on a pseudo-terminal: the round ends by itself."""
    main, child = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "atril", "duplicada", "practicar",
                             "--semilla", str(SEED), "--segundos", "6"],
                            stdin=child, stdout=child, stderr=child, close_fds=True)
    os.close(child)
    seen = b""

    def expect(text, timeout=60, after=0):
        """Wait for ``text`` in what the program wrote from byte ``after`` on."""
        nonlocal seen
        end = time.monotonic() + timeout
        while text.encode() not in seen[after:]:
            ready, _, _ = select.select([main], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                raise AssertionError(f"no «{text}» in:\n{seen.decode(errors='replace')}")
            try:
                seen += os.read(main, 4096)
            except OSError:
                raise AssertionError(
                    f"no «{text}» in:\n{seen.decode(errors='replace')}") from None

    try:
        expect("[0:06]> ")
        expect("¡Alcen!", timeout=10)
        expect("¡Tiempo!", timeout=10)
        expect("Jugada maestra: H3 AZIMUT — 54 puntos.")
        expect("Ronda 2")
        # the round's own prompt (lines typed before it are dropped, as at a real terminal)
        expect("]> ", after=seen.index(b"Ronda 2"))
        os.write(main, b"salir\n")
        expect("Partida abandonada.")
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
        os.close(main)
    assert b"Traceback" not in seen
