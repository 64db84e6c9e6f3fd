#!/usr/bin/env python3
"""Balanced openings for arena ladders: random move lists from the start that
a search deeper than the engines under test does not call decided.

Usage: balanced-openings.py IGROTEKA GAME [--variant V] [--count 60]
       [--plies 4] [--depth 6] [--margin 150] [--seed 1] > openings.txt

Each candidate is `--plies` uniformly random legal moves from the start; it is
kept when `go depth D` from there reports no forced result (`score win/loss`)
and a centipawn score within +-margin. Duplicates are skipped. The output is
an `--openings file=` file for `igroteka arena`, one move list per line, with
a comment saying how it was made.
"""
import argparse
import random
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("igroteka")
    ap.add_argument("game")
    ap.add_argument("--variant")
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--plies", type=int, default=4)
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--margin", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    eng = subprocess.Popen([args.igroteka, "engine", "--game", args.game],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        eng.stdin.write(line + "\n")
        eng.stdin.flush()

    def until(prefix):
        lines = []
        while True:
            line = eng.stdout.readline()
            if not line:
                sys.exit("the engine stopped")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    send("ugi")
    until("ugiok")
    if args.variant:
        send(f"setoption name Variant value {args.variant}")
    send("isready")
    until("readyok")
    kept, seen, tried = [], set(), 0
    while len(kept) < args.count:
        tried += 1
        moves = []
        for _ in range(args.plies):
            send("position startpos moves " + " ".join(moves) if moves else "position startpos")
            send("query moves")
            legal = until("response")[-1].split()[1:]
            if not legal:
                break
            moves.append(rng.choice(legal))
        if len(moves) < args.plies or tuple(moves) in seen:
            continue
        seen.add(tuple(moves))
        send("position startpos moves " + " ".join(moves))
        send("query result")
        if until("response")[-1] != "response none":
            continue
        send(f"go depth {args.depth}")
        infos = [l for l in until("bestmove") if l.startswith("info depth")]
        words = infos[-1].split()
        score = words[words.index("score") + 1:words.index("score") + 3]
        if score[0] == "cp" and abs(int(score[1])) <= args.margin:
            kept.append(moves)
            print(f"{len(kept)}/{args.count} kept of {tried} tried", file=sys.stderr)
    send("quit")
    variant = f" --variant {args.variant}" if args.variant else ""
    print(f"# {args.game}{variant}: {args.count} openings of {args.plies} random plies that "
          f"`go depth {args.depth}` scores within +-{args.margin} cp, no forced result")
    print(f"# made by: tools/scripts/balanced-openings.py IGROTEKA {args.game}{variant} "
          f"--count {args.count} --plies {args.plies} --depth {args.depth} "
          f"--margin {args.margin} --seed {args.seed}")
    for moves in kept:
        print(" ".join(moves))


if __name__ == "__main__":
    main()
