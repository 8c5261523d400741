"""Lucky Pirates' strategies: there is nothing to decide, so one strategy, ``none``."""

from analyzer.games.base import Strategy

NO_DECISIONS = Strategy(
    "none", "lucky-pirates has no decisions: every move is the die's, every duel the disks'"
)
