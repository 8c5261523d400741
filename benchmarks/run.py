"""Run every benchmark (benchmarks/bench_*.py) and print its figures: `make bench`.

`python benchmarks/run.py skull_island lucky` runs only the benchmarks whose name
contains one of the words.
"""

import importlib.util
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent


def main(words: list[str]) -> int:
    failures = 0
    for path in sorted(HERE.glob("bench_*.py")):
        if words and not any(w in path.stem for w in words):
            continue
        print(f"=== {path.stem}", flush=True)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        start = time.perf_counter()
        try:
            spec.loader.exec_module(module)
            module.main()
        except Exception as exc:  # noqa: BLE001 - report and go on with the others
            failures += 1
            print(f"!!! {path.stem} failed: {type(exc).__name__}: {exc}", flush=True)
        print(f"--- {path.stem}: {time.perf_counter() - start:.1f} s\n", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
