"""The word judge for challenges (art. 39–40) and the judgment log kept for the director.

All the words of one play are judged together and the verdict is only «JUGADA CORRECTA» or
«JUGADA NO VÁLIDA»: by art. 40 it never says which word failed, so nothing here returns
per-word results. Text that cannot be a word (a K, a digit, junk) is simply not a word: the
verdict is «JUGADA NO VÁLIDA», not an error that would point at the culprit.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from . import tiles as T
from .errors import AtrilError, InvalidTextError
from .i18n import _
from .rules import verdict
from .wordtools import Source, kwg_of

#: most words one play can form: one along the line plus one across per placed tile.
MAX_WORDS = 16
_WORD_SPLIT = re.compile(r"[\s,;]+")


@dataclass(frozen=True)
class Judgment:
    """One challenge: the words as typed, the verdict, and when it was given."""

    words: tuple[str, ...]
    valid: bool
    time: datetime = field(default_factory=lambda: datetime.now(UTC))

    @property
    def verdict(self) -> str:
        """«JUGADA CORRECTA» or «JUGADA NO VÁLIDA», in the current language."""
        return verdict(self.valid).upper()

    def to_json(self) -> dict:
        """What a player may see: the verdict only (art. 40)."""
        return {"verdict": self.verdict, "valid": self.valid}


def split_words(text: str) -> tuple[str, ...]:
    """The words of one play typed on a line, separated by spaces, commas or semicolons."""
    return tuple(w for w in _WORD_SPLIT.split(text.strip()) if w)


def judge(lexicon: Source, words: Iterable[str]) -> Judgment:
    """Judge the words of one play together (art. 40)."""
    words = tuple(w.strip() for w in words if w.strip())
    if not words:
        raise InvalidTextError(_("no hay palabras que juzgar"))
    if len(words) > MAX_WORDS:
        raise InvalidTextError(_("una jugada forma como mucho {words} palabras").format(
            words=MAX_WORDS))
    kwg = kwg_of(lexicon)
    valid = True
    for word in words:  # every word is looked at, so the time taken says nothing either
        try:
            tiles = T.tokenize_word(word)
        except InvalidTextError:
            valid = False
            continue
        valid = kwg.accepts(tiles) and valid
    return Judgment(words, valid)


class JudgmentLog:
    """Appends judgments as JSON lines (time, words, verdict): the tournament director's record.

    The log holds the words, so it is for the director's eyes; players only see verdicts.
    """

    def __init__(self, path: str | os.PathLike[str], lexicon_name: str | None = None) -> None:
        self.path = Path(path)
        self.lexicon_name = lexicon_name
        self._lock = threading.Lock()

    def record(self, judgment: Judgment) -> None:
        entry = {"time": judgment.time.isoformat(timespec="seconds"),
                 "words": list(judgment.words), "verdict": judgment.verdict}
        if self.lexicon_name:
            entry["lexicon"] = self.lexicon_name
        line = json.dumps(entry, ensure_ascii=False) + "\n"
        with self._lock:
            try:
                with self.path.open("a", encoding="utf-8") as f:
                    f.write(line)
            except OSError as exc:
                raise AtrilError(_("no se puede escribir el registro «{path}»: {error}").format(
                    path=self.path, error=exc.strerror or exc)) from None

    def read(self) -> list[dict]:
        """Every entry so far (for the director and the tests)."""
        if not self.path.exists():
            return []
        with self.path.open(encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
