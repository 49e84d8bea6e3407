"""Duplicate rooms on the server (docs/DUPLICATE.md, "En la web"): opening a room, joining it,
the rounds, the plays handed in and the arbiter's work, every rule through ``atril.duplicate``.

A room's document (``rooms_store``) holds ``code`` (what players type to join), the
``director`` (account id and name), the ``options`` (ruleset, lexicon, rounds or None for
*bolsa completa*, seconds a round, bonuses, auto-advance seconds or None), the ``players``
(name, account id, SHA-256 of their tokens, ``hall`` for a player at the hall who writes on
paper), the ``phase`` (``lobby``, ``playing``, ``results``, ``over``), the open round's
``deadline`` (the server's clock), the arbiter's ``log``, and ``game``: the
``Duplicate.to_dict()`` of the game so far. The open round's plays are rows of their own
(``RoomStore.put_slip``); closing the round hands them to the game (``Duplicate.submit``) and
closes it (``Duplicate.close_round``).

**The deadline.** A play counts when the server *receives* it (the moment the handler reads
the message, on the server's clock) strictly before the round's deadline, and never after:
no grace. Whatever is received later is refused («fuera de tiempo») and nothing is stored.

Everything here is blocking (database, engine): ``rooms.Rooms`` runs it in the thread pool.
"""

from __future__ import annotations

import secrets
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from .. import tiles as T
from ..board import Board
from ..duplicate import ZERO_REASONS, Bonuses, Duplicate, Round, Slip, score_slip
from ..duplicate.slips import INVALID
from ..errors import AtrilError, InvalidTextError
from ..game import Game
from ..i18n import _
from ..lexicon import Lexicon
from ..ruleset import Ruleset
from .accounts import roles
from .games import new_secret, token_hash
from .lexicons import Lexicons
from .requests import ApiError, clean_name, placement_move
from .rooms_store import PLAYING, RoomRow, RoomStore
from .store import NotFound, Store, User

LOBBY, RESULTS, OVER = "lobby", "results", "over"
FORMAT, VERSION = "atril-sala", 1
#: the round's time: the regulations' 3 minutes by default; tests use a few seconds.
DEFAULT_SECONDS, MIN_SECONDS, MAX_SECONDS = 180, 3, 1800
MAX_ROUNDS = 60
MAX_PLAYERS = 500
MAX_PLAY_TEXT = 60
#: the server closes a round this long after its deadline, so that plays received before the
#: deadline by another server process (PostgreSQL) are stored first; in this process the close
#: also waits for every play received before the deadline (``rooms.Rooms``).
CLOSE_MARGIN = 0.25
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 6
CACHED_ROOMS = 200


@dataclass(frozen=True)
class Context:
    """What checking a submission needs, kept per room so a submission reads no document:
    the open round, its board and rack, the lexicon, the deadline, who is who."""

    version: int
    phase: str
    number: int
    board: Board | None
    rack: tuple[int, ...]
    lexicon: Lexicon
    deadline: float | None
    tokens: dict[str, int]
    users: dict[str, int]


@dataclass(frozen=True)
class _OnBoard:
    """The one thing ``requests.placement_move`` reads of a game: its board."""

    board: Board


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def is_director(user: User | None, doc: dict) -> bool:
    """The room's own director (an account that still has the role)."""
    return (user is not None and user.id == doc["director"]["id"]
            and "director" in roles(user))


def player_of(doc: dict, token: object, user: User | None) -> int | None:
    """The player a token (or, failing that, the session's account) speaks for."""
    if isinstance(token, str) and token:
        digest = token_hash(token)
        for p, entry in enumerate(doc["players"]):
            if digest in entry["tokens"]:
                return p
    if user is not None:
        for p, entry in enumerate(doc["players"]):
            if entry["user"] == user.id:
                return p
    return None


def row_of(doc: dict) -> RoomRow:
    """The columns the store keeps beside a document."""
    rounds = doc["game"]["rounds"]
    return RoomRow(doc["phase"], len(rounds), doc.get("deadline"), doc.get("due"))


def _int(options: dict, key: str, default: int | None, low: int, high: int,
         *, nullable: bool = False) -> int | None:
    value = options.get(key, default)
    if value is None and nullable:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ApiError(400, _("«{key}» es un número entero de {low} a {high}").format(
            key=key, low=low, high=high))
    return value


def bonuses_of(options: object) -> Bonuses:
    """The bonus rules a director chose (``Bonuses`` defaults for what is not given)."""
    if options is None:
        return Bonuses()
    if not isinstance(options, dict):
        raise ApiError(400, _("«bonuses» es un objeto: master, runner_up, cap, min_players"))
    default = Bonuses()
    return Bonuses(
        master=cast(int, _int(options, "master", default.master, 0, 100)),
        runner_up=cast(int, _int(options, "runner_up", default.runner_up, 0, 100)),
        cap=_int(options, "cap", default.cap, 0, 1000, nullable=True),
        min_players=_int(options, "min_players", default.min_players, 1, MAX_PLAYERS,
                         nullable=True))


class RoomService:
    """The rooms of one server process. Games are cached by room version, so a round's close
    does not replay the game from its seed; ``clock`` is the server's clock (injectable)."""

    def __init__(self, store: Store, lexicons: Lexicons, *, test_seeds: bool = False,
                 clock: Callable[[], float] = time.time):
        self.rooms = RoomStore(store)
        self.lexicons = lexicons
        self.test_seeds = test_seeds
        self.clock = clock
        self._games: OrderedDict[str, tuple[int, Duplicate]] = OrderedDict()
        self._contexts: dict[str, Context] = {}
        self._locks: dict[str, threading.RLock] = {}
        self._guard = threading.Lock()

    # -- opening and joining --------------------------------------------------------------------
    def create(self, options: object, user: User | None) -> tuple[str, str]:
        """A new room by a director: its id and join code."""
        if user is None or "director" not in roles(user):
            raise ApiError(403, _("solo un director puede abrir una sala de duplicada"))
        if not isinstance(options, dict):
            raise ApiError(400, _("se esperaba un objeto JSON con las opciones de la sala"))
        try:
            ruleset = Ruleset.get(options.get("ruleset"))
            lexicon = self.lexicons.get(str(options.get("lexicon") or ruleset.lexicon))
        except AtrilError as exc:
            raise ApiError(400, str(exc)) from None
        rounds = _int(options, "rounds", None, 1, MAX_ROUNDS, nullable=True)
        seconds = _int(options, "seconds", DEFAULT_SECONDS, MIN_SECONDS, MAX_SECONDS)
        auto = _int(options, "auto_advance", None, 1, 600, nullable=True)
        keep_leave = options.get("keep_leave", False)
        if not isinstance(keep_leave, bool):
            raise ApiError(400, _("«keep_leave» es true o false"))
        bonuses = bonuses_of(options.get("bonuses"))
        seed = options.get("seed")
        if seed is not None and not self.test_seeds:
            raise ApiError(400, _("la semilla de la bolsa la elige el servidor"), "7")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise ApiError(400, _("«seed» es un número entero"))
        game = Duplicate([], seed=secrets.randbits(63) if seed is None else seed,
                         lexicon=lexicon, rounds=rounds, keep_leave=keep_leave, bonuses=bonuses)
        doc = {"format": FORMAT, "version": VERSION, "code": "",
               "director": {"id": user.id, "name": user.name},
               "options": {"ruleset": ruleset.name, "lexicon": lexicon.id, "rounds": rounds,
                           "seconds": seconds, "auto_advance": auto, "keep_leave": keep_leave,
                           "bonuses": bonuses.to_dict()},
               "players": [], "phase": LOBBY, "deadline": None, "due": None, "log": [],
               "game": game.to_dict()}
        room_id = uuid.uuid4().hex[:12]
        for _attempt in range(20):
            code = new_code()
            if not self.rooms.code_taken(code):
                break
        doc["code"] = code
        self.rooms.create(room_id, code, doc, user.id, row_of(doc))
        self._put(room_id, 1, game)
        return room_id, code

    def find(self, code: object) -> str:
        """The room a join code opens."""
        if not isinstance(code, str) or not code.strip():
            raise ApiError(400, _("falta el código de la sala"))
        room_id = self.rooms.by_code(code.strip().upper())
        if room_id is None:
            raise ApiError(404, _("no hay ninguna sala con ese código"))
        return room_id

    def join(self, room_id: str, name: object, user: User | None, *, hall: bool = False
             ) -> tuple[int, int, dict, str | None]:
        """A new player (or an account already in: a new token for it): (new version, the
        player's number, the document, the token; None for a hall player, who has none)."""
        token = None if hall else new_secret()

        def change(doc: dict, game: Duplicate) -> int:
            if doc["phase"] == OVER:
                raise ApiError(409, _("la partida de esta sala ya ha terminado"))
            if user is not None and not hall:
                for p, entry in enumerate(doc["players"]):
                    if entry["user"] == user.id:
                        entry["tokens"] = entry["tokens"][-4:] + [token_hash(cast(str, token))]
                        return p
            if len(doc["players"]) >= MAX_PLAYERS:
                raise ApiError(409, _("la sala está llena ({most} jugadores)").format(
                    most=MAX_PLAYERS))
            given = name if isinstance(name, str) else ""
            shown = user.name if user is not None and not hall else clean_name(given)
            if not shown:
                shown = _("Jugador {n}").format(n=len(doc["players"]) + 1)
            taken = {entry["name"] for entry in doc["players"]}
            base, n = shown, 2
            while shown in taken:
                shown, n = f"{base} ({n})", n + 1
            doc["players"].append({
                "name": shown, "user": None if user is None or hall else user.id,
                "tokens": [] if token is None else [token_hash(token)], "hall": hall,
                "joined": len(game.rounds)})
            # a player who joins late has nothing handed in for the rounds already played
            data = game.to_dict()
            data["players"].append(shown)
            for rnd in data["rounds"]:
                rnd["slips"].append({"player": shown, "text": None, "late": False})
            doc["game"] = Duplicate.from_dict(data, lexicon=game.lexicon).to_dict()
            return len(doc["players"]) - 1

        version, doc, player = self.change(room_id, change, rebuild=True)
        return version, player, doc, token

    # -- the game object, cached by version -----------------------------------------------------
    def lock(self, room_id: str) -> threading.RLock:
        with self._guard:
            return self._locks.setdefault(room_id, threading.RLock())

    def load(self, room_id: str) -> tuple[int, dict]:
        try:
            return self.rooms.load(room_id)
        except NotFound:
            raise ApiError(404, _("no existe esa sala")) from None

    def game(self, room_id: str, version: int, doc: dict) -> Duplicate:
        """The room's game at ``version`` (read it only under ``lock(room_id)``)."""
        with self._guard:
            cached = self._games.get(room_id)
            if cached is not None and cached[0] == version:
                self._games.move_to_end(room_id)
                return cached[1]
        game = Duplicate.from_dict(doc["game"], lexicon=self.lexicons.get(doc["game"]["lexicon"]))
        self._put(room_id, version, game)
        return game

    def _put(self, room_id: str, version: int, game: Duplicate) -> None:
        with self._guard:
            self._games[room_id] = (version, game)
            self._games.move_to_end(room_id)
            while len(self._games) > CACHED_ROOMS:
                self._games.popitem(last=False)

    def change(self, room_id: str, change: Callable[[dict, Duplicate], Any], *,
               rebuild: bool = False) -> tuple[int, dict, Any]:
        """``change(doc, game)`` under the room's row lock, the game stored back into the
        document (unless ``rebuild``: the change wrote ``doc["game"]`` itself)."""
        with self.lock(room_id):
            holder: list[Duplicate] = []

            def apply(doc: dict, version: int) -> tuple[Any, RoomRow]:
                with self._guard:
                    cached = self._games.pop(room_id, None)  # it is about to change
                game = (cached[1] if cached is not None and cached[0] == version else
                        Duplicate.from_dict(doc["game"],
                                            lexicon=self.lexicons.get(doc["game"]["lexicon"])))
                result = change(doc, game)
                if not rebuild:
                    doc["game"] = game.to_dict()
                    holder.append(game)
                return result, row_of(doc)

            try:
                version, doc, result = self.rooms.update(room_id, None, apply)
            except NotFound:
                raise ApiError(404, _("no existe esa sala")) from None
            if holder:
                self._put(room_id, version, holder[0])
            self._contexts.pop(room_id, None)
            return version, doc, result

    # -- the rounds -----------------------------------------------------------------------------
    def next_round(self, room_id: str, *, expect: str | None = None) -> tuple[int, dict]:
        """Start the next round (the first from the lobby), or end the game when the bag can
        make no rack (``expect``: only from that phase, for the automatic advance)."""
        def change(doc: dict, game: Duplicate) -> None:
            if expect is not None and doc["phase"] != expect:
                raise Nothing
            if doc["phase"] == PLAYING:
                raise ApiError(409, _("la ronda {round} sigue abierta").format(
                    round=len(game.rounds)))
            if doc["phase"] == OVER:
                raise ApiError(409, _("la partida de esta sala ya ha terminado"))
            if not doc["players"]:
                raise ApiError(409, _("todavía no hay ningún jugador en la sala"))
            now = self.clock()
            if game.is_over() or game.start_round() is None:
                doc.update(phase=OVER, deadline=None, due=None)
                return
            deadline = now + doc["options"]["seconds"]
            doc.update(phase=PLAYING, opened=now, deadline=deadline,
                       due=deadline + CLOSE_MARGIN)

        version, doc, _r = self.change(room_id, change)
        return version, doc

    def close_now(self, room_id: str) -> tuple[int, dict]:
        """The director ends the open round's time now: the deadline becomes this moment."""
        def change(doc: dict, game: Duplicate) -> None:
            if doc["phase"] != PLAYING:
                raise ApiError(409, _("no hay ninguna ronda abierta"))
            now = self.clock()
            if doc["deadline"] > now:
                doc.update(deadline=now, due=now + CLOSE_MARGIN)
                doc["log"].append({"at": now, "round": len(game.rounds), "action": "close"})

        version, doc, _r = self.change(room_id, change)
        return version, doc

    def close(self, room_id: str, number: int) -> tuple[int, dict] | None:
        """Close round ``number`` once its time is up: its plays handed to the game (those
        stored were all received before the deadline), the round closed, the master placed.
        None when it is not open (already closed) or its time is not up yet."""
        def change(doc: dict, game: Duplicate) -> None:
            rnd = game.current
            if doc["phase"] != PLAYING or rnd is None or rnd.number != number \
                    or self.clock() < doc["deadline"]:
                raise Nothing
            for p, (text, _received) in self.rooms.slips(room_id, number).items():
                if 0 <= p < len(game.players):
                    game.submit(p, text)
            game.close_round()
            now = self.clock()
            auto = doc["options"]["auto_advance"]
            if game.is_over():
                doc.update(phase=OVER, due=None)
            else:
                doc.update(phase=RESULTS, due=None if auto is None else now + auto)
            doc["closed_at"] = now

        try:
            version, doc, _r = self.change(room_id, change)
        except Nothing:
            return None
        return version, doc

    def due(self) -> list[str]:
        return self.rooms.due(self.clock())

    # -- the arbiter ----------------------------------------------------------------------------
    def override(self, room_id: str, move: object) -> tuple[int, dict]:
        if not isinstance(move, str) or not move.strip():
            raise ApiError(400, _("falta la jugada: {move}").format(move='"move": "H8 CASA"'))

        def change(doc: dict, game: Duplicate) -> None:
            if doc["phase"] != PLAYING:
                raise ApiError(409, _("el árbitro elige la jugada maestra mientras la ronda "
                                      "está abierta"))
            try:
                played = game.override(move.strip())
            except InvalidTextError as exc:
                raise ApiError(400, str(exc)) from None
            doc["log"].append({"at": self.clock(), "round": len(game.rounds),
                               "action": "override", "text": str(played.move)})

        version, doc, _r = self.change(room_id, change)
        return version, doc

    def arbiter_slip(self, room_id: str, number: object, player: object, text: object,
                     late: object) -> tuple[int, dict]:
        """The arbiter enters a paper slip or corrects one: in the open round it is stored as
        the player's play (the slip was handed in on time); in a closed round the slip is
        read and scored again (``Duplicate.correct``) and the standings follow."""
        if not isinstance(number, int) or not isinstance(player, int) \
                or isinstance(player, bool) or isinstance(number, bool):
            raise ApiError(400, _("«round» y «player» son números"))
        if text is not None and (not isinstance(text, str) or len(text) > MAX_PLAY_TEXT):
            raise ApiError(400, _("la jugada es un texto de hasta {most} caracteres").format(
                most=MAX_PLAY_TEXT))
        clean = text.strip() if isinstance(text, str) and text.strip() else None

        def change(doc: dict, game: Duplicate) -> None:
            if not 0 <= player < len(game.players):
                raise ApiError(404, _("no hay jugador número {player}").format(player=player))
            rnd = game.current
            now = self.clock()
            if rnd is not None and rnd.number == number:
                if not self.rooms.put_slip(room_id, number, player, clean, now,
                                           check_deadline=False):
                    raise ApiError(409, _("la ronda {round} ya no está abierta").format(
                        round=number))
                action = "entry"
            else:
                try:
                    game.correct(number, player, clean, late=bool(late))
                except AtrilError as exc:
                    raise ApiError(409, str(exc)) from None
                action = "correction"
            doc["log"].append({"at": now, "round": number, "action": action, "player": player,
                               "text": clean, "late": bool(late)})

        version, doc, _r = self.change(room_id, change)
        return version, doc

    def stop(self, room_id: str) -> tuple[int, dict]:
        def change(doc: dict, game: Duplicate) -> None:
            if doc["phase"] == OVER:
                raise ApiError(409, _("la partida de esta sala ya ha terminado"))
            game.stop()
            doc.update(phase=OVER, deadline=None, due=None)
            doc["log"].append({"at": self.clock(), "round": len(game.rounds), "action": "stop"})

        version, doc, _r = self.change(room_id, change)
        return version, doc

    # -- the plays handed in --------------------------------------------------------------------
    def context(self, room_id: str, *, fresh: bool = False) -> Context:
        """What checking a submission needs (read again after any change in this process)."""
        ctx = None if fresh else self._contexts.get(room_id)
        if ctx is not None:
            return ctx
        with self.lock(room_id):
            version, doc = self.load(room_id)
            game = self.game(room_id, version, doc)
            rnd = game.current
            tokens = {h: p for p, entry in enumerate(doc["players"]) for h in entry["tokens"]}
            users = {entry["user"]: p for p, entry in enumerate(doc["players"]) if entry["user"]}
            ctx = Context(version, doc["phase"], len(game.rounds),
                          None if rnd is None else rnd.board, () if rnd is None else rnd.rack,
                          game.lexicon, doc.get("deadline"), tokens, users)
            self._contexts[room_id] = ctx
            return ctx

    def submit(self, room_id: str, token: object, user: User | None, body: dict,
               received: float) -> dict:
        """A player's play for the open round, ``received`` at that moment: checked against
        the deadline first, then read and stored (replacing the player's earlier play), and
        acknowledged with what it would score if its words are valid (``check``)."""
        ctx = self.context(room_id)
        player = self._who(ctx, token, user)
        if player is None:
            ctx = self.context(room_id, fresh=True)  # a player who joined since
            player = self._who(ctx, token, user)
        if player is None:
            raise ApiError(403, _("no eres jugador de esta sala"))
        if ctx.phase != PLAYING or ctx.deadline is None or ctx.board is None:
            raise _late(ctx.number, ctx.phase)
        if received >= ctx.deadline:
            raise _late(ctx.number, ctx.phase)
        number = body.get("round")
        if number is not None and number != ctx.number:
            raise _late(number, RESULTS)
        text = self._text(ctx, body)
        if not self.rooms.put_slip(room_id, ctx.number, player, text, received):
            raise _late(ctx.number, RESULTS)
        return {"round": ctx.number, "received": received,
                "remaining": round(ctx.deadline - received, 3), **check(ctx, text)}

    @staticmethod
    def _who(ctx: Context, token: object, user: User | None) -> int | None:
        if isinstance(token, str) and token:
            found = ctx.tokens.get(token_hash(token))
            if found is not None:
                return found
        return None if user is None else ctx.users.get(user.id)

    @staticmethod
    def _text(ctx: Context, body: dict) -> str | None:
        """The play as text: ``move`` as typed, or tiles ``placed`` on squares (written in
        notation on the round's board)."""
        if "placed" in body and body["placed"] is not None:
            assert ctx.board is not None
            move = placement_move(cast(Game, _OnBoard(ctx.board)), body["placed"])
            return move.notation(ctx.board)
        text = body.get("move")
        if text is None:
            return None
        if not isinstance(text, str) or len(text) > MAX_PLAY_TEXT:
            raise ApiError(400, _("la jugada es un texto de hasta {most} caracteres").format(
                most=MAX_PLAY_TEXT))
        return text.strip() or None


class Nothing(Exception):
    """Nothing to do (the round was closed already, or is not due yet)."""


def _late(number: int, phase: str) -> ApiError:
    if phase == LOBBY:
        return ApiError(409, _("la partida todavía no ha empezado"))
    return ApiError(409, _("fuera de tiempo: la ronda {round} ya ha terminado y la jugada no "
                           "cuenta").format(round=number))


def check(ctx: Context, text: str | None) -> dict:
    """What a play would score on the round's board (``score_slip``), told to the player on
    receipt: the score its placement makes, or why it scores 0 — but never whether its words
    are in the lexicon, which is known only when the round closes (no word judge during the
    round)."""
    assert ctx.board is not None
    scored = score_slip(ctx.board, ctx.rack, ctx.lexicon, Slip(text))
    reason = scored.reason
    score = scored.score
    if reason == INVALID and scored.play is not None and not scored.detail:
        reason, score = None, scored.play.score  # only its words are at fault: not told now
    notation = scored.play.move.notation(ctx.board) if scored.play is not None else None
    return {"text": text, "notation": notation, "score": score, "reason": reason,
            "reason_text": None if reason is None else _(ZERO_REASONS[reason]),
            "detail": scored.detail if reason is not None else ""}


def rack_shown(rnd: Round | None) -> list[str]:
    return [] if rnd is None else [T.tile_to_human(t) for t in rnd.rack]

