"""``atril serve``: the web app (play in the browser)."""

from __future__ import annotations

import errno
import socket
import sys

import click

from ..errors import AtrilError
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
@option("--analisis-tiempo", "analysis_seconds", type=click.FloatRange(min=0, min_open=True),
        default=0.5, show_default=True, metavar=N_("S"),
        help=N_("Segundos de simulación por turno del análisis a fondo de una partida "
                "terminada (se hace de una en una, en segundo plano)."))
def serve(host: str, port: int, db: str | None, origins: tuple[str, ...], no_rate_limit: bool,
          test_seeds: bool, analysis_seconds: float) -> None:
    import uvicorn

    from ..web.app import create_app

    shown = f"[{host}]" if ":" in host else host
    sock = _listen(host, port, shown)
    app = create_app(db, origins=origins, rate_limits=not no_rate_limit, test_seeds=test_seeds,
                     analysis_seconds=analysis_seconds)
    store = app.state.store
    where = "PostgreSQL" if store.shared else store.url.removeprefix("sqlite:///")
    click.echo(_("atril: abre {address} en el navegador  (partidas en {where})").format(
        address=f"http://{shown}:{port}/", where=where))
    if test_seeds:
        click.echo(_("atril: AVISO: semillas de prueba activadas; no juegues aquí partidas de "
                     "verdad"))
    sys.stdout.flush()
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                           ws_ping_interval=20, ws_max_size=WS_MAX_BYTES))
    server.run(sockets=[sock])


def _listen(host: str, port: int, shown: str) -> socket.socket:
    """The server's socket, bound before anything is said (as uvicorn would bind it), so
    that a port in use is told in the user's language, with what to do."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise AtrilError(_("el puerto {port} ya está en uso en {host} (¿hay otro atril "
                               "serve abierto?): elige otro con --port, p. ej. atril serve "
                               "--port {other}").format(port=port, host=shown,
                                                        other=port + 1)) from None
        raise AtrilError(_("no se puede escuchar en {host}:{port}: {error}").format(
            host=shown, port=port, error=exc.strerror or exc)) from None
    sock.set_inheritable(True)
    return sock
