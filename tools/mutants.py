"""The named mutants of tools/mutate.py: each a small plausible bug (one exact text replacement
in one file) and the fast tests that must catch it. The first nine are issue 43's table.
A mutant whose ``old`` text no longer occurs exactly once stops the run: keep them current."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]
    why: str
    nojit: bool = False  # its tests run as plain Python (NUMBA_DISABLE_JIT=1): they read a kernel's state


STATS = ("tests/test_stats_pinned.py",)
SEEDS = ("tests/test_streams_independent.py",)
OUT = ("tests/test_output_race.py", "tests/test_output_safety.py")
EXACT = ("tests/test_trpg_exact_fumbles.py",)
REACT = ("tests/test_trpg_reaction_oracles.py",)
PROFILES = ("tests/test_trpg_profile_oracles.py",)
LOOPER = ("tests/test_looper_strategy_oracles.py",)
WW_PROBES = ("tests/test_werewolf_field_probes.py",)
LOOPER_PROBES = ("tests/test_looper_field_probes.py",)
TRPG_PROBES = ("tests/test_trpg_field_probes.py",)
# the differential tests, whose naive side now plays re-stated strategies (tests/naive/*_strategies.py)
LOOPER_DIFF = ("tests/test_looper_diff.py::test_games_match_naive[base-deducer-random-120]",
               "tests/test_looper_diff.py::test_games_match_naive[base-random-random-120]")
WW_DIFF = ("tests/test_werewolf_diff.py::test_games_match_naive[default-random-random]",)
# the protecting move against the naive one (tests/naive/looper_protect.py), decision by decision
PROTECT_DIFF = ("tests/test_looper_diff.py::test_protect_decisions_match_naive",)
WW_DIFF_TR = ("tests/test_werewolf_diff.py::test_games_match_naive[default-trusting-trusting]",)
WW_DIFF_CL = ("tests/test_werewolf_diff.py::test_games_match_naive[default-claims-claims]",)


def ww_diff(test_id: str) -> tuple[str, ...]:
    return (f"tests/test_werewolf_diff.py::{test_id}",)
WW_TRUSTING = ("tests/test_werewolf_trusting_oracles.py",)
WW_CLAIMS = ("tests/test_werewolf_claims_oracles.py",)
OOB_WW = ("tests/test_oob_werewolf.py",)
# bayes's particle filter against the exact posterior on a tiny roster (plain Python: a probe reads the particles)
BAYES_EXACT = ("tests/test_looper_bayes_exact.py",)

MUTANTS: list[Mutant] = [
    # --- issue 43's table ---------------------------------------------------------------
    Mutant("paired_t_995", "sim/sweep/compare.py", "stats.t.ppf(0.975, K - 1)", "stats.t.ppf(0.9975, K - 1)",
           STATS, "the paired CI uses the 99.5% t quantile (a 99% interval reported as 95%)"),
    Mutant("run_key_two_levels", "sim/core/seeding.py", "spawn_key=tuple(spawn_key))",
           "spawn_key=tuple(spawn_key)[:2])", SEEDS, "run_key keeps only the first two spawn levels"),
    Mutant("swap_no_recheck", "sim/core/outdir.py",
           "            _foreign(out, self.kind, self.flag)  # once more",
           "            pass  # once more", OUT, "the swap no longer re-checks --out for foreign files"),
    Mutant("wilson_no_quarter_term", "sim/core/stats.py", " + z2 / (4 * n * n))", ")", STATS,
           "the Wilson interval without its z²/4n² term"),
    # --- their kind: statistics -----------------------------------------------------------
    Mutant("wilson_no_centre_shift", "sim/core/stats.py", "centre = (p + z2 / (2 * n)) / denom",
           "centre = p / denom", STATS, "the Wilson centre without its z²/2n shift"),
    Mutant("wilson_no_denominator", "sim/core/stats.py", "half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom",
           "half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))", STATS, "the Wilson half-width not divided"),
    Mutant("wilson_z_99", "sim/core/stats.py", "Z95 = 1.959963984540054", "Z95 = 2.5758293035489", STATS,
           "a 99% z labelled 95%"),
    Mutant("paired_t_df_k", "sim/sweep/compare.py", "stats.t.ppf(0.975, K - 1)", "stats.t.ppf(0.975, K)",
           STATS, "K degrees of freedom instead of K − 1"),
    Mutant("paired_se_no_bessel", "sim/sweep/compare.py", "math.sqrt(K / (K - 1) * np.sum(", "math.sqrt(np.sum(",
           STATS, "the batch-means variance without its K/(K−1)"),
    Mutant("paired_diff_unweighted", "sim/sweep/compare.py", "diff = d.sum() / N", "diff = float(np.mean(d / n))",
           STATS, "the paired difference as an unweighted mean of block rates"),
    Mutant("unpaired_z_wrong", "sim/sweep/compare.py",
           "ci_low=diff - Z95 * unpaired_se, ci_high=diff + Z95 * unpaired_se",
           "ci_low=diff - 2.5758 * unpaired_se, ci_high=diff + 2.5758 * unpaired_se", STATS,
           "the unpaired interval at 99%"),
    Mutant("paired_ignores_seed", "sim/sweep/compare.py", " and ma.get(\"seed\") == mb.get(\"seed\")", "", STATS,
           "cells of different seeds compared as paired"),
    # --- their kind: seeding ------------------------------------------------------------
    Mutant("run_key_sorted", "sim/core/seeding.py", "spawn_key=tuple(spawn_key))",
           "spawn_key=tuple(sorted(spawn_key)))", SEEDS, "spawn levels taken as a set (order lost)"),
    Mutant("run_key_no_spawn", "sim/core/seeding.py", "spawn_key=tuple(spawn_key))", "spawn_key=())", SEEDS,
           "every sub-run plays the root's streams"),
    Mutant("matrix_orders_share", "sim/trpg/matrix.py", "spawn=(i, j, first == \"b\")", "spawn=(i, j)", SEEDS,
           "the TRPG matrix's two first-move orders share streams"),
    Mutant("tune_final_is_search", "sim/analysis/tune.py", "SEARCH, FRESH = 21, 22", "SEARCH, FRESH = 21, 21",
           SEEDS, "tune's final measurement replays the search's games"),
    Mutant("ladder_fresh_is_measure", "sim/analysis/metagame.py", "MEASURE, FRESH = 11, 12",
           "MEASURE, FRESH = 11, 11", SEEDS, "the ladder's fresh re-measure replays the solved matrix"),
    Mutant("unpaired_cells_share", "sim/sweep/spec.py", "    if spec.paired:\n        return (1,)",
           "    if True:\n        return (1,)", SEEDS, "unpaired sweep cells all play the same streams"),
    # --- their kind: output ---------------------------------------------------------------
    Mutant("foreign_check_skips_subdirs", "sim/core/outdir.py", "        if rel in listed:\n            continue",
           "        if rel in listed or \"/\" in rel:\n            continue", OUT,
           "a foreign file in a subdirectory of --out goes unnoticed"),
    Mutant("symlink_out_accepted", "sim/core/outdir.py", "    if p.is_symlink():\n        raise",
           "    if False:\n        raise", OUT, "--out may be a symbolic link"),
    Mutant("backup_removed_whole", "sim/core/outdir.py", "if not _remove_listed(backup, listed):",
           "if not _remove_listed(backup, _tree(backup)):", OUT,
           "the old output's directory is emptied, not only its listed files"),
    # --- views: a hidden quantity in an honest field -------------------------------------------
    Mutant("werewolf_last_mark_leak", "sim/werewolf/views.py",
           "readonly_nb(row_nb(st.know, me)),\n                st.hati_last[me], np.uint64(st.pal_last[me]), readonly_nb(row_nb(st.knobs",
           "readonly_nb(row_nb(st.know, me)),\n                (np.int64(np.log2(float(protected & (~protected + U1)))) if protected "
           "else st.hati_last[me]), np.uint64(st.pal_last[me]), readonly_nb(row_nb(st.knobs",
           WW_PROBES, "a participant's view.last_mark holds a protected participant"),
    Mutant("werewolf_last_protect_leak", "sim/werewolf/views.py",
           "st.hati_last[me], np.uint64(st.pal_last[me]), readonly_nb(row_nb(st.knobs, (st.masks[0] >> np.uint64(me)) & U1)),\n"
           "                row_nb(st.mem, me), why)",
           "st.hati_last[me], np.uint64(st.pal_last[me]) | protected, readonly_nb(row_nb(st.knobs, (st.masks[0] >> "
           "np.uint64(me)) & U1)),\n                row_nb(st.mem, me), why)",
           WW_PROBES, "view.last_protect shows tonight's protection"),
    Mutant("looper_loop_end_leak", "sim/looper/views.py",
           "return PlayerView(rules, loop, day, alive, readonly_nb(ann), readonly_nb(moves), readonly_nb(loop_end),",
           "return PlayerView(rules, loop, day, alive, readonly_nb(ann), readonly_nb(moves), readonly_nb(loop_end + key),",
           LOOPER_PROBES, "the player's view.loop_end holds the key person"),
    Mutant("looper_alive_hides_key", "sim/looper/game_nb.py",
           "nm = p_name(sel_p, prng, p_view(rules, lp, days, alive, ann,",
           "nm = p_name(sel_p, prng, p_view(rules, lp, days, alive & ~(np.uint64(1) << np.uint64(kp)), ann,",
           LOOPER_PROBES, "the naming player's view.alive leaves out the key person (a leak by omission)"),
    Mutant("looper_later_loop_leak", "sim/looper/game_nb.py",
           "loop_end[lp] = days + 1  # survived, named wrongly (P-9)",
           "loop_end[lp] = days + 1; moves[lp, days - 1, 0, 0] = kp",
           LOOPER_PROBES, "after a wrong name the player's view.moves holds the key person (later loops only)"),
    Mutant("trpg_controlled_shows_damage", "sim/trpg/views.py",
           "readonly_nb(_col_nb(hid, P_CTRL, bs, B.CTRL))", "readonly_nb(_col_nb(hid, P_CTRL, bs, B.TAKEN))",
           TRPG_PROBES, "view.controlled holds the damage each character has taken"),
    # --- strategies: Werewolf ----------------------------------------------------------------
    Mutant("trusting_hunt_inverted", "strategies/werewolf/trusting.py",
           "if seers and knob_nb(view, KW_HUNT, 1.0) != 0.0:", "if seers and knob_nb(view, KW_HUNT, 1.0) == 0.0:",
           WW_TRUSTING, "the trusting wolves' hunt knob inverted"),
    Mutant("trusting_follow_inverted", "strategies/werewolf/trusting.py",
           "chance_nb(rng, knob_nb(view, KV_FOLLOW, 1.0))", "chance_nb(rng, 1.0 - knob_nb(view, KV_FOLLOW, 1.0))",
           WW_TRUSTING, "follow means the opposite"),
    Mutant("trusting_frame_most_reported", "strategies/werewolf/trusting.py", "if view.claim_res[c, t] == 0:",
           "if view.claim_res[c, t] == 1:", WW_TRUSTING, "hati frames the most reported, not the most cleared"),
    Mutant("trusting_vote_own_claimer", "strategies/werewolf/trusting.py", "seers = _claimers_nb(view) & ~team",
           "seers = _claimers_nb(view)", WW_TRUSTING, "wolves vote their own fake seer"),
    Mutant("trusting_guard_inverted", "strategies/werewolf/trusting.py",
           "if knob_nb(view, KV_GUARD, 1.0) != 0.0 else", "if knob_nb(view, KV_GUARD, 1.0) == 0.0 else",
           WW_TRUSTING, "guard_claimers inverted"),
    Mutant("claims_attack_ignores_trust", "strategies/werewolf/claims.py",
           "    c = _most_trusted_nb(m, claimers, trust)\n    if c < 0:\n        c = choose_bit_nb(rng, m)",
           "    c = -1\n    if c < 0:\n        c = choose_bit_nb(rng, m)", WW_CLAIMS,
           "claims wolves attack at random, not the trusted claimer"),
    Mutant("claims_paladin_ignores_trust", "strategies/werewolf/claims.py",
           "first = _most_trusted_nb(avail, claimers, trust)", "first = -1", WW_CLAIMS,
           "the claims paladin does not guard the trusted claimer"),
    Mutant("claims_witch_threshold", "strategies/werewolf/claims.py",
           "if s >= knob_nb(view, KV_WITCH_KILL, 1.5):", "if s >= knob_nb(view, KV_WITCH_KILL, 1.5) - 1.0:",
           WW_CLAIMS, "the witch eliminates a point below her threshold"),
    # --- strategies against their naive twins (the differential tests) ---------------------------
    Mutant("deducer_forgets_lived_diff", "strategies/looper/player.py", "            cand &= final\n",
           "            cand = cand\n", ("tests/test_looper_diff.py::test_games_match_naive[base-deducer-adversarial-120]",),
           "deducer_forgets_lived, against the naive deducer of tests/naive/looper_strategies.py"),
    Mutant("random_writer_draws_at_aim_0", "strategies/looper/scriptwriter.py",
           "if aim > 0.0 and uniform_nb(rng) < aim:", "if aim >= 0.0 and uniform_nb(rng) < aim:", LOOPER_DIFF,
           "the random scriptwriter draws for its aim at 0 (documented: no draw), so its choices change"),
    Mutant("random_paladin_repeats_pair", "strategies/werewolf/basic.py",
           "if m != last or k < 2:  # the rule forbids", "if True:  # the rule forbids", WW_DIFF,
           "the random paladin may protect last night's pair again (Q-1; the engine's own check refuses it)"),
    Mutant("random_witch_never_passes", "strategies/werewolf/basic.py",
           "k = randint_nb(rng, 1 + popcount_nb(alive) + popcount_nb(dead))",
           "k = 1 + randint_nb(rng, popcount_nb(alive) + popcount_nb(dead))", WW_DIFF,
           "the random witch never passes (every choice legal, the draw not uniform)"),
    # --- the Looper's protecting move against its naive twin (tests/naive/looper_protect.py) ---
    Mutant("protect_protagonist_not_first", "strategies/looper/common.py", "if protagonist_first and (todo & U1):",
           "if False and (todo & U1):", PROTECT_DIFF,
           "the protagonist is drawn with the others (survives every game comparison)"),
    Mutant("protect_belief_off_by_one", "strategies/looper/common.py",
           "            elif mine < 0:\n                mem[MEM_POS + c] = l + 1",
           "            elif mine < 0:\n                mem[MEM_POS + c] = l", PROTECT_DIFF,
           "a character's believed place one place back (its slot's +1 forgotten)"),
    Mutant("protect_min_gain_inverted", "strategies/looper/common.py", "best = popcount_nb(risk) - (min_gain - 1)",
           "best = popcount_nb(risk) + (min_gain - 1)", PROTECT_DIFF, "min_gain lets worse moves in instead of keeping them out"),
    Mutant("protect_keeps_no_gain", "strategies/looper/common.py", "if popcount_nb(r2) < best:",
           "if popcount_nb(r2) <= best:", PROTECT_DIFF, "a move that saves nobody is made (and the last of equals kept)"),
    Mutant("protect_count_choices_ignored", "strategies/looper/common.py", "    if choices:\n", "    if True:\n",
           PROTECT_DIFF, "count_choices false still counts the candidates of a choice"),
    Mutant("protect_max_moves_ignored", "strategies/looper/common.py", "cap = min(mpd, max_moves)", "cap = mpd",
           PROTECT_DIFF, "max_moves ignored"),
    Mutant("protect_pinned_movable", "strategies/looper/common.py",
           "movers &= ~moved & ~np.uint64(mem[MEM_PINNED])", "movers &= ~moved", PROTECT_DIFF,
           "a character the scriptwriter holds (R-6) is tried as a mover"),
    Mutant("protect_turf_king_unmodelled", "strategies/looper/common.py", "if R.next_loc[ma] == l and cur == ma:",
           "if False:", PROTECT_DIFF, "Turf King's shift of a death's place not undone"),
    Mutant("protect_guest_movable", "strategies/looper/common.py",
           "            movers &= ~(U1 << np.uint64(mem[MEM_GUEST + 2 * gk] - 1))  # today's guest",
           "            pass  # today's guest", PROTECT_DIFF, "today's believed guest is tried as a mover"),
    Mutant("protect_tried_not_reset", "strategies/looper/common.py", "tried = np.uint64(0)  # the layout changed",
           "pass  # the layout changed", PROTECT_DIFF, "after a move the characters already tried are not tried again"),
    Mutant("protect_guest_belief_at_home", "strategies/looper/common.py",
           "if gk >= 0 and l != R.home[c] and mine < 0:", "if gk >= 0 and mine < 0:", PROTECT_DIFF,
           "a death at home on a guest day is believed to be the guest move"),
    Mutant("protect_pinned_ignores_turf_shift", "strategies/looper/common.py",
           "elif mine != l and R.next_loc[mine] != l:", "elif mine != l:", PROTECT_DIFF,
           "a death one place after the player's move (Turf King) taken as an overridden move"),
    Mutant("deducer_protects_protagonist_only", "strategies/looper/player.py",
           "return protect_knobs_nb(rng, view, own, U1 | (cand & view.alive), out)",
           "return protect_knobs_nb(rng, view, own, U1, out)",
           ("tests/test_looper_diff.py::test_games_match_naive[expansion-deducer-random-60]",),
           "the deducer protects the protagonist alone, not its candidates"),
    # the skilled Werewolf families against tests/naive/werewolf_trusting.py and werewolf_claims.py
    Mutant("trusting_hunt_inverted_diff", "strategies/werewolf/trusting.py",
           "if seers and knob_nb(view, KW_HUNT, 1.0) != 0.0:", "if seers and knob_nb(view, KW_HUNT, 1.0) == 0.0:",
           WW_DIFF_TR, "trusting_hunt_inverted, against the naive trusting wolves"),
    Mutant("trusting_frame_ties_highest", "strategies/werewolf/trusting.py", "            if score > best_score:",
           "            if score >= best_score:", WW_DIFF_TR, "hati's frame breaks ties to the highest seat"),
    Mutant("trusting_follows_dead_claimers", "strategies/werewolf/trusting.py",
           "if view.claim_role[c] == CLAIM_SEER and (view.alive >> np.uint64(c)) & U1:",
           "if view.claim_role[c] == CLAIM_SEER:", WW_DIFF_TR, "reports of claimers who are out still steer the vote"),
    Mutant("claims_vote_least_suspected", "strategies/werewolf/claims.py",
           "    t, _ = _village_extreme_nb(rng, view, trust, claimers, m if m else cands, agree)",
           "    t, _ = _extreme_nb(rng, view, trust, claimers, m if m else cands, True, -1.0, knob_nb(view, KV_REPORT, "
           "1.0),\n                       knob_nb(view, KV_FAKE, 1.0), agree)", WW_DIFF_CL,
           "the claims village votes the least suspected"),
    Mutant("claims_fake_seer_reports_wolf", "strategies/werewolf/claims.py",
           "return CLAIM_SEER * CLAIM_BASE + t * 2 + 0",
           "return CLAIM_SEER * CLAIM_BASE + t * 2 + 1", ww_diff(
               "test_knobs_match_naive[claims_b]"), "the fake seer 'clearing' a wolf reports it as a wolf"),
    Mutant("claims_medium_blind_ignored", "strategies/werewolf/claims.py", "        if medium_blind_nb(view):",
           "        if False:", ww_diff("test_variants_match_naive[accomplice_village-claims-claims]"),
           "a medium's 'village' confirms a claimer even when the accomplice reads village to him"),
    Mutant("claims_liars_kept", "strategies/werewolf/claims.py",
           "    if confirmed >= s:\n        k = m\n        while k:\n            c = lowest_nb(k)\n"
           "            k &= k - U1\n            if trust[c] < 1.0:\n                trust[c] = 0.0",
           "    if confirmed >= s:\n        k = m\n        while k:\n            c = lowest_nb(k)\n"
           "            k &= k - U1\n            if trust[c] < 1.0:\n                trust[c] = trust[c]",
           WW_DIFF_CL, "once every holder is confirmed the other claimers keep their trust"),
    Mutant("claims_seer_sees_fenrir", "strategies/werewolf/claims.py", "    return 1.0 - h / w if w > 0 else 1.0",
           "    return 1.0", WW_DIFF_CL, "a seer's 'village' clears fully although fenrir reads village"),
    Mutant("claims_village_report_unscaled", "strategies/werewolf/claims.py",
           "                x -= w_rep * trust[c] * seen_nb(view)", "                x -= w_rep * trust[c]", WW_DIFF_CL,
           "a seer claimer's 'village' clears without the share of the team she can see"),
    Mutant("claims_medium_never_waits", "strategies/werewolf/claims.py",
           "if knob_nb(view, KV_MEDIUM_WAIT, 1.0) != 0.0 and", "if knob_nb(view, KV_MEDIUM_WAIT, 1.0) == 0.0 and",
           ww_diff("test_knobs_match_naive[claims_a]"), "medium_wait inverted: the medium claims at once (no change "
           "at the default table's default knobs, where the accomplice always contests the seer)"),
    Mutant("claims_contradiction_unweighted", "strategies/werewolf/claims.py", "trust[c] *= 1.0 - w_med * tm",
           "trust[c] *= 1.0 - tm", ww_diff("test_knobs_match_naive[claims_a]"), "the medium knob ignored"),
    Mutant("claims_paladin_guards_lowest", "strategies/werewolf/claims.py", "            h = highest_nb(fresh)",
           "            h = lowest_nb(fresh)", WW_DIFF_CL, "with nobody to guard the paladin guards the lowest seats"),
    Mutant("claims_fake_medium_truthful", "strategies/werewolf/claims.py", "(0 if _has(team, t) else 1)",
           "(1 if _has(team, t) else 0)", ww_diff("test_knobs_match_naive[claims_d]"),
           "the fake medium tells the truth"),
    Mutant("claims_divine_ignores_claimers", "strategies/werewolf/claims.py",
           "    t = choose_bit_nb(rng, m if m else unread)", "    t = choose_bit_nb(rng, unread)", WW_DIFF_CL,
           "the seer divines at random, not the unread claimers first"),
    Mutant("claims_attack_confirms_nothing", "strategies/werewolf/claims.py",
           "        if view.out_how[c] == How.ATTACKED:\n            trust[c] = 1.0",
           "        if view.out_how[c] == How.ATTACKED:\n            trust[c] = trust[c]", WW_DIFF_CL,
           "a claimer the wolves attacked is not confirmed"),
    Mutant("claims_fake_without_paladin", "strategies/werewolf/claims.py", "        if not guarded:",
           "        if False:", ww_diff("test_knobs_match_naive[claims_no_paladin]"),
           "a wolf fake-claims at a table without a paladin"),
    # --- strategies: Looper ------------------------------------------------------------------
    Mutant("deducer_forgets_lived", "strategies/looper/player.py", "            cand &= final\n",
           "            cand = cand\n", LOOPER, "the deducer forgets: the protagonist lived, so the key person died that day"),
    Mutant("deducer_spares_early_deaths", "strategies/looper/player.py", "for d in range(last):  # died without",
           "for d in range(last - 1):  # died without", LOOPER, "a death on the loop's second-to-last day not cleared"),
    Mutant("deducer_keeps_wrong_name", "strategies/looper/player.py",
           "cand &= ~(U1 << np.uint64(view.named[lp]))", "cand &= ~np.uint64(0)", LOOPER,
           "a wrongly named character stays a candidate"),
    Mutant("deducer_today_counts", "strategies/looper/player.py", "for d in range(view.day - 1):",
           "for d in range(view.day - 2):", LOOPER, "yesterday's deaths in the current loop not cleared"),
    Mutant("deducer_names_anyone", "strategies/looper/player.py",
           "cand = _candidates_nb(view, own.mem) & view.alive\n    if cand:",
           "cand = np.uint64(0) & view.alive\n    if cand:", LOOPER, "the deducer names at random"),
    # --- the TRPG exact solver and the profiles ----------------------------------------------
    Mutant("exact_dodge_fumble_free", "sim/trpg/exact.py",
           "_add(out, (dmg, 1 if self.lose_turn and self.fumble_any else 0, arms, False), fu * p)",
           "_add(out, (dmg, 0, arms, False), fu * p)", EXACT, "the exact solver: a fumbled dodge costs no turn"),
    Mutant("exact_fumble_scope_inverted", "sim/trpg/exact.py",
           "self.fumble_any = int(R[RL.FUMBLE_ATTACK_ONLY]) == 0", "self.fumble_any = int(R[RL.FUMBLE_ATTACK_ONLY]) != 0",
           EXACT, "R-15's two readings swapped"),
    Mutant("exact_attack_fumble_free", "sim/trpg/exact.py",
           "_add(out, (0, 1 if self.lose_turn else 0, 0, arms_y, sub_free, False), fu)",
           "_add(out, (0, 0, 0, arms_y, sub_free, False), fu)", EXACT, "a fumbled attack costs no turn"),
    Mutant("focus_default_nearest", "strategies/trpg/profiles.py",
           'target="weakest", reaction="auto", cover=True, movement="close_in"))',
           'target="nearest", reaction="auto", cover=True, movement="close_in"))', PROFILES,
           "the focus profile's default target changed from weakest to nearest"),
    Mutant("ranged_default_weakest", "strategies/trpg/profiles.py",
           'target="dangerous", reaction="auto", cover=True, movement="keep_range"))',
           'target="weakest", reaction="auto", cover=True, movement="keep_range"))', PROFILES,
           "the ranged profile's default target changed"),
    Mutant("nearest_is_farthest", "strategies/trpg/builtin.py", "return -view_distance_nb(view, actor, j)",
           "return view_distance_nb(view, actor, j)", PROFILES, "nearest picks the farthest"),
    Mutant("dangerous_ignores_damage", "strategies/trpg/builtin.py",
           "return p_success216_nb(skill, 0) * _mean2_nb(view, view.weapons[w, WF.DICE])",
           "return p_success216_nb(skill, 0)", PROFILES, "the most dangerous ignores the weapon's damage"),
    Mutant("weakest_is_strongest", "strategies/trpg/builtin.py",
           "return -view.hp[j] if view.hp_public == 1 else -view.hp_band[j]",
           "return view.hp[j] if view.hp_public == 1 else view.hp_band[j]", PROFILES, "weakest picks the strongest"),
    Mutant("bayes_forgets_lived", "strategies/looper/model.py",
           "cand &= D  # the protagonist lived: the key person died that day",
           "cand = cand  # the protagonist lived: the key person died that day", LOOPER,
           "bayes's exact key mask forgets the protagonist-lived inference"),
    Mutant("bayes_keeps_early_deaths", "strategies/looper/model.py", "cand &= ~D  # died and the loop went on",
           "cand = cand  # died and the loop went on", LOOPER, "bayes keeps characters that died mid-loop"),
    Mutant("bayes_keeps_wrong_name", "strategies/looper/model.py", "cand &= ~_bit(view.named[lp])",
           "cand &= ~U0", LOOPER, "bayes keeps a wrongly named character"),
    Mutant("auto_ignores_threshold", "sim/trpg/rules_nb.py", "if can_dodge and pd >= min216:", "if can_dodge:",
           REACT, "auto dodges below its dodge_threshold"),
    Mutant("auto_guard_absorbs_nothing", "sim/trpg/rules_nb.py", "e2 = max(d2 - g2, 0) * 216", "e2 = d2 * 216",
           REACT, "auto counts a weapon guard as worthless"),
    Mutant("dodge_without_sub_action", "strategies/trpg/builtin.py", "return 1 if can_dodge else 2", "return 1",
           REACT, "dodge chosen when it cannot dodge"),
    # --- written after the tests above, without adding tests for them first: a blind check -----
    Mutant("wilson_zero_low_unpinned", "sim/core/stats.py", "lo = 0.0 if successes == 0 else max(0.0, centre - half)",
           "lo = max(0.0, centre - half)", STATS + ("tests/test_core.py",), "0 successes: the low end left to rounding"),
    Mutant("standard_error_n_minus_1", "sim/core/stats.py",
           "return math.sqrt(max(p * (1 - p), 1e-300) / max(n, 1))", "return math.sqrt(max(p * (1 - p), 1e-300) / max(n - 1, 1))",
           STATS + ("tests/test_core.py",), "the binomial standard error over n − 1"),
    Mutant("bradley_terry_uncentred", "sim/core/stats.py", "x = x - x.mean()", "x = x - x[0]",
           STATS + ("tests/test_bradley_terry.py",), "ratings anchored on the first build, not centred"),
    Mutant("python_rng_shares_kernel_paths", "sim/core/seeding.py", "spawn_key=(2**31 - 1, *spawn_key))",
           "spawn_key=tuple(spawn_key))", SEEDS, "Python-side draws share entropy with the kernel stream of the same path"),
    Mutant("out_may_hold_cwd", "sim/core/outdir.py", "if ab == cwd or ab in cwd.parents:", "if ab == cwd:", OUT,
           "--out may be a parent of the working directory"),
    Mutant("old_symlinks_left", "sim/core/outdir.py", "        if f.is_file() or f.is_symlink():",
           "        if f.is_file():", OUT, "a listed symbolic link of the old output is not removed"),
    Mutant("one_block_paired", "sim/sweep/compare.py", "if j is not None and j.height >= 2:",
           "if j is not None and j.height >= 1:", STATS, "a single common block taken as a paired comparison"),
    Mutant("trusting_paladin_repeats_pair", "strategies/werewolf/trusting.py", "    if m == last and popcount_nb(m) >= 2:",
           "    if False:", WW_TRUSTING, "the trusting paladin may repeat last night's pair (Q-1)"),
    Mutant("claims_attack_no_dodge", "strategies/werewolf/claims.py", "        m = cands & ~_bit(last)",
           "        m = cands", WW_CLAIMS, "claims wolves attack last night's guarded survivor again"),
    # --- memory a view can reach (issue 38): guards and separate allocations -------------------
    Mutant("guards_removed", "sim/core/guard.py", "GUARD = 1 << 15", "GUARD = 0", OOB_WW,
           "no zeros around the arrays a view hands out: an off-by-one reads a neighbour"),
    Mutant("werewolf_streams_shared", "sim/werewolf/game_nb.py",
           "rngs = (guarded_nb((4,), np.uint64), guarded_nb((4,), np.uint64), guarded_nb((4,), np.uint64))",
           "_rr = np.zeros((3, 4), np.uint64)\n    rngs = (_rr[0], _rr[1], _rr[2])", OOB_WW,
           "the rules', the village's and the wolves' streams as rows of one array (the old layout)"),
    # --- bayes's particle filter against the exact posterior (tests/naive/looper_posterior.py) ----
    Mutant("bayes_naming_skips_today", "strategies/looper/bayes.py",
           "        Ds[view.loop, 0] = np.uint64(view.day)\n        Ds[view.loop, view.day] = _observed(view, view.loop, view.day)\n",
           "", BAYES_EXACT, "the naming's re-checks skip the day just played (the bug the oracle found)", nojit=True),
    Mutant("bayes_unredrawn_key_lives", "strategies/looper/bayes.py",
           "            h[0] = old\n            big[W + i] = max(big[W + i], 1 << 20)\n", "            h[0] = old\n",
           BAYES_EXACT, "a particle whose ruled-out key cannot be redrawn stays live on a day without news "
           "(the second bug the oracle found)", nojit=True),
    Mutant("bayes_refill_unchecked", "strategies/looper/bayes.py",
           "if ms >= 0 and _recheck_nb(view, tmp, ms, Ds, buf, pos, km):", "if ms >= 0:", BAYES_EXACT,
           "a refill's mutation kept without re-checking the history", nojit=True),
    Mutant("bayes_redraw_any_key", "strategies/looper/bayes.py", "h[0] = choose_bit_nb(rng, km)",
           "h[0] = 1 + randint_nb(rng, R.info[I.N_CHARS] - 1)", BAYES_EXACT,
           "a ruled-out key redrawn among every character, not the exact mask", nojit=True),
    Mutant("bayes_prior_never_unused", "strategies/looper/bayes.py",
           "c = randint_nb(rng, n)  # 0 (the protagonist, never moved): the slot is unused",
           "c = 1 + randint_nb(rng, n - 1)", BAYES_EXACT, "the prior never leaves a move slot unused", nojit=True),
    Mutant("bayes_prior_place_short", "strategies/looper/bayes.py", "l = randint_nb(rng, L)",
           "l = randint_nb(rng, max(L - 1, 1))", BAYES_EXACT, "the prior never draws the last place", nojit=True),
    Mutant("bayes_p16_guests_ignored", "strategies/looper/model.py", "            if h[gbase + 2 * j] == h[0]:",
           "            if False:", BAYES_EXACT, "P-16 not applied to the guest moves of a hypothesis", nojit=True),
    Mutant("bayes_names_uniform", "strategies/looper/bayes.py",
           "if km and _key_shares(view, own, km, shares) > 0.0:", "if False:", BAYES_EXACT,
           "the name drawn uniformly from the exact key mask (what bayes did before the oracle)", nojit=True),
]
