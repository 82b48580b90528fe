"""Depth and nodes at a fixed time a move: gridplay, Cake and GuiNN on the same checkers positions.

Usage: python3 scripts/checkers-depth.py GRIDPLAY CAKECLI GUINNCLI POSITIONS MILLISECONDS

The positions are 4 random plies (seeded, the same every run) then 16 plies of gridplay at depth 8; each
engine searches each position once on core 0, and the depth is what each reports (Cake's nominal depth and
its mean leaf depth; GuiNN's nominal depth). CAKECLI and GUINNCLI are the sparring builds of
../shared/sparring/ (cake/build.sh, guinn/build.sh)."""
import random, subprocess, sys, statistics, re
if len(sys.argv) != 6 or not sys.argv[4].isdigit() or not sys.argv[5].isdigit():
    sys.exit('usage: python3 scripts/checkers-depth.py GRIDPLAY CAKECLI GUINNCLI POSITIONS MILLISECONDS')
GP, CAKE, GUINN = sys.argv[1:4]
N, MS = int(sys.argv[4]), int(sys.argv[5])

class Proc:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
    def ask(self, line, until):
        self.p.stdin.write(line + '\n'); self.p.stdin.flush()
        out = []
        while True:
            l = self.p.stdout.readline()
            if not l: raise RuntimeError('engine ended')
            out.append(l.rstrip('\n'))
            if l.startswith(until): return out

gp = Proc(['taskset', '-c', '0', GP, 'engine'])
gp.ask('game checkers', 'ok')
rng = random.Random(7)
positions = []
while len(positions) < N:
    gp.ask('position start', 'ok')
    ok = True
    for ply in range(20):
        if ply < 4:
            ms = gp.ask('moves', '')[-1].split()[1:]
            if len(ms) < 1: ok = False; break
            m = rng.choice(ms)
        else:
            r = gp.ask('go depth=8', 'bestmove')[-1].split()
            m = r[1]
        gp.ask('play ' + m, 'ok')
        if gp.ask('result', '')[-1] != 'none': ok = False; break
    if ok:
        positions.append(gp.ask('show', '')[-1])
# Warm up: the engine's database thread finishes before the measured searches.
gp.ask('go time=3000', 'bestmove')
rows = {'gridplay': [], 'cake': [], 'guinn': []}
for fen in positions:
    gp.ask('position ' + fen, 'ok')
    r = gp.ask(f'go time={MS}', 'bestmove')[-1].split()
    rows['gridplay'].append((int(r[5]), int(r[7])))
for name, cmd in [('cake', CAKE), ('guinn', GUINN)]:
    e = Proc(['taskset', '-c', '0', cmd])
    for fen in positions:
        out = e.ask(f'go {fen} {MS/1000}', 'bestmove')
        info = next((l for l in out if l.startswith('info')), '')
        if name == 'cake':
            m = re.search(r'depth (\d+)/(\d+)/([\d.]+).*nodes (\d+)', info)
            if not m:
                print('cake, no depth:', fen, out); continue
            rows[name].append((int(m.group(1)), int(m.group(4)), float(m.group(3))))
        else:
            m = re.search(r'Depth: (\d+)/(\d+).*Nodes: ([\d.]+) (kn|Mn|n)', info)
            if not m:
                print('guinn, no depth:', fen, out); continue
            rows[name].append((int(m.group(1)), int(float(m.group(3)) * {'kn': 1e3, 'Mn': 1e6, 'n': 1}[m.group(4)])))
    e.p.stdin.write('quit\n'); e.p.stdin.flush()
for name, r in rows.items():
    d = [x[0] for x in r]; n = [x[1] for x in r]
    extra = f", Cake's mean depth median {statistics.median(x[2] for x in r):.1f}" if name == 'cake' else ''
    print(f'{name}: depth median {statistics.median(d)} (min {min(d)}, max {max(d)}), nodes median {statistics.median(n):,.0f}{extra}')
