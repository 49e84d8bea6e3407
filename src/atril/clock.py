"""Time control (art. 30–35): a chess clock per player, the 2-minute turn timer, the game limit.

The time source is any callable returning seconds (default ``time.time``, a wall clock, so a
game stored by one process keeps counting in another); tests pass a hand-driven one.

Modes (art. 32, 34):

- ``"corrido"`` (running time): the clock passes to the opponent as soon as a play is submitted,
  and the opponent decides to accept or challenge on their own time, as in any of their turns —
  but art. 32.1 lets the opponent check the play on the mover's clock for up to 5 seconds.
  Online there is nobody to press the clock back, so the first ``CHECK_SECONDS`` of the
  opponent's decision are charged to the mover and the rest to the opponent: checking costs
  the decider nothing, and neither can stall on the other's time (after 5 s the decider's own
  clock runs). (At a table the mover's clock runs while they count; a program counts
  instantly.)
- ``"no corrido"``: both clocks stop when a play is submitted (34.1: "antes de contar los
  puntos") and stay stopped until the opponent accepts or challenges; then the opponent's
  clock starts. Exchanges and passes need no counting and pass the clock at once.

In both modes the clocks are stopped while a challenge is judged (34.2); the game's own time
limit never stops (42.6).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from .i18n import _

CORRIDO = "corrido"
NO_CORRIDO = "no corrido"
MODES = (CORRIDO, NO_CORRIDO)
TURN_TIMER_SECONDS = 120  # art. 31.1, 33: the electronic timer, 2 minutes a turn
CHECK_SECONDS = 5.0  # art. 32.1 (corrido): the opponent checks a play on the mover's clock

TimeSource = Callable[[], float]


class Clock:
    """Both players' clocks.

    ``minutes``: each player's total (art. 34; None = no chess clock, e.g. with the turn timer).
    ``turn_seconds``: a limit per turn (art. 31.1: 120). ``game_minutes``: the limit for the
    whole game (art. 30, 45.5), counted from the first ``start`` and never stopped.
    """

    def __init__(self, minutes: float | None = 30, *, mode: str = CORRIDO,
                 turn_seconds: float | None = None, game_minutes: float | None = None,
                 time_source: TimeSource = time.time):
        if mode not in MODES:
            raise ValueError(_("modo de tiempo desconocido «{mode}»: «corrido» o «no corrido»")
                             .format(mode=mode))
        self.minutes = minutes
        self.mode = mode
        self.turn_seconds = turn_seconds
        self.game_minutes = game_minutes
        self.time_source = time_source
        self.used = [0.0, 0.0]
        self.running: int | None = None
        self._since = 0.0  # time source value when the running clock was started
        self._turn_player: int | None = None
        self._turn_used = 0.0  # the current turn's time before the running stretch
        self.began: float | None = None  # time source value at the first start
        #: (the mover, seconds left): while the opponent checks a play, time charged to the mover
        self._check: tuple[int, float] | None = None

    # -- driving ------------------------------------------------------------------------------
    def start(self, player: int) -> None:
        """Run ``player``'s clock and stop the other one (pressing the clock, art. 32).

        A new turn starts when the clock goes to a different player than last time."""
        now = self.time_source()
        self._settle(now)
        if self.began is None:
            self.began = now
        if player != self._turn_player:
            self._turn_player = player
            self._turn_used = 0.0
        self.running = player
        self._since = now
        self._check = None

    def hand_over(self, player: int, grace: float = CHECK_SECONDS) -> None:
        """Pass the clock to ``player``, who must check the other's play: their first
        ``grace`` seconds are charged to the mover (art. 32.1, corrido)."""
        mover = 1 - player
        self.start(player)
        self._check = (mover, grace)

    def stop(self) -> None:
        """Stop both clocks (art. 34: counting in no corrido, a challenge, a dispute)."""
        self._settle(self.time_source())
        self.running = None

    def credit(self, seconds: float) -> None:
        """Give back ``seconds`` that passed while nobody could play (a server that was down):
        the running clock, the turn timer and the game's own limit go on as if they had not
        passed."""
        if self.running is not None:
            self._since += seconds
        if self.began is not None:
            self.began += seconds

    def _settle(self, now: float) -> None:
        if self.running is not None:
            spent = now - self._since
            checking = self._checking(spent)
            if self._check is not None:
                self.used[self._check[0]] += checking
                self._check = (self._check[0], self._check[1] - checking)
            self.used[self.running] += spent - checking
            self._turn_used += spent
            self._since = now

    def _checking(self, spent: float) -> float:
        """The part of ``spent`` running seconds that is still the mover's (art. 32.1)."""
        return 0.0 if self._check is None else min(spent, max(0.0, self._check[1]))

    # -- reading ------------------------------------------------------------------------------
    def used_seconds(self, player: int) -> float:
        if self.running is None:
            return self.used[player]
        spent = self.time_source() - self._since
        checking = self._checking(spent)
        if self.running == player:
            return self.used[player] + spent - checking
        return self.used[player] + (checking if self._check is not None
                                    and self._check[0] == player else 0.0)

    def remaining(self, player: int) -> float | None:
        """Seconds left on ``player``'s clock (negative when over); None without a chess clock."""
        if self.minutes is None:
            return None
        return self.minutes * 60 - self.used_seconds(player)

    def overtime_seconds(self, player: int) -> float:
        left = self.remaining(player)
        return 0.0 if left is None or left >= 0 else -left

    def overtime_minutes(self, player: int) -> int:
        """Minutes over, every started minute counting as one (art. 35)."""
        return math.ceil(self.overtime_seconds(player) / 60)

    def turn_elapsed(self) -> float:
        """Seconds the player to move has used in this turn."""
        extra = self.time_source() - self._since if self.running is not None else 0.0
        return self._turn_used + extra

    def turn_expired(self) -> bool:
        """The turn timer ran out (art. 33): no play may be started any more."""
        return self.turn_seconds is not None and self.turn_elapsed() > self.turn_seconds

    def game_elapsed(self) -> float:
        return 0.0 if self.began is None else self.time_source() - self.began

    def game_time_up(self) -> bool:
        """The whole game's time is over (art. 30, 45.5)."""
        return self.game_minutes is not None and self.game_elapsed() >= self.game_minutes * 60

    # -- storage ------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """Plain values; ``since`` and ``began`` are time-source readings, so a stored clock keeps
        counting when read back with the same (wall-clock) time source."""
        return {"minutes": self.minutes, "mode": self.mode, "turn_seconds": self.turn_seconds,
                "game_minutes": self.game_minutes, "used": list(self.used),
                "running": self.running, "since": self._since, "turn_player": self._turn_player,
                "turn_used": self._turn_used, "began": self.began,
                "check": None if self._check is None else list(self._check)}

    @classmethod
    def from_dict(cls, data: dict, *, time_source: TimeSource = time.time) -> Clock:
        clock = cls(data["minutes"], mode=data["mode"], turn_seconds=data["turn_seconds"],
                    game_minutes=data["game_minutes"], time_source=time_source)
        clock.restore(data)
        return clock

    def restore(self, data: dict) -> None:
        """Go back to the readings of ``to_dict`` (a refused action is undone this way)."""
        self.used = [float(x) for x in data["used"]]
        self.running = data["running"]
        self._since = data["since"]
        self._turn_player = data["turn_player"]
        self._turn_used = data["turn_used"]
        self.began = data["began"]
        check = data.get("check")  # (clocks stored before art. 32.1 was followed have none)
        self._check = None if check is None else (int(check[0]), float(check[1]))

    def __repr__(self) -> str:
        parts = [f"minutes={self.minutes!r}", f"mode={self.mode!r}"]
        if self.turn_seconds is not None:
            parts.append(f"turn_seconds={self.turn_seconds!r}")
        if self.game_minutes is not None:
            parts.append(f"game_minutes={self.game_minutes!r}")
        return f"Clock({', '.join(parts)})"

    def __str__(self) -> str:
        return " / ".join(_mmss(self.remaining(p)) if self.minutes is not None
                          else _mmss(self.used_seconds(p)) for p in (0, 1))


def _mmss(seconds: float | None) -> str:
    if seconds is None:
        return "--:--"
    sign = "-" if seconds < 0 else ""
    s = math.ceil(abs(seconds)) if seconds < 0 else int(seconds)
    return f"{sign}{s // 60:02d}:{s % 60:02d}"
