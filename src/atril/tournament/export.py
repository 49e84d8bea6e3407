"""What a director prints or hands on: standings as CSV and HTML, and the pairing sheet of
a round as HTML (tables in order, and every player by name with their table, for the wall).

The HTML pages stand alone (no scripts, no files beside them) and print as they are: A4, a
table never split across a page break in the middle of a row, the header repeated on every
page; "Print → Save as PDF" in any browser makes the PDF.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Set
from html import escape

from ..i18n import _, current
from .model import Round, Tournament
from .standings import FIELDS, Standing, number

_STYLE = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 2em; color: #111; }
h1 { font-size: 1.4em; margin: 0 0 .2em; } h2 { font-size: 1.1em; margin: 1.2em 0 .4em; }
p.sub { margin: 0 0 1em; color: #444; }
table { border-collapse: collapse; width: 100%; font-size: .95em; }
th, td { border: 1px solid #999; padding: .25em .5em; text-align: left; }
th { background: #eee; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr:nth-child(even) td { background: #f7f7f7; }
.by-name { columns: 3; font-size: .9em; } .by-name div { break-inside: avoid; }
@page { size: A4; margin: 12mm; }
@media print {
  body { margin: 0; } thead { display: table-header-group; }
  tr { break-inside: avoid; page-break-inside: avoid; } .new-page { break-before: page; }
  tr:nth-child(even) td { background: none; }
}
"""


def _page(title: str, subtitle: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="{current()}"><head><meta charset="utf-8">'
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>"
            f'<h1>{escape(title)}</h1><p class="sub">{escape(subtitle)}</p>{body}'
            "</body></html>\n")


def _table(head: list[str], rows: list[list[str]], numeric: Set[int]) -> str:
    cells = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f'<td class="n">{escape(c)}</td>' if i in numeric
                         else f"<td>{escape(c)}</td>" for i, c in enumerate(row)) + "</tr>"
        for row in rows)
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


def _signed(x: float) -> str:
    return f"{number(x):+}" if x else "0"


#: the columns of ``standings_rows`` that hold numbers (aligned right).
STANDINGS_NUMBERS = frozenset({0, 2, 3, 4, 5, 6, 7, 8})


def standings_rows(rows: list[Standing]) -> tuple[list[str], list[list[str]]]:
    """The standings as a table a person reads (the CLI's text and the HTML page)."""
    head = [_("Pos."), _("Jugador"), _("V"), _("D"), _("Spread"), _("Mediana"), _("Buchholz"),
            _("SB"), _("Puntos")]
    body = [[str(r.rank), r.player.name, str(number(r.wins)), str(number(r.losses)),
             _signed(r.spread), str(number(r.median_buchholz)), str(number(r.buchholz)),
             str(number(r.sonneborn_berger)), str(r.points)] for r in rows]
    return head, body


def standings_html(t: Tournament, rows: list[Standing]) -> str:
    after = max((e.round for r in rows for e in r.entries), default=0)
    head, body = standings_rows(rows)
    return _page(t.name or _("Torneo"), _("Clasificación tras la ronda {round}").format(
        round=after), _table(head, body, STANDINGS_NUMBERS))


def standings_csv(rows: list[Standing]) -> str:
    """One row per player: the fields of the JSON standings and the total points."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*FIELDS, "points"])
    for r in rows:
        d = r.to_dict()
        writer.writerow([*(d[k] for k in FIELDS), r.points])
    return out.getvalue()


def pairing_rows(t: Tournament, rnd: Round) -> tuple[list[str], list[list[str]]]:
    """A round's tables (who starts in the first column) and byes, results when entered."""
    head = [_("Mesa"), _("Sale"), _("Contra"), _("Resultado")]
    body = []
    for g in rnd.games:
        first, second = (t.player(p).name for p in g.players)
        if g.forfeits:
            result = _("no presentado: {names}").format(
                names=", ".join(t.player(p).name for p in g.forfeits))
        else:
            result = f"{g.scores[0]}–{g.scores[1]}" if g.scores else ""
        body.append([str(g.table), first, second, result])
    for p, spread in rnd.byes.items():
        body.append(["", t.player(p).name, _("descansa") if spread > 0 else _("ausente"),
                     f"{spread:+}"])
    return head, body


def pairings_html(t: Tournament, rnd: Round) -> str:
    """The pairing sheet: the tables, then each player by name with their table."""
    head, body = pairing_rows(t, rnd)
    where = []
    for g in rnd.games:
        for p in g.players:
            where.append((t.player(p).name, _("mesa {table}").format(table=g.table)))
    for p in rnd.byes:
        where.append((t.player(p).name, _("descansa")))
    names = "".join(f"<div>{escape(n)} — {escape(w)}</div>"
                    for n, w in sorted(where, key=lambda x: x[0].casefold()))
    return _page(t.name or _("Torneo"), _("Ronda {round}: emparejamientos").format(
        round=rnd.number), _table(head, body, {0}) + f'<h2 class="new-page">'
        f'{escape(_("Por orden alfabético"))}</h2><div class="by-name">{names}</div>')
