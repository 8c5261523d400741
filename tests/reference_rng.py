"""Reference generators in plain Python, to check the jitted ones against."""

MASK64 = 2**64 - 1


def splitmix64_reference(state: int) -> tuple[int, int]:
    """Vigna's splitmix64.c: returns (output, next state)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31), state
