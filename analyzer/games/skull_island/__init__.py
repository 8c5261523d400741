"""Skull Island (Piraten Kapern): the push-your-luck dice game, 2 to 5 players."""

from __future__ import annotations

import numpy as np

from analyzer.engine.memory import chunk_zeros
from analyzer.games.base import Game, Prepared, StrategyChoice
from analyzer.games.skull_island import rules as rules_module
from analyzer.games.skull_island import stats as stats_module
from analyzer.games.skull_island.components import CARDS, N_CARDS
from analyzer.games.skull_island.strategies import DEFAULT_STRATEGY, SOLVED, STRATEGIES, TABULATED, param_row

SCORE_BINS = (-20000, 100, 800)  # final totals from -20,000 to 60,000 in steps of 100


def _state_tables(rules, seats: list[StrategyChoice]) -> dict[str, np.ndarray]:
    """The per-state tables of a run, as ``kernel.play_chunk`` takes them: the score
    table (``solver_space.alive_scores``) and the policy tables the seats play by.

    A strategy that reads only the turn's dice (``TABULATED``) is tabulated here, once
    per distinct parameter set; optimal-ev reads the solver's tables, solved once per
    rule set and cached on disk (see :mod:`solver`), with the final-round tables after
    them when a seat plays its last turn to beat the leader. Other seats decide live.
    """
    from analyzer.games.skull_island.policies import tabulate
    from analyzer.games.skull_island.solver_space import alive_scores

    names = [s.name for s in STRATEGIES]
    cfg = rules_module.kernel_config(rules)
    tables = [alive_scores(cfg)]  # the first: tables[SCORES]
    index: dict[tuple, int] = {}
    seat_tables = []
    for seat in seats:
        if seat.name in TABULATED:
            key = (seat.name, tuple(param_row(seat.name, seat.params)))
        elif seat.name in SOLVED:
            key = (seat.name, ())
        else:
            seat_tables.append(-1)
            continue
        if key not in index:
            index[key] = len(tables)
            if seat.name in TABULATED:
                tables.append(tabulate(names.index(seat.name), key[1], cfg))
            else:
                from analyzer.games.skull_island.solver import load_policy

                tables.append(load_policy(rules))
        seat_tables.append(index[key])
    thresholds = np.zeros(0, np.int64)
    first_round_table = -1
    stacked = np.stack(tables)
    if any(s.name in SOLVED and s.params.get("final_round") for s in seats):
        from analyzer.games.skull_island.solver import final_round_tables

        thresholds, round_tables = final_round_tables(rules)
        first_round_table = len(tables)
        stacked = np.concatenate([stacked, round_tables])
    return {"tables": stacked, "seat_tables": np.array(seat_tables, np.int64), "thresholds": thresholds,
            "first_round_table": np.array([first_round_table], np.int64)}


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
                **_state_tables(rules, seats),
            },
        )

    def run_chunk(self, prepared, seed, first_game, n_games, record=False):
        from analyzer.games.skull_island import kernel

        p = prepared.players
        low, width, bins = prepared.score_bins
        rows_n = n_games if record else 0
        work = chunk_zeros({
            "wins": (p,), "ties": (p,), "tie_games": (1,), "capped": (1,), "games": (1,), "score_sum": (p,),
            "score_sq": (p,), "score_hist": (p, bins), "length_rounds": (prepared.length_caps["rounds"] + 1,),
            "length_turns": (prepared.length_caps["turns"] + 1,), "card_stats": (5, N_CARDS, p), "counters": (4,),
            "deck": prepared.arrays["deck"].shape,
        })
        card_stats, counters, deck = work.pop("card_stats"), work.pop("counters"), work.pop("deck")
        agg = work
        deck[:] = prepared.arrays["deck"]
        rows = {
            "winner": np.zeros(rows_n, np.int64), "scores": np.zeros((rows_n, p), np.int64),
            "length_rounds": np.zeros(rows_n, np.int64), "length_turns": np.zeros(rows_n, np.int64),
            "capped": np.zeros(rows_n, np.int64),
        }
        a = prepared.arrays
        kernel.play_chunk(
            np.uint64(seed), first_game, n_games, p, a["strategies"], a["params"],
            rules_module.kernel_config(prepared.rules), deck, a["tables"], a["seat_tables"],
            a["thresholds"], a["first_round_table"][0], low, width,
            agg["wins"], agg["ties"], agg["tie_games"], agg["capped"], agg["games"],
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
