"""``atril admin``: the server's accounts from the command line (the first admin above all,
who then grants roles from the web)."""

from __future__ import annotations

import sys

import click

from ..i18n import N_, _
from . import Group, argument, main, option


@main.group(cls=Group, help=N_("Cuentas del servidor web (atril serve)."))
def admin() -> None:
    """The group; its commands follow."""


@admin.command(help=N_("Crea una cuenta de administrador con el nombre USUARIO; pide la clave "
                       "dos veces."))
@argument("name", metavar=N_("USUARIO"))
@option("--db", default=None, metavar=N_("URL"),
        help=N_("Base de datos: la de atril serve (por defecto ATRIL_DB o un fichero en la "
                "carpeta de datos del usuario)."))
@option("--password-stdin", is_flag=True,
        help=N_("Lee la clave de la entrada estándar (una línea) en vez de pedirla."))
def crear(name: str, db: str | None, password_stdin: bool) -> None:
    from ..web.accounts import Accounts
    from ..web.requests import ApiError
    from ..web.store import open_store

    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = click.prompt(_("Clave"), hide_input=True,
                                confirmation_prompt=_("Repite la clave"))
    store = open_store(db)
    try:
        user = Accounts(store).sign_up(name, password, granted=("admin",))
    except ApiError as exc:
        click.echo(_("error: {message}").format(message=exc.message), err=True)
        sys.exit(2)
    finally:
        store.close()
    click.echo(_("atril: {name} es administrador").format(name=user.name))
