"""The build: the exact endgame built from a profile of its own run (setup.py,
tools/pgo_workload.py)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_profile_workload_solves_endgames() -> None:
    # setup.py falls back to the plain build when the workload fails, quietly under pip -q:
    # a workload broken by a change of the API would lose the profile without a test.
    run = subprocess.run([sys.executable, "tools/pgo_workload.py", "--games", "2",
                          "--nodes", "20000"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    solved, _, rest = run.stdout.partition(" finales, ")
    assert int(solved) == 2
    assert int(rest.split()[0].replace(",", "")) > 2 * 1000


def test_the_installed_endgame_is_not_the_counting_build() -> None:
    # The counting build writes its counts at every exit of the process that loaded it, into
    # the build's temporary directory: it must never be the one left installed.
    from atril import _endgame

    assert b"__gcov" not in Path(_endgame.__file__).read_bytes()


def test_the_endgame_is_built_from_its_profile_where_it_is_tried() -> None:
    # Where a step of the profile fails, the build goes on plainly with one line among pip's
    # output (hidden by -q): a tenth of the search's speed lost without a word but for this.
    # -1: the build did not try (ATRIL_PGO=0, a compiler other than GCC), as setup.py decides.
    from atril import _endgame

    assert _endgame.PROFILED != 0, "built without its profile: see `pip install -v` (setup.py)"
