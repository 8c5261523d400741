"""Instructions and mispredicted branches per game of one game's kernel, counted by valgrind's callgrind.

Timing cannot tell a few percent apart on a shared machine; these counts are the same in every
run. The kernel plays ``n`` games on one thread after a warm-up; callgrind counts only those
(``--instr-atstart=no``, switched on and off with ``callgrind_control``), with its model of the
branch predictor. Needs valgrind (``apt-get install valgrind``); not part of ``make bench``.

    python benchmarks/callgrind_counts.py lucky-pirates 4e4
    python benchmarks/callgrind_counts.py skull-island 1e4 --players 4 --strategy threshold
    python benchmarks/callgrind_counts.py lucky-pirates 2e4 --blocks   # where in the kernel they go

Run it in two checkouts (``PYTHONPATH=<checkout>``) to compare them. ``--blocks`` also prints the
profile of the compiled chunk loop (the template with the game's play function inlined, and what
lies after it in memory, as a rule the functions it calls): each run of instructions executed
equally often, by address, with its executions and instructions per game and its mnemonics. It
needs objdump (binutils) to disassemble the kernel, whose code it copies out of the process.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

EVENTS = ("instructions", "conditional branches", "mispredicted", "indirect branches", "mispredicted indirect")


def play(game: str, games: int, players: int | None, strategy: str | None, code_file: str | None) -> None:
    """Inside valgrind: warm up, then count ``games`` games (single thread); with ``code_file``, copy the
    chunk kernel's machine code there, from its entry to the end of its memory mapping, after its address."""
    from one_thread import prepared_game  # beside this file: run as a script, its folder is on the path

    from analyzer.engine.play import run_chunk
    from analyzer.engine.template import chunk_player

    game_class, prepared = prepared_game(game, players, strategy)

    def collect(switch: str) -> None:
        subprocess.run(["callgrind_control", "-i", switch, str(os.getpid())], check=True, capture_output=True)

    collect("on")
    run_chunk(game_class, prepared, 1, 0, games)
    collect("off")
    if code_file:
        (compiled,) = chunk_player(game_class.play_function()).overloads.values()
        entry = compiled.library.get_pointer_to_function(compiled.fndesc.llvm_func_name)
        with open("/proc/self/maps") as maps:
            end = next(high for low, high in (
                (int(bound, 16) for bound in line.split()[0].split("-")) for line in maps) if low <= entry < high)
        Path(code_file).write_bytes(entry.to_bytes(8, "little") + ctypes.string_at(entry, end - entry))


def instruction_counts(callgrind_out: str, low: int, high: int) -> dict[int, tuple[int, int]]:
    """The instructions executed and the mispredicted conditional branches at each address in
    ``[low, high)``, from callgrind's output written
    with ``--dump-instr=yes`` (positions: an address, absolute or relative to the line before, then a
    source line; the cost after a ``calls=`` line is the call's, not the instruction's)."""
    counts: dict[int, tuple[int, int]] = {}
    address, call_cost = 0, False
    for line in open(callgrind_out):
        if line.startswith("calls="):
            call_cost = True
            continue
        if not line or line[0] not in "0+-*":
            continue
        fields = line.split()
        position = fields[0]
        if position.startswith("0x"):
            address = int(position, 16)
        elif position[0] in "+-":
            address += int(position)
        if call_cost:
            call_cost = False
        elif low <= address < high and len(fields) > 2:
            executed, mispredicted = counts.get(address, (0, 0))
            # the events in EVENTS' order after the address and the line; a line may leave off its trailing 0s
            counts[address] = (executed + int(fields[2]), mispredicted + (int(fields[4]) if len(fields) > 4 else 0))
    return counts


def print_blocks(callgrind_out: str, code_file: str, games: int) -> None:
    """The chunk kernel's profile: its runs of instructions executed equally often, per game."""
    data = Path(code_file).read_bytes()
    entry, code = int.from_bytes(data[:8], "little"), data[8:]
    counts = instruction_counts(callgrind_out, entry, entry + len(code))
    with tempfile.NamedTemporaryFile(suffix=".bin") as raw:
        raw.write(code)
        raw.flush()
        listing = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", f"--adjust-vma={entry:#x}",
                                  raw.name], capture_output=True, text=True, check=True).stdout
    blocks: list[list] = []  # [address, executions a game, instructions, mnemonics, last address, mispredicted]
    for line in listing.splitlines():
        match = re.match(r"\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(\S*)", line)
        if not match or not match.group(2):
            continue
        address = int(match.group(1), 16)
        executed, mispredicted = counts.get(address, (0, 0))
        executions = executed / games
        if executions < 0.01:
            continue
        if blocks and blocks[-1][1] == executions and address - blocks[-1][4] < 16:
            blocks[-1][2] += 1
            blocks[-1][3].append(match.group(2))
            blocks[-1][4] = address
            blocks[-1][5] += mispredicted / games
        else:
            blocks.append([address, executions, 1, [match.group(2)], address, mispredicted / games])
    total = sum(executions * size for _, executions, size, _, _, _ in blocks)
    print(f"the chunk kernel's code and what follows it: {total:,.1f} instructions a game, in runs executed "
          "equally often (address, executions a game x instructions = instructions a game, mispredicted "
          "branches a game, mnemonics):")
    for address, executions, size, mnemonics, _, mispredicted in blocks:
        print(f"  {address:#x} {executions:8.2f} x {size:3d} = {executions * size:8.1f} {mispredicted:6.2f}  "
              f"{' '.join(mnemonics)[:90]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("games", type=float)
    parser.add_argument("--players", type=int)
    parser.add_argument("--strategy")
    parser.add_argument("--blocks", action="store_true", help="also print the chunk kernel's profile by runs "
                        "of instructions (needs objdump)")
    parser.add_argument("--code-file", help=argparse.SUPPRESS)
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        play(args.game, int(args.games), args.players, args.strategy, args.code_file)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        code_file = os.path.join(folder, "kernel.bin")
        blocks = ["--dump-instr=yes"] if args.blocks else []
        inside = ["--inside", "--code-file", code_file] if args.blocks else ["--inside"]
        command = ["valgrind", "--tool=callgrind", "--branch-sim=yes", "--instr-atstart=no", *blocks,
                   f"--callgrind-out-file={out}", sys.executable, __file__, *sys.argv[1:], *inside]
        run = subprocess.run(command, capture_output=True, text=True,
                             env={**os.environ, "NUMBA_NUM_THREADS": "1"})
        if run.returncode != 0 or not os.path.exists(out):
            own = [line for line in run.stderr.splitlines() if line.strip() and not line.startswith("==")]
            print(own[-1] if own else "valgrind failed", file=sys.stderr)  # the program's last line, not valgrind's
            return 2
        totals = next(line for line in open(out) if line.startswith("totals:")).split()[1:]
        for name, total in zip(EVENTS, totals, strict=True):
            print(f"{name:>22}: {int(total) / args.games:12,.1f} a game")
        if args.blocks:
            print_blocks(out, code_file, int(args.games))
    return 0


if __name__ == "__main__":
    sys.exit(main())
