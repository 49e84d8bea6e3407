"""``atril moves``: names and JSON shape are an API others script against."""

import json

from click.testing import CliRunner

from atril import tiles as T
from atril.board import Board
from atril.cli import main
from atril.move import Move
from atril.position import Position
from atril.rack import Rack
from atril.rules import check_play

P3 = ("15/15/15/15/15/5ZO[RR]OS5/5U3U5/3JAMON1E5/3E1O3L5/3F5O5/3EXITO7/7[LL]7/4CAÑA7/15/15 "
      "QUEDAST/ 0/0 0")


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_moves_json_sorted_with_placed_and_leave():
    result = run("moves", "--json", "--top", "5", "--cgp", P3)
    assert result.exit_code == 0
    moves = json.loads(result.output)["moves"]
    assert len(moves) == 5
    scores = [m["score"] for m in moves]
    assert scores == sorted(scores, reverse=True) and scores[0] == 46  # docs/BENCH.md, P3: 46
    position = Position(P3)
    for m in moves:
        play = check_play(position.board, Move(m["notation"]))
        assert play.score == m["score"]
        assert len(m["placed"]) == len(play.placed)


def test_moves_all_counts_every_placement():
    result = run("moves", "--json", "--all", "--cgp", P3)
    assert len(json.loads(result.output)["moves"]) == 550  # Quackle's count (docs/BENCH.md, P3)


def test_moves_file_gives_one_object_per_line(tmp_path):
    path = tmp_path / "pos.cgp"
    path.write_text(P3 + "\n\n" + P3 + "\n", encoding="utf-8")
    result = run("moves", "--json", "--top", "1", "--cgp-file", str(path))
    assert [len(json.loads(line)["moves"]) for line in result.output.splitlines()] == [1, 1]


def test_moves_exchanges_obey_the_bag():  # art. 25
    # 84 tiles on the board, 7 on the rack, 9 unseen: the opponent holds 7, the bag 2.
    pool = [code for code, n in enumerate(T.COUNTS) for _ in range(n) if code != T.BLANK]
    rack, rest = pool[:7], pool[7:]
    board = Board()
    for sq, tile in zip(range(0, 225, 2), rest[:84]):
        board[sq] = tile
    position = Position(board=board, racks=(rack, ()))
    assert position.bag_count() == 2
    result = run("moves", "--json", "--all", "--exchanges", "--cgp", position.cgp())
    notations = [m["notation"] for m in json.loads(result.output)["moves"]]
    exchanges = [n.split()[1] for n in notations if n.startswith("cambio")]
    assert "paso" in notations
    assert exchanges and max(len(Rack(e)) for e in exchanges) == 2


def test_moves_bad_position_is_a_clear_error(tmp_path):
    path = tmp_path / "pos.cgp"
    path.write_text(P3 + "\nnonsense\n", encoding="utf-8")
    result = run("moves", "--cgp-file", str(path))
    assert result.exit_code == 2 and "línea 2" in result.output
