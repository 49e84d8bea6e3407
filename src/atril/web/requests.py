"""Reading what clients send: request bodies, lobby options, actions, tiles placed on squares.

Everything malformed becomes an ``ApiError`` with a 4xx status and a message in the request's
language; a move
that breaks a rule names its article. Bodies are read with a size cap while they arrive, JSON is
refused when nested too deep or when it holds text that is not Unicode (a lone surrogate), and
names are normalised (NFC) with control, invisible and direction-changing characters refused.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from starlette.requests import Request

from .. import tiles as T
from ..articles import cite, renumber
from ..board import NUM_SQUARES, SIZE, parse_square
from ..clock import MODES, TURN_TIMER_SECONDS
from ..errors import InvalidTextError
from ..game import Game
from ..i18n import N_, _
from ..move import THROUGH, Move
from ..referee import Action

COMPUTER, REMOTE, LOCAL = "computer", "remote", "local"


#: the largest JSON body (an action, the lobby's options) and its deepest nesting.
MAX_JSON_BYTES = 32 * 1024
MAX_JSON_DEPTH = 16
MAX_NAME = 30
#: the words a challenge may name: a play forms at most its main word and one across each of
#: its seven tiles, each word of at most fifteen tiles of at most two letters (art. 40).
MAX_CHALLENGED_WORDS = T.RACK_SIZE + 1
MAX_WORD_TEXT = 2 * SIZE
#: Unicode categories refused in names: controls (a newline would write lines into a GCG),
#: format characters (zero-width, bidi overrides), surrogates, private use, line separators.
_BAD_NAME_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


class ApiError(Exception):
    """A refused request: HTTP status, message, and the article when a rule says no."""

    def __init__(self, status: int, message: str, article: str | None = None):
        message = renumber(message)  # the articles of the game's ruleset, when one is in force
        super().__init__(message)
        self.status, self.message, self.article = status, message, cite(article)


#: what a request body is called in messages, unless the caller names it (a msgid).
BODY = N_("el cuerpo de la petición")


def _too_large(what: str, limit: int) -> ApiError:
    return ApiError(413, _("{what} es demasiado grande (máximo {size})").format(
        what=_(what), size=_size(limit)))


async def read_body(request: Request, limit: int, what: str = BODY) -> bytes:
    """The body, refused with 413 as soon as it grows past ``limit`` bytes (a declared
    ``Content-Length`` is not trusted, only checked early). ``what`` names it: a msgid."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise _too_large(what, limit)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _too_large(what, limit)
        chunks.append(chunk)
    return b"".join(chunks)


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n // 1024} KB"


def require_type(request: Request, media_type: str) -> None:
    """State-changing requests carry a type a cross-site form cannot send without asking
    first (CORS preflight), so another site cannot make a visitor's browser act here."""
    given = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if given != media_type:
        raise ApiError(415, _("esta petición debe enviarse como {type}").format(type=media_type))


def parse_json(raw: bytes | str, what: str = BODY) -> Any:
    """JSON from a client: UTF-8, at most ``MAX_JSON_DEPTH`` levels, every text valid Unicode
    (``what`` names it in messages: a msgid)."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError(400, _("{what} no es UTF-8 válido").format(what=_(what))) from None
    if len(raw) > MAX_JSON_BYTES:
        raise _too_large(what, MAX_JSON_BYTES)
    if _depth(raw) > MAX_JSON_DEPTH:
        raise ApiError(400, _("el JSON anida más de {levels} niveles").format(
            levels=MAX_JSON_DEPTH))
    try:
        value = json.loads(raw)
    except ValueError:
        raise ApiError(400, _("{what} no es JSON válido").format(what=_(what))) from None
    _check_text(value)
    return value


async def read_json(request: Request) -> Any:
    """The JSON body of a state-changing request (``application/json``, bounded)."""
    require_type(request, "application/json")
    return parse_json(await read_body(request, MAX_JSON_BYTES))


async def read_object(request: Request) -> dict:
    """A JSON object body (400 for any other JSON value)."""
    body = await read_json(request)
    if not isinstance(body, dict):
        raise ApiError(400, _("se esperaba un objeto JSON"))
    return body


def parse_frame(text: str | None) -> dict:
    """A WebSocket message from a client: a JSON object in a text frame (400 otherwise)."""
    if text is None:
        raise ApiError(400, _("se esperaba un mensaje de texto JSON, no datos binarios"))
    body = parse_json(text, N_("el mensaje"))
    if not isinstance(body, dict):
        raise ApiError(400, _("se esperaba un objeto JSON"))
    return body


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (checked before parsing, so a body of
    100,000 ``[`` costs a scan, not a recursion error)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _check_text(value: Any) -> None:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ApiError(400, _("el texto tiene caracteres que no son Unicode válido "
                                  "(un sustituto suelto, como \\ud800)")) from None
    elif isinstance(value, list):
        for item in value:
            _check_text(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key)
            _check_text(item)


def clean_name(name: str) -> str:
    """A name as people see it: NFC, trimmed, at most ``MAX_NAME`` characters, and nothing
    invisible or that changes lines or writing direction."""
    name = unicodedata.normalize("NFC", name).strip()
    for ch in name:
        if unicodedata.category(ch) in _BAD_NAME_CATEGORIES:
            raise ApiError(400, _("el nombre tiene un carácter no permitido ({code}): sin saltos "
                                  "de línea, controles ni caracteres invisibles").format(
                                      code=f"U+{ord(ch):04X}"))
    if len(name) > MAX_NAME:
        raise ApiError(400, _("el nombre es demasiado largo (máximo {most} caracteres)").format(
            most=MAX_NAME))
    return name



def parse_action(game: Game, action: str, body: dict) -> Action:
    """The referee's action for a request: ``accept``, ``challenge`` (``words``: the words
    challenged, all if absent), ``pass``, ``exchange`` (``tiles``) or ``play`` (``move`` in
    notation, or tiles ``placed`` on squares)."""
    if action in ("accept", "challenge"):
        if game.pending is None:
            raise ApiError(409, _("no hay ninguna jugada pendiente de aceptar o impugnar"), "38")
        if action == "accept":
            return Action.accept()
        return Action.challenge(words=_challenged_words(body.get("words")))
    return Action.of(_move(game, action, body))


def _challenged_words(words: object) -> list[str] | None:
    """The words a challenge names (art. 40): a list of one to ``MAX_CHALLENGED_WORDS`` texts
    of at most ``MAX_WORD_TEXT`` characters; None (every word) when absent. Whether the play
    formed them is the game's to say."""
    if words is None:
        return None
    if (not isinstance(words, list) or not 1 <= len(words) <= MAX_CHALLENGED_WORDS
            or not all(isinstance(w, str) and 0 < len(w) <= MAX_WORD_TEXT for w in words)):
        raise ApiError(400, _("«words» es una lista de 1 a {most} palabras de la jugada, cada "
                              "una un texto de hasta {length} letras: {example}").format(
                                  most=MAX_CHALLENGED_WORDS, length=MAX_WORD_TEXT,
                                  example='"words": ["CASA"]'), "40")
    return words


def _move(game: Game, action: str, body: dict) -> Move:
    if action == "pass":
        return Move.pass_()
    try:
        if action == "exchange":
            tiles = body.get("tiles")
            if isinstance(tiles, str):
                return Move.parse("cambio " + tiles)
            if not isinstance(tiles, list) or not tiles:
                raise ApiError(400, _("indica las fichas que cambias: {example}").format(
                    example='"tiles": ["A", "CH"]'), "25")
            return Move.exchange(tuple(_rack_tile(t) for t in tiles))
        text = body.get("move")
        if isinstance(text, str):
            move = Move.parse(text)
            if not move.is_play:
                raise ApiError(400, _("para cambiar o pasar usa las acciones «exchange» y "
                                      "«pass»"))
            return move
        return placement_move(game, body.get("placed"))
    except InvalidTextError as exc:
        raise ApiError(400, str(exc)) from None


def _rack_tile(name: object) -> int:
    """A rack tile named as the page shows it: ``A``, ``CH``, ``Ñ``, ``?`` for a blank."""
    if not isinstance(name, str):
        raise ApiError(400, _("cada ficha se escribe como texto: {example}").format(
            example='"A", "CH", "?"'))
    if name == "?":
        return T.BLANK
    return T.code(name.strip("[]"))


def _board_tile(name: object) -> int:
    """A placed tile: ``A``, ``CH``; lower case (``ch``) is a blank standing for that tile."""
    if not isinstance(name, str) or not name.strip("[]") or name == "?":
        raise ApiError(400, _("ficha no válida: un comodín debe decir qué letra es (art. 10.2)"),
                       "10.2")
    inner = name.strip("[]")
    tile = T.code(inner)
    return tile | T.BLANK_BIT if inner != inner.upper() else tile


def placement_move(game: Game, placed: object) -> Move:
    """The play made by tiles put on squares: ``[[square, tile], ...]`` with squares as
    indices (0–224) or Spanish names (``H8``). Gaps must be filled by board tiles (art. 8)."""
    if not isinstance(placed, list) or not placed:
        raise ApiError(400, _("falta la jugada: {placed} o {move}").format(
            placed='"placed": [["H8", "C"], …]', move='"move": "H8 CASA"'))
    tiles: dict[int, int] = {}
    for item in placed:
        if not isinstance(item, list) or len(item) != 2:
            raise ApiError(400, _("cada ficha colocada es [casilla, ficha]"))
        sq, name = item
        if isinstance(sq, str):
            sq = parse_square(sq)
        if not isinstance(sq, int) or isinstance(sq, bool) or not 0 <= sq < NUM_SQUARES:
            raise ApiError(400, _("casilla fuera del tablero: {square}").format(square=repr(sq)))
        if sq in tiles:
            raise ApiError(422, _("dos fichas en la misma casilla"), "8")
        tiles[sq] = _board_tile(name)
    board = game.board
    for sq in tiles:
        if board[sq]:
            raise ApiError(422, _("esa casilla ya está ocupada"), "8")
    rows = {sq // SIZE for sq in tiles}
    cols = {sq % SIZE for sq in tiles}
    if len(rows) > 1 and len(cols) > 1:
        raise ApiError(422, _("las fichas de una jugada van en una sola fila o columna"), "8")
    across = len(rows) == 1 and (len(tiles) > 1 or _has_side(board, min(tiles), 1))
    step = 1 if across else SIZE
    first, last = min(tiles), max(tiles)
    while (first % SIZE if across else first // SIZE) > 0 and board[first - step]:
        first -= step
    while (last % SIZE if across else last // SIZE) < SIZE - 1 and board[last + step]:
        last += step
    word = []
    for sq in range(first, last + 1, step):
        if sq in tiles:
            word.append(tiles[sq])
        elif board[sq]:
            word.append(THROUGH)
        else:
            raise ApiError(422, _("las fichas deben formar una sola palabra, sin huecos"), "8")
    return Move.play(first // SIZE, first % SIZE, across, tuple(word))


def _has_side(board, sq: int, step: int) -> bool:
    col = sq % SIZE
    return bool((col > 0 and board[sq - step]) or (col < SIZE - 1 and board[sq + step]))


def player_names(options: dict, mode: str) -> list[str]:
    names = options.get("names") or []
    if not isinstance(names, list) or len(names) > 2 or not all(isinstance(n, str) for n in names):
        raise ApiError(400, _("«names» es una lista de hasta dos nombres"))
    default = [_("Jugador 1"), _("Ordenador") if mode == COMPUTER else _("Jugador 2")]
    out = [(clean_name(n) or d) for n, d in zip(names + [""] * 2, default)]
    if mode == COMPUTER:
        out[1] = _("Ordenador")
    if out[0] == out[1]:
        out[1] += " (2)"
    return out


def clock_settings(options: dict) -> dict | None:
    """``Clock`` arguments from the lobby: minutes (0 = none), mode, the 2-minute timer."""
    minutes = options.get("minutes", 0)
    if not isinstance(minutes, (int, float)) or isinstance(minutes, bool) \
            or not 0 <= minutes <= 180:
        raise ApiError(400, _("los minutos del reloj van de 0 a 180"), "34")
    mode = options.get("clock_mode", MODES[0])
    if mode not in MODES:
        raise ApiError(400, _("tiempo «{mode}» desconocido: «corrido» o «no corrido»").format(
            mode=mode), "34")
    game_minutes = options.get("game_minutes", 0)
    if not isinstance(game_minutes, (int, float)) or isinstance(game_minutes, bool) \
            or not 0 <= game_minutes <= 600:
        raise ApiError(400, _("el tiempo de la partida va de 0 a 600 minutos"), "30")
    timer = bool(options.get("timer", False))
    if not minutes and not timer and not game_minutes:
        return None
    return {"minutes": minutes or None, "mode": mode,
            "turn_seconds": TURN_TIMER_SECONDS if timer else None,
            "game_minutes": game_minutes or None}
