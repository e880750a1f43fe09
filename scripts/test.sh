#!/usr/bin/env bash
# Runs the whole test suite (Swift Testing; XCTest is not used) and prints what a person needs:
# each failure with its details as it happens, then the totals. Swift Testing's per-test lines
# (hundreds, with timings measured from the start of the run, since tests run in parallel) go
# to .build/test.log in full.
#
# The run reads nothing from the terminal (standard input is /dev/null, for it and every program
# a test starts), and it is stopped after SKETCHEASE_TEST_MINUTES (40) minutes: then the tests
# that started and never finished are named, so a hang shows where it is instead of using up CI.
set -uo pipefail
cd "$(dirname "$0")/.."
log=.build/test.log
minutes=${SKETCHEASE_TEST_MINUTES:-40}
mkdir -p .build
start=$(date +%s)
timeout --kill-after=30 "${minutes}m" swift test --disable-xctest "$@" < /dev/null 2>&1 | tee "$log" | awk '
    /^✘ Test .* recorded an issue/ { print; showing = 1; fflush(); next }
    /^(✔|✘|◇|↳) / { showing = 0 }
    /^✘ Test run / || /^✔ Test run / { print; fflush(); next }
    /error:|Fatal error|crashed|Backtrac|still running after/ { print; fflush(); next }
    showing { print; fflush() }
'
status=${PIPESTATUS[0]}
if [ "$status" = 124 ] || [ "$status" = 137 ]; then
    echo "The tests were stopped after $minutes minutes. Started and never finished:"
    awk '/^◇ Test [^ ]+ started\.$/ { name = $3; open[name] = 1 }
         /^(✔|✘) Test [^ ]+ .*(passed|failed)/ { delete open[$3] }
         END { for (name in open) print "  " name }' "$log" | sort
fi
echo "(every test, as Swift Testing reports it: $log; $(( $(date +%s) - start )) s)"
exit "$status"
