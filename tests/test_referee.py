"""The referee: the one turn loop every front end drives (art. 38–40 for the two steps of a
turn, art. 45 for its endings), and the one JSON shape of a turn."""

from __future__ import annotations

import pytest

from atril import players
from atril import tiles as T
from atril.bag import Bag
from atril.errors import IllegalMoveError
from atril.game import Game, Turn
from atril.lexicon import Lexicon
from atril.rack import Rack
from atril.record import from_dict
from atril.referee import MOVE, RESPOND, Action, Referee


@pytest.fixture(scope="module")
def lex():
    return Lexicon.load("ES09")


def opening() -> Game:
    return Game(["Ana", "Luis"], seed=1, draws=["AEIRSTN", "CHAOSLE"])


def test_a_turn_has_two_steps():  # art. 38: a play waits for the opponent
    game = opening()
    referee = Referee(game)
    assert referee.expects() == (0, MOVE)
    [placed] = referee.act(Action.of("H2 ARESTIN"))
    assert placed.kind == "play" and placed.player == 0 and placed.turn is game.pending
    assert referee.expects() == (1, RESPOND)
    [accepted] = referee.act(Action.accept())
    assert accepted.kind == "accept" and not accepted.implied and game.scores == [66, 0]
    assert referee.expects() == (1, MOVE)


def test_moving_accepts_the_pending_play():  # art. 38
    game = opening()
    referee = Referee(game)
    referee.act(Action.of("H2 ARESTIN"))
    events = referee.act(Action.of("paso"))
    assert [(e.kind, e.implied) for e in events] == [("accept", True), ("pass", False)]
    assert [t.kind for t in game.history] == ["play", "pass"]


def test_a_verdict_and_a_withdrawn_play():  # art. 39–40: only the verdict, no penalty
    game = Game(["Ana", "Luis"], seed=1, draws=["AEIRSTN", "CHAOSLE"])
    referee = Referee(game)
    referee.act(Action.of("H2 ARESTIN"))
    [judged] = referee.act(Action.challenge(verdict=False))
    assert judged.kind == "challenge" and judged.verdict is False
    assert game.history[-1].kind == "withdrawn" and game.scores == [0, 0]
    assert referee.expects() == (1, MOVE)  # the challenger plays next


def test_a_refused_move_leaves_the_pending_play_waiting():  # art. 38, 8
    game = opening()
    referee = Referee(game)
    referee.act(Action.of("H2 ARESTIN"))
    before = (game.to_dict(), game.pending)
    with pytest.raises(IllegalMoveError):
        referee.act(Action.of("A1 ZZZ"))
    assert (game.to_dict(), game.pending) == before and referee.expects() == (1, RESPOND)


def test_accepting_a_play_that_goes_out_ends_the_game():  # art. 45.4
    game = opening()
    game.bag = Bag(1, tiles=())  # the last tiles: Ana goes out with CASA
    game.racks = [tuple(Rack("AACS")), tuple(Rack("EOPR"))]
    referee = Referee(game)
    referee.act(Action.of("H8 CASA"))
    events = referee.act(Action.of("8H PERO"))  # Luis's move accepts it: the game is over
    assert [e.kind for e in events] == ["accept", "end"]
    assert game.result.reason == "out" and len(game.history) == 1


def test_computers_play_until_a_person_must_act(lex):
    game = Game(["Ana", "atril"], seed=5, lexicon=lex)
    referee = Referee(game, (None, players.get("greedy", lexicon=lex)), lexicon=lex)
    if referee.expects() == (0, MOVE):
        referee.act(Action.of("paso"))
    events = referee.run()
    assert events and all(e.player == 1 for e in events)
    assert referee.expects()[0] == 0  # the person responds to the computer's play
    with pytest.raises(ValueError):
        referee.ask()


def test_a_computer_does_not_check_a_computer_on_the_same_lexicon(lex):
    class Suspicious(players.Engine):
        def challenges(self, game):
            raise AssertionError("no debería preguntarse")

    game = Game(["a", "b"], seed=2, lexicon=lex)
    bots = [players.get("greedy", lexicon=lex),
            Suspicious(players.LEVELS["greedy"], lexicon=lex)]
    referee = Referee(game, bots, lexicon=lex)
    referee.step()  # seat 0 plays
    assert referee.ask().kind == "accept"


def test_the_referee_declares_a_blocked_game():  # art. 45.1
    nothing = Lexicon.from_words(["zzzz"])
    game = Game(["a", "b"], seed=3, lexicon=nothing)
    game.bag = Bag(3, tiles=())
    events = Referee(game, [players.get("greedy", lexicon=nothing)] * 2, lexicon=nothing).run()
    assert [e.kind for e in events] == ["blocked"] and game.result.reason == "blocked"


def test_the_turn_json_shape_reads_back(lex):
    game = players.play_game([players.get("equity", lexicon=lex),
                              players.get("greedy", lexicon=lex)], seed=7, lexicon=lex)
    for turn in game.history:
        data = turn.to_dict()
        assert {"player", "type", "notation", "move", "rack", "placed", "score", "points",
                "drawn"} <= set(data)
        again = Turn.from_dict(data)
        assert again.to_dict() == data and again.notation() == turn.notation()
        assert len(data["placed"]) == len(turn.placed())
        old = {**data, "kind": data.pop("type")}  # a version-1 record
        assert Turn.from_dict(old).to_dict() == again.to_dict()


def test_a_record_of_another_program_or_version_is_refused():
    data = opening().to_dict()
    for bad in ({**data, "format": "otra-cosa"}, {**data, "version": 99}):
        with pytest.raises(ValueError, match="no es una partida guardada"):
            from_dict(bad)


def test_a_challenge_names_its_words():  # art. 40, 42.1
    game = opening()
    referee = Referee(game)
    referee.act(Action.of("H2 ARESTIN"))
    with pytest.raises(IllegalMoveError, match="ARESTIN") as err:  # the words it formed
        referee.act(Action.challenge(words=["arestina"]))
    assert err.value.article == "40" and referee.expects() == (1, RESPOND)
    [judged] = referee.act(Action.challenge(words=["Arestin"]))
    assert judged.kind == "challenge" and judged.verdict is True
    assert judged.words == game.history[-1].challenged_words == (T.tokenize_word("arestin"),)
    game = opening()  # a verdict given from outside, on the words named
    referee = Referee(game)
    referee.act(Action.of("H2 ARESTIN"))
    [judged] = referee.act(Action.challenge(verdict=False, words=["ARESTIN"]))
    assert judged.verdict is False and judged.words == (T.tokenize_word("arestin"),)
    assert game.history[-1].kind == "withdrawn"
