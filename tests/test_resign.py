"""Resigning (``Game.end("resign", loser=p)``): a loss with the scores as they stand, no article,
and a record that says so (``#note final: resign NICK``)."""

from __future__ import annotations

import pytest

from atril import gcg
from atril.errors import AtrilError
from atril.game import END_REASONS, Game
from atril.scoresheet import Scoresheet


def started() -> Game:
    game = Game(["Ana", "Luis"], seed=1, draws=["AEIRSTN", "CHAOSLE"])
    game.play("H2 ARESTIN")
    game.accept()
    return game


def test_the_resigner_loses_with_the_scores_as_they_stand():
    game = started()
    racks = list(game.racks)
    result = game.end("resign", loser=0)  # Ana resigns 66–0 up: she still loses
    assert END_REASONS["resign"][0] is None and result.article is None
    assert result.reason == "resign" and result.winner == 1 and result.name == "Ana"
    assert result.scores == (66, 0) and result.adjustments == ()  # no rack adjustments
    assert game.racks == racks and game.is_over()
    assert result.text == "Ana abandona la partida y la pierde"
    assert "(art." not in Scoresheet.from_game(game).result
    assert str(game).endswith("fin de la partida: Ana abandona la partida y la pierde")


def test_a_resignation_needs_the_resigner():
    with pytest.raises(AtrilError, match="abandona"):
        started().end("resign")


def test_a_resignation_survives_the_record():
    game = started()
    game.end("resign", loser=1)
    text = gcg.dumps(game)
    assert text.splitlines()[-1] == "#note final: resign Luis"
    again = gcg.loads(text)
    assert again.result == game.result and again.scores == game.scores
    assert again.racks == game.racks and again.pending is None
    stored = Game.from_dict(game.to_dict())
    assert stored.result == game.result and gcg.dumps(stored) == text


def test_a_record_must_name_who_resigned():
    text = gcg.dumps(started())  # a game going on
    with pytest.raises(gcg.GcgError, match="abandona"):
        gcg.loads(text + "#note final: resign\n")
    with pytest.raises(gcg.GcgError, match="abandona"):
        gcg.loads(text + "#note final: resign Pepe\n")
