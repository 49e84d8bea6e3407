"""Players' profiles and an account's own games, worked out from the stored games.

- ``GET /api/jugadores/{name}`` → ``{"name", "rating", "provisional", "rated_games", "games",
  "wins", "draws", "losses", "average_score", "scrabbles_per_game", "best_play": {"notation",
  "score", "game"} | null, "history": [{"at", "rating", "game"}], "last_games": [{"id",
  "opponent", "result", "score", "opponent_score", "at"}]}``: public. ``games`` counts every
  finished game of the account (rated or not, against the computer too); scores are the final
  ones, after the rack adjustments; a scrabble is a play of all seven tiles (art. 19).
- ``GET /api/mis-partidas`` → ``{"games": [{"id", "url", "opponent", "ruleset", "over",
  "result", "your_turn", "updated"}]}``: the account's games, the last changed first (401 for a
  guest, whose page lists the games of the tokens it keeps).

``result`` is ``win``, ``draw`` or ``loss`` (None while the game is on).
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import rating
from .. import tiles as T
from ..i18n import _
from .accounts import AccountApi
from .requests import ApiError
from .store import Store, StoredGame, User
from .views import invite_open

#: how many games the profile lists, and the most ``mis-partidas`` does.
LAST_GAMES = 10
MY_GAMES = 200


class Profiles:
    def __init__(self, store: Store, accounts: AccountApi):
        self.store = store
        self.accounts = accounts

    def routes(self) -> list[Route]:
        return [Route("/api/jugadores/{name}", self.profile),
                Route("/api/mis-partidas", self.mine)]

    async def profile(self, request: Request) -> Response:
        user = await run_in_threadpool(self.store.user_named, request.path_params["name"])
        if user is None:
            raise ApiError(404, _("no existe ese jugador"))
        return JSONResponse(await run_in_threadpool(self._profile, user))

    def _profile(self, user: User) -> dict[str, Any]:
        games = sorted(self.store.games_of(user.id, finished=True),
                       key=lambda g: g.finished or 0, reverse=True)
        outcomes = {"win": 0, "draw": 0, "loss": 0}
        total = scrabbles = 0
        best: dict[str, Any] | None = None
        for game in games:
            seat = _seat(game, user)
            data = game.doc["game"]
            outcomes[_outcome(data, seat)] += 1
            total += data["result"]["scores"][seat]
            for turn in data["history"]:
                if turn["player"] != seat or turn["type"] != "play":
                    continue
                scrabbles += len(turn["placed"]) == T.RACK_SIZE
                if best is None or turn["score"] > best["score"]:
                    best = {"notation": turn["notation"], "score": turn["score"],
                            "game": game.id}
        n = len(games)
        return {
            "name": user.name, "rating": round(user.rating, 2), "rated_games": user.games,
            "provisional": user.games < rating.PROVISIONAL_GAMES,
            "games": n, "wins": outcomes["win"], "draws": outcomes["draw"],
            "losses": outcomes["loss"],
            "average_score": round(total / n, 1) if n else None,
            "scrabbles_per_game": round(scrabbles / n, 2) if n else None,
            "best_play": best,
            "history": [{"at": at, "rating": round(value, 2), "game": game_id}
                        for at, value, game_id in self.store.rating_history(user.id)],
            "last_games": [_last(game, user) for game in games[:LAST_GAMES]],
        }

    async def mine(self, request: Request) -> Response:
        user, _token = await self.accounts.required(request)
        games = await run_in_threadpool(
            lambda: self.store.games_of(user.id, limit=MY_GAMES))
        out = []
        for game in games:
            seat = _seat(game, user)
            data = game.doc["game"]
            over = data["result"] is not None
            bot = game.doc["meta"]["computer"]
            to_move = _to_move(data)
            out.append({
                "id": game.id, "url": f"/partida/{game.id}",
                "opponent": data["players"][1 - seat], "ruleset": data["ruleset"],
                "over": over, "result": _outcome(data, seat) if over else None,
                "your_turn": (not over and to_move == seat and not invite_open(game.doc["meta"])
                              and not (bot is not None and bot["seat"] == to_move)),
                "updated": game.updated})
        return JSONResponse({"games": out})


def _seat(game: StoredGame, user: User) -> int:
    return 0 if game.users[0] == user.id else 1


def _outcome(data: dict, seat: int) -> str:
    winner = data["result"]["winner"]
    return "draw" if winner is None else "win" if winner == seat else "loss"


def _to_move(data: dict) -> int:
    """Who acts next in a stored game: after each completed turn the other player moves; a
    play waiting for a decision waits for the opponent of who made it."""
    history = data["history"]
    mover = data["first"] if not history else 1 - history[-1]["player"]
    return 1 - mover if data["pending"] else mover


def _last(game: StoredGame, user: User) -> dict[str, Any]:
    seat = _seat(game, user)
    data = game.doc["game"]
    scores = data["result"]["scores"]
    return {"id": game.id, "opponent": data["players"][1 - seat],
            "result": _outcome(data, seat), "score": scores[seat],
            "opponent_score": scores[1 - seat], "at": game.finished}
