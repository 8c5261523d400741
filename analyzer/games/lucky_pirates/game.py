"""lucky-pirates (Glücks-Piraten, HABA): a pure-luck race round a circle of cards."""

from __future__ import annotations

from typing import Any

from analyzer.engine.memory import padded_zeros
from analyzer.errors import AnalyzerError
from analyzer.games.base import OUTCOME, PER_DRAW, Component, Game, Mechanic, Prepared, Strategy, StrategyChoice
from analyzer.games.lucky_pirates import rules as rules_module
from analyzer.games.lucky_pirates import stats as stats_module
from analyzer.games.lucky_pirates.kernel import Inputs, Scratch, Tally, play_game
from analyzer.games.lucky_pirates.mechanics import EVENT_NAMES, MAX_SEATS, N_EVENTS, N_MECHANICS
from analyzer.games.lucky_pirates.strategies import NO_DECISIONS

MECHANICS = (
    Mechanic("island treasure", "a pirate landing on an island card gains a treasure"),
    Mechanic("duel treasure", "the winner of a duel on a shared card gains a treasure"),
    Mechanic("ship takes a treasure", "the pirate-ship card takes a treasure back to the provisions"),
    Mechanic("dry draw", "a pirate is due a treasure and the provisions are empty", kind=OUTCOME),
    Mechanic("steal", "with steal_when_empty, a dry draw takes the treasure from the richest other pirate",
             possible=lambda rules: rules["steal_when_empty"]),
    Mechanic("duel", "two or more pirates on one card fight a duel"),
)
assert len(MECHANICS) == N_MECHANICS  # the first events, whose games the tally counts (Game.mechanics_tally)
CARD_COMPONENTS = (
    Component("seaside card", "card", PER_DRAW),  # rules.SEASIDE
    Component("island card", "card", PER_DRAW),  # rules.ISLAND
    Component("pirate-ship card", "card", PER_DRAW),  # rules.SHIP
)


class LuckyPirates(Game):
    id = "lucky-pirates"
    title = "Lucky Pirates (Glücks-Piraten)"
    description = "pure-luck race round a circle of cards: first to 5 treasures, duels on shared cards"
    min_players = 2
    max_players = MAX_SEATS  # the seats a word of treasures holds
    default_players = 4
    score_unit = "treasures"
    length_units = ("turns", "rounds")
    options = rules_module.OPTIONS
    strategies = (NO_DECISIONS,)
    default_strategy = "none"
    has_decisions = False
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
        values = rules_module.rule_values(rules, players)
        target = values.treasures_to_win
        return Prepared(
            players=players,
            rules=dict(rules),
            seats=list(seats),
            score_bins=(0, 1, target + 1),
            length_caps={"turns": values.max_turns, "rounds": -(-values.max_turns // players)},
            inputs=Inputs(**{name: getattr(values, name) for name in Inputs._fields}),
        )

    def play_function(self):
        return play_game

    def tally_shapes(self, prepared: Prepared) -> dict[str, tuple[int, ...]]:
        return {"event_totals": (N_EVENTS,), "event_games": (N_EVENTS,), "duel_sizes": (prepared.players + 1,),
                "won_in_duel": (1,)}

    def tally_rules(self, prepared: Prepared):
        """Per game: each event happens in it or not, a duel at most once a turn (a duel's throws
        have no most: each is a new throw of the disks)."""
        from analyzer.engine.tally_limits import ONCE, TallyRules

        return TallyRules({"event_totals": (0, None), "event_games": ONCE,
                           "duel_sizes": (0, prepared.length_caps["turns"]), "won_in_duel": ONCE},
                          at_most=[("event_games", "event_totals")])

    def scratch(self, prepared: Prepared) -> Scratch:
        players = prepared.players
        return Scratch(positions=padded_zeros(players), order=padded_zeros(players), events=padded_zeros(N_EVENTS),
                       turn_treasures=padded_zeros(prepared.length_caps["turns"] + 1))

    def mechanics(self, prepared: Prepared) -> tuple[Mechanic, ...]:
        """The counted events that are things happening (not the throw count), by event index."""
        return MECHANICS

    def mechanics_tally(self, prepared: Prepared) -> str:
        """The games in which each event happened, which the kernel counts for the game's statistics,
        are its mechanics' games too: not noted a second time (a game took 0.7% less time)."""
        return "event_games"

    def components(self, prepared: Prepared) -> tuple[Component, ...]:
        """The three kinds of card round the circle, per landing (index = the card kind's code)."""
        return CARD_COMPONENTS

    def game_stats(self, totals, prepared: Prepared) -> dict[str, Any]:
        return stats_module.game_stats(totals, prepared)

    def game_stats_table(self, stats: dict[str, Any]) -> str:
        return stats_module.format_stats(stats)

    def commands(self):
        from analyzer.games.lucky_pirates.commands import COMMANDS

        return COMMANDS

    def exact(self, rules: dict[str, Any], players: int) -> dict[str, Any]:
        """Exact win probabilities and length by Markov chain (see :func:`commands.exact_solution`)."""
        from analyzer.games.lucky_pirates.commands import exact_solution

        return exact_solution(rules, players)

    def exact_seat_win_rates(self, rules: dict[str, Any], players: int) -> list[float] | None:
        """The exact solution's win probabilities (None where it is too large or does not converge);
        solved once per rule set and player count."""
        key = (players, repr(sorted(rules.items())))
        if key not in _EXACT_WIN_RATES:
            try:
                _EXACT_WIN_RATES[key] = self.exact(rules, players)["win_probability"]
            except AnalyzerError:
                _EXACT_WIN_RATES[key] = None
        return _EXACT_WIN_RATES[key]


#: the exact win rates solved in this process, by (players, rules)
_EXACT_WIN_RATES: dict[tuple, list[float] | None] = {}


GAME = LuckyPirates()
