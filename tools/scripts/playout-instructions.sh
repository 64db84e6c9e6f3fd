#!/usr/bin/env bash
# Instructions per generated move and per ply in seeded random playouts from
# the start of each variant of a game, counted by callgrind (a count no
# machine load distorts):
#
#   bash tools/scripts/playout-instructions.sh hexdraughts
#
# Builds the game's playout bench (crates/<game>/benches/playout.rs, release)
# and runs it under valgrind in criterion's test mode, which runs each bench
# routine once: the instructions of a run of one variant's bench minus those
# of a run that benches nothing (the bench plays each variant's games once
# more to count the moves) are one run of its playouts: start-up is not
# counted. Prints one line a variant:
#   <game> <variant> games <n> plies <p> generated <g> instructions <i> per-move <i/g> per-ply <i/p>
# Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/../.."
game=${1:?usage: playout-instructions.sh GAME}
exe=$(cargo bench -p "igroteka-$game" --bench playout --no-run --locked 2>&1 |
    sed -n 's/^ *Executable .*(\(.*\))$/\1/p')
[ -x "$exe" ] || { echo "error: no playout bench built for $game" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Total instructions of the bench binary run with criterion's arguments "$@".
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$exe" "$@" >"$tmp/log" 2>&1
    sed -n 's/^totals: //p' "$tmp/out"
}
base=$(instructions --exact playout/none)
cp "$tmp/log" "$tmp/variants"
# The bench prints "playout/<variant>: <n> games, <p> plies, <g> generated moves".
grep '^playout/' "$tmp/variants" | while IFS=' ' read -r name games _ plies _ generated _; do
    variant=${name#playout/}
    variant=${variant%:}
    total=$(instructions --exact "playout/$variant")
    echo "$game $variant games $games plies ${plies%,} generated $generated" \
        "instructions $((total - base)) per-move $(((total - base) / generated))" \
        "per-ply $(((total - base) / ${plies%,}))"
done
