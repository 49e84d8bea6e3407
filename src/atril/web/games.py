"""Games on the server: creating them, seats and invitations, and every action, checked and
stored.

A stored document is ``{"meta": {...}, "game": Game.to_dict()}``. ``meta`` holds the mode
(``computer``, ``remote``, ``local``), the SHA-256 of each seat's secret token, the SHA-256 of
the invitation code of a remote game and whether it was used, the computer's seat and level,
the clock settings of a game whose clock waits for the invited player, and the stretches of
server downtime that no clock counted. Each action runs inside ``Store.update``: read, check,
apply, write, in one transaction.

Who may do what: a seat's token acts for that seat and sees its rack; the invitation code is
exchanged once for the invitee's token; anyone else (no token) is a spectator who sees the
board, the scores and the planilla. The bag is seeded here from ``secrets``; the seed leaves
the server only once the game is over (a client-chosen seed is accepted only when the operator
started the server with test seeds switched on).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import players
from ..clock import Clock
from ..errors import AtrilError, IllegalMoveError
from ..game import SINGLE, VOID, Game
from ..i18n import _, current
from ..referee import Referee, can_play
from ..ruleset import Ruleset
from . import computer
from .lexicons import Lexicons
from .requests import COMPUTER, LOCAL, REMOTE, ApiError, clock_settings, parse_action, player_names
from .store import Conflict, Index, NotFound, Store
from .views import BOTH, invite_open, seat_view, shared_view

ACTIONS = ("play", "exchange", "pass", "accept", "challenge")
CACHED_GAMES = 2000
#: seconds a process has to make the computer's move before another may try (the computer's
#: turn is also ``due`` at once after a restart).
COMPUTER_LEASE = 60.0
#: a clock deadline is looked at this long after it passes (the clock must be over by then).
DEADLINE_SLACK = 0.05

Seat = int | str | None  # 0, 1, BOTH (one device), None (a spectator)


@dataclass
class Changed:
    """What an action left: the new version, the stored document and the game; ``refusal``
    is the error to answer after storing (the game ended on time as the player acted)."""

    version: int
    doc: dict
    game: Game
    refusal: ApiError | None = None


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _new_secret() -> str:
    return secrets.token_urlsafe(18)  # 144 bits


class Games:
    """The game service of one server process (games cached by version, so an action does not
    replay the whole game from its record). ``test_seeds`` lets clients choose the bag's seed:
    for tests only, never on a server people play on."""

    def __init__(self, store: Store, lexicons: Lexicons, *, test_seeds: bool = False):
        self.store = store
        self.lexicons = lexicons
        self.test_seeds = test_seeds
        #: game id → [version, game, the shared part of its view by language], most recent
        #: last.
        self._cache: OrderedDict[str, list] = OrderedDict()
        self._cache_lock = threading.Lock()

    # -- creating -------------------------------------------------------------------------------
    def create(self, options: dict) -> tuple[str, str, str | None]:
        """A new game from the lobby's options: its id, the creator's token (both seats' on one
        device) and, for a game against a person, the invitation code for the other seat."""
        if not isinstance(options, dict):
            raise ApiError(400, _("se esperaba un objeto JSON con las opciones de la partida"))
        for key in ("mode", "level", "challenge", "ruleset", "lexicon"):
            if not isinstance(options.get(key, ""), (str, type(None))):
                raise ApiError(400, _("la opción «{key}» debe ser un texto").format(key=key))
        mode = options.get("mode", COMPUTER)
        if mode not in (COMPUTER, REMOTE, LOCAL):
            raise ApiError(400, _("modo de partida desconocido «{mode}»: computer, remote o "
                                  "local").format(mode=mode))
        level = options.get("level", computer.DEFAULT_LEVEL)
        if mode == COMPUTER and level not in players.LEVELS:
            raise ApiError(400, _("nivel desconocido «{level}»").format(level=level))
        challenge = options.get("challenge", SINGLE)
        if challenge not in (SINGLE, VOID):
            raise ApiError(400, _("impugnación: «single» (FISE) o «void»"))
        try:
            ruleset = Ruleset.get(options.get("ruleset"))
            lexicon = self.lexicons.get(str(options.get("lexicon") or ruleset.lexicon))
        except AtrilError as exc:
            raise ApiError(400, str(exc)) from None
        clock = clock_settings(options)
        names = player_names(options, mode)
        game = Game(names, ruleset=ruleset, seed=self._seed(options), first=None,
                    challenge=challenge, lexicon=lexicon, can_play=can_play(lexicon),
                    clock=Clock(**clock) if clock and mode != REMOTE else None)
        token = _new_secret()
        invite = _new_secret() if mode == REMOTE else None
        meta: dict[str, Any] = {
            "mode": mode, "tokens": {BOTH if mode == LOCAL else "0": _hash(token)},
            "invite": None if invite is None else {"hash": _hash(invite), "used": False},
            "computer": {"seat": 1, "level": level} if mode == COMPUTER else None,
            "clock_waiting": clock if mode == REMOTE else None,
            "downtime": [],
        }
        game_id = uuid.uuid4().hex[:12]
        doc = {"meta": meta, "game": game.to_dict()}
        self.store.create(game_id, doc, index(doc, game))
        return game_id, token, invite

    def _seed(self, options: dict) -> int:
        """The bag's seed: the server's secret; a client's only under test seeds (art. 7: the
        tiles are drawn at random, and nobody may know the draws in advance)."""
        seed = options.get("seed")
        if seed is None:
            return secrets.randbits(63)
        if not self.test_seeds:
            raise ApiError(400, _("la bolsa la baraja el servidor: no se admite «seed» (solo en "
                                  "un servidor de pruebas, atril serve --test-seeds)"), "7")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ApiError(400, _("la semilla debe ser un número entero"))
        return seed

    def claim(self, game_id: str, code: object) -> str:
        """The invitee's page exchanges the invitation code for the second seat's token, once;
        the clocks that waited for them start now."""
        if not isinstance(code, str) or not code:
            raise ApiError(400, _("falta la invitación: {example}").format(
                example='{"invite": "…"}'))
        token = _new_secret()

        def change(doc: dict, version: int) -> Game:
            meta = doc["meta"]
            invite = meta.get("invite")
            if invite is None or not hmac.compare_digest(_hash(code), invite["hash"]):
                raise ApiError(403, _("esta invitación no es de esta partida"))
            if invite["used"]:
                raise ApiError(409, _("esta invitación ya se ha usado"))
            invite["used"] = True
            meta["tokens"]["1"] = _hash(token)
            game = self._take(game_id, version, doc)
            waiting = meta.get("clock_waiting")
            if waiting:
                game.clock = Clock(**waiting)
                game.clock.start(game.player_to_move)
                meta["clock_waiting"] = None
                doc["game"] = game.to_dict()
            return game

        self._update(game_id, None, change)
        return token

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
        game = Game.from_dict(data, lexicon=lexicon, can_play=can_play(lexicon))
        return self._put(game_id, version, game)

    def _put(self, game_id: str, version: int, game: Game) -> list:
        entry: list = [version, game, {}]
        with self._cache_lock:
            self._cache[game_id] = entry
            self._cache.move_to_end(game_id)
            while len(self._cache) > CACHED_GAMES:
                self._cache.popitem(last=False)
        return entry

    def render(self, game_id: str, version: int, doc: dict, *, full: bool = False
               ) -> Callable[[Seat], dict]:
        """A function from a seat to its view of this version (the common part built once per
        language: it holds texts, the planilla's and the result's)."""
        entry = self._entry(game_id, version, doc)
        lang = current()
        if lang not in entry[2]:
            entry[2][lang] = shared_view(game_id, version, doc, entry[1])
        game, shared = entry[1], entry[2][lang]
        return lambda seat: seat_view(shared, doc, game, seat, full=full)

    def _take(self, game_id: str, version: int, doc: dict) -> Game:
        """The game to change: out of the cache until the change is stored."""
        game = self.game(game_id, version, doc)
        with self._cache_lock:
            self._cache.pop(game_id, None)
        return game

    @staticmethod
    def seat(doc: dict, token: object) -> Seat:
        """The seat a token speaks for (0, 1 or ``BOTH``); None (a spectator) without a token;
        403 for a token of no seat."""
        if token is None or token == "":
            return None
        if isinstance(token, str):
            digest = _hash(token)
            for seat, stored in doc["meta"]["tokens"].items():
                if hmac.compare_digest(digest, stored):
                    return seat if seat == BOTH else int(seat)
        raise ApiError(403, _("enlace no válido: esta clave no corresponde a ningún asiento "
                              "de la partida"))

    # -- acting ---------------------------------------------------------------------------------
    def act(self, game_id: str, body: object) -> Changed:
        """Check and make one player action; the request body is the client's JSON. If the
        player's time had already run out (art. 35, 45.5) the ending is stored and the answer
        is that refusal (``Changed.refusal``)."""
        if not isinstance(body, dict):
            raise ApiError(400, _("se esperaba un objeto JSON"))
        action = body.get("action")
        if action not in ACTIONS:
            raise ApiError(400, _("acción desconocida «{action}»: {known}").format(
                action=action, known=", ".join(ACTIONS)))
        expected = body.get("version")
        if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
            raise ApiError(400, _("«version» debe ser un número entero"))
        refusal: list[ApiError] = []

        def change(doc: dict, version: int) -> Game:
            seat = self.seat(doc, body.get("t"))
            if seat is None:
                raise ApiError(403, _("quien mira la partida no puede jugar: falta la clave "
                                      "del asiento"))
            if invite_open(doc["meta"]):
                raise ApiError(409, _("la partida empieza cuando el rival abra su enlace"))
            game = self.game(game_id, version, doc)
            with game.ruleset.in_force():  # refusals cite the game's own articles
                game = self._act(game_id, version, doc, game, seat, action, body, refusal)
            doc["game"] = game.to_dict()
            return game

        changed = self._update(game_id, expected, change)
        changed.refusal = refusal[0] if refusal else None
        return changed

    def _act(self, game_id: str, version: int, doc: dict, game: Game, seat: int | str,
             action: str, body: dict, refusal: list[ApiError]) -> Game:
        """The action on the game it was read as; an ending on time is stored and refused."""
        if not game.is_over() and _time_is_up(game):
            game = self._take(game_id, version, doc)
            game.check_time()
            refusal.append(_over(game))
            return game
        _check_turn(game, doc, seat)
        act = parse_action(game, action, body)  # before touching the game
        game = self._take(game_id, version, doc)
        try:
            Referee(game).act(act)
        except IllegalMoveError as exc:
            if not game.is_over():
                raise ApiError(422, str(exc), exc.article) from None
            refusal.append(_over(game))  # time ran out as the player acted
        except AtrilError as exc:
            raise ApiError(400, str(exc)) from None
        return game

    def expire(self, game_id: str) -> Changed | None:
        """End the game if its time is up (art. 35 overtime loss, art. 45.5), asked by nobody:
        the server's own clock watch. None when the game goes on."""
        def change(doc: dict, version: int) -> Game | None:
            game = self.game(game_id, version, doc)
            if game.is_over() or not _time_is_up(game):
                return None
            game = self._take(game_id, version, doc)
            game.check_time()
            doc["game"] = game.to_dict()
            return game

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
        seats: list = [None, None]
        seats[bot["seat"]] = computer.engine(bot["level"], game,
                                             self.lexicons.get(doc["game"]["lexicon"]))
        act = Referee(game, seats).ask()

        def change(doc: dict, version: int) -> Game:
            game = self._take(game_id, version, doc)
            Referee(game).act(act)
            doc["game"] = game.to_dict()
            return game

        return self._update(game_id, version, change)

    def refresh_due(self, game_id: str) -> None:
        """Write the game's ``due`` moment again from its current state (after a wake-up that
        changed nothing)."""
        try:
            version, doc = self.store.load(game_id)
        except NotFound:
            return
        self.store.set_due(game_id, version, index(doc, self.game(game_id, version, doc)).due)

    def credit_downtime(self, began: float, ended: float) -> list[tuple[str, Changed]]:
        """The server was down from ``began`` to ``ended``: no clock counts that time (it is
        recorded in the game and shown on the planilla)."""
        out = []
        for game_id in self.store.unfinished():
            change = functools.partial(self._credit, game_id, began, ended)

            try:
                changed = self._update(game_id, None, change, optional=True)
            except ApiError:
                continue  # a game that cannot be read is left as it is
            if changed is not None:
                out.append((game_id, changed))
        return out

    def _credit(self, game_id: str, began: float, ended: float, doc: dict,
                version: int) -> Game | None:
        game = self.game(game_id, version, doc)
        if game.clock is None or game.is_over():
            return None
        game = self._take(game_id, version, doc)
        assert game.clock is not None
        game.clock.credit(ended - began)
        doc["game"] = game.to_dict()
        doc["meta"].setdefault("downtime", []).append([began, ended])
        return game

    def _update(self, game_id: str, expected: int | None, change,
                optional: bool = False) -> Any:
        result: dict[str, Game | None] = {}

        def run(doc: dict, version: int) -> tuple[None, Index]:
            game = change(doc, version)
            if game is None and optional:
                raise _Nothing
            assert game is not None
            result["game"] = game
            return None, index(doc, game)

        try:
            version, doc, _index = self.store.update(game_id, expected, run)
        except _Nothing:
            return None
        except NotFound:
            raise ApiError(404, _("no existe esa partida")) from None
        except Conflict as exc:
            raise ApiError(409, _("la partida ha cambiado (versión {version}): recarga y vuelve "
                                  "a intentarlo").format(version=exc.args[0])) from None
        except (ApiError, AtrilError):
            with self._cache_lock:
                self._cache.pop(game_id, None)
            raise
        game = result["game"]
        assert game is not None
        self._put(game_id, version, game)
        return Changed(version, doc, game)


class _Nothing(Exception):
    """Nothing to change: roll back quietly."""


# -- what the server must watch ----------------------------------------------------------------
def index(doc: dict, game: Game) -> Index:
    """The columns stored beside a game: finished, its lexicon, and when the server must look at
    it unasked — at once if the computer is to act, else at the next clock deadline."""
    return Index(game.is_over(), _due(doc, game), doc["game"]["lexicon"])


def _due(doc: dict, game: Game) -> float | None:
    if game.is_over():
        return None
    now = time.time()
    bot = doc["meta"]["computer"]
    if bot is not None and game.player_to_move == bot["seat"]:
        return now + COMPUTER_LEASE
    clock = game.clock
    if clock is None:
        return None
    moments = []
    limit = game.ruleset.overtime_limit
    if limit is not None and clock.minutes is not None and clock.running is not None:
        left = clock.remaining(clock.running)
        assert left is not None
        moments.append(now + left + limit * 60)  # art. 35 (FILE 2024): the loss on time
    if clock.game_minutes is not None and not clock.game_time_up():
        moments.append(now + clock.game_minutes * 60 - clock.game_elapsed())  # art. 45.5
    return min(moments) + DEADLINE_SLACK if moments else None


def _time_is_up(game: Game) -> bool:
    """Whether ``check_time`` would end the game now (without changing it)."""
    clock = game.clock
    if clock is None:
        return False
    limit = game.ruleset.overtime_limit
    if limit is not None and clock.running is not None \
            and clock.overtime_seconds(clock.running) > limit * 60:
        return True
    return game.pending is None and clock.game_time_up() and game.player_to_move == game.first


def _over(game: Game) -> ApiError:
    result = game.result
    assert result is not None
    return ApiError(409, _("la partida ha terminado: {text}").format(text=result.text),
                    result.article)


# -- turns ------------------------------------------------------------------------------------
def _check_turn(game: Game, doc: dict, seat: int | str) -> None:
    if game.is_over():
        raise _over(game)
    bot = doc["meta"]["computer"]
    to_move = game.player_to_move
    if seat != BOTH and seat != to_move or (bot is not None and bot["seat"] == to_move):
        raise ApiError(409, _("no es tu turno: le toca a {name}").format(
            name=game.players[to_move]), "8")
