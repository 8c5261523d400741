"""The code base keeps its shape: no import cycle, no oversized module, no game named
outside ``analyzer/games/``, every compiled function made with the package's ``njit``."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "analyzer"
#: "no module over about 400 lines"
MAX_LINES = 420
GAME_WORDS = ("skull", "lucky", "doubloon", "dead_man", "dead-man", "deadman")


def _modules() -> dict[str, Path]:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _function_level(tree: ast.Module) -> set[int]:
    """The ids of the import statements inside a function (run when it is called, not when the module loads)."""
    return {id(node) for function in ast.walk(tree) if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
            for node in ast.walk(function) if isinstance(node, (ast.Import, ast.ImportFrom))}


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Modules of the package that ``name`` imports anywhere (functions included; not under TYPE_CHECKING).

    A package's own submodules count when it imports them inside a function (the package
    root's lazy ``simulate``, say): a submodule that imports the package would close a loop.
    """
    tree = ast.parse(path.read_text())
    is_package = path.name == "__init__.py"
    in_function = _function_level(tree)
    found = set()
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        for target in targets:
            if target in modules and target != name:
                if is_package and target.startswith(name + ".") and id(node) not in in_function:
                    continue  # a package assembling itself from its own submodules
                found.add(target)
    return found


def test_no_import_cycle():
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(name):
        state[name] = 1
        stack.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                cycle = stack[stack.index(target):] + [target]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        stack.pop()
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)


def test_no_module_over_about_400_lines():
    lengths = {str(path.relative_to(ROOT)): len(path.read_text().splitlines()) for path in PACKAGE.rglob("*.py")}
    long = {path: lines for path, lines in lengths.items() if lines > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_every_compiled_function_is_made_with_the_package_njit():
    """Numba's own ``njit`` compiles a callee once more per constant passed to it
    (:mod:`analyzer.engine.jit`)."""
    own = {PACKAGE / "engine" / "jit.py", ROOT / "tests" / "test_jit.py"}  # it, and its test against Numba's
    plain = []
    for path in [*PACKAGE.rglob("*.py"), *(ROOT / "tests").rglob("*.py")]:
        if path in own:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module == "numba":
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "numba":
                names = [node.attr]
            if {"njit", "jit"} & set(names):
                plain.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not plain, f"numba's njit used directly at {plain}"


def _code_words(path: Path) -> list[tuple[int, str]]:
    """Identifiers and string constants of a module, leaving out docstrings and comments."""
    tree = ast.parse(path.read_text())
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    words = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            words.append((node.lineno, node.value))
        elif isinstance(node, ast.Name):
            words.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute):
            words.append((node.lineno, node.attr))
        elif isinstance(node, ast.alias):
            words.append((node.lineno, node.name))
        elif isinstance(node, ast.ImportFrom) and node.module:
            words.append((node.lineno, node.module))
    return words


def test_no_game_named_outside_the_games():
    named = []
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] == "games" and len(relative.parts) > 2:
            continue  # inside a game's own package
        if relative.parts == ("games", "registry.py"):
            continue  # the registry lists the built-in games
        for line, word in _code_words(path):
            if any(game in word.lower() for game in GAME_WORDS):
                named.append(f"{relative}:{line}: {word[:60]!r}")
    assert not named, "game named outside analyzer/games/:\n" + "\n".join(named)
