"""A lookup's time budget, checked by the work itself.

A server that answers 503 when a lookup runs past its budget must also stop the lookup: a
thread cannot be killed, so the matcher checks a :class:`Deadline` between the steps of its
work (each error of a paste, each frame, each batch of candidate patterns) and gives up with
:class:`Overtime` there.  A step is small, so the work ends soon after the answer does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from errdex.errors import ErrdexError

__all__ = ["TIME_BUDGET", "Deadline", "Overtime"]

#: Seconds a server's lookup may take, unless its operator says otherwise.
TIME_BUDGET = 5.0


class Overtime(ErrdexError):
    """A lookup ran past its time budget and was stopped."""


@dataclass(frozen=True, slots=True)
class Deadline:
    """The moment (``time.monotonic()``) a lookup must be done by, and the budget it came from."""

    at: float
    budget: float

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        return cls(time.monotonic() + seconds, seconds)

    def left(self) -> float:
        """Seconds until the deadline, 0 once it has passed."""
        return max(0.0, self.at - time.monotonic())

    def check(self) -> None:
        """Raise :class:`Overtime` once the deadline has passed."""
        if time.monotonic() > self.at:
            raise self.overtime()

    def overtime(self) -> Overtime:
        return Overtime(f"the lookup took longer than {self.budget:g} s")


def check(deadline: Deadline | None) -> None:
    """``deadline.check()``, for work that may have no deadline (the CLI's)."""
    if deadline is not None:
        deadline.check()
