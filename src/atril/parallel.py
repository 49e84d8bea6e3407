"""Run independent tasks on every core of a machine or on a Dask cluster (docs/PARALLEL.md).

``map_unordered(fn, items, workers=N, address=A)`` yields ``fn(item)`` for each item, in the
order the results arrive:

- ``workers == 1`` and no ``address``: in this process, one after another;
- ``workers > 1``: a pool of ``workers`` processes (``concurrent.futures``); ``fn`` must be a
  module-level function and ``items`` picklable, since the processes may be spawned;
- ``address``: a Dask scheduler (``tcp://host:8786``), or ``"local"`` for a Dask cluster in
  this process (``workers`` worker processes, or one worker thread when ``workers == 1``).
  Needs the optional extra ``atril[cluster]``.

Callers that need a fixed order tag each item (for instance with its index) and reorder.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

from .errors import AtrilError
from .i18n import _

T = TypeVar("T")
R = TypeVar("R")

#: the ``address`` that starts a Dask cluster in this process (tests, one machine)
LOCAL = "local"


def cpu_count() -> int:
    """The cores this process may use (the default of ``--workers`` where it means "all")."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def map_unordered(fn: Callable[[T], R], items: Iterable[T], *, workers: int = 1,
                  address: str | None = None) -> Iterator[R]:
    """``fn(item)`` for each of ``items``, as they finish (see the module's docstring)."""
    if workers < 1:
        raise AtrilError(_("--workers debe ser 1 o más"))
    if address:
        yield from _dask(fn, list(items), workers, address)
    elif workers == 1:
        for item in items:
            yield fn(item)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(fn, item) for item in items]
            try:
                for future in as_completed(futures):
                    yield future.result()
            finally:  # an error or an abandoned generator: do not start what is left
                for future in futures:
                    future.cancel()


def _client(address: str, workers: int) -> Any:
    """A ``distributed.Client`` for ``address`` (``LOCAL``: a cluster of its own)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise AtrilError(_("para usar un clúster hace falta Dask: pip install 'atril[cluster]'")
                         ) from None
    if address == LOCAL:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1,
                               processes=workers > 1, dashboard_address=None)
        return Client(cluster)
    try:
        return Client(address, timeout=30)
    except OSError as exc:
        raise AtrilError(_("no se pudo conectar con el clúster {address}: {error}").format(
            address=address, error=exc)) from None


def _dask(fn: Callable[[T], R], items: list[T], workers: int, address: str) -> Iterator[R]:
    client = _client(address, workers)  # first: it says so if Dask is missing
    from distributed import as_completed as dask_completed
    cluster = client.cluster if address == LOCAL else None
    try:
        futures = client.map(fn, items, pure=False)
        try:
            for future in dask_completed(futures):
                yield future.result()
        finally:
            client.cancel(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
