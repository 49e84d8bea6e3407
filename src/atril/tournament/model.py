"""A tournament as data: settings, players, rounds, games and their results, and the one JSON
file that holds them (``Tournament.save``/``load``: a director backs it up or mails it).

Players are referred to by their number (1, 2, … in order of entry, as in TSH). A round holds
its games (who starts, the scores once entered, who forfeited) and its byes (a spread each:
positive for the bye of an odd field, negative for an absence scored as a loss, as TSH writes
them). Everything a director can get wrong raises ``TournamentError`` with a Spanish message
naming the player, round or field.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ..errors import AtrilError
from ..i18n import _

FORMAT = "atril-tournament"
VERSION = 1

#: pairing systems by their Spanish names (the CLI's ``--sistema``); ``manual`` marks a round
#: paired entirely by hand.
SYSTEMS = ("todos", "suizo", "rey", "gibson")
#: tie-breaks: the Spanish name a director types → the key in standings and JSON.
TIEBREAKS = {"mediana": "median_buchholz", "buchholz": "buchholz",
             "sb": "sonneborn_berger", "spread": "spread", "puntos": "points"}
DEFAULT_TIEBREAKS = ("median_buchholz", "sonneborn_berger", "spread")


class TournamentError(AtrilError):
    """Bad tournament input: an unknown player, a round not paired, a malformed file."""


def _field(obj: Any, key: str, kind: type, optional: bool = False) -> Any:
    """``obj[key]`` from a tournament file, checked to be a ``kind`` (or None if
    ``optional``)."""
    if not isinstance(obj, dict) or key not in obj:
        raise TournamentError(_("fichero de torneo no válido: falta «{field}»").format(field=key))
    value = obj[key]
    if (value is None and optional) or (isinstance(value, kind) and not (
            kind is int and isinstance(value, bool))):
        return value
    raise TournamentError(_("fichero de torneo no válido: «{field}» no puede ser {value}").format(
        field=key, value=json.dumps(value, ensure_ascii=False)))


def _numbers(values: list[Any], key: str, sizes: tuple[int, ...]) -> tuple[int, ...]:
    """A list of whole numbers of one of the ``sizes``."""
    if len(values) not in sizes or not all(isinstance(v, int) and not isinstance(v, bool)
                                           for v in values):
        raise TournamentError(_("fichero de torneo no válido: «{field}» no puede ser {value}")
                              .format(field=key, value=json.dumps(values, ensure_ascii=False)))
    return tuple(values)


def read_text(path: str | Path) -> str:
    """A file's text (UTF-8, a spreadsheet's byte-order mark allowed), or an error saying
    why not."""
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise TournamentError(_("no existe el fichero {path}").format(path=path)) from None
    except UnicodeDecodeError:
        raise TournamentError(_("{path}: no está en UTF-8").format(path=path)) from None
    except OSError as exc:
        raise TournamentError(_("no se puede leer {path}: {reason}").format(
            path=path, reason=exc.strerror or exc)) from None


@dataclass
class Settings:
    """What the director decides for the whole event.

    ``rounds``: how many rounds are planned (the Gibson check needs how many remain);
    ``system``: the plan when a round is paired without naming a system: ``suizo`` (Swiss, its
    last ``king_rounds`` rounds King of the Hill with the Gibson rule) or ``todos`` (round
    robin); ``bye_spread``: the spread of a bye and of a forfeit; ``max_spread``: the most one
    game can move the spread, for the Gibson check; ``prizes``: how many places win a prize;
    ``first_round``: ``rating`` or ``random`` order for the first Swiss round; ``draw_starts``:
    every game's first player drawn for (art. 4.4, team events); ``seed``: for the draws."""

    rounds: int | None = None
    system: str = "suizo"
    king_rounds: int = 2
    bye_spread: int = 50
    max_spread: int = 250
    prizes: int = 3
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS
    first_round: str = "rating"
    draw_starts: bool = False
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("rounds", "king_rounds", "bye_spread", "max_spread", "prizes", "seed"):
            _field(vars(self), name, int, optional=name == "rounds")
        _field(vars(self), "draw_starts", bool)
        if self.system not in ("suizo", "todos"):
            raise TournamentError(_("sistema «{name}» desconocido; los hay: suizo, todos").format(
                name=self.system))
        if self.first_round not in ("rating", "random"):
            raise TournamentError(_("primera ronda «{name}»: ha de ser rating o random").format(
                name=self.first_round))
        if self.bye_spread <= 0:
            raise TournamentError(_("el spread de un bye ha de ser positivo: un bye es una "
                                    "victoria"))
        self.tiebreaks = tuple(self.tiebreaks)
        for key in self.tiebreaks:
            if key not in TIEBREAKS.values():
                raise TournamentError(_("desempate «{name}» desconocido; los hay: {known}")
                                      .format(name=key, known=", ".join(TIEBREAKS)))

    def system_for(self, number: int) -> str:
        """The system that pairs round ``number`` by the plan."""
        if self.system == "todos":
            return "todos"
        if self.rounds is not None and number > self.rounds - self.king_rounds:
            return "gibson"
        return "suizo"


@dataclass
class Player:
    """One entrant. ``joined``: the first round they can be paired (a late entry's is later
    than 1); ``withdrawn``: the first round they are no longer paired."""

    number: int
    name: str
    rating: int | None = None
    rated_games: int = 0
    joined: int = 1
    withdrawn: int | None = None

    def active(self, round_number: int) -> bool:
        return self.joined <= round_number and (self.withdrawn is None
                                                or round_number < self.withdrawn)


@dataclass
class Game:
    """A board of a round. ``players``: their numbers, the one who starts first when known;
    ``starts``: who starts (None: not recorded, as in a .t file without it); ``scores``: in the
    order of ``players``, None until entered; ``forfeits``: who did not play (they lose by the
    bye spread, the other wins by it; both lose if both did not come)."""

    table: int
    players: tuple[int, int]
    starts: int | None = None
    scores: tuple[int, int] | None = None
    forfeits: tuple[int, ...] = ()

    @property
    def done(self) -> bool:
        return self.scores is not None or bool(self.forfeits)

    def opponent(self, number: int) -> int:
        a, b = self.players
        return b if number == a else a


@dataclass
class Round:
    """A round: the system that paired it, its games in table order and its byes (player
    number → spread: positive, the bye of an odd field; negative, an absence lost)."""

    number: int
    system: str
    games: list[Game] = field(default_factory=list)
    byes: dict[int, int] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        return all(g.done for g in self.games)

    def game_of(self, number: int) -> Game | None:
        for game in self.games:
            if number in game.players:
                return game
        return None

    def paired(self) -> Iterator[int]:
        """Every player this round pairs, byes included."""
        for game in self.games:
            yield from game.players
        yield from self.byes


@dataclass
class Tournament:
    """The whole event. Mutators check what they are given and raise ``TournamentError``."""

    name: str = ""
    settings: Settings = field(default_factory=Settings)
    players: list[Player] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)

    # --- players ------------------------------------------------------------------------

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    def add_player(self, name: str, rating: int | None = None, rated_games: int = 0) -> Player:
        """Register a player; once rounds are paired, a late entry from the next round on."""
        name = " ".join(name.split())
        if not name:
            raise TournamentError(_("el nombre del jugador está vacío"))
        if any(p.name.casefold() == name.casefold() for p in self.players):
            raise TournamentError(_("ya hay un jugador «{name}» en el torneo").format(name=name))
        player = Player(len(self.players) + 1, name, rating, rated_games,
                        joined=self.next_round)
        self.players.append(player)
        return player

    def withdraw(self, player: Player) -> None:
        """No longer pair ``player`` from the next round on (their results stay)."""
        if player.withdrawn is not None:
            raise TournamentError(_("«{name}» ya se retiró (ronda {round})").format(
                name=player.name, round=player.withdrawn))
        player.withdrawn = self.next_round

    def player(self, number: int) -> Player:
        if not 1 <= number <= len(self.players):
            raise TournamentError(_("no hay jugador número {number}").format(number=number))
        return self.players[number - 1]

    def find(self, text: str) -> Player:
        """A player by name (case aside) or by number."""
        wanted = " ".join(text.split()).casefold()
        for p in self.players:
            if p.name.casefold() == wanted:
                return p
        if wanted.isdigit() and 1 <= int(wanted) <= len(self.players):
            return self.players[int(wanted) - 1]
        raise TournamentError(_("no hay ningún jugador «{name}» en el torneo").format(name=text))

    def active(self, round_number: int) -> list[Player]:
        return [p for p in self.players if p.active(round_number)]

    # --- rounds and results ----------------------------------------------------------------

    def round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise TournamentError(_("la ronda {round} no está emparejada").format(round=number))
        return self.rounds[number - 1]

    def last_round(self) -> Round:
        if not self.rounds:
            raise TournamentError(_("aún no hay ninguna ronda emparejada"))
        return self.rounds[-1]

    def add_round(self, rnd: Round) -> None:
        if rnd.number != self.next_round:
            raise TournamentError(_("la ronda siguiente es la {round}").format(
                round=self.next_round))
        self.rounds.append(rnd)

    def unpair_last(self) -> Round:
        """Take back the last round's pairings, while none of its results is in."""
        rnd = self.last_round()
        if any(g.done for g in rnd.games):
            raise TournamentError(_("la ronda {round} ya tiene resultados; no se puede "
                                    "rehacer").format(round=rnd.number))
        return self.rounds.pop()

    def game_between(self, number: int, a: Player, b: Player) -> Game:
        """The game ``a`` and ``b`` play in round ``number``, or an error saying whom each
        plays instead."""
        rnd = self.round(number)
        game = rnd.game_of(a.number)
        if game is not None and b.number in game.players:
            return game
        raise TournamentError(_("«{a}» y «{b}» no juegan entre sí en la ronda {round} ({a} {what})")
                              .format(a=a.name, b=b.name, round=number,
                                      what=self.describe(rnd, a)))

    def describe(self, rnd: Round, player: Player) -> str:
        """Where ``player`` is in a round, as the errors say it."""
        game = rnd.game_of(player.number)
        if game is not None:
            return _("juega con {name} en la mesa {table}").format(
                name=self.player(game.opponent(player.number)).name, table=game.table)
        if player.number in rnd.byes:
            return _("descansa")
        return _("no juega")

    def record(self, number: int, a: Player, score_a: int, b: Player, score_b: int) -> Game:
        """Enter (or correct) the scores of the game between ``a`` and ``b``."""
        game = self.game_between(number, a, b)
        game.scores = (score_a, score_b) if game.players[0] == a.number else (score_b, score_a)
        game.forfeits = ()
        return game

    def forfeit(self, number: int, player: Player) -> Game:
        """``player`` did not come to their game of round ``number``: they lose by the bye
        spread (and if the opponent did not come either, both lose)."""
        rnd = self.round(number)
        game = rnd.game_of(player.number)
        if game is None:
            raise TournamentError(_("«{name}» no tiene partida en la ronda {round} ({what})")
                                  .format(name=player.name, round=number,
                                          what=self.describe(rnd, player)))
        game.scores = None
        game.forfeits = tuple(sorted({*game.forfeits, player.number}))
        return game

    def swap(self, number: int, a: Player, b: Player) -> list[Game]:
        """Make ``a`` and ``b`` meet in round ``number``; their former opponents meet each
        other (or one of them takes the bye that ``a`` or ``b`` had). Returns the new games,
        who starts not yet decided (``pairing.swap`` decides it)."""
        rnd = self.round(number)
        if a.number == b.number:
            raise TournamentError(_("un jugador no puede jugar consigo mismo"))
        games = [rnd.game_of(p.number) for p in (a, b)]
        if any(g is not None and g.done for g in games):
            raise TournamentError(_("la ronda {round} ya tiene el resultado de esas partidas")
                                  .format(round=number))
        for p in (a, b):
            if rnd.game_of(p.number) is None and p.number not in rnd.byes:
                raise TournamentError(_("«{name}» no está emparejado en la ronda {round}")
                                      .format(name=p.name, round=number))
        if games[0] is not None and games[0] is games[1]:
            return []
        old = [g for g in games if g is not None]
        others = [g.opponent(p.number) for p, g in zip((a, b), games) if g is not None]
        tables = sorted(g.table for g in old) or [max((g.table for g in rnd.games), default=0)
                                                 + 1]
        spreads = [rnd.byes.pop(p.number) for p in (a, b) if p.number in rnd.byes]
        new = [Game(tables[0], (a.number, b.number))]
        if len(others) == 2:
            new.append(Game(tables[1], (others[0], others[1])))
        elif others:
            rnd.byes[others[0]] = spreads[0]
        rnd.games = sorted([g for g in rnd.games if g not in old] + new, key=lambda g: g.table)
        return new

    # --- history ---------------------------------------------------------------------------

    def met(self) -> Counter[frozenset[int]]:
        """How many times each pair of players has been paired (forfeits included)."""
        return Counter(frozenset(g.players) for r in self.rounds for g in r.games)

    def byes_had(self) -> Counter[int]:
        """How many byes (positive spread) each player has had."""
        return Counter(p for r in self.rounds for p, s in r.byes.items() if s > 0)

    def starts(self, before: int | None = None) -> dict[int, list[bool]]:
        """Each player's known first-player history in the games played before round
        ``before`` (all by default), round by round: True = started."""
        out: dict[int, list[bool]] = {p.number: [] for p in self.players}
        for rnd in self.rounds[:None if before is None else before - 1]:
            for g in rnd.games:
                if g.starts is not None and not g.forfeits:
                    for p in g.players:
                        out[p].append(p == g.starts)
        return out

    # --- the file ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        settings = {f.name: getattr(self.settings, f.name) for f in fields(Settings)}
        settings["tiebreaks"] = list(self.settings.tiebreaks)
        return {
            "format": FORMAT, "version": VERSION, "name": self.name, "settings": settings,
            "players": [{f.name: getattr(p, f.name) for f in fields(Player)}
                        for p in self.players],
            "rounds": [{"number": r.number, "system": r.system,
                        "games": [{"table": g.table, "players": list(g.players),
                                   "starts": g.starts,
                                   "scores": list(g.scores) if g.scores else None,
                                   "forfeits": list(g.forfeits)} for g in r.games],
                        "byes": [{"player": p, "spread": s} for p, s in r.byes.items()]}
                       for r in self.rounds],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tournament:
        """The tournament a file holds; a field missing or of the wrong kind is named."""
        if data.get("format") != FORMAT:
            raise TournamentError(_("no es un fichero de torneo de atril"))
        try:
            settings = _field(data, "settings", dict)
            t = cls(_field(data, "name", str), Settings(**settings))
            for p in _field(data, "players", list):
                t.players.append(Player(
                    _field(p, "number", int), _field(p, "name", str),
                    _field(p, "rating", int, optional=True), _field(p, "rated_games", int),
                    _field(p, "joined", int), _field(p, "withdrawn", int, optional=True)))
            for r in _field(data, "rounds", list):
                games = []
                for g in _field(r, "games", list):
                    a, b = _numbers(_field(g, "players", list), "players", (2,))
                    scores = _field(g, "scores", list, optional=True)
                    if scores is not None:
                        sa, sb = _numbers(scores, "scores", (2,))
                    games.append(Game(
                        _field(g, "table", int), (a, b), _field(g, "starts", int, optional=True),
                        None if scores is None else (sa, sb),
                        _numbers(_field(g, "forfeits", list), "forfeits", (0, 1, 2))))
                t.rounds.append(Round(_field(r, "number", int), _field(r, "system", str), games,
                                      {_field(b, "player", int): _field(b, "spread", int)
                                       for b in _field(r, "byes", list)}))
        except TypeError:  # a settings field unknown or of the wrong kind
            raise TournamentError(_("fichero de torneo no válido: «{field}»").format(
                field="settings")) from None
        t.check()
        return t

    def check(self) -> None:
        """Every number refers to a player of the game or round it is in, and no one plays
        twice in a round."""
        for i, p in enumerate(self.players, 1):
            if p.number != i:
                raise TournamentError(_("el jugador {name} debería ser el número {number}")
                                      .format(name=p.name, number=i))
        for i, rnd in enumerate(self.rounds, 1):
            if rnd.number != i:
                raise TournamentError(_("la ronda {round} está fuera de su sitio").format(
                    round=rnd.number))
            seen = list(rnd.paired())
            for number in seen:
                self.player(number)
            for g in rnd.games:
                if not {g.starts, *g.forfeits} <= {None, *g.players}:
                    raise TournamentError(_("ronda {round}, mesa {table}: quien sale o quien no "
                                            "se presentó no juega en esa mesa").format(
                        round=i, table=g.table))
            if 0 in rnd.byes.values():
                raise TournamentError(_("la ronda {round} tiene un bye con spread 0").format(
                    round=i))
            twice = [n for n, k in Counter(seen).items() if k > 1]
            if twice:
                raise TournamentError(_("{name} está emparejado dos veces en la ronda {round}")
                                      .format(name=self.player(twice[0]).name, round=i))

    def save(self, path: str | Path) -> None:
        """Write the file whole or not at all (a temporary file renamed over it)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_dict(), ensure_ascii=False, indent=1) + "\n",
                       encoding="utf-8")
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str | Path) -> Tournament:
        text = read_text(path)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise TournamentError(_("{path}, línea {line}, columna {column}: JSON no válido")
                                  .format(path=path, line=exc.lineno, column=exc.colno)) from None
        if not isinstance(data, dict):
            raise TournamentError(_("no es un fichero de torneo de atril"))
        return cls.from_dict(data)
