"""The build: the exact endgame built from a profile of its own run (setup.py,
tools/pgo_workload.py)."""

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

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


def _gcc() -> bool:
    compiler = (sysconfig.get_config_var("CC") or "").split()
    try:
        version = subprocess.run([compiler[0], "--version"], capture_output=True, text=True,
                                 timeout=60).stdout
    except (OSError, IndexError, subprocess.SubprocessError):
        return False
    return ("gcc" in version or "Free Software Foundation" in version) and "clang" not in version


@pytest.mark.skipif(os.environ.get("ATRIL_PGO") == "0" or not _gcc(),
                    reason="built without a profile on purpose, or not by GCC")
def test_the_endgame_is_built_from_its_profile() -> None:
    # Where a step of the profile fails, the build goes on plainly with one line among pip's
    # output (hidden by -q): a tenth of the search's speed lost without a word but for this.
    from atril import _endgame

    assert _endgame.PROFILED == 1, "built without its profile: see `pip install -v` (setup.py)"
