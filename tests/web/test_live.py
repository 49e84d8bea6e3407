"""Live updates keep their order: a client never gets an older state after a newer one, and a
publication that finds its version already going out returns only once it has gone (with
PostgreSQL, a server's own change and its NOTIFY echo publish the same version; the sender's
``done`` must not overtake the state it announces)."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

from atril.web.live import Hub
from atril.web.store import Index, open_store


class Client:
    """What the hub needs of a WebSocket: somewhere to send."""

    def __init__(self) -> None:
        self.versions: list[int] = []

    async def send_json(self, message: dict) -> None:
        self.versions.append(message["state"]["version"])


def slow_render(delays: dict[int, float]):
    def render(game_id: str, version: int, doc: dict):
        time.sleep(delays.get(version, 0))
        return lambda seat: {"version": version}
    return render


def run_loop(coroutine):
    """Run on a fresh event loop in its own thread (the browser tests keep one running here)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def store_with_game(tmp_path, versions: int):
    store = open_store(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    store.create("g", {"n": 0}, Index(False, None, None))
    for _ in range(versions - 1):
        store.update("g", None, lambda doc, v: (None, Index(False, None, None)))
    return store


def test_an_echo_of_a_version_waits_until_it_has_gone_out(tmp_path):
    store = store_with_game(tmp_path, 2)
    hub = Hub(store, slow_render({2: 0.3}))
    client = Client()
    hub.join("g", client, 0)

    async def run() -> list[int]:
        echo = asyncio.create_task(hub.publish("g", 2))  # the NOTIFY echo, slow to draw
        await asyncio.sleep(0.05)
        await hub.publish("g", 2, {"n": 2})  # the server's own publication of its change
        seen = list(client.versions)  # what the client had when the sender would say done
        await echo
        return seen

    assert run_loop(run()) == [2]
    store.close()


def test_states_go_out_in_version_order(tmp_path):
    store = store_with_game(tmp_path, 3)
    hub = Hub(store, slow_render({2: 0.3}))
    client = Client()
    hub.join("g", client, 0)

    async def run() -> None:
        older = asyncio.create_task(hub.publish("g", 2, {"n": 2}))
        await asyncio.sleep(0.05)
        await asyncio.gather(older, hub.publish("g", 3, {"n": 3}))

    run_loop(run())
    assert client.versions == sorted(client.versions) and client.versions[-1] == 3
    store.close()
