"""Doubloons as an engine plug-in: options, strategies, kernel arrays, chunks, statistics.

The numba kernel is imported inside :meth:`Doubloons.run_chunk`, so listing games,
rules and strategies never compiles anything.
"""

from __future__ import annotations

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.games.base import Game, Prepared, StrategyChoice
from analyzer.games.doubloons import rules as rules_module
from analyzer.games.doubloons import stats as stats_module
from analyzer.games.doubloons.strategies import DEFAULT_STRATEGY, STRATEGIES, param_row

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
    length_units = ("turns", "rounds")
    options = rules_module.OPTIONS
    strategies = STRATEGIES
    default_strategy = DEFAULT_STRATEGY
    more_players_option = "allow_more_players"
    max_players_with_option = rules_module.MAX_PLAYERS_WITH_OPTION  # the kernel's table is sized for it
    record_columns = ("first_round_winner", "deck_refills", "lost_turns")

    def check_rules(self, rules, players):
        low, high = self.player_range(rules)
        if not low <= players <= high:
            hint = "" if rules.get(self.more_players_option) else f" (set {self.more_players_option} for more)"
            raise AnalyzerError(f"doubloons is for {low} to {high} players, not {players}{hint}")
        rules_module.check_rules(rules, players)

    def prepare(self, rules, players, seats: list[StrategyChoice]) -> Prepared:
        self.check_rules(rules, players)
        names = [s.name for s in STRATEGIES]
        max_rounds = rules_module.max_rounds(rules, players)
        round_turns = rules["max_turns_per_round"] + players - 1
        return Prepared(
            players=players,
            rules=rules,
            seats=seats,
            score_bins=(0, 1, rules["rounds_to_win"] + 1),
            length_caps={"turns": min(max_rounds * round_turns, HISTOGRAM_CAP), "rounds": max_rounds},
            arrays={
                "setup": rules_module.setup_vector(rules, players, [names.index(s.name) for s in seats]),
                "params": np.array([param_row(s.params) for s in seats], dtype=np.float64),
            },
            scalars={"round_turns_cap": min(round_turns, HISTOGRAM_CAP)},
        )

    def _play(self, prepared, seed, first_game, n_games, record, check):
        """Run the kernel over one chunk; returns (tally, rows, audit violations)."""
        from analyzer.games.doubloons.kernel import N_COUNTERS, N_EVENTS, N_ROW_EXTRA, Tally, play_chunk

        p = prepared.players
        zeros = np.zeros
        tally = Tally(
            games=zeros(1, np.int64), wins=zeros(p, np.int64), ties=zeros(p, np.int64),
            tie_games=zeros(1, np.int64), capped=zeros(1, np.int64),
            score_sum=zeros(p, np.int64), score_sq=zeros(p, np.int64),
            score_hist=zeros((p, prepared.score_bins[2]), np.int64),
            length_turns=zeros(prepared.length_caps["turns"] + 1, np.int64),
            length_rounds=zeros(prepared.length_caps["rounds"] + 1, np.int64),
            round_turns=zeros(prepared.scalars["round_turns_cap"] + 1, np.int64),
            round_wins=zeros(p, np.int64), round_wins_by_order=zeros(p, np.int64),
            events=zeros((p, N_EVENTS), np.int64), counters=zeros(N_COUNTERS, np.int64),
        )
        rows = zeros((n_games if record else 0, 1 + p + N_ROW_EXTRA), np.int64)
        violations = play_chunk(np.uint64(seed), first_game, n_games, prepared.arrays["setup"],
                                prepared.arrays["params"], tally, rows, check)
        return tally, rows, violations

    def run_chunk(self, prepared, seed, first_game, n_games, record=False):
        from analyzer.games.doubloons.kernel import (
            COUNTER_NAMES,
            E_SPECIALS,
            E_TURNS,
            EVENT_NAMES,
            FROM_CHEST,
            FROM_DECK,
            FROM_DISCARD,
            N_SPECIALS,
            ROW_CAPPED,
            ROW_FIRST_ROUND_WINNER,
            ROW_LOST_TURNS,
            ROW_REFILLS,
            ROW_ROUNDS,
            ROW_TURNS,
            USED,
        )

        tally, rows, _ = self._play(prepared, seed, first_game, n_games, record, False)
        aggregates = tally._asdict()
        events = aggregates.pop("events")
        for name, origin in (("specials_drawn", FROM_DECK), ("specials_taken", FROM_DISCARD),
                             ("specials_uncovered", FROM_CHEST), ("specials_used", USED)):
            first = E_SPECIALS + origin * N_SPECIALS
            aggregates[name] = events[:, first:first + N_SPECIALS].copy()
        for offset, name in enumerate(EVENT_NAMES):
            aggregates[f"seat_{name}"] = events[:, E_TURNS + offset].copy()
        counters = aggregates.pop("counters")
        for index, name in enumerate(COUNTER_NAMES):
            aggregates[name] = counters[index:index + 1].copy()
        if not record:
            return aggregates, None
        extra = 1 + prepared.players
        columns = {"winner": rows[:, 0]}
        for seat in range(prepared.players):
            columns[f"score_{seat + 1}"] = rows[:, 1 + seat]
        columns.update(
            length_turns=rows[:, extra + ROW_TURNS], length_rounds=rows[:, extra + ROW_ROUNDS],
            capped=rows[:, extra + ROW_CAPPED], first_round_winner=rows[:, extra + ROW_FIRST_ROUND_WINNER],
            deck_refills=rows[:, extra + ROW_REFILLS], lost_turns=rows[:, extra + ROW_LOST_TURNS],
        )
        return aggregates, columns

    def audit_games(self, prepared, seed, n_games) -> int:
        """Play ``n_games`` matches auditing the table after the deal and every turn
        (card conservation and bookkeeping); returns the number of violations found."""
        return int(self._play(prepared, seed, 0, n_games, False, True)[2])

    def game_stats(self, totals, prepared):
        return stats_module.game_stats(totals, prepared)

    def game_stats_table(self, stats):
        return stats_module.format_stats(stats)
