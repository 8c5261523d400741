"""Game quality, mechanics coverage and component balance: the template's tally on hand-made games,
and the blocks of the JSON computed from it (hand-checked)."""

import numpy as np
import pytest

from analyzer import measures
from analyzer.engine.aggregate import Totals
from analyzer.engine.holdings import (
    KEYED_MOST_TIMES,
    KEYED_UP_TO_COMPONENTS,
    MOST_TIMES_COUNTED,
    SKIP_UNHELD_ABOVE,
    held_tail_words,
)
from analyzer.engine.quality import (
    DECISIVE_SCALE,
    N_STEPS,
    NEW_TOPS,
    NO_NOTES,
    NO_TOP_SCORE,
    Measures,
    fold_held_counts,
    join_top_scorers,
    mark_new_top,
    measures_block,
    note_leaders,
    note_round,
    note_standings,
    save_new_tops,
    tally_measures,
    top_scorers,
)
from analyzer.engine.template import Outcome
from analyzer.games.base import PER_DRAW, Component, Mechanic

A, B, C = 0, 1, 2


def outcome(players=3, mechanics=2, components=2):
    return Outcome(scores=np.zeros(players, np.int64), winners=np.zeros(players, np.int64),
                   lengths=np.zeros(2, np.int64), capped=np.zeros(1, np.int64), standings=np.zeros(200, np.int64),
                   steps=np.zeros(N_STEPS, np.int64), triggered=np.zeros(mechanics, np.int64),
                   holdings=np.zeros((players, components), np.int64))


class Tallied:
    """A block of measures and its views, and the template's calls on it (a chunk of one game)."""

    def __init__(self, players=3, bins=10, mechanics=2, components=2):
        self.bins, self.mechanics, self.components = bins, mechanics, components
        self.block, self.views = measures_block(players, bins, mechanics, components)

    def add(self, game, winner, width):
        tally_measures(self.block, self.bins, game.scores, game.standings, game.steps, game.triggered,
                       game.holdings, winner, width)
        fold_held_counts(self.block, self.bins, self.mechanics, self.components)
        return self.views


def empty_measures(players=3, bins=10, mechanics=2, components=2) -> Measures:
    return Tallied(players, bins, mechanics, components).views


def play(rounds, final, winner, width=10, players=3, new_tops_given=False):
    """Note ``rounds`` (scores after each round), end with ``final`` scores; tally one game. With
    ``new_tops_given``, the game also gives the rounds of new top scorers (as Lucky Pirates does)."""
    game = outcome(players)
    tallied = Tallied(players)
    new_tops, previous = np.uint64(0), 0
    for scores in rounds:
        scores = np.array(scores, np.int64)
        note_standings(game, scores)
        top = top_scorers(scores)
        new_tops, previous = mark_new_top(new_tops, top, previous), top
    if new_tops_given:
        save_new_tops(game.steps, new_tops, True)
        assert len(rounds) > 64 or game.steps[NEW_TOPS] != 0  # a game's first round is always new
    game.scores[:] = final
    return tallied.add(game, winner, width), game


def test_top_scorers_and_the_notes_kept_in_local_variables_match_their_definitions():
    rng = np.random.default_rng(11)
    for players in (2, 3, 4, 5):
        rounds = rng.integers(0, 3, size=(40, players))  # ties at the top in most rounds
        game = outcome(players)
        notes = NO_NOTES
        for scores in rounds:
            assert top_scorers(scores) == sum(1 << seat for seat in range(players) if scores[seat] == scores.max())
            note_standings(game, scores)
            notes = note_round(game.standings.copy(), scores, notes)
        leaders = sole_leaders(rounds.tolist())
        last = [leader for leader in leaders if leader is not None][-1]
        assert notes == (40, 1 << last, lead_changes(leaders) + 1)  # leads taken: the first one too
        assert tuple(game.steps[:3]) == notes


def test_top_scorers_joined_one_seat_at_a_time_match_their_definition():
    """The form for a game that works out each seat's score only to note it: the seats joined one at a
    time from NO_TOP_SCORE, negative scores and ties at the top among them, and noted as a mask."""
    rng = np.random.default_rng(12)
    for players in (2, 3, 4, 6):
        rounds = rng.integers(-3, 2, size=(40, players))
        by_scores, by_mask = NO_NOTES, NO_NOTES
        for scores in rounds:
            top, mask = NO_TOP_SCORE, 0
            for seat in range(players):
                top, mask = join_top_scorers(top, mask, seat, scores[seat])
            assert top == scores.max()
            assert mask == top_scorers(scores) == sum(1 << s for s in range(players) if scores[s] == scores.max())
            by_scores = note_round(np.zeros(50, np.int64), scores, by_scores)
            by_mask = note_leaders(np.zeros(50, np.int64), mask, by_mask)
        assert by_mask == by_scores
    assert join_top_scorers(NO_TOP_SCORE, 0, 0, NO_TOP_SCORE + 1) == (NO_TOP_SCORE + 1, 0b1)
    assert join_top_scorers(5, 0b01, 1, 5) == (5, 0b11)     # level with the top: joins it
    assert join_top_scorers(5, 0b11, 2, 6) == (6, 0b100)    # above it: alone at the top
    assert join_top_scorers(5, 0b11, 2, 4) == (5, 0b11)     # below it: left out


def test_lead_changes_comeback_and_decisive_point_by_hand():
    # leaders: A, B, (A and B tied), A, A; A wins
    rounds = [[5, 0, 0], [5, 9, 0], [12, 12, 3], [20, 12, 3], [30, 12, 3]]
    tally, game = play(rounds, [30, 12, 3], A)
    assert tally.quality_games[0] == 1
    assert tally.lead_changes_sum[0] == 2  # A -> B, then B -> A (the tie is no change)
    assert tally.comeback_games[0] == 1
    assert tally.comebacks[0] == 1  # after round 2 of 5 the top scorer was B alone
    assert tally.decisive_sum[0] == 4 * DECISIVE_SCALE // 5  # A leads alone from round 4 on
    assert tally.margin_sum[0] == 18 and tally.margin_hist[1] == 1  # 30 - 12, bins of 10
    assert not game.steps.any()  # cleared for the next game


def test_the_margin_in_bins_of_one_and_beyond_the_last_bin():
    tally, _ = play([[5, 0, 0]], [7, 3, 1], A, width=1)
    assert tally.margin_hist[4] == 1 and tally.margin_hist.sum() == 1  # 7 - 3, bins of 1
    tally, _ = play([[5, 0, 0]], [70, 3, 1], A, width=1)
    assert tally.margin_hist[-1] == 1 and tally.margin_sum[0] == 67  # beyond the 10 bins: the last


def test_a_winner_leading_from_the_first_round_is_decided_after_it():
    tally, _ = play([[1, 0], [2, 0], [3, 0], [9, 0]], [9, 0], A, players=2)
    assert tally.lead_changes_sum[0] == 0
    assert tally.comebacks[0] == 0 and tally.comeback_games[0] == 1
    assert tally.decisive_sum[0] == DECISIVE_SCALE // 4


@pytest.mark.parametrize("new_tops_given", [False, True])
@pytest.mark.parametrize("played", [1, 2, 7, 8, 9, 26, 63, 64, 65, 70])
def test_the_decisive_point_is_the_round_from_which_the_winner_leads_alone(played, new_tops_given):
    """Every length of the winner's run alone at the top at the end, after rounds led by another seat
    or shared; found by scanning the standings back, or from the rounds of new top scorers that a game
    gives (a run of more than 64 rounds has none new in the word's 64: the tally scans)."""
    for run in range(played + 1):
        for before in ([0, 5], [5, 5]):  # B alone, or A and B level, in each round before the run
            rounds = [before] * (played - run) + [[9, 0]] * run
            tally, game = play(rounds, [9, 0], A, players=2, new_tops_given=new_tops_given)
            decided = played - run + 1 if run else played  # not leading alone at the end: decided at it
            assert tally.decisive_sum[0] == decided * DECISIVE_SCALE // played, (run, before)
            assert not game.steps.any()


def test_a_winner_tied_at_the_end_is_decided_at_the_end_and_a_shared_win_counts_no_comeback():
    tally, _ = play([[0, 3], [3, 3]], [3, 3], B, players=2)  # tie-break winner
    assert tally.decisive_sum[0] == DECISIVE_SCALE
    assert tally.comebacks[0] == 0  # B led alone after round 1
    shared, _ = play([[0, 3], [3, 3]], [3, 3], -1, players=2)
    assert shared.comeback_games[0] == 0 and shared.decisive_games[0] == 0
    assert shared.quality_games[0] == 1 and shared.margin_sum[0] == 0


def test_triggers_and_holdings_are_tallied_and_cleared():
    game = outcome()
    tallied = Tallied()
    game.triggered[1] = 1
    game.holdings[A, 0] = 3  # the winner met component 0 three times
    game.holdings[C, 0] = 1
    game.holdings[B, 1] = 1
    game.scores[:] = [40, 20, 10]
    tally = tallied.add(game, A, 10)
    assert list(tally.mechanic_games) == [0, 1]
    assert list(tally.component_holders) == [2, 1]
    assert list(tally.component_holder_wins) == [1, 0]
    assert list(tally.component_draws) == [4, 1]
    assert list(tally.component_draws_sq) == [10, 1]
    assert list(tally.component_draw_wins) == [3, 0]
    assert list(tally.component_draw_score_sum) == [3 * 40 + 10, 20]
    assert list(tally.component_draw_score_sq) == [3 * 1600 + 100, 400]
    assert not game.triggered.any() and not game.holdings.any()


def test_a_component_held_more_often_than_counted_is_tallied_alike():
    game = outcome()
    tallied = Tallied()
    often, oftener = MOST_TIMES_COUNTED + 3, MOST_TIMES_COUNTED + 5
    game.holdings[A, 1] = often  # summed, won
    game.holdings[B, 1] = MOST_TIMES_COUNTED  # counted
    game.holdings[C, 1] = oftener  # summed, not won
    game.scores[:] = [40, 20, 10]
    tally = tallied.add(game, A, 10)
    assert list(tally.component_holders) == [0, 3]
    assert list(tally.component_holder_wins) == [0, 1]
    assert list(tally.component_holder_score_sum) == [0, 40 + 20 + 10]
    assert list(tally.component_holder_score_sq) == [0, 1600 + 400 + 100]
    assert list(tally.component_draws) == [0, often + MOST_TIMES_COUNTED + oftener]
    assert list(tally.component_draws_sq) == [0, often ** 2 + MOST_TIMES_COUNTED ** 2 + oftener ** 2]
    assert list(tally.component_draw_wins) == [0, often]
    assert list(tally.component_draw_score_sum) == [0, often * 40 + MOST_TIMES_COUNTED * 20 + oftener * 10]
    assert list(tally.component_draw_score_sq) == [0, often * 1600 + MOST_TIMES_COUNTED * 400 + oftener * 100]
    tail = held_tail_words(tallied.components)
    assert not tallied.block[-tail:].any()  # the counts and sums are folded and cleared
    assert not game.holdings.any()  # and the holdings cleared for the next game


def test_a_game_of_many_components_tallies_the_held_ones_in_every_word_of_64():
    """Beyond SKIP_UNHELD_ABOVE components only the held ones are tallied, found as the set bits of a
    word per 64 components: components on both sides of a word's edge, and one held more often than
    counted, come out as by hand."""
    components = 70
    assert components > max(SKIP_UNHELD_ABOVE, 64)
    game = outcome(components=components)
    tallied = Tallied(components=components)
    oftener = MOST_TIMES_COUNTED + 2
    game.holdings[A, [0, 63, 64]] = [2, 1, 1]  # the winner
    game.holdings[B, 69] = oftener  # summed
    game.holdings[C, 5] = 1
    game.scores[:] = [40, 20, 10]
    tally = tallied.add(game, A, 10)

    def by_component(values):
        row = [0] * components
        for component, value in values.items():
            row[component] = value
        return row

    assert list(tally.component_holders) == by_component({0: 1, 5: 1, 63: 1, 64: 1, 69: 1})
    assert list(tally.component_holder_wins) == by_component({0: 1, 63: 1, 64: 1})
    assert list(tally.component_holder_score_sum) == by_component({0: 40, 5: 10, 63: 40, 64: 40, 69: 20})
    assert list(tally.component_draws) == by_component({0: 2, 5: 1, 63: 1, 64: 1, 69: oftener})
    assert list(tally.component_draw_score_sum) == by_component({0: 80, 5: 10, 63: 40, 64: 40, 69: oftener * 20})
    assert list(tally.component_draw_wins) == by_component({0: 2, 63: 1, 64: 1})
    tail = held_tail_words(tallied.components)
    assert not tallied.block[-tail:].any() and not game.holdings.any()


@pytest.mark.parametrize("components", [1, 2, KEYED_UP_TO_COMPONENTS, KEYED_UP_TO_COMPONENTS + 1, 20])
def test_the_component_measures_of_many_games_are_the_sums_over_their_seat_games(components):
    """Each way of tallying holdings (keyed by the whole holding for a game of few components, counted
    by times held, summed when held more often, only the held ones of a game of many) gives the nine
    sums over seat-games by their definitions, for 200 games tallied in one chunk and folded once."""
    players, bins, mechanics = 3, 10, 2
    block, views = measures_block(players, bins, mechanics, components)
    random = np.random.default_rng(components)
    expected = {name: np.zeros(components, np.int64) for name in Measures._fields if name.startswith("component_")}
    for _ in range(200):
        game = outcome(players, mechanics, components)
        # mostly at most KEYED_MOST_TIMES, some more often than counted (MOST_TIMES_COUNTED)
        game.holdings[:] = random.choice([0, 1, 2, KEYED_MOST_TIMES, KEYED_MOST_TIMES + 1, MOST_TIMES_COUNTED + 2],
                                         size=(players, components), p=[.3, .3, .2, .1, .05, .05])
        game.scores[:] = random.integers(-5, 40, players)
        winner = int(random.integers(-1, players))
        for seat in range(players):
            times, score, won = game.holdings[seat], game.scores[seat], int(seat == winner)
            held = times > 0
            expected["component_holders"] += held
            expected["component_holder_wins"] += held * won
            expected["component_holder_score_sum"] += held * score
            expected["component_holder_score_sq"] += held * score * score
            expected["component_draws"] += times
            expected["component_draws_sq"] += times * times
            expected["component_draw_wins"] += times * won
            expected["component_draw_score_sum"] += times * score
            expected["component_draw_score_sq"] += times * score * score
        tally_measures(block, bins, game.scores, game.standings, game.steps, game.triggered, game.holdings, winner, 10)
        assert not game.holdings.any()
    fold_held_counts(block, bins, mechanics, components)
    for name, values in expected.items():
        assert list(getattr(views, name)) == list(values), name
    assert not block[-held_tail_words(components):].any()


def test_a_game_without_components_tallies_none_and_touches_no_memory_beside_its_holdings():
    """A game of no components (the contract's default) has nothing to key: the tally reads and writes
    no holding, here checked on a holdings array of no columns carved from the start of a larger one."""
    players, bins, mechanics = 3, 10, 2
    block, views = measures_block(players, bins, mechanics, 0)
    memory = np.full(8, 7, np.int64)
    game = outcome(players, mechanics, components=0)._replace(holdings=memory[:0].reshape(players, 0))
    game.scores[:] = [3, 2, 1]
    tally_measures(block, bins, game.scores, game.standings, game.steps, game.triggered, game.holdings, 0, 10)
    fold_held_counts(block, bins, mechanics, 0)
    assert (memory == 7).all()
    assert views.component_holders.shape == (0,) and views.margin_sum[0] == 1


def totals_of(tally, games, wins, score_sum, score_sq):
    totals = Totals()
    totals.add({**tally._asdict(), "games": np.array([games]), "wins": np.array(wins),
                "score_sum": np.array(score_sum), "score_sq": np.array(score_sq)})
    return totals


def test_presence_effect_by_hand():
    # 100 two-player games; the component was held in 40 seat-games, 30 of them won; 100 wins in all
    tally = empty_measures(players=2, components=1)
    tally.component_holders[0] = 40
    tally.component_holder_wins[0] = 30
    tally.component_holder_score_sum[0] = 40 * 10
    tally.component_holder_score_sq[0] = 40 * 100
    totals = totals_of(tally, 100, [60, 40], [1000, 1000], [10_000, 10_000])
    (record,) = measures.components(totals, [Component("captain X", "captain")], players=2)
    assert record["win_rate"] == pytest.approx(0.75)
    assert record["win_rate_effect"] == pytest.approx(0.75 - 70 / 160)
    se = (0.75 * 0.25 / 40 + (70 / 160) * (90 / 160) / 160) ** 0.5
    assert record["win_rate_effect_ci"] == pytest.approx([record["win_rate_effect"] - 1.959964 * se,
                                                          record["win_rate_effect"] + 1.959964 * se])
    assert record["score_effect"] == pytest.approx(0.0)


def test_per_draw_effect_by_hand_and_ranking():
    tally = empty_measures(players=2, components=2)
    tally.component_draws[:] = [200, 50]
    tally.component_draws_sq[:] = [400, 50]  # two per seat-game; one per seat-game
    tally.component_draw_wins[:] = [120, 25]
    tally.component_draw_score_sum[:] = [200 * 12, 50 * 10]
    tally.component_draw_score_sq[:] = [200 * 144, 50 * 100]
    totals = totals_of(tally, 100, [50, 50], [1000, 1000], [10_000, 10_000])
    declared = [Component("kraken", "card", PER_DRAW), Component("parrot", "card", PER_DRAW)]
    first, second = measures.components(totals, declared, players=2)
    assert first["component"] == "kraken"  # +10 points of win rate beats 0
    assert first["win_rate"] == pytest.approx(0.6) and first["win_rate_effect"] == pytest.approx(0.1)
    rate_se = (2 * 0.6 * 0.4 / 200) ** 0.5  # variance inflated by the cluster size 2
    half = 1.959964 * (rate_se ** 2 + 0.25 / 200) ** 0.5
    assert first["win_rate_effect_ci"] == pytest.approx([0.1 - half, 0.1 + half])
    assert first["score_effect"] == pytest.approx(2.0)
    assert second["win_rate_effect"] == pytest.approx(0.0)


def test_mechanics_shares_and_quality_block():
    tally, _ = play([[5, 0, 0], [5, 9, 0], [12, 12, 3], [20, 12, 3], [30, 12, 3]], [30, 12, 3], A)
    tally.mechanic_games[:] = [1, 0]
    totals = totals_of(tally, 1, [1, 0, 0], [30, 12, 3], [900, 144, 9])
    shares = measures.mechanics(totals, [Mechanic("storm", ""), Mechanic("mutiny", "")])
    assert shares == {"storm": 1.0, "mutiny": 0.0}
    block = measures.quality(totals, "points", 10)
    assert block["lead_changes"]["value"] == 2
    assert block["comeback_rate"]["value"] == 1.0
    assert block["decisive_point"]["value"] == pytest.approx(0.8)
    assert block["margin"]["mean"] == 18 and block["margin"]["median"] == 10


def sole_leaders(rounds):
    """The seat leading alone after each round, or None after a round with a tie at the top."""
    return [max(range(len(s)), key=lambda seat: s[seat]) if sorted(s)[-1] != sorted(s)[-2] else None
            for s in rounds]


def lead_changes(leaders):
    """The rounds whose sole leader is another seat than the last sole leader."""
    changes, last = 0, None
    for leader in leaders:
        if leader is not None:
            changes += last is not None and leader != last
            last = leader
    return changes


def reference_quality(rounds, final, winner):
    """The definitions of the quality measures (engine.quality's docstring), in plain Python."""
    leaders = sole_leaders(rounds)
    changes = lead_changes(leaders)
    comeback = None
    if winner >= 0 and len(rounds) >= 2:
        half = rounds[len(rounds) // 2 - 1]
        comeback = int(half[winner] != max(half))
    decided = None
    if winner >= 0:
        settled = len(rounds)
        while settled > 0 and leaders[settled - 1] == winner:
            settled -= 1
        decided = min(settled + 1, len(rounds)) * DECISIVE_SCALE // len(rounds)
    top, second = sorted(final)[-1], sorted(final)[-2]
    return changes, comeback, decided, top - second


@pytest.mark.parametrize("new_tops_given", [False, True])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_tally_agrees_with_the_definitions_on_random_games(players, new_tops_given):
    """Scores from a small range, so that ties at the top are common: 300 games, one chunk each, a
    tenth of them longer than the 64 rounds of the new top scorers' word."""
    rng = np.random.default_rng(players)
    for game_number in range(300):
        length = rng.integers(65, 150) if game_number % 10 == 0 else rng.integers(1, 12)
        rounds = rng.integers(0, 4, size=(length, players)).cumsum(axis=0).tolist()
        final = rounds[-1]
        winner = int(rng.integers(-1, players))
        tally, game = play(rounds, final, winner, width=1, players=players, new_tops_given=new_tops_given)
        changes, comeback, decided, margin = reference_quality(rounds, final, winner)
        assert tally.lead_changes_sum[0] == changes
        assert tally.comebacks[0] == (comeback or 0) and tally.comeback_games[0] == (comeback is not None)
        assert tally.decisive_sum[0] == (decided or 0) and tally.decisive_games[0] == (decided is not None)
        assert tally.margin_sum[0] == margin and tally.margin_hist[min(margin, 9)] == 1
        assert not game.steps.any()
