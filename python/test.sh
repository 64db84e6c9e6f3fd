#!/usr/bin/env bash
# Builds and tests the Python package, as CI does: creates (or reuses)
# python/.venv, installs the pinned test requirements and the package from
# this folder (pip builds it with maturin, the PEP 517 backend, in release
# mode into python/target), then runs the tests. Needs Rust, Python 3 and
# pip, and PyPI.
#
#   bash python/test.sh [pytest arguments]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/target}"

if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements-test.txt"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$here"

# From the tests folder with pytest's own script, so that the source folder
# python/igroteka (without the built module) does not shadow the package.
cd "$here/tests"
exec "$venv/bin/pytest" -p no:cacheprovider -q "$@"
