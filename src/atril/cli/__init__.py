"""The ``atril`` command. Each group of subcommands lives in its own module and registers here.

Everything it prints is in the language of ``--lang`` (anywhere on the line: ``atril --lang en
check``, ``atril play --lang en``), else ``ATRIL_LANG``, else Spanish: atril's messages and
click's own ("Uso:", "Opciones:", "Error:"). Help texts and metavars are Spanish msgids marked
with ``N_``; the ``Command``, ``Option`` and ``Argument`` classes here translate them each time
click reads them (every command and option of atril is made with them).
"""

from __future__ import annotations

import functools
import gettext
import importlib.metadata
import json
import sys
from typing import Any

import click

from .. import i18n
from ..errors import AtrilError
from ..i18n import N_, _


def _translate_click() -> None:
    """click looks its own texts up with the stdlib's ``gettext`` and ``ngettext``, bound as
    ``_`` and ``ngettext`` in each of its modules when they load (the process-wide gettext
    domain, chosen by environment variables): point them at the click catalog of atril's
    current language instead."""
    import click.shell_completion  # noqa: F401  (click loads it only when completing)

    for name, module in list(sys.modules.items()):
        if name == "click" or name.startswith("click."):
            if getattr(module, "_", None) is gettext.gettext:
                setattr(module, "_", i18n.CLICK.gettext)  # noqa: B010 (a module's own name)
            if getattr(module, "ngettext", None) is gettext.ngettext:
                setattr(module, "ngettext", i18n.CLICK.ngettext)  # noqa: B010


_translate_click()


class _Translated:
    """A click attribute that holds a msgid (or a tuple of them: paragraphs) and reads back in
    the current language: click keeps help texts and metavars from when a command is defined and
    reads them only to print them."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = f"_msgid_{name}"

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self
        msgid = obj.__dict__.get(self.slot)
        if isinstance(msgid, tuple):
            return "\n\n".join(_(paragraph) for paragraph in msgid)
        return _(msgid) if msgid else msgid

    def __set__(self, obj: object, value: str | tuple[str, ...] | None) -> None:
        obj.__dict__[self.slot] = value


class _Texts:
    """Help texts in the current language, click's help option and usage line included."""

    help = _Translated()
    short_help = _Translated()
    epilog = _Translated()
    options_metavar = _Translated()

    def __init__(self, *args: Any, **attrs: Any) -> None:
        attrs.setdefault("options_metavar", N_("[OPCIONES]"))
        super().__init__(*args, **attrs)

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:  # click makes it once per command, in the language of that run
            option.help = i18n.CLICK.gettext("Show this message and exit.")
        return option


class Command(_Texts, click.Command):
    """An atril command: its help is a msgid."""


class Group(_Texts, click.Group):
    """A group of atril commands (``atril``, ``atril lexicon``): its help is a msgid, and so are
    its commands'."""

    command_class = Command
    subcommand_metavar = _Translated()

    def __init__(self, *args: Any, **attrs: Any) -> None:
        attrs.setdefault("subcommand_metavar", N_("ORDEN [ARGUMENTOS]..."))
        super().__init__(*args, **attrs)


class Option(click.Option):
    """An atril option: its help and metavar are msgids."""

    help = _Translated()
    metavar = _Translated()


class Argument(click.Argument):
    """An atril argument: its metavar is a msgid."""

    metavar = _Translated()


option = functools.partial(click.option, cls=Option)
argument = functools.partial(click.argument, cls=Argument)


def _asked_language(args: list[str]) -> str | None:
    """The language ``--lang`` asks for, wherever it is on the command line."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            return i18n.supported(args[i + 1])
        if arg.startswith("--lang="):
            return i18n.supported(arg.partition("=")[2])
    return None


class _Main(Group):
    """Runs in the language asked for, and turns every bad-input error into a clear message and
    exit code 2, never a traceback."""

    def main(self, args: Any = None, *rest: Any, **options: Any) -> Any:
        """The language is read before click parses the line, so that its errors (an unknown
        option, a missing argument) are in it too."""
        given = list(sys.argv[1:] if args is None else args)
        with i18n.use(_asked_language(given) or i18n.current()):
            return super().main(args, *rest, **options)

    def invoke(self, ctx: click.Context):
        wants_json = "--json" in ctx.args  # read before click consumes the arguments
        try:
            return super().invoke(ctx)
        except AtrilError as exc:
            fail(exc, json_output=wants_json)


def fail(exc: AtrilError, *, json_output: bool, code: int = 2) -> None:
    """Report an error (with its article when a rule is broken) and exit."""
    if json_output:
        click.echo(json.dumps({"error": str(exc), "article": exc.article}, ensure_ascii=False))
    else:
        click.echo(_("error: {message}").format(message=exc), err=True)
    sys.exit(code)


def _version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(_("atril, versión {version}").format(
            version=importlib.metadata.version("atril")))
        ctx.exit()


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]},
             help=N_("atril: Scrabble en español según el reglamento FISE/FILE."))
@option("--lang", type=click.Choice(i18n.LANGUAGES), expose_value=False,
        help=N_("Idioma de los mensajes (también ATRIL_LANG); por defecto, español."))
@option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
        help=N_("Muestra la versión y sale."))
def main() -> None:
    """The group: each subcommand registers itself (the modules imported below)."""


def echo_json(data) -> None:
    click.echo(json.dumps(data, ensure_ascii=False))


__all__ = ["main", "fail", "echo_json", "option", "argument", "Command", "Group", "Option",
           "Argument"]

# Each module registers its commands on ``main`` (so they are imported after it).
from . import (  # noqa: E402,F401
    admin,
    analysis,
    core,
    duplicate,
    endgame,
    engine,
    game,
    lexicon,
    tournament,
    web,
    words,
)
