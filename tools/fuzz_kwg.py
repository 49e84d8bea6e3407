"""Fuzz the word-graph checks and the move generator under AddressSanitizer and UBSan.

    .venv/bin/python tools/fuzz_kwg.py [--cases 100000] [--tests tests/test_fuzz.py ...]

Builds ``atril._kwg`` and ``atril._movegen`` with ``-fsanitize=address,undefined`` into a copy
of the package in a temporary folder, then runs the graph tests against that copy in a child
Python with the sanitizer runtime preloaded (``LD_PRELOAD``, as a Python that was not built
with it needs) and every allocation through ``malloc`` (``PYTHONMALLOC``), so a read or
write past any buffer stops the run with a report instead of passing unseen. The fuzz cases
are the tests' own (tests/test_fuzz.py, tests/crafted_kwg.py), ``--cases`` of them, plus the
crafted graphs of tests/test_kwg.py and the C-versus-reference comparisons of
tests/test_movegen.py. Exit status: the child's (0: nothing found).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "atril"
FLAGS = ["-std=c11", "-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
         "-fno-sanitize-recover=undefined", "-shared", "-fPIC"]
TESTS = ["tests/test_fuzz.py", "tests/test_kwg.py", "tests/test_movegen.py"]


def runtime(name: str) -> str:
    """The path of a gcc sanitizer runtime library."""
    path = subprocess.run(["gcc", f"-print-file-name={name}"], capture_output=True, text=True,
                          check=True).stdout.strip()
    if not os.path.isabs(path):
        sys.exit(f"gcc no encuentra {name}: ¿falta el paquete de AddressSanitizer?")
    return path


def build(into: Path) -> None:
    """A copy of the package whose C extensions carry the sanitizers."""
    shutil.copytree(PACKAGE, into / "atril", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    include, suffix = sysconfig.get_paths()["include"], sysconfig.get_config_var("EXT_SUFFIX")
    for source in sorted(PACKAGE.glob("_*.c")):
        target = into / "atril" / f"{source.stem}{suffix}"
        subprocess.run(["gcc", *FLAGS, f"-I{include}", str(source), "-o", str(target)],
                       check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100_000, help="damaged graphs to try")
    parser.add_argument("--tests", nargs="*", default=TESTS, help="test files to run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="atril-asan-") as tmp:
        build(Path(tmp))
        env = dict(os.environ, PYTHONPATH=tmp, PYTHONMALLOC="malloc",
                   LD_PRELOAD=runtime("libasan.so"), ATRIL_FUZZ_CASES=str(args.cases),
                   ATRIL_CACHE_DIR=str(Path(tmp) / "cache"),
                   ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:strict_string_checks=1",
                   UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
        check = ("import atril._kwg, atril._movegen, sys; "
                 "sys.exit(not atril._kwg.__file__.startswith(sys.argv[1]))")
        if subprocess.run([sys.executable, "-c", check, tmp], env=env, check=False).returncode:
            sys.exit("la copia con AddressSanitizer no es la que se importa")
        print(f"extensiones con AddressSanitizer y UBSan en {tmp}; {args.cases} casos",
              flush=True)
        return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               *args.tests], cwd=ROOT, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
