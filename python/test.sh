#!/usr/bin/env bash
# Builds the Python package as it is published and tests the wheel, as CI
# does:
#
# 1. python/.venv (made once, then reused) gets maturin
#    (requirements-build.txt) and the test requirements; maturin makes the
#    sdist and builds the wheel from it (`maturin build --release --locked
#    --sdist`, the Rust build in python/target) into $CARGO_TARGET_DIR/dist.
#    The wheel is installed in python/.venv too, for use by hand.
# 2. A fresh virtualenv with no cargo or rustc on PATH gets the pinned test
#    requirements (requirements-test.txt, binary wheels only) and that wheel
#    (no index), and pytest runs python/tests in it: the README's examples,
#    OpenSpiel's random_sim_test, PettingZoo's api_test, ..., `mypy --strict`
#    on the package and the README's examples (test_types.py), and the checks
#    of the wheel and the sdist (test_release.py: manylinux abi3 tag, licence
#    files, stubs and py.typed, POPCNT in the module built from the sdist).
#
# Needs Rust, Python 3 with pip and venv, binutils' objdump, and PyPI.
#
#   bash python/test.sh [pytest arguments]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/target}"
dist="$CARGO_TARGET_DIR/dist"
pip=(--quiet --disable-pip-version-check)

if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
fi
"$venv/bin/python" -m pip install "${pip[@]}" -r "$here/requirements-build.txt" -r "$here/requirements-test.txt"

rm -rf "$dist"
(cd "$here" && "$venv/bin/maturin" build --quiet --release --locked --sdist --out "$dist")
wheel="$(echo "$dist"/igroteka-*.whl)"
"$venv/bin/python" -m pip install "${pip[@]}" --force-reinstall --no-deps "$wheel"

# PATH without the folders that hold cargo or rustc.
path=()
IFS=: read -r -a dirs <<<"$PATH"
for dir in "${dirs[@]}"; do
    if [ -n "$dir" ] && [ ! -e "$dir/cargo" ] && [ ! -e "$dir/rustc" ]; then
        path+=("$dir")
    fi
done
fresh="$(mktemp -d)"
trap 'rm -rf "$fresh"' EXIT
"${PYTHON:-python3}" -m venv "$fresh/venv"
export PATH="$fresh/venv/bin:$(IFS=:; echo "${path[*]}")"
unset CARGO RUSTC RUSTUP_TOOLCHAIN
if command -v cargo >/dev/null || command -v rustc >/dev/null; then
    echo "python/test.sh: cargo or rustc still on PATH" >&2
    exit 1
fi
python -m pip install "${pip[@]}" --only-binary=:all: -r "$here/requirements-test.txt"
python -m pip install "${pip[@]}" --no-index "$wheel"

# From the tests folder, so that the source folder python/igroteka (without
# the built module) does not shadow the installed package.
cd "$here/tests"
IGROTEKA_DIST="$dist" python -m pytest -p no:cacheprovider -q "$@"
