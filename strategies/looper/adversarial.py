"""Setup search for the adversarial scriptwriter (Python side, once per run).

Proposals favour traps: the key person and up to two more characters are moved
permanently into one location (a scriptwriter-moved character cannot be moved by the
player, R-6), guest moves often join them. Each proposal is scored by the player win
rate of short games against the given players (the registry passes the random and the
cautious ones); the best ``keep`` (knob, 8) form the pool that ``pool_setup_nb`` draws from, so the
player cannot learn one fixed setup (``keep = 1``: it plays its best, the strongest scriptwriter
against a player that does not learn between games).

Random proposals miss rare locks: the verge-of-madness woman made key person and moved to
the ruins wins every game with one move, but a random proposal hits it about once in 120,
so a 64-proposal search against the planner usually missed it. So every search also
weighs the one-move **locks** — the key person moved to each place, or any other character
moved to the key person's table place (:func:`locks`, within the rule variants) — screened
on the fast random and cautious players, the best ``2 × keep`` of them scored with the
random proposals.

Issue 41: half the proposals are **structured** as a person writes them
(:func:`_propose_structured`: movers converging on the key person's place, guests joining
there, day 7's most often, Turf King sent there or just before it), and every script of
the library ``examples/looper/scripts`` (and of the folders ``search.scripts``,
``--scripts DIR``) allowed by the run's rules is scored too (:func:`library_rows`).
"""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Sequence

import numpy as np

from sim.looper.enums import I
from sim.core.knobs import knob_vector
from sim.looper.game_nb import C_WINS, new_counts, setup_size, strategy_kernel
from strategies.looper import scriptwriter as _w

PROPOSALS = 384
TRIALS = 48
KEEP = 8
REFINE = 4             # the short list is scored again on REFINE × trials games (search_setups)
DEFAULT_AGAINST = "random+cautious"  # today's scoring: the random and the cautious players
# players that play far fewer games a second (planner ~150/s, bayes ~200/s): a smaller
# search by default, (proposals, trials) per player (about 10 s of search on one core)
SLOW = {"bayes": (128, 16), "planner": (64, 12), "oracle_planner": (64, 12)}
REMEASURE = 2000       # games per kept setup when the exploit list is re-measured
REMEASURE_SLOW = 300


def _propose(roster, rng: np.random.Generator, m: int) -> np.ndarray:
    R = roster.nb
    n, L = int(R.info[I.N_CHARS]), int(R.info[I.N_LOC])
    nperm, nguest = int(R.info[I.N_PERM]), int(R.info[I.N_GUEST])
    stay, key_movable = bool(R.info[I.STAY_MOVES]), bool(R.info[I.KEY_MOVABLE])
    out = np.zeros((m, 1 + 2 * nperm + 2 * nguest), np.int64)
    for r in range(m):
        key = int(rng.integers(1, n))
        trap = int(rng.integers(0, L))
        chars = [key] + [int(c) for c in rng.permutation(np.arange(1, n)) if c != key]
        out[r, 0] = key
        if not key_movable:  # P-16: the moves keep off the key person (the pinned one, if pinned)
            real = roster.fixed_key or key
            chars = [c for c in chars if c != real]
        for j in range(nperm):
            out[r, 1 + 2 * j] = chars[j]
            same = j == 0 or rng.random() < 0.6
            out[r, 2 + 2 * j] = trap if same else int(rng.integers(0, L))
            if not stay and out[r, 2 + 2 * j] == R.home[chars[j]]:  # P-15: it must change place
                out[r, 2 + 2 * j] = (R.home[chars[j]] + 1 + int(rng.integers(0, L - 1))) % L
        g = 1 + 2 * nperm
        for j in range(nguest):
            out[r, g + 2 * j] = int(rng.integers(1, n))
            out[r, g + 2 * j + 1] = trap if rng.random() < 0.6 else int(rng.integers(0, L))
            if not key_movable and out[r, g + 2 * j] == (roster.fixed_key or key):
                out[r, g + 2 * j] = chars[nperm % len(chars)]  # another character (not the key person)
    return out


LIBRARY = Path(__file__).resolve().parents[2] / "examples" / "looper" / "scripts"


def _valid_row(roster, row) -> bool:
    """Whether setup ``row`` is one the run's rules allow (distinct permanent characters,
    P-15, P-16 with the run's key person)."""
    R = roster.nb
    nperm, nguest = int(R.info[I.N_PERM]), int(R.info[I.N_GUEST])
    key = roster.fixed_key or int(row[0])
    perm = [int(row[1 + 2 * j]) for j in range(nperm) if row[1 + 2 * j] >= 0]
    if len(set(perm)) != len(perm):
        return False
    for j in range(nperm):
        c = int(row[1 + 2 * j])
        if c >= 0 and not R.info[I.STAY_MOVES] and row[2 + 2 * j] == R.home[c]:
            return False
    moved = perm + [int(row[1 + 2 * nperm + 2 * j]) for j in range(nguest)]
    return bool(R.info[I.KEY_MOVABLE]) or key not in moved


def library_rows(roster, folders: Sequence = ()) -> np.ndarray:
    """The setup rows of the `fixed` scripts (``*.toml`` with a ``[setup]``) in the shipped
    library (:data:`LIBRARY`) and in ``folders`` (``search.scripts``, ``--scripts DIR``),
    compiled against the run's rules; a script those rules forbid (P-15, P-16, fewer
    moves) is left out. They seed the search (issue 41), so its exploit list reaches at
    least the strongest script a person wrote."""
    import tomllib

    from sim.errors import SimInputError
    from sim.looper.roster import compile_setup

    width = setup_size(roster.nb)
    rows = []
    for folder in [LIBRARY, *folders]:
        for f in sorted(Path(folder).glob("*.toml")):
            setup = tomllib.loads(f.read_text()).get("setup")
            if not isinstance(setup, dict) or not setup.get("key_person"):
                continue
            try:
                row = compile_setup({**roster.config, "setup": setup}).script
            except SimInputError:
                continue
            if row is not None and len(row) == width and _valid_row(roster, row):
                rows.append(np.asarray(row, np.int64))
    return np.array(rows, np.int64).reshape(-1, width)


def _propose_structured(roster, rng: np.random.Generator, m: int) -> np.ndarray:
    """Setups a person writes (issue 41): the key person stays at a place (its table place
    when the rules keep it there, P-16) and the permanent movers converge on it; some
    guest moves (often day 7's) bring one more there; Turf King is often sent to that place
    or the one before it (his shift hides where deaths happen), by a permanent or a guest
    move."""
    R = roster.nb
    n, L = int(R.info[I.N_CHARS]), int(R.info[I.N_LOC])
    nperm, nguest = int(R.info[I.N_PERM]), int(R.info[I.N_GUEST])
    home = np.asarray(R.home)
    nxt = np.asarray(R.next_loc)
    tk = roster.ids.index("turf_king") if "turf_king" in roster.ids else -1
    out = np.zeros((0, 1 + 2 * nperm + 2 * nguest), np.int64)
    rows = []
    tries = 0
    while len(rows) < m and tries < 20 * m:
        tries += 1
        key = roster.fixed_key or int(rng.integers(1, n))
        p = int(home[key])
        if R.info[I.KEY_MOVABLE] and rng.random() < 0.3:
            p = int(rng.integers(0, L))
        prev = int(np.flatnonzero(nxt == p)[0]) if (nxt == p).any() else p
        others = [int(c) for c in rng.permutation(np.arange(1, n)) if c != key and home[c] != p]
        row = np.full(1 + 2 * nperm + 2 * nguest, -1, np.int64)
        row[0] = key
        row[2::2] = 0
        used = set()
        j = 0
        if tk > 0 and tk != key and rng.random() < 0.4 and nperm:  # Turf King hides the place
            row[1], row[2] = tk, p if home[tk] != p else prev
            used.add(tk)
            j = 1
        for c in others:
            if j >= nperm or rng.random() < 0.15:
                break
            if c in used:
                continue
            row[1 + 2 * j], row[2 + 2 * j] = c, p
            used.add(c)
            j += 1
        g = 1 + 2 * nperm
        for k in range(nguest):
            if rng.random() < (0.8 if k == nguest - 1 else 0.5):  # the last guest day (7) most often
                c = tk if (tk > 0 and tk != key and rng.random() < 0.15) else others[(k + 3) % len(others)]
                row[g + 2 * k], row[g + 2 * k + 1] = c, p
        if key == roster.fixed_key or not roster.fixed_key:
            if _valid_row(roster, row):
                rows.append(row)
    return np.array(rows, np.int64).reshape(-1, out.shape[1]) if rows else out


def locks(roster) -> np.ndarray:
    """Every one-move lock: key person c with c moved to place l, or with another character
    x moved to c's table place (unused slots −1). Under ``rules.key_person_movable = false``
    only the second kind, under ``rules.stay_moves = false`` no move to its own place; a
    pinned key person (P-13) is the only key."""
    R = roster.nb
    n, L = int(R.info[I.N_CHARS]), int(R.info[I.N_LOC])
    nperm, width = int(R.info[I.N_PERM]), setup_size(R)
    stay, key_movable = bool(R.info[I.STAY_MOVES]), bool(R.info[I.KEY_MOVABLE])
    home = np.asarray(R.home)
    rows = []
    for c in ([roster.fixed_key] if roster.fixed_key else range(1, n)):
        moves = [(c, l) for l in range(L)] if key_movable else []
        moves += [(x, int(home[c])) for x in range(1, n) if x != c]
        for x, l in moves:
            if nperm == 0 or (not stay and l == home[x]):
                continue
            row = np.zeros(width, np.int64)
            row[0] = c
            row[1::2] = -1  # every move slot unused …
            row[1], row[2] = x, l  # … but the first permanent one
            rows.append(row)
    return np.array(rows, np.int64).reshape(-1, width)


def player_knobs(roster, p) -> np.ndarray:
    """The knob values the search plays ``p`` with: the configuration's ``[player]`` values
    when every one of them is a knob of ``p`` — they belong to the player the run plays, so a
    search against it (``--player bayes@samples=4 --against bayes``, or the ladder tier
    ``bayes@samples=4`` facing ``adversarial@against=each``) scores that very player — else
    ``p``'s defaults."""
    from sim.core.knobs import knobs_of

    table = dict((roster.config or {}).get("player") or {})
    mine = table and set(table) <= {k.name for k in knobs_of(p)}
    return knob_vector(p, p.name, table if mine else None, "player")


def score_setups(roster, setups: np.ndarray, key: np.ndarray, trials: int, players: Sequence) -> np.ndarray:
    """Player wins against each setup row (``trials`` games per player, adversarial choices;
    each player's knobs by :func:`player_knobs`)."""
    R = roster.nb
    wins = np.zeros(len(setups), np.int64)
    # the adversarial scriptwriter's setup and choices: a shipped player plays them in the
    # kernel it plays every shipped scriptwriter in (compiled once); an oracle sees the judge's state
    writer = SimpleNamespace(setup=_w.pool_setup_nb, choose=_w.adversarial_choose_nb)
    kernels = [(strategy_kernel(p, writer), player_knobs(roster, p)) for p in players]
    no_knobs = np.zeros(1, np.float64)
    for r in range(len(setups)):
        params = np.ascontiguousarray(setups[r: r + 1])
        for kernel, pk in kernels:
            out = new_counts(R)
            kernel(key, 0, trials, R, params, False, roster.fixed_key, pk, no_knobs, out, None)
            wins[r] += out.scalars[C_WINS]
    return wins


def search_setups(roster, rng: np.random.Generator, players: Sequence, proposals: int = PROPOSALS,
                  trials: int = TRIALS, keep: int = KEEP, with_scores: bool = False,
                  screen: Sequence = ()) -> np.ndarray:
    """The ``keep`` proposals the ``players`` (PlayerStrategy objects) win least against
    (``with_scores``: two more columns, the players' wins in the search and its games;
    ``pool_setup_nb`` reads only the setup columns). ``screen``: fast players the one-move
    locks are screened on (none: no locks)."""
    half = proposals // 2
    wide = max(keep, KEEP)  # the short lists: keeping fewer (keep = 1: the best only) searches as wide
    folders = list(((roster.config or {}).get("search") or {}).get("scripts") or [])
    lib = library_rows(roster, folders)
    cand = np.concatenate([_propose(roster, rng, proposals - half), _propose_structured(roster, rng, half), lib])
    lib_idx = np.arange(len(cand) - len(lib), len(cand))
    key = rng.integers(0, 2**63, size=4, dtype=np.uint64)
    lk = locks(roster) if screen else np.zeros((0, cand.shape[1]), np.int64)
    if len(lk):  # screened on the fast players; the best 2 × keep join the proposals
        lw = score_setups(roster, lk, key, TRIALS, screen)
        top = np.lexsort((np.arange(len(lk)), lw))[:2 * wide]
        cand = np.concatenate([cand, lk[top]])
    wins = score_setups(roster, cand, key, trials, players)
    order = np.lexsort((np.arange(len(cand)), wins))
    # A few trials a proposal pick noisy winners: against the planner (12 trials) a script it
    # wins 92% of often scores 12 of 12, as sure wins do. So the best 2 × keep and every
    # script of the library are scored again on REFINE × trials fresh games, and the kept
    # setups are the best of that: the pool holds at least the strongest script of the library.
    short = np.unique(np.concatenate([order[:2 * wide], lib_idx])).astype(np.int64)
    key2 = rng.integers(0, 2**63, size=4, dtype=np.uint64)
    w2 = score_setups(roster, cand[short], key2, REFINE * trials, players)
    top = np.lexsort((short, w2))[:keep]
    best = cand[short[top]]
    if not with_scores:
        return best
    games = np.full(len(best), REFINE * trials * len(players), np.int64)
    return np.column_stack([best, w2[top], games])


def search_plan(against: str, proposals: int, trials: int) -> tuple[int, int]:
    """Proposals and trials (0 = the default for that player, smaller for slow ones)."""
    dp, dt = SLOW.get(against, (PROPOSALS, TRIALS))
    return proposals or dp, trials or dt


def exploits_table(roster, rows: np.ndarray, against: str, players: Sequence, key: np.ndarray,
                   games: int | None = None):
    """The exploit list: each kept setup row (with its search scores) by names, the player's
    search win rate and the rate re-measured on ``games`` games with that setup pinned."""
    import polars as pl

    from sim.core.stats import wilson
    from sim.looper.enums import I

    R = roster.nb
    nperm, nguest = int(R.info[I.N_PERM]), int(R.info[I.N_GUEST])
    g0 = 1 + 2 * nperm
    width = g0 + 2 * nguest
    gd = np.asarray(R.guest_day)
    guest_days = {int(gd[d]): d for d in range(len(gd)) if gd[d] >= 0}  # guest move index → its day
    if games is None:
        games = REMEASURE_SLOW if against in SLOW else REMEASURE
    setups = np.ascontiguousarray(rows[:, :width])
    re = score_setups(roster, setups, key, games, players)
    out = []
    for r, row in enumerate(rows):
        perm = "; ".join(f"{roster.ids[row[1 + 2 * j]]} → {roster.loc_ids[row[2 + 2 * j]]}" for j in range(nperm)
                         if row[1 + 2 * j] >= 0)  # −1: a slot left unused (a lock)
        guest = "; ".join(f"day {guest_days.get(j, j + 1)}: {roster.ids[row[g0 + 2 * j]]}"
                          f" → {roster.loc_ids[row[g0 + 2 * j + 1]]}" for j in range(nguest) if row[g0 + 2 * j] >= 0)
        sw, sg = int(row[width]), int(row[width + 1])
        n = games * len(players)
        lo, hi = wilson(int(re[r]), n)
        out.append({"rank": r + 1, "against": against, "key_person": roster.ids[row[0]],
                    "permanent_moves": perm, "guest_moves": guest,
                    "search_wins": sw, "search_games": sg, "search_win_rate": sw / max(sg, 1),
                    "wins": int(re[r]), "games": n, "player_win_rate": int(re[r]) / n,
                    "ci_low": lo, "ci_high": hi})
    return pl.DataFrame(out)
