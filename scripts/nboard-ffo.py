#!/usr/bin/env python3
"""Times an NBoard engine (NTest, Edax, `gridplay engine --nboard`) on FFO-style endgame problems, for a side by
side comparison with `gridplay solve FILE --problems A-B` on the same core.

Usage: nboard-ffo.py "ENGINE COMMAND" FILE.obf FIRST COUNT [DEPTH]
  FIRST is the number of the file's first problem (40 for fforum-40-59.obf), COUNT how many to solve from the
  start of the file, DEPTH the `set depth` that makes the engine solve exactly (26 for NTest).
Prints each answer (`=== MOVE/SCORE/SECONDS`), whether its score is the file's, and the wall time from the
first `set game` to the last answer (the engine's start-up is not counted).
"""
import subprocess
import sys
import time


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    command, path, first, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    depth = int(sys.argv[5]) if len(sys.argv) == 6 else 26
    problems = [line for line in open(path) if line.strip() and not line.startswith("%")][:count]
    engine = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def tell(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def until(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit("the engine ended")
            if line.startswith(prefix):
                return line.strip()

    nboard = {"X": "*", "O": "O"}
    tell("nboard 2")
    tell(f"set depth {depth}")
    tell("ping 1")
    until("pong")
    started = time.time()
    wrong = 0
    for n, line in enumerate(problems, first):
        board, rest = line.split(None, 1)
        side, *answers = [part.strip() for part in rest.split(";")]
        best = int(answers[0].split(":")[1])
        cells = "".join(nboard.get(c, "-") for c in board)
        tell(f"set game (;GM[Othello]PC[ffo]BO[8 {cells} {nboard[side]}];)")
        tell("go")
        answer = until("===")
        score = answer[3:].strip().split("/")[1] or "0"
        right = round(float(score)) == best
        wrong += not right
        print(f"#{n}: {answer} ({'right' if right else f'wrong, the file says {best:+}'})")
    print(f"{len(problems)} solved, {wrong} wrong, {time.time() - started:.2f} s from the first position to the last answer")
    tell("quit")


main()
