"""The scoresheet (*planilla*, art. 5, 38, 41): every accepted turn with its points and both
running totals, then the end-of-game adjustments (art. 35, 45) and the final score.

Codes as players write them, in the points column as a hand-filled planilla has them: ``P`` a
pass, ``I`` a play withdrawn after a challenge (its play in the play column), ``C-x`` an
exchange of x tiles (the tiles stay secret, art. 25). A play still waiting for acceptance is not
on the sheet yet: writing its score is what accepts it (art. 38). Racks are written with their
digraph tiles in brackets (``DEIOR[RR]U``), so R+RR is never read as R+R+R. Articles are those
of the game's ruleset.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from . import tiles as T
from .game import EXCHANGE, PASS, PLAY, WITHDRAWN, Game
from .i18n import N_, _
from .rack import format_rack

#: each adjustment's note (a msgid) and the FISE 2009 article it cites.
_ADJUSTMENT_TEXT = {
    "rack": (N_("fichas en el atril (art. {article})"), "45"),
    "out": (N_("fichas del rival (art. {article})"), "45.4"),
    "time": (N_("tiempo excedido (art. {article})"), "35"),
}


@dataclass(frozen=True)
class Row:
    """One line: a turn (``number`` ≥ 1) or an adjustment (``number`` 0)."""

    number: int
    player: int
    name: str
    text: str  # the play in Spanish notation (none for a pass or an exchange), or the note
    points: int
    totals: tuple[int, int]
    mark: str | None = None  # P, I or C-x: written in the points column instead of a score

    @property
    def shown(self) -> str:
        """The points column as written by hand: the mark, a signed adjustment, the score."""
        if self.mark is not None:
            return self.mark
        return f"{self.points:+d}" if self.number == 0 else str(self.points)


@dataclass(frozen=True)
class Scoresheet:
    players: tuple[str, str]
    ruleset: str
    rows: tuple[Row, ...]
    result: str | None  # the summary once the game is over

    @classmethod
    def from_game(cls, game: Game) -> Scoresheet:
        totals = [0, 0]
        rows = []
        for n, turn in enumerate(game.history, start=1):
            totals[turn.player] += turn.points
            text = turn.notation() if turn.kind in (PLAY, WITHDRAWN) else ""
            if turn.challenged_words:  # art. 42.1: the words challenged are written down
                text = _("{play}, impugnadas: {words}").format(
                    play=text, words=" ".join(T.to_human(w) for w in turn.challenged_words))
            mark = {PLAY: None, WITHDRAWN: "I", PASS: "P",
                    EXCHANGE: f"C-{len(turn.move.tiles)}"}[turn.kind]
            rows.append(Row(n, turn.player, game.players[turn.player], text, turn.points,
                            (totals[0], totals[1]), mark))
        summary = None
        if game.result is not None:
            for a in game.result.adjustments:
                totals[a.player] += a.points
                note, article = _ADJUSTMENT_TEXT[a.kind]
                what = _(note).format(article=game.ruleset.article(article))
                if a.tiles:
                    what += ": " + format_rack(a.tiles)
                rows.append(Row(0, a.player, game.players[a.player], what, a.points,
                                (totals[0], totals[1])))
            r = game.result
            winner = (_("empate") if r.winner is None else
                      _("gana {name}").format(name=game.players[r.winner]))
            summary = (_("{a} {sa} – {b} {sb}: {winner}. Final: {text}.") if r.article is None
                       else _("{a} {sa} – {b} {sb}: {winner}. Final: {text} (art. {article}).")
                       ).format(a=game.players[0], sa=r.scores[0], b=game.players[1],
                                sb=r.scores[1], winner=winner, text=r.text, article=r.article)
        return cls((game.players[0], game.players[1]), game.ruleset.name, tuple(rows), summary)

    def to_dict(self) -> dict:
        return {"players": list(self.players), "ruleset": self.ruleset,
                "rows": [dict(asdict(r), totals=list(r.totals)) for r in self.rows],
                "result": self.result}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2)

    def to_text(self) -> str:
        """Aligned columns, as a sheet printed for the players to sign (art. 44)."""
        a, b = self.players
        # TRANSLATORS: the scoresheet's column headings: turn number, player, play, points.
        heads = _("nº"), _("jugador"), _("jugada"), _("puntos")
        name_w = max(len(heads[1]), len(a), len(b))
        text_w = max([len(heads[2])] + [len(r.text) for r in self.rows])
        points_w = max([6] + [len(r.shown) for r in self.rows])
        wa, wb = max(5, len(a)), max(5, len(b))
        header = (f"{heads[0]:>3}  {heads[1]:<{name_w}}  {heads[2]:<{text_w}}  "
                  f"{heads[3]:>{points_w}}  {a:>{wa}}  {b:>{wb}}")
        lines = [_("Planilla: {a} contra {b} ({ruleset})").format(a=a, b=b, ruleset=self.ruleset),
                 header, "-" * len(header)]
        for r in self.rows:
            number = str(r.number) if r.number else ""
            lines.append(f"{number:>3}  {r.name:<{name_w}}  {r.text:<{text_w}}  "
                         f"{r.shown:>{points_w}}  {r.totals[0]:>{wa}}  {r.totals[1]:>{wb}}")
        if self.result:
            lines += ["-" * len(header), self.result]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()

