"""Benchmark the bundled ES09 lexicon: KWG build (C and pure Python), size, load times, memory.

Run: ``.venv/bin/python bench/bench_lexicon.py [--runs 7] [--python-timeout 180]``.
Every load is timed in a fresh process (so the process-level cache plays no part), against a
temporary cache directory: "cold" builds and writes the cache, "cached" only reads it (and
checks the graph, as every load does: see ``atril.kwg``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import resources

from atril import lexicon, movegen
from atril.kwg import MAX_NODES, Kwg

# Runs in a child process; prints one JSON object.
_LOAD_CHILD = r"""
import json, os, sys, time, tracemalloc
trace = sys.argv[1:] == ["trace"]  # tracemalloc slows allocation: only when asked
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
t0 = time.perf_counter()
from atril.lexicon import Lexicon
t1 = time.perf_counter()
rss0 = rss()
if trace:
    tracemalloc.start()
t2 = time.perf_counter()
lex = Lexicon.load("ES09")
t3 = time.perf_counter()
current, peak = tracemalloc.get_traced_memory() if trace else (0, 0)
print(json.dumps({"import": t1 - t0, "load": t3 - t2, "rss": rss() - rss0,
                  "traced": current, "traced_peak": peak, "words": lex.word_count}))
"""

_PYTHON_BUILD_CHILD = r"""
import hashlib, json, sys, time
from atril.kwg import Kwg
words = sys.stdin.buffer.read().split(b"\x00")
t = time.perf_counter()
kwg = Kwg.build_reference(words)
print(json.dumps({"time": time.perf_counter() - t,
                  "sha": hashlib.sha256(kwg.to_bytes()).hexdigest()}))
"""


def child(code: str, cache: str, *argv: str, stdin: bytes | None = None,
          timeout: float | None = None) -> dict:
    env = dict(os.environ, ATRIL_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", code, *argv], input=stdin, capture_output=True,
                         env=env, check=True, timeout=timeout)
    return json.loads(out.stdout)


def es09_blob() -> tuple[bytes, float, float]:
    """The ES09 words (its errata applied) as a 0-separated tile blob, with decompress and read
    times."""
    packed = resources.files("atril").joinpath("data", lexicon.BUNDLED["ES09"].file).read_bytes()
    t = time.perf_counter()
    lines = lexicon._bundled_lines("ES09", packed)
    t_xz = time.perf_counter() - t
    t = time.perf_counter()
    blob = lexicon._read_lines(lines, lexicon.LoadReport("ES09"))
    return blob, t_xz, time.perf_counter() - t


def spaced(n: int) -> str:
    """Thousands split by spaces, the Spanish way."""
    return f"{n:,}".replace(",", " ")


def mib(n: float) -> str:
    return f"{n / 2**20:.1f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="cached loads to time (median)")
    parser.add_argument("--python-timeout", type=float, default=180,
                        help="give up the pure-Python build after this many seconds (0: skip)")
    args = parser.parse_args()
    rows: list[tuple[str, str]] = []

    blob, t_xz, t_read = es09_blob()
    rows.append(("ES09: descomprimir .xz y aplicar la fe de erratas", f"{t_xz:.2f} s"))
    rows.append(("ES09: leer y convertir a fichas", f"{t_read:.2f} s"))

    times = []
    for _ in range(3):
        t = time.perf_counter()
        kwg = Kwg.build_blob(blob)
        times.append(time.perf_counter() - t)
    rows.append(("KWG: construcción en C (mediana de 3)", f"{statistics.median(times):.2f} s"))
    native_sha = hashlib.sha256(kwg.to_bytes()).hexdigest()

    if args.python_timeout > 0:
        try:
            with tempfile.TemporaryDirectory() as cache:
                result = child(_PYTHON_BUILD_CHILD, cache, stdin=blob,
                               timeout=args.python_timeout)
            same = "idéntico al de C" if result["sha"] == native_sha else "¡DISTINTO del de C!"
            rows.append(("KWG: construcción en Python puro", f"{result['time']:.1f} s ({same})"))
        except subprocess.TimeoutExpired:
            rows.append(("KWG: construcción en Python puro",
                         f"omitida (más de {args.python_timeout:.0f} s)"))
    else:
        rows.append(("KWG: construcción en Python puro", "omitida (--python-timeout 0)"))

    rows.append(("KWG: nodos", f"{spaced(len(kwg))} (límite {spaced(MAX_NODES)}: "
                               f"{100 * len(kwg) / MAX_NODES:.0f} %)"))
    rows.append(("KWG: tamaño", mib(4 * len(kwg))))
    # Every graph is checked when read: all of it (a .kwg file), or, for atril's own cache,
    # all but the GADDAG's walk, which waits for the first move generation.
    data = kwg.to_bytes()
    for label, full in (("la caché: estructura y DAWG", False), ("un .kwg: completa", True)):
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            Kwg.from_bytes(data, check=full)
            times.append(time.perf_counter() - t)
        rows.append((f"KWG: leer y comprobar ({label})",
                     f"{1000 * statistics.median(times):.1f} ms"))
    rows.append(("palabras", spaced(sum(1 for _ in kwg.words()))))
    # The move generator's two indexes, made on first use in each process.
    t = time.perf_counter()
    masks = kwg.child_masks
    rows.append(("motor: máscaras de hijos (1.ª jugada)",
                 f"{1000 * (time.perf_counter() - t):.0f} ms, {mib(len(masks))}"))
    t = time.perf_counter()
    table = movegen._bingo_table(kwg)
    rows.append(("motor: tabla de scrabbles (1.er best)",
                 f"{1000 * (time.perf_counter() - t):.0f} ms, {mib(len(table))}"))

    with tempfile.TemporaryDirectory() as cache:
        cold = child(_LOAD_CHILD, cache)
        cache_files = os.listdir(cache)
        size = sum(os.path.getsize(os.path.join(cache, f)) for f in cache_files)
        cached = [child(_LOAD_CHILD, cache) for _ in range(args.runs)]
        traced = child(_LOAD_CHILD, cache, "trace")
    rows.append(("archivo de caché", mib(size)))
    rows.append(("import atril.lexicon", f"{1000 * cold['import']:.0f} ms"))
    rows.append(("carga en frío (construye y guarda caché)", f"{cold['load']:.2f} s"))
    median = statistics.median(c["load"] for c in cached)
    rows.append((f"carga con caché (mediana de {args.runs} procesos)", f"{1000 * median:.0f} ms"))
    rows.append(("memoria: RSS añadida por la carga con caché", mib(cached[-1]["rss"])))
    rows.append(("memoria: tracemalloc actual / pico", f"{mib(traced['traced'])} / "
                                                     f"{mib(traced['traced_peak'])}"))
    rows.append(("memoria: RSS añadida por la carga en frío", mib(cold["rss"])))

    width = max(len(name) for name, _ in rows)
    print(f"{'medida':<{width}}  valor")
    print(f"{'-' * width}  {'-' * 30}")
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


if __name__ == "__main__":
    main()
