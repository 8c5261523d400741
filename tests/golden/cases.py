"""The golden runs: every game, several strategies and player counts, at fixed seeds.

``python -m tests.golden.cases`` re-records ``tests/golden/*.json``. Re-record only in a
commit of its own whose message says why the results moved.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
#: the checkout: paths inside it are recorded relative to it
CHECKOUT = HERE.parent.parent
#: fields that measure the machine, not the games
TIMING_FIELDS = ("wall_seconds", "games_per_second", "workers", "version")

#: name -> keyword arguments of analyzer.api.simulate (n spans several chunks)
CASES: dict[str, dict] = {
    "skull-island-threshold-4p": dict(game="skull-island", players=4, strategies=["threshold"], seed=11),
    "skull-island-mixed-3p": dict(game="skull-island", players=3,
                                  strategies=["set-chaser", "endgame", "random"], seed=12),
    "skull-island-optimal-ev-2p": dict(game="skull-island", players=2,
                                       strategies=["optimal-ev", "optimal-ev:final_round=true"], seed=13),
    "skull-island-first-roll-5p": dict(game="skull-island", players=5, strategies=["first-roll"], seed=14),
    "lucky-pirates-4p": dict(game="lucky-pirates", players=4, seed=21),
    "lucky-pirates-2p": dict(game="lucky-pirates", players=2, seed=22),
    "doubloons-greedy-2p": dict(game="doubloons", players=2, strategies=["greedy"], seed=31),
    "doubloons-mixed-4p": dict(game="doubloons", players=4,
                               strategies=["greedy", "saboteur", "random", "greedy:take_parrot=false"], seed=32),
    "dead-mans-chest-sensible-4p": dict(game="dead-mans-chest", players=4, strategies=["sensible"], seed=41),
    "dead-mans-chest-mixed-3p": dict(game="dead-mans-chest", players=3,
                                     strategies=["aggressive", "thrifty", "random"], seed=42),
    "dead-mans-chest-6p": dict(game="dead-mans-chest", players=6, strategies=["sensible"], seed=43),
}
GAMES = 5000


def run_case(name: str, saved_games: Path) -> dict:
    """The run's JSON without timing, plus a checksum of its ``--save-games`` rows."""
    from analyzer import api

    result = api.simulate(n=GAMES, workers=2, save_games=saved_games, **CASES[name])
    data = machine_independent(result.to_dict())
    data["saved_games_sha256"] = hashlib.sha256(saved_games.read_bytes()).hexdigest()
    return data


def machine_independent(data: dict) -> dict:
    """The run's JSON without what depends on the machine: timing fields, and where the
    checkout lies (a path inside it, e.g. a packaged data file's, is made relative)."""
    inside = json.dumps(str(CHECKOUT) + "/")[1:-1]
    data = json.loads(json.dumps(data).replace(inside, ""))
    for field in TIMING_FIELDS:
        data["run"].pop(field, None)
    return data


def path(name: str) -> Path:
    return HERE / f"{name}.json"


def main(names: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for name in names or CASES:
            data = run_case(name, Path(folder) / f"{name}.csv")
            path(name).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(f"recorded {path(name).name}")


if __name__ == "__main__":
    main(sys.argv[1:])
