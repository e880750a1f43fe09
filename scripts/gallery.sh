#!/usr/bin/env bash
# make gallery: the README's two sheets.
#  docs/gallery.png          every style on the two example portraits (sketchease gallery)
#  docs/gallery-faces.png    every style on varied faces: dlib's example photos, and the same
#                            faces made harder (a dark room, backlight, small and at the edge)
#  docs/gallery-compare.png  the same faces by other tools on the face region: G'MIC pencilbw,
#                            ImageMagick -sketch and -charcoal, OpenCV pencilSketch and stylization
# Variants are made here from the installed photos; nothing from elsewhere is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release/sketchease}
WORK=out/gallery
rm -rf "$WORK"  # a fresh folder: batch never replaces files it did not write
mkdir -p "$WORK" docs
# The sheets are this script's own: a fresh clone's copies are not in SketchEase's record of what
# it wrote, and `gallery --out` replaces nothing else.
rm -f docs/gallery.png docs/gallery-faces.png

"$BIN" gallery examples/grace_hopper.jpg examples/astronaut.png --out docs/gallery.png

# Varied faces, and harder versions of them.
F=examples/faces
cp $F/Tom_Cruise_avp_2014_4.jpg $F/2008_002506.jpg $F/2009_004587.jpg $F/2008_001009.jpg "$WORK/"
vips linear $F/2008_001322.jpg "$WORK/dark-room.png" 0.3 0                  # a dark room
vips gamma examples/grace_hopper.jpg "$WORK/backlit.png" --exponent 0.55  # backlight: the face in shadow
vips linear "$WORK/backlit.png" "$WORK/backlit.png.v" 0.8 0 && vips cast "$WORK/backlit.png.v" "$WORK/backlit.png" uchar && rm "$WORK/backlit.png.v"
vips resize $F/2008_002079.jpg "$WORK/small-faces.png" 0.7                  # faces of ~40 px
vips crop examples/group.jpg "$WORK/at-the-edge.png" 830 100 670 600        # a face cut by the edge
rows=("$WORK/Tom_Cruise_avp_2014_4.jpg" "$WORK/2008_002506.jpg" "$WORK/2009_004587.jpg" "$WORK/2008_001009.jpg"
      "$WORK/dark-room.png" "$WORK/backlit.png" "$WORK/small-faces.png" "$WORK/at-the-edge.png")
"$BIN" gallery "${rows[@]}" --out docs/gallery-faces.png --cell-height 180

# Other tools on the same face regions (the largest face, as the gallery shows it).
g++ -O2 -std=c++17 -I/usr/include/opencv4 scripts/opencv-styles.cpp -o "$WORK/opencv-styles" \
    -lopencv_photo -lopencv_imgcodecs -lopencv_imgproc -lopencv_core
cells=()
label() { vips text "$WORK/label.v" "$1" --font "sans bold 13" --dpi 96 && vips invert "$WORK/label.v" "$WORK/label-$2.png"; }
names=(original "sketchease pencil" "G'MIC pencilbw" "IM -sketch" "IM -charcoal" "OpenCV pencilSketch" "OpenCV stylization")
for i in "${!names[@]}"; do label "${names[$i]}" "$i"; done
for photo in "${rows[@]}"; do
    stem=$(basename "${photo%.*}")
    read -r x y w h < <("$BIN" detect "$photo" --json | python3 -c '
import json, sys
faces = json.load(sys.stdin)[0]["faces"]
x, y, w, h = max((f["box"] for f in faces), key=lambda b: b[2] * b[3])
print(int(x - 0.6 * w), int(y - 0.8 * h), int(2.2 * w), int(2.6 * h))')
    W=$(vipsheader -f width "$photo"); H=$(vipsheader -f height "$photo")
    x0=$(( x < 0 ? 0 : x )); y0=$(( y < 0 ? 0 : y ))
    w=$(( x0 + w > W ? W - x0 : w )); h=$(( y0 + h > H ? H - y0 : h ))
    crop="$WORK/$stem-face.png"
    vips crop "$photo" "$crop" $x0 $y0 $w $h
    "$BIN" batch "$photo" --out "$WORK/ours" --overwrite >/dev/null 2>&1
    vips crop "$WORK/ours/$stem.png" "$WORK/$stem-ours.png" $x0 $y0 $w $h
    gmic -input "$crop" -pencilbw 0.3,60 -output "$WORK/$stem-gmic.png" >/dev/null 2>&1
    convert "$crop" -sketch 0x20+120 "$WORK/$stem-sketch.png"
    convert "$crop" -charcoal 2 "$WORK/$stem-charcoal.png"
    "$WORK/opencv-styles" "$crop" "$WORK/$stem-cvpencil.png" "$WORK/$stem-cvstyle.png"
    for cell in face ours gmic sketch charcoal cvpencil cvstyle; do
        vips thumbnail "$WORK/$stem-$cell.png" "$WORK/$stem-$cell-small.png" 400 --height 180
        cells+=("$WORK/$stem-$cell-small.png")
    done
done
labels=(); for i in "${!names[@]}"; do labels+=("$WORK/label-$i.png"); done
# Labels and cells joined separately on the same column pitch, so the label row stays a line.
vips arrayjoin "${labels[*]}" "$WORK/labels.v" --across 7 --hspacing 210 --background 255 --halign centre
vips arrayjoin "${cells[*]}" "$WORK/cells.v" --across 7 --hspacing 210 --vspacing 186 --background 255 --halign centre
vips join "$WORK/labels.v" "$WORK/cells.v" docs/gallery-compare.png vertical --expand --background 255 --shim 8
rm -f "$WORK"/*.v
echo "gallery written to docs/gallery.png, docs/gallery-faces.png, docs/gallery-compare.png"
