"""``--param`` of sweeps and of the fairness search: one rule option and its values or range."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from analyzer.errors import AnalyzerError
from analyzer.games.base import Game
from analyzer.games.component_params import component_option, is_component_key, split_assignment
from analyzer.games.options import format_value
from analyzer.runspec import RunSpec

#: the most values one sweep may run
MAX_SWEEP_VALUES = 200
NUMERIC_KINDS = ("int", "float")
SCALAR_KINDS = ("int", "float", "bool", "choice", "str")


def _split_param(game: Game, text: str, form: str, rules: dict[str, Any] | None):
    """The option (a rule option, or a component parameter ``TABLE[NAME].FIELD`` of the run's
    ``rules``) and the text of its values."""
    name, values = split_assignment(text) or (text, "")
    name = name.strip()
    if not name or not values.strip():
        raise AnalyzerError(f"--param {text!r} must be written {form}")
    if is_component_key(name):
        return component_option(game, rules, name, "--param"), values.strip()
    try:
        option = game.option(name)
    except AnalyzerError as exc:
        raise AnalyzerError(f"--param: {exc}") from None
    return option, values.strip()


def _decimal(text: str, where: str) -> Decimal:
    try:
        value = Decimal(text.strip().replace("_", ""))
    except InvalidOperation:
        value = None
    if value is None or not value.is_finite():
        raise AnalyzerError(f"{where}: {text.strip()!r} is not a number")
    return value


def _require_numeric(option, text: str, what: str) -> None:
    if option.kind not in NUMERIC_KINDS:
        raise AnalyzerError(f"--param {text!r}: {what} needs a numeric rule option, and {option.name} is "
                            f"{option.allowed()}")


def parse_sweep_param(game: Game, text: str, rules: dict[str, Any] | None = None) -> tuple[Any, list[Any]]:
    """``name=start:stop:step`` (stop included when reached) or ``name=a,b,c`` -> (option, values);
    ``name`` a rule option, or a component parameter of ``rules`` (the run's)."""
    option, values_text = _split_param(game, text, "NAME=START:STOP:STEP or NAME=A,B,C", rules)
    return option, option_values(option, values_text, text)


def option_values(option, values_text: str, text: str) -> list[Any]:
    """The validated values of ``option`` written ``START:STOP:STEP`` or ``A,B,C``.

    Ranges are counted in decimal, so ``0.1:0.3:0.1`` is exactly 0.1, 0.2 and 0.3;
    ``text`` (the whole ``--param``) names the problem in errors.
    """
    where = f"--param {option.name}"
    if ":" in values_text:
        _require_numeric(option, text, "a range")
        parts = values_text.split(":")
        if len(parts) != 3:
            raise AnalyzerError(f"--param {text!r}: a range is written START:STOP:STEP")
        start, stop, step = (_decimal(p, where) for p in parts)
        if step == 0:
            raise AnalyzerError(f"--param {text!r}: the step is zero")
        count = int((stop - start) / step) + 1 if (stop - start) * step >= 0 else 0
        if count < 1:
            raise AnalyzerError(f"--param {text!r}: the range has no values (the step goes away from the stop)")
        if count > MAX_SWEEP_VALUES:
            raise AnalyzerError(f"--param {text!r}: the range has {count:,} values; at most {MAX_SWEEP_VALUES} "
                                f"are allowed")
        texts = [format(start + i * step, "f") for i in range(count)]
    else:
        if option.kind not in SCALAR_KINDS:
            raise AnalyzerError(f"--param {text!r}: the values must be single values, and {option.name} is "
                                f"{option.allowed()}")
        texts = [t for t in (item.strip() for item in values_text.split(","))]
        if any(not t for t in texts):
            raise AnalyzerError(f"--param {text!r}: an empty value in the list")
    values = [option.parse_text(t, where) for t in texts]
    if len(values) < 2:
        raise AnalyzerError(f"--param {text!r}: give at least two values")
    repeated = [v for i, v in enumerate(values) if v in values[:i]]
    if repeated:
        raise AnalyzerError(f"--param {text!r}: the value {format_value(repeated[0])} comes twice")
    return values


def parse_search_param(game: Game, text: str, rules: dict[str, Any] | None = None) -> tuple[Any, float, float]:
    """``name=low:high`` for a numeric rule option or component parameter of ``rules`` -> (option, low, high)."""
    option, values_text = _split_param(game, text, "NAME=LOW:HIGH", rules)
    _require_numeric(option, text, "a search")
    parts = values_text.split(":")
    if len(parts) != 2:
        raise AnalyzerError(f"--param {text!r}: a search range is written LOW:HIGH")
    where = f"--param {option.name}"
    low, high = (option.parse_text(format(_decimal(p, where), "f"), where) for p in parts)
    if not low < high:
        raise AnalyzerError(f"--param {text!r}: the range has no values (LOW must be below HIGH)")
    return option, low, high


def refuse_set(option_name: str, base: RunSpec) -> None:
    """The option a command varies must not also be fixed with ``--set``."""
    if option_name in base.set_options:
        raise AnalyzerError(f"--set {option_name}=... and --param both set {option_name}: give it only in --param")
