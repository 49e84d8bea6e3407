"""Games on the server: creating them, seats and invitations, and every action, checked and
stored.

A stored document is ``{"meta": {...}, "game": Game.to_dict()}``. ``meta`` holds the mode
(``computer``, ``remote``, ``local``), the SHA-256 of each seat's secret token, the SHA-256 of
the invitation code of a remote game, whether it was used and the account it is kept for (a
rematch), the computer's seat and level, the clock settings of a game whose clock waits for the
invited player, the stretches of server downtime that no clock counted, the accounts in the
seats (``accounts``: seat → id, name, rating when seated), whether the game is ``rated`` and,
once it is over, the ``ratings`` it gave, and the ``rematch`` asked for (the new game, who
asked, and the link that claims its other seat). Each action runs inside ``Store.update``:
read, check, apply, write, in one transaction; the ratings of a rated game change in the
transaction that stores its ending, whatever ended it (a move, a resignation, the server's
clock watch), once.

Who may do what: a seat's token acts for that seat and sees its rack, and so does the session
of the account in that seat; the invitation code is exchanged once for the invitee's token;
anyone else is a spectator who sees the board, the scores and the planilla. The bag is seeded
here from ``secrets``; the seed leaves the server only once the game is over (a client-chosen
seed is accepted only when the operator started the server with test seeds switched on).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import secrets
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .. import players, rating
from ..clock import Clock
from ..errors import AtrilError, IllegalMoveError
from ..game import SINGLE, VOID, Game
from ..i18n import _, current
from ..lexicon import Lexicon
from ..referee import Referee, can_play
from ..ruleset import Ruleset
from . import computer
from .lexicons import Lexicons
from .requests import COMPUTER, LOCAL, REMOTE, ApiError, clock_settings, parse_action, player_names
from .store import Conflict, Index, NotFound, Store, User
from .views import BOTH, invite_open, seat_view, shared_view

log = logging.getLogger("atril.web")

ACTIONS = ("play", "exchange", "pass", "accept", "challenge", "resign")
#: an action that deletes the game instead of changing it (before the first move).
ABORT = "abort"
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


@dataclass(frozen=True)
class Setup:
    """A new game as asked for, checked: what ``Games.start`` makes."""

    mode: str
    names: list[str]
    ruleset: Ruleset
    lexicon: Lexicon
    challenge: str
    clock: dict | None
    level: str
    rated: bool


def token_hash(token: str) -> str:
    """What the store keeps of a secret (a seat's token, an invitation, a seek's key)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_secret() -> str:
    return secrets.token_urlsafe(18)  # 144 bits


def seated(user: User) -> dict:
    """An account as a seat's ``meta`` keeps it."""
    return {"id": user.id, "name": user.name, "rating": user.rating}


def with_name(names: list[str], seat: int, name: str) -> list[str]:
    """``names`` with ``name`` in ``seat``, the other marked if it is the same."""
    out = list(names)
    out[seat] = name
    if out[1 - seat] == name:
        out[1 - seat] += " (2)"
    return out


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
        #: called as ``hook(game_id, doc, game)`` when a game ends, inside the transaction that
        #: stores the ending (a tournament posts the result: ``web/tournaments.py``).
        self.ended: list[Callable[[str, dict, Game], None]] = []

    # -- creating -------------------------------------------------------------------------------
    def create(self, options: dict, user: User | None = None) -> tuple[str, str, str | None]:
        """A new game from the lobby's options: its id, the creator's token (both seats' on one
        device) and, for a game against a person, the invitation code for the other seat. The
        account of a creator who is logged in takes seat 0 (not on one device)."""
        setup = self.setup(options)
        if setup.rated and (setup.mode != REMOTE or user is None):
            raise ApiError(400, _("una partida puntuable es entre dos cuentas: elige jugar "
                                  "contra una persona con la sesión iniciada"))
        accounts = {}
        if user is not None and setup.mode != LOCAL:
            accounts["0"] = seated(user)
            setup = replace(setup, names=with_name(setup.names, 0, user.name))
        token = new_secret()
        invite = new_secret() if setup.mode == REMOTE else None
        game_id = self.start(setup, first=None, seed=self._seed(options),
                             tokens={BOTH if setup.mode == LOCAL else "0": token_hash(token)},
                             invite=None if invite is None else token_hash(invite),
                             accounts=accounts)
        return game_id, token, invite

    def setup(self, options: object) -> Setup:
        """The lobby's options, checked."""
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
        rated = options.get("rated", False)
        if not isinstance(rated, bool):
            raise ApiError(400, _("«rated» es true (partida puntuable) o false"))
        try:
            ruleset = Ruleset.get(options.get("ruleset"))
            lexicon = self.lexicons.get(str(options.get("lexicon") or ruleset.lexicon))
        except AtrilError as exc:
            raise ApiError(400, str(exc)) from None
        if rated and ruleset.casual:
            raise ApiError(400, _("una partida con el reglamento libre no es puntuable: elige un "
                                  "reglamento de FISE o FILE"))
        return Setup(mode, player_names(options, mode), ruleset, lexicon, challenge,
                     clock_settings(options), level, rated)

    def start(self, setup: Setup, *, first: int | None, seed: int,
              tokens: dict[str, str], invite: str | None, accounts: dict[str, dict],
              kept_for: str | None = None, tournament: dict | None = None) -> str:
        """Store a new game: ``tokens`` are the seats' token hashes, ``invite`` the hash of
        the invitation code of the seat left (its clock waits for it), ``kept_for`` the
        account that alone may claim it. Its id."""
        game = Game(setup.names, ruleset=setup.ruleset, seed=seed, first=first,
                    challenge=setup.challenge, lexicon=setup.lexicon,
                    can_play=can_play(setup.lexicon),
                    clock=Clock(**setup.clock) if setup.clock and invite is None else None)
        meta: dict[str, Any] = {
            "mode": setup.mode, "tokens": tokens,
            "invite": None if invite is None else {"hash": invite, "used": False,
                                                   "account": kept_for},
            "computer": ({"seat": 1, "level": setup.level} if setup.mode == COMPUTER
                         else None),
            "clock_waiting": setup.clock if invite is not None else None,
            "downtime": [],
            "accounts": accounts,
            "rated": setup.rated,
        }
        if tournament is not None:  # the tournament game it is (web/tournaments.py)
            meta["tournament"] = tournament
        game_id = uuid.uuid4().hex[:12]
        doc = {"meta": meta, "game": game.to_dict()}
        self.store.create(game_id, doc, index(doc, game))
        return game_id

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

    def claim(self, game_id: str, code: object, user: User | None = None) -> str:
        """The invitee's page exchanges the invitation code for the second seat's token, once;
        the clocks that waited for them start now. A logged-in invitee's account takes the
        seat; a rated game's seat, or one kept for an account, needs that."""
        if not isinstance(code, str) or not code:
            raise ApiError(400, _("falta la invitación: {example}").format(
                example='{"invite": "…"}'))
        token = new_secret()

        def change(doc: dict, version: int) -> Game:
            meta = doc["meta"]
            invite = meta.get("invite")
            if invite is None or not hmac.compare_digest(token_hash(code), invite["hash"]):
                raise ApiError(403, _("esta invitación no es de esta partida"))
            if invite["used"]:
                raise ApiError(409, _("esta invitación ya se ha usado"))
            accounts = meta.setdefault("accounts", {})
            creator = accounts.get("0", {}).get("id")
            kept_for = invite.get("account")
            if kept_for is not None and (user is None or user.id != kept_for):
                raise ApiError(403, _("esta revancha es para otra cuenta: inicia sesión con "
                                      "la tuya"))
            if meta.get("rated") and (user is None or user.id == creator):
                raise ApiError(403, _("inicia sesión para jugar una partida puntuable"))
            invite["used"] = True
            meta["tokens"]["1"] = token_hash(token)
            game = self._take(game_id, version, doc)
            if user is not None and user.id != creator:
                accounts["1"] = seated(user)
                game.players = tuple(with_name(list(game.players), 1, user.name))
            waiting = meta.get("clock_waiting")
            if waiting:
                game.clock = Clock(**waiting)
                game.clock.start(game.player_to_move)
                meta["clock_waiting"] = None
            doc["game"] = game.to_dict()
            return game

        self._update(game_id, None, change)
        return token

    def rematch(self, game_id: str, token: object, user: User | None
                ) -> tuple[str, str, Changed]:
        """A new game after a finished one, asked for by a seat: the same mode, options and
        players, and the player who did not start this one starts (art. 4). The asker takes
        seat 0 (its account too); the other seat gets an invitation kept for its account, which
        its view of this game shows (``rematch``). The new game's id, the asker's token and this
        game as changed."""
        version, doc = self._load(game_id)
        seat = self.seat(doc, token, user)
        if seat is None:
            raise ApiError(403, _("solo quien jugó la partida puede pedir la revancha"))
        old = self.game(game_id, version, doc)
        if not old.is_over():
            raise ApiError(409, _("la revancha se pide al terminar la partida"))
        meta, data = doc["meta"], doc["game"]
        mode = meta["mode"]
        me = 0 if seat == BOTH else int(seat)
        order = [me, 1 - me] if mode == REMOTE else [0, 1]
        clock = data["clock"]
        setup = Setup(mode, [old.players[p] for p in order], old.ruleset,
                      self.lexicons.get(data["lexicon"]), old.challenge_mode,
                      None if clock is None else {k: clock[k] for k in (
                          "minutes", "mode", "turn_seconds", "game_minutes")},
                      (meta["computer"] or {}).get("level", computer.DEFAULT_LEVEL),
                      bool(meta.get("rated")))
        accounts = meta.get("accounts") or {}
        mine = self.store.user(accounts[str(me)]["id"]) \
            if str(me) in accounts and mode != LOCAL else None
        new_token = new_secret()
        invite = new_secret() if mode == REMOTE else None
        other = accounts.get(str(1 - me)) if mode == REMOTE else None

        def change(doc: dict, version: int) -> Game:
            if doc["meta"].get("rematch") is not None:
                raise ApiError(409, _("ya se ha pedido la revancha de esta partida"))
            new_id = self.start(
                setup, first=order.index(1 - old.first), seed=secrets.randbits(63),
                tokens={BOTH if mode == LOCAL else "0": token_hash(new_token)},
                invite=None if invite is None else token_hash(invite),
                accounts={} if mine is None else {"0": seated(mine)},
                kept_for=None if other is None else other["id"])
            doc["meta"]["rematch"] = {
                "id": new_id, "by": me,
                "url": None if invite is None else f"/partida/{new_id}?invitacion={invite}"}
            return self.game(game_id, version, doc)

        changed = self._update(game_id, version, change)
        return changed.doc["meta"]["rematch"]["id"], new_token, changed

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

    def _load(self, game_id: str) -> tuple[int, dict]:
        try:
            return self.store.load(game_id)
        except NotFound:
            raise ApiError(404, _("no existe esa partida")) from None

    @staticmethod
    def seat(doc: dict, token: object, user: User | None = None) -> Seat:
        """The seat a token speaks for (0, 1 or ``BOTH``; 403 for a token of no seat); without
        a token, the seat of the logged-in ``user``'s account, else None (a spectator)."""
        if token is None or token == "":
            for seat, account in (doc["meta"].get("accounts") or {}).items():
                if user is not None and account["id"] == user.id:
                    return int(seat)
            return None
        if isinstance(token, str):
            digest = token_hash(token)
            for seat, stored in doc["meta"]["tokens"].items():
                if hmac.compare_digest(digest, stored):
                    return seat if seat == BOTH else int(seat)
        raise ApiError(403, _("enlace no válido: esta clave no corresponde a ningún asiento "
                              "de la partida"))

    # -- acting ---------------------------------------------------------------------------------
    def act(self, game_id: str, body: object, user: User | None = None) -> Changed:
        """Check and make one player action; the request body is the client's JSON, acting for
        the seat of its token (``t``) or else of ``user``'s account. If the player's time had
        already run out (art. 35, 45.5) the ending is stored and the answer is that refusal
        (``Changed.refusal``)."""
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
            seat = self.seat(doc, body.get("t"), user)
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
        if action == "resign":  # any time, whoever is to move: the resigner loses
            if game.is_over():
                raise _over(game)
            game = self._take(game_id, version, doc)
            loser = game.player_to_move if seat == BOTH else int(seat)
            if game.pending is not None:
                game.accept()  # a play waiting stands (art. 38), as in every ending
            if not game.is_over():  # else it went out (45.4): that is the ending
                game.end("resign", loser=loser)
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

    def abort(self, game_id: str, body: object, user: User | None = None) -> None:
        """Delete a game before anything happened in it (no turn, no play waiting), asked by a
        seat: it never counts, for a rating or anything else."""
        token = body.get("t") if isinstance(body, dict) else None

        def check(doc: dict) -> None:
            if self.seat(doc, token, user) is None:
                raise ApiError(403, _("quien mira la partida no puede anularla"))
            if doc["meta"].get("tournament"):
                raise ApiError(409, _("una partida de torneo no se anula: la decide el "
                                      "director del torneo"))
            data = doc["game"]
            if data["result"] is not None or data["history"] or data["pending"]:
                raise ApiError(409, _("solo se puede anular una partida antes de la primera "
                                      "jugada"))

        try:
            self.store.delete(game_id, check)
        except NotFound:
            raise ApiError(404, _("no existe esa partida")) from None
        with self._cache_lock:
            self._cache.pop(game_id, None)

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
            except (ApiError, AtrilError) as exc:  # e.g. its word list was removed since
                log.warning("no se descuenta la parada del reloj de %s: %s", game_id, exc)
                continue  # a game that cannot be read is left as it is, never the server
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
            was_over = doc["game"]["result"] is not None
            game = change(doc, version)
            if game is None and optional:
                raise _Nothing
            assert game is not None
            result["game"] = game
            if game.is_over() and not was_over:
                self._rate(game_id, doc, game)
                for hook in self.ended:
                    hook(game_id, doc, game)
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


    def _rate(self, game_id: str, doc: dict, game: Game) -> None:
        """The ratings a rated game gives as it ends, inside the transaction that stores the
        ending: both changes from the ratings before the game, each with its own K
        (``atril.rating``); kept in ``meta["ratings"]`` and each account's history."""
        meta = doc["meta"]
        accounts = meta.get("accounts") or {}
        if not meta.get("rated") or set(accounts) != {"0", "1"} or "ratings" in meta:
            return
        ids = [accounts["0"]["id"], accounts["1"]["id"]]
        locked = {uid: self.store.user(uid, lock=True) for uid in sorted(ids)}  # a fixed order
        users = [locked[uid] for uid in ids]
        assert game.result is not None and users[0] is not None and users[1] is not None
        winner = game.result.winner
        ratings = []
        for p in (0, 1):
            me, them = users[p], users[1 - p]
            assert me is not None and them is not None
            score = 0.5 if winner is None else float(winner == p)
            delta = rating.change(me.rating, them.rating, score, games=me.games)
            ratings.append({"before": me.rating, "after": me.rating + delta, "change": delta})
        for uid, rated in zip(ids, ratings):
            self.store.rate(uid, game_id, rated["after"], rated["change"])
        meta["ratings"] = ratings


class _Nothing(Exception):
    """Nothing to change: roll back quietly."""


# -- what the server must watch ----------------------------------------------------------------
def index(doc: dict, game: Game) -> Index:
    """The columns stored beside a game: finished, its lexicon, its mode, the accounts in its
    seats, and when the server must look at it unasked — at once if the computer is to act,
    else at the next clock deadline."""
    meta = doc["meta"]
    accounts = meta.get("accounts") or {}
    return Index(game.is_over(), _due(doc, game), doc["game"]["lexicon"], meta["mode"],
                 (accounts.get("0", {}).get("id"), accounts.get("1", {}).get("id")))


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
