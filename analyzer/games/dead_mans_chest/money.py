"""Money: every payment, loans, cashing in tiles, debts and loan repayment.

Every dollar moves through :func:`transfer` between two accounts: a seat, or the
treasury (account ``TREASURY``). Each account keeps a ledger (``RECEIVED`` / ``PAID``
per player, ``TREASURY_RECEIVED`` / ``TREASURY_PAID`` for the treasury), which is what
the money invariant checks: cash = start money + received - paid.
"""

from analyzer.engine.jit import njit
from analyzer.games.dead_mans_chest.decisions import choose_tile_to_cash
from analyzer.games.dead_mans_chest.layout import (
    CASH,
    LOANS,
    LOANS_TAKEN,
    PAID,
    RECEIVED,
    TILE_VALUE,
    TILES,
    TREASURY,
    TREASURY_PAID,
    TREASURY_RECEIVED,
    UNPAID,
    UNPAID_CASH_IN_TILES,
)
from analyzer.games.dead_mans_chest.tiles import return_to_pile


@njit(cache=True, nogil=True)
def transfer(m, payer, payee, amount):
    """Move ``amount`` dollars from ``payer`` to ``payee`` (seats or the treasury)."""
    pl = m.players
    if payer == TREASURY:
        m.counters[TREASURY_PAID] += amount
    else:
        pl[payer, CASH] -= amount
        pl[payer, PAID] += amount
    if payee == TREASURY:
        m.counters[TREASURY_RECEIVED] += amount
    else:
        pl[payee, CASH] += amount
        pl[payee, RECEIVED] += amount


@njit(cache=True, nogil=True)
def take_loan(m, p):
    """Borrow ``loan_amount`` from the treasury."""
    transfer(m, TREASURY, p, m.loan_amount)
    m.players[p, LOANS] += 1
    m.counters[LOANS_TAKEN] += 1


@njit(cache=True, nogil=True)
def cash_in_tile(m, p, t):
    """Trade tile ``t`` in for its face value; it goes back onto the pile."""
    return_to_pile(m, t)
    transfer(m, TREASURY, p, m.tiles[t, TILE_VALUE])


@njit(cache=True, nogil=True)
def raise_cash(m, p, amount, may_borrow):
    """Running low on treasure: cash in tiles (the player's choice), then borrow, until
    ``p`` holds ``amount`` or has nothing left to raise it with."""
    pl = m.players
    while pl[p, CASH] < amount and pl[p, TILES] > 0:
        cash_in_tile(m, p, choose_tile_to_cash(m, p, amount - pl[p, CASH]))
    while may_borrow and pl[p, CASH] < amount:
        take_loan(m, p)


@njit(cache=True, nogil=True)
def pay_debt(m, payer, payee, amount):
    """A payment the player must make (not a purchase): raise the cash if short; without
    loans a debt is paid as far as the cash goes and the rest is forgiven."""
    raise_cash(m, payer, amount, m.loans)
    transfer(m, payer, payee, min(amount, m.players[payer, CASH]))


@njit(cache=True, nogil=True)
def settle_loans(m, p):
    """Repay every loan with interest (on reaching Isla Cruces); record what cash cannot cover."""
    pl = m.players
    due = pl[p, LOANS] * (m.loan_amount + m.loan_interest)
    if due == 0:
        return
    if m.unpaid_loan == UNPAID_CASH_IN_TILES:
        raise_cash(m, p, due, False)
    paid = min(due, pl[p, CASH])
    transfer(m, p, TREASURY, paid)
    pl[p, UNPAID] += due - paid
    pl[p, LOANS] = 0
