"""A game in the terminal: a person against the computer, or two people at one keyboard.

``run(stdin, stdout, ...)`` plays a whole game over two text streams, so tests drive it with
scripted lines; ``atril play`` calls it with the real terminal. Every line typed is either a
command (``ayuda`` lists them) or a move in Spanish notation (``H8 CASA``, ``cambio XY``,
``paso``); anything else gets a message saying what was expected, and the game goes on.

The computer never tells whether a word is valid except as a challenge verdict (art. 40, 43).
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from . import players as P
from . import tiles as T
from .clock import Clock
from .errors import AtrilError
from .game import VERDICTS, Game
from .lexicon import Lexicon
from .move import Move
from .referee import Action, Event, Referee, can_play

HUMAN = "humano"

#: message key → (Spanish, English).
MESSAGES: dict[str, tuple[str, str]] = {
    "welcome": ("atril — Scrabble en español ({ruleset}). Escribe «ayuda» para ver las órdenes.",
                "atril — Spanish Scrabble ({ruleset}). Type “help” for the commands."),
    "starts": ("Empieza {name}.", "{name} starts."),
    "help": ("Órdenes:\n"
             "  H8 CASA      jugada (letra y número = horizontal, número y letra = vertical;\n"
             "               minúscula = comodín; CH, LL y RR son una ficha)\n"
             "  cambio XY    cambia esas fichas (art. 25)\n"
             "  paso         pasa el turno (art. 26)\n"
             "  impugnar     impugna la jugada pendiente del rival (art. 39)\n"
             "  aceptar      acepta la jugada pendiente (art. 38)\n"
             "  tablero      vuelve a mostrar el tablero\n"
             "  planilla     muestra la planilla\n"
             "  guardar F    guarda la partida en F (GCG)\n"
             "  ayuda        esta ayuda\n"
             "  salir        abandona la partida",
             "Commands (the Spanish words work too):\n"
             "  H8 CASA      a play (letter then number = across, number then letter = down;\n"
             "               lower case = blank; CH, LL and RR are one tile)\n"
             "  exchange XY  exchange those tiles (art. 25)\n"
             "  pass         pass (art. 26)\n"
             "  challenge    challenge the opponent's pending play (art. 39)\n"
             "  accept       accept the pending play (art. 38)\n"
             "  board        show the board again\n"
             "  sheet        show the scoresheet\n"
             "  save F       save the game to F (GCG)\n"
             "  help         this help\n"
             "  quit         leave the game"),
    "scores": ("{a}: {sa}   {b}: {sb}", "{a}: {sa}   {b}: {sb}"),
    "clock": ("Reloj: {clock}", "Clock: {clock}"),
    "bag": ("Bolsa: {n} fichas.  Sin ver: {unseen}", "Bag: {n} tiles.  Unseen: {unseen}"),
    "rack": ("Atril ({name}): {rack}", "Rack ({name}): {rack}"),
    "prompt": ("{name}> ", "{name}> "),
    "pending": ("Jugada de {name} pendiente: {move} ({score}). «impugnar», «aceptar» o juega.",
                "{name}'s play is pending: {move} ({score}). “challenge”, “accept” or play."),
    # "{name}: ..." reads right whether the name is «Tú» or another player's.
    "played": ("{name}: {move}, {score} puntos.", "{name}: {move}, {score} points."),
    "exchanged": ("{name}: cambio de {n} fichas.", "{name}: exchange of {n} tiles."),
    "passed": ("{name}: paso.", "{name}: pass."),
    "challenged": ("{name}: impugnación — {verdict}.", "{name}: challenge — {verdict}."),
    "withdrawn": ("La jugada se retira y {name} pierde el turno (art. 40).",
                  "The play is withdrawn and {name} loses the turn (art. 40)."),
    "accepted": ("Jugada aceptada.", "Play accepted."),
    "no_pending": ("No hay ninguna jugada pendiente.", "There is no pending play."),
    "error": ("No se puede: {error}", "Not possible: {error}"),
    "unknown": ("No entiendo «{line}». Escribe una jugada («H8 CASA»), «cambio XY», «paso» o "
                "«ayuda».",
                "I don't understand “{line}”. Type a play (“H8 CASA”), “exchange XY”, “pass” "
                "or “help”."),
    "saved": ("Partida guardada en {path}.", "Game saved to {path}."),
    "saved_seat": ("Partida guardada en {path} (sin el atril del rival: la partida no ha "
                   "terminado).",
                   "Game saved to {path} (without the opponent's rack: the game is not over)."),
    "saved_spectator": ("Partida guardada en {path} (sin los atriles: la partida no ha "
                        "terminado).",
                        "Game saved to {path} (without either rack: the game is not over)."),
    "save_usage": ("Indica el fichero: «guardar partida.gcg».", "Name the file: “save game.gcg”."),
    "save_failed": ("No se pudo guardar en {path}: {error}", "Could not save to {path}: {error}"),
    "quit": ("Partida abandonada.", "Game abandoned."),
    "over": ("Fin de la partida: {text} (art. {article}).",
             "Game over: {text} (art. {article})."),
    "final": ("Resultado: {a} {sa} – {b} {sb}. {winner}", "Result: {a} {sa} – {b} {sb}. {winner}"),
    "wins": ("Gana {name}.", "{name} wins."),
    "draw": ("Empate.", "A draw."),
}

#: default names: two people, or a person against the computer.
NAMES = (("Jugador 1", "Jugador 2", "Tú", "Ordenador"), ("Player 1", "Player 2", "You", "Computer"))

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


class Session:
    """One game at the terminal; ``play()`` runs it to the end (or until ``salir``)."""

    def __init__(self, stdin: TextIO, stdout: TextIO, *, opponent: str = "equity",
                 names: tuple[str, str] | None = None, ruleset: str | None = None,
                 clock_minutes: float | None = None, seed: int | str | None = None,
                 lang: str = "es", save: str | Path | None = None,
                 lexicon: Lexicon | None = None):
        self.stdin, self.stdout = stdin, stdout
        self.lang = 1 if lang == "en" else 0
        self.save_path = save
        self.lexicon = lexicon or Lexicon.load()
        lex = self.lexicon
        if opponent == HUMAN:
            self.computer = None
            names = names or NAMES[self.lang][:2]
        else:
            self.computer = P.get(opponent, lexicon=lex, seed=seed)
            names = names or (NAMES[self.lang][2], NAMES[self.lang][3])
        self.game = Game(names, ruleset=ruleset, seed=seed, first=None, lexicon=lex,
                         clock=None if clock_minutes is None else Clock(clock_minutes),
                         can_play=can_play(lex))
        self.referee = Referee(self.game, (None, self.computer))

    # -- output -------------------------------------------------------------------------------
    def say(self, key: str, **fields) -> None:
        self.stdout.write(MESSAGES[key][self.lang].format(**fields) + "\n")
        self.stdout.flush()

    def is_computer(self, seat: int) -> bool:
        return self.computer is not None and seat == 1

    def show(self) -> None:
        """Board with premiums, scores, clock, bag, unseen tiles and the rack of who moves."""
        game = self.game
        self.stdout.write(game.board.render(premiums=True) + "\n")
        a, b = game.players
        self.say("scores", a=a, sa=game.scores[0], b=b, sb=game.scores[1])
        if game.clock is not None:
            self.say("clock", clock=game.clock)
        unseen = game.unseen()
        self.say("bag", n=len(game.bag),
                 unseen=" ".join(f"{T.tile_to_human(t)}×{n}" for t, n in
                                 sorted(enumerate(unseen), key=lambda x: T.blank_last(x[0])) if n))
        p = game.player_to_move
        self.say("rack", name=game.players[p],
                 rack=" ".join(T.tile_to_human(t) for t in sorted(
                     game.racks[p], key=T.blank_last)))
        if game.pending is not None:
            turn = game.pending
            self.say("pending", name=game.players[turn.player], move=turn.notation(),
                     score=turn.score)

    # -- the game -----------------------------------------------------------------------------
    def play(self) -> Game:
        game = self.game
        self.say("welcome", ruleset=game.ruleset.title)
        self.say("starts", name=game.players[game.first])
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
                self.say("quit")
                self.save()
                return game
            outcome = self.command(line.strip())
            if outcome == "quit":
                self.say("quit")
                self.save()
                return game
            show = outcome == "moved"
        self.finish()
        return game

    def prompt(self) -> None:
        self.stdout.write(MESSAGES["prompt"][self.lang].format(
            name=self.game.players[self.game.player_to_move]))
        self.stdout.flush()

    def command(self, line: str) -> str:
        """Act on one typed line; returns ``moved``, ``quit`` or ``stay``."""
        if not line:
            return "stay"
        word, _, rest = line.partition(" ")
        cmd = _COMMAND_OF.get(word.lower())
        game = self.game
        try:
            if cmd == "help":
                self.say("help")
            elif cmd == "quit":
                return "quit"
            elif cmd == "sheet":
                from .scoresheet import Scoresheet
                self.stdout.write(Scoresheet.from_game(game).to_text() + "\n")
            elif cmd == "board":
                return "moved"
            elif cmd == "save":
                if not rest.strip():
                    self.say("save_usage")
                else:
                    self.save(rest.strip())
            elif cmd in ("challenge", "accept"):
                if game.pending is None:
                    self.say("no_pending")
                    return "stay"
                action = Action.challenge() if cmd == "challenge" else Action.accept()
                self.announce(self.referee.act(action))
                return "moved"
            elif self.move(line):
                return "moved"
        except ValueError as exc:  # every atril error; the game goes on
            article = getattr(exc, "article", None)
            self.say("error", error=f"{exc}" + (f" (art. {article})" if article and
                                                 f"art. {article}" not in str(exc) else ""))
        return "stay"

    def move(self, line: str) -> bool:
        """A play, exchange or pass typed by the player to move; False if it was no move."""
        try:
            move = Move.parse(line)
        except AtrilError as exc:
            if len(line.split()) == 1:
                self.say("unknown", line=line)
            else:
                self.say("error", error=exc)
            return False
        self.announce(self.referee.act(Action.of(move)))
        return True

    def announce(self, events: list[Event]) -> None:
        """Say what happened at the table: moves, a person's acceptance, verdicts (art. 40)."""
        game = self.game
        for event in events:
            name = game.players[event.player]
            turn = event.turn
            if event.kind == "play":
                self.say("played", name=name, move=turn.notation(), score=turn.score)
            elif event.kind == "exchange":
                self.say("exchanged", name=name, n=len(turn.move.tiles))
            elif event.kind == "pass":
                self.say("passed", name=name)
            elif event.kind == "accept" and not event.implied and not self.is_computer(
                    event.player):
                self.say("accepted")
            elif event.kind == "challenge":
                self.say("challenged", name=name, verdict=VERDICTS[event.verdict])
                if not event.verdict:
                    self.say("withdrawn", name=game.players[turn.player])

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
            self.say("save_failed", path=path, error=exc.strerror or exc)
            return
        if self.game.is_over():
            self.say("saved", path=path)
        else:
            self.say("saved_spectator" if seat is None else "saved_seat", path=path)

    def finish(self) -> None:
        game = self.game
        result = game.result
        self.stdout.write(game.board.render(premiums=True) + "\n")
        self.say("over", text=result.text, article=result.article)
        winner = (MESSAGES["draw"][self.lang] if result.winner is None else
                  MESSAGES["wins"][self.lang].format(name=game.players[result.winner]))
        a, b = game.players
        self.say("final", a=a, sa=result.scores[0], b=b, sb=result.scores[1], winner=winner)
        self.save()


def run(stdin: TextIO, stdout: TextIO, **options) -> Game:
    """Play one game over these streams (options as ``Session``); returns the game."""
    return Session(stdin, stdout, **options).play()
