"""``atril duplicada practicar``: duplicate alone against the master move, with the round's
timer (the "topping" training mode): each round shows the board and the rack, the player types
a play before the time is up, and sees its score, the master move and the running percentage.

The first play typed is the slip, handed in at once, as on paper; a single word that is no
command and no play («basura») is not taken for one. Warnings come at 1 minute and 30 seconds
left, «¡Alcen!» at 5 seconds.

Time comes from an injected time source, lines from a ``Keyboard`` that says whether a line
can be read before a moment: on a terminal or a pipe (POSIX) its file descriptor is watched, so
the round ends by itself when the time is up; on any other stream (a ``StringIO``) lines are
read as they come, and one that comes after the time is late (0 points). Tests pass their own
keyboard, which moves their own clock.
"""

from __future__ import annotations

import json
import math
import os
import select
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TextIO, runtime_checkable

from .. import terminal
from ..errors import AtrilError
from ..i18n import N_, _, current, ngettext, supported, use
from ..lexicon import Lexicon
from ..move import Move
from ..rack import Rack
from .game import ARBITER, END_REASONS, Duplicate, Round
from .slips import MISSING, ZERO_REASONS
from .standings import found_master

SECONDS = 180  # a round, as in the regulations
#: seconds left → what is said then.
ALARMS: dict[int, str] = {60: N_("Queda 1 minuto."), 30: N_("Quedan 30 segundos."),
                          5: N_("¡Alcen! Quedan 5 segundos.")}
#: what a person may type for each command: the terminal game's words, and «tiempo».
COMMANDS: dict[str, tuple[str, ...]] = {
    **{cmd: terminal.COMMANDS[cmd] for cmd in ("help", "quit", "board", "sheet")},
    "time": ("tiempo", "time"),
}
_COMMAND_OF = {word: cmd for cmd, words in COMMANDS.items() for word in words}


@runtime_checkable
class Keyboard(Protocol):
    """Where the player's lines come from."""

    def ready(self, timeout: float | None) -> bool:
        """Whether a line (or the end of input) can be read within ``timeout`` seconds
        (None: wait for it)."""

    def readline(self) -> str:
        """The next line; empty at the end of input."""

    def discard(self) -> None:
        """Forget what was typed ahead: a new round starts."""


class _Stream:
    """Any text stream: every line is ready at once; its time is when it is read."""

    def __init__(self, stream: TextIO):
        self.stream = stream

    def ready(self, timeout: float | None) -> bool:
        return True

    def readline(self) -> str:
        return self.stream.readline()

    def discard(self) -> None:
        pass


class _Descriptor:
    """A terminal or a pipe, watched with ``select`` so that waiting ends with the time."""

    def __init__(self, fd: int):
        self.fd = fd
        self.pending = b""
        self.eof = False

    def ready(self, timeout: float | None) -> bool:
        end = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.pending and not self.eof:
            wait = None if end is None else max(0.0, end - time.monotonic())
            if not select.select([self.fd], [], [], wait)[0]:
                return False
            chunk = os.read(self.fd, 4096)
            self.eof = not chunk
            self.pending += chunk
        return True

    def readline(self) -> str:
        self.ready(None)
        line, newline, self.pending = self.pending.partition(b"\n")
        return (line + newline).decode("utf-8", "replace")

    def discard(self) -> None:
        """On a terminal, lines typed after the time are dropped (a pipe is a script: kept)."""
        if os.isatty(self.fd):
            import termios
            termios.tcflush(self.fd, termios.TCIFLUSH)
            self.pending = b""


def keyboard(stdin: TextIO | Keyboard) -> Keyboard:
    """The keyboard of a stream (a ``Keyboard`` is its own)."""
    if isinstance(stdin, Keyboard):
        return stdin
    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return _Stream(stdin)
    return _Descriptor(fd) if os.name == "posix" else _Stream(stdin)


def clock(seconds: float) -> str:
    """``m:ss``, rounded up: the time left as a countdown shows it."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


class Practice:
    """One game alone at the terminal; ``play()`` runs it to the end (or until «salir»)."""

    def __init__(self, stdin: TextIO | Keyboard, stdout: TextIO, *, seconds: float = SECONDS,
                 seed: int | str | None = None, rounds: int | None = None,
                 keep_leave: bool = False, lexicon: Lexicon | None = None,
                 lang: str | None = None, save: str | Path | None = None,
                 time_source: Callable[[], float] = time.monotonic):
        self.keys = keyboard(stdin)
        self.stdout = stdout
        self.seconds = seconds
        self.now = time_source
        self.lang = supported(lang) or current()
        self.save_path = save
        with use(self.lang):
            self.game = Duplicate([_("Tú")], seed=seed, lexicon=lexicon, rounds=rounds,
                                  keep_leave=keep_leave)

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def prompt(self, deadline: float) -> None:
        self.stdout.write(f"[{clock(deadline - self.now())}]> ")
        self.stdout.flush()

    def play(self) -> Duplicate:
        with use(self.lang):
            game = self.game
            self.say(_("atril — duplicada (semilla {seed}): tú contra la jugada maestra, {time} "
                       "por ronda. Escribe «ayuda» para ver las órdenes.").format(
                seed=game.seed, time=clock(self.seconds)))
            while (rnd := game.start_round()) is not None:
                if not self.round(rnd):
                    self.say(_("Partida abandonada."))
                    game.stop()
                    break
                game.close_round()
                self.results(rnd)
            self.finish()
            return game

    def show(self, rnd: Round) -> None:
        self.stdout.write(rnd.board.render(premiums=True) + "\n")
        heading = _("Ronda {round} · bolsa: {tiles} fichas").format(
            round=rnd.number, tiles=len(self.game.bag))
        if rnd.redraws:
            heading += " · " + _("atril repetido")
        self.say(heading)
        self.say(_("Atril: {rack}").format(rack=Rack(rnd.rack).human()))

    def round(self, rnd: Round) -> bool:
        """Wait for the slip until the time is up; False if the player leaves."""
        self.show(rnd)
        deadline = self.now() + self.seconds
        alarms = sorted((a for a in ALARMS if a < self.seconds), reverse=True)
        self.keys.discard()
        self.prompt(deadline)
        while True:
            left = deadline - self.now()
            passed = [a for a in alarms if left <= a]
            if passed:
                alarms = alarms[len(passed):]
                if left > 0:
                    self.say("\n" + _(ALARMS[passed[-1]]))
                    self.prompt(deadline)
            if left <= 0:
                self.say("\n" + _("¡Tiempo!"))
                return True
            if not self.keys.ready(left - alarms[0] if alarms else left):
                continue
            line = self.keys.readline()
            if not line:  # end of input: as «salir»
                return False
            outcome = self.command(line.strip(), deadline)
            if outcome != "stay":
                return outcome == "done"
            self.prompt(deadline)

    def command(self, line: str, deadline: float) -> str:
        """Act on one typed line: ``done`` (the slip is in), ``quit`` or ``stay``."""
        late = self.now() > deadline
        if not line:
            return "stay"
        cmd = _COMMAND_OF.get(line.split()[0].lower())
        if cmd == "help":
            self.say(_("Órdenes:\n"
                       "  H8 CASA      tu jugada, que se entrega al escribirla (letra y número = "
                       "horizontal,\n"
                       "               número y letra = vertical; minúscula = comodín; CH, LL y "
                       "RR son una ficha)\n"
                       "  paso         entrega la ronda sin jugada (0 puntos)\n"
                       "  tiempo       el tiempo que queda\n"
                       "  tablero      vuelve a mostrar el tablero y el atril\n"
                       "  planilla     las rondas jugadas, con sus puntos\n"
                       "  ayuda        esta ayuda\n"
                       "  salir        termina la partida"))
        elif cmd == "quit":
            return "quit"
        elif cmd == "board":
            rnd = self.game.current
            assert rnd is not None
            self.show(rnd)
        elif cmd == "sheet":
            self.say(self.game.to_text())
        elif cmd == "time":
            self.say(_("Quedan {time}.").format(time=clock(deadline - self.now())))
        elif len(line.split()) == 1 and not _is_pass(line):
            self.say(_("No entiendo «{line}». Escribe una jugada («H8 CASA»), «paso» o "
                       "«ayuda».").format(line=line))
        else:
            self.game.submit(0, line, late=late)
            return "done"
        return "stay"

    def results(self, rnd: Round) -> None:
        """The slip's score, the master move and the running percentage."""
        assert rnd.results is not None
        result, written = rnd.results[0], (rnd.slips[0].text or "").strip()
        if result.reason == MISSING:
            self.say(_("Sin jugada: 0 puntos."))
        elif result.reason is not None:
            why = _(ZERO_REASONS[result.reason])
            self.say(_("Tu jugada: {move} — 0 puntos: {reason}.").format(
                move=written, reason=f"{why} ({result.detail})" if result.detail else why))
        else:
            assert result.play is not None
            self.say(_("Tu jugada: {move} — {score} puntos.").format(
                move=result.play.move.notation(rnd.board), score=result.score))
        self.say(_("Jugada maestra: {move} — {score} puntos.").format(
            move=rnd.master.move.notation(rnd.board), score=rnd.master.score))
        if found_master(result.score, rnd.master.score):
            self.say(_("¡Has encontrado la jugada maestra!"))
        mine = self.game.standings()[0]
        self.say(_("Llevas {points} de {total} puntos ({percentage} %).").format(
            points=mine.total, total=mine.master_total, percentage=f"{mine.percentage:.1f}"))

    def finish(self) -> None:
        game = self.game
        assert game.end is not None
        if game.end != ARBITER:  # «salir» was said already
            self.stdout.write(game.board.render(premiums=True) + "\n")
            self.say(_("Fin de la partida: {reason}.").format(reason=_(END_REASONS[game.end])))
        mine = game.standings()[0]
        rounds = len(game.closed_rounds())
        self.say(ngettext("Total: {points} de {total} puntos ({percentage} %) en {rounds} ronda; "
                          "jugadas maestras encontradas: {masters}.",
                          "Total: {points} de {total} puntos ({percentage} %) en {rounds} "
                          "rondas; jugadas maestras encontradas: {masters}.", rounds).format(
            points=mine.total, total=mine.master_total, percentage=f"{mine.percentage:.1f}",
            rounds=rounds, masters=mine.masters))
        self.save()

    def save(self) -> None:
        """Write the game as JSON (``Duplicate.to_dict``) where ``--guardar`` said."""
        if not self.save_path:
            return
        try:
            Path(self.save_path).write_text(
                json.dumps(self.game.to_dict(), ensure_ascii=False, indent=2) + "\n",
                encoding="utf-8")
        except OSError as exc:
            self.say(_("No se pudo guardar en {path}: {error}").format(
                path=self.save_path, error=exc.strerror or exc))
            return
        self.say(_("Partida guardada en {path}.").format(path=self.save_path))


def _is_pass(text: str) -> bool:
    try:
        return Move.parse(text).is_pass
    except AtrilError:
        return False


def run(stdin: TextIO | Keyboard, stdout: TextIO, **options: object) -> Duplicate:
    """Play one practice game over these streams (options as ``Practice``)."""
    return Practice(stdin, stdout, **options).play()  # type: ignore[arg-type]
