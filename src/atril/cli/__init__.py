"""The ``atril`` command. Each group of subcommands lives in its own module and registers here."""

from __future__ import annotations

import json
import sys

import click

from ..errors import AtrilError


class _Main(click.Group):
    """Turns every bad-input error into a clear message and exit code 2, never a traceback."""

    def invoke(self, ctx: click.Context):
        wants_json = "--json" in ctx.args  # read before click consumes the arguments
        try:
            return super().invoke(ctx)
        except AtrilError as exc:
            fail(exc, json_output=wants_json)


def fail(exc: Exception, *, json_output: bool, code: int = 2) -> None:
    """Report an error (with its article when a rule is broken) and exit."""
    article = getattr(exc, "article", None)
    if json_output:
        click.echo(json.dumps({"error": str(exc), "article": article}, ensure_ascii=False))
    else:
        click.echo(f"error: {exc}", err=True)
    sys.exit(code)


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="atril")
def main() -> None:
    """atril: Scrabble en español según el reglamento FISE/FILE."""


def echo_json(data) -> None:
    click.echo(json.dumps(data, ensure_ascii=False))


__all__ = ["main", "fail", "echo_json"]

# Each module registers its commands.
from . import core  # noqa: E402,F401
from . import engine  # noqa: E402,F401
from . import words  # noqa: E402,F401
from . import web  # noqa: E402,F401
from . import game  # noqa: E402,F401
