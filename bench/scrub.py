#!/usr/bin/env python3
"""Clip previews: how long a scrub to a new frame takes, as the browser asks for it.

`sketchease serve` over a folder holding one clip (the first --seconds of the video bench's
1080p30 clip, bench/corpus/clip1080.mp4: three faces at most), opened as the page opens it
(`POST /api/clip/open`), its tracks styled (`POST /api/clip/edit`, --style on every track), then
--scrubs frames picked at random (seeded) asked for as the player asks (`GET /api/clip/frame`):
the time from the request to the whole JPEG back, median and 90th percentile; `none` first,
the same frames, for what seeking and decoding alone cost. The page adds its own decode and
paint (a few tens of milliseconds). Targets (issue 25): a scrub to a new frame of a 1080p clip
with three styled tracks shown in <= 300 ms.

Usage: python3 bench/scrub.py [--bin PATH] [--seconds 10] [--scrubs 20] [--style pencil] [--seed 7]
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live import free_port, stop_server  # noqa: E402
import video  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("SKETCHEASE_BIN") or os.path.join(ROOT, ".build/release/sketchease")


def start(binary, folder, out, log_path):
    """`serve FOLDER` on a free port; its process, base URL and token once it listens."""
    log = open(log_path, "w+")
    server = subprocess.Popen([binary, "serve", folder, "--out", out, "--port", str(free_port())],
                              stdout=log, stderr=subprocess.STDOUT)
    for _ in range(240):
        log.seek(0)
        for word in log.read().split():
            if word.startswith("http://") and "token=" in word:
                url = urllib.parse.urlparse(word)
                return server, f"{url.scheme}://{url.netloc}", urllib.parse.parse_qs(url.query)["token"][0]
        time.sleep(0.25)
    server.kill()
    raise SystemExit(f"serve did not start; see {log_path}")


def call(base, token, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    if method == "GET":  # reads take the token in the URL, as the page's images do; changes in a header
        path += ("&" if "?" in path else "?") + urllib.parse.urlencode({"token": token})
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"X-SketchEase-Token": token, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=600) as answer:
            return answer.read()
    except urllib.error.HTTPError as error:
        raise SystemExit(f"{method} {path}: {error.code} {error.read().decode(errors='replace')}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=BIN)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--scrubs", type=int, default=20)
    ap.add_argument("--style", default="pencil")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    if not os.path.exists(video.CLIP):
        print("bench: making the 60 s 1080p30 clip", flush=True)
        video.make_clip(video.CLIP)
    work = tempfile.mkdtemp(prefix="sketchease-scrub-bench-")
    folder, out = os.path.join(work, "in"), os.path.join(work, "out")
    os.makedirs(folder)
    clip = "scrub.mp4"
    video.cut(video.CLIP, args.seconds, os.path.join(folder, clip))
    server, base, token = start(args.bin, folder, out, os.path.join(work, "serve.log"))
    try:
        listing = json.loads(call(base, token, "GET", "/api/library"))
        clip = next(p["id"] for p in listing["photos"] if p["id"].endswith("/" + clip))
        started = time.monotonic()
        state = json.loads(call(base, token, "POST", "/api/clip/open", {"clip": clip}))
        opened = time.monotonic() - started
        frames, tracks = state["frameCount"], [t["id"] for t in state["tracks"]]
        picks = random.Random(args.seed).sample(range(frames), min(args.scrubs, frames))
        rows = []
        for revision, style in enumerate(["none", args.style], 1):
            if style != "none":
                call(base, token, "POST", "/api/clip/edit",
                     {"clip": clip, "edit": {"kind": "style", "faces": tracks, "style": {"filter": style}}})
            times = []
            for n in picks:
                query = urllib.parse.urlencode({"clip": clip, "frame": n, "rev": revision})
                t = time.monotonic()
                call(base, token, "GET", f"/api/clip/frame?{query}")
                times.append((time.monotonic() - t) * 1000)
            times.sort()
            rows.append((style, statistics.median(times), times[int(0.9 * (len(times) - 1))], times[-1]))
    finally:
        stop_server(server)
    lines = [f"Clip previews, {time.strftime('%Y-%m-%d %H:%M')}: the bench clip's first {args.seconds:.0f} s "
             f"(1080p30, {frames} frames, {len(tracks)} tracks; opened in {opened:.1f} s), {len(picks)} scrubs to frames "
             f"picked at random, each asked for once:", "",
             "| tracks in | median | 90th percentile | slowest |", "| --- | ---: | ---: | ---: |"]
    lines += [f"| `{s}` | **{m:.0f} ms** | {p:.0f} ms | {w:.0f} ms |" for s, m, p, w in rows]
    print("\n".join(lines))
    os.makedirs(os.path.join(ROOT, "bench/results"), exist_ok=True)
    with open(os.path.join(ROOT, "bench/results/scrub.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
