"""Load benchmark for ``atril serve``: N concurrent games over WebSockets on localhost.

Run: ``.venv/bin/python bench/bench_web.py [--games 100] [--seconds 30] [--think 1] [--db URL]``.

Starts ``atril serve`` in a child process (a fresh SQLite file unless ``--db`` names another
database, e.g. ``postgresql://...``), creates ``--games`` games between two bench players on
ES09 and connects both seats of every game over WebSocket. In every game the player to move
waits ``--think`` seconds (a person thinking; 0 = as fast as the server allows), finds its best
play (on the client, not timed) and posts it; the next move waits until the opponent's
WebSocket has seen the change. Moves go over the WebSocket. Games that end are replaced.

With ``--searches N``, N clients keep a wide study search in flight all the time (the
pattern ``*`` by probability, the one that cost 36 s of CPU before searches had a budget and a
worker process), to show that anonymous searches do not slow the games.

Printed: moves per second, the CPU time of the server per move, and p50/p95/max of the move
latency as the server measures it (checking, storing and broadcasting the move), as the client
sees the round trip, and until the opponent's WebSocket receives it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

import httpx
import websockets

from atril import movegen
from atril import tiles as T
from atril.board import Board
from atril.lexicon import Lexicon


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "atril", "serve", "--port", str(port),
                             "--db", db, "--no-rate-limit"], stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(f"{base}/api/opciones", timeout=1)
            return proc, base
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("el servidor no arrancó")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tile_code(text: str | None) -> int:
    if not text:
        return T.EMPTY
    code = T.code(text)
    return code | T.BLANK_BIT if text != text.upper() else code


def choose(state: dict, lexicon: Lexicon) -> dict:
    """The action body for the best-scoring play, or a pass."""
    board = Board(bytes(tile_code(t) for t in state["board"]))
    rack = tuple(T.BLANK if t == "?" else T.code(t) for t in state["rack"])
    found = movegen.best(board, rack, lexicon, n=1)
    if not len(found):
        return {"action": "pass"}
    return {"action": "play", "placed": [[sq, T.tile_to_human(t)] for sq, t in found[0].placed]}


class Stats:
    def __init__(self) -> None:
        self.server: list[float] = []
        self.client: list[float] = []
        self.live: list[float] = []
        self.errors: list[str] = []
        self.games_done = 0
        self.searches: list[float] = []
        self.search_status: dict[int, int] = {}


class Seat:
    """One player's WebSocket: the latest state it saw, and the answer to its last action."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.state: dict = {}
        self.changed = asyncio.Event()
        self.reply: asyncio.Future | None = None

    async def listen(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            if message["type"] == "state":
                if message["state"]["version"] < self.state.get("version", 0):
                    continue  # an older state arriving late: the page ignores it too
                self.state = message["state"]
                self.changed.set()
            elif self.reply is not None and not self.reply.done():
                self.reply.set_result(message)

    async def seen(self, version: int) -> None:
        while self.state.get("version", 0) < version:
            self.changed.clear()
            await self.changed.wait()

    async def act(self, body: dict) -> dict:
        self.reply = asyncio.get_running_loop().create_future()
        await self.ws.send(json.dumps(body))
        return await self.reply


async def play_games(http: httpx.AsyncClient, ws_base: str, lexicon: Lexicon, stats: Stats,
                     deadline: float, think: float) -> None:
    while time.perf_counter() < deadline:
        r = await http.post("/api/partidas", json={"mode": "remote", "lexicon": "ES09"})
        game = r.json()
        code = game["invite"].split("invitacion=")[1]
        r = await http.post(f"/api/partidas/{game['id']}/unirse", json={"invite": code})
        tokens = [game["token"], r.json()["token"]]
        urls = [f"{ws_base}/ws/partidas/{game['id']}?t={tokens[s]}" for s in (0, 1)]
        async with websockets.connect(urls[0], max_size=None, open_timeout=60) as ws0, \
                websockets.connect(urls[1], max_size=None, open_timeout=60) as ws1:
            seats = [Seat(ws0), Seat(ws1)]
            listeners = [asyncio.create_task(seat.listen()) for seat in seats]
            try:
                await seats[0].seen(1)
                await seats[1].seen(1)
                await play_one(seats, lexicon, stats, deadline, think)
            finally:
                for task in listeners:
                    task.cancel()
                await asyncio.gather(*listeners, return_exceptions=True)


async def play_one(seats: list[Seat], lexicon: Lexicon, stats: Stats, deadline: float,
                   think: float) -> None:
    while True:
        me = seats[0].state["to_move"]
        state = seats[me].state
        if state["over"]:
            stats.games_done += 1
            return
        await asyncio.sleep(random.uniform(0.5, 1.5) * think)
        if time.perf_counter() >= deadline:
            return
        body = choose(state, lexicon) | {"version": state["version"]}
        start = time.perf_counter()
        reply = await seats[me].act(body)
        if reply["type"] != "done":
            stats.errors.append(reply["error"])
            return
        stats.client.append((time.perf_counter() - start) * 1000)
        stats.server.append(reply["server_ms"])
        await seats[1 - me].seen(reply["version"])
        stats.live.append((time.perf_counter() - start) * 1000)


def percentiles(values: list[float]) -> str:
    if not values:
        return "—"
    ordered = sorted(values)
    p = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return (f"p50 {statistics.median(ordered):7.2f} ms   p95 {p(0.95):7.2f} ms   "
            f"max {ordered[-1]:7.2f} ms")


async def search_loop(http: httpx.AsyncClient, stats: Stats, deadline: float) -> None:
    """One client asking for the widest study search again and again."""
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        r = await http.get("/estudio/api/patron", params={"patron": "*", "orden": "prob"})
        stats.searches.append((time.perf_counter() - start) * 1000)
        stats.search_status[r.status_code] = stats.search_status.get(r.status_code, 0) + 1


async def run(base: str, games: int, seconds: float, think: float, searches: int) -> Stats:
    lexicon = Lexicon.load("ES09")
    stats = Stats()
    limits = httpx.Limits(max_connections=games + searches + 10,
                          max_keepalive_connections=games + searches + 10)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
        deadline = time.perf_counter() + seconds
        ws_base = base.replace("http://", "ws://")
        await asyncio.gather(*(play_games(http, ws_base, lexicon, stats, deadline, think)
                               for _ in range(games)),
                             *(search_loop(http, stats, deadline) for _ in range(searches)))
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=1.0,
                        help="segundos de media que piensa cada jugador (0 = sin pausa)")
    parser.add_argument("--db", help="base de datos del servidor (por defecto, SQLite temporal)")
    parser.add_argument("--searches", type=int, default=0,
                        help="búsquedas de estudio amplias siempre en curso (patrón * por "
                             "probabilidad)")
    parser.add_argument("--url", help="usar un servidor ya en marcha")
    args = parser.parse_args()
    proc = None
    with tempfile.TemporaryDirectory() as tmp:
        base = args.url
        if base is None:
            proc, base = start_server(args.db or f"sqlite:///{os.path.join(tmp, 'bench.sqlite3')}")
        try:
            began = time.perf_counter()
            server_cpu = cpu_seconds(proc.pid) if proc else 0.0
            client_cpu = time.process_time()
            stats = asyncio.run(run(base, args.games, args.seconds, args.think, args.searches))
            elapsed = time.perf_counter() - began
            server_cpu = cpu_seconds(proc.pid) - server_cpu if proc else 0.0
            client_cpu = time.process_time() - client_cpu
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(10)
    moves = len(stats.server)
    print(f"atril serve: {args.games} partidas simultáneas, {args.think:g} s para pensar, "
          f"{elapsed:.1f} s, "
          f"{os.cpu_count()} núcleos, base de datos "
          f"{'PostgreSQL' if (args.db or '').startswith('postgres') else 'SQLite'}")
    print(f"  jugadas: {moves}  ({moves / elapsed:.1f} por segundo), partidas acabadas: "
          f"{stats.games_done}, errores: {len(stats.errors)} {stats.errors[:3]}")
    if proc is not None and moves:
        print(f"  CPU del servidor: {server_cpu:.1f} s ({server_cpu / moves * 1000:.2f} ms por "
              f"jugada, partidas y conexiones incluidas); CPU del banco: {client_cpu:.1f} s; "
              f"carga media de la máquina: {os.getloadavg()[0]:.1f}")
    print(f"  en el servidor:               {percentiles(stats.server)}")
    print(f"  ida y vuelta (WebSocket):     {percentiles(stats.client)}")
    print(f"  hasta el WebSocket del rival: {percentiles(stats.live)}")
    if args.searches:
        print(f"  búsquedas de estudio ({args.searches} siempre en curso): "
              f"{len(stats.searches)} respuestas {stats.search_status}; "
              f"{percentiles(stats.searches)}")


if __name__ == "__main__":
    main()
