#!/usr/bin/env python3
"""SketchEase benchmark: one run, same files, ratios against the I/O floor and other tools.

Measures on 12-megapixel photos with 1-6 faces (bench/make_corpus.py):
  - per-image wall time of `sketchease batch` (pencil) and its stages (decode, detect, filter,
    encode, from --report), next to `vips copy x.jpg x.png` (the I/O floor), ImageMagick
    `-charcoal 2` and G'MIC `pencilbw 0.3,60`; floor and sketchease are measured back to back
    in each of --repeat rounds and each ratio is the median of the rounds' ratios; next to it
    each photo's PNG size and the floor's (the floor writes libvips' defaults, zlib level 6 with
    unfiltered rows; sketchease its own default, level 2 with rows filtered "up");
  - throughput with --jobs 2 against --jobs 1 (24 photos, back-to-back pairs, median ratio);
  - peak RSS for one photo, and RSS over a long batch (default 500 photos) to show it stays flat;
  - group photos with known faces (bench/GroupPhotos, made from examples/ and examples/faces/):
    two 24 MP ones measured like the 12 MP corpus (time against the floor, stages, peak RSS) plus
    detection's own memory (peak RSS of `detect` less that of a decode-only run), and recall and
    precision of `detect` on those and five more (4.7 to 50 MP, a dim one), against the coarse
    pass alone (`--min-face 0`, the old default); and a sideways one with each `--rotations`.
Targets (issue 6): 3 faces end to end <= 1.5x the floor; jobs 2 >= 1.7x jobs 1 throughput;
peak RSS <= 200 MB per 12 MP photo and no growth over the long batch. Issue 15: the 24 MP group
photo <= 2x its floor, detection's memory <= 150 MB, recall and precision >= 0.97.
Usage: bench/run.py [--soak N] [--repeat N] [--skip-others] [--skip-groups]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# SKETCHEASE_BIN: another build to measure (an A/B of two builds, each run against its own floor).
BIN = os.environ.get("SKETCHEASE_BIN") or os.path.join(ROOT, ".build/release/sketchease")
GROUP_TOOL = os.path.join(ROOT, ".build/release/GroupPhotos")
CORPUS = os.path.join(ROOT, "bench/corpus")
GROUPS = os.path.join(ROOT, "bench/corpus-groups")
# Group photos: name, size, grid of example photos, smallest face of each (px), backdrop,
# darkness, seed, turn. The first two are timed; all are scored.
TIMED_GROUPS = [
    ("group24-grass.jpg", "6000x4000", "3x3", "24-40", "grass", 0, 3, 0),
    ("group24-studio.jpg", "6000x4000", "3x3", "24-40", "studio", 0, 3, 0),
]
SCORED_GROUPS = TIMED_GROUPS + [
    ("mosaic5.jpg", "2500x1880", "4x5", "20-60", "grass", 0, 4, 0),
    ("group12.jpg", "4000x3000", "4x5", "24-30", "studio", 0, 3, 0),
    ("group24-small.jpg", "6000x4000", "4x6", "24-32", "grass", 0, 2, 0),
    ("group50.jpg", "8660x5773", "6x8", "24-100", "grass", 0, 5, 0),
    ("group8-dim.jpg", "3500x2300", "4x5", "24-48", "grass", 0.6, 6, 0),
]
SIDEWAYS = ("group12-sideways.jpg", "4000x3000", "3x4", "30-60", "studio", 0, 7, 90)
RESULTS = os.path.join(ROOT, "bench/results")


def timed(cmd, **kw):
    """Wall seconds and peak RSS (MB, from GNU time) of one command."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        start = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", t.name, *cmd], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
        wall = time.perf_counter() - start
        rss_kb = int(t.read().strip().splitlines()[-1])
    return wall, rss_kb / 1024


def sketchease_batch(photos, out):
    """All photos in one batch process: per photo, its in-batch wall time and stages."""
    stats = os.path.join(out, "stats.json")
    subprocess.run([BIN, "batch", *photos, "--out", out, "--overwrite", "--jobs", "1", "--report", stats], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(stats) as f:
        return {e["input"]: (e["seconds"], e["stages"]) for e in json.load(f)["photos"]}


def rounds(photos, work, repeat):
    """Per photo, `repeat` rounds of: the floor, the photo's time in a batch over all photos,
    and the photo alone in a process of its own. Each round runs its three measures back to
    back, so each ratio compares runs that saw the same machine (its speed drifts by 10-20%
    over minutes); a photo's ratio is the median of its rounds' ratios."""
    seen = {p: [] for p in photos}
    for _ in range(repeat):
        floors, floor_sizes = {}, {}
        for p in photos:
            floor_png = os.path.join(work, "floor.png")
            floors[p] = timed(["vips", "copy", p, floor_png])[0]
            floor_sizes[p] = os.path.getsize(floor_png)
        batch = sketchease_batch(photos, os.path.join(work, "batch"))
        for p in photos:
            alone, rss = timed([BIN, "batch", p, "--out", os.path.join(work, "se"), "--overwrite"])
            ours = os.path.join(work, "batch", os.path.splitext(os.path.basename(p))[0] + ".png")
            seen[p].append({"floor": floors[p], "wall": batch[p][0], "stages": batch[p][1],
                            "alone": alone, "rss": rss,
                            "floor_size": floor_sizes[p], "size": os.path.getsize(ours)})
    result = {}
    for p, runs in seen.items():
        med = lambda f: statistics.median(f(r) for r in runs)
        result[p] = {
            "floor": med(lambda r: r["floor"]), "wall": med(lambda r: r["wall"]), "alone": med(lambda r: r["alone"]),
            "ratio": med(lambda r: r["wall"] / r["floor"]), "alone_ratio": med(lambda r: r["alone"] / r["floor"]),
            "stages": {k: med(lambda r: r["stages"][k]) for k in runs[0]["stages"]},
            "rss": max(r["rss"] for r in runs),
            "floor_size": runs[-1]["floor_size"] / 1e6, "size": runs[-1]["size"] / 1e6,
        }
    return result


def per_style(photo, out, repeat):
    """For every style: the photo's in-batch time and its filter stage (median of `repeat`)."""
    listing = subprocess.run([BIN, "filters"], capture_output=True, text=True, check=True).stdout
    styles = [line.split(" ")[0] for line in listing.splitlines() if " — " in line and not line.startswith(" ")]
    rows = []
    for style in styles:
        walls, filters = [], []
        for _ in range(repeat):
            stats = os.path.join(out, "style.json")
            subprocess.run([BIN, "batch", photo, "--out", out, "--overwrite", "--jobs", "1", "-f", style, "--report", stats],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            with open(stats) as f:
                entry = json.load(f)["photos"][0]
            walls.append(entry["seconds"])
            filters.append(entry["stages"]["filter"])
        rows.append((style, statistics.median(walls), statistics.median(filters)))
    return rows


def throughput(folder, jobs, out):
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([BIN, "batch", folder, "--out", out, "--jobs", str(jobs)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    written = len([n for n in os.listdir(out) if n.endswith(".png")])
    if written != len(os.listdir(folder)):
        sys.exit(f"bench: --jobs {jobs} wrote {written} of {len(os.listdir(folder))} photos")
    return written / seconds


def linked_corpus(count):
    """A folder of `count` photos (copies of the corpus in turn): a photo reached twice, by
    another name, a symbolic or a hard link, is only sketched once, so a longer batch needs
    files of its own."""
    folder = tempfile.mkdtemp(prefix="sketchease-corpus-")
    names = sorted(n for n in os.listdir(CORPUS) if n.endswith(".jpg"))  # not the video bench's clip
    for i in range(count):
        shutil.copyfile(os.path.join(CORPUS, names[i % len(names)]), os.path.join(folder, f"p{i:04d}.jpg"))
    return folder


def sample_rss(proc, every, extra=lambda: None):
    """(extra(), RSS in MB) of a running process every `every` seconds, until it ends."""
    samples = []

    def sample():
        while proc.poll() is None:
            try:
                with open(f"/proc/{proc.pid}/status") as f:
                    for line in f:
                        if line.startswith("VmRSS:"):
                            samples.append((extra(), int(line.split()[1]) / 1024))
            except (FileNotFoundError, ProcessLookupError):
                pass
            time.sleep(every)

    sampler = threading.Thread(target=sample)
    sampler.start()
    proc.wait()
    sampler.join()
    return samples


def soak(count, out, jobs):
    """Runs one long batch, sampling RSS; returns (peak MB, mean MB of first and last tenth)."""
    folder = linked_corpus(count)
    shutil.rmtree(out, ignore_errors=True)
    proc = subprocess.Popen([BIN, "batch", folder, "--out", out, "--jobs", str(jobs)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    samples = sample_rss(proc, 0.2, lambda: len(os.listdir(out)) if os.path.isdir(out) else 0)
    shutil.rmtree(folder)
    tenth = max(1, count // 10)
    first = [r for d, r in samples if tenth <= d < 2 * tenth] or [r for _, r in samples[: len(samples) // 10 or 1]]
    last = [r for d, r in samples if d >= count - tenth] or [r for _, r in samples[-(len(samples) // 10 or 1):]]
    return max(r for _, r in samples), statistics.mean(first), statistics.mean(last), proc.returncode


def make_groups():
    """The group photos and their faces (JSON beside each), made once."""
    os.makedirs(GROUPS, exist_ok=True)
    for name, size, grid, faces, backdrop, darkness, seed, turn in SCORED_GROUPS + [SIDEWAYS]:
        path = os.path.join(GROUPS, name)
        if not os.path.exists(path):
            subprocess.run([GROUP_TOOL, "make", path, size, grid, faces, backdrop, str(darkness), str(seed), str(turn)],
                           check=True, stdout=subprocess.DEVNULL)
    return [os.path.join(GROUPS, g[0]) for g in TIMED_GROUPS]


def score(photo, *options):
    """Recall and precision of `sketchease detect` on a group photo (faces of 24 px and more),
    and its wall time and peak RSS."""
    with tempfile.NamedTemporaryFile("w+", suffix=".json") as out, tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        start = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", t.name, BIN, "detect", "--json", photo, *options],
                       check=True, stdout=out, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        rss = int(t.read().strip().splitlines()[-1]) / 1024
        truth = os.path.splitext(photo)[0] + ".json"
        result = json.loads(subprocess.run([GROUP_TOOL, "score", truth, out.name, "24"], check=True,
                                           capture_output=True, text=True).stdout)
    result.update(seconds=wall, rss=rss)
    return result


def detection_memory(photo):
    """Detection's own memory: peak RSS of `detect` less that of a run that decodes the photo
    and runs the network only on a 64 px copy."""
    full = timed([BIN, "detect", photo])[1]
    decode_only = timed([BIN, "detect", photo, "--min-face", "0", "--detect-size", "64"])[1]
    return full - decode_only


def group_report(groups, measured, repeat):
    lines = ["", "Group photos (bench/GroupPhotos: example photos on a backdrop, faces known by construction; "
             "faces of 24 px and more counted):", "",
             "| photo | floor `vips copy` | sketchease in batch | ratio | decode | detect | filter | encode | alone | peak RSS | detection memory | faces | recall | precision | recall, `--min-face 0` |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    summary = []
    for photo in groups:
        m = measured[photo]
        st = m["stages"]
        memory = detection_memory(photo)
        new, old = score(photo), score(photo, "--min-face", "0")
        lines.append(f"| {os.path.basename(photo)} | {m['floor']:.2f} s | {m['wall']:.2f} s | {m['ratio']:.2f}× | {st['decode']:.2f} | "
                     f"{st['detect']:.2f} | {st['filter']:.2f} | {st['encode']:.2f} | {m['alone']:.2f} s | {m['rss']:.0f} MB | "
                     f"{memory:.0f} MB | {new['wanted']:.0f} | {new['recall']:.3f} | {new['precision']:.3f} | {old['recall']:.3f} |")
        print(lines[-1], flush=True)
        summary.append(f"- {os.path.basename(photo)}: **{m['ratio']:.2f}×** the floor in a batch (target ≤ 2×), detection "
                       f"memory **{memory:.0f} MB** (target ≤ 150 MB), recall {new['recall']:.3f}, precision {new['precision']:.3f}")
    lines += ["", "| photo | size | faces | recall | precision | detect | recall, `--min-face 0` | detect, `--min-face 0` |",
              "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    totals = {"new": [0, 0, 0, 0], "old": [0, 0]}
    for name, size, *_ in SCORED_GROUPS:
        photo = os.path.join(GROUPS, name)
        new, old = score(photo), score(photo, "--min-face", "0")
        totals["new"] = [a + b for a, b in zip(totals["new"], [new["wanted"] - new["missed"], new["wanted"],
                                                                 new["found"] - new["false_positives"], new["found"]])]
        totals["old"] = [a + b for a, b in zip(totals["old"], [old["wanted"] - old["missed"], old["wanted"]])]
        lines.append(f"| {name} | {size} | {new['wanted']:.0f} | {new['recall']:.3f} | {new['precision']:.3f} | {new['seconds']:.2f} s | "
                     f"{old['recall']:.3f} | {old['seconds']:.2f} s |")
        print(lines[-1], flush=True)
    n = totals["new"]
    summary.append(f"- all {len(SCORED_GROUPS)} group photos: recall **{n[0] / n[1]:.3f}** ({n[0]:.0f}/{n[1]:.0f}), precision "
                   f"**{n[2] / max(1, n[3]):.3f}** (target ≥ 0.97 each); the coarse pass alone: recall {totals['old'][0] / totals['old'][1]:.3f}")
    sideways = os.path.join(GROUPS, SIDEWAYS[0])
    lines += ["", f"A group photo lying on its side ({SIDEWAYS[0]}, {SIDEWAYS[1]} turned a quarter turn):", "",
              "| `--rotations` | recall | precision | detect |", "| --- | ---: | ---: | ---: |"]
    for mode in ["off", "fallback", "always"]:
        r = score(sideways, "--rotations", mode)
        lines.append(f"| {mode} | {r['recall']:.3f} | {r['precision']:.3f} | {r['seconds']:.2f} s |")
        print(lines[-1], flush=True)
    return lines, summary


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--soak", type=int, default=500, help="photos in the long batch (0 = skip)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-others", action="store_true", help="skip ImageMagick and G'MIC")
    ap.add_argument("--skip-groups", action="store_true", help="skip the group photos")
    args = ap.parse_args()
    if not os.path.isdir(CORPUS) or len(os.listdir(CORPUS)) < 6:
        subprocess.run([sys.executable, os.path.join(ROOT, "bench/make_corpus.py"), CORPUS], check=True,
                       stdout=subprocess.DEVNULL)
    photos = [os.path.join(CORPUS, f"faces{n}.jpg") for n in range(1, 7)]
    groups = [] if args.skip_groups else make_groups()
    work = tempfile.mkdtemp(prefix="sketchease-bench-")
    lines = ["| photo (12 MP) | floor `vips copy` | sketchease in batch | ratio | decode | detect | filter | encode | alone (with start-up) | ratio | peak RSS | PNG size (floor → ours) | IM `-charcoal 2` | G'MIC `pencilbw` |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    ratios, alone_ratios = {}, {}
    peak_rss = 0.0
    measured = rounds(photos + groups, work, args.repeat)
    for photo in photos:
        name = os.path.basename(photo)
        m = measured[photo]
        floor, wall, alone, st, rss = m["floor"], m["wall"], m["alone"], m["stages"], m["rss"]
        peak_rss = max(peak_rss, rss)
        ratios[name] = m["ratio"]
        alone_ratios[name] = m["alone_ratio"]
        im = gm = "–"
        if not args.skip_others:
            if shutil.which("convert") and os.path.exists("/usr/bin/convert"):
                t, _ = timed(["/usr/bin/convert", photo, "-charcoal", "2", os.path.join(work, "im.png")])
                im = f"{t:.2f} s ({t / floor:.1f}×)"
            if shutil.which("gmic"):
                t, _ = timed(["gmic", photo, "pencilbw", "0.3,60", "-o", os.path.join(work, "gm.png")])
                gm = f"{t:.2f} s ({t / floor:.1f}×)"
        lines.append(f"| {name} | {floor:.2f} s | {wall:.2f} s | {ratios[name]:.2f}× | {st['decode']:.2f} | "
                     f"{st['detect']:.2f} | {st['filter']:.2f} | {st['encode']:.2f} | {alone:.2f} s | {alone_ratios[name]:.2f}× | "
                     f"{rss:.0f} MB | {m['floor_size']:.1f} → {m['size']:.1f} MB | {im} | {gm} |")
        print(lines[-1], flush=True)
    group_lines, group_summary = group_report(groups, measured, args.repeat) if groups else ([], [])
    styles = per_style(photos[2], os.path.join(work, "styles"), args.repeat)
    style_lines = ["", "Per style, faces3.jpg (12 MP, 3 faces), in seconds:", "",
                   "| style | filter stage | whole photo |", "| --- | ---: | ---: |"]
    style_lines += [f"| `{name}` | {flt:.2f} | {wall:.2f} |" for name, wall, flt in styles]
    print("\n".join(style_lines), flush=True)
    # Throughput is a steady-state measure: 24 photos, so the start (model loading) and the
    # end (the last photo alone on one core) weigh little. Each --jobs 1 run is paired with a
    # --jobs 2 run straight after it, so both see the same machine; the ratio reported is the
    # median of the pairs' ratios (this machine's speed drifts by 10-20% over minutes).
    batch = linked_corpus(24)
    pairs = []
    for _ in range(args.repeat):
        one = throughput(batch, 1, os.path.join(work, "j1"))
        two = throughput(batch, 2, os.path.join(work, "j2"))
        pairs.append((one, two, two / one))
    shutil.rmtree(batch)
    t1 = statistics.median(p[0] for p in pairs)
    t2 = statistics.median(p[1] for p in pairs)
    scaling = statistics.median(p[2] for p in pairs)
    spread = ", ".join(f"{p[2]:.2f}" for p in pairs)
    summary = [
        "",
        f"- 3 faces end to end: **{ratios['faces3.jpg']:.2f}×** the vips-copy floor per photo in a batch, "
        f"{alone_ratios['faces3.jpg']:.2f}× as a one-photo run with start-up (target ≤ 1.5×); its PNG "
        f"{measured[photos[2]]['size']:.1f} MB against the floor's {measured[photos[2]]['floor_size']:.1f} MB",
        f"- throughput on 24 photos: jobs 1 {t1:.2f}/s, jobs 2 {t2:.2f}/s: **{scaling:.2f}×** "
        f"(median of {len(pairs)} back-to-back pairs: {spread}; target ≥ 1.7×)",
        f"- peak RSS for one 12 MP photo: **{peak_rss:.0f} MB** (target ≤ 200 MB)",
    ]
    summary += group_summary
    if args.soak:
        peak, first, last, rc = soak(args.soak, os.path.join(work, "soak"), 1)
        summary.append(f"- {args.soak}-photo batch (jobs 1): peak RSS **{peak:.0f} MB**; mean RSS in the first tenth "
                       f"{first:.0f} MB, last tenth {last:.0f} MB (growth {last - first:+.0f} MB; exit {rc})")
    cpu = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    header = [f"SketchEase benchmark, {time.strftime('%Y-%m-%d %H:%M')}, {cpu} cores, median of {args.repeat} runs; "
              "stage columns in seconds. 'In batch' is the photo's own time in one `batch` run over the corpus; "
              "'alone' is a whole process for that one photo, start-up and model loading included. Each run "
              "measures the floor, the batch and the one-photo processes back to back; a ratio is the median "
              "of the runs' ratios.", ""]
    report = "\n".join(header + lines + group_lines + style_lines + summary)
    print("\n".join(summary))
    os.makedirs(RESULTS, exist_ok=True)
    with open(os.path.join(RESULTS, "latest.md"), "w") as f:
        f.write(report + "\n")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
