"""lucky-pirates (Glücks-Piraten, HABA): a pure-luck race round a circle of cards."""

from __future__ import annotations

from typing import Any

from analyzer.engine.memory import padded_zeros
from analyzer.errors import AnalyzerError
from analyzer.games.base import Game, Prepared, Strategy, StrategyChoice
from analyzer.games.lucky_pirates import rules as rules_module
from analyzer.games.lucky_pirates.kernel import Inputs, Scratch, Tally, play_game
from analyzer.games.lucky_pirates.mechanics import (
    EV_DRY_DRAWS,
    EV_DUEL_GAINS,
    EV_DUEL_THROWS,
    EV_DUELS,
    EV_ISLAND_GAINS,
    EV_SHIP_TAKES,
    EV_STEALS,
    EVENT_NAMES,
    N_EVENTS,
)

NO_DECISIONS = Strategy(
    "none", "lucky-pirates has no decisions: every move is the die's, every duel the disks'"
)


class LuckyPirates(Game):
    id = "lucky-pirates"
    title = "Lucky Pirates (Glücks-Piraten)"
    description = "pure-luck race round a circle of cards: first to 5 treasures, duels on shared cards"
    min_players = 2
    max_players = 4
    default_players = 4
    score_unit = "treasures"
    length_units = ("turns", "rounds")
    options = rules_module.OPTIONS
    strategies = (NO_DECISIONS,)
    default_strategy = "none"
    record_columns = EVENT_NAMES
    tally_type = Tally

    def strategy(self, name: str) -> Strategy:
        if name != NO_DECISIONS.name:
            raise AnalyzerError(
                f"lucky-pirates has no decisions, so no strategy {name!r}: its only strategy is 'none'"
            )
        return NO_DECISIONS

    def check_rules(self, rules: dict[str, Any], players: int) -> None:
        rules_module.check_rules(rules, players, self.min_players, self.max_players)

    def prepare(self, rules: dict[str, Any], players: int, seats: list[StrategyChoice]) -> Prepared:
        for seat in seats:
            self.strategy(seat.name)
        self.check_rules(rules, players)
        table = rules_module.table(rules, players)
        target = table.treasures_to_win
        return Prepared(
            players=players,
            rules=dict(rules),
            seats=list(seats),
            score_bins=(0, 1, target + 1),
            length_caps={"turns": table.max_turns, "rounds": -(-table.max_turns // players)},
            inputs=Inputs(
                circle=table.circle, die_faces=table.die_faces, two_ships_probability=table.two_ships_probability,
                treasures_to_win=target, treasure_supply=table.treasure_supply,
                duel_replaces_card=table.duel_replaces_card, steal_when_empty=table.steal_when_empty,
                max_turns=table.max_turns,
            ),
        )

    def play_function(self):
        return play_game

    def tally_shapes(self, prepared: Prepared) -> dict[str, tuple[int, ...]]:
        return {"event_totals": (N_EVENTS,), "event_games": (N_EVENTS,), "duel_sizes": (prepared.players + 1,),
                "won_in_duel": (1,)}

    def scratch(self, prepared: Prepared) -> Scratch:
        players = prepared.players
        return Scratch(positions=padded_zeros(players), treasures=padded_zeros(players), order=padded_zeros(players),
                       events=padded_zeros(N_EVENTS))

    def game_stats(self, totals, prepared: Prepared) -> dict[str, Any]:
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

    def game_stats_table(self, stats: dict[str, Any]) -> str:
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

    def commands(self):
        from analyzer.games.lucky_pirates.commands import COMMANDS

        return COMMANDS

    def exact(self, rules: dict[str, Any], players: int) -> dict[str, Any]:
        """Exact win probabilities and length by Markov chain (see :func:`commands.exact_solution`)."""
        from analyzer.games.lucky_pirates.commands import exact_solution

        return exact_solution(rules, players)


def _ratio(numerator: float, denominator: float) -> float | None:
    return float(numerator) / float(denominator) if denominator else None


GAME = LuckyPirates()
