"""The search player's hold on the decisions of the step it searches (see :mod:`lookahead`).

While a lookahead seat's step (its captain draft or its turn) is searched, the step is
replayed from its start, the game's own random stream giving the same spins and draws
each time. Every decision of that seat with two or more options asks
:func:`searched_option`: decisions already settled get their chosen option again; at the
decision being searched a probe only counts the options, and a rollout takes its
candidate option and leaves the real game there (:func:`start_rollout`): from then on the
spins and cards come from a stream of the rollout's own, the face-down tiles the seat does
not hold are dealt again, and every seat plays the search's base.

Options are numbered as the random strategy numbers them (see :mod:`decisions`).
"""

from analyzer.engine.jit import njit
from analyzer.engine.rng import shuffle, split_next, substream
from analyzer.games.dead_mans_chest.layout import (
    DRAFTED,
    IN_PILE,
    ISLA_COUNT,
    ON_ISLA_CRUCES,
    PILE_COUNT,
    TILES,
    TURNS_PLAYED,
)
from analyzer.games.dead_mans_chest.tiles import count_tile_worths

# columns of ``m.search``
(S_ACTIVE,     # 1 while the searched step is replayed up to its decision under search
 S_SEAT,       # the seat whose step is searched
 S_DECISION,   # decisions with a choice met so far in this replay
 S_FIXED,      # decisions already settled (their options in m.fixed)
 S_TARGET,     # the decision under search (NO_TARGET: none)
 S_PROBING,    # 1: a probe (count the options at the target); 0: a rollout
 S_OPTIONS,    # the target's options, as the probe found them (0: no decision left)
 S_CANDIDATE,  # the option a rollout takes at the target
 S_SERIAL,     # decisions searched so far in this game
 S_ROLLOUT,    # the rollout's number (its stream)
 S_POLICY,     # the option the base's policy takes at the target, as the probe found it
 N_SEARCH_FIELDS) = range(12)
NO_TARGET = -1
# columns of ``m.search_key``: the game's key, the root of its rollouts' streams; the
# current rollout's root (sub-stream (searched decision, rollout) of the game's key)
GAME_KEY, ROLLOUT_KEY, N_SEARCH_KEYS = range(3)
#: the decisions of one step a search settles; later ones are played by the base
MAX_SEARCHED_DECISIONS = 64
#: searched_option's answer when the search does not choose
NOT_FORCED = -1
_STREAMS_PER_DECISION = 1 << 20  # more than the most rollouts


@njit(cache=True, nogil=True)
def searched_option(m, p, options, sees_isla):
    """The option the search takes for seat ``p`` at this decision (0 .. options - 1), or
    ``NOT_FORCED`` (the seat's profile decides). ``sees_isla``: the player looks at the
    tiles on Isla Cruces when it decides (a rollout then leaves them where they are)."""
    s = m.search
    if s[S_ACTIVE] == 0 or p != s[S_SEAT] or options < 2:
        return NOT_FORCED
    k = s[S_DECISION]
    s[S_DECISION] = k + 1
    if k < s[S_FIXED]:
        return m.fixed[k]
    if k != s[S_TARGET]:
        return NOT_FORCED
    if s[S_PROBING]:
        s[S_OPTIONS] = options
        return NOT_FORCED
    start_rollout(m, p, sees_isla)
    return s[S_CANDIDATE]


@njit(cache=True, nogil=True, inline="always")
def note_policy_option(m, p, option):
    """A decision of seat ``p`` took ``option`` by its profile's policy: at the target of a
    probe that is the base's choice, the search's incumbent (see ``lookahead.best_option``).
    Inlined: a game without a search player makes no call."""
    if m.searching:
        _note_policy_option(m, p, option)


@njit(cache=True, nogil=True)
def _note_policy_option(m, p, option):
    """:func:`note_policy_option` in a game with a search player."""
    s = m.search
    if s[S_ACTIVE] and s[S_PROBING] and p == s[S_SEAT] and s[S_OPTIONS] > 0 and s[S_POLICY] == NOT_FORCED:
        s[S_POLICY] = option


@njit(cache=True, nogil=True)
def start_rollout(m, p, sees_isla):
    """Leave the real game for a rollout: its own streams (:func:`draw_from_rollout_stream`),
    what ``p`` cannot see dealt again (:func:`deal_unseen_tiles`), every seat on ``p``'s base."""
    s = m.search
    m.search_key[ROLLOUT_KEY] = substream(m.search_key[GAME_KEY], s[S_SERIAL] * _STREAMS_PER_DECISION + s[S_ROLLOUT])
    draw_from_rollout_stream(m)
    deal_unseen_tiles(m, p, sees_isla)
    m.profile[:] = m.base_profile[p]
    s[S_ACTIVE] = 0


@njit(cache=True, nogil=True)
def draw_from_rollout_stream(m):
    """Seed the generator from the rollout's stream of the game's current step: rollout
    ``r`` of every option draws the same spins and cards in each later turn, however many
    numbers the options drew before (common random numbers that stay in step)."""
    stream = substream(m.search_key[ROLLOUT_KEY], m.counters[DRAFTED] + m.counters[TURNS_PLAYED])
    rng = m.rng
    for word in range(4):
        value, stream = split_next(stream)
        rng[word] = value


@njit(cache=True, nogil=True)
def deal_unseen_tiles(m, p, sees_isla):
    """Determinization: the face-down tiles ``p`` does not hold (other players', the pile's,
    Isla Cruces' unless ``p`` looks at them) shuffled and dealt back, each place keeping
    its count."""
    tile_loc = m.tile_loc
    deal = m.deal
    n = 0
    for t in range(tile_loc.shape[0]):
        loc = tile_loc[t]
        if loc != p and not (sees_isla and loc == ON_ISLA_CRUCES):
            deal[n] = t
            n += 1
    shuffle(m.rng, deal, n)
    i = 0
    for j in range(m.counters[PILE_COUNT]):
        m.pile[j] = deal[i]
        tile_loc[deal[i]] = IN_PILE
        i += 1
    if not sees_isla:
        for j in range(m.counters[ISLA_COUNT]):
            m.isla[j] = deal[i]
            tile_loc[deal[i]] = ON_ISLA_CRUCES
            i += 1
    pl = m.players
    for q in range(pl.shape[0]):
        if q != p:
            for _ in range(pl[q, TILES]):
                tile_loc[deal[i]] = q
                i += 1
    count_tile_worths(m)
