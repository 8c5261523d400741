"""The win solver (issue 15): `analyze solve --game skull-island --objective win --players 2` at
the default target, without a cache within 30 minutes and 4 GiB, with it within 1 s, timed as
a user runs it; then optimal-win in whole games: against itself on the solved model (the
game value within 4 standard errors), seat-rotated against optimal-ev with final_round
(2 players) and against optimal-ev (3 players, the approximation against the leader)."""

import json
import math
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import timed_run  # noqa: E402

GOAL_COLD_SECONDS = 30 * 60
GOAL_CACHED_SECONDS = 1.0
GOAL_PEAK_MB = 4096
SELF_PLAY_GAMES = 400_000
MATCHUP_GAMES = 1_000_000


def verdict(value: float, goal: float) -> str:
    return "ok" if value <= goal else "OVER GOAL"


def head_to_head(result: dict, label: str, other: str) -> str:
    """The difference of win rates (a shared win counting one half for each) with its 95% interval."""
    records = {row["strategy"]: row for row in result["strategies"]}
    a, b = records[label], records[other]
    n = a["seat_games"]
    share_a = (a["wins"] + a["ties"] / 2) / n
    share_b = (b["wins"] + b["ties"] / 2) / b["seat_games"]
    games = result["n"]
    players = result["players"]
    # per game, the difference of the two strategies' shares; in 2 players it is +1, 0 or -1
    if players == 2:
        mean = (a["wins"] - b["wins"]) / games
        se = math.sqrt(((a["wins"] + b["wins"]) / games - mean ** 2) / games)
    else:
        se = math.sqrt(share_a * (1 - share_a) / n + share_b * (1 - share_b) / b["seat_games"])
        mean = share_a - share_b
    significant = "significant at 95%" if abs(mean) > 1.96 * se else "not significant"
    return (f"{label} {share_a:.4%} against {other} {share_b:.4%} per seat; difference {mean:+.4%} ± {1.96 * se:.4%} "
            f"({significant}; {games:,} games)")


def main() -> None:
    solve = ["solve", "--game", "skull-island", "--objective", "win", "--players", "2", "--json"]
    with tempfile.TemporaryDirectory() as cache:
        env = {"PIRATE_ANALYZER_CACHE": cache}
        cold, peak, output = timed_run(solve, env)
        solved = json.loads(output)
        cached = min(timed_run(solve, env)[0] for _ in range(3))
        value = solved["game_value"]
        bound = solved["policy_class_bound"]
        print(f"skull-island win solve, target 6000, no cache: {cold:.1f} s, peak {peak} MB "
              f"(goal {GOAL_COLD_SECONDS // 60} min: {verdict(cold, GOAL_COLD_SECONDS)}; "
              f"{GOAL_PEAK_MB} MB: {verdict(peak, GOAL_PEAK_MB)}); cached: {cached:.2f} s "
              f"({verdict(cached, GOAL_CACHED_SECONDS)})")
        print(f"  method {solved['method']}: seat 1 {value['seat_1']:.4%}, seat 2 {value['seat_2']:.4%}, shared "
              f"{value['shared']:.4%}; {solved['states']:,} states, {solved['sweeps']} sweeps, "
              f"{solved['solve_seconds']:.1f} s of it the solve")
        print(f"  lower bound {solved['lower_bound']['points']} moved to {solved['lower_bound']['moved_to']}: "
              f"value changes {solved['lower_bound']['value_change']:.1e}; policy class: an exact turn gains at most "
              f"{bound['max_gain']:.4f} (mean {bound['mean_gain']:.5f}) at {bound['sampled_turns']} sampled turns")
        deck = solved["deck_simulation"]
        print(f"  shuffled deck, simulated: seat 1 {deck['seat_1']:.2%} {deck['seat_1_ci']}")
        for label, row in solved["strategies"].items():
            print(f"  {label:<28} against optimal-win: seat 1 {row['seat_1']:.4%}, seat 2 {row['seat_2']:.4%}")

        simulate = ["simulate", "--game", "skull-island", "--players", "2", "--strategy", "optimal-win", "--set",
                    "card_draw=independent", "--n", str(SELF_PLAY_GAMES), "--seed", "1", "--json", "--quiet"]
        wall, _, output = timed_run(simulate, env)
        seat_1 = json.loads(output)["seats"][0]["win_rate"]
        se = math.sqrt(seat_1 * (1 - seat_1) / SELF_PLAY_GAMES)
        gap = abs(seat_1 - value["seat_1"]) / se
        print(f"optimal-win against itself, independent cards: seat 1 {seat_1:.4%} against the game value "
              f"{value['seat_1']:.4%}: {gap:.1f} standard errors ({'ok' if gap < 4 else 'DISAGREES'}; {wall:.0f} s)")

        for players, other in ((2, "optimal-ev:final_round=true"), (3, "optimal-ev")):
            compare = ["compare", "--game", "skull-island", "--players", str(players), "--strategy", "optimal-win",
                       "--strategy", other, "--n", str(MATCHUP_GAMES), "--seed", "2", "--json", "--quiet"]
            wall, _, output = timed_run(compare, env)
            print(f"{players} players, seat-rotated: {head_to_head(json.loads(output), 'optimal-win', other)} "
                  f"({wall:.0f} s)")


if __name__ == "__main__":
    main()
