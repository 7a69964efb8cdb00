"""The one family of exceptions the engine raises at its edges (loading, parsing, decoding)."""

from __future__ import annotations


class AdjutantError(ValueError):
    """Base class: every error the engine raises on bad input is one of these, with a readable message."""


class VariantError(AdjutantError):
    """A variant data file is missing, malformed or inconsistent."""


class OrderError(AdjutantError):
    """An order could not be read, or names something that is not there."""

    def __init__(self, message: str, text: str = "") -> None:
        super().__init__(f"{text}: {message}" if text else message)
        self.text = text
        self.reason = message


class GameFileError(AdjutantError):
    """A game file or link is corrupt, truncated, from a future version or otherwise unreadable."""


class BotError(AdjutantError):
    """A computer player was asked for what it cannot give: an unknown power or level, a finished game."""


class SetupError(AdjutantError):
    """A position set up (:mod:`adjutant.setup`) that cannot be played: ``problems`` names each thing wrong."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = tuple(problems)
        count = f"{len(problems)} problems" if len(problems) != 1 else "a problem"
        super().__init__(f"the position has {count}: " + "; ".join(problems))
