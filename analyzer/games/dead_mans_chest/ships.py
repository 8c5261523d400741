"""Ships: what one is worth, how strong, what counts as an upgrade, and the odds of a fight."""

from analyzer.engine.jit import njit
from analyzer.games.dead_mans_chest.layout import NO_SHIP, SHIP_COMBAT, SHIP_FEE, SPINNER


@njit(cache=True, nogil=True)
def ship_fee(m, ship):
    return 0 if ship == NO_SHIP else m.ships[ship, SHIP_FEE]


@njit(cache=True, nogil=True)
def ship_combat(m, ship):
    return 0 if ship == NO_SHIP else m.ships[ship, SHIP_COMBAT]


@njit(cache=True, nogil=True)
def is_upgrade(m, ship, current):
    """Is ``ship`` an upgrade on ``current``? RULES.md: "weaker" means lower combat, the fee
    breaks ties; any ship is an upgrade on ``NO_SHIP``."""
    if current == NO_SHIP:
        return True
    ships = m.ships
    if ships[ship, SHIP_COMBAT] != ships[current, SHIP_COMBAT]:
        return ships[ship, SHIP_COMBAT] > ships[current, SHIP_COMBAT]
    return ships[ship, SHIP_FEE] > ships[current, SHIP_FEE]


@njit(cache=True, nogil=True)
def attack_win_probability(advantage):
    """P(the attacker wins) when both spin 1..10, the attacker adds ``advantage`` more
    combat than the defender, and ties are re-spun."""
    wins = 0
    losses = 0
    for a in range(1, SPINNER + 1):
        for d in range(1, SPINNER + 1):
            if a + advantage > d:
                wins += 1
            elif a + advantage < d:
                losses += 1
    return wins / (wins + losses)
