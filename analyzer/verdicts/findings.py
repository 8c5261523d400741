"""The verdicts that are not about fairness: rules economy (rare rules), pace (length), drama (runaway
leaders) and skill. Each states its effect and its yardstick on the common scale (see :mod:`.core`)."""

from __future__ import annotations

from analyzer.stats import wilson_interval
from analyzer.verdicts.core import Verdict, effect, number, pct

#: a rule that triggers in fewer games than this share (at the top of its 95% interval) is rare
RARE_SHARE = 0.01
#: most rare mechanics named in a verdict
MAX_RARE_NAMED = 10
#: a mean length within this fraction of the target is on target
LENGTH_TOLERANCE = 0.10
#: below this comeback rate (winner not leading at half time) the leader runs away
RUNAWAY_COMEBACK_RATE = 0.10
#: the kind of mechanic a designer wrote and could cut: the only kind that can be called rare
RULE = "rule"


def mechanics_verdict(run: dict) -> Verdict | None:
    """The rules (mechanics of kind ``rule``; procedures, outcomes and safeguards are shown, never advised
    on) that trigger in under 1% of games at the top of their interval. Effect: the share of the rules
    counted that are rare (yardstick 1)."""
    mechanics = run.get("mechanics")
    if not mechanics:
        return None
    kinds = run.get("mechanic_kinds") or {}
    off = set(run.get("switched_off") or ())
    left_out = set(run.get("safeguards") or ()) | off
    rules = [name for name in mechanics if kinds.get(name, RULE) == RULE and name not in left_out]
    n = run["n"]
    bounds = {name: wilson_interval(round(mechanics[name] * n), n) for name in rules if mechanics[name] is not None}
    rare = sorted((mechanics[name], name) for name, (_, high) in bounds.items() if high < RARE_SHARE)
    if not rare:
        return None

    def shown(share: float, name: str) -> str:
        low, high = bounds[name]
        if share == 0:
            return f"{name} never (95% interval up to {pct(high)})"
        return f"{name} {pct(share)} ({pct(low)}–{pct(high)})"

    named = "; ".join(shown(share, name) for share, name in rare[:MAX_RARE_NAMED])
    more = f"; and {len(rare) - MAX_RARE_NAMED} more" if len(rare) > MAX_RARE_NAMED else ""
    switched = sorted(off & set(mechanics))
    switched_text = f" Switched off by these rules, so not counted: {', '.join(switched)}." if switched else ""
    not_rules = len(set(mechanics) - left_out) - len(rules)
    others = (f" Procedures, outcomes and safeguards ({not_rules}) are not rules to cut and are not counted."
              if not_rules else "")
    return Verdict("mechanics", f"{len(rare)} of {len(rules)} rules almost never happen",
                   f"Share of games in which each triggered (95% interval): {named}{more}.{switched_text}{others}",
                   "Make them come up more often, or cut them: a rule that almost never triggers costs rules "
                   "text and table time for nothing.", effect(len(rare) / len(rules), None, "share of the rules"),
                   finding=True)


def length_verdict(run: dict) -> Verdict | None:
    """The mean length against the scenario's target; yardstick: the target (a relative distance)."""
    target = run.get("target_length")
    if target is None:
        return None
    block = run["length"]
    unit, mean = block["unit"], block["mean"]
    off = (mean - target) / target
    text = (f"A game lasts {mean:.2f} {unit} on average (median {block['median']}; 90% of games take {block['p5']} "
            f"to {block['p95']} {unit}) against the scenario's target of {number(target)} {unit}: "
            f"{abs(off) * 100:.0f}% {'longer' if off > 0 else 'shorter'}.")
    measured = {"effect": effect(mean, None, unit), "null": target, "yardstick": target,
                "finding": abs(off) > LENGTH_TOLERANCE}
    if abs(off) <= LENGTH_TOLERANCE:
        return Verdict("length", "Length on target", text, "None: the length is within 10% of the target.",
                       **measured)
    if off > 0:
        title, action = "Games run too long", ("Shorten the game: lower the goal that ends it or add an end "
                                               "trigger; a sweep over the option that sets the goal finds "
                                               "the value that meets the target.")
    else:
        title, action = "Games end too soon", ("Lengthen the game: raise the goal that ends it; a sweep "
                                               "over the option that sets the goal finds the value that meets the "
                                               "target.")
    return Verdict("length", title, text, action, **measured)


def quality_verdict(run: dict) -> Verdict | None:
    """The comeback rate against 10% (a runaway leader below it); yardstick: the 10%."""
    quality = run.get("quality") or {}
    comeback = quality.get("comeback_rate") or {}
    rate, ci = comeback.get("value"), comeback.get("ci")
    if rate is None or ci is None:  # absent, or no game had a halfway point to compare
        return None
    text = (f"{pct(rate)} of games (95% interval {pct(ci[0])}–{pct(ci[1])}) are won by a player who was not "
            f"leading at the halfway point")
    changes, point = quality.get("lead_changes") or {}, quality.get("decisive_point") or {}
    if changes.get("ci") is not None:
        text += (f"; the lead changes {changes['value']:.2f} times per game (95% interval {changes['ci'][0]:.2f} to "
                 f"{changes['ci'][1]:.2f})")
    if point.get("ci") is not None:
        text += (f"; the leader no longer changes after {point['value'] * 100:.1f}% of the game (95% interval "
                 f"{point['ci'][0] * 100:.1f}–{point['ci'][1] * 100:.1f}%)")
    runaway = ci[1] < RUNAWAY_COMEBACK_RATE
    measured = {"effect": effect(rate, ci, "comeback rate"), "null": RUNAWAY_COMEBACK_RATE,
                "yardstick": RUNAWAY_COMEBACK_RATE, "finding": runaway}
    if runaway:
        return Verdict("quality", "Runaway leader", text + ".",
                       "Add a catch-up mechanism (help for trailing players, or a cost to leading) so that games "
                       "stay open longer.", **measured)
    return Verdict("quality", "Games stay open", text + ".", "None: trailing players still win games.", **measured)


# -- skill ----------------------------------------------------------------------------------------------

#: the grades of skill by the best strategy's edge over random play, as a share of the room between a fair
#: share and always winning: (rate - fair) / (1 - fair) below each bound (the interval's low end above fair)
SKILL_GRADES = (("luck", 0.10), ("some", 0.40), ("a lot", 0.80), ("decisive", 1.01))

_SKILL_WORDS = {
    "none": "skill does not measurably matter: the best strategy does no better than random play",
    "luck": "luck dominates: the best strategy wins only a little more often than random play",
    "some": "skill matters: the best strategy clearly beats random play, but luck decides many games",
    "a lot": "skill matters a lot: the best strategy beats random play in most games, but luck still decides "
             "a fair number",
    "decisive": "skill decides: the best strategy beats random play in nearly every game",
}
_SKILL_ACTIONS = {
    "none": "if the game should reward good play, give the players decisions that change the outcome; for a "
            "game of pure chance, none",
    "luck": "if the game should reward good play, make the decisions weigh more (fewer random swings, more "
            "choices); for a family game, none",
    "some": "none: good play pays and beginners still win games",
    "a lot": "none for players of like skill; a beginner against an experienced player wins rarely, so consider "
             "a handicap for mixed tables",
    "decisive": "mixed tables of beginners and experienced players will be one-sided: consider a handicap for "
                "experienced players, or more luck if the game is meant for families",
}


def skill_level(rate: float, low: float, fair: float) -> str:
    """The grade of skill from the best strategy's win rate against random play and its interval's low end."""
    if low <= fair:
        return "none"
    edge = (rate - fair) / (1 - fair)
    return next(level for level, bound in SKILL_GRADES if edge < bound)


def skill_verdict(rate: float, low: float, fair: float) -> str:
    """How much skill matters, in words (see :data:`SKILL_GRADES`)."""
    return _SKILL_WORDS[skill_level(rate, low, fair)]


def skill_ladder_verdict(ladder: dict | None) -> Verdict | None:
    """From a :class:`~analyzer.experiments.skill.SkillLadder` ``to_dict``; yardstick: 1 - fair share."""
    if not ladder or ladder["skill"]["versus_random"] is None:
        return None
    skill = ladder["skill"]
    fair = ladder["fair_win_rate"]
    rate, (low, high) = skill["versus_random"], skill["versus_random_ci"]
    level = skill_level(rate, low, fair)
    text = (f"{skill['strongest']} wins {pct(rate)} (95% interval {pct(low)}–{pct(high)}) of its seats head to "
            f"head against random play, where a fair share is {pct(fair)}: {_SKILL_WORDS[level]} (skill ladder, "
            f"{ladder['n']:,} games per strategy; its edge is {(rate - fair) / (1 - fair) * 100:.0f}% of the way "
            f"from a fair share to always winning).")
    return Verdict("skill", "How much skill matters", text, _SKILL_ACTIONS[level][0].upper()
                   + _SKILL_ACTIONS[level][1:] + ".", effect(rate, [low, high], "win rate against random play"),
                   null=fair, yardstick=1 - fair)
