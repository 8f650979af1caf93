"""Golden Looper days, worked out by hand from docs/rules/looper.md (R-n) and
docs/looper.md (P-n).

Every expected value below comes from the arithmetic in the comment next to it, not
from running the engine. Layouts are tiny (only the listed characters are alive), and
a pair of one male and one female is only dangerous when mad_stalker (anywhere) or
psychopath (in the pair) is alive, so most layouts are safe from accidental deaths.

Setup order (bit order, the default chooser picks the first candidate in it):
protagonist, bottom_rung_man, yakuza, fearmonger_auntie, pushy_feminist, psychopath,
evil_spirit, right_winger, attention_seeker, bullied_kid, bully, cat,
unforgiving_woman, laid_off_man, second_from_bottom, psychic_misa, rage, mad_stalker,
verge_of_madness, turf_king, masuyo, childrens_rights, socrates_in_love, agitator,
wandering_kenkichi; expansion: president_valentine, maman, princess_flute,
abe_descendant, slaughter_angel, alessi.

Locations: park -> school -> suburb -> ruins -> underworld -> park (R-5).
"""
from __future__ import annotations

import pytest

from sim.errors import SimInputError
from sim.looper import build_config, compile_setup, default_setup, resolve_day


# ---------------------------------------------------------------- helpers
def roster_with(*sets: str, config=None, expansion: bool = False):
    return compile_setup(build_config(config, sets=list(sets), expansion=expansion))


def exp_roster():
    return default_setup(expansion=True)  # cached


def at(loc: str, *ids: str) -> dict[str, str]:
    return {c: loc for c in ids}


def lay(*parts: dict[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for p in parts:
        out.update(p)
    return out


class Recorder:
    """A chooser that records its calls and picks by a preference list (else the first)."""

    def __init__(self, *prefer: str):
        self.prefer = prefer
        self.calls: list[tuple[str, list[str]]] = []

    def __call__(self, actor, cands):
        cands = list(cands)
        self.calls.append((actor, cands))
        for p in self.prefer:
            if p in cands:
                return p
        return cands[0]


def check(res, *, stress=None, positions=None, deaths=None, killed_by=None):
    if stress is not None:
        assert res.stress == stress
    if positions is not None:
        assert res.positions == positions
    if deaths is not None:
        assert res.deaths == deaths
    if killed_by is not None:
        assert res.killed_by == killed_by


# ============================================================ base characters
def test_feminist_and_right_winger_kill_laid_off_man():
    # school: feminist, right_winger, laid_off_man
    # laid_off_man: feminist +3 (male) + right_winger +1 = 4 >= 3 -> dies
    # right_winger: feminist +3 (male); his own +1 is "everyone else" = 3
    # feminist: right_winger +1; her +3 hits males only = 1
    res = resolve_day(at("school", "pushy_feminist", "right_winger", "laid_off_man"))
    check(res,
          stress={"pushy_feminist": 1, "right_winger": 3, "laid_off_man": 4},
          positions=at("school", "pushy_feminist", "right_winger", "laid_off_man"),
          deaths={"laid_off_man": "school"},
          killed_by={"laid_off_man": "laid_off_man"})


def test_laid_off_man_threshold_is_inclusive():
    # park: feminist +3 (male) = 3 >= 3 -> dies (no stalker/psychopath: the pair is safe)
    res = resolve_day(at("park", "pushy_feminist", "laid_off_man"))
    check(res, stress={"pushy_feminist": 0, "laid_off_man": 3},
          deaths={"laid_off_man": "park"}, killed_by={"laid_off_man": "laid_off_man"})


def test_laid_off_man_below_threshold_survives():
    # ruins: right_winger +1, evil_spirit +1 -> laid_off_man 2 < 3
    # right_winger: evil_spirit +1 = 1; evil_spirit: itself +1 (R-8) + right_winger +1 = 2
    res = resolve_day(at("ruins", "right_winger", "evil_spirit", "laid_off_man"))
    check(res, stress={"right_winger": 1, "evil_spirit": 2, "laid_off_man": 2}, deaths={}, killed_by={})


def test_data_threshold_drives_engine():
    # laid_off_man.threshold=4 in data: feminist +3 = 3 < 4 -> survives (base roster: dies)
    r4 = roster_with("laid_off_man.threshold=4")
    layout = at("park", "pushy_feminist", "laid_off_man")
    assert resolve_day(layout).deaths == {"laid_off_man": "park"}
    res = resolve_day(layout, roster=r4)
    check(res, stress={"pushy_feminist": 0, "laid_off_man": 3}, deaths={}, killed_by={})
    # ... and feminist +3 + right_winger +1 = 4 >= 4 -> dies with the new threshold
    res = resolve_day(at("park", "pushy_feminist", "right_winger", "laid_off_man"), roster=r4)
    check(res, deaths={"laid_off_man": "park"}, killed_by={"laid_off_man": "laid_off_man"})


def test_data_amount_drives_engine():
    # pushy_feminist.amount=1: laid_off_man gets +1 only -> 1 < 3, survives
    r = roster_with("pushy_feminist.amount=1")
    res = resolve_day(at("park", "pushy_feminist", "laid_off_man"), roster=r)
    check(res, stress={"pushy_feminist": 0, "laid_off_man": 1}, deaths={}, killed_by={})


def test_bottom_rung_man_dies_with_yakuza_anywhere():
    # park: yakuza present -> bottom_rung_man dies; yakuza's own rule works only in ruins
    res = resolve_day(at("park", "bottom_rung_man", "yakuza"))
    check(res, stress={"bottom_rung_man": 0, "yakuza": 0},
          deaths={"bottom_rung_man": "park"}, killed_by={"bottom_rung_man": "bottom_rung_man"})


def test_bottom_rung_man_safe_without_yakuza_in_his_location():
    res = resolve_day(lay(at("park", "bottom_rung_man"), at("school", "yakuza")))
    check(res, deaths={}, killed_by={})


def test_bottom_rung_man_in_ruins_credit_first_rule_in_roster_order():
    # ruins: his own rule and yakuza's pair rule (exactly yakuza + one male) both kill him;
    # P-11: credit to the first rule in roster order = bottom_rung_man (before yakuza)
    res = resolve_day(at("ruins", "bottom_rung_man", "yakuza"))
    check(res, deaths={"bottom_rung_man": "ruins"}, killed_by={"bottom_rung_man": "bottom_rung_man"})


def test_yakuza_kills_the_one_other_in_ruins():
    # ruins: exactly yakuza + laid_off_man (male) -> laid_off_man dies
    res = resolve_day(at("ruins", "yakuza", "laid_off_man"))
    check(res, stress={"yakuza": 0, "laid_off_man": 0},
          deaths={"laid_off_man": "ruins"}, killed_by={"laid_off_man": "yakuza"})


def test_yakuza_kills_a_female_too():
    # attention_seeker is female -> dies (her stress is 0, so only the yakuza kills)
    res = resolve_day(at("ruins", "yakuza", "attention_seeker"))
    check(res, deaths={"attention_seeker": "ruins"}, killed_by={"attention_seeker": "yakuza"})


def test_yakuza_only_in_ruins():
    res = resolve_day(at("school", "yakuza", "laid_off_man"))
    check(res, deaths={}, killed_by={})


def test_yakuza_sexless_other_is_safe():
    # cat is neither male nor female -> no death
    res = resolve_day(at("ruins", "yakuza", "cat"))
    check(res, stress={"yakuza": 0, "cat": 0}, deaths={}, killed_by={})


def test_R13_yakuza_exactly_one_other_counts_everyone():
    # ruins: yakuza, laid_off_man, cat -> 2 others (the sexless cat counts) -> nothing.
    # stress: cat -1 to laid_off_man (max 0 -> 0); yakuza is strong, exempt.
    res = resolve_day(at("ruins", "yakuza", "laid_off_man", "cat"))
    check(res, stress={"yakuza": 0, "laid_off_man": 0, "cat": 0}, deaths={}, killed_by={})
    # the protagonist counts as a character too
    res = resolve_day(at("ruins", "yakuza", "laid_off_man", "protagonist"))
    check(res, deaths={}, killed_by={})


def test_yakuza_and_protagonist_attributes():
    # protagonist without attributes: neither male nor female -> safe
    res = resolve_day(at("ruins", "yakuza", "protagonist"))
    check(res, stress={"yakuza": 0, "protagonist": 0}, deaths={}, killed_by={})
    # female protagonist -> dies
    res = resolve_day(at("ruins", "yakuza", "protagonist"), protagonist={"female"})
    check(res, deaths={"protagonist": "ruins"}, killed_by={"protagonist": "yakuza"})


def test_fearmonger_auntie_conditional_fires():
    # park: auntie, right_winger, evil_spirit
    # unconditional: rw +1 -> auntie, es; es +1 -> auntie, rw, es (itself, R-8)
    #   auntie 2, rw 1, es 2
    # auntie 2 >= 2 -> +1 to everyone there incl. herself: auntie 3, rw 2, es 3
    # evil spirit kills others with >= 4: none
    res = resolve_day(at("park", "fearmonger_auntie", "right_winger", "evil_spirit"))
    check(res, stress={"fearmonger_auntie": 3, "right_winger": 2, "evil_spirit": 3},
          deaths={}, killed_by={})


def test_fearmonger_auntie_condition_reads_unconditional_snapshot_with_cat():
    # park: auntie, rw, es, cat
    # rw +1 -> auntie, es, cat; es +1 -> all four; cat -1 -> auntie, rw, es (non-strong others)
    # auntie 1+1-1 = 1 < 2 -> does not fire; rw 1-1 = 0; es 1+1-1 = 1; cat 1+1 = 2
    res = resolve_day(at("park", "fearmonger_auntie", "right_winger", "evil_spirit", "cat"))
    check(res, stress={"fearmonger_auntie": 1, "right_winger": 0, "evil_spirit": 1, "cat": 2},
          deaths={}, killed_by={})


def test_fearmonger_auntie_pushes_attention_seeker_over():
    # underworld: auntie, rw, es, attention_seeker
    # unconditional: auntie 2 (rw, es), seeker 2 (rw, es), rw 1 (es), es 2 (self, rw)
    # auntie fires: +1 all -> auntie 3, seeker 3, rw 2, es 3; seeker 3 >= 3 dies
    res = resolve_day(at("underworld", "fearmonger_auntie", "right_winger", "evil_spirit",
                         "attention_seeker"))
    check(res, stress={"fearmonger_auntie": 3, "attention_seeker": 3, "right_winger": 2,
                       "evil_spirit": 3},
          deaths={"attention_seeker": "underworld"},
          killed_by={"attention_seeker": "attention_seeker"})


def test_attention_seeker_below_threshold():
    # underworld: rw +1, es +1 -> seeker 2 < 3, survives
    res = resolve_day(at("underworld", "right_winger", "evil_spirit", "attention_seeker"))
    check(res, stress={"right_winger": 1, "evil_spirit": 2, "attention_seeker": 2},
          deaths={}, killed_by={})


def test_attention_seeker_dies_of_socrates():
    # park: socrates +4 (loud) -> seeker 4 >= 3 dies; socrates is not loud: 0
    res = resolve_day(at("park", "attention_seeker", "socrates_in_love"))
    check(res, stress={"attention_seeker": 4, "socrates_in_love": 0},
          deaths={"attention_seeker": "park"}, killed_by={"attention_seeker": "attention_seeker"})


@pytest.mark.parametrize("victim", ["verge_of_madness", "second_from_bottom"])
def test_psychopath_kills_lone_female_or_child(victim):
    # park: exactly psychopath + one other; verge is female, second_from_bottom is a child
    res = resolve_day(at("park", "psychopath", victim))
    check(res, deaths={victim: "park"}, killed_by={victim: "psychopath"})


@pytest.mark.parametrize("other", ["laid_off_man", "cat"])
def test_psychopath_spares_adult_male_and_sexless(other):
    # laid_off_man is an adult male, cat is neither female nor child -> nothing
    res = resolve_day(at("park", "psychopath", other))
    check(res, deaths={}, killed_by={})


def test_psychopath_needs_exactly_one_other():
    # park: psychopath, verge, cat -> three characters -> nothing; cat -1 to both -> 0
    res = resolve_day(at("park", "psychopath", "verge_of_madness", "cat"))
    check(res, stress={"psychopath": 0, "verge_of_madness": 0, "cat": 0}, deaths={}, killed_by={})


def test_psychopath_kills_child_protagonist():
    res = resolve_day(at("school", "psychopath", "protagonist"), protagonist={"child"})
    check(res, deaths={"protagonist": "school"}, killed_by={"protagonist": "psychopath"})


def test_R8_evil_spirit_stresses_itself_right_winger_does_not():
    # "everyone" includes the source (evil spirit 1); "everyone else" does not (right winger 0)
    res = resolve_day(lay(at("ruins", "evil_spirit"), at("park", "right_winger")))
    check(res, stress={"evil_spirit": 1, "right_winger": 0}, deaths={}, killed_by={})


def test_evil_spirit_kills_stressed_other():
    # suburb: es, feminist, psychopath (3 characters: psychopath's pair rule is off)
    # psychopath: feminist +3 + es +1 = 4 >= 4 -> killed by the evil spirit
    # feminist: es +1 = 1; es: itself +1 = 1
    res = resolve_day(at("suburb", "evil_spirit", "pushy_feminist", "psychopath"))
    check(res, stress={"evil_spirit": 1, "pushy_feminist": 1, "psychopath": 4},
          deaths={"psychopath": "suburb"}, killed_by={"psychopath": "evil_spirit"})


def test_evil_spirit_threshold_with_cat():
    # suburb: es, feminist, psychopath, cat
    # psychopath 3+1-1 = 3 < 4 survives; feminist 1-1 = 0; es 1-1 = 0; cat: es +1 = 1
    res = resolve_day(at("suburb", "evil_spirit", "pushy_feminist", "psychopath", "cat"))
    check(res, stress={"evil_spirit": 0, "pushy_feminist": 0, "psychopath": 3, "cat": 1},
          deaths={}, killed_by={})


def test_evil_spirit_and_laid_off_man_credit_P11():
    # ruins: es, feminist, laid_off_man: laid_off_man 3+1 = 4 -> killed by both the evil
    # spirit (>= 4) and his own rule (>= 3); P-11: evil_spirit comes first in roster order
    res = resolve_day(at("ruins", "evil_spirit", "pushy_feminist", "laid_off_man"))
    check(res, stress={"evil_spirit": 1, "pushy_feminist": 1, "laid_off_man": 4},
          deaths={"laid_off_man": "ruins"}, killed_by={"laid_off_man": "evil_spirit"})


def test_evil_spirit_never_kills_itself():
    # data: the evil spirit made loud; socrates +4 + itself +1 = 5 >= 4, but "every OTHER"
    # socrates: es +1 = 1 (not loud)
    r = roster_with("characters.evil_spirit.attributes=occult,loud")
    res = resolve_day(at("ruins", "evil_spirit", "socrates_in_love"), roster=r)
    check(res, stress={"evil_spirit": 5, "socrates_in_love": 1}, deaths={}, killed_by={})


def test_bullied_kid_kills_other_weak():
    # suburb: bullied_kid, feminist, childrens_rights, second_from_bottom
    # bullied_kid: feminist +3 (male) + rights +2 (child) = 5 >= 5 -> one OTHER weak dies
    # second_from_bottom: same 3 + 2 = 5; feminist 0; rights 0 (she is no child)
    # candidates: weak others = [second_from_bottom] (the kid himself is weak: R-10)
    rec = Recorder()
    res = resolve_day(at("suburb", "bullied_kid", "pushy_feminist", "childrens_rights",
                         "second_from_bottom"), choose=rec)
    check(res, stress={"bullied_kid": 5, "pushy_feminist": 0, "childrens_rights": 0,
                       "second_from_bottom": 5},
          deaths={"second_from_bottom": "suburb"},
          killed_by={"second_from_bottom": "bullied_kid"})
    assert rec.calls == [("bullied_kid", ["second_from_bottom"])]


def test_R10_P4_bullied_kid_without_other_weak_does_nothing():
    # bullied_kid 3 + 2 = 5, but the only weak character there is himself -> no request
    rec = Recorder()
    res = resolve_day(at("suburb", "bullied_kid", "pushy_feminist", "childrens_rights"), choose=rec)
    check(res, stress={"bullied_kid": 5, "pushy_feminist": 0, "childrens_rights": 0},
          deaths={}, killed_by={})
    assert rec.calls == []


def test_bullied_kid_below_threshold_with_cat():
    # + cat: bullied_kid 3+2-1 = 4 < 5; second_from_bottom 4; feminist, rights: -1 -> 0;
    # cat: feminist (males) and rights (children) do not hit it -> 0
    rec = Recorder()
    res = resolve_day(at("suburb", "bullied_kid", "pushy_feminist", "childrens_rights",
                         "second_from_bottom", "cat"), choose=rec)
    check(res, stress={"bullied_kid": 4, "pushy_feminist": 0, "childrens_rights": 0,
                       "second_from_bottom": 4, "cat": 0}, deaths={}, killed_by={})
    assert rec.calls == []


def test_bully_kills_bullied_kid_in_all_child_school():
    # school: bully, bullied_kid, socrates -> all children; socrates +4 hits no loud one
    res = resolve_day(at("school", "bully", "bullied_kid", "socrates_in_love"))
    check(res, stress={"bully": 0, "bullied_kid": 0, "socrates_in_love": 0},
          deaths={"bullied_kid": "school"}, killed_by={"bullied_kid": "bully"})


def test_bully_needs_everyone_child():
    # + laid_off_man (adult) -> nothing
    res = resolve_day(at("school", "bully", "bullied_kid", "laid_off_man"))
    check(res, deaths={}, killed_by={})


def test_bully_only_in_school():
    res = resolve_day(at("park", "bully", "bullied_kid", "socrates_in_love"))
    check(res, deaths={}, killed_by={})


def test_second_from_bottom_substitutes_when_bullied_kid_absent():
    # school: bully, second_from_bottom (both children, bullied_kid not there)
    # -> the bully's rule kills second_from_bottom instead
    res = resolve_day(at("school", "bully", "second_from_bottom"))
    check(res, stress={"bully": 0, "second_from_bottom": 0},
          deaths={"second_from_bottom": "school"}, killed_by={"second_from_bottom": "bully"})


def test_second_from_bottom_safe_when_bullied_kid_there():
    res = resolve_day(at("school", "bully", "bullied_kid", "second_from_bottom"))
    check(res, deaths={"bullied_kid": "school"}, killed_by={"bullied_kid": "bully"})


def test_bully_without_victims_does_nothing():
    res = resolve_day(at("school", "bully", "socrates_in_love"))
    check(res, deaths={}, killed_by={})


def test_P8_bully_counts_protagonist():
    layout = at("school", "bully", "bullied_kid", "protagonist")
    # protagonist without attributes is no child -> nothing
    check(resolve_day(layout), deaths={}, killed_by={})
    # child protagonist -> all children -> bullied_kid dies
    check(resolve_day(layout, protagonist={"child"}),
          deaths={"bullied_kid": "school"}, killed_by={"bullied_kid": "bully"})


def test_cat_minus_one_spares_strong_and_clamps_at_zero():
    # park: right_winger, cat, laid_off_man, yakuza (yakuza rule is off outside ruins)
    # rw +1 -> cat, lom, yakuza; cat -1 -> rw, lom (not yakuza: strong; not itself)
    # rw max(0, -1) = 0; lom 1-1 = 0; yakuza 1; cat 1
    res = resolve_day(at("park", "right_winger", "cat", "laid_off_man", "yakuza"))
    check(res, stress={"right_winger": 0, "cat": 1, "laid_off_man": 0, "yakuza": 1},
          deaths={}, killed_by={})


def test_unforgiving_woman_cannot_reach_4_in_base_but_data_threshold_3_kills_male():
    # park: unforgiving_woman, right_winger, evil_spirit, auntie
    # unconditional: uw 2 (rw, es), rw 1 (es), es 2 (self, rw), auntie 2 (rw, es)
    # auntie 2 >= 2 fires +1 all: uw 3, rw 2, es 3, auntie 3
    layout = at("park", "unforgiving_woman", "right_winger", "evil_spirit", "fearmonger_auntie")
    stress = {"unforgiving_woman": 3, "right_winger": 2, "evil_spirit": 3, "fearmonger_auntie": 3}
    # base threshold 4: 3 < 4 -> nothing
    check(resolve_day(layout), stress=stress, deaths={}, killed_by={})
    # threshold 3: one male other than herself: only right_winger
    rec = Recorder()
    res = resolve_day(layout, roster=roster_with("unforgiving_woman.threshold=3"), choose=rec)
    check(res, stress=stress, deaths={"right_winger": "park"},
          killed_by={"right_winger": "unforgiving_woman"})
    assert rec.calls == [("unforgiving_woman", ["right_winger"])]


def test_unforgiving_woman_made_loud_in_data():
    # data: unforgiving_woman loud -> socrates +4 = 4 >= 4 -> a male dies: socrates
    r = roster_with("characters.unforgiving_woman.attributes=female,strong,loud")
    res = resolve_day(at("suburb", "unforgiving_woman", "socrates_in_love"), roster=r)
    check(res, stress={"unforgiving_woman": 4, "socrates_in_love": 0},
          deaths={"socrates_in_love": "suburb"},
          killed_by={"socrates_in_love": "unforgiving_woman"})


def test_psychic_misa_negates_evil_spirit():
    # ruins: misa, es, feminist, psychopath: es negated -> no +1, no kill
    # psychopath: feminist +3 = 3; others 0 (feminist hits males only)
    res = resolve_day(at("ruins", "psychic_misa", "evil_spirit", "pushy_feminist", "psychopath"))
    check(res, stress={"psychic_misa": 0, "evil_spirit": 0, "pushy_feminist": 0, "psychopath": 3},
          deaths={}, killed_by={})


def test_psychic_misa_only_in_her_location():
    # misa in park does not negate the evil spirit in ruins: psychopath 3+1 = 4 dies
    res = resolve_day(lay(at("park", "psychic_misa"),
                          at("ruins", "evil_spirit", "pushy_feminist", "psychopath")))
    check(res, deaths={"psychopath": "ruins"}, killed_by={"psychopath": "evil_spirit"})


def test_psychic_misa_negates_masuyo():
    # data masuyo.threshold=1; suburb: masuyo, right_winger, misa
    # masuyo: rw +1 = 1 >= 1, but she is occult and negated -> no kill
    r = roster_with("masuyo.threshold=1")
    res = resolve_day(at("suburb", "masuyo", "right_winger", "psychic_misa"), roster=r)
    check(res, stress={"masuyo": 1, "right_winger": 0, "psychic_misa": 1}, deaths={}, killed_by={})
    # without misa the same masuyo kills the giver
    res = resolve_day(at("suburb", "masuyo", "right_winger"), roster=r)
    check(res, deaths={"right_winger": "suburb"}, killed_by={"right_winger": "masuyo"})


def test_R12_negated_occult_protagonist_still_dies():
    # park: misa, protagonist (occult, loud), rage, feminist, childrens_rights
    # rage: feminist +3 (male) + rights +2 (child) = 5 >= 4; misa: rights +2 (child) = 2
    # protagonist: nothing hits it (not male, not child) = 0; feminist 0; rights 0
    # rage's candidates: loud others = protagonist, feminist, rights -> default: protagonist
    # (the negation removes the protagonist's effects, not its death)
    rec = Recorder()
    res = resolve_day(at("park", "psychic_misa", "protagonist", "rage", "pushy_feminist",
                         "childrens_rights"), protagonist={"occult", "loud"}, choose=rec)
    check(res, stress={"psychic_misa": 2, "protagonist": 0, "rage": 5, "pushy_feminist": 0,
                       "childrens_rights": 0},
          deaths={"protagonist": "park"}, killed_by={"protagonist": "rage"})
    assert rec.calls == [("rage", ["protagonist", "pushy_feminist", "childrens_rights"])]


def test_R12_negated_occult_protagonist_killed_via_agitator():
    # park: misa, protagonist (occult, male), feminist, socrates, agitator
    # feminist +3 to males: protagonist 3, socrates 3, agitator 3; socrates +4 to loud:
    # feminist 4; misa 0. The protagonist is negated (occult, with misa) but can be chosen:
    # feminist (4 >= 4) gains a kill; candidates = everyone there but her.
    rec = Recorder("protagonist")
    res = resolve_day(at("park", "psychic_misa", "protagonist", "pushy_feminist",
                         "socrates_in_love", "agitator"), protagonist={"occult", "male"}, choose=rec)
    check(res, stress={"psychic_misa": 0, "protagonist": 3, "pushy_feminist": 4,
                       "socrates_in_love": 3, "agitator": 3},
          deaths={"protagonist": "park"}, killed_by={"protagonist": "agitator"})
    assert rec.calls == [("pushy_feminist",
                          ["protagonist", "psychic_misa", "socrates_in_love", "agitator"])]


def test_rage_kills_one_loud():
    # park: rage, feminist, childrens_rights: rage 3 + 2 = 5 >= 4
    # loud others: feminist, rights -> default first in roster order: feminist
    layout = at("park", "rage", "pushy_feminist", "childrens_rights")
    res = resolve_day(layout)
    check(res, stress={"rage": 5, "pushy_feminist": 0, "childrens_rights": 0},
          deaths={"pushy_feminist": "park"}, killed_by={"pushy_feminist": "rage"})
    # the scriptwriter may choose the other one
    rec = Recorder("childrens_rights")
    res = resolve_day(layout, choose=rec)
    check(res, deaths={"childrens_rights": "park"}, killed_by={"childrens_rights": "rage"})
    assert rec.calls == [("rage", ["pushy_feminist", "childrens_rights"])]


def test_rage_below_threshold():
    # rage: feminist +3 = 3 < 4
    res = resolve_day(at("park", "rage", "pushy_feminist"))
    check(res, stress={"rage": 3, "pushy_feminist": 0}, deaths={}, killed_by={})


def test_mad_stalker_kills_male_of_lone_pair_anywhere():
    # stalker alone in underworld; park holds exactly laid_off_man (male) + verge (female)
    res = resolve_day(lay(at("underworld", "mad_stalker"),
                          at("park", "laid_off_man", "verge_of_madness")))
    check(res, deaths={"laid_off_man": "park"}, killed_by={"laid_off_man": "mad_stalker"})


def test_mad_stalker_acts_in_several_places_at_once():
    # park: lom + verge -> lom dies; school: right_winger + attention_seeker -> rw dies
    # (seeker: rw +1 = 1 < 3)
    res = resolve_day(lay(at("underworld", "mad_stalker"),
                          at("park", "laid_off_man", "verge_of_madness"),
                          at("school", "right_winger", "attention_seeker")))
    check(res, stress={"mad_stalker": 0, "laid_off_man": 0, "verge_of_madness": 0,
                       "right_winger": 0, "attention_seeker": 1},
          deaths={"laid_off_man": "park", "right_winger": "school"},
          killed_by={"laid_off_man": "mad_stalker", "right_winger": "mad_stalker"})


def test_mad_stalker_spares_himself_and_non_pairs():
    # stalker + seeker: he is the male of the pair, but "not himself"
    # park: lom, verge, cat -> three characters -> nothing
    res = resolve_day(lay(at("underworld", "mad_stalker", "attention_seeker"),
                          at("park", "laid_off_man", "verge_of_madness", "cat")))
    check(res, deaths={}, killed_by={})
    # two males, no female -> nothing
    res = resolve_day(lay(at("underworld", "mad_stalker"), at("park", "laid_off_man", "turf_king")))
    check(res, deaths={}, killed_by={})


def test_R14_both_sexes_protagonist_with_female_dies():
    # protagonist male+female with verge: the protagonist is the male, verge the female
    res = resolve_day(lay(at("underworld", "mad_stalker"), at("park", "protagonist", "verge_of_madness")),
                      protagonist={"male", "female"})
    check(res, deaths={"protagonist": "park"}, killed_by={"protagonist": "mad_stalker"})


def test_R14_both_sexes_protagonist_with_male():
    # protagonist male+female with laid_off_man: lom is a male with a female partner -> dies;
    # the protagonist is a male too, but its partner is not female -> lives
    res = resolve_day(lay(at("underworld", "mad_stalker"), at("park", "protagonist", "laid_off_man")),
                      protagonist={"male", "female"})
    check(res, deaths={"laid_off_man": "park"}, killed_by={"laid_off_man": "mad_stalker"})


def test_R14_stalker_in_pair_with_both_sexes_protagonist():
    # pair {stalker, protagonist(male, female)}: the stalker is exempt ("not himself");
    # the protagonist is a male but its partner (the stalker) is not female -> nothing
    res = resolve_day(at("park", "mad_stalker", "protagonist"), protagonist={"male", "female"})
    check(res, deaths={}, killed_by={})


def test_R14_both_qualify_both_die():
    # data: verge is male+female too; each of the pair is a male with a female partner -> both
    r = roster_with("characters.verge_of_madness.attributes=male,female")
    res = resolve_day(lay(at("underworld", "mad_stalker"), at("park", "protagonist", "verge_of_madness")),
                      protagonist={"male", "female"}, roster=r)
    check(res, deaths={"protagonist": "park", "verge_of_madness": "park"},
          killed_by={"protagonist": "mad_stalker", "verge_of_madness": "mad_stalker"})


def test_verge_of_madness_dies_in_ruins_only():
    check(resolve_day(at("ruins", "verge_of_madness")),
          deaths={"verge_of_madness": "ruins"}, killed_by={"verge_of_madness": "verge_of_madness"})
    check(resolve_day(at("suburb", "verge_of_madness")), deaths={}, killed_by={})


def test_turf_king_misreports_deaths_in_his_location():
    # underworld: turf_king, laid_off_man, feminist: lom 3 dies; announced in the NEXT place
    # (underworld -> park). turf_king: feminist +3 = 3 (no rule of his own).
    # ruins: verge dies there and is announced truly.
    res = resolve_day(lay(at("underworld", "turf_king", "laid_off_man", "pushy_feminist"),
                          at("ruins", "verge_of_madness")))
    check(res, stress={"turf_king": 3, "laid_off_man": 3, "pushy_feminist": 0, "verge_of_madness": 0},
          deaths={"laid_off_man": "park", "verge_of_madness": "ruins"},
          killed_by={"laid_off_man": "laid_off_man", "verge_of_madness": "verge_of_madness"})


def test_R11_turf_king_own_death_misreported():
    # ruins: exactly yakuza + turf_king (male) -> he dies; announced ruins -> underworld
    res = resolve_day(at("ruins", "yakuza", "turf_king"))
    check(res, deaths={"turf_king": "underworld"}, killed_by={"turf_king": "yakuza"})


def test_P6_negated_turf_king_reports_truly():
    # data: turf_king occult; misa with him -> negated -> true announcement
    r = roster_with("characters.turf_king.attributes=male,occult")
    res = resolve_day(at("underworld", "turf_king", "psychic_misa", "laid_off_man", "pushy_feminist"),
                      roster=r)
    check(res, deaths={"laid_off_man": "underworld"}, killed_by={"laid_off_man": "laid_off_man"})


def test_masuyo_kills_a_giver_cat_is_no_giver():
    # data masuyo.threshold=1; suburb: masuyo, right_winger, evil_spirit, cat
    # rw +1 -> masuyo, es, cat; es +1 -> all four; cat -1 -> masuyo, rw, es
    # masuyo 1+1-1 = 1 >= 1; rw 1-1 = 0; es 1+1-1 = 1; cat 1+1 = 2
    # givers (positive amounts, R-9): rw, es; not the cat (its -1 is no stress given)
    r = roster_with("masuyo.threshold=1")
    layout = at("suburb", "masuyo", "right_winger", "evil_spirit", "cat")
    rec = Recorder()
    res = resolve_day(layout, roster=r, choose=rec)
    check(res, stress={"masuyo": 1, "right_winger": 0, "evil_spirit": 1, "cat": 2},
          deaths={"evil_spirit": "suburb"}, killed_by={"evil_spirit": "masuyo"})
    assert rec.calls == [("masuyo", ["evil_spirit", "right_winger"])]
    rec = Recorder("right_winger")
    res = resolve_day(layout, roster=r, choose=rec)
    check(res, deaths={"right_winger": "suburb"}, killed_by={"right_winger": "masuyo"})
    # base threshold 6: 1 < 6 -> nothing
    check(resolve_day(layout), deaths={}, killed_by={})


def test_R9_masuyo_only_cat_touches_her():
    # threshold 0 (data): masuyo + cat: cat gives -1 -> 0 >= 0 but no giver -> no request
    r = roster_with("masuyo.threshold=0")
    rec = Recorder()
    res = resolve_day(at("suburb", "masuyo", "cat"), roster=r, choose=rec)
    check(res, stress={"masuyo": 0, "cat": 0}, deaths={}, killed_by={})
    assert rec.calls == []


def test_P2_masuyo_victim_wherever_it_stands_after_movement():
    # data: kenkichi also has "+1 to everyone else"; masuyo.threshold=1
    # suburb: masuyo, kenkichi, feminist
    # ken: feminist +3 = 3 -> moves to ruins; masuyo: ken +1 = 1 (feminist hits males only)
    # feminist: ken +1 = 1. Givers of masuyo: {kenkichi}, now in ruins -> he dies there
    cfg = {"characters": {"wandering_kenkichi": {"effects": [
        {"kind": "move_if_stressed", "threshold": 2},
        {"kind": "stress", "amount": 1, "include_self": False}]}}}
    r = roster_with("masuyo.threshold=1", config=cfg)
    res = resolve_day(at("suburb", "masuyo", "wandering_kenkichi", "pushy_feminist"), roster=r)
    check(res, stress={"masuyo": 1, "wandering_kenkichi": 3, "pushy_feminist": 1},
          positions={"masuyo": "suburb", "wandering_kenkichi": "ruins", "pushy_feminist": "suburb"},
          deaths={"wandering_kenkichi": "ruins"}, killed_by={"wandering_kenkichi": "masuyo"})


def test_childrens_rights_stresses_children_only():
    # school: rights, bully (child), laid_off_man (adult) -> bully 2, lom 0, rights 0
    res = resolve_day(at("school", "childrens_rights", "bully", "laid_off_man"))
    check(res, stress={"childrens_rights": 0, "bully": 2, "laid_off_man": 0}, deaths={}, killed_by={})


def test_P5_include_self_when_actor_has_the_attribute():
    # P-5: "every loud" includes the actor when it is loud itself.
    # base socrates is not loud: alone -> 0; data socrates loud -> his own +4 hits him
    check(resolve_day(at("park", "socrates_in_love")), stress={"socrates_in_love": 0})
    r = roster_with("characters.socrates_in_love.attributes=male,child,loud")
    check(resolve_day(at("park", "socrates_in_love"), roster=r), stress={"socrates_in_love": 4})


def test_agitator_grants_kill_to_stressed_other():
    # park: agitator, socrates, childrens_rights
    # rights: socrates +4 (loud) = 4 >= 4 -> gains "one character here dies"
    # socrates: rights +2 (child) = 2; agitator 0
    # candidates: everyone here but rights: socrates, agitator -> default socrates (P-3)
    layout = at("park", "agitator", "socrates_in_love", "childrens_rights")
    rec = Recorder()
    res = resolve_day(layout, choose=rec)
    check(res, stress={"agitator": 0, "socrates_in_love": 2, "childrens_rights": 4},
          deaths={"socrates_in_love": "park"}, killed_by={"socrates_in_love": "agitator"})
    assert rec.calls == [("childrens_rights", ["socrates_in_love", "agitator"])]
    # P-3: the agitator himself may be chosen
    res = resolve_day(layout, choose=Recorder("agitator"))
    check(res, deaths={"agitator": "park"}, killed_by={"agitator": "agitator"})


def test_agitator_own_stress_grants_nothing():
    # park: agitator, feminist, right_winger: agitator 3+1 = 4 but "every OTHER";
    # rw 3 (feminist), feminist 1 (rw) -> below 4 -> no request
    rec = Recorder()
    res = resolve_day(at("park", "agitator", "pushy_feminist", "right_winger"), choose=rec)
    check(res, stress={"agitator": 4, "pushy_feminist": 1, "right_winger": 3}, deaths={}, killed_by={})
    assert rec.calls == []


def test_choose_is_called_once_per_request_with_right_candidates():
    # park: agitator, socrates, rights, feminist
    # socrates: feminist +3 (male) + rights +2 (child) = 5
    # rights: socrates +4 (loud) = 4; feminist: socrates +4 = 4; agitator: feminist +3 = 3
    # requests (P-3): feminist, rights, socrates (each >= 4), candidates = the others there
    layout = at("park", "agitator", "socrates_in_love", "childrens_rights", "pushy_feminist")
    rec = Recorder()
    res = resolve_day(layout, choose=rec)
    expected_calls = {
        ("pushy_feminist", ("childrens_rights", "socrates_in_love", "agitator")),
        ("childrens_rights", ("pushy_feminist", "socrates_in_love", "agitator")),
        ("socrates_in_love", ("pushy_feminist", "childrens_rights", "agitator")),
    }
    assert len(rec.calls) == 3
    assert {(a, tuple(c)) for a, c in rec.calls} == expected_calls
    for actor, cands in rec.calls:          # never the actor itself
        assert actor not in cands
    # default (first candidate): feminist -> rights; rights -> feminist; socrates -> feminist
    check(res, stress={"agitator": 3, "socrates_in_love": 5, "childrens_rights": 4, "pushy_feminist": 4},
          deaths={"childrens_rights": "park", "pushy_feminist": "park"},
          killed_by={"childrens_rights": "agitator", "pushy_feminist": "agitator"})
    # P-4: all three may choose the same victim; it dies once
    res = resolve_day(layout, choose=Recorder("agitator"))
    check(res, deaths={"agitator": "park"}, killed_by={"agitator": "agitator"})


def test_choose_must_return_a_candidate():
    with pytest.raises(SimInputError):
        resolve_day(at("park", "rage", "pushy_feminist", "childrens_rights"),
                    choose=lambda actor, cands: "rage")


def test_P4_choose_a_character_that_dies_anyway_credit_to_fixed_rule():
    # park: rage, attention_seeker, socrates, feminist, rights
    # rage: feminist +3 + rights +2 = 5; seeker: socrates +4 = 4 (dies, >= 3)
    # feminist 4, rights 4 (socrates); socrates: feminist +3 + rights +2 = 5
    # rage chooses the seeker; P-11: fixed deaths first -> credit to her own rule
    rec = Recorder("attention_seeker")
    res = resolve_day(at("park", "rage", "attention_seeker", "socrates_in_love", "pushy_feminist",
                         "childrens_rights"), choose=rec)
    check(res, stress={"rage": 5, "attention_seeker": 4, "socrates_in_love": 5, "pushy_feminist": 4,
                       "childrens_rights": 4},
          deaths={"attention_seeker": "park"}, killed_by={"attention_seeker": "attention_seeker"})
    assert rec.calls == [("rage", ["pushy_feminist", "attention_seeker", "childrens_rights"])]


def test_wandering_kenkichi_moves_when_stressed():
    # park: ken, feminist, cat: ken 3-1 = 2 >= 2 -> school; feminist 0-1 -> 0; cat 0
    res = resolve_day(at("park", "wandering_kenkichi", "pushy_feminist", "cat"))
    check(res, stress={"wandering_kenkichi": 2, "pushy_feminist": 0, "cat": 0},
          positions={"wandering_kenkichi": "school", "pushy_feminist": "park", "cat": "park"},
          deaths={}, killed_by={})


def test_wandering_kenkichi_stays_below_threshold():
    # ken: rw +1 = 1 < 2 -> stays
    res = resolve_day(at("suburb", "wandering_kenkichi", "right_winger"))
    check(res, stress={"wandering_kenkichi": 1, "right_winger": 0},
          positions={"wandering_kenkichi": "suburb", "right_winger": "suburb"})


def test_wandering_kenkichi_wraps_underworld_to_park():
    res = resolve_day(at("underworld", "wandering_kenkichi", "pushy_feminist"))
    check(res, stress={"wandering_kenkichi": 3, "pushy_feminist": 0},
          positions={"wandering_kenkichi": "park", "pushy_feminist": "underworld"}, deaths={})


# ============================================================ R-7 phases and snapshot
def test_R7_deaths_read_positions_after_movement_arrival():
    # suburb: ken, feminist, rw: ken 3+1 = 4 -> ruins; rw 3; feminist 1. ruins: yakuza (0)
    # after movement ruins = {yakuza, ken} -> ken dies by the yakuza, in ruins
    res = resolve_day(lay(at("suburb", "wandering_kenkichi", "pushy_feminist", "right_winger"),
                          at("ruins", "yakuza")))
    check(res, stress={"wandering_kenkichi": 4, "pushy_feminist": 1, "right_winger": 3, "yakuza": 0},
          positions={"wandering_kenkichi": "ruins", "pushy_feminist": "suburb",
                     "right_winger": "suburb", "yakuza": "ruins"},
          deaths={"wandering_kenkichi": "ruins"}, killed_by={"wandering_kenkichi": "yakuza"})


def test_R7_deaths_read_positions_after_movement_departure():
    # ruins: yakuza, ken, feminist: ken 3 -> underworld; yakuza (male) 3; feminist 0
    # after movement ruins = {yakuza, feminist} -> feminist dies by the yakuza
    res = resolve_day(at("ruins", "yakuza", "wandering_kenkichi", "pushy_feminist"))
    check(res, stress={"yakuza": 3, "wandering_kenkichi": 3, "pushy_feminist": 0},
          positions={"yakuza": "ruins", "wandering_kenkichi": "underworld", "pushy_feminist": "ruins"},
          deaths={"pushy_feminist": "ruins"}, killed_by={"pushy_feminist": "yakuza"})


def test_R7_moved_kenkichi_stress_not_recomputed():
    # park: ken, feminist, rw, cat: ken 3+1-1 = 3 -> school; feminist 1-1 = 0;
    # rw 3-1 = 2; cat 1 (rw). school: evil spirit, stress 1 (itself)
    # in school the evil spirit reads ken's 3 (its +1 was not applied to him) -> lives
    res = resolve_day(lay(at("park", "wandering_kenkichi", "pushy_feminist", "right_winger", "cat"),
                          at("school", "evil_spirit")))
    check(res, stress={"wandering_kenkichi": 3, "pushy_feminist": 0, "right_winger": 2, "cat": 1,
                       "evil_spirit": 1},
          positions={"wandering_kenkichi": "school", "pushy_feminist": "park", "right_winger": "park",
                     "cat": "park", "evil_spirit": "school"},
          deaths={}, killed_by={})


def test_R7_P6_kenkichi_dies_where_turf_king_stands():
    # suburb: ken, feminist, rw: ken 4 -> ruins. ruins: evil_spirit, turf_king (es +1 each)
    # after movement ruins = {es, turf, ken}: the evil spirit kills ken (4 >= 4);
    # turf_king stands there -> announced ruins -> underworld
    res = resolve_day(lay(at("suburb", "wandering_kenkichi", "pushy_feminist", "right_winger"),
                          at("ruins", "evil_spirit", "turf_king")))
    check(res, stress={"wandering_kenkichi": 4, "pushy_feminist": 1, "right_winger": 3,
                       "evil_spirit": 1, "turf_king": 1},
          deaths={"wandering_kenkichi": "underworld"}, killed_by={"wandering_kenkichi": "evil_spirit"})


def test_R7_kenkichi_leaving_turf_king_is_announced_truly():
    # park: ken, feminist, rw, turf_king: ken 3+1 = 4 -> school; turf 4; rw 3; feminist 1
    # school: evil_spirit (1) kills ken (4) there; the turf king is in park -> true "school"
    res = resolve_day(lay(at("park", "wandering_kenkichi", "pushy_feminist", "right_winger", "turf_king"),
                          at("school", "evil_spirit")))
    check(res, stress={"wandering_kenkichi": 4, "pushy_feminist": 1, "right_winger": 3, "turf_king": 4,
                       "evil_spirit": 1},
          deaths={"wandering_kenkichi": "school"}, killed_by={"wandering_kenkichi": "evil_spirit"})


def test_R7_all_deaths_together_dying_rage_still_kills():
    # ruins: es, rage, feminist, rights
    # rage: feminist +3 + rights +2 + es +1 = 6; feminist 1; rights 1; es 1
    # the evil spirit kills rage (6 >= 4) and rage (6 >= 4) still kills a loud one: feminist
    res = resolve_day(at("ruins", "evil_spirit", "rage", "pushy_feminist", "childrens_rights"))
    check(res, stress={"evil_spirit": 1, "rage": 6, "pushy_feminist": 1, "childrens_rights": 1},
          deaths={"rage": "ruins", "pushy_feminist": "ruins"},
          killed_by={"rage": "evil_spirit", "pushy_feminist": "rage"})


def test_P1_negated_occult_kenkichi_does_not_move():
    # data: kenkichi occult. park: ken, feminist, misa -> ken 3 but negated all day -> stays
    r = roster_with("characters.wandering_kenkichi.attributes=male,occult")
    res = resolve_day(at("park", "wandering_kenkichi", "pushy_feminist", "psychic_misa"), roster=r)
    check(res, stress={"wandering_kenkichi": 3, "pushy_feminist": 0, "psychic_misa": 0},
          positions=at("park", "wandering_kenkichi", "pushy_feminist", "psychic_misa"))
    # without misa he moves
    res = resolve_day(at("park", "wandering_kenkichi", "pushy_feminist"), roster=r)
    assert res.positions["wandering_kenkichi"] == "school"


# ============================================================ the dead never act
@pytest.mark.parametrize("layout,killer,victim", [
    (at("park", "pushy_feminist", "laid_off_man"), "pushy_feminist", "laid_off_man"),
    (at("ruins", "yakuza", "laid_off_man"), "yakuza", "laid_off_man"),
    (at("park", "yakuza", "bottom_rung_man"), "yakuza", "bottom_rung_man"),
    (at("park", "psychopath", "verge_of_madness"), "psychopath", "verge_of_madness"),
    (lay(at("underworld", "mad_stalker"), at("park", "laid_off_man", "verge_of_madness")),
     "mad_stalker", "laid_off_man"),
    (at("school", "bully", "bullied_kid"), "bully", "bullied_kid"),
    (at("park", "socrates_in_love", "attention_seeker"), "socrates_in_love", "attention_seeker"),
    (at("park", "agitator", "socrates_in_love", "childrens_rights"), "agitator", "socrates_in_love"),
])
def test_dead_killer_does_nothing(layout, killer, victim):
    assert victim in resolve_day(layout).deaths
    without = {c: l for c, l in layout.items() if c != killer}
    res = resolve_day(without)
    assert res.deaths == {} and res.killed_by == {}
    assert killer not in res.stress and killer not in res.positions


def test_dead_turf_king_does_not_misreport():
    layout = at("underworld", "turf_king", "laid_off_man", "pushy_feminist")
    assert resolve_day(layout).deaths == {"laid_off_man": "park"}
    del layout["turf_king"]
    assert resolve_day(layout).deaths == {"laid_off_man": "underworld"}


def test_dead_cat_does_not_soothe():
    # feminist +3 = 3, the cat would make it 2: without the cat laid_off_man dies
    layout = at("park", "pushy_feminist", "laid_off_man", "cat")
    check(resolve_day(layout), stress={"pushy_feminist": 0, "laid_off_man": 2, "cat": 0}, deaths={})
    del layout["cat"]
    check(resolve_day(layout), deaths={"laid_off_man": "park"})


# ============================================================ expansion roster
def test_expansion_president_valentine_redirects_stress():
    # park: valentine, feminist, rw; school: laid_off_man
    # feminist's +3 (males) and rw's +1 (everyone else) are aimed at the park and land in
    # school: lom 3+1 = 4 -> dies; everybody in park 0
    res = resolve_day(lay(at("park", "president_valentine", "pushy_feminist", "right_winger"),
                          at("school", "laid_off_man")), roster=exp_roster())
    check(res, stress={"president_valentine": 0, "pushy_feminist": 0, "right_winger": 0,
                       "laid_off_man": 4},
          deaths={"laid_off_man": "school"}, killed_by={"laid_off_man": "laid_off_man"})


def test_expansion_valentine_negated_by_misa():
    # + misa in park: valentine (occult) negated -> no redirect
    # valentine: feminist +3 (male) + rw +1 = 4; rw: feminist +3 = 3; feminist: rw +1 = 1;
    # misa: rw +1 = 1; lom in school 0
    res = resolve_day(lay(at("park", "president_valentine", "pushy_feminist", "right_winger",
                             "psychic_misa"), at("school", "laid_off_man")), roster=exp_roster())
    check(res, stress={"president_valentine": 4, "pushy_feminist": 1, "right_winger": 3,
                       "psychic_misa": 1, "laid_off_man": 0}, deaths={}, killed_by={})


def test_expansion_maman_is_blank():
    # maman has no sex: yakuza + maman in ruins -> nothing; maman alone: 0
    res = resolve_day(at("ruins", "yakuza", "maman"), roster=exp_roster())
    check(res, stress={"yakuza": 0, "maman": 0}, deaths={}, killed_by={})
    # ... but she counts for "exactly one other"
    res = resolve_day(at("ruins", "yakuza", "maman", "laid_off_man"), roster=exp_roster())
    check(res, deaths={}, killed_by={})


def test_expansion_princess_flute_protects_her_location():
    # park: flute, lom, feminist: lom 3 would die -> protected
    res = resolve_day(at("park", "princess_flute", "laid_off_man", "pushy_feminist"), roster=exp_roster())
    check(res, stress={"princess_flute": 0, "laid_off_man": 3, "pushy_feminist": 0}, deaths={}, killed_by={})
    # herself included: exactly yakuza + flute (female) in ruins -> protected
    res = resolve_day(at("ruins", "princess_flute", "yakuza"), roster=exp_roster())
    check(res, deaths={}, killed_by={})
    # not elsewhere: verge in ruins still dies
    res = resolve_day(lay(at("park", "princess_flute"), at("ruins", "verge_of_madness")), roster=exp_roster())
    check(res, deaths={"verge_of_madness": "ruins"})


def test_expansion_princess_flute_removes_choice_candidates():
    # park: flute, rage, feminist, rights: rage 5, but both loud ones are protected -> no call
    rec = Recorder()
    res = resolve_day(at("park", "princess_flute", "rage", "pushy_feminist", "childrens_rights"),
                      roster=exp_roster(), choose=rec)
    check(res, stress={"princess_flute": 0, "rage": 5, "pushy_feminist": 0, "childrens_rights": 0},
          deaths={}, killed_by={})
    assert rec.calls == []


def test_expansion_princess_flute_before_slaughter_angel():
    # park: flute, angel, lom, feminist: lom 3 protected -> no death, the angel has no trigger
    res = resolve_day(at("park", "princess_flute", "slaughter_angel", "laid_off_man", "pushy_feminist"),
                      roster=exp_roster())
    check(res, deaths={}, killed_by={})


def test_expansion_princess_flute_negated_by_misa():
    # + misa: flute (occult) negated -> lom 3 dies
    res = resolve_day(at("park", "princess_flute", "psychic_misa", "laid_off_man", "pushy_feminist"),
                      roster=exp_roster())
    check(res, deaths={"laid_off_man": "park"}, killed_by={"laid_off_man": "laid_off_man"})


def test_expansion_abe_descendant_kills_occult():
    # park: abe, evil_spirit, cat: es is occult -> dies
    # stress: es +1 -> abe, es, cat; cat -1 -> abe, es -> abe 0, es 0, cat 1
    res = resolve_day(at("park", "abe_descendant", "evil_spirit", "cat"), roster=exp_roster())
    check(res, stress={"abe_descendant": 0, "evil_spirit": 0, "cat": 1},
          deaths={"evil_spirit": "park"}, killed_by={"evil_spirit": "abe_descendant"})


def test_expansion_abe_kills_negated_occult():
    # misa negates masuyo's effects, not her death: park: abe, masuyo, misa -> masuyo dies
    res = resolve_day(at("park", "abe_descendant", "masuyo", "psychic_misa"), roster=exp_roster())
    check(res, deaths={"masuyo": "park"}, killed_by={"masuyo": "abe_descendant"})


def test_expansion_slaughter_angel():
    # park: angel, lom, feminist, rw: lom 3+1 = 4 dies; rw 3; feminist 1; angel 1
    # another death in her location -> every other character there dies (feminist, rw)
    res = resolve_day(at("park", "slaughter_angel", "laid_off_man", "pushy_feminist", "right_winger"),
                      roster=exp_roster())
    check(res, stress={"slaughter_angel": 1, "laid_off_man": 4, "pushy_feminist": 1, "right_winger": 3},
          deaths={"laid_off_man": "park", "pushy_feminist": "park", "right_winger": "park"},
          killed_by={"laid_off_man": "laid_off_man", "pushy_feminist": "slaughter_angel",
                     "right_winger": "slaughter_angel"})


def test_expansion_slaughter_angel_ignores_deaths_elsewhere():
    res = resolve_day(lay(at("park", "slaughter_angel", "cat"), at("ruins", "verge_of_madness")),
                      roster=exp_roster())
    check(res, deaths={"verge_of_madness": "ruins"}, killed_by={"verge_of_madness": "verge_of_madness"})


def test_expansion_slaughter_angel_reacts_to_chosen_death():
    # park: angel, rage, feminist, rights: rage 5 -> kills feminist (first loud);
    # then the angel kills the others there: rage, rights
    res = resolve_day(at("park", "slaughter_angel", "rage", "pushy_feminist", "childrens_rights"),
                      roster=exp_roster())
    check(res, deaths={"pushy_feminist": "park", "rage": "park", "childrens_rights": "park"},
          killed_by={"pushy_feminist": "rage", "rage": "slaughter_angel",
                     "childrens_rights": "slaughter_angel"})


def test_expansion_alessi_makes_males_children():
    # park: alessi, lom, rw, rights: lom and rw become children (not alessi himself)
    # lom: rights +2 (child) + rw +1 = 3 -> dies; rw: rights +2 = 2; alessi: rw +1 = 1;
    # rights: rw +1 = 1
    res = resolve_day(at("park", "alessi", "laid_off_man", "right_winger", "childrens_rights"),
                      roster=exp_roster())
    check(res, stress={"alessi": 1, "laid_off_man": 3, "right_winger": 2, "childrens_rights": 1},
          deaths={"laid_off_man": "park"}, killed_by={"laid_off_man": "laid_off_man"})
    # base roster, no alessi: lom 1, survives
    res = resolve_day(at("park", "laid_off_man", "right_winger", "childrens_rights"))
    check(res, stress={"laid_off_man": 1, "right_winger": 0, "childrens_rights": 1}, deaths={})


def test_expansion_alessi_is_no_child_himself():
    # school: bully, bullied_kid, laid_off_man, alessi: lom becomes a child, but alessi
    # ("other males") does not -> not everyone in school is a child -> bully rule off
    res = resolve_day(at("school", "bully", "bullied_kid", "laid_off_man", "alessi"), roster=exp_roster())
    check(res, deaths={}, killed_by={})


def test_expansion_base_layout_characters_behave_as_base():
    # a base scenario gives the same answer with the expansion roster
    res = resolve_day(at("school", "pushy_feminist", "right_winger", "laid_off_man"), roster=exp_roster())
    check(res, stress={"pushy_feminist": 1, "right_winger": 3, "laid_off_man": 4},
          deaths={"laid_off_man": "school"}, killed_by={"laid_off_man": "laid_off_man"})
