"""Error types. All are ``ValueError``, so callers may catch broadly or precisely (as in
python-chess)."""

from __future__ import annotations

from typing import Any

from .articles import broken, cite, renumber


class AtrilError(ValueError):
    """Base of every error atril raises for bad input. Its message cites articles in the
    numbering of the ruleset in force (``atril.articles``); ``article`` is the rule it breaks
    (the message's first "(art. …)"), None where it breaks none, so that front ends can show it
    apart."""

    article: str | None = None

    def __init__(self, *args: Any):
        if args and isinstance(args[0], str):
            args = (renumber(args[0]), *args[1:])
            if self.article is None:
                self.article = broken(args[0])
        super().__init__(*args)


class InvalidTextError(AtrilError):
    """Text that does not spell tiles, squares or a move (malformed input)."""


class InvalidMoveError(InvalidTextError):
    """A move whose text is malformed."""


class IllegalMoveError(AtrilError):
    """A well-formed move that breaks a rule here; ``article`` names the rule it breaks."""

    def __init__(self, message: str, article: str | None = None):
        self.article = cite(article)
        super().__init__(f"{message} (art. {article})" if article else message)  # renumbered


class InvalidPositionError(AtrilError):
    """A position (CGP) that is malformed or impossible with this tile set."""


class LexiconError(AtrilError):
    """A word list that cannot be read, or an unknown lexicon id."""
