"""Game quality, mechanics coverage and special-card balance as the Doubloons kernel notes them.

Hand-checked facts: the standings are noted once per round (the score is the match's
round wins), each mechanic's share follows the rule options that switch it on or off
and agrees with what ``game_stats`` counts, and each special card is met as often as
``game_stats`` says it was drawn, taken or uncovered.
"""

import pytest

from analyzer import measures
from analyzer.engine.play import run_chunk
from analyzer.engine.quality import DECISIVE_SCALE
from analyzer.engine.runner import run
from analyzer.games.doubloons import GAME
from analyzer.games.doubloons.cards import SPECIALS
from analyzer.games.doubloons.coverage import SPECIAL_NAMES
from tests.doubloons.play_areas import prepared

N = 2000


def simulate(players=3, strategies=("greedy",), seed=17, n=N, **rules):
    """(prepared, totals, quality, mechanics, components, game_stats) of one run."""
    prep = prepared(players, strategies, **rules)
    totals = run(GAME, prep, n, seed=seed, workers=1)
    return (prep, totals, measures.quality(totals, GAME.score_unit, prep.score_bins[1]),
            measures.mechanics(totals, GAME.mechanics(prep)),
            {c["component"]: c for c in measures.components(totals, GAME.components(prep), players)},
            GAME.game_stats(totals, prep))


@pytest.fixture(scope="module")
def default_run():
    return simulate(3, ("greedy", "saboteur", "random"))


def test_every_match_notes_its_standings_and_the_declared_names_are_the_keys(default_run):
    prep, _, quality, mechanics, components, _ = default_run
    assert quality["games"] == N
    assert list(mechanics) == [m.name for m in GAME.mechanics(prep)]
    assert all(0.0 <= share <= 1.0 for share in mechanics.values())
    assert set(components) == {c.name for c in GAME.components(prep)} == set(SPECIAL_NAMES)
    assert len(SPECIAL_NAMES) == len(SPECIALS)


def test_two_pirates_best_of_three_quality_by_hand():
    """Two pirates, one winner a round: after round 2 of a 3-round match they stand 1-1 (no
    leader, which is no lead change). So the lead changes once exactly in the matches whose
    first-round winner loses the match, which are also the comebacks (not leading after
    round 1 of 2 or 3); a 3-round match is decided after round 3, a 2-round match after
    round 1 (point 1/2); the margin is 2 or 1."""
    prep = prepared(2, ("greedy", "random"))
    totals, rows = run_chunk(GAME, prep, 17, 0, N, record=True)
    quality = measures.quality(totals, GAME.score_unit, prep.score_bins[1])
    two, three = int(totals["length_rounds"][2]), int(totals["length_rounds"][3])
    turned = int((rows["first_round_winner"] != rows["winner"]).sum())
    assert two + three == N and quality["games"] == N and 0 < turned < three
    assert int(totals["lead_changes_sum"][0]) == int(totals["lead_changes_sq"][0]) == turned
    assert quality["comeback_rate"]["games"] == N
    assert quality["comeback_rate"]["value"] == turned / N
    assert int(totals["decisive_sum"][0]) == two * (DECISIVE_SCALE // 2) + three * DECISIVE_SCALE
    assert quality["margin"]["mean"] == (2 * two + 1 * three) / N


def test_a_single_round_match_has_one_standing_and_no_fewer_chests():
    _, totals, quality, mechanics, *_ = simulate(3, ("greedy",), rounds_to_win=1)
    assert quality["games"] == N
    assert quality["comeback_rate"]["games"] == 0  # one round: no halfway point
    assert quality["decisive_point"]["value"] == 1.0
    assert mechanics["Fewer chests"] == 0.0


def test_a_capped_round_is_noted_and_the_round_cap_share_is_the_capped_matches():
    _, totals, quality, mechanics, _, stats = simulate(3, ("random",), max_turns_per_round=40)
    assert quality["games"] == N  # the capped round is noted too
    assert 0 < stats["capped_matches"] < N
    assert mechanics["Round cap"] == stats["capped_matches"] / N


def test_fewer_chests_is_the_share_of_matches_with_a_second_round(default_run):
    _, totals, _, mechanics, _, _ = default_run
    assert mechanics["Fewer chests"] == 1 - int(totals["length_rounds"][1]) / N


def test_the_specials_met_are_those_drawn_taken_or_uncovered(default_run):
    _, _, _, mechanics, components, stats = default_run
    for kind, name in zip(SPECIALS, SPECIAL_NAMES, strict=True):
        counts = stats["specials"][kind]
        component = components[name]
        assert component["times"] == counts["drawn"] + counts["taken_from_discard"] + counts["uncovered"]
        assert 0 < component["seat_games"] <= 3 * N
        assert component["win_rate_effect_ci"][0] <= component["win_rate_effect"] <= component["win_rate_effect_ci"][1]
    # a mechanic that acted in a share of matches cannot have acted fewer times than that
    assert mechanics["Kraken"] * N <= stats["specials"]["kraken"]["used"]
    assert stats["lost_turns"]["total"] <= stats["specials"]["kraken"]["used"]
    assert (mechanics["Freed parrot moves on"] > 0) == (stats["parrot_moves"] > 0)


def test_a_special_removed_from_the_deck_never_acts_nor_is_met():
    _, _, _, mechanics, components, _ = simulate(
        3, ("greedy",), group_specials={**{name: 1 for name in SPECIALS}, "parrot": 0, "kraken": 0})
    for off in ("Kraken", "Parrot placed", "Parrot freed", "Freed parrot moves on", "Freed parrot discarded"):
        assert mechanics[off] == 0.0
    assert components["Kraken"]["times"] == 0 and components["Parrot"]["times"] == 0
    assert mechanics["Pirate swap"] > 0.9


@pytest.mark.parametrize("option, mechanic", [
    ("freed_parrot_moves", "Freed parrot moves on"),
    ("final_turns", "Win in the final turns"),
])
def test_a_mechanic_switched_off_by_its_option_never_happens(option, mechanic):
    _, _, _, off, _, off_stats = simulate(3, ("greedy", "saboteur", "random"), n=1000, **{option: False})
    _, _, _, on, _, on_stats = simulate(3, ("greedy", "saboteur", "random"), n=1000, **{option: True})
    assert off[mechanic] == 0.0
    assert on[mechanic] > 0.0
    if option == "freed_parrot_moves":
        # every freed parrot is then discarded
        assert off["Freed parrot discarded"] == off["Parrot freed"] > 0.5
        assert off_stats["parrot_moves"] == 0
    else:
        assert on_stats["round_wins"]["final_turn_wins"] >= on[mechanic] * 1000


def test_plain_garbage_has_no_special_mechanic_and_a_crowded_deck_is_refilled():
    _, _, quality, mechanics, components, _ = simulate(
        3, ("greedy",), n=500, group_specials={name: 0 for name in SPECIALS})
    assert quality["games"] == 500
    for name in SPECIAL_NAMES:
        assert components[name]["times"] == 0
    special = [*[m.name for m in GAME.mechanics(prepared())][:len(SPECIALS)], "Special discarded unused",
               "Special uncovered in a chest", "Special taken from the discard", "Parrot freed"]
    assert all(mechanics[name] == 0.0 for name in special)
    assert mechanics["Discard pile taken"] > 0.9
    _, _, _, crowded, _, stats = simulate(
        3, ("random", "saboteur", "greedy"), n=500,
        groups_by_players=[2, 2, 2, 2], group_specials={name: 3 for name in SPECIALS})
    assert (crowded["Turn passed"] > 0) == (stats["passed_turns"] > 0)
    assert crowded["Deck refill"] > 0.5


def test_parrots_freed_are_the_parrots_placed_less_those_left_on_a_chest_match_by_match():
    """Every parrot placed is freed by its number or still lies on a chest when its round ends;
    a freed parrot moves on or is discarded. Checked one match at a time (no round is capped)."""
    prep = prepared(3, ("greedy", "saboteur", "random"))
    names = [m.name for m in GAME.mechanics(prep)]
    parrot = SPECIALS.index("parrot")
    seen = set()
    for game in range(40):
        one, _ = run_chunk(GAME, prep, 5, game, 1)
        assert int(one["capped"][0]) == 0
        placed = int(one["specials_used"][:, parrot].sum()) + int(one["seat_parrot_moves"].sum())
        moves = int(one["seat_parrot_moves"].sum())
        freed = placed - int(one["parrots_left"][0])
        assert freed >= moves >= 0
        shares = dict(zip(names, one["mechanic_games"], strict=True))
        assert shares["Parrot freed"] == (freed > 0)
        assert shares["Freed parrot moves on"] == (moves > 0)
        assert shares["Freed parrot discarded"] == (freed > moves)
        seen.add((freed > 0, moves > 0, freed > moves))
    assert len(seen) >= 3  # the cases differ from match to match
