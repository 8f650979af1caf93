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


STATS = ("tests/test_stats_pinned.py",)
SEEDS = ("tests/test_streams_independent.py",)
OUT = ("tests/test_output_race.py", "tests/test_output_safety.py")

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
]
