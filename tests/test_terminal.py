"""``atril play``: scripted games over text streams, and once through a real terminal."""

import io
import os
import pty
import select
import subprocess
import sys
import time

import pytest
from test_gcg import events, shows_only_the_table

from atril import gcg, movegen
from atril import tiles as T
from atril.board import Board
from atril.game import Game
from atril.lexicon import Lexicon
from atril.move import format_rack
from atril.referee import Referee
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
    # Either person may open the file while the game is on: a spectator's record (art. 25).
    text = path.read_text(encoding="utf-8")
    assert "#rack" not in text and "(sin los atriles: la partida no ha terminado)" in out
    for nick in ("jugador1", "jugador2"):  # «Jugador 1», «Jugador 2»: the nicks would clash
        assert events(text, nick)
        shows_only_the_table(text, nick)
    assert text.rstrip().endswith(f" {game.scores[second]}")
    with pytest.raises(gcg.GcgError, match="no se puede reproducir"):
        gcg.loads(text)


def test_save_against_the_computer_hides_its_rack(lex, tmp_path):  # art. 25
    session = Session(io.StringIO(), io.StringIO(), opponent="greedy", seed=4, lexicon=lex)
    game = session.game
    assert game.first == 0  # the person (seat 0) starts
    path = tmp_path / "mitad.gcg"
    session.stdin = io.StringIO(f"paso\nguardar {path}\nsalir\n")
    session.play()
    assert game.pending is not None and game.pending.player == 1  # waits for the person
    text = path.read_text(encoding="utf-8")
    assert f"#rack1 {game.rack_text(0)}" in text.splitlines() and "#rack2" not in text
    shows_only_the_table(text, "Ordenador")
    racks = [fields[0] for fields in events(text, "Ordenador")]
    assert game.rack_text(1) not in racks and format_rack(game.pending.rack) not in racks
    assert events(text, "Tú") == events(gcg.dumps(game), "Tú")  # the person's own racks
    assert "(sin el atril del rival: la partida no ha terminado)." in session.stdout.getvalue()


def test_save_after_the_end_keeps_everything(lex, tmp_path):  # art. 45.2
    path = tmp_path / "fin.gcg"
    game, out = play(["paso"] * 4, opponent="humano", seed=3, lexicon=lex, save=path)
    assert game.is_over() and game.result.reason == "passes"
    assert path.read_text(encoding="utf-8") == gcg.dumps(game)
    assert f"Partida guardada en {path}." in out
    assert gcg.loads(path.read_text(encoding="utf-8")).result == game.result


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
                raise AssertionError(
                    f"no «{text}» in:\n{seen.decode(errors='replace')}") from None

    try:
        expect("> ")
        os.write(main, b"ayuda\n")
        expect("salir        abandona")
        os.write(main, b"xyzzy\n")
        expect("No entiendo")
        os.write(main, b"salir\n")
        expect("Partida abandonada.")
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
        os.close(main)
    assert b"Traceback" not in seen


def test_a_person_challenges_some_words():  # art. 40, 42.1
    lexicon = Lexicon.from_words(["casa", "as", "os"], id="PRUEBA")  # not SO
    session = Session(io.StringIO(), io.StringIO(), opponent="humano", lexicon=lexicon)
    session.game = game = Game(["Ana", "Luis"], lexicon=lexicon, draws=["CASAEIO", "PERROSL"])
    session.referee = Referee(game)
    session.stdin = io.StringIO("\n".join([
        "ayuda", "H8 CASA", "aceptar",
        "I10 OS",           # forms OS, SO and AS
        "impugnar CASA",    # not a word of this play
        "impugnar as",      # AS alone: the verdict is on it
        "salir"]) + "\n")
    session.play()
    out = session.stdout.getvalue()
    assert "«impugnar CASA PERRO» impugna solo esas (art. 40)" in out
    assert "No se puede: «CASA» no es una de las palabras que forma la jugada: OS, SO, AS " \
           "(art. 40)" in out
    assert "Ana: impugnación — jugada correcta." in out
    turn = game.history[-1]
    assert turn.kind == "play" and turn.challenged_words == (T.tokenize_word("as"),)


def test_the_rules_atril_decides_are_said_when_the_game_starts(lex):  # FILE 2018 summary
    _game, out = play(["salir"], opponent="greedy", seed=2, lexicon=lex, ruleset="FILE2018")
    assert "no trae la regla de los doce turnos" in out
    _game, out = play(["salir"], opponent="greedy", seed=2, lexicon=lex, ruleset="FISE2009")
    assert "doce turnos" not in out


def test_the_terminal_cites_the_games_own_articles(lex):  # FISE 2004 art. 24 = 2009's 25
    _game, out = play(["cambio Z", "salir"], opponent="greedy", seed=2, lexicon=lex,
                      ruleset="FISE2004")  # no Z on the rack: the exchange article
    assert "(art. 24 FISE 2004)" in out and "(art. 25)" not in out
