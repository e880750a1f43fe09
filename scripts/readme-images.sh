#!/usr/bin/env bash
# Re-renders the pictures the README shows, from the example photos, with the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release/sketchease}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
"$BIN" batch examples/group.jpg --out "$t" --overwrite
# Before above after, at 900 px wide.
vips arrayjoin "examples/group.jpg $t/group.png" "$t/pair.v" --across 1 --shim 12 --background 255
vips resize "$t/pair.v" "$t/small.v" 0.6
vips pngsave "$t/small.v" docs/before-after.png --compression 9 --strip
echo "wrote docs/before-after.png"
