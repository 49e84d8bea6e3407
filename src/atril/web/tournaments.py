"""Tournaments on ``atril serve`` (issue 14): a director runs an event from the venue (results
typed in) or online (each round's games created on the server, their results posted as they
end); anyone follows the pairings, standings, crosstable and each player's scorecard; the two
players of a game confirm its result (art. 44: both sign the sheet).

Everything about pairings and standings is ``atril.tournament``'s: this module only keeps the
library's JSON in the database (``atril_tournaments``, one versioned row per event) beside what
the web adds (``web``: the mode, the director, the options of the online games, the accounts of
the players, the game of each board, the confirmations), and decides who may do what:

- ``GET /api/torneos`` → ``{"tournaments": [{"id", "name", "mode", "director", "players",
  "rounds", "planned", "updated"}]}``; ``POST /api/torneos`` (a director) ``{"name", "mode":
  "venue"|"online", "rounds", "system", "king_rounds", "prizes", "bye_spread", "max_spread",
  "rated", "game": {"ruleset", "lexicon", "minutes", "clock_mode", "game_minutes", "timer",
  "challenge"}}`` → 201 ``{"id", "url"}``.
- ``GET /api/torneos/{id}``: the public view (no login): players, rounds with their games
  (scores, forfeits, the server game of an online board, who confirmed), standings, every
  player's card (the crosstable and the scorecards), and ``you``: whether the session is the
  director and which player it is. Never a seat's rack: an online board only links its game,
  whose spectators see what any spectator sees.
- Director only (the account that created it, while it holds the director role), each with an
  optional ``version`` (409 if the event changed meanwhile): ``POST …/jugadores`` ``{"name",
  "rating", "account"}``; ``POST …/jugadores/{n}/baja``; ``POST …/rondas`` ``{"system"}`` pairs
  the next round (online: creates its games, seats bound to the players' accounts, the one who
  starts in seat 0); ``POST …/resultado`` ``{"round", "a", "score_a", "b", "score_b"}`` or
  ``{"round", "forfeit": n}`` enters or corrects a result at any time; ``GET …/json`` the
  library's file, to back up.
- ``POST …/confirmar`` ``{"round"}``: the session's player signs their game's result of that
  round; a confirmation holds for the result it saw (a correction asks for new ones).

A finished online game posts its result (``Games.ended``, inside the transaction that stores
the ending, so exactly once) unless the director already entered one. A game lost by
resignation or on time whose scores do not show the loss is recorded as a forfeit of the loser.
"""

from __future__ import annotations

import logging
import secrets
import time
import unicodedata
import uuid
from importlib import resources
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ..game import Game as ServerGame
from ..i18n import _
from ..tournament import SYSTEMS, Tournament, TournamentError, pair, standings
from ..tournament.model import Settings
from ..tournament.standings import number as half
from .accounts import AccountApi, roles
from .games import Games, seated
from .requests import REMOTE, ApiError, clean_name, read_object
from .store import Conflict, NotFound, User

log = logging.getLogger("atril.web")

STATIC = resources.files("atril.web") / "static"
MODES = ("venue", "online")
#: bounds on what a director may ask for (the document stays small).
MAX_PLAYERS = 300
MAX_ROUNDS = 40
MAX_TITLE = 80
LISTED = 100
#: characters refused in an event's name, as in players' names (``requests.clean_name``).
BAD_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
#: the options of an online event's games, as the lobby names them (``Games.setup``).
GAME_OPTIONS = ("ruleset", "lexicon", "minutes", "clock_mode", "game_minutes", "timer",
                "challenge")


def board_key(round_number: int, a: int, b: int) -> str:
    """A board's key in the web part: the round and its two players (tables may renumber)."""
    return f"{round_number}:{min(a, b)}-{max(a, b)}"


def _snapshot(game: Any) -> dict:
    """A board's result as a confirmation keeps it (a changed result needs new signatures)."""
    return {"players": list(game.players), "scores": list(game.scores) if game.scores else None,
            "forfeits": list(game.forfeits)}


def _whole(body: dict, key: str, default: int | None, low: int, high: int) -> int | None:
    """A whole number from the body, within bounds (``default`` when absent or null)."""
    value = body.get(key)
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ApiError(400, _("«{key}» es un número entero de {low} a {high}").format(
            key=key, low=low, high=high))
    return value


class Tournaments:
    """The tournament pages and API over the game service (whose ``ended`` hook it joins)."""

    def __init__(self, games: Games, accounts: AccountApi):
        self.games = games
        self.store = games.store
        self.accounts = accounts
        games.ended.append(self._game_ended)

    def routes(self) -> list[Route]:
        return [Route("/torneos", _page("tournaments.html")),
                Route("/torneos/{tid}", _page("tournament.html")),
                Route("/torneos/{tid}/jugador/{number:int}", _page("tournament-card.html")),
                Route("/api/torneos", self.list),
                Route("/api/torneos", self.create, methods=["POST"]),
                Route("/api/torneos/{tid}", self.view),
                Route("/api/torneos/{tid}/json", self.file),
                Route("/api/torneos/{tid}/jugadores", self.add_player, methods=["POST"]),
                Route("/api/torneos/{tid}/jugadores/{number:int}/baja", self.withdraw,
                      methods=["POST"]),
                Route("/api/torneos/{tid}/rondas", self.pair_round, methods=["POST"]),
                Route("/api/torneos/{tid}/resultado", self.result, methods=["POST"]),
                Route("/api/torneos/{tid}/confirmar", self.confirm, methods=["POST"])]

    # -- reading ----------------------------------------------------------------------------------
    async def list(self, request: Request) -> Response:
        rows = await run_in_threadpool(self.store.tournaments, LISTED)
        out = []
        for tid, _version, doc, updated in rows:
            data, web = doc["tournament"], doc["web"]
            out.append({"id": tid, "name": data["name"], "mode": web["mode"],
                        "director": web["director"]["name"], "players": len(data["players"]),
                        "rounds": len(data["rounds"]), "planned": data["settings"]["rounds"],
                        "updated": updated})
        return JSONResponse({"tournaments": out})

    async def view(self, request: Request) -> Response:
        tid = request.path_params["tid"]
        version, doc, _director = await self._load(tid)
        user = await self.accounts.current(request)
        return JSONResponse(await run_in_threadpool(public_view, tid, version, doc, user))

    async def file(self, request: Request) -> Response:
        """The library's file (``atril torneo`` reads it): the director's backup."""
        tid = request.path_params["tid"]
        _version, doc, _director = await self._load(tid)
        self._check_director(doc, await self.accounts.current(request))
        return JSONResponse(doc["tournament"], headers={
            "Content-Disposition": f'attachment; filename="torneo-{tid}.json"'})

    # -- the director -----------------------------------------------------------------------------
    async def create(self, request: Request) -> Response:
        body = await read_object(request)
        user = await self.accounts.current(request)
        if user is None or "director" not in roles(user):
            raise ApiError(403, _("solo un director de torneo puede crear torneos"))
        doc = await run_in_threadpool(self._new, body, user)
        tid = uuid.uuid4().hex[:12]
        await run_in_threadpool(self.store.create_tournament, tid, doc, user.id)
        return JSONResponse({"id": tid, "url": f"/torneos/{tid}"}, status_code=201)

    def _new(self, body: dict, user: User) -> dict:
        """A new event's document from the creation form, checked."""
        name = body.get("name")
        title = unicodedata.normalize("NFC", " ".join(name.split())) \
            if isinstance(name, str) else ""
        if not title:
            raise ApiError(400, _("falta el nombre del torneo"))
        if any(unicodedata.category(ch) in BAD_CATEGORIES for ch in title):
            raise ApiError(400, _("el nombre del torneo tiene un carácter no permitido: sin "
                                  "controles ni caracteres invisibles"))
        if len(title) > MAX_TITLE:
            raise ApiError(400, _("el nombre del torneo es demasiado largo (máximo {most} "
                                  "caracteres)").format(most=MAX_TITLE))
        mode = body.get("mode", "venue")
        if mode not in MODES:
            raise ApiError(400, _("modo de torneo desconocido: «venue» (resultados en la sala) u "
                                  "«online» (partidas en el servidor)"))
        rated = body.get("rated", False)
        if not isinstance(rated, bool):
            raise ApiError(400, _("«rated» es true (partida puntuable) o false"))
        rounds = _whole(body, "rounds", None, 1, MAX_ROUNDS)
        system = body.get("system", "suizo")
        if system not in ("suizo", "todos"):
            raise ApiError(400, _("sistema «{name}» desconocido; los hay: suizo, todos").format(
                name=system))
        try:
            settings = Settings(
                rounds=rounds, system=system,
                king_rounds=_whole(body, "king_rounds", 2, 0, MAX_ROUNDS) or 0,
                prizes=_whole(body, "prizes", 3, 1, MAX_PLAYERS) or 1,
                bye_spread=_whole(body, "bye_spread", 50, 1, 1000) or 50,
                max_spread=_whole(body, "max_spread", 250, 1, 2000) or 250,
                seed=secrets.randbits(31))
        except TournamentError as exc:
            raise ApiError(400, str(exc)) from None
        given = body.get("game") or {}
        if not isinstance(given, dict):
            raise ApiError(400, _("«game» es un objeto con las opciones de las partidas"))
        options = {k: given[k] for k in GAME_OPTIONS if k in given}
        if mode == "online":  # checked now, not at the first pairing
            self.games.setup({**options, "mode": REMOTE, "rated": rated})
        return {"tournament": Tournament(title, settings).to_dict(),
                "web": {"mode": mode, "director": {"id": user.id, "name": user.name},
                        "game": options, "rated": rated, "accounts": {}, "games": {},
                        "confirmed": {}, "created": time.time()}}

    async def add_player(self, request: Request) -> Response:
        body = await read_object(request)

        def change(doc: dict, t: Tournament) -> dict:
            if len(t.players) >= MAX_PLAYERS:
                raise ApiError(409, _("el torneo ya tiene {most} jugadores").format(
                    most=MAX_PLAYERS))
            web = doc["web"]
            account = body.get("account")
            user = None
            if account not in (None, ""):
                user = self.store.user_named(account) if isinstance(account, str) else None
                if user is None:
                    raise ApiError(404, _("no existe la cuenta «{name}»").format(
                        name=account if isinstance(account, str) else ""))
                if any(a["id"] == user.id for a in web["accounts"].values()):
                    raise ApiError(409, _("la cuenta «{name}» ya juega este torneo").format(
                        name=user.name))
            elif web["mode"] == "online":
                raise ApiError(400, _("en un torneo en línea cada jugador juega con su cuenta: "
                                      "indica «account»"))
            name = body.get("name")
            name = clean_name(name) if isinstance(name, str) else ""
            if not name and user is None:
                raise ApiError(400, _("falta el nombre del jugador"))
            rating = _whole(body, "rating", None, 0, 4000)
            if rating is None and user is not None:
                rating = round(user.rating)
            player = t.add_player(name or (user.name if user else ""), rating,
                                  0 if user is None else user.games)
            if user is not None:
                web["accounts"][str(player.number)] = {"id": user.id, "name": user.name}
            return {"number": player.number, "name": player.name}

        return await self._change(request, body, change, 201)

    async def withdraw(self, request: Request) -> Response:
        body = await read_object(request)
        number = request.path_params["number"]

        def change(doc: dict, t: Tournament) -> dict:
            t.withdraw(t.player(number))
            return {"number": number}

        return await self._change(request, body, change)

    async def pair_round(self, request: Request) -> Response:
        body = await read_object(request)
        system = body.get("system")
        if system not in (None, "", *SYSTEMS):
            raise ApiError(400, _("sistema «{name}» desconocido; los hay: {known}").format(
                name=system, known=", ".join(SYSTEMS)))

        def change(doc: dict, t: Tournament) -> dict:
            planned = t.settings.rounds
            if planned is not None and t.next_round > planned:
                raise ApiError(409, _("el torneo ya tiene sus {rounds} rondas").format(
                    rounds=planned))
            rnd = pair(t, system or None)
            t.add_round(rnd)
            web = doc["web"]
            if web["mode"] == "online":
                for game in rnd.games:
                    web["games"][board_key(rnd.number, *game.players)] = self._start(
                        request.path_params["tid"], t, web, rnd.number, game.players)
            return {"round": rnd.number}

        return await self._change(request, body, change, 201)

    def _start(self, tid: str, t: Tournament, web: dict, round_number: int,
               players: tuple[int, int]) -> str:
        """An online board's game: the player who starts in seat 0 (art. 4), each seat bound
        to its player's account, the event's options; in the pairing's transaction."""
        users = []
        for n in players:
            account = web["accounts"].get(str(n))
            user = None if account is None else self.store.user(account["id"])
            if user is None:
                raise ApiError(409, _("«{name}» no tiene cuenta: en un torneo en línea cada "
                                      "jugador juega con la suya").format(name=t.player(n).name))
            users.append(user)
        setup = self.games.setup({**web["game"], "mode": REMOTE, "rated": web["rated"],
                                  "names": [t.player(n).name for n in players]})
        return self.games.start(
            setup, first=0, seed=secrets.randbits(63), tokens={}, invite=None,
            accounts={"0": seated(users[0]), "1": seated(users[1])},
            tournament={"id": tid, "round": round_number, "players": list(players)})

    async def result(self, request: Request) -> Response:
        body = await read_object(request)
        round_number = _whole(body, "round", None, 1, MAX_ROUNDS * 2)
        if round_number is None:
            raise ApiError(400, _("falta «round»: la ronda del resultado"))

        def change(doc: dict, t: Tournament) -> dict:
            forfeit = _whole(body, "forfeit", None, 1, MAX_PLAYERS)
            if forfeit is not None:
                game = t.forfeit(round_number, t.player(forfeit))
            else:
                a, b = (_whole(body, k, None, 1, MAX_PLAYERS) for k in ("a", "b"))
                scores = [_whole(body, k, None, -1000, 2000) for k in ("score_a", "score_b")]
                if a is None or b is None or scores[0] is None or scores[1] is None:
                    raise ApiError(400, _("se esperaba {example}").format(
                        example='{"round": 1, "a": 1, "score_a": 420, "b": 2, "score_b": 380}'))
                game = t.record(round_number, t.player(a), scores[0], t.player(b), scores[1])
            return {"round": round_number, "table": game.table}

        return await self._change(request, body, change)

    # -- the players ------------------------------------------------------------------------------
    async def confirm(self, request: Request) -> Response:
        """A player signs the result of their game of a round (art. 44)."""
        body = await read_object(request)
        tid = request.path_params["tid"]
        user = await self.accounts.current(request)
        round_number = _whole(body, "round", None, 1, MAX_ROUNDS * 2)
        if round_number is None:
            raise ApiError(400, _("falta «round»: la ronda del resultado"))

        def change(doc: dict, version: int) -> dict:
            t = _tournament(doc)
            me = _player_of(doc, user)
            if me is None:
                raise ApiError(403, _("solo los dos jugadores de una partida confirman su "
                                      "resultado"))
            try:
                game = t.round(round_number).game_of(me)
            except TournamentError as exc:
                raise ApiError(404, str(exc)) from None
            if game is None:
                raise ApiError(404, _("no tienes partida en la ronda {round}").format(
                    round=round_number))
            if not game.done:
                raise ApiError(409, _("esa partida aún no tiene resultado"))
            key = board_key(round_number, *game.players)
            signed = doc["web"]["confirmed"].get(key)
            if signed is None or signed["result"] != _snapshot(game):
                signed = {"result": _snapshot(game), "by": []}
            if me not in signed["by"]:
                signed["by"] = sorted([*signed["by"], me])
            doc["web"]["confirmed"][key] = signed
            return {"round": round_number, "table": game.table, "confirmed": signed["by"]}

        return JSONResponse(await self._update(tid, body, change))

    # -- a finished online game -------------------------------------------------------------------
    def _game_ended(self, game_id: str, doc: dict, game: ServerGame) -> None:
        """Post an online board's result as its game ends (inside the game's transaction);
        the director's own entry, if already in, stands."""
        info = doc["meta"].get("tournament")
        if not info or game.result is None:
            return
        result = game.result

        def change(tdoc: dict, version: int) -> None:
            t = _tournament(tdoc)
            r, (a, b) = info["round"], info["players"]
            if tdoc["web"]["games"].get(board_key(r, a, b)) != game_id:
                raise _Unchanged
            board = t.game_between(r, t.player(a), t.player(b))
            if board.done:
                raise _Unchanged
            s0, s1 = result.scores
            winner = result.winner
            if winner is None and s0 == s1 or winner == 0 and s0 > s1 or winner == 1 and s1 > s0:
                t.record(r, t.player(a), s0, t.player(b), s1)
            else:  # resigned or lost on time while ahead: the loss is a forfeit
                assert winner is not None
                t.forfeit(r, t.player(info["players"][1 - winner]))
            tdoc["tournament"] = t.to_dict()

        try:
            self.store.update_tournament(info["id"], None, change)
        except _Unchanged:
            pass
        except (NotFound, TournamentError, KeyError, ValueError) as exc:
            log.warning("el resultado de %s no llegó al torneo %s: %s", game_id, info.get("id"),
                        exc)

    # -- helpers ----------------------------------------------------------------------------------
    async def _load(self, tid: str) -> tuple[int, dict, str]:
        try:
            return await run_in_threadpool(self.store.load_tournament, tid)
        except NotFound:
            raise ApiError(404, _("no existe ese torneo")) from None

    @staticmethod
    def _check_director(doc: dict, user: User | None) -> None:
        if user is None or user.id != doc["web"]["director"]["id"] \
                or "director" not in roles(user):
            raise ApiError(403, _("solo el director del torneo puede hacer esto"))

    async def _change(self, request: Request, body: dict, change: Any,
                      status: int = 200) -> Response:
        """A director's change: ``change(doc, tournament)`` on the event as stored, which is
        written back whole."""
        user = await self.accounts.current(request)

        def run(doc: dict, version: int) -> dict:
            self._check_director(doc, user)
            t = _tournament(doc)
            out = change(doc, t)
            doc["tournament"] = t.to_dict()
            return out

        out = await self._update(request.path_params["tid"], body, run)
        return JSONResponse(out, status_code=status)

    async def _update(self, tid: str, body: dict, change: Any) -> dict:
        expected = _whole(body, "version", None, 1, 2 ** 62)

        def run() -> dict:
            try:
                version, _doc, out = self.store.update_tournament(tid, expected, change)
            except NotFound:
                raise ApiError(404, _("no existe ese torneo")) from None
            except Conflict as exc:
                raise ApiError(409, _("el torneo ha cambiado (versión {version}): recarga y "
                                      "vuelve a intentarlo").format(version=exc.args[0])) from None
            except TournamentError as exc:
                raise ApiError(400, str(exc)) from None
            return {**out, "version": version}

        return await run_in_threadpool(run)


class _Unchanged(Exception):
    """Nothing to post: leave the tournament as it is."""


def _page(name: str):
    async def page(request: Request) -> Response:
        return FileResponse(str(STATIC / name), media_type="text/html")
    return page


def _tournament(doc: dict) -> Tournament:
    return Tournament.from_dict(doc["tournament"])


def _player_of(doc: dict, user: User | None) -> int | None:
    """The player number of the session's account in this event, if it plays it."""
    if user is None:
        return None
    for number, account in doc["web"]["accounts"].items():
        if account["id"] == user.id:
            return int(number)
    return None


# -- the public view ----------------------------------------------------------------------------
def public_view(tid: str, version: int, doc: dict, user: User | None) -> dict:
    """What anyone may see of an event: no account ids, no seed, no rack."""
    t = _tournament(doc)
    web = doc["web"]
    rows = standings(t)
    return {
        "id": tid, "version": version, "name": t.name, "mode": web["mode"],
        "director": web["director"]["name"], "rated": web["rated"],
        "settings": {"rounds": t.settings.rounds, "system": t.settings.system,
                     "king_rounds": t.settings.king_rounds, "prizes": t.settings.prizes,
                     "bye_spread": t.settings.bye_spread, "tiebreaks": t.settings.tiebreaks,
                     "ruleset": web["game"].get("ruleset"), "minutes": web["game"].get("minutes")},
        "players": [{"number": p.number, "name": p.name, "rating": p.rating,
                     "account": web["accounts"].get(str(p.number), {}).get("name"),
                     "joined": p.joined, "withdrawn": p.withdrawn} for p in t.players],
        "rounds": [_round(r, web) for r in t.rounds],
        "standings": [{**s.to_dict(), "number": s.player.number, "points": s.points}
                      for s in rows],
        "cards": {str(p.number): card(t, p.number) for p in t.players},
        "next_round": t.next_round,
        "you": {"director": user is not None and user.id == web["director"]["id"]
                and "director" in roles(user),
                "player": _player_of(doc, user)},
    }


def _round(rnd: Any, web: dict) -> dict:
    games = []
    for g in rnd.games:
        key = board_key(rnd.number, *g.players)
        signed = web["confirmed"].get(key)
        games.append({"table": g.table, "players": list(g.players), "starts": g.starts,
                      "scores": list(g.scores) if g.scores else None,
                      "forfeits": list(g.forfeits), "done": g.done,
                      "game": web["games"].get(key),
                      "confirmed": signed["by"] if signed and g.done
                      and signed["result"] == _snapshot(g) else []})
    return {"number": rnd.number, "system": rnd.system, "games": games,
            "byes": [{"player": p, "spread": s} for p, s in rnd.byes.items()]}


def card(t: Tournament, number: int) -> list[dict]:
    """A player's scorecard, round by round: the opponent, who started, the scores, the result
    and the running wins and spread (a round not yet played has ``result`` None)."""
    out = []
    wins = 0.0
    spread = 0
    spread_of_bye = t.settings.bye_spread
    for rnd in t.rounds:
        row: dict[str, Any] = {"round": rnd.number, "opponent": None, "started": None,
                               "score": None, "opponent_score": None, "result": None,
                               "spread": None, "kind": "none"}
        game = rnd.game_of(number)
        if game is not None:
            row["opponent"] = game.opponent(number)
            row["started"] = None if game.starts is None else game.starts == number
            if game.forfeits:
                won = number not in game.forfeits
                row.update(kind="forfeit", result=1.0 if won else 0.0,
                           spread=spread_of_bye if won else -spread_of_bye)
            elif game.scores is not None:
                mine, theirs = game.scores if game.players[0] == number else game.scores[::-1]
                row.update(kind="game", score=mine, opponent_score=theirs, spread=mine - theirs,
                           result=1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
            else:
                row["kind"] = "pending"
        elif number in rnd.byes:
            s = rnd.byes[number]
            row.update(kind="bye" if s > 0 else "absent", result=1.0 if s > 0 else 0.0, spread=s)
        if row["result"] is not None:
            wins += row["result"]
            spread += row["spread"]
            row["result"] = half(row["result"])
        row["wins"], row["total_spread"] = half(wins), spread
        out.append(row)
    return out
