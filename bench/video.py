#!/usr/bin/env python3
"""SketchEase video benchmark: one run, one generated clip, ratios measured back to back.

The clip (made here, bench/corpus/clip1080.mp4): 60 s of 1080p30 H.264 with an AAC tone, the
example photos moving over a wall (two faces always, a third entering and leaving every 10 s).
Measures, in --repeat rounds each run back to back:
  - the transcode floor `ffmpeg -i in.mp4 -c:v libx264 -preset P -crf C -c:a copy out.mp4`
    with sketchease's default preset and CRF, and `sketchease video in.mp4 -f pencil`: wall
    time, peak RSS, stage times (--report); the ratio is the median of the rounds' ratios;
  - the real-time factor (seconds of video per second of work) at 1080p30;
  - deface 1.5.0 (PyPI, in a virtual environment under bench/.venv-deface) on the first
    --deface-seconds of the clip, against sketchease on the same part (pencil, and blur, the
    same kind of work deface does): frames a second;
  - RSS over a --soak-minutes clip (the clip repeated), sampled each second: peak, and the
    mean of the first, second and last tenth (flat = the second and last alike; the first holds
    the start-up).
Targets (issue 16): ≤ 1.5× the floor, ≥ 20× deface's throughput, ≥ 1.0× real time, peak RSS
≤ 300 MB and flat.
  - every style's CPU per face per frame on the first --styles-seconds of the clip (its
    CPU minus the `none` run's, over the faces on frames the report counts);
  - the group clip (bench/corpus/group1080.mp4, made here: 12 s of 1080p30, eight faces, six
    of them 50-80 px, from a dlib example photo and the two portraits moving): the floor and
    sketchease back to back as above, the faces found, and deface on its first
    --deface-seconds (default and at its fastest, --scale 640x360).
Usage: bench/video.py [--repeat N] [--deface-seconds S] [--soak-minutes M] [--styles-seconds S] [--style NAME] [--no-group | --group-only]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from run import sample_rss, timed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# SKETCHEASE_BIN: another build to measure (an A/B of two builds, each run against its own floor).
BIN = os.environ.get("SKETCHEASE_BIN") or os.path.join(ROOT, ".build/release/sketchease")
CORPUS = os.path.join(ROOT, "bench/corpus")
RESULTS = os.path.join(ROOT, "bench/results")
CLIP = os.path.join(CORPUS, "clip1080.mp4")
GROUP_CLIP = os.path.join(CORPUS, "group1080.mp4")
VENV = os.path.join(ROOT, "bench/.venv-deface")
PRESET, CRF = "veryfast", 18


def make_clip(path, seconds=60):
    """The example photos over a wall, moving; a tone. Deterministic."""
    render_clip(path, seconds, "0x9a8f80", ["grace_hopper.jpg", "astronaut.png"], 440, (
        "[1]crop=310:330:110:70,scale=-2:300,loop=-1:1:0,setpts=N/30/TB[a];"
        "[2]crop=210:240:120:10,scale=-2:340,loop=-1:1:0,setpts=N/30/TB[b];"
        "[2]crop=210:240:120:10,hflip,scale=-2:260,loop=-1:1:0,setpts=N/30/TB[c];"
        "[0][a]overlay=x='760+420*sin(2*PI*t/12)':y='160+60*sin(2*PI*t/7)':shortest=1[v1];"
        "[v1][b]overlay=x='200+120*sin(2*PI*t/9)':y='560+40*cos(2*PI*t/5)'[v2];"
        "[v2][c]overlay=x='if(lt(mod(t,20),10),1920-mod(t,20)*120,1920-(20-mod(t,20))*120)':y=620[v]"))


def make_group_clip(path, seconds=12):
    """A group of eight over a wall: dlib's 2008_002470.jpg (six faces of 50-80 px once
    enlarged) drifting, and the two portraits (faces of ~100 and ~160 px) moving; a tone.
    Deterministic."""
    render_clip(path, seconds, "0x8e8a84", ["faces/2008_002470.jpg", "grace_hopper.jpg", "astronaut.png"], 330, (
        "[1]scale=850:-2,loop=-1:1:0,setpts=N/30/TB[g];"
        "[2]crop=310:330:110:70,scale=-2:300,loop=-1:1:0,setpts=N/30/TB[a];"
        "[3]crop=210:240:120:10,scale=-2:280,loop=-1:1:0,setpts=N/30/TB[b];"
        "[0][g]overlay=x='120+90*sin(2*PI*t/8)':y='420+40*sin(2*PI*t/6)':shortest=1[v1];"
        "[v1][a]overlay=x='1180+140*sin(2*PI*t/10)':y='90+50*cos(2*PI*t/7)'[v2];"
        "[v2][b]overlay=x='1560-100*sin(2*PI*t/9)':y='640+30*sin(2*PI*t/5)'[v]"))


def render_clip(path, seconds, wall, pictures, tone, graph):
    """`pictures` (under examples/: the filter `graph`'s inputs 1, 2...) laid over a 1080p30 wall
    of colour `wall` (input 0) as `graph` places them, with a sine of `tone` Hz; H.264 and AAC,
    written whole or not at all."""
    e = os.path.join(ROOT, "examples")
    inputs = [arg for picture in pictures for arg in ("-i", os.path.join(e, picture))]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"color=c={wall}:s=1920x1080:r=30:d={seconds}", *inputs,
                    "-f", "lavfi", "-i", f"sine=frequency={tone}:sample_rate=48000:duration={seconds}",
                    "-filter_complex", graph, "-map", "[v]", "-map", f"{len(pictures) + 1}:a", "-c:v", "libx264", "-preset", "veryfast",
                    "-crf", "18", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", "-t", str(seconds), path + ".tmp.mp4"],
                   check=True)
    os.replace(path + ".tmp.mp4", path)


def cut(source, seconds, path):
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", source, "-t", str(seconds), "-c", "copy", path], check=True)


def floor(clip, work):
    return timed(["ffmpeg", "-v", "error", "-y", "-i", clip, "-c:v", "libx264", "-preset", PRESET, "-crf", str(CRF),
                  "-c:a", "copy", os.path.join(work, "floor.mp4")])


def ours(clip, work, style):
    stats = os.path.join(work, "stats.json")
    wall, rss = timed([BIN, "video", clip, "--out", os.path.join(work, "ours"), "--overwrite", "-f", style, "--report", stats])
    with open(stats) as f:
        entry = json.load(f)["clips"][0]
    return wall, rss, entry


def cpu_of(cmd):
    """CPU seconds (user + system) a child command used."""
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def styles():
    """The face styles `sketchease filters` lists (not the background-only ones)."""
    out = subprocess.run([BIN, "filters"], check=True, capture_output=True, text=True).stdout
    names = [line.split(" — ")[0] for line in out.splitlines() if " — " in line and not line.startswith(" ")]
    return [n for n in names if n not in ("chroma",)]


def per_face(clip, work, seconds):
    """Every style's CPU per face per frame on the first `seconds` of the clip: (its CPU - the
    `none` run's CPU, which decodes, detects, tracks and encodes the same) / faces on frames."""
    part = os.path.join(work, "styles.mp4")
    cut(clip, seconds, part)
    rows = {}
    for style in ["none"] + [s for s in styles() if s != "none"]:
        stats = os.path.join(work, "styles.json")
        cpu = cpu_of([BIN, "video", part, "--out", os.path.join(work, "styles"), "--overwrite", "-f", style, "--report", stats])
        with open(stats) as f:
            entry = json.load(f)["clips"][0]
        rows[style] = (cpu, entry.get("faceFrames") or 0, entry["frames"], entry.get("carriedFaceFrames") or 0)
    base = rows["none"][0]
    return rows, base


def deface(clip, work, *options):
    """deface 1.5.0 in its own virtual environment (made once); its wall time and peak RSS."""
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(os.path.join(VENV, "bin", "deface")):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([python, "-m", "pip", "install", "--quiet", "deface==1.5.0"], check=True)
    return timed([os.path.join(VENV, "bin", "deface"), clip, "-o", os.path.join(work, "deface.mp4"), *options])


def against_deface(clip, seconds, work, style, title):
    """The first `seconds` of `clip`: deface (default, and --scale 640x360) against sketchease
    (`style`, and blur, the same kind of work deface does), in frames a second; table lines."""
    part = os.path.join(work, "part.mp4")
    cut(clip, seconds, part)
    n = int(round(seconds * 30))
    d_wall, d_rss = deface(part, work)
    fast_wall, fast_rss = deface(part, work, "--scale", "640x360")
    mine = {s: ours(part, work, s) for s in (style, "blur")}
    lines = ["", f"| {title}, first {seconds:.0f} s ({n} frames) | frames a second | peak RSS | vs deface |",
             "| --- | ---: | ---: | ---: |",
             f"| deface 1.5.0 (CenterFace, blur) | {n / d_wall:.1f} | {d_rss:.0f} MB | 1× |",
             f"| deface 1.5.0 `--scale 640x360` (its fastest) | {n / fast_wall:.1f} | {fast_rss:.0f} MB | {d_wall / fast_wall:.1f}× |"]
    for s, (wall, rss, _) in mine.items():
        lines.append(f"| sketchease `-f {s}` | {n / wall:.1f} | {rss:.0f} MB | **{d_wall / wall:.1f}×** |")
    return lines


def soak(clip, minutes, work, style):
    """A long clip (the clip repeated), RSS sampled each second: peak, first and last tenth means."""
    listing = os.path.join(work, "list.txt")
    with open(listing, "w") as f:
        for _ in range(minutes):
            f.write(f"file '{clip}'\n")
    long = os.path.join(work, "long.mp4")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", listing, "-c", "copy", long], check=True)
    proc = subprocess.Popen([BIN, "video", long, "--out", os.path.join(work, "soak"), "--overwrite", "-f", style],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    start = time.perf_counter()
    samples = [rss for _, rss in sample_rss(proc, 1)]
    wall = time.perf_counter() - start
    tenth = max(1, len(samples) // 10)
    # The first tenth holds the start-up (frames filling the look-ahead and the queues, the
    # encoder's buffers, the first texture tiles: ~460 MB for the first ten seconds); growth is
    # read from the second tenth on.
    return (max(samples), statistics.mean(samples[:tenth]), statistics.mean(samples[tenth:2 * tenth]),
            statistics.mean(samples[-tenth:]), wall, proc.returncode)


def group(args, work):
    """The group clip: floor and sketchease back to back (--repeat rounds), faces found, and
    deface on its first --deface-seconds; table lines."""
    if not os.path.exists(GROUP_CLIP):
        print("bench: making the 12 s 1080p30 group clip", flush=True)
        make_group_clip(GROUP_CLIP)
    rounds = []
    for _ in range(args.repeat):
        f_wall, f_rss = floor(GROUP_CLIP, work)
        o_wall, o_rss, entry = ours(GROUP_CLIP, work, args.style)
        rounds.append((f_wall, o_wall, o_rss, entry))
        print(f"group round: floor {f_wall:.1f} s, ours {o_wall:.1f} s ({o_wall / f_wall:.2f}×), RSS {o_rss:.0f} MB", flush=True)
    f_wall = statistics.median(r[0] for r in rounds)
    o_wall = statistics.median(r[1] for r in rounds)
    ratio = statistics.median(r[1] / r[0] for r in rounds)
    entry = rounds[-1][3]
    frames, duration = entry["frames"], entry["duration"]
    faces = (entry.get("faceFrames") or 0) / max(1, frames)
    lines = ["", f"| group clip | frames | floor | sketchease `video -f {args.style}` | ratio | fps | real time | faces drawn a frame | peak RSS |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
             f"| 1080p30, {duration:.0f} s, 8 faces (6 of 50-80 px) | {frames} | {f_wall:.1f} s | {o_wall:.1f} s | **{ratio:.2f}×** | "
             f"{frames / o_wall:.1f} | **{duration / o_wall:.2f}×** | {faces:.1f} of 8 ({entry['tracks']} tracks) | "
             f"{max(r[2] for r in rounds):.0f} MB |"]
    if args.deface_seconds > 0:
        lines += against_deface(GROUP_CLIP, min(args.deface_seconds, duration), work, args.style, "the group clip")
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--style", default="pencil")
    ap.add_argument("--deface-seconds", type=float, default=10, help="0 = skip deface")
    ap.add_argument("--soak-minutes", type=int, default=10, help="0 = skip the long clip")
    ap.add_argument("--styles-seconds", type=float, default=4, help="0 = skip the per-style table")
    ap.add_argument("--no-group", dest="group", action="store_false", help="skip the group clip")
    ap.add_argument("--group-only", action="store_true", help="only the group clip")
    args = ap.parse_args()
    if not os.path.exists(CLIP):
        print("bench: making the 60 s 1080p30 clip", flush=True)
        make_clip(CLIP)
    work = tempfile.mkdtemp(prefix="sketchease-video-bench-")
    rounds = []
    for _ in range(0 if args.group_only else args.repeat):
        f_wall, f_rss = floor(CLIP, work)
        o_wall, o_rss, entry = ours(CLIP, work, args.style)
        rounds.append({"floor": f_wall, "floor_rss": f_rss, "ours": o_wall, "rss": o_rss, "entry": entry, "ratio": o_wall / f_wall,
                       "floor_mb": os.path.getsize(os.path.join(work, "floor.mp4")) / 1e6,
                       "ours_mb": os.path.getsize(os.path.join(work, "ours", os.path.basename(CLIP))) / 1e6})
        print(f"round: floor {f_wall:.1f} s, ours {o_wall:.1f} s ({o_wall / f_wall:.2f}×), RSS {f_rss:.0f} / {o_rss:.0f} MB", flush=True)
    lines = []
    if rounds:
        med = lambda key: statistics.median(r[key] for r in rounds)
        entry = rounds[-1]["entry"]
        frames, duration = entry["frames"], entry["duration"]
        stages = {k: statistics.median(r["entry"]["stages"][k] for r in rounds) for k in entry["stages"]}
        lines += [
            f"| clip | frames | floor `ffmpeg … -preset {PRESET} -crf {CRF}` | sketchease `video -f {args.style}` | ratio | fps | real time | peak RSS (floor / ours) | file (floor / ours) |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
            f"| 1080p30, {duration:.0f} s, 1-3 faces | {frames} | {med('floor'):.1f} s ({frames / med('floor'):.0f} fps) | "
            f"{med('ours'):.1f} s | **{med('ratio'):.2f}×** | {frames / med('ours'):.1f} | **{duration / med('ours'):.2f}×** | "
            f"{max(r['floor_rss'] for r in rounds):.0f} / **{max(r['rss'] for r in rounds):.0f} MB** | "
            f"{rounds[-1]['floor_mb']:.1f} / {rounds[-1]['ours_mb']:.1f} MB |",
            "",
            "Stage busy times, seconds (they overlap: stages run side by side): "
            + ", ".join(f"{k} {v:.1f}" for k, v in stages.items()) + f"; {entry['detections']} detections, {entry['tracks']} tracks; "
            f"{entry.get('carriedFaceFrames') or 0} of {entry.get('faceFrames') or 0} faces on frames laid as drawn on an earlier frame "
            "(they had only moved since).",
        ]
        print("\n".join(lines), flush=True)
    if args.deface_seconds > 0 and not args.group_only:
        table = against_deface(CLIP, args.deface_seconds, work, args.style, "the bench clip")
        lines += table
        print("\n".join(table), flush=True)
    if args.group:
        table = group(args, work)
        lines += table
        print("\n".join(table), flush=True)
    if args.styles_seconds > 0 and not args.group_only:
        rows, base = per_face(CLIP, work, args.styles_seconds)
        frames = rows["none"][2]
        lines += ["", f"Styles, first {args.styles_seconds:.0f} s ({frames} frames, {rows['none'][1]} faces on frames), "
                  "CPU per face per frame = (the style's CPU - `none`'s CPU) / faces on frames; faces drawn afresh (the others "
                  "laid as drawn on an earlier frame, having only moved), and the style's CPU over those alone (an upper bound "
                  "on what drawing a face costs):", "",
                  "| style | CPU, s | ms per face per frame | faces drawn afresh | ms per face drawn afresh |",
                  "| --- | ---: | ---: | ---: | ---: |"]
        for style, (cpu, faces, _, carried) in rows.items():
            per = (cpu - base) * 1000 / faces if faces and style != "none" else 0
            fresh = faces - carried
            drawn = (cpu - base) * 1000 / fresh if fresh and style != "none" else 0
            lines.append(f"| `{style}` | {cpu:.1f} | {'—' if style == 'none' else f'**{per:.1f}**'} | "
                         f"{'—' if style == 'none' else f'{fresh} of {faces}'} | {'—' if style == 'none' else f'{drawn:.1f}'} |")
        print("\n".join(lines[-(len(rows) + 2):]), flush=True)
    if args.soak_minutes > 0 and not args.group_only:
        peak, first, second, last, wall, rc = soak(CLIP, args.soak_minutes, work, args.style)
        lines += ["", f"- {args.soak_minutes}-minute 1080p30 clip (`-f {args.style}`, {wall / 60:.1f} min): peak RSS **{peak:.0f} MB**; "
                  f"mean RSS in the first tenth {first:.0f} MB (start-up included), the second {second:.0f} MB, the last {last:.0f} MB "
                  f"(growth after start-up {last - second:+.0f} MB; exit {rc})"]
        print(lines[-1], flush=True)
    load = os.getloadavg()
    header = [f"SketchEase video benchmark, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, "
              f"load average {load[0]:.1f} at the end, median of {args.repeat} rounds (floor and sketchease back to back).", ""]
    os.makedirs(RESULTS, exist_ok=True)
    with open(os.path.join(RESULTS, "video.md"), "w") as f:
        f.write("\n".join(header + lines) + "\n")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
