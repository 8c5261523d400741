"""Dead Man's Chest's own statistics (``game_stats``) from the merged aggregates.

Win rates count outright wins (a shared win is a tie, never a win) with 95% Wilson
intervals; means carry 95% normal intervals from the exact sums and sums of squares.
"""

from __future__ import annotations

from analyzer.games.dead_mans_chest.components import Components
from analyzer.games.dead_mans_chest.layout import EVENTS, VALUE_PARTS
from analyzer.stats import mean_interval, wilson_interval


def component_names(components: Components) -> dict:
    """What the statistics need to name things (``Prepared.facts``)."""
    return {
        "components_file": components.path,
        "components_name": components.name,
        "components_sha256": components.sha256,
        "captain_names": [c.name for c in components.captains],
        "captain_loot": [c.loot for c in components.captains],
        "captain_starts": [components.routes[c.route].name for c in components.captains],
        "route_names": [r.name for r in components.routes],
        "route_titles": [r.title for r in components.routes],
        "ship_names": [s.name for s in components.ships],
        "ship_fees": [s.fee for s in components.ships],
        "ship_combat": [s.combat for s in components.ships],
        "mascot_names": [m.name for m in components.mascots],
        "mascot_fees": [m.fee for m in components.mascots],
    }


def wilson(successes: float, n: float) -> list[float]:
    return list(wilson_interval(successes, n))


def mean_ci(total: float, squares: float, n: float) -> tuple[float, list[float]]:
    """Mean and its 95% interval from a sum and a sum of squares over ``n`` values."""
    mean, _, half = mean_interval(total, squares, n)
    return mean, [mean - half, mean + half]


def _group(games, wins, ties, value_sum, value_sq) -> dict:
    """Win rate and mean final value of the players in a group (None when it never played)."""
    if games == 0:
        return {"games": 0, "win_rate": None, "win_rate_ci": None, "tie_rate": None, "mean_value": None,
                "mean_value_ci": None}
    mean, interval = mean_ci(value_sum, value_sq, games)
    return {
        "games": int(games),
        "win_rate": wins / games,
        "win_rate_ci": wilson(wins, games),
        "tie_rate": ties / games,
        "mean_value": mean,
        "mean_value_ci": interval,
    }


def _groups(totals, prefix: str, names: list[str], info: list[dict]) -> dict:
    """Per captain or per start route: ``info`` plus win rate and mean final value."""
    columns = [totals.as_float(f"{prefix}_{k}") for k in ("games", "wins", "ties", "value_sum", "value_sq")]
    return {name: {**info[i], **_group(*(c[i] for c in columns))} for i, name in enumerate(names)}


def _composition(parts) -> dict:
    """Mean final value parts per player of ``parts`` (sums over ``n`` players) and their total."""
    mean = dict(zip(VALUE_PARTS, parts, strict=True))
    mean["total"] = sum(v for part, v in mean.items() if part != "unpaid_loans") - mean["unpaid_loans"]
    return mean


def _events(totals, games: int) -> dict:
    """Raids, Shipyard waits, loans, tiles taken and the dry pile, per game with intervals."""
    count = {e: float(totals["events_sum"][i]) for i, e in enumerate(EVENTS)}
    per_game = {e: mean_ci(count[e], float(totals["events_sq"][i]), games) for i, e in enumerate(EVENTS)}
    return {
        "raids": {"per_game": per_game["raids"][0], "per_game_ci": per_game["raids"][1],
                  "attacker_success_rate": count["raid_wins"] / count["raids"] if count["raids"] else None,
                  "attacker_success_ci": wilson(count["raid_wins"], count["raids"]) if count["raids"] else None},
        "shipyard": {"waits_per_game": per_game["shipyard_waits"][0],
                     "waits_per_game_ci": per_game["shipyard_waits"][1],
                     "forced_loans_per_game": per_game["shipyard_loans"][0],
                     "forced_loans_per_game_ci": per_game["shipyard_loans"][1]},
        "loans": {"per_game": per_game["loans"][0], "per_game_ci": per_game["loans"][1]},
        "tiles_taken": {"per_game": per_game["tiles_taken"][0], "per_game_ci": per_game["tiles_taken"][1]},
        "tile_pile_ran_dry": {"rate": count["pile_ran_dry"] / games, "ci": wilson(count["pile_ran_dry"], games)},
    }


def _holdings(held, won, player_games: int, info: dict) -> dict:
    """How often a ship or mascot is held at the end, and its holders' win rate."""
    return {**info, "held_at_end": held / player_games, "win_rate_when_held": won / held if held else None}


def game_stats(totals, prepared) -> dict:
    s = prepared.facts
    games = int(totals["games"][0])
    players = prepared.players
    parts = totals.as_float("value_parts_sum")
    ship_games, ship_wins = totals.as_float("ship_games"), totals.as_float("ship_wins")
    mascot_games, mascot_wins = totals.as_float("mascot_games"), totals.as_float("mascot_wins")
    ships = {name: _holdings(ship_games[i], ship_wins[i], games * players,
                             {"fee": s["ship_fees"][i], "combat": s["ship_combat"][i]})
             for i, name in enumerate(s["ship_names"])}
    if ship_games[-1]:
        ships["no ship"] = _holdings(ship_games[-1], ship_wins[-1], games * players, {})
    captains = [{"start": start, "loot": loot} for start, loot in zip(s["captain_starts"], s["captain_loot"],
                                                                       strict=True)]
    return {
        "components_file": s["components_file"],
        "components_name": s["components_name"],
        "components_sha256": s["components_sha256"],
        "captains": _groups(totals, "captain", s["captain_names"], captains),
        "start_routes": _groups(totals, "route", s["route_names"], [{"title": t} for t in s["route_titles"]]),
        "final_value_composition": _composition(parts.sum(axis=0) / (games * players)),
        "final_value_composition_by_seat": [
            {"seat": seat + 1, "strategy": prepared.seats[seat].label, **_composition(parts[seat] / games)}
            for seat in range(players)
        ],
        **_events(totals, games),
        "ships": ships,
        "mascots": {name: _holdings(mascot_games[i], mascot_wins[i], games * players, {"fee": s["mascot_fees"][i]})
                    for i, name in enumerate(s["mascot_names"])},
    }


def _pct(x: float | None) -> str:
    return "    -" if x is None else f"{100 * x:5.1f}%"


def _rate_row(label: str, row: dict) -> str:
    """``label`` then win rate, its interval and the mean final value (or that it never played)."""
    if not row["games"]:
        return f"{label}   never played"
    lo, hi = row["win_rate_ci"]
    return f"{label} {_pct(row['win_rate']):>9} {_pct(lo)}-{_pct(hi):<8} {row['mean_value']:>11,.0f}"


def format_table(stats: dict) -> str:
    """``game_stats`` as text for the terminal."""
    lines = [f"Components: {stats['components_name']} ({stats['components_file']})", "",
             f"  {'captain':<24} {'start':<12} {'loot':>5} {'win rate':>9} {'95% interval':>16} {'mean value':>11}"]
    for name, row in stats["captains"].items():
        lines.append(_rate_row(f"  {name:<24} {row['start']:<12} {row['loot']:>5}", row))
    lines += ["", f"  {'start route':<43} {'win rate':>9} {'95% interval':>16} {'mean value':>11}"]
    for name, row in stats["start_routes"].items():
        lines.append(_rate_row(f"  {name:<43}", row))
    comp = stats["final_value_composition"]
    lines += ["", "Mean final value per player: " + ", ".join(
        f"{part.replace('_', ' ')} {comp[part]:,.0f}" for part in VALUE_PARTS) + f"; total {comp['total']:,.0f}"]
    raids = stats["raids"]
    lines.append(f"Raids per game {raids['per_game']:.2f}, "
                 f"attacker wins {_pct(raids['attacker_success_rate']).strip()}; "
                 f"Shipyard waits per game {stats['shipyard']['waits_per_game']:.3f}; "
                 f"loans per game {stats['loans']['per_game']:.3f}; "
                 f"tiles taken from players per game {stats['tiles_taken']['per_game']:.2f}; "
                 f"tile pile ran dry in {_pct(stats['tile_pile_ran_dry']['rate']).strip()} of games")
    return "\n".join(lines)
