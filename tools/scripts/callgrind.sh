#!/usr/bin/env bash
# Instructions per node, counted by callgrind (no machine load distorts them).
#
# Usage:
#   tools/scripts/callgrind.sh GAME [WHAT] [options]
#
# WHAT (default `go depth 5`) is the protocol command to measure, from
# `position startpos` (or --position):
#   "go depth D"       alpha-beta (or --engine mcts) to depth D
#   "go nodes N"       a node-limited search (MCTS: N iterations)
#   "perft D"          move-path counting to depth D
#   "bench D"          the engine's bench positions to depth D
# Options:
#   --bin PATH         the binary (default target/release/igroteka; build it
#                      first with `cargo build --release -p igroteka`)
#   --variant V        the variant (default: the game's default)
#   --position TEXT    a position command's tail instead of `startpos`
#                      (`fen <text> moves ...` or `startpos moves ...`)
#   --engine E         alphabeta (default) or mcts
#   --threads N        Threads (default 1; instruction counts need 1 to repeat)
#   --whole            count the whole process (start-up, table allocation)
#                      instead of the measured command alone
#   --out FILE         keep callgrind's profile there (callgrind_annotate FILE)
#
# Prints one line:
#   game <g> command <what> nodes <n> instructions <ir> per_node <ir/n>
# where nodes is what the engine reported for the command (the last `info`
# line's nodes for `go`, the sum over depths 1..D for `perft` (it counts
# them all), the total for `bench`).
# Only the functions that run the command are counted (callgrind's
# --toggle-collect), so the per-node figure is the search's (or perft's)
# own cost; --whole counts everything.
#
# Examples:
#   tools/scripts/callgrind.sh city "go depth 5"
#   tools/scripts/callgrind.sh stykovka "go depth 6" --bin /tmp/main-igroteka
#   tools/scripts/callgrind.sh hexdraughts "perft 6"
#   tools/scripts/callgrind.sh focus "go nodes 20000" --engine mcts
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

[ $# -ge 1 ] || usage
case "$1" in -h|--help) usage ;; esac
game=$1
shift
what="go depth 5"
if [ $# -ge 1 ] && [[ $1 != --* ]]; then
  what=$1
  shift
fi
bin=target/release/igroteka
variant=""
position="startpos"
engine="alphabeta"
threads=1
whole=0
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --variant) variant=$2; shift 2 ;;
    --position) position=$2; shift 2 ;;
    --engine) engine=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --whole) whole=1; shift ;;
    --out) out=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "callgrind.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed" >&2; exit 1; }
[ -x "$bin" ] || { echo "callgrind.sh: no binary at $bin (cargo build --release -p igroteka)" >&2; exit 1; }

case "$what" in
  go\ *) toggle='*search_among*'; [ "$engine" = mcts ] && toggle='*Mcts*search*' ;;
  perft\ *) toggle='*DynGame>::perft' ;;
  bench*) toggle='*Engine<W>::bench' ;;  # with emptying the table (--whole: making it)
  *) echo "callgrind.sh: measure 'go ...', 'perft D' or 'bench D', not '$what'" >&2; exit 2 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
profile=${out:-$work/callgrind.out}
collect=(--toggle-collect="$toggle")
[ "$whole" = 1 ] && collect=()
variant_args=()
[ -n "$variant" ] && variant_args=(--variant "$variant")

# The engine must see `quit` only after the command is done (quit stops a
# search), so the commands go through a coprocess and quit follows the
# command's last line.
coproc ENGINE {
  valgrind --tool=callgrind --callgrind-out-file="$profile" "${collect[@]}" \
    "$bin" engine --game "$game" "${variant_args[@]}" 2>"$work/valgrind.log"
}
send() { printf '%s\n' "$1" >&"${ENGINE[1]}"; }
send "setoption name Threads value $threads"
send "setoption name Engine value $engine"
send "position $position"
send "$what"
nodes=""
while IFS= read -r line <&"${ENGINE[0]}"; do
  case "$what:$line" in
    go*:info\ *) nodes=$(sed -n 's/.* nodes \([0-9]*\).*/\1/p' <<<"$line") ;;
    go*:bestmove*) break ;;
    perft*:depth\ *) nodes=$(( ${nodes:-0} + $(awk '{print $4}' <<<"$line") ))
      [ "$(awk '{print $2}' <<<"$line")" = "${what#perft }" ] && break ;;
    bench*:bench\ depth*) nodes=$(awk '{print $5}' <<<"$line"); break ;;
    *:error*|*:info\ string\ error*) echo "callgrind.sh: engine said: $line" >&2 ;;
  esac
done
send "quit"
wait "$ENGINE_PID" || true
instructions=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$profile" | head -1)
if [ -z "$nodes" ] || [ -z "$instructions" ]; then
  echo "callgrind.sh: no node count or no profile; valgrind said:" >&2
  cat "$work/valgrind.log" >&2
  exit 1
fi
per_node=$(awk -v i="$instructions" -v n="$nodes" 'BEGIN { printf "%.0f", (n > 0 ? i / n : 0) }')
echo "game $game command $what nodes $nodes instructions $instructions per_node $per_node"
