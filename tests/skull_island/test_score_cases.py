"""Hand-checked referee cases for `analyze score --game skull-island`.

Black-box tests written from ../shared/RULES.md (skull-island section) alone.
Every expected value below was computed by hand; the arithmetic is in the comment.

Reminders from RULES.md used throughout:
- set = all non-skull dice of one face (+ the card's coin/diamond); values
  3->100, 4->200, 5->500, 6->1000, 7->2000, 8->4000, 9->4000;
- every coin and diamond also scores 100 (the card's one too);
- full chest +500: none of the 8 dice is a skull and each one is in a set of >=3,
  is a coin/diamond, or is a sabre needed by a won sea battle;
- 3+ skulls in total (card skulls count) off Skull Island = death = 0.
"""

import json

import pytest

from tests.cli_checks import assert_one_line_error, run_cli

FACES = ("coin", "diamond", "monkey", "parrot", "sword", "skull")


def _d(*groups):
    """'3 coin', 'parrot', ... -> 'coin,coin,coin,parrot,...' (must be 8 dice)."""
    dice = []
    for group in groups:
        parts = group.split()
        count, face = (int(parts[0]), parts[1]) if len(parts) == 2 else (1, parts[0])
        assert face in FACES, face
        dice += [face] * count
    assert len(dice) == 8, groups
    return ",".join(dice)


def _c(*groups):
    """Chest dice, same notation as _d but any count."""
    dice = []
    for group in groups:
        parts = group.split()
        count, face = (int(parts[0]), parts[1]) if len(parts) == 2 else (1, parts[0])
        assert face in FACES, face
        dice += [face] * count
    return ",".join(dice)


def _args(card, dice, chest=None, island=False, sets=()):
    args = ["score", "--game", "skull-island", "--card", card, "--dice", dice]
    if chest:
        args += ["--chest", chest]
    if island:
        args += ["--island"]
    for s in sets:
        args += ["--set", s]
    args += ["--json"]
    return args


# (card, dice, chest, island, --set values, score, opponents, arithmetic)
CASES = [
    # ---- the six checked cases printed in RULES.md ----------------------------
    ("captain", _d("2 diamond", "2 coin", "2 monkey", "parrot", "sword"), None, False, (), 800, 0,
     "RULES checked: 4 coins/diamonds x100 = 400, no set of 3, not all score; x2 = 800"),
    ("coin", _d("8 coin"), None, False, (), 5400, 0,
     "RULES checked: 9 coins (8 + card) = 4000 + 9x100 = 900 + full chest 500 = 5400"),
    ("captain", _d("8 sword"), None, False, (), 9000, 0,
     "RULES checked: 8 swords 4000 + full chest 500 = 4500; x2 = 9000"),
    ("coin", _d("3 monkey", "3 sword", "2 skull"), None, False, (), 300, 0,
     "RULES checked: monkeys 100 + swords 100 + card coin 100 = 300"),
    ("monkey-business", _d("3 monkey", "3 parrot", "skull", "coin"), None, False, (), 1100, 0,
     "RULES checked: 6 animals 1000 + coin 100 = 1100 (skull: no full chest)"),
    ("sea-battle-2", _d("4 monkey", "2 sword", "2 coin"), None, False, (), 1200, 0,
     "RULES checked: monkeys 200 + coins 200 + battle 300 + full chest 500 = 1200"),

    # ---- set values 3..9 of a kind (card none) --------------------------------
    ("none", _d("3 monkey", "2 parrot", "2 sword", "skull"), None, False, (), 100, 0,
     "3 monkeys = 100; pairs nothing"),
    ("none", _d("4 parrot", "2 monkey", "2 sword"), None, False, (), 200, 0,
     "4 parrots = 200; pairs nothing; no full chest"),
    ("none", _d("5 sword", "2 monkey", "parrot"), None, False, (), 500, 0,
     "5 swords = 500; no full chest"),
    ("none", _d("6 monkey", "2 parrot"), None, False, (), 1000, 0,
     "6 monkeys = 1000; parrot pair spoils full chest"),
    ("none", _d("7 parrot", "skull"), None, False, (), 2000, 0,
     "7 parrots = 2000; skull spoils full chest"),
    ("none", _d("7 sword", "monkey"), None, False, (), 2000, 0,
     "7 swords = 2000; lone monkey spoils full chest"),
    ("none", _d("8 monkey"), None, False, (), 4500, 0,
     "8 monkeys = 4000 + full chest 500 = 4500"),
    ("diamond", _d("8 diamond"), None, False, (), 5400, 0,
     "9 diamonds (8 + card) = 4000 + 9x100 = 900 + full chest 500 = 5400"),

    # ---- coins and diamonds ---------------------------------------------------
    ("none", _d("coin", "diamond", "2 monkey", "2 parrot", "2 sword"), None, False, (), 200, 0,
     "coin 100 + diamond 100 = 200; pairs nothing"),
    ("none", _d("3 coin", "3 diamond", "2 skull"), None, False, (), 800, 0,
     "coin set 100 + diamond set 100 + 6x100 = 800; skulls: no full chest"),
    ("none", _d("4 coin", "4 diamond"), None, False, (), 1700, 0,
     "coin set 200 + diamond set 200 + 8x100 + full chest 500 = 1700"),
    ("none", _d("coin", "diamond", "3 monkey", "3 parrot"), None, False, (), 900, 0,
     "coin 100 + diamond 100 + monkeys 100 + parrots 100 + full chest 500 (lone coin/diamond score) = 900"),
    ("none", _d("3 coin", "3 monkey", "2 diamond"), None, False, (), 1200, 0,
     "coin set 100 + 3x100 + monkeys 100 + 2 diamonds 200 + full chest 500 = 1200"),
    ("coin", _d("2 coin", "3 monkey", "3 parrot"), None, False, (), 1100, 0,
     "3 coins (2 + card) set 100 + 3x100 + monkeys 100 + parrots 100 + full chest 500 = 1100"),
    ("diamond", _d("2 diamond", "2 monkey", "2 parrot", "2 sword"), None, False, (), 400, 0,
     "3 diamonds (2 + card) set 100 + 3x100 = 400; pairs spoil full chest"),
    ("coin", _d("2 monkey", "2 parrot", "2 sword", "2 skull"), None, False, (), 100, 0,
     "card coin scores alone 100; nothing else"),

    # ---- full chest spoiled ---------------------------------------------------
    ("none", _d("4 coin", "3 monkey", "parrot"), None, False, (), 700, 0,
     "coin set 200 + 4x100 + monkeys 100 = 700; lone parrot spoils full chest"),
    ("none", _d("3 coin", "3 monkey", "2 parrot"), None, False, (), 500, 0,
     "coin set 100 + 3x100 + monkeys 100 = 500; parrot pair spoils full chest"),
    ("none", _d("4 coin", "3 diamond", "skull"), None, False, (), 1000, 0,
     "coin set 200 + diamond set 100 + 7x100 = 1000; skull spoils full chest"),

    # ---- monkey business ------------------------------------------------------
    ("monkey-business", _d("4 monkey", "4 parrot"), None, False, (), 4500, 0,
     "8 animals one set 4000 + full chest 500 = 4500"),
    ("monkey-business", _d("3 monkey", "2 parrot", "3 coin"), None, False, (), 1400, 0,
     "5 animals 500 + coin set 100 + 3x100 + full chest 500 = 1400"),
    ("monkey-business", _d("2 monkey", "parrot", "2 sword", "2 skull", "diamond"), None, False, (), 200, 0,
     "3 animals 100 + diamond 100 = 200"),
    ("monkey-business", _d("monkey", "parrot", "3 coin", "3 sword"), None, False, (), 500, 0,
     "2 animals nothing; coin set 100 + 3x100 + swords 100 = 500; animals spoil full chest"),

    # ---- captain ----------------------------------------------------------------
    ("captain", _d("4 coin", "4 diamond"), None, False, (), 3400, 0,
     "(200 + 200 + 8x100 + full chest 500) = 1700; x2 = 3400"),
    ("captain", _d("3 monkey", "2 parrot", "coin", "2 skull"), None, False, (), 400, 0,
     "(monkeys 100 + coin 100) = 200; x2 = 400"),
    ("captain", _d("3 skull", "5 coin"), None, False, (), 0, 0,
     "3 skulls: death, 0"),

    # ---- sorceress: scores like no card ----------------------------------------
    ("sorceress", _d("3 coin", "3 monkey", "2 skull"), None, False, (), 500, 0,
     "coin set 100 + 3x100 + monkeys 100 = 500"),
    ("sorceress", _d("4 coin", "4 diamond"), None, False, (), 1700, 0,
     "200 + 200 + 8x100 + full chest 500 = 1700"),
    ("sorceress", _d("3 skull", "5 coin"), None, False, (), 0, 0,
     "3 skulls: death, 0"),

    # ---- death and skull cards -------------------------------------------------
    ("none", _d("3 skull", "5 coin"), None, False, (), 0, 0,
     "3 skulls: death, 0"),
    ("none", _d("4 skull", "4 diamond"), None, False, (), 0, 0,
     "4 skulls not on Skull Island: death, 0"),
    ("skull-1", _d("2 skull", "6 coin"), None, False, (), 0, 0,
     "1 card skull + 2 dice skulls = 3: death, 0"),
    ("skull-2", _d("skull", "7 coin"), None, False, (), 0, 0,
     "2 card skulls + 1 dice skull = 3: death, 0"),
    ("skull-1", _d("skull", "3 coin", "3 diamond", "monkey"), None, False, (), 800, 0,
     "1 + 1 = 2 skulls, alive: 100 + 100 + 6x100 = 800"),
    ("skull-2", _d("3 coin", "3 monkey", "2 parrot"), None, False, (), 500, 0,
     "2 skulls, alive: coin set 100 + 3x100 + monkeys 100 = 500"),
    ("skull-1", _d("4 coin", "4 diamond"), None, False, (), 1700, 0,
     "1 card skull, alive; none of the 8 dice is a skull: 200 + 200 + 800 + full chest 500 = 1700"),

    # ---- treasure chest --------------------------------------------------------
    ("chest", _d("4 coin", "4 diamond"), _c("2 coin"), False, (), 1700, 0,
     "alive: all dice score normally: 200 + 200 + 800 + full chest 500 = 1700"),
    ("chest", _d("3 coin", "3 monkey", "2 skull"), _c("3 monkey"), False, (), 500, 0,
     "alive: every die scores, not only the chest: 100 + 300 + monkeys 100 = 500"),
    ("chest", _d("3 skull", "3 coin", "2 monkey"), _c("3 coin"), False, (), 400, 0,
     "3 skulls; chest 3 coins: set 100 + 3x100 = 400"),
    ("chest", _d("3 skull", "diamond", "3 monkey", "parrot"), _c("diamond", "2 monkey"), False, (), 100, 0,
     "3 skulls; only chest dice score: diamond 100; 2 chest monkeys no set (3rd monkey is off the card)"),
    ("chest", _d("3 skull", "5 coin"), _c("5 coin"), False, (), 1000, 0,
     "3 skulls; chest 5 coins: set 500 + 5x100 = 1000; no full chest"),
    ("chest", _d("3 skull", "4 sword", "coin"), _c("4 sword"), False, (), 200, 0,
     "3 skulls; chest 4 swords = 200; the coin off the card scores nothing"),
    ("chest", _d("3 skull", "3 sword", "2 parrot"), None, False, (), 0, 0,
     "3 skulls, empty chest: 0"),

    # ---- sea battles -----------------------------------------------------------
    ("sea-battle-2", _d("2 sword", "3 monkey", "3 parrot"), None, False, (), 1000, 0,
     "won: monkeys 100 + parrots 100 + 300 + full chest 500 (2 needed sabres score) = 1000"),
    ("sea-battle-2", _d("2 sword", "3 monkey", "2 parrot", "coin"), None, False, (), 500, 0,
     "won: monkeys 100 + coin 100 + 300 = 500; parrot pair spoils full chest"),
    ("sea-battle-2", _d("2 sword", "2 coin", "2 diamond", "2 monkey"), None, False, (), 700, 0,
     "won: 4x100 + 300 = 700; monkey pair spoils full chest"),
    ("sea-battle-3", _d("3 sword", "3 coin", "2 skull"), None, False, (), 1000, 0,
     "won: swords 100 + coin set 100 + 3x100 + 500 = 1000; skulls: no full chest"),
    ("sea-battle-3", _d("4 sword", "skull", "3 monkey"), None, False, (), 800, 0,
     "won: swords 200 + monkeys 100 + 500 = 800; skull: no full chest"),
    ("sea-battle-4", _d("4 sword", "4 coin"), None, False, (), 2300, 0,
     "won: swords 200 + coin set 200 + 4x100 + 1000 + full chest 500 = 2300"),
    ("sea-battle-2", _d("sword", "7 diamond"), None, False, (), -300, 0,
     "lost (1 < 2 sabres): -300 and nothing else"),
    ("sea-battle-3", _d("2 sword", "6 coin"), None, False, (), -500, 0,
     "lost (2 < 3 sabres): -500 and nothing else"),
    ("sea-battle-4", _d("3 sword", "5 coin"), None, False, (), -1000, 0,
     "lost (3 < 4 sabres): -1000 and nothing else"),
    ("sea-battle-3", _d("3 skull", "sword", "4 coin"), None, False, (), -500, 0,
     "lost by death: -500"),
    ("sea-battle-2", _d("3 skull", "2 sword", "3 coin"), None, False, (), -300, 0,
     "died with the 2 sabres showing: dying included -> -300"),
    ("sea-battle-4", _d("4 skull", "4 sword"), None, False, (), -1000, 0,
     "sea battle forbids Skull Island: 4 skulls = death -> -1000"),

    # ---- Skull Island ----------------------------------------------------------
    ("none", _d("4 skull", "2 monkey", "2 coin"), None, True, (), 0, -400,
     "island: 4 skulls x 100 = -400 each opponent; player 0"),
    ("none", _d("7 skull", "coin"), None, True, (), 0, -700,
     "island: 7 skulls x 100 = -700"),
    ("skull-2", _d("2 skull", "3 coin", "3 monkey"), None, True, (), 0, -400,
     "island: 2 card + 2 dice skulls = 4 x 100 = -400"),
    ("skull-2", _d("3 skull", "5 parrot"), None, True, (), 0, -500,
     "island: 2 card + 3 dice skulls = 5 x 100 = -500"),
    ("skull-1", _d("5 skull", "3 parrot"), None, True, (), 0, -600,
     "island: 1 card + 5 dice skulls = 6 x 100 = -600"),
    ("captain", _d("4 skull", "4 diamond"), None, True, (), 0, -800,
     "island with captain: 4 x 200 = -800"),
    ("captain", _d("5 skull", "3 monkey"), None, True, (), 0, -1000,
     "island with captain: 5 x 200 = -1000"),
    ("coin", _d("4 skull", "4 coin"), None, True, (), 0, -400,
     "island: 4 x 100 = -400; coins worth nothing to the player"),
    ("sorceress", _d("4 skull", "4 parrot"), None, True, (), 0, -400,
     "island: 4 x 100 = -400"),
    ("monkey-business", _d("6 skull", "2 monkey"), None, True, (), 0, -600,
     "island: 6 x 100 = -600"),

    # ---- storm (promo) ---------------------------------------------------------
    ("storm", _d("3 coin", "2 diamond", "3 monkey"), None, False, (), 1200, 0,
     "coin set 100 + 5x100 = 600; monkeys score nothing; x2 = 1200"),
    ("storm", _d("8 coin"), None, False, (), 9600, 0,
     "8 coins 4000 + 8x100 = 4800, no full chest; x2 = 9600"),
    ("storm", _d("4 coin", "4 diamond"), None, False, (), 2400, 0,
     "200 + 200 + 8x100 = 1200, no full chest; x2 = 2400"),
    ("storm", _d("4 monkey", "4 parrot"), None, False, (), 0, 0,
     "no coins/diamonds: 0"),
    ("storm", _d("2 skull", "diamond", "5 sword"), None, False, (), 200, 0,
     "diamond 100; swords nothing; x2 = 200"),
    ("storm", _d("3 skull", "5 coin"), None, False, (), 0, -300,
     "3 skulls under storm score as Skull Island: 3 x 100 = -300 each opponent; player 0"),
    ("storm", _d("5 skull", "3 coin"), None, True, (), 0, -500,
     "island: 5 x 100 = -500"),

    # ---- peace (promo) ---------------------------------------------------------
    ("peace", _d("3 coin", "3 diamond", "sword", "monkey"), None, False, (), -1000, 0,
     "1 sabre showing: -1000 and nothing else"),
    ("peace", _d("8 sword"), None, False, (), -8000, 0,
     "8 sabres: -8000 and nothing else"),
    ("peace", _d("3 skull", "2 sword", "3 coin"), None, False, (), -2000, 0,
     "dying is ending the turn: 2 sabres -> -2000"),
    ("peace", _d("3 skull", "5 coin"), None, False, (), 0, 0,
     "died without sabres: 0"),
    ("peace", _d("4 coin", "4 diamond"), None, False, (), 1700, 0,
     "no sabre: normal 200 + 200 + 800 + full chest 500 = 1700"),
    ("peace", _d("3 monkey", "3 parrot", "2 skull"), None, False, (), 200, 0,
     "no sabre: monkeys 100 + parrots 100 = 200"),
    ("peace", _d("4 skull", "sword", "3 monkey"), None, True, (), 0, 0,
     "island with a sabre showing: opponents' loss cancelled; player 0"),
    ("peace", _d("5 skull", "3 monkey"), None, True, (), 0, -500,
     "island without sabre: 5 x 100 = -500; player 0"),

    # ---- rule options via --set ------------------------------------------------
    ("none", _d("4 coin", "4 diamond"), None, False, ("full_chest_bonus=1000",), 2200, 0,
     "200 + 200 + 800 + full chest 1000 = 2200"),
    ("none", _d("4 coin", "4 diamond"), None, False, ("full_chest_bonus=0",), 1200, 0,
     "200 + 200 + 800 + full chest 0 = 1200"),
    ("sea-battle-2", _d("4 monkey", "2 sword", "2 coin"), None, False, ("full_chest_bonus=1000",), 1700, 0,
     "monkeys 200 + coins 200 + battle 300 + full chest 1000 = 1700"),
    ("none", _d("3 monkey", "2 parrot", "2 sword", "skull"), None, False,
     ("set_values=[200,300,600,1200,2400,4800,4800]",), 200, 0,
     "3 of a kind now 200"),
    ("diamond", _d("8 diamond"), None, False,
     ("set_values=[100,200,500,1000,2000,4000,8000]",), 9400, 0,
     "9 diamonds now 8000 + 9x100 + full chest 500 = 9400"),
    ("captain", _d("8 sword"), None, False,
     ("set_values=[100,200,500,1000,2000,5000,5000]",), 11000, 0,
     "8 swords now 5000 + full chest 500 = 5500; x2 = 11000"),
]


def _id(case):
    card, dice, chest, island, sets, score, opp, _ = case
    parts = [card, dice.replace(",", "")[:40]]
    if chest:
        parts.append("chest")
    if island:
        parts.append("island")
    if sets:
        parts.append("set")
    return "-".join(parts)


@pytest.mark.parametrize(
    "card,dice,chest,island,sets,score,opponents,why", CASES, ids=[_id(c) for c in CASES]
)
def test_score_case(card, dice, chest, island, sets, score, opponents, why):
    result = run_cli(_args(card, dice, chest, island, sets))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["score"] == score, why
    assert data["opponents"] == opponents, why


def test_enough_cases():
    assert len(CASES) >= 40
    cards = {c[0] for c in CASES}
    assert cards == {
        "none", "coin", "diamond", "sorceress", "captain", "chest", "monkey-business",
        "skull-1", "skull-2", "sea-battle-2", "sea-battle-3", "sea-battle-4", "storm", "peace",
    }


@pytest.mark.parametrize(
    "card,dice,island",
    [
        ("captain", _d("8 sword"), False),
        ("sea-battle-4", _d("3 sword", "5 coin"), False),
        ("captain", _d("4 skull", "4 diamond"), True),
    ],
)
def test_score_json_values_are_integers(card, dice, island):
    result = run_cli(_args(card, dice, island=island))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= {"score", "opponents"}
    assert isinstance(data["score"], int) and not isinstance(data["score"], bool)
    assert isinstance(data["opponents"], int) and not isinstance(data["opponents"], bool)


# ---- bad input: exit 2, one line, no traceback --------------------------------

BAD = [
    # (args, a word the message should name)
    (["--card", "none", "--dice", "coin,coin,coin,coin,coin,coin,coin"], None),               # 7 dice
    (["--card", "none", "--dice", "coin,coin,coin,coin,coin,coin,coin,coin,coin"], None),     # 9 dice
    (["--card", "none", "--dice", "coin,coin,coin,coin,coin,coin,coin,banana"], "banana"),    # unknown face
    (["--card", "joker", "--dice", "coin,coin,coin,coin,coin,coin,coin,coin"], "joker"),      # unknown card
    (["--card", "chest", "--dice", "coin,monkey,monkey,monkey,parrot,parrot,sword,sword",
      "--chest", "coin,coin"], None),  # 2 coins on chest, 1 rolled
    (["--card", "chest", "--dice", "coin,monkey,monkey,monkey,parrot,parrot,sword,sword",
      "--chest", "diamond"], None),                                                           # chest die not among dice
]


@pytest.mark.parametrize("extra,word", BAD, ids=["7-dice", "9-dice", "unknown-face", "unknown-card",
                                                 "chest-too-many", "chest-not-among-dice"])
def test_score_bad_input(extra, word):
    result = run_cli(["score", "--game", "skull-island", *extra, "--json"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].strip(), result.output
    if word:
        assert word in result.output


def test_score_outputs():
    args = ["score", "--card", "sea-battle-2", "--dice", _d("4 monkey", "2 sword", "2 coin")]  # no --game: the default
    assert run_cli(args).stdout == "score: +1200 for the player, +0 for each opponent\n"
    assert run_cli([*args, "--json"]).stdout == '{"score": 1200, "opponents": 0}\n'
    assert run_cli([*args, "--format", "csv"]).stdout == "score,opponents\n1200,0\n"
    assert "| +1200 | +0 |" in run_cli([*args, "--format", "markdown"]).stdout


def test_score_is_refused_for_a_game_without_a_referee():
    result = run_cli(["score", "--game", "lucky-pirates", "--card", "coin", "--dice", _d("8 coin")])
    assert_one_line_error(result, "lucky-pirates offers no 'score' command", "skull-island")
