"""Skull Island's own statistics: per fortune card and strategy, from the aggregates."""

import math

from analyzer.games.skull_island.components import CARDS


def card_stats(totals, labels: list[str]) -> dict:
    """``cards``: card -> strategy label -> turns, mean turn score, death and island rates.

    Seats with the same strategy label are pooled.
    """
    turns = totals.as_float("card_turns")
    score_sum = totals.as_float("card_score_sum")
    score_sq = totals.as_float("card_score_sq")
    deaths = totals.as_float("card_deaths")
    island = totals.as_float("card_island")
    cards: dict[str, dict] = {}
    for card_index, card in enumerate(CARDS):
        per_label: dict[str, dict] = {}
        for label in dict.fromkeys(labels):
            seats = [i for i, seat_label in enumerate(labels) if seat_label == label]
            n = turns[card_index, seats].sum()
            if n == 0:
                continue
            mean = score_sum[card_index, seats].sum() / n
            variance = max(score_sq[card_index, seats].sum() / n - mean * mean, 0.0)
            per_label[label] = {
                "turns": int(n),
                "mean_turn_score": mean,
                "mean_turn_score_se": math.sqrt(variance / n),
                "death_rate": deaths[card_index, seats].sum() / n,
                "skull_island_rate": island[card_index, seats].sum() / n,
            }
        if per_label:
            cards[card] = per_label
    return cards


def format_cards(cards: dict) -> str:
    """The per-card table for the terminal."""
    card_width = max([len("card"), *(len(card) for card in cards)])
    label_width = max([len("strategy"), *(len(label) for per_label in cards.values() for label in per_label)])
    lines = ["Per fortune card (own turn score, death and Skull Island rates):",
             f"  {'card':<{card_width}}  {'strategy':<{label_width}}  {'turns':>11} {'mean score':>11} {'death':>7} "
             f"{'island':>7}"]
    for card, per_label in cards.items():
        for label, row in per_label.items():
            lines.append(
                f"  {card:<{card_width}}  {label:<{label_width}}  {row['turns']:>11,} {row['mean_turn_score']:>11.1f}"
                f" {row['death_rate'] * 100:>6.1f}% {row['skull_island_rate'] * 100:>6.1f}%"
            )
    return "\n".join(lines)


def extra_stats(totals) -> dict:
    games = max(int(totals["games"][0]), 1)
    dice = int(totals["dice_rolled"][0])
    return {
        "dice_rolled": dice,
        "dice_per_game": dice / games,
        "final_rounds_cancelled": int(totals["triggers_cancelled"][0]),
        "extra_rounds_played": int(totals["extra_rounds"][0]),
        "illegal_decisions": int(totals["illegal_decisions"][0]),
    }


