"""The `claims` families against their own oracles (issue 43): decisions on hand-built views
(tests/werewolf_views.py) whose right answer follows from strategies/werewolf/claims.py's
documentation, and each knob's effect in its documented direction. Default table; seats 0–2
are fenrir, hati and the accomplice, 3 the seer, 5 the paladin, 6 the witch, 7–11 villagers."""
from collections import Counter

import numpy as np

from strategies.werewolf import claims as C
from tests.werewolf_views import VILLAGE_TEAM, bits, draws, mask, view

CANDS = mask(VILLAGE_TEAM)  # whom the wolves may attack: the nine of the village team
N = 300


def share(picks, who):
    return sum(p == who for p in picks) / len(picks)


def test_claims_village_votes_the_reported_wolf():
    """One seer at the table and one claimer (4): trust 1, so its "wolf" on 8 gives 8 suspicion
    report × 1 > 0, everyone else 0: a villager votes 8. With report 0 nothing separates them
    and the agreed tie-break takes the lowest seat, 0."""
    cands = mask(range(12))
    mk = lambda **kw: (lambda: view(9, seer_claims={4: {8: 1}}, **kw))
    assert set(draws(C.village_vote_nb, mk(), cands, times=30)) == {8}
    assert set(draws(C.village_vote_nb, mk(knobs={C.KV_REPORT: 0.0}), cands, times=30)) == {0}


def test_claims_village_doubts_a_counter_claimer():
    """Two seer claimers (4 and 8) for one seer: each is trusted 1/2, so each carries suspicion
    fake × 1/2 and no one else any: the vote goes to a claimer (the lower, 4, by agreement)."""
    got = draws(C.village_vote_nb, lambda: view(9, seer_claims={4: {}, 8: {}}), mask(range(12)), times=30)
    assert set(got) == {4}
    off = draws(C.village_vote_nb, lambda: view(9, seer_claims={4: {}, 8: {}}, knobs={C.KV_FAKE: 0.0}),
                mask(range(12)), times=30)
    assert set(off) == {0}  # fake 0: no suspicion anywhere, the lowest seat


def test_claims_wolves_attack_and_vote_the_trusted_claimer():
    assert set(draws(C.wolf_attack_nb, lambda: view(0, seer_claims={7: {}}), CANDS, times=30)) == {7}
    assert set(draws(C.wolf_vote_nb, lambda: view(0, seer_claims={7: {}}), mask(range(1, 12)), times=30)) == {7}
    # no claimer: a random village-team participant
    free = Counter(draws(C.wolf_attack_nb, lambda: view(0), CANDS))
    assert set(free) == set(VILLAGE_TEAM)


def test_claims_paladin_protects_the_trusted_claimer():
    on = draws(C.village_protect_nb, lambda: view(5, seer_claims={3: {}}), times=100)
    assert all(3 in bits(m) and len(bits(m)) == 2 and 5 not in bits(m) for m in on)
    # last night's pair was {3, 7}: tonight 3 again, with someone new
    again = draws(C.village_protect_nb, lambda: view(5, seer_claims={3: {}}, last_protect=(3, 7)), times=100)
    assert all(3 in bits(m) and 7 not in bits(m) for m in again)


def test_claims_witch_acts_only_past_her_threshold():
    """A trusted claimer's "wolf" on 1 gives 1 suspicion report × 1 = 1 < witch_kill 1.5: pass;
    report 2 makes it 2 ≥ 1.5: eliminate 1."""
    from sim.werewolf.enums import WITCH_BASE, WITCH_ELIMINATE, WITCH_PASS

    mk = lambda **kw: (lambda: view(6, seer_claims={3: {1: 1}}, **kw))
    assert set(draws(C.village_witch_nb, mk(), times=20)) == {WITCH_PASS * WITCH_BASE}
    assert set(draws(C.village_witch_nb, mk(knobs={C.KV_REPORT: 2.0}), times=20)) == {WITCH_ELIMINATE * WITCH_BASE + 1}
    assert set(draws(C.village_witch_nb, mk(knobs={C.KV_WITCH_KILL: 0.5}), times=20)) == \
        {WITCH_ELIMINATE * WITCH_BASE + 1}


def test_claims_wolves_do_not_attack_a_guarded_survivor_again():
    """Last night's attack on the claimer 7 failed (it is alive: guarded), mem says so: with
    dodge 1 the wolves go elsewhere, at random among the other eight; with dodge 0 they try 7
    again (the most trusted claimer)."""
    mk = lambda **kw: (lambda: view(0, seer_claims={7: {}}, mem={C.MEM_ATTACKED: 7 + 1}, **kw))
    dodged = draws(C.wolf_attack_nb, mk(), CANDS)
    assert 7 not in dodged and set(dodged) == set(VILLAGE_TEAM) - {7}
    assert set(draws(C.wolf_attack_nb, mk(knobs={C.KW_DODGE: 0.0}), CANDS, times=30)) == {7}


def test_claims_medium_waits_for_a_contested_claim():
    """Issue 40: the medium (seat 4) read yesterday's voted-out 9 as village. With one seer at
    the table and one seer claimer nothing is contested, so it keeps quiet; a second seer
    claimer (one of them lies), or a rival medium claimer while someone claims seer, makes it
    report 9 (a rival medium alone moves nobody's trust: still quiet); medium_wait=0
    reports at once (the eager medium of before)."""
    from sim.werewolf.enums import CLAIM_BASE, CLAIM_MEDIUM

    know = [-1] * 12
    know[4], know[9] = 0, 0
    report = CLAIM_MEDIUM * CLAIM_BASE + 9 * 2 + 0
    mk = lambda **kw: (lambda: view(4, alive=[p for p in range(12) if p != 9], voted=(9,), know=np.array(know),
                                     **kw))
    assert set(draws(C.village_speak_nb, mk(seer_claims={3: {}}), times=5)) == {-1}
    assert set(draws(C.village_speak_nb, mk(seer_claims={3: {}, 8: {}}), times=5)) == {report}
    assert set(draws(C.village_speak_nb, mk(seer_claims={3: {}}, medium_claims={7: {}}), times=5)) == {report}
    assert set(draws(C.village_speak_nb, mk(medium_claims={7: {}}), times=5)) == {-1}
    assert set(draws(C.village_speak_nb, mk(seer_claims={3: {}}, knobs={C.KV_MEDIUM_WAIT: 0.0}), times=5)) == \
        {report}


def test_claims_paladin_guards_the_seer_before_the_medium():
    """A seer claimer (8) and a medium claimer (4), both alone in their role: both trusted 1.
    The paladin's first pick is the seer claimer; with guard_seer=0 the lower seat, 4."""
    mk = lambda **kw: (lambda: view(5, seer_claims={8: {}}, medium_claims={4: {}}, **kw))
    assert all(8 in bits(m) for m in draws(C.village_protect_nb, mk(), times=100))
    off = draws(C.village_protect_nb, mk(knobs={C.KV_GUARD_SEER: 0.0}), times=100)
    assert all(4 in bits(m) for m in off) and not all(8 in bits(m) for m in off)
