"""Challenges (art. 38–43): single challenge without penalty (FISE) and void mode."""

import pytest

from atril import tiles as T
from atril.errors import AtrilError, IllegalMoveError
from atril.game import PLAY, VOID, WITHDRAWN, Game, Turn, verdict
from atril.lexicon import Lexicon
from atril.move import Move

# A real lexicon, small: the words these positions use.
WORDS = ["casa", "casas", "peso", "pesos", "sapo", "paso", "as", "es", "os"]


@pytest.fixture(scope="module")
def lexicon():
    return Lexicon.from_words(WORDS, id="PRUEBA")


def new_game(lexicon, **kwargs):
    return Game(["Ana", "Luis"], seed=5, lexicon=lexicon,
                draws=["CASAEIO", "PERROSL", "BBXD"], **kwargs)


def test_a_valid_play_stands_and_the_challenge_costs_nothing(lexicon):  # art. 39, docs/RULES.md §3
    game = new_game(lexicon)
    game.play("H8 CASA")
    assert game.challenge() is True
    assert verdict(True) == "jugada correcta"  # art. 40
    turn = game.history[-1]
    assert turn.kind == PLAY and turn.challenged and turn.points == 12
    assert game.scores == [12, 0]  # no penalty for Luis
    assert game.player_to_move == 1  # and it is Luis's turn as usual


def test_an_invalid_play_goes_back_and_loses_the_turn(lexicon):  # art. 39
    game = new_game(lexicon)
    rack = game.racks[0]
    game.play("H8 CASO")
    assert not game.board.is_empty()
    assert game.challenge() is False
    assert game.board.is_empty() and game.racks[0] == rack and game.scores == [0, 0]
    assert game.history[-1].kind == WITHDRAWN and game.history[-1].points == 0
    assert game.player_to_move == 1
    assert len(game.bag) == 86  # nothing drawn


def test_the_verdict_covers_the_whole_play(lexicon):  # art. 40
    game = new_game(lexicon)
    game.play("H8 CASA")
    game.accept()
    game.play("I10 OS")  # forms OS and AS (valid) and SO (not in the list)
    verdict = game.challenge()
    assert verdict is False  # a bare verdict on the whole play, never which word
    assert game.history[-1].kind == WITHDRAWN
    game.exchange("BB")
    game.play("10F PE(S)O")  # one valid word
    assert game.challenge() is True


def test_acting_accepts_the_pending_play(lexicon):  # art. 38
    game = new_game(lexicon)
    game.play("H8 CASO")  # invalid, but Luis does not challenge
    game.pass_()          # passing is acting: CASO is accepted for good
    assert game.history[0].kind == PLAY and game.scores == [12, 0]
    with pytest.raises(IllegalMoveError) as err:
        game.challenge()
    assert err.value.article == "39"


def test_an_accepted_invalid_word_stands_and_plays_on_it_count(lexicon):  # art. 38, 39
    game = new_game(lexicon)
    game.play("H8 CASO")
    game.accept()
    game.play("11F PE(O)")  # builds on the accepted CASO
    game.accept()
    assert game.scores[1] > 0


def test_challenge_needs_a_pending_play(lexicon):
    game = new_game(lexicon)
    with pytest.raises(IllegalMoveError):
        game.challenge()
    with pytest.raises(IllegalMoveError):
        game.accept()


def test_a_judge_may_give_the_verdict():  # art. 42: a tournament judge decides
    game = Game(draws=["CASAEIO"])
    game.play("H8 CASA")
    assert game.challenge(valid=False) is False  # the judge overrules the lexicon
    assert game.history[-1].kind == WITHDRAWN


def test_without_a_lexicon_the_ruleset_lexicon_judges():  # art. 39
    game = Game(draws=["CASAEIO"])
    game.play("H8 CASA")
    assert game.challenge() is True and game.lexicon.id == game.ruleset.lexicon


def test_void_mode_refuses_without_naming_the_word(lexicon):  # art. 40, 43
    game = new_game(lexicon, challenge=VOID, ruleset="LIBRE")
    with pytest.raises(IllegalMoveError) as err:
        game.play("H8 CASO")
    assert str(err.value) == "jugada no válida (art. 40)"
    assert "CASO" not in str(err.value)
    assert game.history == [] and game.board.is_empty() and game.player_to_move == 0
    turn = game.play("H8 CASA")  # the player tries again
    assert game.pending is None and game.history[0].move == turn.move  # no waiting
    with pytest.raises(IllegalMoveError):
        game.challenge()


def test_void_mode_without_a_lexicon_uses_the_ruleset_lexicon():  # art. 40
    game = Game(challenge=VOID, ruleset="LIBRE", draws=["CASOXEI"])
    with pytest.raises(IllegalMoveError):
        game.play("H8 XEC")
    assert game.play("H8 CASO").score == 12


@pytest.mark.parametrize("ruleset", ["FISE2004", "FISE2009", "FILE2018", "FILE2024"])
def test_no_word_testing_mode_under_a_federation_ruleset(ruleset):  # art. 43, 46.2
    with pytest.raises(AtrilError, match="LIBRE"):
        Game(challenge=VOID, ruleset=ruleset)


def test_check_never_reveals_word_validity(lexicon):  # art. 43
    game = new_game(lexicon, challenge=VOID, ruleset="LIBRE")
    assert game.is_legal("H8 CASO")  # placement only: asking says nothing about words
    assert game.is_legal("H8 CASA")


def test_withdrawn_play_in_the_record(lexicon):
    game = new_game(lexicon)
    game.play("H8 CASO")
    game.challenge()
    assert str(game.history[0]) == "H8 CASO I"


# -- the words challenged (art. 40: the verdict is on the set of words challenged) ---------------
def os_under_casa(lexicon):
    """CASA stands; Luis lays OS under its end, forming OS, SO and AS: SO is not in the list."""
    game = new_game(lexicon)
    game.play("H8 CASA")
    game.accept()
    game.play("I10 OS")
    assert [T.to_human(w) for w in game.pending_words] == ["OS", "SO", "AS"]
    return game


def test_the_verdict_is_on_the_words_challenged(lexicon):  # art. 40, 42.1
    game = os_under_casa(lexicon)
    assert game.challenge(words=["as"]) is True  # «jugada correcta»: SO was not challenged
    turn = game.history[-1]
    assert turn.kind == PLAY and turn.challenged and game.scores == [12, turn.score]
    assert turn.challenged_words == (T.tokenize_word("as"),)  # written down (art. 42.1)
    game = os_under_casa(lexicon)
    assert game.challenge(words=["SO", "as"]) is False  # one of them is not valid: withdrawn
    turn = game.history[-1]
    assert turn.kind == WITHDRAWN and game.scores == [12, 0]  # and no penalty (art. 39)
    assert turn.challenged_words == (T.tokenize_word("so"), T.tokenize_word("as"))
    game = os_under_casa(lexicon)
    assert game.challenge() is False  # every word, by default
    assert [T.to_human(w) for w in game.history[-1].challenged_words] == ["OS", "SO", "AS"]


def test_only_words_the_play_formed_may_be_challenged(lexicon):  # art. 40
    game = os_under_casa(lexicon)
    before = game.to_dict()
    for words in (["casa"], ["as", "sos"], ["k"], []):
        with pytest.raises(IllegalMoveError) as err:
            game.challenge(words=words)
        assert err.value.article == "40"
        assert "correcta" not in str(err.value) and "válida" not in str(err.value)  # no verdict
    with pytest.raises(IllegalMoveError, match="«casa» no es una de las palabras que forma la "
                                               "jugada: OS, SO, AS"):
        game.challenge(words=["casa"])
    assert game.to_dict() == before  # nothing happened: the play still waits
    assert game.challenge(words=["os"]) is True


def test_words_are_named_whatever_their_case():  # art. 11, 40
    charro = Lexicon.from_words(["charro", "che"], id="CH")
    for name in ("charro", "Charro", "CHARRO", "ChaRRo", T.tokenize_word("charro")):
        game = Game(["Ana", "Luis"], lexicon=charro, draws=["[CH]A[RR]OCHE"])
        game.play("H8 CHARRO")  # CH·A·RR·O: four tiles
        assert game.challenge(words=[name]) is True, name
        assert game.history[-1].challenged_words == (T.tokenize_word("charro"),)
    game = Game(["Ana", "Luis"], lexicon=charro, draws=["[CH]A[RR]OCHE"])
    game.play(Move.parse("H8 CHE", machine=True))  # a C and an H laid apart: not the CH tile
    assert game.challenge(words=["Che"]) is False  # named as written, and not the word CHE


def test_a_record_keeps_the_words_challenged(lexicon):  # art. 42.1
    game = os_under_casa(lexicon)
    game.challenge(words=["as"])
    data = game.history[-1].to_dict()
    assert data["challenged_words"] == ["AS"] and Turn.from_dict(data) == game.history[-1]
    assert Game.from_dict(game.to_dict(), lexicon=lexicon).history == game.history
    old = game.to_dict()  # a record from before words were named: the challenge was on them all
    del old["history"][-1]["challenged_words"]
    again = Game.from_dict(old, lexicon=lexicon)
    assert again.history[-1].kind == PLAY  # the record's verdict stands
    assert [T.to_human(w) for w in again.history[-1].challenged_words] == ["OS", "SO", "AS"]
