"""Skull Island (Piraten Kapern): the push-your-luck dice game, 2 to 5 players."""

from __future__ import annotations

import numpy as np

from analyzer.engine.memory import padded_zeros
from analyzer.games.base import Game, Prepared, StrategyChoice, TimedAction
from analyzer.games.component_params import option_view
from analyzer.games.skull_island import rules as rules_module
from analyzer.games.skull_island import stats as stats_module
from analyzer.games.skull_island.components import N_CARDS
from analyzer.games.skull_island.coverage import CARD_TITLES, COMPONENTS, MECHANICS
from analyzer.games.skull_island.kernel import Inputs, Scratch, Tally, play_game
from analyzer.games.skull_island.state_tables import state_tables
from analyzer.games.skull_island.strategies import DEFAULT_STRATEGY, STRATEGIES, kernel_index, param_row

SCORE_BINS = (-20000, 100, 800)  # final totals from -20,000 to 60,000 in steps of 100


def _dice_rolled(totals, prepared: Prepared) -> float:
    """Dice rolled over all the games of a run (for the playing time's seconds per die)."""
    return float(totals["dice_rolled"][0])


#: the most dice a turn rolls: 8 at first, then at most 8 per reroll, 8,000 rerolls (and a sorceress's die)
DICE_PER_TURN = 8 + 8 * 8_000 + 1


class SkullIsland(Game):
    id = "skull-island"
    title = "Skull Island (Piraten Kapern)"
    description = "push-your-luck dice game: roll 8 dice, bank sets, coins and diamonds; first to 6000"
    min_players = 2
    max_players = 5
    default_players = 4
    score_unit = "points"
    length_units = ("rounds", "turns")
    options = rules_module.OPTIONS
    strategies = STRATEGIES
    default_strategy = DEFAULT_STRATEGY
    more_players_option = "allow_more_players"
    seat_compensation_option = "seat_bonus"
    seat_compensation_span = 1000
    max_players_with_option = 8
    tally_type = Tally

    def check_rules(self, rules, players):
        rules_module.check_rules(rules)

    def option_step(self, name, rules):
        """``seat_bonus`` acts in the step of every total: the greatest common divisor of the
        points a turn can score or cost and of the target (100 under the standard rules)."""
        if name == self.seat_compensation_option:
            return rules_module.points_step(rules)
        return super().option_step(name, rules)
    def component_tables(self, rules):
        """The fortune deck as ``cards[NAME].count`` (a view of the rule option ``deck``)."""
        return (option_view("cards", self.option("deck"), rules),)

    def prepare(self, rules, players, seats: list[StrategyChoice]) -> Prepared:
        max_rounds = rules["max_rounds"] + rules_module.EXTRA_ROUNDS
        return Prepared(
            players=players,
            rules=rules,
            seats=seats,
            score_bins=SCORE_BINS,
            length_caps={"rounds": max_rounds, "turns": max_rounds * players},
            inputs=Inputs(
                strategies=np.array([kernel_index(s.name) for s in seats], dtype=np.int64),
                params=np.array([param_row(s.name, s.params) for s in seats], dtype=np.float64),
                turn_rules=rules_module.TurnRules.from_rules(rules),
                deck=np.repeat(np.arange(N_CARDS, dtype=np.int64), rules_module.deck_counts(rules)),
                independent_draw=rules["card_draw"] == "independent",
                seat_bonus=rules["seat_bonus"],
                target=rules["target_score"],
                floor_at_zero=bool(rules["floor_at_zero"]),
                tie_extra=rules["tie_rule"] == "extra-round",
                max_rounds=rules["max_rounds"],
                **state_tables(rules, seats),
            ),
        )

    def play_function(self):
        return play_game

    def tally_shapes(self, prepared: Prepared) -> dict[str, tuple[int, ...]]:
        per_card = (N_CARDS, prepared.players)
        return {"card_turns": per_card, "card_score_sum": per_card, "card_score_sq": per_card,
                "card_deaths": per_card, "card_island": per_card, "dice_rolled": (1,), "illegal_decisions": (1,),
                "triggers_cancelled": (1,), "extra_rounds": (1,)}

    def tally_rules(self, prepared: Prepared):
        """Per game: a seat's turns, deaths and Skull Island visits per card at most its turns; at most
        8 dice a roll and 8,000 rerolls a turn (the kernel's cap); a few extra rounds."""
        from analyzer.engine.tally_limits import SIGNED, SQUARES, TallyRules

        turns = prepared.length_caps["turns"]
        return TallyRules(
            {"card_turns": (0, turns), "card_score_sum": SIGNED, "card_score_sq": SQUARES, "card_deaths": (0, turns),
             "card_island": (0, turns), "dice_rolled": (0, turns * DICE_PER_TURN), "illegal_decisions": (0, None),
             "triggers_cancelled": (0, turns), "extra_rounds": (0, rules_module.EXTRA_ROUNDS)},
            at_most=[("card_deaths", "card_turns"), ("card_island", "card_turns")],
            moments=[("card_score_sum", "card_score_sq", "card_turns")])

    def timed_actions(self) -> tuple[TimedAction, ...]:
        return (TimedAction("die", "a die rolled (rerolls included)", _dice_rolled),)

    def scratch(self, prepared: Prepared) -> Scratch:
        return Scratch(deck=padded_zeros(prepared.inputs.deck.shape[0]), totals=padded_zeros(prepared.players),
                       in_play=padded_zeros(prepared.players, np.bool_))

    def mechanics(self, prepared: Prepared):
        return MECHANICS

    def components(self, prepared: Prepared):
        return COMPONENTS

    def game_stats(self, totals, prepared):
        labels = [s.label for s in prepared.seats]
        return {"cards": stats_module.card_stats(totals, labels), **stats_module.extra_stats(totals)}

    def game_stats_table(self, stats):
        return stats_module.format_cards(stats["cards"])

    def commands(self):
        from analyzer.games.skull_island.commands import COMMANDS

        return COMMANDS

    def display_names(self):

        return {card: title for card, (title, _) in CARD_TITLES.items()}

    def report_pages(self, result, palette):
        from analyzer.games.skull_island.report_pages import pages

        return pages(result, palette)


GAME = SkullIsland()
