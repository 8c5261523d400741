"""Skull Island (Piraten Kapern): the push-your-luck dice game, 2 to 5 players."""

from __future__ import annotations

import numpy as np

from analyzer.games.base import Game, Prepared, StrategyChoice
from analyzer.games.skull_island import rules as rules_module
from analyzer.games.skull_island import stats as stats_module
from analyzer.games.skull_island.components import CARDS, N_CARDS
from analyzer.games.skull_island.strategies import DEFAULT_STRATEGY, SOLVED, STRATEGIES, param_row

SCORE_BINS = (-20000, 100, 800)  # final totals from -20,000 to 60,000 in steps of 100


def _solved_tables(rules, seats: list[StrategyChoice]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The solver's policy tables the seats' strategies read (tiny placeholders when none does).

    Solved once per rule set and cached on disk (see :mod:`solver`).
    """
    policy = np.zeros((1, 1), np.int64)
    thresholds = np.zeros(1, np.int64)
    round_tables = np.zeros((1, 1, 1), np.int64)
    if any(s.name in SOLVED for s in seats):
        from analyzer.games.skull_island.solver import final_round_tables, load_policy

        policy = load_policy(rules)
        if any(s.params.get("final_round") for s in seats):
            thresholds, round_tables = final_round_tables(rules)
    return policy, thresholds, round_tables


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
    max_players_with_option = 8

    def check_rules(self, rules, players):
        rules_module.check_rules(rules)

    def prepare(self, rules, players, seats: list[StrategyChoice]) -> Prepared:
        names = [s.name for s in STRATEGIES]
        policy, thresholds, round_tables = _solved_tables(rules, seats)
        max_rounds = rules["max_rounds"] + rules_module.EXTRA_ROUNDS
        return Prepared(
            players=players,
            rules=rules,
            seats=seats,
            score_bins=SCORE_BINS,
            length_caps={"rounds": max_rounds, "turns": max_rounds * players},
            arrays={
                "strategies": np.array([names.index(s.name) for s in seats], dtype=np.int64),
                "params": np.array([param_row(s.name, s.params) for s in seats], dtype=np.float64),
                "deck": np.repeat(np.arange(N_CARDS, dtype=np.int64), rules_module.deck_counts(rules)),
                "policy": policy,
                "thresholds": thresholds,
                "round_tables": round_tables,
            },
        )

    def run_chunk(self, prepared, seed, first_game, n_games, record=False):
        from analyzer.games.skull_island import kernel

        p = prepared.players
        low, width, bins = prepared.score_bins
        agg = {
            "wins": np.zeros(p, np.int64), "ties": np.zeros(p, np.int64),
            "tie_games": np.zeros(1, np.int64), "capped": np.zeros(1, np.int64), "games": np.zeros(1, np.int64),
            "score_sum": np.zeros(p, np.int64), "score_sq": np.zeros(p, np.int64),
            "score_hist": np.zeros((p, bins), np.int64),
            "length_rounds": np.zeros(prepared.length_caps["rounds"] + 1, np.int64),
            "length_turns": np.zeros(prepared.length_caps["turns"] + 1, np.int64),
        }
        card_stats = np.zeros((5, N_CARDS, p), np.int64)
        counters = np.zeros(4, np.int64)
        rows_n = n_games if record else 0
        rows = {
            "winner": np.zeros(rows_n, np.int64), "scores": np.zeros((rows_n, p), np.int64),
            "length_rounds": np.zeros(rows_n, np.int64), "length_turns": np.zeros(rows_n, np.int64),
            "capped": np.zeros(rows_n, np.int64),
        }
        a = prepared.arrays
        kernel.play_chunk(
            np.uint64(seed), first_game, n_games, p, a["strategies"], a["params"],
            rules_module.kernel_config(prepared.rules), a["deck"].copy(), a["policy"], a["thresholds"],
            a["round_tables"],
            low, width, agg["wins"], agg["ties"], agg["tie_games"], agg["capped"], agg["games"],
            agg["score_sum"], agg["score_sq"], agg["score_hist"], agg["length_rounds"], agg["length_turns"],
            card_stats, counters, rows["winner"], rows["scores"], rows["length_rounds"], rows["length_turns"],
            rows["capped"],
        )
        agg.update(
            card_turns=card_stats[kernel.CARD_TURNS], card_score_sum=card_stats[kernel.CARD_SCORE_SUM],
            card_score_sq=card_stats[kernel.CARD_SCORE_SQ], card_deaths=card_stats[kernel.CARD_DEATHS],
            card_island=card_stats[kernel.CARD_ISLAND],
            dice_rolled=counters[kernel.DICE_ROLLED:kernel.DICE_ROLLED + 1],
            illegal_decisions=counters[kernel.ILLEGAL_DECISIONS:kernel.ILLEGAL_DECISIONS + 1],
            triggers_cancelled=counters[kernel.TRIGGERS_CANCELLED:kernel.TRIGGERS_CANCELLED + 1],
            extra_rounds=counters[kernel.EXTRA_ROUNDS_PLAYED:kernel.EXTRA_ROUNDS_PLAYED + 1],
        )
        if not record:
            return agg, None
        columns = {"winner": rows["winner"]}
        for seat in range(p):
            columns[f"score_{seat + 1}"] = rows["scores"][:, seat]
        columns.update(length_rounds=rows["length_rounds"], length_turns=rows["length_turns"],
                       capped=rows["capped"])
        return agg, columns

    def game_stats(self, totals, prepared):
        labels = [s.label for s in prepared.seats]
        return {"cards": stats_module.card_stats(totals, labels), **stats_module.extra_stats(totals)}

    def game_stats_table(self, stats):
        return stats_module.format_cards(stats["cards"])

    def score(self, rules, card: str, dice, chest, island: bool) -> tuple[int, int]:
        """Referee one finished turn: face counts in, (own change, opponents' change) out."""
        from analyzer.games.skull_island.scoring import score_faces

        return score_faces(CARDS.index(card), dice, chest, island, rules_module.kernel_config(rules))


GAME = SkullIsland()
__all__ = ["GAME", "CARDS"]
