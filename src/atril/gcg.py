"""GCG game records (docs/FORMATS.md §5: poslfit.com v1.2 + Macondo's extensions), Spanish tiles.

``dumps(game)`` writes UTF-8 text Macondo reads: ``[CH]``-style digraphs, ``.`` for tiles
already on the board, GCG coordinates (number first = across). ``loads(text)`` replays every
event through a ``Game``, so a record that breaks a rule or miscounts a score is refused with a
``GcgError`` naming the line.

Spanish specifics: a play that stood after a challenge is written ``(challenge) +0`` (no bonus,
no penalty); a withdrawn play is its play line then ``--``; the words challenged (art. 40,
42.1), for which GCG has no field, follow the challenge as ``#note impugnadas: CASA PE[RR]O``
(read back when present; the verdict the record gives still decides the replay); going out
(art. 45.4) writes both the gain of the player who went out and the loss of the opponent;
overtime is ``(time) -N``; a resignation, which GCG has no event for, is the note
``#note final: resign NICK`` (the last play stands, as after every ending).
GCG has no field for the ruleset or the seed: ``loads`` takes the ruleset as an argument.
The racks after the last turn, when no end-of-game line shows them, go in ``#rack1``/``#rack2``.

Who may read what: ``dumps(game, seat=...)``
--------------------------------------------
A full record shows every rack, so every leave and every draw. While the game is on, a seat
may know only its own racks, the opponent's plays and scores and, of an exchange, how many
tiles went face down (art. 25; the planilla writes C-x). So:

- ``seat=ALL`` (the default): the full record — finished games, library users, replays.
- ``seat=0`` or ``seat=1``: that player's record while the game is on. ``#rack`` only for
  their own current rack; their own lines as in the full record; the opponent's lines with,
  as rack, only the tiles a play put on the board (a blank as ``?``; a withdrawn or pending
  play too: they were seen), no rack at all for a pass or an exchange, and an exchange as a
  count (``-3``, as the GCG spec allows). A ``#note`` after the players says whose view it is.
- ``seat=None``: a spectator's record while the game is on: both players' lines as the
  opponent's above, no ``#rack``.
- Once ``game.is_over()`` every ``seat`` gives the full record, the same text as ``ALL``.

An unknown rack is left out, not guessed: records whose racks were not kept (Elise's, say)
give as a play's rack the tiles it played, and Macondo's writer leaves an unknown rack empty;
GCG has no placeholder for one (a letter or ``?`` would read as a tile). Such a record cannot
be replayed exactly (the hidden draws are unknown): ``loads`` refuses it with a ``GcgError``
that says so, at the ``#note`` ``dumps`` writes or at the first line without a rack.

Names come from people: control characters and line or paragraph separators in a name (or a
lexicon id) are written as spaces, so a name can never start a line of its own.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from . import tiles as T
from .board import Board
from .errors import AtrilError, InvalidTextError
from .game import END_REASONS, EXCHANGE, PASS, PLAY, SINGLE, WITHDRAWN, Game
from .i18n import N_, _
from .move import THROUGH, Move
from .rack import format_rack
from .referee import Action, Referee
from .rules import apply_play, check_play
from .ruleset import Ruleset


class GcgError(InvalidTextError):
    """A GCG record that cannot be read or replayed; ``line`` is 1-based (None: whole file)."""

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        super().__init__(_("GCG, línea {line}: {message}").format(line=line, message=message)
                         if line else _("GCG: {message}").format(message=message))


# -- writing --------------------------------------------------------------------------------------
ALL = "all"  #: ``dumps(game, seat=ALL)``: the full record, every rack shown

#: how ``dumps`` marks a record seen by one seat (or a spectator) while the game was on;
#: ``loads`` refuses such a record by it.
_VIEW_NOTE = "Partida en curso vista por"
#: how ``dumps`` writes the ending of a finished game (``#note final: time``; with the loser's
#: nick for a loss on time or a resignation), which the end-of-game lines alone cannot always
#: tell (art. 45.5, FILE 2024's overtime loss, resigning); ``loads`` ends the game as it says.
_ENDING_NOTE = "final:"
#: how ``dumps`` writes the words challenged after a challenge (art. 42.1), in machine text.
_CHALLENGED_NOTE = "impugnadas:"
#: the endings whose ``#note final:`` names the loser.
_LOSER_NAMED = ("overtime", "resign")


def dumps(game: Game, *, seat: int | str | None = ALL) -> str:
    """The game as GCG text (UTF-8), history, pending play and end of game included, as
    ``seat`` may know it (``ALL``, 0, 1 or None for a spectator: see the module docstring)."""
    if seat != ALL and seat not in (0, 1, None):
        raise AtrilError(_("«{seat}» no es un asiento: 0, 1, None (espectador) o gcg.ALL").format(
            seat=seat))
    players = [_one_line(name) for name in game.players]
    hidden = {0, 1} - {seat} if seat != ALL and not game.is_over() else set()
    nicks = _nicks(players)
    lines = ["#character-encoding UTF-8"]
    for i, (nick, name) in enumerate(zip(nicks, players), start=1):
        lines.append(f"#player{i} {nick} {name}")
    if hidden:
        lines.append(f"#note {_VIEW_NOTE} un espectador (sin los atriles de los jugadores)"
                     if not isinstance(seat, int) else
                     f"#note {_VIEW_NOTE} {players[seat]} (sin el atril de {players[1 - seat]})")
    lexicon = game.lexicon_id
    lines += [f"#lexicon {_one_line(lexicon)}",
              "#tile-distribution spanish",
              "#tile [CH] [ch]", "#tile [LL] [ll]", "#tile [RR] [rr]"]
    if game.result is None or game.result.reason in _LOSER_NAMED + ("time",):
        lines += [f"#rack{p + 1} {format_rack(game.racks[p])}" for p in (0, 1)
                  if p not in hidden]
    totals = [0, 0]
    turns = list(game.history) + ([game.pending] if game.pending else [])
    for turn in turns:
        p = turn.player
        if p not in hidden:
            rack = format_rack(turn.rack)
        else:  # what the table saw: the tiles laid on the board, nothing of a pass or exchange
            seen = turn.placed() if turn.kind in (PLAY, WITHDRAWN) else ()
            rack = format_rack(T.BLANK if T.is_blank(t) else t for _, t in seen)
        head = f">{nicks[p]}: {rack}" if rack else f">{nicks[p]}:"
        if turn.kind in (PLAY, WITHDRAWN):
            totals[p] += turn.score
            lines.append(f"{head} {_play_text(turn.move)} +{turn.score} {totals[p]}")
            if turn.kind == WITHDRAWN:
                totals[p] -= turn.score
                lines.append(f"{head} -- -{turn.score} {totals[p]}")
            elif turn.challenged:
                lines.append(f"{head} (challenge) +0 {totals[p]}")
            if turn.challenged_words:
                lines.append(f"#note {_CHALLENGED_NOTE} "
                             + " ".join(T.to_machine(w) for w in turn.challenged_words))
        elif turn.kind == EXCHANGE:  # art. 25: face down, only the count is seen
            given = len(turn.move.tiles) if p in hidden else format_rack(turn.move.tiles)
            lines.append(f"{head} -{given} +0 {totals[p]}")
        else:
            lines.append(f"{head} - +0 {totals[p]}")
    if game.result is not None:
        for a in game.result.adjustments:
            totals[a.player] += a.points
            nick, rack = nicks[a.player], format_rack(game.racks[a.player])
            if a.kind == "out":
                lines.append(f">{nick}: ({format_rack(a.tiles)}) +{a.points} {totals[a.player]}")
            elif a.kind == "rack":
                lines.append(f">{nick}: {rack} ({rack}) -{-a.points} {totals[a.player]}")
            else:
                lines.append(f">{nick}: {rack + ' ' if rack else ''}(time) -{-a.points} "
                             f"{totals[a.player]}")
    if game.result is not None:
        loser = "" if game.result.reason not in _LOSER_NAMED or game.result.winner is None else (
            " " + nicks[1 - game.result.winner])
        lines.append(f"#note {_ENDING_NOTE} {game.result.reason}{loser}")
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    """``text`` with control characters and line or paragraph separators as spaces: what
    comes from a person (a name) can never start a line (a forged event or pragma)."""
    return "".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in text)


def _nicks(players: Sequence[str]) -> list[str]:
    nicks = []
    for i, name in enumerate(players, start=1):
        words = name.split()
        nick = re.sub(r"[^\w]", "", words[0]) if words else ""
        nicks.append(nick or f"jugador{i}")
    return nicks if nicks[0] != nicks[1] else ["jugador1", "jugador2"]


def _play_text(move: Move) -> str:
    word = "".join("." if t == THROUGH else T.tile_to_machine(t) for t in move.tiles)
    return f"{move.coordinate(gcg=True)} {word}"


# -- reading --------------------------------------------------------------------------------------
@dataclass
class _Event:
    line: int
    player: int
    kind: str  # play withdrawn pass exchange challenge out rack time
    rack: tuple[int, ...] | None
    points: int
    total: int
    move: Move | None = None
    tiles: tuple[int, ...] = ()
    words: tuple[tuple[int, ...], ...] | None = None  # a challenge's, from its note
    note_line: int | None = None


_EVENT = re.compile(r"^>([^:\s]+):\s*(.*)$")
_SCORE = re.compile(r"^[+-]?\d+$")
_PARTIAL = N_("es una partida en curso vista por un jugador o un espectador, sin los atriles "
              "que no podía ver: no se puede reproducir exactamente")


def loads(text: str | bytes, *, ruleset: str | Ruleset | None = None, lexicon=None) -> Game:
    """Read a GCG record and replay it into a ``Game`` (no clock; single challenge mode)."""
    if isinstance(text, bytes):
        text = _decode(text)
    names: dict[int, tuple[str, str]] = {}
    final_racks: list[tuple[int, ...] | None] = [None, None]
    raw_events: list[tuple[int, str, str]] = []
    ending: tuple[int, list[str]] | None = None  # the ``#note final:`` line
    challenged: dict[int, tuple[int, str]] = {}  # event index → the note after it: line, words
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            keyword, _space, rest = line[1:].partition(" ")
            rest = rest.strip()
            if keyword in ("player1", "player2"):
                nick, _space, name = rest.partition(" ")
                if not nick:
                    raise GcgError(_("falta el apodo en #{keyword}").format(keyword=keyword),
                                   number)
                names[int(keyword[-1]) - 1] = (nick, name.strip() or nick)
            elif keyword in ("rack1", "rack2"):
                final_racks[int(keyword[-1]) - 1] = _rack(rest, number)
            elif keyword == "note" and rest.startswith(_VIEW_NOTE):
                raise GcgError(_(_PARTIAL), number)
            elif keyword == "note" and rest.startswith(_ENDING_NOTE):
                ending = (number, rest[len(_ENDING_NOTE):].split())
            elif keyword == "note" and rest.startswith(_CHALLENGED_NOTE) and raw_events:
                challenged[len(raw_events) - 1] = (number, rest[len(_CHALLENGED_NOTE):])
            elif keyword == "tile-distribution" and rest.lower() != "spanish":
                raise GcgError(_("distribución de fichas «{name}»: atril solo juega la española")
                               .format(name=rest), number)
            continue  # other pragmas (#title, #note, #lexicon, #tile…) carry no rule
        match = _EVENT.match(line)
        if not match:
            raise GcgError(_("no es un evento ni una directiva: «{line}»").format(line=line),
                           number)
        raw_events.append((number, match.group(1), match.group(2)))
    nick_to_player = {nick: p for p, (nick, _) in names.items()}
    for number, nick, _body in raw_events:
        if nick not in nick_to_player:
            if len(nick_to_player) == 2:
                raise GcgError(_("jugador desconocido «{nick}»").format(nick=nick), number)
            p = 0 if 0 not in names else 1
            names[p] = (nick, nick)
            nick_to_player[nick] = p
    if len(names) < 2:
        for p in (0, 1):
            names.setdefault(p, (f"jugador{p + 1}", f"Jugador {p + 1}"))
    events = [_parse_event(number, nick_to_player[nick], body)
              for number, nick, body in raw_events]
    for index, (number, words) in challenged.items():
        if events[index].kind in (WITHDRAWN, "challenge"):  # else a note like any other
            events[index].words = tuple(_tiles(word, number) for word in words.split())
            events[index].note_line = number
    turns = [e for e in events if e.kind in (PLAY, PASS, EXCHANGE)]
    first = turns[0].player if turns else 0
    draws = _draws(events, turns, first, final_racks, ended=ending is not None)
    try:
        game = Game((names[0][1], names[1][1]), ruleset=ruleset, seed=0, first=first,
                    challenge=SINGLE, lexicon=lexicon, draws=draws)
    except AtrilError as exc:
        raise GcgError(str(exc), turns[0].line if turns else None) from None
    with game.ruleset.in_force():  # errors cite the record's ruleset
        _replay(game, events, _ending(ending, nick_to_player))
    return game


def _decode(data: bytes) -> str:
    first = data.split(b"\n", 1)[0].strip().lower()
    if first.startswith(b"#character-encoding") and b"utf-8" in first:
        return data.decode("utf-8")
    return data.decode("iso-8859-1")  # the GCG default


def _tiles(text: str, line: int) -> tuple[int, ...]:
    try:
        return T.tokenize_machine(text)
    except InvalidTextError as exc:
        raise GcgError(str(exc), line) from None


def _rack(text: str, line: int) -> tuple[int, ...]:
    rack = _tiles(text.upper(), line)
    if len(rack) > T.RACK_SIZE:
        raise GcgError(_("un atril tiene como mucho 7 fichas: «{text}»").format(text=text), line)
    return rack


def _number(text: str, line: int) -> int:
    if not _SCORE.match(text):
        raise GcgError(_("se esperaba una puntuación, no «{text}»").format(text=text), line)
    return int(text)


def _parse_event(line: int, player: int, body: str) -> _Event:
    tokens = body.split()
    if len(tokens) < 2:
        raise GcgError(_("evento incompleto: «{event}»").format(event=body), line)
    total = _number(tokens[-1], line)
    if tokens[0] == "(time)" or (len(tokens) == 4 and tokens[1] == "(time)"):
        rack = _rack(tokens[0], line) if tokens[0] != "(time)" else ()
        return _Event(line, player, "time", rack, _number(tokens[-2], line), total)
    if _rack_left_out(tokens):
        raise GcgError(_("falta el atril; {why}").format(why=_(_PARTIAL)), line)
    if tokens[0].startswith("(") and len(tokens) == 3:
        return _Event(line, player, "out", None, _number(tokens[1], line), total,
                      tiles=_rack(tokens[0].strip("()"), line))
    if len(tokens) < 4:
        raise GcgError(_("evento incompleto: «{event}»").format(event=body), line)
    rack = _rack(tokens[0], line)
    what, points = tokens[1], _number(tokens[-2], line)
    if what == "--":
        return _Event(line, player, WITHDRAWN, rack, points, total)
    if what == "-":
        return _Event(line, player, PASS, rack, points, total)
    if what == "(challenge)":
        return _Event(line, player, "challenge", rack, points, total)
    if what.startswith("(") and what.endswith(")"):
        return _Event(line, player, "rack", rack, points, total, tiles=_rack(what[1:-1], line))
    if what.startswith("-"):
        if what[1:].isdigit():
            raise GcgError(_("un cambio sin decir qué fichas no se puede reproducir"), line)
        return _Event(line, player, EXCHANGE, rack, points, total, tiles=_rack(what[1:], line))
    if len(tokens) != 5:
        raise GcgError(_("una jugada es «ATRIL POSICIÓN PALABRA +PUNTOS TOTAL»: «{event}»")
                       .format(event=body), line)
    try:
        move = Move.parse(f"{tokens[1]} {tokens[2]}", gcg=True)
    except AtrilError as exc:
        raise GcgError(str(exc), line) from None
    return _Event(line, player, PLAY, rack, points, total, move=move)


def _rack_left_out(tokens: list[str]) -> bool:
    """An event without its rack field, as ``dumps`` writes an opponent's pass or exchange
    (and Macondo an unknown rack): a pass, exchange, withdrawal or challenge of three tokens,
    or a play of four whose third is its score."""
    if len(tokens) == 3:
        return tokens[0].startswith("-") or tokens[0] == "(challenge)"
    return len(tokens) == 4 and tokens[2].startswith("+") and not tokens[1].startswith(("-", "("))


def _draws(events: list[_Event], turns: list[_Event], first: int,
           final_racks: list[tuple[int, ...] | None], *, ended: bool
           ) -> list[tuple[int, ...] | None]:
    """What each draw from the bag must have yielded, from the racks the record shows: a rack
    is the previous leave plus what was drawn. Unknown draws are left to chance (None). A last
    play waits for a decision unless the record says the game ``ended`` after it."""
    for e in events:
        if e.kind == "out":
            final_racks[1 - e.player] = e.tiles
            final_racks[e.player] = ()
        elif e.kind in ("rack", "time") and e.rack is not None and final_racks[e.player] is None:
            final_racks[e.player] = e.rack
    board = Board()
    leaves: list[tuple[int, ...]] = []
    withdrawn = {id(e) for i, e in enumerate(events)
                 if e.kind == PLAY and i + 1 < len(events) and events[i + 1].kind == WITHDRAWN}
    for e in turns:
        assert e.rack is not None
        used: tuple[int, ...] = ()
        if e.kind == PLAY and id(e) not in withdrawn:
            assert e.move is not None
            try:
                scored = check_play(board, e.move)
            except AtrilError as exc:
                raise GcgError(str(exc), e.line) from None
            apply_play(board, scored)
            used = scored.placed_tiles()
        elif e.kind == EXCHANGE:
            used = e.tiles
        if Counter(used) - Counter(e.rack):
            raise GcgError(_("el atril {rack} no tiene las fichas jugadas").format(
                rack=format_rack(e.rack)), e.line)
        leaves.append(tuple((Counter(e.rack) - Counter(used)).elements()))
    racks_seen: dict[int, list[int]] = {0: [], 1: []}
    for k, e in enumerate(turns):
        racks_seen[e.player].append(k)

    def next_rack(p: int, after: int) -> tuple[tuple[int, ...] | None, int | None]:
        later = [k for k in racks_seen[p] if k > after]
        if later:
            return turns[later[0]].rack, turns[later[0]].line
        return final_racks[p], None

    draws: list[tuple[int, ...] | None] = []
    for p in (first, 1 - first):
        draws.append(next_rack(p, -1)[0])
    pending = events[-1] if events and events[-1].kind == PLAY and not ended else None
    for k, e in enumerate(turns):
        if e.kind == PASS or id(e) in withdrawn or e is pending:
            continue  # no draw: nothing, a withdrawn play, a play still waiting (art. 32, 38)
        rack, line = next_rack(e.player, k)
        if rack is None:
            draws.append(None)
            continue
        missing = Counter(leaves[k]) - Counter(rack)
        if missing:
            raise GcgError(_("el atril {rack} no conserva las fichas que quedaron ({leave})")
                           .format(rack=format_rack(rack), leave=format_rack(leaves[k])),
                           line or e.line)
        draws.append(tuple((Counter(rack) - Counter(leaves[k])).elements()))
    return draws


def _ending(note: tuple[int, list[str]] | None, nick_to_player: dict[str, int]
            ) -> tuple[int, str, int | None] | None:
    """The written ending (line, reason, loser) of a ``#note final:`` line, checked."""
    if note is None:
        return None
    line, words = note
    if not words or words[0] not in END_REASONS or len(words) > 2:
        raise GcgError(_("final desconocido: «{text}»").format(text=" ".join(words)), line)
    loser = None
    if words[0] in _LOSER_NAMED:
        if len(words) != 2 or words[1] not in nick_to_player:
            raise GcgError(_("falta quién pierde por tiempo") if words[0] == "overtime" else
                           _("falta quién abandona la partida"), line)
        loser = nick_to_player[words[1]]
    return line, words[0], loser


def _replay(game: Game, events: list[_Event], ending: tuple[int, str, int | None] | None
            ) -> None:
    end = [e for e in events if e.kind in ("out", "rack", "time")]
    referee = Referee(game)
    for e in events:
        try:
            _apply(referee, e)
        except GcgError:
            raise
        except AtrilError as exc:
            raise GcgError(str(exc), e.line) from None
    if end or ending is not None:
        line = end[0].line if end else ending[0]  # type: ignore[index]
        try:
            _apply_end(game, end, ending)
        except GcgError:
            raise
        except AtrilError as exc:
            raise GcgError(str(exc), line) from None


def _apply(referee: Referee, e: _Event) -> None:
    """One event of the record, through the referee: a move (which accepts a pending play,
    art. 38), or the verdict on a challenge the record gives."""
    game, p = referee.game, e.player
    if e.kind in (PLAY, PASS, EXCHANGE):
        if game.pending is not None and game.pending.player == p:
            raise GcgError(_("un jugador no juega dos veces seguidas"), e.line)
        if not game.is_over() and game.player_to_move != p:
            raise GcgError(_("le toca a {name}").format(name=game.players[game.player_to_move]),
                           e.line)
        if e.rack is not None and sorted(e.rack) != sorted(game.racks[p]):
            raise GcgError(_("el atril debería ser {rack}").format(rack=format_rack(game.racks[p])),
                           e.line)
        move = {PLAY: e.move, PASS: Move.pass_()}.get(e.kind) or Move.exchange(e.tiles)
        made = [ev.turn for ev in referee.act(Action.of(move)) if ev.turn and ev.kind == e.kind]
        if not made:  # accepting the play before it ended the game (art. 45.4)
            raise GcgError(_("la partida ya había terminado"), e.line)
        if e.points != made[-1].score:
            raise GcgError(_("la jugada vale {score}, no {written}").format(
                score=made[-1].score, written=e.points), e.line)
    elif e.kind in (WITHDRAWN, "challenge"):
        if game.pending is None or game.pending.player != p:
            raise GcgError(_("no hay ninguna jugada de este jugador que impugnar"), e.line)
        if e.kind == "challenge" and e.points != 0:
            raise GcgError(_("en español no hay premio ni castigo por impugnar (art. 39)"), e.line)
        if e.kind == WITHDRAWN and e.points != -game.pending.score:
            raise GcgError(_("al retirar la jugada se restan {score}").format(
                score=game.pending.score), e.line)
        try:
            referee.act(Action.challenge(verdict=e.kind == "challenge", words=e.words))
        except AtrilError as exc:  # the words of the note: not words the play formed
            raise GcgError(str(exc), e.note_line or e.line) from None
    else:
        return  # end-of-game lines are checked together in _apply_end
    if e.total != game.scores[p]:
        raise GcgError(_("el total de {name} es {total}, no {written}").format(
            name=game.players[p], total=game.scores[p], written=e.total), e.line)


def _apply_end(game: Game, end: list[_Event], ending: tuple[int, str, int | None] | None
               ) -> None:
    if game.pending is not None:
        game.accept()
    penalty = game.ruleset.overtime_penalty
    for e in end:
        if e.kind == "time":
            if e.points > 0 or -e.points % penalty:
                raise GcgError(_("el tiempo excedido resta múltiplos de {points} (art. 35)").format(
                    points=penalty), e.line)
            game.record_overtime(e.player, -e.points // penalty)
    if ending is not None and not game.is_over():
        game.end(ending[1], loser=ending[2])  # an ending the turns cannot show (45.5, time)
    elif not game.is_over():
        if any(e.kind == "rack" for e in end):
            game.declare_blocked()
        else:
            game.declare_time_up()
    assert game.result is not None
    if ending is not None and ending[1] != game.result.reason:
        raise GcgError(_("el final escrito («{written}») no es el de la partida («{real}»)")
                       .format(written=ending[1], real=game.result.reason), ending[0])
    expected = Counter((a.player, a.kind, a.points) for a in game.result.adjustments)
    found = Counter((e.player, e.kind, e.points) for e in end)
    if expected != found:
        want = ", ".join(f"{game.players[p]} {k} {pts:+d}" for p, k, pts in expected.elements())
        raise GcgError(_("el final no cuadra con el reglamento (art. 45): debería ser {want}")
                       .format(want=want), end[0].line if end else None)
    totals = list(game.scores)
    for e in end:
        totals[e.player] += e.points
        if e.total != totals[e.player]:
            raise GcgError(_("el total de {name} es {total}, no {written}").format(
                name=game.players[e.player], total=totals[e.player], written=e.total), e.line)
