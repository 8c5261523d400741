"""The one reference every jitted mechanic receives: board, rules, seats and state.

A Numba StructRef whose fields are those of the layout's :class:`Board`,
:class:`KernelRules`, :class:`Seats` and :class:`State` tuples, so a mechanic reads
``m.players``, ``m.spaces``, ``m.loan_amount``... Passing one reference instead of a
tuple of ~40 arrays keeps calls cheap and compile times short. (Kept apart from
:mod:`layout` so that importing the game does not import Numba.)
"""

from numba.core import types
from numba.experimental import structref

from analyzer.games.dead_mans_chest.layout import Board, KernelRules, Seats, State


@structref.register
class MatchType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class Match(structref.StructRefProxy):
    """The kernel's view of one table: every field of a Board, KernelRules, Seats and State.

    Build it with :func:`make_match`; the arrays are shared, not copied, so Python code
    (tests) can read and set the state through the State tuple it passed in.
    """

    def __new__(cls, *fields):
        return structref.StructRefProxy.__new__(cls, *fields)


MATCH_FIELDS = Board._fields + KernelRules._fields + Seats._fields + State._fields
structref.define_proxy(Match, MatchType, list(MATCH_FIELDS))


def make_match(board: Board, rules: KernelRules, seats: Seats, state: State) -> Match:
    return Match(*board, *rules, *seats, *state)
