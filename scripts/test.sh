#!/usr/bin/env bash
# Runs the whole test suite (Swift Testing; XCTest is not used) and prints what a person needs:
# each failure with its details as it happens, then the totals. Swift Testing's per-test lines
# (hundreds, with timings measured from the start of the run, since tests run in parallel) go
# to .build/test.log in full.
set -uo pipefail
cd "$(dirname "$0")/.."
log=.build/test.log
mkdir -p .build
swift test --disable-xctest "$@" 2>&1 | tee "$log" | awk '
    /^✘ Test .* recorded an issue/ { print; showing = 1; next }
    /^(✔|✘|◇|↳) / { showing = 0 }
    /^✘ Test run / || /^✔ Test run / { print; next }
    /error:|Fatal error|crashed|Backtrac/ { print; next }
    showing { print }
'
status=${PIPESTATUS[0]}
echo "(every test, as Swift Testing reports it: $log)"
exit "$status"
