"""``atril serve``: the web app (play in the browser)."""

from __future__ import annotations

import sys

import click

from . import main


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Dirección donde escuchar.")
@click.option("--port", default=8000, show_default=True, type=int, help="Puerto.")
@click.option("--db", default=None, metavar="URL",
              help="Base de datos: fichero SQLite o postgresql://… (por defecto ATRIL_DB o un "
                   "fichero en la carpeta de datos del usuario).")
def serve(host: str, port: int, db: str | None) -> None:
    """Juega al Scrabble en el navegador: abre la dirección que se muestra."""
    import uvicorn

    from ..web.app import create_app

    app = create_app(db)
    store = app.state.store
    where = "PostgreSQL" if store.shared else store.url.removeprefix("sqlite:///")
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"atril: abre http://{shown}:{port}/ en el navegador  (partidas en {where})")
    sys.stdout.flush()
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_ping_interval=20)
