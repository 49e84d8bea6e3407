"""The rulesets atril knows, as data (docs/RULES.md §8): one frozen record each.

A ruleset says which end-of-game rules apply and how time is penalised; the game reads it and
holds no ``if year == ...`` of its own (the wolges way). Messages cite FISE 2009's articles;
while a ruleset is ``in_force()`` they show its own text's numbers (``articles``).

>>> Ruleset.get("FISE2009").max_scoreless_turns
12
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from .articles import cite, numbering
from .errors import AtrilError
from .i18n import N_, _
from .move import EXCHANGE, PASS, WITHDRAWN

DEFAULT = "FISE2009"


@dataclass(frozen=True)
class Ruleset:
    """One rules text, reduced to the numbers and switches a game needs."""

    name: str
    title: str  # Spanish, for people (a msgid: ``_(ruleset.title)`` where it is shown)
    #: the bundled list a game plays when it names none and no list is installed for this
    #: ruleset (``lexicon``). The FILE list is not bundled: every ruleset plays ES09.
    bundled_lexicon: str = "ES09"
    #: the word list the text names, where atril's bundled lists (FISE 2009's word rules) are
    #: not it: a msgid, said when a game is set up with a bundled list (``lexicon.notice``).
    text_lexicon: str | None = None
    #: consecutive passes that end the game: both players pass twice (2009 art. 45.2); None
    #: where the text has no such rule of its own.
    max_passes: int | None = 4
    #: a play withdrawn after a challenge counts as a pass (2009 art. 45.2, 2004 art. 40.2).
    withdrawn_is_pass: bool = True
    #: consecutive scoreless turns that end the game (2009 art. 45.3: twelve); ``None`` where
    #: the text has no such rule. ``scoreless_counts``: the turns that count;
    #: ``scoreless_spares_zero``: not while the score is still 0–0 (the opening).
    max_scoreless_turns: int | None = 12
    scoreless_counts: tuple[str, ...] = (PASS, WITHDRAWN, EXCHANGE)
    scoreless_spares_zero: bool = True
    #: an exchange of n tiles needs at least max(n, this) tiles in the bag (art. 25; docs/FORMATS.md
    #: CGP ``etl``: Spanish = 1).
    exchange_min_bag: int = 1
    #: points off per minute, or part of a minute, over the player's clock time (art. 35).
    overtime_penalty: int = 10
    #: minutes over the clock beyond which the player loses the game; ``None``: no limit.
    overtime_limit: int | None = None
    #: a casual game, under no federation's name: the only one that may try words with the
    #: VOID challenge mode (art. 43 and 46.2 forbid testing words before playing them).
    casual: bool = False
    #: what a player should know when choosing it (a msgid; the rules atril had to decide).
    note: str | None = None
    #: the text its articles are cited from, and FISE 2009 article → that text's (docs/RULES.md
    #: tables; None: the text has no such rule, FISE 2009's is cited); None: FISE 2009 itself.
    text: str = "FISE 2009"
    articles: Mapping[str, str | None] | None = field(default=None, hash=False, compare=False,
                                                      repr=False)

    @property
    def lexicon(self) -> str:
        """The lexicon id a game under these rules plays when it names none: the list installed
        for it (``atril lexicon install``), else ``bundled_lexicon``."""
        from .lexicon import installed_for  # the user's registry, read each time

        return installed_for(self.name) or self.bundled_lexicon

    def article(self, number: str) -> str:
        """A FISE 2009 article in this ruleset's numbering (naming the text when it is not
        FISE 2009: ``"40.2 FISE 2004"``)."""
        with self.in_force():
            return cite(number) or number

    @contextlib.contextmanager
    def in_force(self) -> Iterator[None]:
        """Messages and errors made inside cite this ruleset's article numbers."""
        with numbering(self.text, self.articles):
            yield

    @staticmethod
    def get(name: str | Ruleset | None = None) -> Ruleset:
        """A ruleset by name (``"FISE2009"``, case and separators ignored); None = the default."""
        if isinstance(name, Ruleset):
            return name
        key = (name or DEFAULT).upper().replace(" ", "").replace("-", "").replace("_", "")
        try:
            return RULESETS[key]
        except KeyError:
            raise AtrilError(
                _("reglamento desconocido «{name}»; los disponibles son: {known}").format(
                    name=name, known=", ".join(RULESETS))) from None

    @staticmethod
    def names() -> tuple[str, ...]:
        return tuple(RULESETS)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Ruleset.get('{self.name}')"


# The rules atril cites, FISE 2009 → FISE 2004 (docs/RULES.md tables; 1–19 are the same but for
# the blank, whose two clauses swap).
_FISE2004: dict[str, str | None] = {
    "10.1": "10.2", "10.2": "10.1", "20": None, "21": "20", "22": "21", "23": "22", "24": "23",
    "25": "24", "26": "25", "27": "26", "28": "7", "29": "7", "30": "27", "31": "28",
    "31.1": "28.1", "32": "29", "32.1": "29", "32.2": "29", "33": "30", "34": "31",
    "34.1": "31", "34.2": "31.2", "35": "32", "38": "33", "39": "34", "40": None, "41": None,
    "42": "35", "42.1": "35", "42.6": "35.6", "43": "36", "44": None, "45": "40",
    "45.1": "40.1", "45.2": "40.2", "45.3": None, "45.4": "40.3", "45.5": "40.4",
    "46.2": "41.2"}
# FISE 2009 → the FILE 2018 summary (26 articles); FILE 2024 is read as 2018 (no 2024 text
# was at hand: docs/RULES.md §8).
_FILE2018: dict[str, str | None] = {
    "1": None, "2": "1", "3": None, "4": None, "5": None, "6": "4", "7": "5", "8": "6", "9": "7",
    "10": "8", "10.1": "8", "10.2": "8", "10.3": None, "10.4": None, "11": "9", "12": "10",
    "13": "11", "14": "12", "15": "13", "16": "14", "17": "15", "18": "16", "19": "17",
    "20": None, "21": None, "22": "18", "23": "18", "24": "18", "25": "19", "26": "20",
    "27": None, "28": "5", "29": "5", "30": "21", "31": None, "31.1": None, "32": "5",
    "32.1": None, "32.2": None, "33": None, "34": None, "34.1": None, "34.2": None, "35": None,
    "38": "22", "39": "23", "40": None, "41": None, "42": None, "42.1": None, "42.6": None,
    "43": "24", "44": None, "45": "25", "45.1": None, "45.2": "25.a", "45.3": None,
    "45.4": "25.b", "45.5": None, "46.2": "26"}

#: the words of the FILE texts: 2018 art. 2 (docs/RULES.md §7).
_LEXICON_2017 = N_("el Lexicon para Scrabble 2017 (DLE, 23.ª edición)")

RULESETS: dict[str, Ruleset] = {r.name: r for r in (
    # FISE 2004 rev. 16.1: art. 40.1 blocked, 40.2 passes (withdrawn = pass), 40.3 out,
    # 40.4 time; no twelve-scoreless-turns rule; art. 32 overtime −10/min, no limit. Its words:
    # art. 37–39 and the annex on word use (DRAE 22), not 2009's Reglamento de Léxico.
    Ruleset("FISE2004", N_("FISE, Reglamento oficial 2004 (rev. 16.1)"),
            max_scoreless_turns=None, text="FISE 2004", articles=_FISE2004,
            text_lexicon=N_("el DRAE (22.ª edición) con las normas de uso de palabras de 2004")),
    # FISE 2009 v13, the reference: art. 45.1–45.5, art. 35.
    Ruleset("FISE2009", N_("FISE, Reglamento 2009 (v13)")),
    # The FILE 2018 summary names only passes (25.a) and going out (25.b); it is a
    # summary, so the rules it leaves unsaid are kept as in 2009 (and ReDeLetras art. 37.3,
    # wolges' Spanish config: twelve scoreless turns end the game).
    Ruleset("FILE2018", N_("FILE, Reglamento 2018"), text="FILE 2018", articles=_FILE2018,
            text_lexicon=_LEXICON_2017,
            note=N_("El resumen de 2018 no trae la regla de los doce turnos sin puntuar ni las "
                    "del reloj: atril las aplica como el reglamento FISE 2009.")),
    # FILE 2024 practice, as a 2026 Spanish Scrabble manual states it: "except at the
    # opening, when the two players exchange or pass consecutively more than twice each"
    # the game ends, each losing their rack's value — six scoreless turns in a row (passes,
    # exchanges, withdrawn plays; three each), not at 0–0; no separate four-pass rule. More
    # than 8 minutes over the clock loses the game (docs/RULES.md §8).
    Ruleset("FILE2024", N_("FILE, Reglamento 2024"), overtime_limit=8, max_passes=None,
            max_scoreless_turns=6, text="FILE 2018", articles=_FILE2018,
            text_lexicon=_LEXICON_2017,
            note=N_("Seis turnos seguidos sin puntuar (pases, cambios o jugadas retiradas; "
                    "tres cada jugador) terminan la partida, salvo al empezar (0–0); quien "
                    "supera su tiempo en más de 8 minutos pierde. Se citan los artículos del "
                    "reglamento FILE 2018 (no se ha podido consultar el texto de 2024).")),
    # A casual game: FISE 2009's rules, and the only one that allows the VOID challenge mode.
    Ruleset("LIBRE", N_("Partida libre (no FISE)"), casual=True,
            note=N_("Una partida informal, no de la FISE ni de la FILE: permite el modo VOID, "
                    "en el que se pueden probar palabras antes de jugarlas.")),
)}
