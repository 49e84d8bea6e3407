"""``atril serve``: the web app (play in the browser)."""

from __future__ import annotations

import sys

import click

from . import main

#: the largest WebSocket frame accepted (an action is a few hundred bytes).
WS_MAX_BYTES = 64 * 1024


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Dirección donde escuchar.")
@click.option("--port", default=8000, show_default=True, type=int, help="Puerto.")
@click.option("--db", default=None, metavar="URL",
              help="Base de datos: fichero SQLite o postgresql://… (por defecto ATRIL_DB o un "
                   "fichero en la carpeta de datos del usuario).")
@click.option("--origin", "origins", multiple=True, metavar="URL",
              help="Otro origen cuyas páginas pueden jugar aquí (la dirección pública de un "
                   "proxy, p. ej. https://scrabble.example.org); se puede repetir.")
@click.option("--no-rate-limit", is_flag=True,
              help="Sin límites de peticiones por cliente (solo para bancos de pruebas).")
@click.option("--test-seeds", is_flag=True,
              help="Acepta la semilla de la bolsa que mande el cliente. SOLO PARA PRUEBAS: "
                   "quien elige la semilla conoce todas las fichas.")
def serve(host: str, port: int, db: str | None, origins: tuple[str, ...], no_rate_limit: bool,
          test_seeds: bool) -> None:
    """Juega al Scrabble en el navegador: abre la dirección que se muestra."""
    import uvicorn

    from ..web.app import create_app

    app = create_app(db, origins=origins, rate_limits=not no_rate_limit, test_seeds=test_seeds)
    store = app.state.store
    where = "PostgreSQL" if store.shared else store.url.removeprefix("sqlite:///")
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"atril: abre http://{shown}:{port}/ en el navegador  (partidas en {where})")
    if test_seeds:
        click.echo("atril: AVISO: semillas de prueba activadas; no juegues aquí partidas de verdad")
    sys.stdout.flush()
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_ping_interval=20,
                ws_max_size=WS_MAX_BYTES)
