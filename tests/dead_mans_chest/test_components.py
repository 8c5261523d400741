"""The component file: the packaged reconstruction is what the issue asks for, and a
bad file gets one clear line (issue 5, "The reconstruction" and "Bad input")."""

import re
from collections import Counter

import pytest

from analyzer.errors import AnalyzerError
from analyzer.games.dead_mans_chest.component_file import PACKAGED_PATH, load_components
from analyzer.games.dead_mans_chest.layout import SPACE_KINDS
from analyzer.runspec import resolve

from .rigged_game import prepared

PACKAGED_TEXT = PACKAGED_PATH.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def packaged():
    return load_components("packaged")


def test_counts_of_the_box(packaged):
    assert (len(packaged.captains), len(packaged.ships), len(packaged.mascots)) == (8, 9, 8)
    assert (len(packaged.tiles), len(packaged.cards)) == (25, 35)


def test_printed_values_kept(packaged):
    galleon = [s for s in packaged.ships if s.rank == "Man of War"]
    assert [(s.fee, s.combat) for s in galleon] == [(3000, 3)]
    assert sum(s.black_pearl for s in packaged.ships) == 1
    assert {m.name: m.fee for m in packaged.mascots}["Donkey"] == 200
    texts = [s.text for s in packaged.spaces]
    assert "Sell your pieces of eight. Collect $200." in texts


def test_board_shape(packaged):
    routes = {r.name: r for r in packaged.routes}
    assert set(routes) == {"landlubber", "pirate"}
    kinds = {name: [packaged.spaces[i].kind for i in r.spaces] for name, r in routes.items()}
    # both starts merge before the Shipyard: the routes share everything from it on
    shipyard = {name: k.index("shipyard") for name, k in kinds.items()}
    tails = {name: routes[name].spaces[shipyard[name] - 1:] for name in routes}
    assert tails["landlubber"] == tails["pirate"]
    assert shipyard["landlubber"] != shipyard["pirate"]  # starts of different length
    main = kinds["pirate"][shipyard["pirate"]:]
    assert len(main) - 1 == 60 and main[-1] == "isla_cruces"
    assert main.index("choose_a_mascot") == 20
    assert set(SPACE_KINDS) <= {s.kind for s in packaged.spaces}


def test_space_proportions(packaged):
    # reconstruction 2: about one space in six shares the loot, three in eight are LIFE
    # spaces, and both starts pass the same number of Share the Loot spaces
    counts = Counter(s.kind for s in packaged.spaces)
    n = len(packaged.spaces)
    assert abs(counts["share_the_loot"] / n - 1 / 6) < 0.03
    assert abs(counts["life"] / n - 3 / 8) < 0.03
    assert packaged.loot_spaces(0) == packaged.loot_spaces(1) == 12


def _write(tmp_path, text):
    path = tmp_path / "box.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _error(tmp_path, text, players=4, **rules):
    with pytest.raises(AnalyzerError) as info:
        resolve(game="dead-mans-chest", players=players, rules={"components": _write(tmp_path, text), **rules})
    message = str(info.value)
    assert "\n" not in message
    return message


def _replace(old, new, count=1):
    assert PACKAGED_TEXT.count(old) >= count, old
    return PACKAGED_TEXT.replace(old, new, count)


def test_board_without_isla_cruces(tmp_path):
    message = _error(tmp_path, _replace('  "isla_cruces",', '  "life",'))
    assert "no Isla Cruces" in message and "box.toml" in message


def test_board_without_a_shipyard(tmp_path):
    assert "0 Shipyards" in _error(tmp_path, _replace('  "shipyard",', '  "life",'))


def test_route_bypassing_the_shipyard(tmp_path):
    # the pirate's route joins the main route after the Shipyard
    text = _replace('''[[board]]
name = "pirate"
title = "Pirate's Start"
then = "harbour"''', '''[[board]]
name = "pirate"
title = "Pirate's Start"
then = "open_sea"''')
    text = text.replace('name = "main"\ntitle = "The main route"', 'name = "main"\nthen = "open_sea"')
    forty_fifth = '  "share_the_loot",' + " " * 65 + "# 45"
    assert text.count(forty_fifth) == 1
    text = text.replace(forty_fifth, '''  "share_the_loot",
]

[[board]]
name = "open_sea"
spaces = [''')
    message = _error(tmp_path, text)
    assert "'pirate'" in message and "0 Shipyards" in message


def test_captain_starting_off_the_board(tmp_path):
    jack = 'name = "Jack Sparrow"\nstart = '
    message = _error(tmp_path, _replace(jack + '"pirate"', jack + '"tortuga"'))
    assert "Jack Sparrow" in message and "'tortuga'" in message and "not a start on the board" in message


def test_tile_with_unknown_mascot(tmp_path):
    message = _error(tmp_path, _replace('{ value = 2000, mascot = "Monkey" }', '{ value = 2000, mascot = "Kraken" }'))
    assert "unknown mascot 'Kraken'" in message


@pytest.mark.parametrize("old,new,words", [
    ('rank = "Sloop"\nfee = 500', 'rank = "Sloop"\nfee = -500', "ship 'Sloop' has a negative fee"),
    ('name = "Donkey"\nfee = 200', 'name = "Donkey"\nfee = -200', "mascot 'Donkey' has a negative fee"),
    ('{ kind = "pay", amount = 400, text = "Bribe', '{ kind = "pay", amount = -400, text = "Bribe', "negative amount"),
    ('{ value = 3000 }', '{ value = -3000 }', "negative value"),
    ('name = "Jack Sparrow"\nstart = "pirate"\nloot = 250', 'name = "Jack Sparrow"\nstart = "pirate"\nloot = -250',
     "negative loot"),
])
def test_negative_numbers(tmp_path, old, new, words):
    assert words in _error(tmp_path, _replace(old, new))


def test_fewer_captains_than_players_plus_one(tmp_path):
    # 5 captains: enough for 4 players, not for 5 (the draft needs players + 1)
    text = PACKAGED_TEXT
    for name in ("Bootstrap Bill Turner", "Joshamee Gibbs", "Hector Barbossa"):
        text = re.sub(rf'\[\[captains\]\]\nname = "{name}"\nstart = "\w+"\nloot = \d+\n', "", text)
    assert len(re.findall(r"^\[\[captains\]\]", text, re.M)) == 5
    resolve(game="dead-mans-chest", players=4, rules={"components": _write(tmp_path, text)})
    message = _error(tmp_path, text, players=5)
    assert "5 captains for 5 players" in message and "players + 1 = 6" in message


@pytest.mark.parametrize("old,new,words", [
    ('action = "pay_each"', 'action = "mutiny"', "unknown action 'mutiny'"),
    ('  "davy_jones",', '  "kraken",', "unknown kind 'kraken'"),
    ('name = "pirate-analyzer reconstruction 2"', 'name = "x"\ncolour = "red"', "unknown key 'colour'"),
    ('fee = 3000', 'fee = 3000\nblack_pearl = true', "more than one ship is marked black_pearl"),
    ('loot = 250', 'loot = 250\n[[board]', "not valid TOML"),
])
def test_other_bad_files(tmp_path, old, new, words):
    assert words in _error(tmp_path, _replace(old, new))


def test_missing_file():
    with pytest.raises(AnalyzerError, match="not found"):
        resolve(game="dead-mans-chest", rules={"components": "/nonexistent/box.toml"})


def test_unknown_start_route():
    with pytest.raises(AnalyzerError, match="start_route = 'harbour' is not allowed.*landlubber, pirate"):
        resolve(game="dead-mans-chest", rules={"start_route": "harbour"})


def test_a_user_file_is_used_and_named(tmp_path):
    # a box where every captain loots $1000: the kernel reads the file, the stats name it
    path = _write(tmp_path, re.sub(r"^loot = \d+", "loot = 1000", PACKAGED_TEXT, flags=re.M))
    prep = prepared(rules={"components": path})
    assert set(prep.inputs.captains[:, 1]) == {1000}
    assert prep.facts["components_file"] == path


def test_cli_bad_component_file(tmp_path):
    """Through the command line: exit status 2 and one line on stderr naming the problem."""
    from click.testing import CliRunner

    from analyzer.cli import main

    path = _write(tmp_path, _replace('{ value = 2000, mascot = "Monkey" }', '{ value = 2000, mascot = "Kraken" }'))
    result = CliRunner().invoke(main, ["simulate", "--game", "dead-mans-chest", "--n", "100", "--quiet",
                                       "--set", f"components={path}"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [result.output.strip()]
    assert "unknown mascot 'Kraken'" in result.stderr and "Traceback" not in result.output
