#!/usr/bin/env bash
# The test command of the README: installs what the tests need on a fresh
# machine (Debian's chromium for the browser tests, GNU parallel for the
# documented sharding recipe), then runs every test of the workspace and of
# the Python package (python/test.sh makes its own virtualenv from PyPI).
# Run it as root or with sudo rights on a fresh machine; where the tools are
# already there it installs nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v parallel >/dev/null 2>&1 || missing+=(parallel)
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update
  $sudo apt-get install -y "${missing[@]}"
fi

cargo test --workspace --locked

# The Python package (python/, outside the cargo workspace): built into a
# virtualenv of its own with its pinned test requirements, then pytest
# (OpenSpiel's random_sim_test, PettingZoo's api_test, ...).
bash python/test.sh
