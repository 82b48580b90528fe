#!/usr/bin/env python3
"""Coordinate search over the Grid Tactics class figures (docs/rules/tactics.md, "Balance").

For each candidate it patches crates/games/src/tactics/units.rs in the tree it is run from, rebuilds the
tactics_tune example (into that tree's target/), and plays the six pairings of the mixed armies wwhhaa,
wwwwha, whaaaa and whhhha in both seat orders: N1 games per order at depth 1 and N2 at depth 2 (environment,
defaults 200 and 100; 0 skips a depth, to screen candidates quickly at depth 1). It logs every candidate's
twelve scores to tune.log (one JSON line each) and keeps a change when it lowers the worst distance from
50% plus 0.3 times the rms distance. units.rs is restored when it stops. It edits the source, so run it in
a separate worktree:

    git worktree add /tmp/tune HEAD && cd /tmp/tune && python3 scripts/tactics-balance.py ['{"Whp": 22}']
    python3 scripts/tactics-balance.py measure '[{"Whp": 22}, {"heal": 5, "Hhp": 22}]'

The optional argument is the starting candidate's changes from the shipped figures (BASE below); WORKERS
(default 2) games run at once. To resume a search without playing again what tune.log already holds, set
FBEST to the starting candidate's known fitness, ORDER to the figures to try (comma-separated, in order),
and SKIP to a JSON list of candidates (changes from BASE) already measured. With `measure`, it only plays the
listed candidates, one after another. With ALL=1, the armies are every 6-unit army that fields every class
(ten armies, 45 pairs), and the objective is the largest share that a Bradley-Terry fit of the armies' ratings
predicts (plus 0.3 times the fit's rms distance from 50%), since a few games a pair make each pair's own share
too noisy to judge by:

    ALL=1 N1=0 N2=60 python3 scripts/tactics-balance.py measure '[{}, {"Hhp": 22}]'

The keys are the classes' health, moves and attack (`Whp`, `Amv`, `Hatk`, ...), the abilities' figures
(`cleave`, `shoot`, `range`, `heal`), Cleave's reach `crange`, and `still`: 1 for the aimed shot (an archer
shoots only from where it starts), 0 to measure the game without it.

Health and damage are in the game's small steps (a warrior has 24 health), so one step is a fine change.
Health moves by 2: while the damages are even, one step of health alone changes little.
"""
import json, math, os, re, subprocess, sys, itertools
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNITS = os.path.join(ROOT, "crates/games/src/tactics/units.rs")
ENV = dict(os.environ, CARGO_TARGET_DIR=os.path.join(ROOT, "target"))
EXE = os.path.join(ROOT, "target/release/examples/tactics_tune")


def all_armies():
    """The 6-unit armies with every class, warriors first, then healers, then archers (as the default)."""
    return [
        "w" * w + "h" * h + "a" * (6 - w - h)
        for w in range(1, 5)
        for h in range(1, 6 - w)
    ]


ALL = os.environ.get("ALL") == "1"
ARMIES = all_armies() if ALL else ["wwhhaa", "wwwwha", "whaaaa", "whhhha"]
PAIRS = list(itertools.combinations(ARMIES, 2))
N1 = int(os.environ.get("N1", 200))
N2 = int(os.environ.get("N2", 100))
WORKERS = int(os.environ.get("WORKERS", 2))
ORIG = open(UNITS).read()

KEYS = ["Whp", "Wmv", "Watk", "cleave", "crange", "still", "Ahp", "Amv", "Aatk", "shoot", "range", "Hhp", "Hmv", "Hatk", "heal"]
BASE = dict(Whp=24, Wmv=3, Watk=4, cleave=4, crange=1, still=1, Ahp=14, Amv=4, Aatk=4, shoot=8, range=4, Hhp=20, Hmv=3, Hatk=6, heal=5)


def patch(c):
    t = ORIG
    t = re.sub(r"CLEAVE_DAMAGE: i32 = \d+", f"CLEAVE_DAMAGE: i32 = {c['cleave']}", t)
    t = re.sub(r"CLEAVE_RANGE: u32 = \d+", f"CLEAVE_RANGE: u32 = {c['crange']}", t)
    t = re.sub(r"SHOOT_STILL: bool = \w+", f"SHOOT_STILL: bool = {'true' if c['still'] else 'false'}", t)
    t = re.sub(r"SHOOT_DAMAGE: i32 = \d+", f"SHOOT_DAMAGE: i32 = {c['shoot']}", t)
    t = re.sub(r"SHOOT_RANGE: u32 = \d+", f"SHOOT_RANGE: u32 = {c['range']}", t)
    t = re.sub(r"HEAL_AMOUNT: i32 = \d+", f"HEAL_AMOUNT: i32 = {c['heal']}", t)
    for cls, p in [("Warrior", "W"), ("Archer", "A"), ("Healer", "H")]:
        t = re.sub(
            r"(Class::%s => Stats \{\s*health: )\d+(,\s*moves: )\d+(,\s*attack: )\d+" % cls,
            lambda m: f"{m.group(1)}{c[p + 'hp']}{m.group(2)}{c[p + 'mv']}{m.group(3)}{c[p + 'atk']}",
            t,
        )
    open(UNITS, "w").write(t)
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "gridplay-engine", "--example", "tactics_tune"],
        cwd=ROOT, env=ENV, check=True,
    )


def run(spec, n, depth):
    out = subprocess.run([EXE, spec, str(n), str(depth), "80,20,24"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"first wins, second wins (\d+) (\d+) draws (\d+)", out)
    return tuple(int(x) for x in m.groups())


def share(first, second, n):
    """Army A's share in percent: A moved first in `first` and second in `second`, n games each."""
    f1, _, d1 = first
    _, s2, d2 = second
    return round(100 * (f1 + s2 + 0.5 * (d1 + d2)) / (2 * n), 1)


def bradley_terry(scores, armies):
    """Each army's rating (logit) fitted to the pairs' shares, every pair weighted alike, with one drawn game
    per pair as a prior so that a clean sweep stays finite. Returns the ratings, centred on 0."""
    p = {a: 1.0 for a in armies}
    for _ in range(500):
        new = {}
        for a in armies:
            won, denom = 0.0, 0.0
            for (x, y), v in scores.items():
                if a not in (x, y):
                    continue
                s = (v if a == x else 100 - v) / 100
                o = y if a == x else x
                won += s + 0.01
                denom += 1.02 / (p[a] + p[o])
            new[a] = won / denom
        g = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        p = {a: v / g for a, v in new.items()}
    return {a: math.log(v) for a, v in p.items()}


def predicted(r, a, b):
    return 100 / (1 + math.exp(r[b] - r[a]))


def measure(c):
    patch(c)
    jobs = []
    for depth, n in [(1, N1), (2, N2)]:
        if n == 0:
            continue
        for a, b in PAIRS:
            jobs.append((depth, a, b, f"tactics:army={a},army2={b}", n))
            jobs.append((depth, a, b, f"tactics:army={b},army2={a}", n))
    with ThreadPoolExecutor(WORKERS) as ex:
        res = list(ex.map(lambda j: run(j[3], j[4], j[0]), jobs))
    scores = {}
    by_depth = {}
    for i in range(0, len(jobs), 2):
        depth, a, b, _, n = jobs[i]
        scores[f"{depth}:{a}-{b}"] = share(res[i], res[i + 1], n)
        by_depth.setdefault(depth, {})[(a, b)] = scores[f"{depth}:{a}-{b}"]
    worst = max(abs(v - 50) for v in scores.values())
    rms = (sum((v - 50) ** 2 for v in scores.values()) / len(scores)) ** 0.5
    rec = dict(cand=c, scores=scores, worst=worst, rms=round(rms, 2), n1=N1, n2=N2)
    if ALL:
        # Ten armies at a few games a pair: each pair's share is noisy, so the objective is the spread of the
        # armies' fitted ratings (the largest share the fit predicts) and the fit's rms, over the depths played.
        rec["ratings"], fitted = {}, []
        for depth, sc in by_depth.items():
            r = bradley_terry(sc, ARMIES)
            rec["ratings"][depth] = {a: round(v, 3) for a, v in sorted(r.items(), key=lambda kv: -kv[1])}
            fitted += [predicted(r, a, b) for a, b in sc]
        worst = max(abs(v - 50) for v in fitted)
        rms = (sum((v - 50) ** 2 for v in fitted) / len(fitted)) ** 0.5
        rec.update(fit_worst=round(worst, 1), fit_rms=round(rms, 2))
    with open(os.path.join(ROOT, "tune.log"), "a") as f:
        f.write(json.dumps(rec) + "\n")
    print(json.dumps(rec), flush=True)
    return worst + 0.3 * rms


# Health moves by two: with the damages even, an odd health changes little.
STEPS = {k: [-2, 2] if k.endswith("hp") else [-1, 1] for k in KEYS}
ORDER = os.environ.get("ORDER", "heal,Hhp,shoot,Ahp,Hatk,Aatk,Amv,Hmv,Whp,Watk,cleave").split(",")
SKIP = [dict(BASE, **d) for d in json.loads(os.environ.get("SKIP", "[]"))]
FIXED = {"range", "Wmv", "crange", "still"}


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "measure":
        try:
            for d in json.loads(sys.argv[2]):
                measure(dict(BASE, **d))
        finally:
            open(UNITS, "w").write(ORIG)
        return
    best = dict(BASE)
    if len(sys.argv) > 1:
        best.update(json.loads(sys.argv[1]))
    try:
        fbest = float(os.environ["FBEST"]) if "FBEST" in os.environ else measure(best)
        improved = True
        while improved:
            improved = False
            for k in ORDER:
                if k in FIXED:
                    continue
                for d in STEPS[k]:
                    c = dict(best)
                    c[k] += d
                    if c[k] < 1 or c in SKIP:
                        continue
                    f = measure(c)
                    if f < fbest:
                        best, fbest, improved = c, f, True
                        print("BEST", fbest, json.dumps(best), flush=True)
                        break
    finally:
        open(UNITS, "w").write(ORIG)


if __name__ == "__main__":
    main()
