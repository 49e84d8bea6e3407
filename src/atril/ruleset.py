"""The rulesets atril knows, as data (docs/RULES.md §8): one frozen record each.

A ruleset says which end-of-game rules apply and how time is penalised; the game reads it and
holds no ``if year == ...`` of its own (the wolges way). Article numbers are those of each text.

>>> Ruleset.get("FISE2009").max_scoreless_turns
12
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import AtrilError
from .i18n import N_, _

DEFAULT = "FISE2009"


@dataclass(frozen=True)
class Ruleset:
    """One rules text, reduced to the numbers and switches a game needs."""

    name: str
    title: str  # Spanish, for people (a msgid: ``_(ruleset.title)`` where it is shown)
    #: lexicon id used when a game names none. The FILE 2018/2024 official list (*Lexicon para
    #: Scrabble 2017*, DLE 23) is not bundled, so every ruleset plays ES09 for now.
    lexicon: str = "ES09"
    #: consecutive passes that end the game: both players pass twice (2009 art. 45.2).
    max_passes: int = 4
    #: a play withdrawn after a challenge counts as a pass (2009 art. 45.2, 2004 art. 40.2).
    withdrawn_is_pass: bool = True
    #: consecutive turns of passes, withdrawn plays or exchanges that end the game, unless the
    #: score is still 0–0 (2009 art. 45.3); ``None`` where the text has no such rule.
    max_scoreless_turns: int | None = 12
    #: an exchange of n tiles needs at least max(n, this) tiles in the bag (art. 25; docs/FORMATS.md
    #: CGP ``etl``: Spanish = 1).
    exchange_min_bag: int = 1
    #: points off per minute, or part of a minute, over the player's clock time (art. 35).
    overtime_penalty: int = 10
    #: minutes over the clock beyond which the player loses the game; ``None``: no limit.
    overtime_limit: int | None = None

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


RULESETS: dict[str, Ruleset] = {r.name: r for r in (
    # FISE 2004 rev. 16.1: art. 40.1 blocked, 40.2 passes (withdrawn = pass), 40.3 out,
    # 40.4 time; no twelve-scoreless-turns rule; art. 32 overtime −10/min, no limit.
    Ruleset("FISE2004", N_("FISE, Reglamento oficial 2004 (rev. 16.1)"),
            max_scoreless_turns=None),
    # FISE 2009 v13, the reference: art. 45.1–45.5, art. 35.
    Ruleset("FISE2009", N_("FISE, Reglamento 2009 (v13)")),
    # The FILE 2018 summary names only passes (25.a) and going out (25.b); it is a
    # summary, so the rules it leaves unsaid are kept as in 2009 (and ReDeLetras art. 37.3,
    # wolges' Spanish config: twelve scoreless turns end the game).
    Ruleset("FILE2018", N_("FILE, Reglamento 2018")),
    # 2024: as 2018, and more than 8 minutes over the clock loses the game (docs/RULES.md §8).
    Ruleset("FILE2024", N_("FILE, Reglamento 2024"), overtime_limit=8),
)}
