"""Doubloons' own statistics (``game_stats``) from the merged aggregates."""

from __future__ import annotations

import numpy as np

from analyzer.games.doubloons.cards import SPECIALS
from analyzer.stats import histogram_summary


def _summary(hist) -> dict:
    """The engine's length summary (mean, median, p5, p95, max) plus the count."""
    return {"count": int(np.asarray(hist).sum()), **histogram_summary(hist)}


def _ratio(numerator, denominator):
    return float(numerator) / float(denominator) if denominator else None


def game_stats(totals, prepared) -> dict:
    """The ``game_stats`` block of the JSON (keys documented in docs/doubloons.md).

    Per-round figures are over the rounds that finished (a capped round is not one).
    """
    games = int(totals["games"][0])
    rounds = int(totals["rounds"][0])
    round_wins = totals["round_wins"]
    seat_turns = totals["seat_turns"]
    lost_turns = totals["seat_lost_turns"]
    specials = {}
    for kind, name in enumerate(SPECIALS):
        drawn = int(totals["specials_drawn"][:, kind].sum())
        taken = int(totals["specials_taken"][:, kind].sum())
        uncovered = int(totals["specials_uncovered"][:, kind].sum())
        used = int(totals["specials_used"][:, kind].sum())
        reached = drawn + taken + uncovered
        specials[name] = {
            "drawn": drawn,
            "taken_from_discard": taken,
            "uncovered": uncovered,
            "used": used,
            "unused": reached - used,
            "used_rate": _ratio(used, reached),
            "drawn_per_round": _ratio(drawn, rounds),
            "used_per_round": _ratio(used, rounds),
            "used_by_seat": [int(v) for v in totals["specials_used"][:, kind]],
        }
    refills = int(totals["seat_deck_refills"].sum())
    return {
        "rounds": rounds,
        "round_wins": {
            "by_seat": [int(v) for v in round_wins],
            "per_match_by_seat": [_ratio(v, games) for v in round_wins],
            "share_by_seat": [_ratio(v, round_wins.sum()) for v in round_wins],
            "by_start_offset": [int(v) for v in totals["round_wins_by_order"]],
            "share_by_start_offset": [_ratio(v, round_wins.sum()) for v in totals["round_wins_by_order"]],
            "shared_rounds": int(totals["shared_rounds"][0]),
            "final_turn_wins": int(totals["final_turn_wins"][0]),
        },
        "rounds_per_match": _summary(totals["length_rounds"]),
        "turns_per_round": _summary(totals["round_turns"]),
        "specials": specials,
        "parrot_left": {
            "rounds": int(totals["rounds_parrot_left"][0]),
            "rate": _ratio(totals["rounds_parrot_left"][0], rounds),
            "parrots": int(totals["parrots_left"][0]),
        },
        "deck_refills": {
            "total": refills,
            "per_round": _ratio(refills, rounds),
            "rounds_refilled": int(totals["rounds_refilled"][0]),
            "rounds_refilled_rate": _ratio(totals["rounds_refilled"][0], rounds),
        },
        "lost_turns": {"total": int(lost_turns.sum()), "by_seat": [int(v) for v in lost_turns]},
        "passed_turns": int(totals["seat_passes"].sum()),
        "parrot_moves": int(totals["seat_parrot_moves"].sum()),
        "redeals": int(totals["redeals"][0]),
        "discard_take_rate_by_seat": [
            _ratio(taken, turns) for taken, turns in zip(totals["seat_discard_takes"], seat_turns, strict=True)
        ],
        "tie_matches": int(totals["tie_games"][0]),
        "capped_matches": int(totals["capped"][0]),
    }


def _number(value, digits=2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def format_stats(stats: dict) -> str:
    """``game_stats`` as text for the terminal table."""
    wins = stats["round_wins"]
    turns = stats["turns_per_round"]
    per_match = stats["rounds_per_match"]
    lines = [
        f"Rounds played: {stats['rounds']:,}  (per match: mean {_number(per_match['mean'])}, "
        f"max {per_match['max']})",
        "Round wins by seat: " + ", ".join(
            f"{seat + 1}: {_number(share * 100 if share is not None else None, 1)}%"
            for seat, share in enumerate(wins["share_by_seat"])),
        "Round wins by turn order (starter first): " + ", ".join(
            f"{_number(share * 100 if share is not None else None, 1)}%" for share in wins["share_by_start_offset"]),
        f"Turns per round: mean {_number(turns['mean'])}, median {turns['median']}, "
        f"p5 {turns['p5']}, p95 {turns['p95']}, max {turns['max']}",
        f"Rounds ending with a parrot still to replace: {_number(_pct(stats['parrot_left']['rate']), 1)}%",
        f"Deck refills per round: {_number(stats['deck_refills']['per_round'])}"
        f"  (rounds with a refill: {_number(_pct(stats['deck_refills']['rounds_refilled_rate']), 1)}%)",
        f"Lost turns (kraken): {stats['lost_turns']['total']:,}   shared rounds: {wins['shared_rounds']:,}"
        f"   tied matches: {stats['tie_matches']:,}   capped matches: {stats['capped_matches']:,}",
        "Special cards:",
        f"  {'card':<15} {'drawn':>11} {'from discard':>13} {'uncovered':>11} {'used':>11} {'used %':>7}",
    ]
    for name, row in stats["specials"].items():
        lines.append(
            f"  {name:<15} {row['drawn']:>11,} {row['taken_from_discard']:>13,} {row['uncovered']:>11,}"
            f" {row['used']:>11,} {_number(_pct(row['used_rate']), 1):>7}"
        )
    return "\n".join(lines)


def _pct(rate):
    return None if rate is None else rate * 100
