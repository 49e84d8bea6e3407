"""``atril serve``: the web app (play in the browser)."""

from __future__ import annotations

import sys

import click

from ..i18n import N_, _
from . import main, option

#: the largest WebSocket frame accepted (an action is a few hundred bytes).
WS_MAX_BYTES = 64 * 1024


@main.command(help=N_("Juega al Scrabble en el navegador: abre la dirección que se muestra."))
@option("--host", default="127.0.0.1", show_default=True, metavar=N_("DIRECCIÓN"),
        help=N_("Dirección donde escuchar."))
@option("--port", default=8000, show_default=True, type=int, metavar=N_("PUERTO"),
        help=N_("Puerto."))
@option("--db", default=None, metavar=N_("URL"),
        help=N_("Base de datos: fichero SQLite o postgresql://… (por defecto ATRIL_DB o un "
                "fichero en la carpeta de datos del usuario)."))
@option("--origin", "origins", multiple=True, metavar=N_("URL"),
        help=N_("Otro origen cuyas páginas pueden jugar aquí (la dirección pública de un "
                "proxy, p. ej. https://scrabble.example.org); se puede repetir."))
@option("--no-rate-limit", is_flag=True,
        help=N_("Sin límites de peticiones por cliente (solo para bancos de pruebas)."))
@option("--test-seeds", is_flag=True,
        help=N_("Acepta la semilla de la bolsa que mande el cliente. SOLO PARA PRUEBAS: "
                "quien elige la semilla conoce todas las fichas."))
def serve(host: str, port: int, db: str | None, origins: tuple[str, ...], no_rate_limit: bool,
          test_seeds: bool) -> None:
    import uvicorn

    from ..web.app import create_app

    app = create_app(db, origins=origins, rate_limits=not no_rate_limit, test_seeds=test_seeds)
    store = app.state.store
    where = "PostgreSQL" if store.shared else store.url.removeprefix("sqlite:///")
    shown = f"[{host}]" if ":" in host else host
    click.echo(_("atril: abre {address} en el navegador  (partidas en {where})").format(
        address=f"http://{shown}:{port}/", where=where))
    if test_seeds:
        click.echo(_("atril: AVISO: semillas de prueba activadas; no juegues aquí partidas de "
                     "verdad"))
    sys.stdout.flush()
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_ping_interval=20,
                ws_max_size=WS_MAX_BYTES)
