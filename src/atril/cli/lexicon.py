"""``atril lexicon install|list|remove``: the word list each ruleset plays when a game names
none. An official list (FILE's *Lexicon para Scrabble*, say) is installed once, and its rulesets
play it from then on: ``atril play``, ``atril selfplay`` and ``atril serve`` alike."""

from __future__ import annotations

import click

from .. import lexicon as L
from ..errors import LexiconError
from ..i18n import N_, _
from ..ruleset import Ruleset
from . import Group, argument, echo_json, main, option
from .core import json_option

RULESET = click.Choice(Ruleset.names(), case_sensitive=False)


@main.group("lexicon", cls=Group,
            help=N_("La lista de palabras de cada reglamento: instala una vez una lista oficial "
                    "y la usarán por defecto los reglamentos que elijas."))
def lexicon_group() -> None:
    """The group; its commands follow."""


@lexicon_group.command(help=N_(
    "Instala una lista de palabras (.txt o .txt.gz, una por línea, o un .kwg): se compila una "
    "vez, se guarda en la carpeta de datos (ATRIL_DATA_DIR) y la usan por defecto los "
    "reglamentos de --for."))
@argument("path", metavar=N_("RUTA"))
@option("--for", "rulesets", multiple=True, required=True, type=RULESET,
        help=N_("Reglamento que la usará cuando la partida no indique léxico (se puede "
                "repetir)."))
@option("--id", "lex_id", default=None, metavar=N_("ID"),
        help=N_("Cómo se llamará la lista (en --lexicon y en las partidas); por defecto, el "
                "nombre del fichero."))
@json_option
def install(path: str, rulesets: tuple[str, ...], lex_id: str | None, as_json: bool) -> None:
    lexicon = L.install(path, rulesets, id=lex_id)
    names = [Ruleset.get(r).name for r in rulesets]
    if as_json:
        echo_json({"id": lexicon.id, "name": lexicon.name, "words": len(lexicon),
                   "rulesets": names})
        return
    click.echo(str(lexicon.report))
    click.echo(_("instalada la lista {id} ({words} palabras); la usan por defecto: {rulesets}")
               .format(id=lexicon.id, words=len(lexicon), rulesets=", ".join(names)))


@lexicon_group.command("list", help=N_(
    "Qué lista usa cada reglamento cuando la partida no indica léxico, y las listas "
    "instaladas."))
@json_option
def list_lexicons(as_json: bool) -> None:
    lists = L.installed()
    rows = []
    for name in Ruleset.names():
        rules = Ruleset.get(name)
        rows.append({"ruleset": name, "lexicon": rules.lexicon,
                     "installed": rules.lexicon in lists,
                     "text_lexicon": rules.text_lexicon and _(rules.text_lexicon)})
    if as_json:
        echo_json({"rulesets": rows, "installed": [
            {"id": i.id, "name": i.name, "words": i.words, "rulesets": list(i.rulesets),
             "path": str(i.path)} for i in lists.values()]})
        return
    for row in rows:
        kind = _("instalada") if row["installed"] else _("incluida")
        line = f"{row['ruleset']:<10} {row['lexicon']:<12} {kind}"
        if row["text_lexicon"] and not row["installed"]:
            line += "   " + _("(su texto usa {named})").format(named=row["text_lexicon"])
        click.echo(line)
    if not lists:
        click.echo(_("Ninguna lista instalada: atril lexicon install RUTA --for REGLAMENTO"))
    for entry in lists.values():
        click.echo(_("{id}: {words} palabras, de {name} ({path})").format(
            id=entry.id, words=entry.words, name=entry.name, path=entry.path))


@lexicon_group.command(help=N_(
    "Con --for, esos reglamentos vuelven a su lista incluida (la instalada se queda); con ID, "
    "se borra la lista instalada (y la dejan los reglamentos que la usaban)."))
@argument("lex_id", required=False, metavar=N_("[ID]"))
@option("--for", "rulesets", multiple=True, type=RULESET,
        help=N_("Reglamento que dejará de usar su lista instalada (se puede repetir)."))
def remove(lex_id: str | None, rulesets: tuple[str, ...]) -> None:
    if bool(lex_id) == bool(rulesets):
        raise LexiconError(_("indica una lista instalada (ID) o uno o más reglamentos (--for)"))
    if lex_id:
        rulesets = dropped = L.uninstall(lex_id)
        click.echo(_("borrada la lista {id}").format(id=lex_id.upper()))
    else:
        dropped = tuple(L.unassign(rulesets))
    for name in dict.fromkeys(Ruleset.get(r).name for r in rulesets):
        text = (_("{ruleset} vuelve a usar {lexicon}") if name in dropped else
                _("{ruleset} no tenía ninguna lista instalada: usa {lexicon}"))
        click.echo(text.format(ruleset=name, lexicon=Ruleset.get(name).lexicon))
