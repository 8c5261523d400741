"""``analyze score``: parse a finished turn as a referee reads it, then score it."""

import json

from analyzer.errors import AnalyzerError
from analyzer.games.skull_island import rules as rules_module
from analyzer.games.skull_island.components import CARDS, DICE, FACES, SKULL
from analyzer.games.skull_island.scoring import island_allowed, score_faces
from analyzer.output import Rendered


class TurnScore(Rendered):
    """A refereed turn: the change to the player's own total and to each opponent's."""

    def __init__(self, own: int, opponents: int):
        self.own = own
        self.opponents = opponents

    def to_dict(self) -> dict:
        return {"score": self.own, "opponents": self.opponents}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())  # one line, as a referee answers

    def to_table(self) -> str:
        return f"score: {self.own:+d} for the player, {self.opponents:+d} for each opponent"

    def to_csv(self) -> str:
        return f"score,opponents\n{self.own},{self.opponents}\n"

    def to_markdown(self) -> str:
        return f"| score | opponents |\n|---:|---:|\n| {self.own:+d} | {self.opponents:+d} |\n"


def _faces(text: str, what: str) -> list[int]:
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    counts = [0] * len(FACES)
    for name in names:
        if name not in FACES:
            raise AnalyzerError(f"{what}: unknown face {name!r}; faces: {', '.join(FACES)}")
        counts[FACES.index(name)] += 1
    return counts


def referee(rules: dict, card: str, dice: str, chest: str, island: bool) -> TurnScore:
    """The score of the turn described on the command line."""
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
    turn_rules = rules_module.TurnRules.from_rules(rules)
    if island and not island_allowed(CARDS.index(card), turn_rules):
        why = ("skull_island = false: 4 or more skulls on the first roll are an ordinary death"
               if not rules["skull_island"] else
               f"a sea battle card forbids it (sea_battle_blocks_island = true), and this turn has {card}")
        raise AnalyzerError(f"--island: there is no Skull Island under these rules; {why}")
    if island:
        skulls = dice_counts[SKULL] + (1 if card == "skull-1" else 2 if card == "skull-2" else 0)
        if skulls < 4:
            raise AnalyzerError(f"--island: Skull Island needs 4 or more skulls; this turn has {skulls}")
        if any(chest_counts):
            raise AnalyzerError("--island: no dice lie on the chest on Skull Island (it starts with the first roll)")
    own, opponents = score_faces(CARDS.index(card), dice_counts, chest_counts, island, turn_rules)
    return TurnScore(own, opponents)
