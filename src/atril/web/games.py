"""Games on the server: creating them, seat tokens, and every action, checked and stored.

A stored document is ``{"meta": {...}, "game": Game.to_dict()}``. ``meta`` holds the mode
(``computer``, ``remote``, ``local``), the SHA-256 of each seat's secret token, the computer's
seat and level, and the clock settings of a game whose clock waits for the invited player.
Each action runs inside ``Store.update``: read, check, apply, write, in one transaction.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

from ..clock import Clock
from ..errors import AtrilError, IllegalMoveError
from ..game import SINGLE, VOID, Game
from ..move import Move
from ..ruleset import Ruleset
from .. import players
from . import computer
from .lexicons import Lexicons
from .requests import (COMPUTER, LOCAL, REMOTE, ApiError, clock_settings, parse_action,
                       player_names)
from .store import Conflict, NotFound, Store
from .views import BOTH, seat_view, shared_view

ACTIONS = ("play", "exchange", "pass", "accept", "challenge")
CACHED_GAMES = 2000


@dataclass
class Changed:
    """What an action left: the new version, the stored document and the game."""

    version: int
    doc: dict
    game: Game


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Games:
    """The game service of one server process (games cached by version, so an action does not
    replay the whole game from its record)."""

    def __init__(self, store: Store, lexicons: Lexicons):
        self.store = store
        self.lexicons = lexicons
        #: game id → [version, game, the shared part of its view or None], most recent last.
        self._cache: OrderedDict[str, list] = OrderedDict()
        self._cache_lock = threading.Lock()

    # -- creating -------------------------------------------------------------------------------
    def create(self, options: dict) -> tuple[str, dict[str, str]]:
        """A new game from the lobby's options; returns its id and the seats' tokens
        (``{"0": token, "1": token}``, or ``{"both": token}`` on one device)."""
        if not isinstance(options, dict):
            raise ApiError(400, "se esperaba un objeto JSON con las opciones de la partida")
        for key in ("mode", "level", "challenge", "ruleset", "lexicon"):
            if not isinstance(options.get(key, ""), (str, type(None))):
                raise ApiError(400, f"la opción «{key}» debe ser un texto")
        mode = options.get("mode", COMPUTER)
        if mode not in (COMPUTER, REMOTE, LOCAL):
            raise ApiError(400, f"modo de partida desconocido «{mode}»: computer, remote o local")
        level = options.get("level", computer.DEFAULT_LEVEL)
        if mode == COMPUTER and level not in computer.LEVELS:
            raise ApiError(400, f"nivel desconocido «{level}»")
        challenge = options.get("challenge", SINGLE)
        if challenge not in (SINGLE, VOID):
            raise ApiError(400, "impugnación: «single» (FISE) o «void»")
        try:
            ruleset = Ruleset.get(options.get("ruleset"))
            lexicon = self.lexicons.get(str(options.get("lexicon") or ruleset.lexicon))
        except AtrilError as exc:
            raise ApiError(400, str(exc)) from None
        clock = clock_settings(options)
        names = player_names(options, mode)
        seed = options.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise ApiError(400, "la semilla debe ser un número entero")
        game = Game(names, ruleset=ruleset, seed=seed, first=None, challenge=challenge,
                    lexicon=lexicon, can_play=players.can_play(lexicon),
                    clock=Clock(**clock) if clock and mode != REMOTE else None)
        if mode == LOCAL:
            tokens = {BOTH: secrets.token_urlsafe(18)}
        else:
            tokens = {"0": secrets.token_urlsafe(18), "1": secrets.token_urlsafe(18)}
        meta: dict[str, Any] = {
            "mode": mode, "tokens": {seat: _hash(tok) for seat, tok in tokens.items()},
            "computer": {"seat": 1, "level": level} if mode == COMPUTER else None,
            "clock_waiting": clock if mode == REMOTE else None,
        }
        if mode == COMPUTER:
            tokens.pop("1")
        game_id = uuid.uuid4().hex[:12]
        self.store.create(game_id, {"meta": meta, "game": game.to_dict()})
        return game_id, tokens

    # -- reading --------------------------------------------------------------------------------
    def game(self, game_id: str, version: int, doc: dict) -> Game:
        """The game of a stored document, from the cache when it holds this version."""
        return self._entry(game_id, version, doc)[1]

    def _entry(self, game_id: str, version: int, doc: dict) -> list:
        with self._cache_lock:
            hit = self._cache.get(game_id)
            if hit is not None and hit[0] == version:
                self._cache.move_to_end(game_id)
                return hit
        data = doc["game"]
        lexicon = self.lexicons.get(data["lexicon"])
        game = Game.from_dict(data, lexicon=lexicon, can_play=players.can_play(lexicon))
        return self._put(game_id, version, game)

    def _put(self, game_id: str, version: int, game: Game) -> list:
        entry = [version, game, None]
        with self._cache_lock:
            self._cache[game_id] = entry
            self._cache.move_to_end(game_id)
            while len(self._cache) > CACHED_GAMES:
                self._cache.popitem(last=False)
        return entry

    def render(self, game_id: str, version: int, doc: dict, *, full: bool = False
               ) -> Callable[[int | str | None], dict]:
        """A function from a seat to its view of this version (the common part built once)."""
        entry = self._entry(game_id, version, doc)
        if entry[2] is None:
            entry[2] = shared_view(game_id, version, doc, entry[1])
        game, shared = entry[1], entry[2]
        return lambda seat: seat_view(shared, doc, game, seat, full=full)

    def _take(self, game_id: str, version: int, doc: dict) -> Game:
        """The game to change: out of the cache until the change is stored."""
        game = self.game(game_id, version, doc)
        with self._cache_lock:
            self._cache.pop(game_id, None)
        return game

    def _keep(self, game_id: str, changed: Changed) -> Changed:
        self._put(game_id, changed.version, changed.game)
        return changed

    @staticmethod
    def seat(doc: dict, token: object) -> int | str:
        """The seat a token speaks for (0, 1 or ``BOTH``); 403 for any other token."""
        if isinstance(token, str) and token:
            digest = _hash(token)
            for seat, stored in doc["meta"]["tokens"].items():
                if hmac.compare_digest(digest, stored):
                    return seat if seat == BOTH else int(seat)
        raise ApiError(403, "enlace no válido: esta clave no corresponde a ningún asiento "
                            "de la partida")

    # -- acting ---------------------------------------------------------------------------------
    def act(self, game_id: str, body: object) -> Changed:
        """Check and make one player action; the request body is the client's JSON."""
        if not isinstance(body, dict):
            raise ApiError(400, "se esperaba un objeto JSON")
        action = body.get("action")
        if action not in ACTIONS:
            raise ApiError(400, f"acción desconocida «{action}»: {', '.join(ACTIONS)}")
        expected = body.get("version")
        if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
            raise ApiError(400, "«version» debe ser un número entero")

        def change(doc: dict, version: int) -> Game:
            seat = self.seat(doc, body.get("t"))
            if doc["meta"].get("clock_waiting"):
                raise ApiError(409, "la partida empieza cuando el rival abra su enlace")
            game = self.game(game_id, version, doc)
            _check_turn(game, doc, seat)
            move = parse_action(game, action, body)  # before touching the game
            game = self._take(game_id, version, doc)
            if game.pending is not None and move is not None:
                game.accept()  # acting accepts the pending play (art. 38); it may end the game
            if not game.is_over():
                _apply(game, action, move)
            doc["game"] = game.to_dict()
            return game

        return self._update(game_id, expected, change)

    def join(self, game_id: str, seat: int | str) -> Changed | None:
        """The invited player opened their link: start the clocks that waited for them."""
        def change(doc: dict, version: int) -> Game | None:
            waiting = doc["meta"].get("clock_waiting")
            if not waiting:
                return None
            game = self._take(game_id, version, doc)
            game.clock = Clock(**waiting)
            game.clock.start(game.player_to_move)
            doc["meta"]["clock_waiting"] = None
            doc["game"] = game.to_dict()
            return game

        if seat != 1:
            return None
        return self._update(game_id, None, change, optional=True)

    def computer_turn(self, game_id: str) -> Changed | None:
        """One step of the computer, if it is to act: accept or challenge a pending play, or
        move. The move is chosen with no lock held and stored only if nobody acted meanwhile
        (else 409, and the caller tries again). None when the computer has nothing to do."""
        version, doc = self.store.load(game_id)
        bot = doc["meta"]["computer"]
        game = self.game(game_id, version, doc)
        if bot is None or game.is_over() or game.player_to_move != bot["seat"]:
            return None
        lexicon = self.lexicons.get(doc["game"]["lexicon"])
        pending = game.pending is not None
        if pending:
            challenge = computer.challenges(bot["level"], game, lexicon)
        else:
            move = computer.choose(bot["level"], game, lexicon)

        def change(doc: dict, version: int) -> Game:
            game = self._take(game_id, version, doc)
            if not pending:
                game.play(move)
            elif challenge:
                game.challenge()
            else:
                game.accept()
            doc["game"] = game.to_dict()
            return game

        return self._update(game_id, version, change)

    def _update(self, game_id: str, expected: int | None, change, optional: bool = False):
        result: dict[str, Game | None] = {}

        def run(doc: dict, version: int) -> None:
            game = change(doc, version)
            if game is None and optional:
                raise _Nothing
            result["game"] = game

        try:
            version, doc, _ = self.store.update(game_id, expected, run)
        except _Nothing:
            return None
        except NotFound:
            raise ApiError(404, "no existe esa partida") from None
        except Conflict as exc:
            raise ApiError(409, f"la partida ha cambiado (versión {exc.args[0]}): "
                                "recarga y vuelve a intentarlo") from None
        except (ApiError, AtrilError):
            with self._cache_lock:
                self._cache.pop(game_id, None)
            raise
        game = result["game"]
        assert game is not None
        return self._keep(game_id, Changed(version, doc, game))


class _Nothing(Exception):
    """Nothing to change: roll back quietly."""


# -- turns ------------------------------------------------------------------------------------
def _check_turn(game: Game, doc: dict, seat: int | str) -> None:
    if game.is_over():
        result = game.result
        raise ApiError(409, f"la partida ha terminado: {result.text}", result.article)
    bot = doc["meta"]["computer"]
    to_move = game.player_to_move
    if seat != BOTH and seat != to_move or (bot is not None and bot["seat"] == to_move):
        raise ApiError(409, f"no es tu turno: le toca a {game.players[to_move]}", "8")


def _apply(game: Game, action: str, move: Move | None) -> None:
    try:
        if action == "accept":
            game.accept()
        elif action == "challenge":
            game.challenge()
        else:
            assert move is not None
            game.play(move)
    except IllegalMoveError as exc:
        raise ApiError(422, str(exc), exc.article) from None
    except AtrilError as exc:
        raise ApiError(400, str(exc)) from None
