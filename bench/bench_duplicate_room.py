"""Load benchmark for a duplicate room (issue 15): N players over WebSockets against a real
``atril serve``, all handing in their plays in the last seconds of a round.

Run: ``.venv/bin/python bench/bench_duplicate_room.py [--players 200] [--seconds 12]
[--window 3] [--rounds 2] [--db URL]``.

Starts ``atril serve`` in a child process on a fresh SQLite file (or ``--db``), makes a
director's account there, opens a room with ``--seconds`` a round, lets ``--players`` guests
join by its code and connect their WebSockets, and plays ``--rounds`` rounds. In each round
every player sends a legal play of the rack at a random moment of the last ``--window``
seconds; every tenth player also changes it in the last 100 ms, and every fifth tries to change
it again 0–500 ms after the deadline (the server must refuse it). When the round closes, the
record the director sees is compared with what each player was told: every play acknowledged
must be the one that counted, nothing refused may count.

Printed: p50/p95/max of the submission latency (sent → acknowledged over the WebSocket, as the
player sees it), how many plays were acknowledged and refused, and the checks.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time

import httpx
import websockets
from bench_web import start_server  # the same server, started the same way

from atril import movegen
from atril import tiles as T
from atril.board import Board
from atril.lexicon import Lexicon
from atril.move import Move
from atril.web.accounts import Accounts
from atril.web.store import open_store

PASSWORD = "bench-director-1"


def tile_code(text: str | None) -> int:
    if not text:
        return T.EMPTY
    code = T.code(text)
    return code | T.BLANK_BIT if text != text.upper() else code


def legal_plays(state: dict, lexicon: Lexicon, n: int) -> list[str]:
    """Up to ``n`` legal plays of the round, in notation (the players' choices)."""
    board = Board(bytes(tile_code(t) for t in state["board"]))
    rack = tuple(T.BLANK if t == "?" else T.code(t) for t in state["rack"])
    found = movegen.generate(board, rack, lexicon)
    plays = [Move.notation(c.move, board) for c in found[:n]]
    return plays or ["paso"]


class Client:
    """One player: a WebSocket, the latest state, the answers to its plays."""

    def __init__(self, ws, token: str) -> None:
        self.ws = ws
        self.token = token
        self.state: dict = {}
        self.changed = asyncio.Event()
        self.replies: dict[int, asyncio.Future] = {}
        self.next_id = 0

    async def listen(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            if message["type"] == "state":
                if message["state"]["version"] >= self.state.get("version", 0):
                    self.state = message["state"]
                    self.changed.set()
            elif message.get("id") in self.replies:
                self.replies.pop(message["id"]).set_result((time.perf_counter(), message))

    async def wait_for(self, check) -> None:
        while not check(self.state):
            self.changed.clear()
            await self.changed.wait()

    async def submit(self, text: str) -> tuple[float, float, dict]:
        self.next_id += 1
        future = asyncio.get_running_loop().create_future()
        self.replies[self.next_id] = future
        sent_at, sent_wall = time.perf_counter(), time.time()
        await self.ws.send(json.dumps({"action": "submit", "id": self.next_id, "move": text}))
        answered, message = await future
        return (answered - sent_at) * 1000, sent_wall, message


async def play_round(clients: list[Client], http: httpx.AsyncClient, room: dict, lexicon: Lexicon,
                     number: int, window: float, stats: dict) -> None:
    r = await http.post(f"/api/duplicadas/{room['id']}/arbitro", json={"action": "next"})
    r.raise_for_status()
    await asyncio.gather(*(c.wait_for(lambda s: s.get("phase") == "playing"
                                      and s.get("round") == number) for c in clients))
    state = clients[0].state
    deadline = state["deadline"]  # the server's clock: the same machine's
    plays = legal_plays(state, lexicon, 50)
    counted: dict[int, str | None] = {}
    refused_texts: dict[int, list[str]] = {}

    async def one(i: int, client: Client) -> None:
        rng = random.Random(number * 1000 + i)
        start = deadline - window * rng.random()
        moments = [(start, rng.choice(plays))]
        if i % 10 == 0:  # a last-moment change
            moments.append((deadline - 0.1 * rng.random(), rng.choice(plays)))
        if i % 5 == 0:  # too late
            moments.append((deadline + 0.5 * rng.random(), rng.choice(plays)))
        for at, text in sorted(moments):
            await asyncio.sleep(max(0.0, at - time.time()))
            latency, sent_wall, reply = await client.submit(text)
            if reply["type"] == "ack":
                stats["latency"].append(latency)
                stats["acked"] += 1
                assert reply["received"] < deadline, reply
                counted[i] = text
                if sent_wall >= deadline:
                    stats["acked_after_client_deadline"] += 1
            else:
                stats["refused"] += 1
                stats["refused_latency"].append(latency)
                assert reply["status"] == 409, reply
                refused_texts.setdefault(i, []).append(text)
                if sent_wall < deadline - 0.05:
                    stats["refused_well_before"] += 1

    await asyncio.gather(*(one(i, c) for i, c in enumerate(clients)))
    await asyncio.gather(*(c.wait_for(lambda s: s.get("round") == number
                                      and s.get("phase") != "playing") for c in clients))
    record = (await http.get(f"/api/duplicadas/{room['id']}?rol=arbitro")).json()["record"]
    slips = record[number - 1]["slips"]
    for i in range(len(clients)):
        given = slips[i]["text"]
        if given != counted.get(i):
            stats["mismatches"].append((number, i, given, counted.get(i)))


async def main(args: argparse.Namespace) -> None:
    db = args.db or f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    store = open_store(db)
    director = f"bench{random.randrange(10**6)}"
    Accounts(store).sign_up(director, PASSWORD, granted=("director",))
    store.close()
    proc, base = start_server(db)
    lexicon = Lexicon.load()
    stats: dict = {"latency": [], "refused_latency": [], "acked": 0, "refused": 0,
                   "acked_after_client_deadline": 0, "refused_well_before": 0, "mismatches": []}
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            r = await http.post("/api/cuenta/entrar", json={"name": director,
                                                            "password": PASSWORD})
            http.headers["X-CSRF-Token"] = r.json()["csrf"]
            r = await http.post("/api/duplicadas", json={
                "seconds": args.seconds, "rounds": args.rounds})
            room = r.json()
            tokens = []
            async with httpx.AsyncClient(base_url=base, timeout=60) as guest:
                for i in range(args.players):
                    r = await guest.post("/api/duplicadas/unirse",
                                         json={"code": room["code"], "name": f"J{i:03d}"})
                    tokens.append(r.json()["token"])
            ws_base = base.replace("http", "ws")
            sockets = [await websockets.connect(
                f"{ws_base}/ws/duplicada/{room['id']}?t={token}", max_size=None,
                open_timeout=60) for token in tokens]
            clients = [Client(ws, token) for ws, token in zip(sockets, tokens)]
            listeners = [asyncio.create_task(c.listen()) for c in clients]
            try:
                for number in range(1, args.rounds + 1):
                    await play_round(clients, http, room, lexicon, number, args.window, stats)
            finally:
                for task in listeners:
                    task.cancel()
                for ws in sockets:
                    await ws.close()
    finally:
        proc.terminate()
        proc.wait(10)
    lat = sorted(stats["latency"])
    p95 = lat[int(0.95 * (len(lat) - 1))]
    print(f"{args.players} jugadores, {args.rounds} rondas, plays in the last {args.window} s")
    print(f"acknowledged {stats['acked']}, refused (late) {stats['refused']}")
    print(f"submission latency ms: p50 {statistics.median(lat):.1f}  p95 {p95:.1f}  "
          f"max {lat[-1]:.1f}")
    print(f"acknowledged although sent after the deadline: "
          f"{stats['acked_after_client_deadline']}; refused although sent >50 ms before it: "
          f"{stats['refused_well_before']}")
    print("record == acknowledged plays:", "yes" if not stats["mismatches"] else
          f"NO {stats['mismatches'][:5]}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=int, default=12)
    parser.add_argument("--window", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--db", default=None)
    asyncio.run(main(parser.parse_args()))
