"""A game in the terminal: a person against the computer, or two people at one keyboard.

``run(stdin, stdout, ...)`` plays a whole game over two text streams, so tests drive it with
scripted lines; ``atril play`` calls it with the real terminal. Every line typed is either a
command (``ayuda`` lists them) or a move in Spanish notation (``H8 CASA``, ``cambio XY``,
``paso``); anything else gets a message saying what was expected, and the game goes on.

The computer never tells whether a word is valid except as a challenge verdict (art. 40, 43).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TextIO, TypeVar

from . import players as P
from . import tiles as T
from .articles import renumber
from .clock import Clock
from .errors import AtrilError
from .game import Game
from .i18n import _, current, ngettext, supported, use
from .lexicon import Lexicon, notice
from .move import Move
from .referee import Action, Event, Referee, can_play
from .rules import verdict
from .ruleset import Ruleset

HUMAN = "humano"

#: what a person may type for each command, in either language.
COMMANDS: dict[str, tuple[str, ...]] = {
    "help": ("ayuda", "help", "?"),
    "quit": ("salir", "quit", "exit"),
    "sheet": ("planilla", "sheet", "scoresheet"),
    "board": ("tablero", "board"),
    "save": ("guardar", "save"),
    "challenge": ("impugnar", "impugno", "challenge"),
    "accept": ("aceptar", "acepto", "accept"),
}
_COMMAND_OF = {word: cmd for cmd, words in COMMANDS.items() for word in words}

Out = TypeVar("Out")


def _speaking(method: Callable[..., Out]) -> Callable[..., Out]:
    """Run a session's method in its language: what it says, and the errors the game raises."""
    @functools.wraps(method)
    def in_language(self: Session, *args, **kwargs) -> Out:
        with use(self.lang):
            return method(self, *args, **kwargs)
    return in_language


class Session:
    """One game at the terminal; ``play()`` runs it to the end (or until ``salir``)."""

    def __init__(self, stdin: TextIO, stdout: TextIO, *, opponent: str = "equity",
                 names: tuple[str, str] | None = None, ruleset: str | None = None,
                 clock_minutes: float | None = None, seed: int | str | None = None,
                 lang: str | None = None, save: str | Path | None = None,
                 lexicon: Lexicon | None = None, seconds: float | None = None):
        self.stdin, self.stdout = stdin, stdout
        self.lang = supported(lang) or current()  # the language it speaks
        self.save_path = save
        self.lexicon = lexicon or Lexicon.load(Ruleset.get(ruleset).lexicon)
        lex = self.lexicon
        with use(self.lang):
            if opponent == HUMAN:
                self.computer = None
                names = names or (_("Jugador 1"), _("Jugador 2"))
            else:
                self.computer = P.get(opponent, lexicon=lex, seed=seed, seconds=seconds)
                names = names or (_("Tú"), _("Ordenador"))
            self.game = Game(names, ruleset=ruleset, seed=seed, first=None, lexicon=lex,
                             clock=None if clock_minutes is None else Clock(clock_minutes),
                             can_play=can_play(lex))
        self.referee = Referee(self.game, (None, self.computer))

    # -- output -------------------------------------------------------------------------------
    def say(self, text: str) -> None:
        """Write a line; the articles it cites are the game's ruleset's."""
        with self.game.ruleset.in_force():
            self.stdout.write(renumber(text) + "\n")
        self.stdout.flush()

    def is_computer(self, seat: int) -> bool:
        return self.computer is not None and seat == 1

    def is_you(self, seat: int) -> bool:
        """The person playing the computer: messages about them say «tú»."""
        return self.computer is not None and seat == 0

    @_speaking
    def show(self) -> None:
        """Board with premiums, scores, clock, bag, unseen tiles and the rack of who moves."""
        game = self.game
        self.stdout.write(game.board.render(premiums=True) + "\n")
        a, b = game.players
        self.say(f"{a}: {game.scores[0]}   {b}: {game.scores[1]}")
        if game.clock is not None:
            self.say(_("Reloj: {clock}").format(clock=game.clock))
        unseen = game.unseen()
        self.say(_("Bolsa: {tiles} fichas.  Sin ver: {unseen}").format(
            tiles=len(game.bag),
            unseen=" ".join(f"{T.tile_to_human(t)}×{n}" for t, n in
                            sorted(enumerate(unseen), key=lambda x: T.blank_last(x[0])) if n)))
        p = game.player_to_move
        self.say(_("Atril ({name}): {rack}").format(
            name=game.players[p],
            rack=" ".join(T.tile_to_human(t) for t in sorted(game.racks[p], key=T.blank_last))))
        if game.pending is not None:
            turn = game.pending
            self.say(_("Jugada de {name} pendiente: {move} ({score}). «impugnar», «aceptar» o "
                       "juega.").format(name=game.players[turn.player], move=turn.notation(),
                                        score=turn.score))

    # -- the game -----------------------------------------------------------------------------
    @_speaking
    def play(self) -> Game:
        game = self.game
        self.say(_("atril — Scrabble en español ({ruleset}). Escribe «ayuda» para ver las "
                   "órdenes.").format(ruleset=_(game.ruleset.title)))
        if game.ruleset.note is not None:  # what the text leaves to atril (docs/RULES.md §8)
            self.say(_(game.ruleset.note))
        said = notice(game.ruleset, self.lexicon.id)
        if said is not None:  # the text names another word list (docs/RULES.md §7)
            self.say(said)
            self.say(_("Para jugar con la lista oficial: atril lexicon install RUTA --for "
                       "{ruleset}").format(ruleset=game.ruleset.name))
        self.say(_("Empiezas tú.") if self.is_you(game.first) else
                 _("Empieza {name}.").format(name=game.players[game.first]))
        show = True
        while (expected := self.referee.expects()) is not None:
            if self.is_computer(expected[0]):
                self.announce(self.referee.step())
                show = True
                continue
            if show:
                self.show()
            self.prompt()
            line = self.stdin.readline()
            if not line:  # end of input: as «salir»
                self.say(_("Partida abandonada."))
                self.save()
                return game
            outcome = self.command(line.strip())
            if outcome == "quit":
                self.say(_("Partida abandonada."))
                self.save()
                return game
            show = outcome == "moved"
        self.finish()
        return game

    def prompt(self) -> None:
        self.stdout.write(f"{self.game.players[self.game.player_to_move]}> ")
        self.stdout.flush()

    @_speaking
    def command(self, line: str) -> str:
        """Act on one typed line; returns ``moved``, ``quit`` or ``stay``."""
        if not line:
            return "stay"
        word, _space, rest = line.partition(" ")
        cmd = _COMMAND_OF.get(word.lower())
        game = self.game
        try:
            if cmd == "help":
                self.say(_("Órdenes:\n"
                           "  H8 CASA      jugada (letra y número = horizontal, número y letra = "
                           "vertical;\n"
                           "               minúscula = comodín; CH, LL y RR son una ficha)\n"
                           "  cambio XY    cambia esas fichas (art. 25)\n"
                           "  paso         pasa el turno (art. 26)\n"
                           "  impugnar     impugna la jugada pendiente del rival, todas sus "
                           "palabras (art. 39);\n"
                           "               «impugnar CASA PERRO» impugna solo esas (art. 40)\n"
                           "  aceptar      acepta la jugada pendiente (art. 38)\n"
                           "  tablero      vuelve a mostrar el tablero\n"
                           "  planilla     muestra la planilla\n"
                           "  guardar F    guarda la partida en F (GCG)\n"
                           "  ayuda        esta ayuda\n"
                           "  salir        abandona la partida"))
            elif cmd == "quit":
                return "quit"
            elif cmd == "sheet":
                from .scoresheet import Scoresheet
                self.stdout.write(Scoresheet.from_game(game).to_text() + "\n")
            elif cmd == "board":
                return "moved"
            elif cmd == "save":
                if not rest.strip():
                    self.say(_("Indica el fichero: «guardar partida.gcg»."))
                else:
                    self.save(rest.strip())
            elif cmd in ("challenge", "accept"):
                if game.pending is None:
                    self.say(_("No hay ninguna jugada pendiente."))
                    return "stay"
                action = (Action.challenge(words=rest.split() or None) if cmd == "challenge"
                          else Action.accept())
                self.announce(self.referee.act(action))
                return "moved"
            elif self.move(line):
                return "moved"
        except ValueError as exc:  # every atril error (its message cites its article)
            self.say(_("No se puede: {error}").format(error=exc))
        return "stay"

    def move(self, line: str) -> bool:
        """A play, exchange or pass typed by the player to move; False if it was no move."""
        try:
            move = Move.parse(line)
        except AtrilError as exc:
            if len(line.split()) == 1:
                self.say(_("No entiendo «{line}». Escribe una jugada («H8 CASA»), «cambio XY», "
                           "«paso» o «ayuda».").format(line=line))
            else:
                self.say(_("No se puede: {error}").format(error=exc))
            return False
        self.announce(self.referee.act(Action.of(move)))
        return True

    def announce(self, events: list[Event]) -> None:
        """Say what happened at the table: moves, a person's acceptance, verdicts (art. 40)."""
        game = self.game
        for event in events:
            name = game.players[event.player]
            turn = event.turn
            if turn is None:  # the end, a blocked game: said by ``finish``
                continue
            # TRANSLATORS: "{name}: …" reads right whether the name is «Tú» or another's.
            if event.kind == "play":
                self.say(_("{name}: {move}, {score} puntos.").format(
                    name=name, move=turn.notation(), score=turn.score))
            elif event.kind == "exchange":
                self.say(ngettext("{name}: cambio de {tiles} ficha.",
                                  "{name}: cambio de {tiles} fichas.", len(turn.move.tiles))
                         .format(name=name, tiles=len(turn.move.tiles)))
            elif event.kind == "pass":
                self.say(_("{name}: paso.").format(name=name))
            elif event.kind == "accept" and not event.implied and not self.is_computer(
                    event.player):
                self.say(_("Jugada aceptada."))
            elif event.kind == "challenge":
                self.say(_("{name}: impugnación — {verdict}.").format(
                    name=name, verdict=verdict(bool(event.verdict))))
                if not event.verdict and self.is_you(turn.player):
                    self.say(_("La jugada se retira y pierdes el turno (art. 40)."))
                elif not event.verdict:
                    self.say(_("La jugada se retira y {name} pierde el turno (art. 40).").format(
                        name=game.players[turn.player]))

    def save(self, path: str | Path | None = None) -> None:
        """Write the game as GCG. Until it is over the file holds only what may be known: the
        person's view against the computer (seat 0); between two people at one keyboard,
        where either may open the file, a spectator's view (neither rack)."""
        path = path or self.save_path
        if not path:
            return
        from . import gcg
        seat = None if self.computer is None else 0
        try:
            Path(path).write_text(gcg.dumps(self.game, seat=seat), encoding="utf-8")
        except OSError as exc:
            self.say(_("No se pudo guardar en {path}: {error}").format(
                path=path, error=exc.strerror or exc))
            return
        if self.game.is_over():
            self.say(_("Partida guardada en {path}.").format(path=path))
        elif seat is None:
            self.say(_("Partida guardada en {path} (sin los atriles: la partida no ha "
                       "terminado).").format(path=path))
        else:
            self.say(_("Partida guardada en {path} (sin el atril del rival: la partida no ha "
                       "terminado).").format(path=path))

    def finish(self) -> None:
        game = self.game
        result = game.result
        assert result is not None
        self.stdout.write(game.board.render(premiums=True) + "\n")
        self.say(_("Fin de la partida: {text} (art. {article}).").format(
            text=result.text, article=result.article))
        winner = (_("Empate.") if result.winner is None else
                  _("Gana {name}.").format(name=game.players[result.winner]))
        a, b = game.players
        self.say(_("Resultado: {a} {sa} – {b} {sb}. {winner}").format(
            a=a, sa=result.scores[0], b=b, sb=result.scores[1], winner=winner))
        self.save()


def run(stdin: TextIO, stdout: TextIO, **options) -> Game:
    """Play one game over these streams (options as ``Session``); returns the game."""
    return Session(stdin, stdout, **options).play()
