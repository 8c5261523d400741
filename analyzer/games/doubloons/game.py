"""Doubloons as an engine plug-in: options, strategies, kernel inputs, aggregates, statistics."""

from __future__ import annotations

import dataclasses

import numpy as np

from analyzer.engine.memory import padded_zeros
from analyzer.engine.play import run_chunk
from analyzer.errors import AnalyzerError
from analyzer.games.base import Game, Prepared, StrategyChoice
from analyzer.games.component_params import option_view
from analyzer.games.doubloons import rules as rules_module
from analyzer.games.doubloons import stats as stats_module
from analyzer.games.doubloons.coverage import COMPONENTS, MECHANICS
from analyzer.games.doubloons.inputs import Inputs
from analyzer.games.doubloons.kernel import RECORD_COLUMNS, Scratch, Tally, play_game
from analyzer.games.doubloons.play_area import new_play_area
from analyzer.games.doubloons.strategies import DEFAULT_STRATEGY, STRATEGIES, param_row
from analyzer.games.doubloons.turns import N_EVENTS, N_SPECIALS

#: the largest length a histogram holds; longer matches or rounds are counted there
HISTOGRAM_CAP = 20000


class Doubloons(Game):
    id = "doubloons"
    title = "Doubloons"
    description = "card game in the family of Garbage: open your 10 chests first; special cards; best of 3 rounds"
    min_players = 2
    max_players = 5
    default_players = 3
    score_unit = "rounds won"
    game_noun, games_noun = "match", "matches"
    length_units = ("turns", "rounds")
    options = rules_module.OPTIONS
    strategies = STRATEGIES
    default_strategy = DEFAULT_STRATEGY
    more_players_option = "allow_more_players"
    max_players_with_option = rules_module.MAX_PLAYERS_WITH_OPTION  # the play area is sized for it
    record_columns = RECORD_COLUMNS
    tally_type = Tally

    def check_rules(self, rules, players):
        low, high = self.player_range(rules)
        if not low <= players <= high:
            hint = "" if rules.get(self.more_players_option) else f" (set {self.more_players_option} for more)"
            raise AnalyzerError(f"doubloons is for {low} to {high} players, not {players}{hint}")
        rules_module.check_rules(rules, players)

    def component_tables(self, rules):
        """A card group's special cards as ``specials[NAME].count`` (a view of ``group_specials``)."""
        return (option_view("specials", self.option("group_specials"), rules),)

    def prepare(self, rules, players, seats: list[StrategyChoice]) -> Prepared:
        self.check_rules(rules, players)
        names = [s.name for s in STRATEGIES]
        max_rounds = rules_module.max_rounds(rules, players)
        return Prepared(
            players=players,
            rules=rules,
            seats=seats,
            score_bins=(0, 1, rules["rounds_to_win"] + 1),
            length_caps={"turns": min(max_rounds * rules_module.longest_round(rules, players), HISTOGRAM_CAP),
                         "rounds": max_rounds},
            inputs=Inputs(
                **rules_module.kernel_rules(rules, players),
                strategy_ids=np.array([names.index(s.name) for s in seats], dtype=np.int64),
                params=np.array([param_row(s.params) for s in seats], dtype=np.float64),
                audit=False,
            ),
        )

    def play_function(self):
        return play_game

    def tally_shapes(self, prepared):
        players = prepared.players
        round_turns_cap = min(rules_module.longest_round(prepared.rules, players), HISTOGRAM_CAP)
        per_seat = (players,)
        per_special = (players, N_SPECIALS)
        single = (1,)
        return {
            "round_turns": (round_turns_cap + 1,), "round_wins": per_seat, "round_wins_by_order": per_seat,
            "specials_drawn": per_special, "specials_taken": per_special, "specials_uncovered": per_special,
            "specials_used": per_special,
            "seat_turns": per_seat, "seat_discard_takes": per_seat, "seat_deck_refills": per_seat,
            "seat_lost_turns": per_seat, "seat_passes": per_seat, "seat_parrot_moves": per_seat,
            "rounds": single, "shared_rounds": single, "final_turn_wins": single, "rounds_parrot_left": single,
            "parrots_left": single, "rounds_refilled": single, "redeals": single, "audit_violations": single,
        }

    def tally_rules(self, prepared):
        """Per match: at most its rounds of each round count, at most its turns of each turn count."""
        from analyzer.engine.tally_limits import TallyRules

        rounds = rules_module.max_rounds(prepared.rules, prepared.players)
        turns = rounds * rules_module.longest_round(prepared.rules, prepared.players)
        per_round = ("round_turns", "round_wins", "round_wins_by_order", "rounds", "shared_rounds",
                     "rounds_parrot_left",
                     "rounds_refilled")
        per_turn = ("specials_drawn", "specials_taken", "seat_turns", "seat_discard_takes", "seat_deck_refills",
                    "seat_lost_turns", "seat_passes")
        limits = {key: (0, None) for key in self.tally_shapes(prepared)}
        limits.update({key: (0, rounds) for key in per_round})
        limits.update({key: (0, turns) for key in per_turn})
        return TallyRules(limits, at_most=[("seat_discard_takes", "seat_turns"), ("seat_lost_turns", "seat_turns"),
                                           ("seat_passes", "seat_turns"), ("shared_rounds", "rounds"),
                                           ("rounds_parrot_left", "rounds"), ("rounds_refilled", "rounds")])

    def scratch(self, prepared):
        pirates, shared = new_play_area(prepared.players, prepared.inputs.deck_size)
        return Scratch(pirates=pirates, shared=shared, events=padded_zeros((prepared.players, N_EVENTS)))

    def audit_games(self, prepared, seed, n_games) -> int:
        """Play ``n_games`` matches auditing the play area after the deal and every turn
        (card conservation and bookkeeping); returns the number of violations found."""
        audited = dataclasses.replace(prepared, inputs=prepared.inputs._replace(audit=True))
        aggregates, _ = run_chunk(self, audited, seed, 0, n_games)
        return int(aggregates["audit_violations"][0])

    def mechanics(self, prepared):
        return MECHANICS

    def components(self, prepared):
        return COMPONENTS

    def game_stats(self, totals, prepared):
        return stats_module.game_stats(totals, prepared)

    def round_start_wins(self, rules, stats):
        """Round wins by turn order within the round (the starter first), where the starter rotates."""
        return stats["round_wins"]["by_start_offset"] if rules["rotate_start"] else None

    def game_stats_table(self, stats):
        return stats_module.format_stats(stats)


GAME = Doubloons()
