"""The referee at the table: whose move it is, what they may do, and what came of it — the one
turn loop every front end drives (self-play, the terminal, the web app, GCG replay).

A turn in Spanish Scrabble has two steps: the player to move makes a move, and a play then
waits for the opponent, who accepts it or challenges it (art. 38–40); making their own move
also accepts it. ``Referee.expects`` says which step the table is at and whose it is;
``act`` applies what that player does and returns the ``Event`` list of what happened (a play
placed, a play accepted, a verdict, a withdrawn play, the end of the game). A seat may hold a
computer ``Player``: ``ask`` gets its decision without changing the game (a server can think
without holding a lock), ``step`` asks and acts, ``run`` plays on until a person must act.

    >>> from atril.game import Game
    >>> from atril.referee import Referee, Action
    >>> game = Game(["Ana", "Luis"], seed=1, draws=["AEIRSTN", "CHAOSLE"])
    >>> referee = Referee(game)
    >>> referee.expects()
    (0, 'move')
    >>> [e.kind for e in referee.act(Action.of("H2 ARESTIN"))]
    ['play']
    >>> referee.expects()
    (1, 'respond')
    >>> [(e.kind, e.verdict) for e in referee.act(Action.challenge(words=["arestin"]))]
    [('challenge', True)]

Without a ``can_play`` hook on the game, a referee given a lexicon also ends a game nobody can
play on (art. 45.1) before asking for a move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from . import movegen
from .board import Board
from .errors import IllegalMoveError
from .game import Game, Result, Turn
from .i18n import _
from .lexicon import Lexicon
from .move import Move

MOVE, RESPOND = "move", "respond"  # the two steps of a turn
ACCEPT, CHALLENGE = "accept", "challenge"


class Player(Protocol):
    """What a game needs of a computer (or any scripted) player."""

    name: str

    def choose(self, game: Game) -> Move: ...

    def challenges(self, game: Game) -> bool: ...


@dataclass(frozen=True)
class Action:
    """What the player to act does: ``move`` (a play, exchange or pass), ``accept`` or
    ``challenge`` the pending play. ``words``: the words challenged, as ``Game.challenge``
    takes them (None: every word the play formed). ``verdict`` gives a challenge's outcome
    from outside (a record, a tournament judge) instead of asking the lexicon."""

    kind: str
    move: Move | None = None
    verdict: bool | None = None
    words: tuple[str | tuple[int, ...], ...] | None = None

    @classmethod
    def of(cls, move: Move | str) -> Action:
        return cls(MOVE, Move.parse(move) if isinstance(move, str) else move)

    @classmethod
    def accept(cls) -> Action:
        return cls(ACCEPT)

    @classmethod
    def challenge(cls, verdict: bool | None = None,
                  words: Iterable[str | Sequence[int]] | None = None) -> Action:
        return cls(CHALLENGE, verdict=verdict, words=None if words is None else tuple(
            w if isinstance(w, str) else tuple(w) for w in words))


@dataclass(frozen=True)
class Event:
    """Something that happened at the table. ``kind``: ``play`` (placed, waiting for the
    opponent), ``exchange``, ``pass``, ``accept`` (``implied`` when the opponent's own move
    accepted it, art. 38), ``challenge`` (``words``: the words challenged, as the play formed
    them, art. 42.1; ``verdict`` on them: True = "jugada correcta"; a False verdict withdraws
    the play, art. 39), ``blocked`` (nobody can play, art. 45.1) or ``end`` (``result``).
    ``player`` is who acted; ``turn`` the turn concerned."""

    kind: str
    player: int
    turn: Turn | None = None
    verdict: bool | None = None
    implied: bool = False
    result: Result | None = None
    words: tuple[tuple[int, ...], ...] = ()


class Referee:
    """Runs one game; ``players[k]`` is the computer in seat k, or None for a person."""

    def __init__(self, game: Game, players: Sequence[Player | None] = (None, None), *,
                 lexicon: Lexicon | None = None):
        self.game = game
        self.players = tuple(players)
        self.lexicon = lexicon

    def expects(self) -> tuple[int, str] | None:
        """(seat, ``move`` or ``respond``): who must act and how; None once the game is over."""
        game = self.game
        if game.is_over():
            return None
        return game.player_to_move, RESPOND if game.pending is not None else MOVE

    def is_computer(self, seat: int) -> bool:
        return self.players[seat] is not None

    def ask(self) -> Action:
        """The decision of the computer to act, the game untouched."""
        expected = self.expects()
        assert expected is not None, "la partida ha terminado"
        seat, step = expected
        player = self.players[seat]
        if player is None:
            raise ValueError(_("le toca a una persona ({name})").format(
                name=self.game.players[seat]))
        if step == RESPOND:
            author = self.players[1 - seat]
            if _trusts(player, author):
                return Action.accept()
            return Action.challenge() if player.challenges(self.game) else Action.accept()
        return Action.of(player.choose(self.game))

    def act(self, action: Action) -> list[Event]:
        """Apply what the player to act does; the events it caused, in order. A refused action
        raises (``IllegalMoveError`` with the article) and leaves the game as it was."""
        game = self.game
        events: list[Event] = []
        if game.result is not None:
            raise IllegalMoveError(_("la partida ha terminado: {text}").format(
                text=game.result.text), game.result.article)
        seat = game.player_to_move
        if action.kind == MOVE:
            assert action.move is not None
            accepted = game.pending
            try:
                turn = game.play(action.move)  # accepts a pending play first (art. 38)
            except IllegalMoveError:
                if accepted is None or game.pending is not None or not game.is_over():
                    raise
                events.append(Event(ACCEPT, seat, accepted, implied=True))  # it ended the game
            else:
                if accepted is not None:
                    events.append(Event(ACCEPT, seat, accepted, implied=True))
                events.append(Event(turn.kind, seat, turn))
        elif action.kind == ACCEPT:
            waiting = game.pending
            game.accept()
            events.append(Event(ACCEPT, seat, waiting))
        elif action.kind == CHALLENGE:
            waiting = game.pending
            valid = game.challenge(valid=action.verdict, words=action.words)
            events.append(Event(CHALLENGE, seat, waiting, verdict=valid,
                                words=game.history[-1].challenged_words))
        else:
            raise ValueError(_("acción desconocida «{action}»").format(action=action.kind))
        self._blocked(events)
        if game.result is not None:
            events.append(Event("end", seat, result=game.result))
        return events

    def step(self) -> list[Event]:
        """The computer to act acts."""
        return self.act(self.ask())

    def run(self, on_step: Callable[[list[Event]], None] | None = None) -> list[Event]:
        """Let the computers act until a person must, or the game is over; ``on_step`` sees
        the events of each step."""
        events: list[Event] = []
        self._blocked(events)
        game, players = self.game, self.players
        while game.result is None and players[game.player_to_move] is not None:
            step = self.step()
            events += step
            if on_step is not None:
                on_step(step)
        return events

    def _blocked(self, events: list[Event]) -> None:
        """Nobody can place a tile with the bag empty (art. 45.1): end the game, when the game
        has no ``can_play`` hook of its own and the referee knows the lexicon."""
        game = self.game
        if (len(game.bag) or game.pending is not None or game.result is not None
                or self.lexicon is None or game.can_play is not None):
            return
        placeable = can_play(self.lexicon)
        if not any(placeable(game.board, rack) for rack in game.racks):
            game.declare_blocked()
            events.append(Event("blocked", game.player_to_move))


def can_play(lexicon: Lexicon) -> Callable[[Board, Sequence[int]], bool]:
    """Whether a rack can be placed anywhere: the hook a ``Game`` needs to see by itself that
    nobody can play (art. 45.1)."""
    return lambda board, rack: bool(rack) and len(movegen.best(board, rack, lexicon, n=1)) > 0


def _trusts(responder: Player, author: Player | None) -> bool:
    """A computer never challenges another computer's play on the same lexicon: it challenges
    only invalid plays, and those it never makes (skipping the check keeps self-play fast)."""
    lexicon = getattr(responder, "lexicon", None)
    return (author is not None and lexicon is not None
            and getattr(author, "lexicon", None) is lexicon)
