#!/usr/bin/env python3
"""Coordinate search over the Grid Tactics class figures (docs/tactics-balance.md).

For each candidate it patches crates/games/src/tactics/units.rs in the tree it is run from, rebuilds the
tactics_tune example (into that tree's target/), and plays the six pairings of the mixed armies wwhhaa,
wwwwha, whaaaa and whhhha in both seat orders: N1 games per order at depth 1 and N2 at depth 2 (environment,
defaults 200 and 100; 0 skips a depth, to screen candidates quickly at depth 1). It logs every candidate's
twelve scores to tune.log (one JSON line each; each run's wins by seat go to runs.log as it ends) and keeps a change when it lowers the worst distance from
50% plus 0.3 times the rms distance. units.rs is restored when it stops. It edits the source, so run it in
a separate worktree:

    git worktree add /tmp/tune HEAD && cd /tmp/tune && python3 scripts/tactics-balance.py ['{"Whp": 22}']
    python3 scripts/tactics-balance.py measure '[{"Whp": 22}, {"heal": 5, "Hhp": 22}]'
    python3 scripts/tactics-balance.py refit tune.log
    python3 scripts/tactics-balance.py noise 120 1000 [ARMY,ARMY,...]

The optional argument is the starting candidate's changes from the shipped figures (BASE below); WORKERS
(default 2) games run at once. To resume a search without playing again what tune.log already holds, set
FBEST to the starting candidate's known fitness, ORDER to the figures to try (comma-separated, in order),
and SKIP to a JSON list of candidates (changes from BASE) already measured. With `measure`, it only plays the
listed candidates, one after another; `refit` fits the records of a tune.log again; `noise GAMES SIMS` shows what the fit reports
when every pair is even. With ALL=1, the armies are every 6-unit army that fields every class
(ten armies, 45 pairs), and the objective is the largest share that a fit predicts (plus 0.3 times the fit's
rms distance from 50%), since a few games a pair make each pair's own share too noisy to judge by. The fit
(`fit`) gives each army a rating and adds one rock-paper-scissors term over the class counts (`cycle`), the one
kind of result that ratings alone cannot express; it logs the cycle coefficient with its standard error and
the deviance, which is near the degrees of freedom when the model explains the shares up to noise:

    ALL=1 N1=0 N2=60 python3 scripts/tactics-balance.py measure '[{}, {"Hhp": 22}]'

PAIRS (comma-separated `a-b`) plays only the pairs named, without a fit: a quick screen of the pairs that lie
farthest from even. A change can push other pairs out, so a screen does not replace a full run
(docs/lab/2026-11-26-tactics-balance-notebook.md). SEED (passed on to tactics_tune) chooses the openings; candidates screened with one SEED
play the same openings, which makes their differences less noisy than their own shares:

    PAIRS=whaaaa-whhhaa,wwhhaa-wwhhha N1=0 N2=50 SEED=3000 python3 scripts/tactics-balance.py measure '[{}]'

The keys are the classes' health, moves and attack (`Whp`, `Amv`, `Hatk`, ...), the abilities' figures
(`cleave`, `shoot`, `range`, `heal`), Cleave's reach `crange`, and `still`: 1 for the aimed shot (an archer
shoots only from where it starts), 0 to measure the game without it.

SIZE plays the games on an N x N board (default 16), for armies larger than six; with PAIRS:

    PAIRS=wwwhhhaaa-wwwwhaaaa SIZE=24 N1=0 N2=40 python3 scripts/tactics-balance.py measure '[{}]'

D1 and D2 (defaults 1 and 2) are the searches of the two slots that N1 and N2 count: a depth N; `NtT`,
which scores every move to depth N and draws one by softmax with temperature T; or `NrP`, which plays a
random legal move P percent of the time and its best move at depth N otherwise, as the weak levels do
(tactics_tune's DEPTH). To measure the balance of a level such as depth 2 with 30% random moves:

    D1=2r30 N1=50 N2=0 python3 scripts/tactics-balance.py measure '[{}]'

WEIGHTS (default 80,20,24) are the engine's evaluation weights (docs/engines.md). Figures scaled by a
common factor k play nearly the same game if the approach weight is scaled too (WEIGHTS=80,20,48 for doubled
figures; only the approach's rounding differs): the evaluation counts health in hundredths and its unit bonus
follows warrior health (docs/lab/2026-11-26-tactics-balance-notebook.md).

`blows NEW [OLD]` plays nothing: it lists, for each class, the mixes of hits that fell it under one set of
figures and not under the other (OLD defaults to the shipped figures; both are changes from BASE), which is
what a change of one figure does to the game before any game is played (docs/lab/2026-11-26-tactics-balance-notebook.md):

    python3 scripts/tactics-balance.py blows '{"shoot": 9}'

Health and damage are in the game's small steps (a warrior has 25 health), so one step is a fine change.
Health moves by 2: while every damage is even, a sum of damages reaches an odd health exactly when it reaches
the next even one, so one step of health changes only the healing cap and the health count at the turn limit.
"""
import json, math, os, re, subprocess, sys, itertools, threading
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


def named_pairs(text):
    """The pairs of PAIRS (`a-b,c-d`), or an error that says which entry is not two armies."""
    pairs = []
    for entry in text.split(","):
        p = tuple(entry.split("-"))
        if len(p) != 2 or not all(x and set(x) <= set("wah") for x in p):
            sys.exit(f"PAIRS: {entry!r} is not two armies of w, a and h joined by '-' (such as whaaaa-whhhaa)")
        pairs.append(p)
    return pairs


PAIRS = named_pairs(os.environ["PAIRS"]) if os.environ.get("PAIRS") else list(itertools.combinations(ARMIES, 2))
N1 = int(os.environ.get("N1", 200))
N2 = int(os.environ.get("N2", 100))
WORKERS = int(os.environ.get("WORKERS", 2))
WEIGHTS = os.environ.get("WEIGHTS", "80,20,24")


def search_token(name, default):
    """D1 or D2: a depth `N`, `NtT` (depth N, softmax temperature T) or `NrP` (depth N, P percent of moves at
    random), or an error that names the setting."""
    text = os.environ.get(name, default)
    if not re.fullmatch(r"[1-9]\d?(t\d+)?(r\d+)?", text):
        sys.exit(f"{name}: {text!r} is not a depth N, NtT (depth N at softmax temperature T) or NrP (depth N, P percent of moves at random), such as 2, 2t200 or 2r30")
    return text


D1, D2 = search_token("D1", "1"), search_token("D2", "2")
if D1 == D2 and N1 and N2:
    sys.exit(f"D1 and D2 are both {D1}: give the second slot another search, or set N2=0")
# SIZE plays on an N x N board instead of the default 16x16 (for armies larger than six).
BOARD = os.environ.get("SIZE", "16")
if not BOARD.isdigit() or not 16 <= int(BOARD) <= 32:
    sys.exit(f"SIZE: {BOARD!r} is not a board size from 16 to 32")
SIZE = f"size={BOARD},"
ORIG = open(UNITS).read()

KEYS = ["Whp", "Wmv", "Watk", "cleave", "crange", "still", "Ahp", "Amv", "Aatk", "shoot", "range", "Hhp", "Hmv", "Hatk", "heal"]
BASE = dict(Whp=25, Wmv=3, Watk=4, cleave=4, crange=1, still=1, Ahp=15, Amv=4, Aatk=4, shoot=8, range=4, Hhp=20, Hmv=3, Hatk=6, heal=5)


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
    out = subprocess.run([EXE, spec, str(n), str(depth), WEIGHTS], capture_output=True, text=True, check=True).stdout
    m = re.search(r"first wins, second wins (\d+) (\d+) draws (\d+)", out)
    return tuple(int(x) for x in m.groups())


def share(first, second, n):
    """Army A's share in percent: A moved first in `first` and second in `second`, n games each."""
    f1, _, d1 = first
    _, s2, d2 = second
    return round(100 * (f1 + s2 + 0.5 * (d1 + d2)) / (2 * n), 1)


def counts(army):
    return army.count("w"), army.count("h"), army.count("a")


def cycle(a, b):
    """The rock-paper-scissors term of army a against army b over the class counts (warriors over healers,
    healers over archers, archers over warriors when its coefficient is positive). With the army size fixed,
    it is the one part of a pair's result that no rating of each army can express."""
    (w1, h1, a1), (w2, h2, a2) = counts(a), counts(b)
    return (w1 * h2 - h1 * w2) + (h1 * a2 - a1 * h2) + (a1 * w2 - w1 * a2)


def solve(m, v):
    """Solve m x = v by Gaussian elimination with partial pivoting (m small and symmetric definite)."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c:
                f = a[r][c] / a[c][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [a[i][n] / a[i][i] for i in range(n)]


def fit(scores, armies, games, by_counts=False):
    """A logistic model of the pairs' shares: a rating for each army (Bradley-Terry) plus one cycle coefficient
    times `cycle(a, b)`, fitted by maximum likelihood with `games` games a pair (Newton's method, a small ridge
    so that a clean sweep stays finite). Returns the ratings (the first army's is 0), the cycle coefficient
    with its standard error, the predicted shares in percent and the deviance (about the degrees of freedom,
    pairs minus parameters, if the model explains the shares up to noise).

    With `by_counts`, an army's rating is not free but a weight per warrior and per healer (an archer is the
    baseline, for armies of one size): three parameters in all, which a few games a pair can estimate where
    a rating per army cannot. Its deviance has pairs minus three degrees of freedom."""
    pairs = list(scores)
    # len(armies) - 1 ratings, or two class weights, and the cycle coefficient
    k = 3 if by_counts else len(armies)

    def z(a, b):
        v = [0.0] * k
        if by_counts:
            (w1, h1, _), (w2, h2, _) = counts(a), counts(b)
            v[0], v[1] = w1 - w2, h1 - h2
        else:
            for sign, x in ((1, a), (-1, b)):
                i = armies.index(x)
                if i > 0:
                    v[i - 1] += sign
        v[-1] = cycle(a, b)
        return v

    rows = [(z(a, b), scores[(a, b)] / 100) for a, b in pairs]
    beta = [0.0] * k

    def prob(v):
        return 1 / (1 + math.exp(-sum(x * y for x, y in zip(v, beta))))

    def information():
        h = [[(1e-3 if i == j else 0.0) for j in range(k)] for i in range(k)]
        for v, _ in rows:
            p = prob(v)
            for i in range(k):
                for j in range(k):
                    h[i][j] += games * p * (1 - p) * v[i] * v[j]
        return h

    for _ in range(100):
        g = [-1e-3 * b for b in beta]
        for v, y in rows:
            p = prob(v)
            for i in range(k):
                g[i] += games * (y - p) * v[i]
        step = solve(information(), g)
        beta = [b + s for b, s in zip(beta, step)]
        if max(abs(s) for s in step) < 1e-10:
            break
    se = math.sqrt(solve(information(), [0.0] * (k - 1) + [1.0])[-1])
    pred, dev = {}, 0.0
    for (a, b), (v, y) in zip(pairs, rows):
        p = prob(v)
        pred[(a, b)] = 100 * p
        for o, q in ((y, p), (1 - y, 1 - p)):
            if o > 0:
                dev += 2 * games * o * math.log(o / q)
    if by_counts:
        w0, h0, _ = counts(armies[0])
        ratings = {a: beta[0] * (counts(a)[0] - w0) + beta[1] * (counts(a)[1] - h0) for a in armies}
    else:
        ratings = {a: (beta[i - 1] if i > 0 else 0.0) for i, a in enumerate(armies)}
    return ratings, beta[-1], se, pred, dev


def measure(c):
    patch(c)
    jobs = []
    for depth, n in [(D1, N1), (D2, N2)]:
        if n == 0:
            continue
        for a, b in PAIRS:
            jobs.append((depth, a, b, f"tactics:{SIZE}army={a},army2={b}", n))
            jobs.append((depth, a, b, f"tactics:{SIZE}army={b},army2={a}", n))
    lock = threading.Lock()

    def play(job):
        # Each run is logged to runs.log as it ends, so that a measurement cut short keeps what it played.
        depth, _, _, spec, n = job
        result = run(spec, n, depth)
        with lock, open(os.path.join(ROOT, "runs.log"), "a") as f:
            line = dict(spec=spec, depth=depth, games=n, seed=os.environ.get("SEED", "0"), cand=c,
                        first=result[0], second=result[1], draws=result[2])
            f.write(json.dumps(line) + "\n")
        return result

    with ThreadPoolExecutor(WORKERS) as ex:
        res = list(ex.map(play, jobs))
    scores = {}
    by_depth = {}
    for i in range(0, len(jobs), 2):
        depth, a, b, _, n = jobs[i]
        scores[f"{depth}:{a}-{b}"] = share(res[i], res[i + 1], n)
        by_depth.setdefault(depth, {})[(a, b)] = scores[f"{depth}:{a}-{b}"]
    worst = max(abs(v - 50) for v in scores.values())
    rms = (sum((v - 50) ** 2 for v in scores.values()) / len(scores)) ** 0.5
    rec = dict(
        cand=c, scores=scores, worst=worst, rms=round(rms, 2), n1=N1, n2=N2, seed=os.environ.get("SEED", "0"),
        size=int(BOARD), d1=D1, d2=D2, raw={j[3] + f" depth {j[0]}": r for j, r in zip(jobs, res)},
    )
    if ALL and not os.environ.get("PAIRS"):
        # Ten armies at a few games a pair: each pair's share is noisy, so the objective is the largest share
        # that a fit of the armies' ratings and one cycle term predicts, and the fit's rms, over the depths played.
        rec["ratings"], rec["cycle"], rec["deviance"], fitted = {}, {}, {}, []
        for depth, sc in by_depth.items():
            r, cyc, se, pred, dev = fit(sc, ARMIES, 2 * (N1 if depth == D1 else N2))
            rec["ratings"][depth] = {a: round(v, 3) for a, v in sorted(r.items(), key=lambda kv: -kv[1])}
            rec["cycle"][depth] = [round(cyc, 4), round(se, 4)]
            rec["deviance"][depth] = [round(dev, 1), len(sc) - len(ARMIES)]
            fitted += list(pred.values())
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


HITS = [("warrior blow", "Watk"), ("Cleave", "cleave"), ("archer blow", "Aatk"), ("Shoot", "shoot"), ("healer blow", "Hatk")]
TARGETS = [("warrior", "Whp"), ("archer", "Ahp"), ("healer", "Hhp")]


def load(text):
    """The JSON value of a command-line argument, or an error that says where it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        sys.exit(f"{text!r} is not JSON: {e}")


def changes(d):
    """A candidate's changes from BASE (a JSON object of figures), checked: an error names what is wrong."""
    if not isinstance(d, dict):
        sys.exit(f"{json.dumps(d)} is not a JSON object of figures such as {{\"shoot\": 9}}")
    for k, v in d.items():
        if k not in KEYS:
            sys.exit(f"unknown figure {k!r} in {json.dumps(d)}; the figures are {', '.join(KEYS)}")
        if isinstance(v, bool) or not isinstance(v, int) or v < 0 or (v == 0 and k != "still") or (k == "still" and v > 1):
            sys.exit(f"figure {k!r} must be a positive whole number (still: 0 or 1), not {json.dumps(v)}")
    return d


def blows(old, new, most=8):
    """The counts of blows that fell each class, compared between two candidates (full figures): for each
    target, the mixes of up to `most` hits (without healing) that fell it under one candidate and not under the
    other, each listed only if it is minimal (without any one of its hits, it no longer fells the target under
    the figures where it does). Hits whose damage is the same as each other's in both
    candidates are one kind, so a mix is named once. Figures of different scales compare by kind, so the
    shipped figures can be set against doubled ones."""
    kinds = {}
    for name, key in HITS:
        kinds.setdefault((old[key], new[key]), []).append(name)
    kinds = [("/".join(names), d) for d, names in kinds.items()]
    lines = []
    for target, key in TARGETS:
        hp = (old[key], new[key])
        lines.append(f"{target} (health {hp[0]} -> {hp[1]}):")
        for name, (d0, d1) in kinds:
            lines.append(f"  {name}: {-(-hp[0] // d0)} -> {-(-hp[1] // d1)} hits")
        for label, side in (("fells only under the old figures", 0), ("fells only under the new figures", 1)):
            found = []
            for n in range(1, most + 1):
                for mix in itertools.combinations_with_replacement(range(len(kinds)), n):
                    total = [sum(kinds[i][1][s] for i in mix) for s in (0, 1)]
                    fells = [total[s] >= hp[s] for s in (0, 1)]
                    if not (fells[side] and not fells[1 - side]):
                        continue
                    shorter = [mix[:j] + mix[j + 1:] for j in range(n)]
                    if any(sum(kinds[i][1][side] for i in m) >= hp[side] for m in shorter):
                        continue
                    parts = " + ".join(kinds[i][0] for i in mix)
                    found.append(f"    {parts} ({total[0]} -> {total[1]})")
            if found:
                lines.append(f"  {label}:")
                lines += found
    return "\n".join(lines)


def refit(path):
    """Fit again every record of a tune.log that holds a whole round robin at one depth (every pair of its
    armies, such as the 45 of the armies of six or the 55 of the armies of twelve), and print its ratings,
    cycle, deviance and the pairs the fit puts farthest from 50%."""
    for line in open(path):
        rec = json.loads(line)
        # Records from before D1 and D2 were logged used depths 1 and 2.
        for depth, n in ((str(rec.get("d1", 1)), rec["n1"]), (str(rec.get("d2", 2)), rec["n2"])):
            sc = {}
            for key, v in rec["scores"].items():
                d, pair = key.split(":")
                if d == depth:
                    sc[tuple(pair.split("-"))] = v
            armies = sorted({x for p in sc for x in p})
            if len(armies) < 3 or len(sc) != len(armies) * (len(armies) - 1) // 2:
                continue
            changes = {k: v for k, v in rec["cand"].items() if BASE.get(k) != v}
            print(json.dumps(changes), f"depth {depth}, {2 * n} games a pair,",
                  f"largest measured {50 + max(abs(v - 50) for v in sc.values()):.1f}")
            # Each army's share of its points over all its pairs: no model, so no fit can smooth a corner away.
            field = {a: sum(v if a == x else 100 - v for (x, y), v in sc.items() if a in (x, y)) / (len(armies) - 1)
                     for a in armies}
            print("    against the field:", ", ".join(f"{a} {v:.1f}" for a, v in sorted(field.items(), key=lambda kv: -kv[1])))
            # The class-count model needs armies of one size (an archer is what is left).
            one_size = len({len(a) for a in armies}) == 1
            for by_counts in (False, True) if one_size else (False,):
                r, cyc, se, pred, dev = fit(sc, armies, 2 * n, by_counts)
                params = 3 if by_counts else len(armies)
                print(f"  {'by class counts' if by_counts else 'a rating per army'}: cycle {cyc:.4f} +- {se:.4f},",
                      f"deviance {dev:.1f} on {len(sc) - params} df,",
                      f"largest fitted {50 + max(abs(v - 50) for v in pred.values()):.1f}")
                print("    ratings:", ", ".join(f"{a} {v:+.2f}" for a, v in sorted(r.items(), key=lambda kv: -kv[1])))
                for (a, b), v in sorted(pred.items(), key=lambda kv: -abs(kv[1] - 50))[:4]:
                    print(f"    {a}-{b}: fitted {v:.1f}, measured {sc[(a, b)]:.1f}")


def noise(games, sims, armies=None):
    """What the fit reports when every pair is an even coin: the median and 90th percentile of the largest
    fitted share, and the 90th percentile of the cycle coefficient's size, over `sims` simulated runs of
    `games` games a pair (a fixed random seed, so the figures repeat), for a round robin of `armies` (default:
    the ten armies of six)."""
    import random

    rng = random.Random(1)
    armies = armies or all_armies()
    pairs = list(itertools.combinations(armies, 2))
    one_size = len({len(a) for a in armies}) == 1
    runs = [[rng.random() < 0.5 for _ in range(games * len(pairs))] for _ in range(sims)]
    for by_counts in (False, True) if one_size else (False,):
        worst, cycles = [], []
        for wins in runs:
            sc = {p: 100 * sum(wins[i * games:(i + 1) * games]) / games for i, p in enumerate(pairs)}
            _, cyc, _, pred, _ = fit(sc, armies, games, by_counts)
            worst.append(50 + max(abs(v - 50) for v in pred.values()))
            cycles.append(abs(cyc))
        worst.sort()
        cycles.sort()
        print(f"{'by class counts' if by_counts else 'a rating per army'}: {games} games a pair, {sims} runs:",
              f"largest fitted share median {worst[sims // 2]:.1f}, 90% {worst[int(0.9 * sims)]:.1f};",
              f"|cycle| 90% {cycles[int(0.9 * sims)]:.4f}")


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "blows":
        old = dict(BASE, **changes(load(sys.argv[3]))) if len(sys.argv) > 3 else dict(BASE)
        new = dict(BASE, **changes(load(sys.argv[2])))
        print(blows(old, new))
        return
    if len(sys.argv) > 3 and sys.argv[1] == "noise":
        armies = sys.argv[4].split(",") if len(sys.argv) > 4 else None
        if armies and (len(armies) < 3 or any(not a or set(a) - set("wah") for a in armies)):
            sys.exit(f"noise: {sys.argv[4]!r} is not three or more armies of w, a and h joined by ',' (such as wwhhaa,whhaaa,wwhaaa)")
        noise(int(sys.argv[2]), int(sys.argv[3]), armies)
        return
    if len(sys.argv) > 2 and sys.argv[1] == "refit":
        refit(sys.argv[2])
        return
    if len(sys.argv) > 2 and sys.argv[1] == "measure":
        listed = load(sys.argv[2])
        if not isinstance(listed, list):
            sys.exit(f"measure takes a JSON list of candidates such as '[{{}}, {{\"shoot\": 9}}]', not {sys.argv[2]!r}")
        candidates = [dict(BASE, **changes(d)) for d in listed]
        try:
            for c in candidates:
                measure(c)
        finally:
            open(UNITS, "w").write(ORIG)
        return
    best = dict(BASE)
    if len(sys.argv) > 1:
        best.update(changes(load(sys.argv[1])))
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
