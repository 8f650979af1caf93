"""A hostile user: every bad input to every command is one ``error:`` line on stderr,
exit code 2, nothing on stdout, and nothing created anywhere under the working directory."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import app

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
ALLEY = ROOT / "sim" / "trpg" / "data" / "scenarios" / "alley.toml"


def _files(tmp: Path) -> dict[str, str]:
    """Bad inputs the cases refer to: {name: contents}; directories end in '/'."""
    alley = ALLEY.read_text()
    return {
        "adir/": "",
        "afile": "data",
        "broken.toml": "[rules\nx = 1",
        "notutf8.toml": "\udcff",
        "roster_typo.toml": "[rules]\nmax_loop = 3\n",
        "roles_typo.toml": "[variants]\nvote_rul = \"plurality\"\n",
        "alley_max_round.toml": alley.replace("[rules]", "[rules]\nmax_round = 5", 1) if "[rules]" in alley
        else alley + "\n[rules]\nmax_round = 5\n",
        "alley_frist.toml": alley.replace("[scenario]", "[scenario]\nfrist = \"kaii\"", 1),
        "alley_potion.toml": alley + "\n[characters.aoi.items]\npotion = 2\n",
        "alley_table.toml": alley + "\n[weather]\nrain = true\n",
        "one_build.toml": "[builds.solo]\nhp = 10\nside = \"a\"\n",
        "sweep_typo.toml": (EX / "sweeps" / "werewolf_seer.toml").read_text() + "\nfrobnicate = 1\n",
        "sweep_nogame.toml": "name = \"x\"\n[[axes]]\npath = \"variants.max_runoffs\"\nvalues = [1, 2]\n",
        "sweep_badpath.toml": "game = \"werewolf\"\nname = \"x\"\ngames = 100\n[[axes]]\npath = \"variants.nope\"\n"
                              "values = [1, 2]\n",
        "sweep_empty_axis.toml": "game = \"werewolf\"\nname = \"x\"\ngames = 100\n[[axes]]\n"
                                 "path = \"variants.max_runoffs\"\nvalues = []\n",
        "sweep_dup_axis.toml": "game = \"werewolf\"\nname = \"x\"\ngames = 100\n[[axes]]\n"
                               "path = \"variants.max_runoffs\"\nvalues = [1, 2, 1]\n",
        "sweep_huge.toml": "game = \"werewolf\"\nname = \"x\"\ngames = 1000000000000\n[[axes]]\n"
                           "path = \"variants.max_runoffs\"\nvalues = [1, 2]\n",
        "balance_typo.toml": (EX / "balance" / "werewolf_fenrir.toml").read_text() + "\ntargte = 0.3\n",
        "balance_notarget.toml": (EX / "balance" / "werewolf_fenrir.toml").read_text().replace("target = 0.25", ""),
        "balance_game.toml": "game = \"chess\"\n[[params]]\npath = \"x\"\nlow = 0\nhigh = 1\n",
        "variants_int.toml": "variants = 3\n",
        "composition_typo.toml": "[composition]\ndefault = \"werewolf*2,villagr*6\"\n",
        "composition_list.toml": "composition = [1, 2]\n",
        "scriptwriter_name.toml": "scriptwriter = \"adversarial\"\n",
        "sweep_seed_2_63.toml": (EX / "sweeps" / "werewolf_seer.toml").read_text().replace("seed = 1", f"seed = {2**63}"),
    }


CASES = [
    # global
    ["nosuchgame"],
    ["werewolf", "run", "--nosuchoption"],
    # counts and numbers
    ["looper", "run", "--games", "0"],
    ["looper", "run", "--games", "-5"],
    ["looper", "run", "--games", "abc"],
    ["looper", "run", "--games", str(10**12)],
    ["werewolf", "run", "--games", str(10**15)],
    ["werewolf", "run", "--games", str(10**20)],
    ["werewolf", "run", "--threads", "0"],
    ["werewolf", "run", "--chunk-size", "0"],
    ["werewolf", "run", "--seed", "abc"],
    ["trpg", "run", str(ALLEY), "--games", "1.5"],
    # strategies
    ["looper", "run", "--player", "psychic"],
    ["looper", "run", "--scriptwriter", "kind"],
    ["looper", "run", "--player", "no_such_module_xyz:fn"],
    ["werewolf", "run", "--village", "nosuch"],
    ["werewolf", "loo", "--wolves", "tests.plugins:nothing_here"],
    # files: directories, missing, malformed, unknown keys
    ["looper", "run", "--config", "adir"],
    ["looper", "run", "--config", "missing.toml"],
    ["looper", "run", "--config", "broken.toml"],
    ["looper", "run", "--config", "roster_typo.toml"],
    ["werewolf", "run", "--config", "roles_typo.toml"],
    ["werewolf", "run", "--config", "notutf8.toml"],
    ["trpg", "run", "adir"],
    ["trpg", "run", "no_such_scenario"],
    ["trpg", "run", "alley_max_round.toml"],
    ["trpg", "run", "alley_frist.toml"],
    ["trpg", "run", "alley_potion.toml"],
    ["trpg", "run", "alley_table.toml"],
    ["trpg", "matrix", "one_build.toml"],
    ["trpg", "matrix", "adir"],
    # --set and options
    ["looper", "run", "--set", "nokey=3"],
    ["looper", "run", "--set", "noequals"],
    ["looper", "run", "--protagonist-location", "moon"],
    ["looper", "run", "--key-person", "nobody"],
    ["werewolf", "run", "--set", "variants.vote_rule=bogus"],
    ["trpg", "run", str(ALLEY), "--set", "characters.nobody.hp=3"],
    ["trpg", "run", str(ALLEY), "--set", "characters.aoi.hp=abc"],
    ["trpg", "run", str(ALLEY), "--set", "rules.max_round=5"],
    # targets and values
    ["werewolf", "run", "--games", "100", "--target", "45:55"],
    ["werewolf", "loo", "--games", "100", "--target", "0.6:0.4"],
    ["werewolf", "values", "--games", "100", "--target", "x"],
    ["werewolf", "values", "--games", "100", "--only", "fenrri"],
    ["werewolf", "values", "--games", "100", "--tiers", "village=random,claims", "--tiers", "wolves=random,claims,trusting"],
    ["trpg", "values", str(ALLEY), "--games", "100", "--only", "aoi.weapon.bazooka"],
    ["race", "values", "--games", "100", "--tiers", "p3=bold"],
    # compositions
    ["werewolf", "run", "--roles", "werewolf,villager*100000000000"],
    ["werewolf", "run", "--roles", "dragon,villager*3"],
    ["werewolf", "run", "--roles", ""],
    ["werewolf", "run", "--roles", "werewolf*-1,villager"],
    ["werewolf", "loo", "--roles", "werewolf,,villager"],
    # exact refuses what it does not model
    ["werewolf", "exact", "--set", "roles.villager.ability=protect"],
    ["werewolf", "exact", "--set", "village.follow=1"],
    ["werewolf", "exact", "--roles", "werewolf,fenrir_typo,villager*3"],
    # outputs
    ["werewolf", "run", "--games", "100", "--out", "."],
    ["werewolf", "run", "--games", "100", "--out", ".."],
    ["werewolf", "run", "--games", "100", "--out", "afile"],
    ["werewolf", "run", "--games", "100", "--out", "afile/sub"],
    ["looper", "loo", "--games", "100", "--out", "/proc/sim-balance-x"],
    ["trpg", "loo", str(ALLEY), "--games", "100", "--out", "afile"],
    # sweeps
    ["sweep", "adir"],
    ["sweep", "missing.toml"],
    ["sweep", "broken.toml"],
    ["sweep", "sweep_typo.toml", "--out", "sw"],
    ["sweep", "sweep_nogame.toml", "--out", "sw"],
    ["sweep", "sweep_badpath.toml", "--out", "sw"],
    ["sweep", "sweep_empty_axis.toml", "--out", "sw"],
    ["sweep", "sweep_dup_axis.toml", "--out", "sw"],
    ["sweep", "sweep_dup_axis.toml", "--dry-run"],
    ["sweep", "sweep_huge.toml", "--out", "sw"],
    ["sweep", str(EX / "sweeps" / "werewolf_seer.toml"), "--games", str(10**12), "--out", "sw"],
    ["sweep", str(EX / "sweeps" / "werewolf_seer.toml"), "--dask", "tcp://nonsense", "--out", "sw"],
    ["sweep", str(EX / "sweeps" / "werewolf_seer.toml"), "--dask", "local:0", "--out", "sw"],
    ["sweep", str(EX / "sweeps" / "werewolf_seer.toml"), "--out", "afile"],
    ["sweep", str(EX / "sweeps" / "werewolf_seer.toml"), "--out", "."],
    # reports, comparisons, balance
    ["report", "missing"],
    ["report", "adir"],
    ["report", "afile"],
    ["compare", "missing", "adir"],
    ["balance", "adir"],
    ["balance", "balance_typo.toml", "--out", "bal"],
    ["balance", "balance_game.toml", "--out", "bal"],
    ["balance", "balance_notarget.toml", "--out", "bal"],
    ["balance", str(EX / "balance" / "werewolf_fenrir.toml"), "--out", "afile"],
    ["balance", str(EX / "balance" / "werewolf_fenrir.toml"), "--tolerance", "x"],
    # numbers past the kernels' int64 (an OverflowError, not a user's error, before)
    ["werewolf", "run", "--set", f"roles.fenrir.drag={10**25}"],
    ["looper", "run", "--set", f"rules.max_loops={2**63}"],
    ["trpg", "run", str(ALLEY), "--set", f"characters.aoi.hp={10**30}"],
    ["werewolf", "run", "--games", "100", "--seed", str(2**63)],
    ["werewolf", "run", "--games", "100", "--seed", str(10**45)],
    ["sweep", "sweep_seed_2_63.toml", "--out", "sw"],
    # plug-in specs importlib rejects with ValueError / TypeError
    ["looper", "run", "--player", ":fn"],
    ["werewolf", "run", "--village", "..relative:fn"],
    # a value where a table belongs
    ["werewolf", "run", "--config", "variants_int.toml"],
    ["werewolf", "run", "--config", "composition_list.toml"],
    ["looper", "run", "--config", "scriptwriter_name.toml"],
    # the meta-game commands: no blank progress line before the error
    ["tune", "werewolf", "--side", "village", "--budget", "0"],
    ["tune", "werewolf", "--side", "village", "--final-games", "-1"],
    ["ladder", "werewolf", "--games", "100", "--seed", str(2**63), "--tiers", "village=random", "--tiers", "wolves=random"],
    ["equilibrium", "werewolf", "--games", "100", "--seed", str(2**63), "--tiers", "village=random",
     "--tiers", "wolves=random"],
    # an empty strategy (it played random before), a side's tiers twice, a tier twice
    ["werewolf", "run", "--games", "100", "--village", ""],
    ["looper", "run", "--games", "100", "--player", " "],
    ["ladder", "werewolf", "--games", "100", "--tiers", "village=random", "--tiers", "village=claims"],
    ["ladder", "werewolf", "--games", "100", "--tiers", "village=random,claims,random"],
    ["looper", "run", "--games", "100", "--set", "laid_off_man.treshold=4"],
    ["looper", "trace", "--game", str(10**23)],
    ["werewolf", "run", "--config", "composition_typo.toml"],
    ["sweep", "examples/sweeps/werewolf_fenrir.toml", "--out", "sw"],  # the repository's path, from elsewhere
    ["report", "."],  # not a dataset: said before the default --out report's overlap with it
    # outside combat
    ["trpg", "check", "--target", "abc"],
    ["trpg", "growth", "--skills", "1,2,x", "--rolls", "4"],
]


# What the message must say, for the cases whose reason matters most.
EXPECT = {
    "looper run --games 1000000000000": "at most",
    "werewolf run --games 100000000000000000000": "at most",
    "looper run --config adir": "is a directory",
    "trpg run adir": "is a directory",
    "sweep adir": "is a directory",
    "balance adir": "is a directory",
    "looper run --config roster_typo.toml": "did you mean 'rules.max_loops'",
    "trpg run alley_max_round.toml": "did you mean 'rules.max_rounds'",
    "trpg run alley_frist.toml": "scenario.frist",
    "trpg run alley_potion.toml": "characters.aoi.items.potion",
    "trpg run alley_table.toml": "'weather'",
    "werewolf run --roles werewolf,villager*100000000000": "at most 63",
    "werewolf exact --set roles.villager.ability=protect": "does not model",
    "werewolf exact --set village.follow=1": "does not model",
    "werewolf run --games 100 --out .": "working directory",
    "werewolf run --games 100 --out afile": "not a directory",
    "looper loo --games 100 --out /proc/sim-balance-x": "cannot write",
    "werewolf run --games 100 --seed 9223372036854775808": "at most 2^63-1",
    "werewolf run --config variants_int.toml": "variants: expected a table",
    "looper run --config scriptwriter_name.toml": "scriptwriter",
    "tune werewolf --side village --final-games -1": "--final-games",
    "werewolf run --games 100 --village ": "expected STRATEGY",
    "ladder werewolf --games 100 --tiers village=random --tiers village=claims": "given already",
    "ladder werewolf --games 100 --tiers village=random,claims,random": "listed twice",
    "looper run --games 100 --set laid_off_man.treshold=4": "did you mean 'laid_off_man.threshold'",
    "report .": "not a dataset",
    "sweep examples/sweeps/werewolf_fenrir.toml --out sw": "give werewolf_fenrir instead of the path",
    "werewolf run --config composition_typo.toml": "composition 'werewolf*2,villagr*6': unknown role 'villagr' (did you mean 'villager'?)",
    "looper trace --game 100000000000000000000000": "--game must be",
    "compare missing adir": "no such directory",
}


def _tree(d: Path) -> list[str]:
    return sorted(str(p.relative_to(d)) for p in d.rglob("*"))


@pytest.fixture
def hostile_dir(tmp_path, monkeypatch):
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    for name, text in _files(cwd).items():
        if name.endswith("/"):
            (cwd / name).mkdir()
        elif text == "\udcff":
            (cwd / name).write_bytes(b"\xff\xfe[rules]\n")
        else:
            (cwd / name).write_text(text)
    monkeypatch.chdir(cwd)
    return cwd


def test_enough_cases():
    assert len(CASES) >= 40
    assert len({tuple(c) for c in CASES}) == len(CASES)


@pytest.mark.parametrize("args", CASES, ids=[" ".join(c)[:60] for c in CASES])
def test_bad_input_is_one_error_line(args, hostile_dir):
    before = _tree(hostile_dir.parent)
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2, (args, r.exit_code, r.stdout, r.stderr, r.exception)
    assert r.stdout == "", (args, r.stdout)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), (args, r.stderr)
    assert "Traceback" not in r.stderr
    assert EXPECT.get(" ".join(args), "") in lines[0], (args, lines[0])
    assert _tree(hostile_dir.parent) == before, args
    assert os.getcwd() == str(hostile_dir)
