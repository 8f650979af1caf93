"""The `trusting` families against their own oracles (issue 43): decisions on hand-built views
(tests/werewolf_views.py) whose right answer follows from strategies/werewolf/trusting.py's
documentation, and each knob's effect in its documented direction. Default table; seats 0–2
are fenrir, hati and the accomplice, 3 the seer, 5 the paladin, 6 the witch, 7–11 villagers."""
from strategies.werewolf import trusting as T
from tests.werewolf_views import VILLAGE_TEAM, bits, draws, mask, view

CANDS = mask(VILLAGE_TEAM)  # whom the wolves may attack: the nine of the village team
N = 300


def share(picks, who):
    return sum(p == who for p in picks) / len(picks)


def test_trusting_wolves_hunt_the_claimed_seer_first():
    """hunt (default on): seat 4 claims seer, so the attack is 4 every time; off: uniform over
    the nine, 4 in about 1/9 of the attacks (300 draws: at most 0.25)."""
    mk = lambda **kw: (lambda: view(0, seer_claims={4: {}}, **kw))
    on = draws(T.wolf_attack_nb, mk(), CANDS, times=N)
    assert set(on) == {4}
    off = draws(T.wolf_attack_nb, mk(knobs={T.KW_HUNT: 0.0}), CANDS, times=N)
    assert share(off, 4) < 0.25 and set(off) == set(VILLAGE_TEAM)


def test_trusting_wolves_vote_the_claimer_outside_their_team():
    picks = draws(T.wolf_vote_nb, lambda: view(1, seer_claims={2: {}, 6: {}}), mask(range(2, 12)), times=50)
    assert set(picks) == {6}  # 2 (the accomplice) claimed too, but is on the team
    off = draws(T.wolf_vote_nb, lambda: view(1, seer_claims={6: {}}, knobs={T.KW_VOTE: 0.0}), mask(range(2, 12)))
    assert share(off, 6) < 0.3 and not set(off) & {2}


def test_trusting_village_follows_the_report():
    """A villager (seat 9) hears claimer 4 report 8 as a wolf: follow 1 votes 8 always; follow 0
    votes one of the uncleared (not the trusted claimer 4) at random."""
    cands = mask(range(12))
    mk = lambda **kw: (lambda: view(9, seer_claims={4: {8: 1}}, **kw))
    assert set(draws(T.village_vote_nb, mk(), cands, times=50)) == {8}
    off = draws(T.village_vote_nb, mk(knobs={T.KV_FOLLOW: 0.0}), cands)
    assert share(off, 8) < 0.25 and 4 not in off and 9 not in off
    half = draws(T.village_vote_nb, mk(knobs={T.KV_FOLLOW: 0.5}), cands)
    assert share(off, 8) < share(half, 8) < 1.0  # the direction: more follow, more votes on 8


def test_trusting_hati_frames_the_most_cleared():
    """Claimers 3 and 4 both cleared 9, and 3 cleared 10: hati marks 9 (two clears); with 9 its
    last mark, 10; frame off marks at random."""
    sc = {3: {9: 0, 10: 0}, 4: {9: 0}}
    assert set(draws(T.wolf_mark_nb, lambda: view(1, seer_claims=sc), times=30)) == {9}
    assert set(draws(T.wolf_mark_nb, lambda: view(1, seer_claims=sc, last_mark=9), times=30)) == {10}
    off = draws(T.wolf_mark_nb, lambda: view(1, seer_claims=sc, knobs={T.KW_FRAME: 0.0}))
    assert share(off, 9) < 0.3 and 1 not in off


def test_trusting_paladin_guards_the_claimer():
    """Two protected each night: the claimer 3 always among them; off, 3 in about 2/11."""
    on = draws(T.village_protect_nb, lambda: view(5, seer_claims={3: {}}), times=100)
    assert all(3 in bits(m) and len(bits(m)) == 2 and 5 not in bits(m) for m in on)
    off = draws(T.village_protect_nb, lambda: view(5, seer_claims={3: {}}, knobs={T.KV_GUARD: 0.0}))
    assert sum(3 in bits(m) for m in off) / N < 0.35


def test_trusting_witch_eliminates_the_reported_wolf():
    from sim.werewolf.enums import WITCH_BASE, WITCH_ELIMINATE, WITCH_PASS

    got = draws(T.village_witch_nb, lambda: view(6, seer_claims={3: {1: 1}}), times=30)
    assert set(got) == {WITCH_ELIMINATE * WITCH_BASE + 1}
    off = draws(T.village_witch_nb, lambda: view(6, seer_claims={3: {1: 1}}, knobs={T.KV_ELIMINATE: 0.0}), times=30)
    assert set(off) == {WITCH_PASS * WITCH_BASE}


def test_trusting_paladin_never_repeats_last_nights_pair():
    """Q-1: last night's pair {3, 7} may not be protected again; 3 (the claimer) still is, so
    the second is anyone of the nine others but 7."""
    got = draws(T.village_protect_nb, lambda: view(5, seer_claims={3: {}}, last_protect=(3, 7)))
    assert all(bits(m) != {3, 7} and len(bits(m)) == 2 for m in got)
    assert sum(3 in bits(m) for m in got) > 0.8 * N  # the claimer first, whenever the rule allows
