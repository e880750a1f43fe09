#!/usr/bin/env bash
# Fuzzes the image-loading path, session sidecars, batch plans or clips (demux, decode,
# convert, draw, mux) with libFuzzer for a few minutes. Not part of CI.
# Usage: scripts/fuzz.sh [seconds] [image|session|plan|clip]
# Crashes land in fuzz/crashes/; replay one with .build/debug/SketchEaseFuzz FILE.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN=${1:-180}
export SKETCHEASE_FUZZ=${2:-image}
scripts/setup.sh all
swift build -c release --product SketchEaseFuzz --scratch-path .build-fuzz \
    -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING
corpus=fuzz/corpus-$SKETCHEASE_FUZZ
mkdir -p "$corpus" fuzz/crashes
if [ "$SKETCHEASE_FUZZ" = image ] && [ -z "$(ls -A "$corpus")" ]; then
    # Seeds: small real files of each format the loaders see most.
    vips resize examples/grace_hopper.jpg "$corpus/seed.jpg[Q=70]" 0.15
    vips resize examples/astronaut.png "$corpus/seed.png" 0.12
    vips resize examples/astronaut.png "$corpus/seed.webp" 0.12
    vips resize examples/astronaut.png "$corpus/seed.gif" 0.1
    vips resize examples/grace_hopper.jpg "$corpus/seed.tif" 0.1
fi
if [ "$SKETCHEASE_FUZZ" = clip ] && [ -z "$(ls -A "$corpus")" ]; then
    # Seeds: tiny clips of the containers and codecs people have (a few KB each).
    src="testsrc2=size=64x48:rate=10:duration=0.4"
    tone="sine=duration=0.4"
    ffmpeg -v error -f lavfi -i "$src" -f lavfi -i "$tone" -c:v libx264 -preset ultrafast -c:a aac -shortest "$corpus/seed.mp4"
    ffmpeg -v error -f lavfi -i "$src" -c:v libx264 -preset ultrafast -metadata:s:v rotate=90 "$corpus/seed.mov"
    ffmpeg -v error -f lavfi -i "$src" -f lavfi -i "$tone" -c:v libvpx-vp9 -deadline realtime -c:a libopus -shortest "$corpus/seed.webm"
    ffmpeg -v error -f lavfi -i "$src" -c:v mjpeg -pix_fmt yuvj420p "$corpus/seed.avi"
    ffmpeg -v error -f lavfi -i "$src" -f lavfi -i "$tone" -c:v mpeg2video -c:a mp2 -shortest "$corpus/seed.ts"
    ffmpeg -v error -f lavfi -i "$src" -c:v ffv1 -pix_fmt yuv444p10le "$corpus/seed.mkv"
    ffmpeg -v error -f lavfi -i "$src" "$corpus/seed.gif"
fi
if [ "$SKETCHEASE_FUZZ" = session ] && [ ! -e "$corpus/seed.sketchease.json" ]; then
    # Seed: a real session, written by the tool itself (an edit's sidecar, in the output
    # folder's .sketchease/).
    t=$(mktemp -d)
    swift build --product sketchease >/dev/null
    printf 'set 1 pencil darkness=2\nadd 10 10 40 40\nset 2 ink\nmove 1 5 5\ndelete 2\nundo\nbackground charcoal\nexport\nquit!\n' |
        .build/debug/sketchease edit examples/grace_hopper.jpg --out "$t" >/dev/null 2>&1
    cp "$t"/.sketchease/grace_hopper.sketchease.json "$corpus/seed.sketchease.json"
    rm -rf "$t"
fi
if [ "$SKETCHEASE_FUZZ" = plan ] && [ ! -e "$corpus/seed.json" ]; then
    # Seed: a plan as docs/editing.md writes one (faces by number and by box, a style, none).
    cat > "$corpus/seed.json" <<'PLAN'
{"format": "sketchease-plan", "version": 1, "photos": [{"path": "group.jpg", "faces": [
 {"face": 2, "style": {"filter": "pencil", "parameters": {"darkness": 2}}},
 {"box": [1280, 360, 70, 80], "style": {"filter": "ink"}}, {"face": 3, "style": null}],
 "others": {"filter": "charcoal", "parameters": {}}}]}
PLAN
fi
.build-fuzz/release/SketchEaseFuzz "$corpus" -max_total_time="$SECONDS_TO_RUN" -max_len=65536 \
    -rss_limit_mb=1024 -timeout=20 -artifact_prefix=fuzz/crashes/ -print_final_stats=1
