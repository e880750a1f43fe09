#!/usr/bin/env python3
"""Builds the benchmark corpus: 12-megapixel JPEGs (4000x3000) with 1 to 6 faces each.

Made from the example photos by upscaling and tiling (vips command-line tool), so the corpus
is reproducible and nothing from elsewhere is committed. Usage: make_corpus.py OUT_DIR
"""
import os
import subprocess
import sys
import tempfile

W, H = 4000, 3000
FACES = ["examples/astronaut.png", "examples/grace_hopper.jpg"]


def vips(*args):
    subprocess.run(["vips", *map(str, args)], check=True)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as t:
        # A soft, faceless background: Perlin clouds tinted like a studio backdrop.
        vips("perlin", f"{t}/noise.v", W, H, "--cell-size", 400, "--seed", 7)
        vips("linear", f"{t}/noise.v", f"{t}/tint.v", "60 55 50", "150 140 125")
        vips("cast", f"{t}/tint.v", f"{t}/bg0.v", "uchar")
        vips("copy", f"{t}/bg0.v", f"{t}/bg.v", "--interpretation", "srgb")
        # Portraits at 2x (a face about 180-360 px wide), mirrored for variety.
        tiles = []
        for i, face in enumerate(FACES):
            vips("resize", face, f"{t}/p{i}.v", 2.0)
            vips("flip", f"{t}/p{i}.v", f"{t}/q{i}.v", "horizontal")
            tiles += [f"{t}/p{i}.v", f"{t}/q{i}.v"]
        slots = [(120, 150), (1400, 200), (2750, 120), (300, 1750), (1600, 1800), (2900, 1700)]
        for faces in range(1, 7):
            current = f"{t}/bg.v"
            for k in range(faces):
                x, y = slots[k]
                nxt = f"{t}/c{faces}_{k}.v"
                vips("insert", current, tiles[k % len(tiles)], nxt, x, y)
                current = nxt
            name = os.path.join(out, f"faces{faces}.jpg")
            vips("copy", current, f"{name}[Q=90]")
            print(name)


if __name__ == "__main__":
    main()
