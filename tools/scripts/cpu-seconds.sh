#!/usr/bin/env bash
# CPU seconds of the engine's bench at a fixed depth, for one or more
# binaries, run in turns so that a machine's changing load falls on all alike.
#
# Instruction counts (callgrind.sh) do not see memory latency: a table probe
# that misses the cache is one instruction and a few hundred cycles. Compare
# CPU seconds as well before calling a change faster.
#
# Usage:
#   tools/scripts/cpu-seconds.sh GAME DEPTH [options] BIN [BIN ...]
# Options:
#   --repeat N      runs per binary (default 5), in turns A B A B ...
#   --variant V     the variant (default: the game's default)
#   --threads N     Threads (default 1)
#   --start         `go depth DEPTH` from the start position instead of the
#                   bench (nodes: the last info line's)
#
# Prints, per binary, the bench's total nodes and the lowest and median user
# CPU seconds of its runs (the lowest is the least disturbed), then each
# binary's median relative to the first's:
#   bin <path> nodes <n> cpu_min <s> cpu_median <s> ratio <median / first median>
#
# Example (the binary before a change built in a scratch checkout):
#   tools/scripts/cpu-seconds.sh adiyukh 13 /tmp/before/igroteka target/release/igroteka
#   tools/scripts/cpu-seconds.sh adiyukh 18 --start /tmp/before/igroteka target/release/igroteka
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

[ $# -ge 3 ] || usage
game=$1
depth=$2
shift 2
repeat=5
variant=()
threads=1
start=0
bins=()
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat|--variant|--threads)
      [ $# -ge 2 ] || { echo "cpu-seconds.sh: $1 needs a value" >&2; exit 2; }
      case "$1" in
        --repeat) repeat=$2 ;;
        --variant) variant=(--variant "$2") ;;
        --threads) threads=$2 ;;
      esac
      shift 2 ;;
    --start) start=1; shift ;;
    -h|--help) usage ;;
    --*) echo "cpu-seconds.sh: unknown option '$1'" >&2; exit 2 ;;
    *) bins+=("$1"); shift ;;
  esac
done
[ ${#bins[@]} -ge 1 ] || usage
[[ $depth =~ ^[0-9]+$ ]] || { echo "cpu-seconds.sh: depth must be a number, not '$depth'" >&2; exit 2; }
[[ $repeat =~ ^[1-9][0-9]*$ ]] || { echo "cpu-seconds.sh: --repeat must be a positive number, not '$repeat'" >&2; exit 2; }
[[ $threads =~ ^[1-9][0-9]*$ ]] || { echo "cpu-seconds.sh: --threads must be a positive number, not '$threads'" >&2; exit 2; }
for bin in "${bins[@]}"; do
  [ -x "$bin" ] || { echo "cpu-seconds.sh: no binary at $bin" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One run: user CPU seconds (bash's `time` counts the child's) and the
# bench's (or the search's) node count. The table is off for Otrazhenie (loading it is not search).
run() {
  local bin=$1 out=$2
  local TIMEFORMAT=%U
  local what="bench $depth"
  [ "$start" = 1 ] && what="position startpos"$'\n'"go depth $depth"
  { time printf 'setoption name Threads value %s\nsetoption name Tablebase value false\n%s\n' \
      "$threads" "$what" | "$bin" engine --game "$game" "${variant[@]}" >"$out.log" 2>&1; } 2>"$out.cpu"
  if [ "$start" = 1 ]; then
    grep '^bestmove' -q "$out.log" &&
      sed -n 's/^info depth .* nodes \([0-9]*\).*/\1/p' "$out.log" | tail -n 1 >"$out.nodes"
  else
    sed -n 's/^bench depth [0-9]* nodes \([0-9]*\).*/\1/p' "$out.log" >"$out.nodes"
  fi
  if [ ! -s "$out.nodes" ]; then
    echo "cpu-seconds.sh: $bin printed no $( [ "$start" = 1 ] && echo bestmove || echo bench) line:" >&2
    tail -3 "$out.log" >&2
    exit 1
  fi
}

for ((r = 0; r < repeat; r++)); do
  for i in "${!bins[@]}"; do
    run "${bins[$i]}" "$work/$i.$r"
    cat "$work/$i.$r.cpu" >>"$work/$i.cpus"
  done
  echo "cpu-seconds.sh: round $((r + 1))/$repeat" >&2
done

first=""
for i in "${!bins[@]}"; do
  nodes=$(cat "$work/$i.0.nodes")
  read -r lo med < <(sort -n "$work/$i.cpus" | awk '{ a[NR] = $1 } END { print a[1], a[int((NR + 1) / 2)] }')
  [ -z "$first" ] && first=$med
  ratio=$(awk -v m="$med" -v f="$first" 'BEGIN { printf "%.3f", (f > 0 ? m / f : 0) }')
  echo "bin ${bins[$i]} nodes $nodes cpu_min $lo cpu_median $med ratio $ratio"
done
