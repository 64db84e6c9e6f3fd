#!/usr/bin/env bash
# The crates as crates.io will have them (issue 31), checked, not described:
#  1. every published package is packaged with its metadata (description,
#     licence, repository, readme, keywords, categories, rust-version), its
#     README and licence files; its size is printed and must stay under
#     crates.io's limit (10 MB);
#  2. every package name is free on crates.io or already ours;
#  3. `cargo publish --workspace --dry-run`: each crate builds against the
#     others as packaged;
#  4. the libraries' own tests (unit, integration and doc tests) pass from the
#     packaged files, each sibling crate replaced by its packaged copy;
#  5. `cargo install` of the packaged `igroteka` gives a binary that runs every
#     kind of command from another directory, `serve` with its page;
#  6. the public API has not changed without a version bump (tests/api.rs
#     compares each library's listing in api/ with its sources).
# CI runs it on a clean tree; from a tree with uncommitted changes, pass
# `--allow-dirty`. Needs cargo and crates.io.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
dirty=()
case "${1-}" in
  --allow-dirty) dirty=(--allow-dirty) ;;
  "") ;;
  *) echo "usage: $0 [--allow-dirty]" >&2; exit 2 ;;
esac
fail() { echo "package-check: $*" >&2; exit 1; }
step() { echo "== package-check: $* ($SECONDS s)"; }

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[ -n "$version" ] || fail "no workspace version in Cargo.toml"
repository=$(sed -n 's/^repository = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[ -n "$repository" ] || fail "no workspace repository in Cargo.toml"
# Always the same directory: test binaries keep the path they were built in,
# and Cargo reuses them for the same relative path in another directory.
work=$root/target/package-check
rm -rf "$work"
mkdir -p "$work"
server=""
elsewhere=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  if [ -n "$elsewhere" ]; then rm -rf "$elsewhere"; fi
}
trap cleanup EXIT

step "1. packaging"
rm -f target/package/*.crate
cargo package --workspace --locked --no-verify "${dirty[@]}" --quiet
shopt -s nullglob
crates=(target/package/*-"$version".crate)
shopt -u nullglob
((${#crates[@]} >= 12)) || fail "expected at least 12 packages, found ${#crates[@]}"
limit=$((10 * 1000 * 1000))
names=()
for crate in "${crates[@]}"; do
  name=$(basename "$crate" "-$version.crate")
  names+=("$name")
  size=$(wc -c <"$crate")
  printf '%-26s %8d bytes packed, %8d unpacked, %3d files\n' "$name" "$size" \
    "$(tar -xzOf "$crate" | wc -c)" "$(tar -tzf "$crate" | wc -l)"
  ((size < limit)) || fail "$name: $size bytes, over crates.io's limit of $limit"
  # Unpacked with today's times (a packed file's is fixed): step 4 builds
  # into the repository's target directory, where cargo would otherwise take
  # an earlier run's builds of these sources for up to date.
  tar -xzf "$crate" -C "$work" --touch
  # What crates.io and docs.rs show, and the licence texts.
  package=$work/$name-$version
  for key in description license repository readme keywords categories rust-version; do
    grep -q "^$key = " "$package/Cargo.toml" || fail "$name: no $key in its manifest"
  done
  readme=$(sed -n 's/^readme = "\(.*\)"$/\1/p' "$package/Cargo.toml")
  for file in "$readme" LICENSE-MIT LICENSE-APACHE; do
    [ -s "$package/$file" ] || fail "$name: no $file in the package"
  done
done

step "2. names on crates.io"
# Free (`could not find`) or ours (our repository); anything else, including
# an answer that is neither, fails. crates.io treats `-` and `_` as one.
name_status() {
  local out
  out=$(cd "$work" && cargo info --registry crates-io "$1" 2>&1) || true
  if grep -q "could not find \`$1\` in registry" <<<"$out"; then
    echo free
  elif grep -qxF "repository: $repository" <<<"$out"; then
    echo ours
  elif grep -q '^repository: \|^version: ' <<<"$out"; then
    echo taken
  else
    echo "unknown: $out"
  fi
}
[ "$(name_status serde)" = taken ] || fail "cannot tell a taken name (serde) from a free one"
for name in "${names[@]}"; do
  for spelling in "$name" "${name//-/_}"; do
    status=$(name_status "$spelling")
    echo "$spelling: $status"
    case "$status" in
      free | ours) ;;
      *) fail "the name $spelling is not ours on crates.io: $status" ;;
    esac
  done
done

step "3. cargo publish --workspace --dry-run"
# Cargo unpacks the crates of its temporary registry (target/package/
# tmp-registry) under $CARGO_HOME/registry/src/-<hash of that path>/ and does
# not unpack a version again that is already there: a second run from the
# same folder would build against the sources of the first. Those folders
# hold nothing but our own packages: remove them first.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/igroteka-*
# Cargo also judges a build from those sources by the files' times, and a
# packed file's time is fixed (2006): a build made against an earlier run's
# sources looks up to date. Forget every build made from them.
for deps in target/debug/deps/*.d; do
  if [ -f "$deps" ] && grep -q "registry/src/-[0-9a-f]*/igroteka-" "$deps"; then
    hash=${deps##*-}
    rm -rf target/debug/.fingerprint/*-"${hash%.d}"
  fi
done
cargo publish --workspace --dry-run --locked "${dirty[@]}" --quiet

# The packages, unpacked side by side in a workspace of their own, with the
# repository's lock file and profiles, each crates.io dependency on a sibling
# replaced by its packaged copy.
{
  echo '[workspace]'
  echo 'resolver = "3"'
  printf 'members = ['
  printf '"%s-'"$version"'", ' "${names[@]}"
  echo ']'
  echo
  echo '[patch.crates-io]'
  for name in "${names[@]}"; do
    echo "$name = { path = \"$name-$version\" }"
  done
  echo
  sed -n '/^\[profile/,$p' Cargo.toml
} >"$work/Cargo.toml"
cp Cargo.lock "$work/"
# The repository's build flags (.cargo/config.toml) and target directory, so
# the crates.io dependencies built for the workspace serve here too.
export CARGO_TARGET_DIR="$root/target"
in_packages() { (cd "$work" && cargo "$1" --config "$root/.cargo/config.toml" "${@:2}"); }

step "4. the libraries' tests from their packages"
tested=()
for name in "${names[@]}"; do
  [ "$name" = igroteka ] || tested+=(-p "$name")
done
in_packages test --locked --quiet --no-fail-fast "${tested[@]}"

step "5. cargo install of the packaged igroteka"
in_packages install --locked --quiet --path "igroteka-$version" --root "$work/root"
igroteka=$work/root/bin/igroteka
# Run from elsewhere, with the package's sources out of the way: the binary
# must need nothing but itself.
mv "$work/igroteka-$version" "$work/igroteka-$version.moved"
elsewhere=$(mktemp -d)
cd "$elsewhere"
expect() { # expect WHAT PATTERN COMMAND...: it succeeds and prints PATTERN
  local what=$1 pattern=$2 out
  shift 2
  out=$("$@") || fail "$what: exit status $?"
  grep -qE "$pattern" <<<"$out" || fail "$what: no line matching '$pattern' in:
$out"
}
expect version "^igroteka $version\$" "$igroteka" --version
expect games "^focus " "$igroteka" games
expect perft "^depth 2 nodes 4460 " "$igroteka" perft --game focus --depth 2
first=$("$igroteka" perft --game focus --depth 1 --divide | awk 'NR == 1 { print $1 }')
expect replay "^result " "$igroteka" replay --game focus "$first"
expect engine "^readyok\$" "$igroteka" engine <<<$'ugi\nisready\nquit'
expect arena "^Games: 2 " "$igroteka" arena --game otrazhenie --engine name=a builtin=random \
  --engine name=b builtin=random --rounds 1 --max-plies 30 --quiet --concurrency 1
expect "generate man" '^\.TH igroteka 1' "$igroteka" generate man
"$igroteka" serve --port 0 >"$work/serve.log" 2>&1 &
server=$!
url=""
for _ in $(seq 300); do
  url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$work/serve.log" || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || fail "serve printed no address: $(cat "$work/serve.log")"
port=${url#http://127.0.0.1:}
port=${port%/}
fetch() { # fetch PATH: the response, headers and body, with bash alone
  exec 3<>"/dev/tcp/127.0.0.1/$port"
  printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n' "$1" "$port" >&3
  cat <&3
  exec 3<&-
}
expect "serve /" '<script[^>]*app\.js' fetch /
expect "serve /app.js" '^HTTP/1\.1 200' fetch /app.js
expect "serve /app.js" 'WebSocket' fetch /app.js
kill "$server"
server=""
cd "$root"
rm -rf "$elsewhere"

step "6. public API against its version"
cargo test --locked --quiet -p igroteka --test api

step "passed"
