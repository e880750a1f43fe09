#!/usr/bin/env bash
# Runs hundreds of short SketchEase jobs, several at once, and counts every one that did not end
# well: a crash (a signal, status > 128), a status other than the one expected, or a crash report
# in its output. It exists for races that show once in hundreds of runs, such as a worker that
# finished first reconfiguring OpenCV's thread pool while another worker was inside it.
#
#   scripts/stress.sh [RUNS] [AT_ONCE]      (make stress; defaults 300 runs, 4 at once)
#
# The jobs, taken in turn: a batch of two photos of unequal size with --jobs 2 (one worker ends
# while the other still detects and draws), a batch of four photos with --jobs 3, `detect --json`
# on a group photo, and a one-second clip through `video`. Exits 1 if any run failed, after
# printing each failure's command and the end of its output.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-300}
at_once=${2:-4}
bin=${SKETCHEASE:-.build/release/sketchease}
[ -x "$bin" ] || { echo "stress: no $bin (run make build first)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/sketchease-stress.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/two" "$work/four" "$work/logs"
cp examples/grace_hopper.jpg examples/group.jpg "$work/two/"
cp examples/grace_hopper.jpg examples/group.jpg examples/astronaut.png examples/faces/bald_guys.jpg "$work/four/"
ffmpeg -loglevel error -y -loop 1 -framerate 25 -i examples/group.jpg -t 1 \
    -vf "crop=640:360:'min(iw-640,t*200)':180,format=yuv420p" -c:v libx264 -preset ultrafast "$work/clip.mp4" \
    || { echo "stress: ffmpeg could not make the test clip" >&2; exit 2; }

# run_one N: the Nth job; its output goes to logs/N.log, its status to logs/N.status.
run_one() {
    local n=$1 out="$work/out-$1" command
    case $((n % 4)) in
        0) command=("$bin" batch "$work/two" --jobs 2 --out "$out") ;;
        1) command=("$bin" batch "$work/four" --jobs 3 -f ink --out "$out") ;;
        2) command=("$bin" detect examples/group.jpg --json) ;;
        3) command=("$bin" video "$work/clip.mp4" --out "$out") ;;
    esac
    printf '%s\n' "${command[*]}" > "$work/logs/$n.log"
    "${command[@]}" < /dev/null >> "$work/logs/$n.log" 2>&1
    echo $? > "$work/logs/$n.status"
    rm -rf "$out"
}
export -f run_one
export bin work

start=$(date +%s)
seq 0 $((runs - 1)) | xargs -P "$at_once" -I{} bash -c 'run_one {}'

failed=0
for n in $(seq 0 $((runs - 1))); do
    status=$(cat "$work/logs/$n.status" 2>/dev/null || echo missing)
    if [ "$status" != 0 ] || grep -qE 'crashed|Fatal error|Segmentation|Backtrace' "$work/logs/$n.log"; then
        failed=$((failed + 1))
        echo "--- run $n ended with status $status:"
        tail -n 15 "$work/logs/$n.log"
    fi
done
echo "stress: $runs runs in $(( $(date +%s) - start )) s, $at_once at once"
echo "stress: $((runs - failed)) passed, $failed failed"
[ "$failed" = 0 ]
