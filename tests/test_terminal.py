"""``atril play``: scripted games over text streams, and once through a real terminal."""

import io
import os
import pty
import select
import subprocess
import sys
import time

import pytest

from atril import gcg, movegen
from atril import tiles as T
from atril.board import Board
from atril.lexicon import Lexicon
from atril.terminal import Session, run


@pytest.fixture(scope="module")
def lex():
    return Lexicon.load()


def play(lines, **options):
    out = io.StringIO()
    game = run(io.StringIO("".join(line + "\n" for line in lines)), out, **options)
    return game, out.getvalue()


def test_garbage_never_stops_the_game(lex):
    lines = ["ayuda", "basura", "H8", "Z99 CASA", "H8 C@SA", "cambio KW", "impugnar", "", "paso",
             "planilla", "salir"]
    game, out = play(lines, opponent="greedy", seed=2, lexicon=lex)
    assert "Traceback" not in out
    assert "Órdenes:" in out and "No entiendo «basura»" in out and "No se puede:" in out
    assert "No hay ninguna jugada pendiente." in out
    assert any(t.kind == "pass" and t.player == 0 for t in game.history)
    assert "Planilla: Tú contra Ordenador" in out and out.rstrip().endswith("Partida abandonada.")
    assert "Bolsa: " in out and "Sin ver: " in out and "Atril (Tú): " in out
    assert "#" in out and "★" in out  # premiums on the board


def test_two_people_challenge_accept_and_save(lex, tmp_path):
    session = Session(io.StringIO(), io.StringIO(), opponent="humano", seed=11, lexicon=lex)
    game = session.game
    first, second = game.first, 1 - game.first
    letters = [t for t in game.racks[first] if t != T.BLANK]
    assert not lex.is_word(letters)
    reply = movegen.best(Board(), game.racks[second], lex)[0]
    path = tmp_path / "partida.gcg"
    session.stdin = io.StringIO("\n".join([
        f"H8 {T.to_human(letters)}",  # not a word
        "impugnar",                    # art. 39–40: withdrawn, the turn is lost
        reply.move.notation(),
        "aceptar",
        "planilla", f"guardar {path}", "salir"]) + "\n")
    session.play()
    out = session.stdout.getvalue()
    assert "impugnación — jugada no válida" in out and "pierde el turno" in out
    assert [t.kind for t in game.history] == ["withdrawn", "play"]
    assert game.scores[second] == reply.score and "Jugada aceptada." in out
    assert gcg.loads(path.read_text(encoding="utf-8")).scores == game.scores


def test_the_computer_challenges_an_invalid_play(lex):
    session = Session(io.StringIO(), io.StringIO(), opponent="equity", seed=4, lexicon=lex)
    game = session.game
    assert game.first == 0  # the person starts (drawn with this seed, art. 4)
    word = [t for t in game.racks[0] if t != T.BLANK]
    assert not lex.is_word(word)
    session.stdin = io.StringIO(f"H8 {T.to_human(word)}\nsalir\n")
    session.play()
    assert "Ordenador: impugnación — jugada no válida" in session.stdout.getvalue()


def test_english_messages(lex):
    _, out = play(["help", "nonsense", "quit"], opponent="greedy", seed=1, lexicon=lex, lang="en")
    assert "Commands (" in out and "I don't understand" in out and "Game abandoned." in out


def test_end_of_input_leaves_cleanly(lex, tmp_path):
    path = tmp_path / "fin.gcg"
    game, out = play([], opponent="greedy", seed=3, lexicon=lex, save=path, clock_minutes=25)
    assert "Reloj: " in out and path.exists()


def test_real_terminal():
    """``atril play`` as a subprocess on a pseudo-terminal, as a person would run it."""
    main, child = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "atril", "play", "--vs", "greedy",
                             "--seed", "5"], stdin=child, stdout=child, stderr=child,
                            close_fds=True)
    os.close(child)
    seen = b""

    def expect(text, timeout=60):
        nonlocal seen
        end = time.monotonic() + timeout
        while text.encode() not in seen:
            ready, _, _ = select.select([main], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                raise AssertionError(f"no «{text}» in:\n{seen.decode(errors='replace')}")
            try:
                seen += os.read(main, 4096)
            except OSError:  # the child closed the terminal
                raise AssertionError(f"no «{text}» in:\n{seen.decode(errors='replace')}")

    try:
        expect("> ")
        os.write(main, "ayuda\n".encode())
        expect("salir        abandona")
        os.write(main, "xyzzy\n".encode())
        expect("No entiendo")
        os.write(main, "salir\n".encode())
        expect("Partida abandonada.")
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
        os.close(main)
    assert b"Traceback" not in seen
