"""``atril.parallel`` and ``atril selfplay --workers/--cluster``: the same games wherever they
run (docs/PARALLEL.md)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from atril import parallel
from atril.cli import main

# a random-choosing level, so the engines' per-game seeds matter too
ARGS = ["selfplay", "--games", "5", "--seed", "7", "--players", "equity,principiante", "--json"]


def _square(n: int) -> int:
    return n * n


def _selfplay(*extra: str) -> str:
    result = CliRunner().invoke(main, [*ARGS, *extra])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def serial() -> str:
    out = _selfplay()
    assert len(out.splitlines()) == 5
    return out


def test_map_unordered_in_process_and_processes() -> None:
    assert list(parallel.map_unordered(_square, range(5))) == [0, 1, 4, 9, 16]
    assert sorted(parallel.map_unordered(_square, range(7), workers=2)) == [
        n * n for n in range(7)]


def test_selfplay_workers_same_games(serial: str) -> None:
    assert _selfplay("--workers", "2") == serial


def test_selfplay_summary_with_workers() -> None:
    result = CliRunner().invoke(main, ["selfplay", "--games", "3", "--workers", "2"])
    assert result.exit_code == 0, result.output
    assert "3 partidas" in result.output


def test_dask_local_cluster(serial: str) -> None:
    pytest.importorskip("distributed")
    assert sorted(parallel.map_unordered(_square, range(4), address=parallel.LOCAL)) == [
        0, 1, 4, 9]
    assert _selfplay("--cluster", "local") == serial


def test_missing_dask_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    result = CliRunner().invoke(main, [*ARGS, "--cluster", "tcp://127.0.0.1:1"])
    assert result.exit_code == 2
    assert "atril[cluster]" in result.output
