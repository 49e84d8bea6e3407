"""The build: the profile-guided build's workload (setup.py, tools/pgo_workload.py)."""

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
