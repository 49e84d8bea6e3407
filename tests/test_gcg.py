"""GCG read/write (docs/FORMATS.md): Macondo-compatible Spanish records, replayed through Game."""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_game import random_game

from atril import tiles as T
from atril.clock import Clock
from atril.game import EXCHANGE, PLAY, WITHDRAWN, Game
from atril.gcg import ALL, GcgError, dumps, loads
from atril.move import THROUGH, Move, format_rack


def same_game(a: Game, b: Game, *, players: tuple[str, str] | None = None) -> None:
    assert b.players == (players or a.players)
    assert b.history == a.history and b.pending == a.pending
    assert b.scores == a.scores and b.racks == a.racks and b.board == a.board
    assert b.result == a.result


def sample_game() -> Game:
    game = Game(["Ana García", "Luis"], seed=1, draws=["CASAEIO", "PERROSL", "BBXD", "LLO"])
    game.play("H8 CASA")
    game.play("10F PE(S)O")
    game.challenge(valid=False)      # withdrawn (art. 39)
    game.exchange("BBX")
    game.play("10F PE(S)O")
    game.challenge(valid=True)       # stood: no penalty, no bonus
    game.pass_()
    return game


def test_header_and_events():
    text = dumps(sample_game())
    lines = text.splitlines()
    assert lines[:8] == [
        "#character-encoding UTF-8",
        "#player1 Ana Ana García",
        "#player2 Luis Luis",
        "#lexicon ES09",
        "#tile-distribution spanish",
        "#tile [CH] [ch]", "#tile [LL] [ll]", "#tile [RR] [rr]",
    ]
    events = [line for line in lines if line.startswith(">")]
    assert events[:7] == [
        ">Ana: AACEIOS 8H CASA +12 12",         # GCG: number first = across
        ">Luis: ELOPRRS J6 PE.O +12 12",        # down; "." = the S already there
        ">Luis: ELOPRRS -- -12 0",
        ">Ana: BBDEIOX -BBX +0 12",
        ">Luis: ELOPRRS J6 PE.O +12 12",
        ">Luis: ELOPRRS (challenge) +0 12",
        ">Ana: DEILLOO - +0 12",               # bare LL: two L tiles, not the digraph
    ]
    assert any(line.startswith("#rack1 ") for line in lines)  # an unfinished game


def test_round_trip_unfinished_game():
    game = sample_game()
    same_game(game, loads(dumps(game)))


def test_round_trip_with_a_pending_play():
    game = Game(draws=["CASAEIO"])
    game.play("H8 CASA")
    again = loads(dumps(game))
    same_game(game, again)
    assert again.pending is not None and again.challenge(valid=True)


def test_going_out_writes_both_sides():  # art. 45.4
    game = Game(["Ana", "Luis"], draws=["ABCDEFG", "PERROSL"])
    game.bag.draw(len(game.bag))  # (test only: an empty bag at once)
    game.play("H8 ABCDEFG")
    game.accept()
    lines = dumps(game).splitlines()
    assert lines.pop() == "#note final: out"
    assert lines[-2:] == [">Luis: ELOPRRS (ELOPRRS) -9 -9", ">Ana: (ELOPRRS) +9 " +
                          str(game.result.scores[0])]
    assert not any(line.startswith("#rack") for line in lines)


def test_passes_and_time_penalty_lines():  # art. 45.2, 35
    now = [0.0]
    game = Game(["Ana", "Luis"], clock=Clock(1, time_source=lambda: now[0]),
                draws=["CASAEIO", "PERROSL"])
    now[0] = 61.0
    for _ in range(4):
        game.pass_()
    lines = dumps(game).splitlines()
    assert lines.pop() == "#note final: passes"
    assert lines[-3:] == [">Ana: AACEIOS (AACEIOS) -9 -9", ">Luis: ELOPRRS (ELOPRRS) -9 -9",
                          ">Ana: AACEIOS (time) -10 -19"]
    again = loads("\n".join(lines))
    assert again.result == game.result and again.overtime == [1, 0]


def test_game_ended_by_time_is_read_back():  # art. 45.5
    game = Game(draws=["CASAEIO", "PERROSL"])
    game.play("H8 CASA")
    game.pass_()
    game.record_overtime(0, 1)
    game.declare_time_up()
    same_game(game, loads(dumps(game)))


def test_blocked_game_is_read_back():  # art. 45.1
    game = Game(draws=["CASAEIO", "PERROSL"])
    game.play("H8 CASA")
    game.declare_blocked()
    same_game(game, loads(dumps(game)))


def test_digraphs_and_blanks():
    game = Game(["Ana", "Luis"], draws=["[CH]A[RR]O?LE", "AEIOU[LL]N"])
    game.play("H8 [CH]A[rr]O")  # a blank as RR, machine form
    text = dumps(game)
    assert ">Ana: A[CH]ELO[RR]? 8H [CH]A[rr]O +14 14" in text  # racks sorted by tile code
    same_game(game, loads(text))


def test_reads_board_letters_instead_of_dots_and_latin1():
    text = ("#player1 ana Ana\n#player2 luis Luis\n"
            ">ana: AACEIOS 8H CASA +12 12\n"
            ">luis: ELOPRRS J6 PESO +12 12\n")  # Macondo also accepts the letter itself
    game = loads(text.encode("iso-8859-1"))
    assert game.scores == [12, 12] and game.pending is not None
    assert game.history[0].move.notation() == "H8 CASA"
    text_n = "#player1 a Ñoño\n#player2 b B\n"
    assert loads(text_n.encode("iso-8859-1")).players[0] == "Ñoño"


def test_ruleset_is_an_argument():
    game = loads(dumps(sample_game()), ruleset="FISE2004")
    assert game.ruleset.name == "FISE2004"


@pytest.mark.parametrize("bad, line", [
    (">Ana: AACEIOS 8H CASA +13 13", 9),            # wrong score
    (">Ana: AACEIOS 8H CASA +12 14", 9),            # wrong running total
    (">Ana: AACEIOZ 8H CASA +12 12", 9),            # the rack lacks the tiles
    (">Ana: AACEIOS 8A CASA +12 12", 9),            # misses the centre (art. 6)
    (">Ana: AACEIOS Z9 CASA +12 12", 9),            # no such square
    (">Ana: AACEIOS 8H CASA +12", 9),               # incomplete
    (">Pepe: AACEIOS 8H CASA +12 12", 9),           # unknown player
    ("nonsense", 9),
    (">Ana: AACEIOS - +0 --5", 9),                  # not a number
    (">Ana: AACEIOS 8H CASA +12 12\n>Ana: AACEIOS (challenge) +5 12", 10),  # no bonus in Spanish
    (">Ana: AACEIOS -7 +0 0", 9),                   # exchanged tiles unknown
    (">Ana: AACEIOS - +0 0\n>Ana: AACEIOS - +0 0", 10),  # out of turn
])
def test_malformed_records_name_the_line(bad, line):
    head = dumps(Game(["Ana", "Luis"])).split(">")[0].rsplit("#rack1", 1)[0]
    with pytest.raises(GcgError) as err:
        loads(head + bad + "\n")
    assert err.value.line == line
    assert str(err.value).startswith(f"GCG, línea {line}: ")


def finished_by(reason: str) -> Game:
    return next(g for g in map(random_game, range(100)) if g.result and g.result.reason == reason)


def test_end_lines_must_follow_the_rules():  # art. 45.4
    game = finished_by("out")
    text = dumps(game)
    out = next(a for a in game.result.adjustments if a.kind == "out")
    assert out.points > 0
    text = text.replace(f") +{out.points} ", f") +{out.points + 1} ")
    with pytest.raises(GcgError, match="art. 45"):
        loads(text)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10 ** 9))
def test_random_games_round_trip(seed):
    game = random_game(seed)
    again = loads(dumps(game), ruleset=game.ruleset, lexicon=game.lexicon)
    same_game(game, again)
    assert dumps(again) == dumps(game)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_damaged_records_fail_cleanly(data):  # a fuzz corpus in miniature: never a traceback
    text = dumps(sample_game())
    i = data.draw(st.integers(0, len(text) - 1))
    j = data.draw(st.integers(i, min(len(text), i + 8)))
    junk = data.draw(st.text(alphabet="0123456789+-.()[]?ABCHÑaz#>: \n", max_size=6))
    try:
        loads(text[:i] + junk + text[j:])
    except GcgError as exc:
        assert exc.line is None or exc.line >= 1


def test_overtime_of_the_player_who_went_out():  # art. 35, 45.4
    game = finished_by("out")
    out = game.history[-1].player
    game.record_overtime(out, 2)
    text = dumps(game)
    assert f">{game.players[out]}: (time) -20 {game.result.scores[out]}" in text
    same_game(game, loads(text, ruleset=game.ruleset, lexicon=game.lexicon))


# -- what a seat may know while the game is on (art. 25) -------------------------------------------
def game_in_progress() -> Game:
    """Plays, a withdrawn play, an exchange by each side, a play that stood after a challenge,
    a pass, and a play still pending."""
    game = sample_game()             # Ana: play, exchange, pass; Luis: withdrawn, challenged
    game.exchange(game.rack[:2])     # Luis
    game.play("H8 CASALO")           # Ana, pending: L and O after CASA
    return game


def events(text: str, nick: str) -> list[list[str]]:
    """The fields after ``>nick:`` of each of that player's event lines."""
    return [line.split(":", 1)[1].split() for line in text.splitlines()
            if line.startswith(f">{nick}:")]


def shows_only_the_table(text: str, nick: str) -> None:
    """Each line of ``nick`` shows as rack only the tiles its play laid on the board (a blank as
    ``?``), and of a pass or an exchange no tile at all: an exchange is a count (art. 25)."""
    placed = None
    for fields in events(text, nick):
        if len(fields) == 5:  # a play: rack, square, word, +score, total
            move = Move.parse(f"{fields[1]} {fields[2]}", gcg=True)
            placed = format_rack(T.BLANK if T.is_blank(t) else t
                                 for t in move.tiles if t != THROUGH)
            assert fields[0] == placed
        elif len(fields) == 4:  # the same play withdrawn (--) or challenged in vain
            assert fields[1] in ("--", "(challenge)") and fields[0] == placed
        else:  # a pass (-) or an exchange (-N): no rack field
            assert len(fields) == 3 and re.fullmatch(r"-\d*", fields[0]) and fields[1] == "+0"


def test_a_seat_sees_its_own_racks_and_only_the_opponents_board_tiles():  # art. 25
    game = game_in_progress()
    full, ana, luis = dumps(game), dumps(game, seat=0), dumps(game, seat=1)
    assert dumps(game, seat=ALL) == full
    assert "#rack1 " in full and "#rack2 " in full
    kinds = {(t.player, t.kind) for t in game.history}
    assert {(0, PLAY), (0, EXCHANGE), (1, WITHDRAWN), (1, PLAY), (1, EXCHANGE)} <= kinds
    assert game.pending.player == 0
    for text, me, other in ((ana, 0, 1), (luis, 1, 0)):
        nick, rival = ("Ana", "Luis")[me], ("Ana", "Luis")[other]
        lines = text.splitlines()
        assert f"#rack{me + 1} {game.rack_text(me)}" in lines
        assert not any(line.startswith(f"#rack{other + 1}") for line in lines)
        assert events(text, nick) == events(full, nick)  # own racks, leaves, exchanged tiles
        shows_only_the_table(text, rival)
        exchange = next(t for t in game.history if t.player == other and t.kind == EXCHANGE)
        assert [f"-{len(exchange.move.tiles)}", "+0"] in [f[:2] for f in events(text, rival)]
        assert lines[3] == f"#note Partida en curso vista por {game.players[me]} (sin el atril " \
                           f"de {game.players[other]})"
    assert ">Ana: LO 8H ....LO +" in luis  # the pending play: only its tiles, already on the board


def test_a_spectator_sees_no_rack():  # art. 25
    game = game_in_progress()
    text = dumps(game, seat=None)
    assert "#rack" not in text and "un espectador" in text
    for nick in ("Ana", "Luis"):
        shows_only_the_table(text, nick)


def test_once_over_every_seat_gets_the_full_record():  # art. 45.1
    game = game_in_progress()
    game.declare_blocked()
    full = dumps(game)
    assert dumps(game, seat=0) == dumps(game, seat=1) == dumps(game, seat=None) == full
    assert "#note Partida en curso vista por" not in full  # no seat's view
    same_game(game, loads(full))


def test_other_seats_are_refused():
    with pytest.raises(ValueError, match="asiento"):
        dumps(Game(), seat=2)


@pytest.mark.parametrize("seat", [0, 1, None])
def test_a_seat_record_is_refused_on_reading(seat):
    with pytest.raises(GcgError, match="no se puede reproducir exactamente") as err:
        loads(dumps(game_in_progress(), seat=seat))
    assert err.value.line == 4  # the #note


@pytest.mark.parametrize("event", [">Luis: - +0 0", ">Luis: -3 +0 0", ">Luis: 8H CASA +12 12",
                                   ">Luis: (challenge) +0 0", ">Luis: -- -12 0"])
def test_an_event_without_its_rack_is_refused_clearly(event):
    head = "#player1 Ana Ana\n#player2 Luis Luis\n>Ana: AACEIOS 8H CASA +12 12\n"
    with pytest.raises(GcgError, match="falta el atril; es una partida en curso vista por") as err:
        loads(head + event + "\n")
    assert err.value.line == 4


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10 ** 9))
def test_no_prefix_of_a_game_shows_a_hidden_tile(seed):  # art. 25
    game = random_game(seed)
    for n in range(len(game.history) + 1):
        states = [game.position_at(n)]
        if n < len(game.history) and game.history[n].kind in (PLAY, WITHDRAWN):
            pending = game.position_at(n)
            pending.play(game.history[n].move)
            states.append(pending)
        for state in states:
            full = dumps(state)
            if state.is_over():
                assert {dumps(state, seat=s) for s in (0, 1, None)} == {full}
                continue
            for seat in (0, 1, None):
                text = dumps(state, seat=seat)
                for p in (0, 1):
                    nick = state.players[p]
                    if p == seat:
                        assert events(text, nick) == events(full, nick)
                        assert f"#rack{p + 1} {state.rack_text(p)}" in text
                    else:
                        shows_only_the_table(text, nick)
                        assert f"#rack{p + 1}" not in text


# -- names come from people ------------------------------------------------------------------------
def test_a_name_cannot_add_lines():
    names = ["Ana\n>luis: ABC 8H ABC +99 99", "Luis\r\x85\u2028#rack1 ZZZ\x0b\u2029"]
    game = Game(names, draws=["CASAEIO", "PERROSL"])
    game.play("H8 CASA")
    game.accept()
    game.pass_()
    clean = ("Ana >luis: ABC 8H ABC +99 99", "Luis   #rack1 ZZZ  ")
    for seat in (ALL, 0, 1, None):
        text = dumps(game, seat=seat)
        lines = text.splitlines()  # str.splitlines: also \x85, \x0b, \u2028, \u2029
        assert text.split("\n")[:-1] == lines
        assert lines[1:3] == [f"#player1 Ana {clean[0]}", f"#player2 Luis {clean[1]}"]
        assert [line[:6] for line in lines if line.startswith(">")] == [">Ana: ", ">Luis:"]
        assert sum(line.startswith("#rack1") for line in lines) == (seat in (ALL, 0))
    same_game(game, loads(dumps(game)), players=(clean[0], clean[1].rstrip()))


# -- every ending survives a record (art. 45; FILE 2024's loss on time) ------------------------
def _ended(reason: str, ruleset: str) -> Game:
    """A game of ``ruleset`` that ended for ``reason``."""
    from atril.bag import Bag
    from atril.lexicon import Lexicon
    from atril.referee import can_play

    now = [0.0]
    clock = Clock(1, game_minutes=1, time_source=lambda: now[0])
    if reason == "blocked":
        nothing = Lexicon.from_words(["zzzz"])
        game = Game(["Ana", "Luis"], ruleset=ruleset, seed=3, lexicon=nothing,
                    can_play=can_play(nothing))
        game.bag = Bag(3, tiles=())
        game.declare_blocked()
        return game
    if reason == "out":  # a whole game between computers, as most games end
        from atril import players

        es09 = Lexicon.load("ES09")
        for seed in range(20):
            game = players.play_game([players.get("greedy", lexicon=es09)] * 2, seed=seed,
                                     lexicon=es09, ruleset=ruleset)
            if game.result is not None and game.result.reason == "out":
                return game
    game = Game(["Ana", "Luis"], ruleset=ruleset, clock=clock, draws=["CASAEIO", "PERROSL"])
    if reason == "passes":
        for _ in range(4):
            game.pass_()
    elif reason == "scoreless":
        game.play("H8 CASA")
        game.accept()
        for i in range(game.ruleset.max_scoreless_turns):
            game.exchange(game.rack[:1]) if i % 2 == 0 else game.pass_()
    elif reason == "time":  # art. 45.5: the game's own time, at equal turns
        now[0] = 61.0
        game.check_time()
    else:  # FILE 2024: more than 8 minutes over
        now[0] = 60 + 8 * 60 + 1
        game.check_time()
    assert game.result is not None and game.result.reason == reason, game.result
    return game


ENDINGS = [(reason, ruleset) for ruleset in ("FISE2004", "FISE2009", "FILE2018", "FILE2024")
           for reason in ("out", "passes", "scoreless", "blocked", "time", "overtime")
           if not (reason == "scoreless" and ruleset == "FISE2004")
           and not (reason == "passes" and ruleset == "FILE2024")
           and not (reason == "overtime" and ruleset != "FILE2024")]


@pytest.mark.parametrize("reason,ruleset", ENDINGS)
def test_every_ending_survives_the_record(reason, ruleset):  # art. 45 (2004: 40), 45.5, 35
    game = _ended(reason, ruleset)
    again = loads(dumps(game), ruleset=ruleset, lexicon=game.lexicon)
    assert again.result is not None
    assert (again.result.reason, again.result.scores, again.result.winner) == (
        game.result.reason, game.result.scores, game.result.winner)
    assert again.result.article == game.result.article
    assert dumps(again) == dumps(game)


def test_a_written_ending_must_be_the_games():
    text = dumps(_ended("passes", "FISE2009")).replace("#note final: passes", "#note final: out")
    with pytest.raises(GcgError, match="final escrito"):
        loads(text)
    with pytest.raises(GcgError, match="final desconocido"):
        loads(text.replace("#note final: out", "#note final: tablas"))


def test_the_words_challenged_are_kept_in_a_note():  # art. 40, 42.1
    game = Game(["Ana", "Luis"], seed=5, draws=["CASAEIO", "PERROSL"])
    game.play("H8 CASA")
    game.accept()
    game.play("I10 OS")                        # forms OS, SO and AS
    game.challenge(valid=True, words=["as"])  # a judge's verdict on AS alone
    game.play("J10 EI")                        # forms EI, SOE and ASI
    game.challenge(valid=False)                # on every word: withdrawn on a judge's verdict
    text = dumps(game)
    lines = text.splitlines()
    first, second = (lines.index(f"#note impugnadas: {words}") for words in ("AS", "EI SOE ASI"))
    assert lines[first - 1].split()[2:4] == ["(challenge)", "+0"]
    assert lines[second - 1].split()[2] == "--"
    same_game(game, loads(text))
    # a record without the notes reads as before: the challenge was on every word
    old = loads("\n".join(line for line in lines if not line.startswith("#note impugnadas")))
    assert [T.to_human(w) for w in old.history[1].challenged_words] == ["OS", "SO", "AS"]
    assert [t.kind for t in old.history] == [t.kind for t in game.history]
    with pytest.raises(GcgError, match="«CASA» no es una de las palabras") as err:
        loads(text.replace("impugnadas: AS", "impugnadas: CASA"))
    assert err.value.line == first + 1
    with pytest.raises(GcgError) as err:
        loads(text.replace("impugnadas: AS", "impugnadas: K"))
    assert err.value.line == first + 1
    after_a_play = text.replace(">Ana: AACEIOS 8H CASA +12 12\n",
                                ">Ana: AACEIOS 8H CASA +12 12\n#note impugnadas: ZZ\n")
    same_game(game, loads(after_a_play))  # after no challenge: a note like any other
