"""Lucky Pirates' own statistics, from the merged aggregates."""

from __future__ import annotations

from typing import Any

from analyzer.games.lucky_pirates.mechanics import (
    EV_DRY_DRAWS,
    EV_DUEL_GAINS,
    EV_DUEL_THROWS,
    EV_DUELS,
    EV_ISLAND_GAINS,
    EV_SHIP_TAKES,
    EV_STEALS,
)


def game_stats(totals, prepared) -> dict[str, Any]:
    """Lucky Pirates' ``game_stats``: duels, ship takes, provisions, where treasures came from."""
    games = int(totals["games"][0])
    finished = games - int(totals["capped"][0])
    events = totals.as_float("event_totals")
    event_games = totals.as_float("event_games")
    duels = events[EV_DUELS]
    duel_sizes = totals.as_float("duel_sizes")
    hist = totals.as_float("score_hist")
    target = prepared.inputs.treasures_to_win
    # every non-winner's final holding; a winner holds exactly the target
    others = hist.sum(axis=0)[:target]
    return {
        "duels_per_game": _ratio(duels, games),
        "duel_throws_per_duel": _ratio(events[EV_DUEL_THROWS], duels),
        "games_with_duel_rate": _ratio(event_games[EV_DUELS], games),
        "duel_size_share": {
            str(k): _ratio(duel_sizes[k], duels) for k in range(2, prepared.players + 1)
        },
        "won_in_duel_rate": _ratio(float(totals["won_in_duel"][0]), finished),
        "ship_took_treasure_rate": _ratio(event_games[EV_SHIP_TAKES], games),
        "ship_takes_per_game": _ratio(events[EV_SHIP_TAKES], games),
        "provisions_ran_dry_rate": _ratio(event_games[EV_DRY_DRAWS], games),
        "dry_draws_per_game": _ratio(events[EV_DRY_DRAWS], games),
        "steals_per_game": _ratio(events[EV_STEALS], games),
        "island_treasures_per_game": _ratio(events[EV_ISLAND_GAINS], games),
        "duel_treasures_per_game": _ratio(events[EV_DUEL_GAINS], games),
        "final_treasures_of_others": {
            str(k): _ratio(others[k], others.sum()) for k in range(target)
        },
    }

def format_stats(stats: dict[str, Any]) -> str:
    """``game_stats`` as text for the terminal."""
    def pct(x):
        return "-" if x is None else f"{100 * x:.2f}%"

    def num(x):
        return "-" if x is None else f"{x:.3f}"

    sizes = ", ".join(f"{k} pirates {pct(v)}" for k, v in stats["duel_size_share"].items())
    others = ", ".join(f"{k}: {pct(v)}" for k, v in stats["final_treasures_of_others"].items())
    lines = [
        (f"duels per game          {num(stats['duels_per_game'])}"
         f"  (games with a duel {pct(stats['games_with_duel_rate'])})"),
        f"throws per duel         {num(stats['duel_throws_per_duel'])}",
        f"duel sizes              {sizes}",
        f"won by a duel           {pct(stats['won_in_duel_rate'])} of finished games",
        (f"ship took a treasure    {pct(stats['ship_took_treasure_rate'])} of games"
         f"  ({num(stats['ship_takes_per_game'])} per game)"),
        (f"provisions ran dry      {pct(stats['provisions_ran_dry_rate'])} of games"
         f"  ({num(stats['dry_draws_per_game'])} dry draws, "
         f"{num(stats['steals_per_game'])} steals per game)"),
        (f"treasures per game      {num(stats['island_treasures_per_game'])} from islands, "
         f"{num(stats['duel_treasures_per_game'])} from duels"),
        f"losers' final treasures {others}",
    ]
    return "\n".join(lines)


def _ratio(numerator: float, denominator: float) -> float | None:
    return float(numerator) / float(denominator) if denominator else None
