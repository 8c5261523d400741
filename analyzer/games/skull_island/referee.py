"""``analyze score``: parse a finished turn as a referee reads it, then score it."""

from analyzer.errors import AnalyzerError
from analyzer.games.skull_island.components import CARDS, DICE, FACES, SKULL


def _faces(text: str, what: str) -> list[int]:
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    counts = [0] * len(FACES)
    for name in names:
        if name not in FACES:
            raise AnalyzerError(f"{what}: unknown face {name!r}; faces: {', '.join(FACES)}")
        counts[FACES.index(name)] += 1
    return counts


def referee(rules: dict, card: str, dice: str, chest: str, island: bool) -> tuple[int, int]:
    """(own change, change for each opponent) of the turn described on the command line."""
    from analyzer.games.skull_island import GAME

    if card not in CARDS:
        raise AnalyzerError(f"--card: unknown card {card!r}; cards: {', '.join(CARDS)}")
    dice_counts = _faces(dice, "--dice")
    if sum(dice_counts) != DICE:
        raise AnalyzerError(f"--dice lists {sum(dice_counts)} dice; a turn ends with all {DICE} dice")
    chest_counts = _faces(chest, "--chest")
    if any(chest_counts) and card != "chest":
        raise AnalyzerError("--chest: dice lie on the chest only with the treasure chest card (--card chest)")
    if chest_counts[SKULL]:
        raise AnalyzerError("--chest: a skull cannot lie on the treasure chest")
    for face, (on_chest, rolled) in enumerate(zip(chest_counts, dice_counts, strict=True)):
        if on_chest > rolled:
            raise AnalyzerError(f"--chest: {on_chest} {FACES[face]} on the chest but only {rolled} among --dice")
    if island:
        skulls = dice_counts[SKULL] + (1 if card == "skull-1" else 2 if card == "skull-2" else 0)
        if skulls < 4:
            raise AnalyzerError(f"--island: Skull Island needs 4 or more skulls; this turn has {skulls}")
        if any(chest_counts):
            raise AnalyzerError("--island: no dice lie on the chest on Skull Island (it starts with the first roll)")
    return GAME.score(rules, card, dice_counts, chest_counts, island)
