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

# The animated before/after of a clip: the example photos moving over a wall (one face walks
# in and out), drawn by `sketchease video --compare` as an animated WebP, original on the left.
ffmpeg -v error -y -f lavfi -i "color=c=0x9a8f80:s=480x270:r=15:d=6" -loop 1 -i examples/grace_hopper.jpg \
    -loop 1 -i examples/astronaut.png -filter_complex "\
[1]crop=310:330:110:70,scale=-2:130[a];[2]crop=210:240:120:10,scale=-2:120[b];\
[2]crop=210:240:120:10,hflip,scale=-2:100[c];\
[0][a]overlay=x='180+70*sin(2*PI*t/6)':y='20+10*sin(2*PI*t/3)':shortest=1[v1];\
[v1][b]overlay=x='30+20*sin(2*PI*t/4)':y='130'[v2];\
[v2][c]overlay=x='if(lt(t,3),480-t*60,480-(6-t)*60)':y=160[v]" \
    -map "[v]" -c:v libx264 -preset veryfast -crf 16 -pix_fmt yuv420p -t 6 "$t/scene.mp4"
"$BIN" video "$t/scene.mp4" --out "$t" --compare --format webp --overwrite
cp "$t/scene.compare.webp" docs/before-after.webp
echo "wrote docs/before-after.webp"
