#!/usr/bin/env python3
"""Live benchmark: `sketchease serve --live` fed camera frames as the page feeds them.

The page sends a frame, waits for the styled one to come back, then sends the next (with
`Live.lanes` at 2, each of two lanes does so, showing its frame unless the other showed a newer
one; the server follows frames in order and draws them side by side). This script does the same
over loopback (`--in-flight` lanes) with frames of the example photos panning past (two faces), for `--seconds` per
style, and reports frames per second, the round trip (median and 95th percentile: a frame
leaving the "camera" to its styled JPEG back, without the page's own decode and paint), and
the server's memory at the start and end of the run (`--minutes` for the 10-minute soak).

`--page` measures in the page instead, as a user sees it: headless Chromium (Debian's
`chromium` and `chromium-driver`) opens `serve --live` with the same frames as its fake camera
(30 frames a second), and the page's own counters give the frames shown a second and the time
from a frame leaving the camera to its styled picture drawn on screen. The browser shares the
machine's cores with the server, as it does on a laptop.

Usage: python3 bench/live.py [--bin PATH] [--size 640x480] [--seconds 20] [--styles none,pencil] [--page]
"""
import argparse
import http.client
import json
import math
import os
import re
import shutil
import socket
import signal
import statistics
import urllib.parse
import urllib.request
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def frames(width, height, count, work):
    """`count` RGBA frames of `width`×`height`: Grace Hopper and the astronaut side by side, as
    two people in front of a camera, the view swaying slowly across them and back (both faces
    in it, ~20 % of the frame's height)."""
    canvas = os.path.join(work, "canvas.v")
    left, right = os.path.join(ROOT, "examples/grace_hopper.jpg"), os.path.join(ROOT, "examples/astronaut.png")
    run = lambda *a: subprocess.run(["vips", *a], check=True, capture_output=True)
    tall = int(height * 0.75)
    run("thumbnail", left, os.path.join(work, "l.v"), "10000", "--height", str(tall))
    run("thumbnail", right, os.path.join(work, "r.v"), "10000", "--height", str(tall))
    run("extract_band", os.path.join(work, "r.v"), os.path.join(work, "r3.v"), "0", "--n", "3")
    run("join", os.path.join(work, "l.v"), os.path.join(work, "r3.v"), os.path.join(work, "j.v"), "horizontal")
    out = subprocess.run(["vipsheader", "-f", "width", os.path.join(work, "j.v")], check=True, capture_output=True, text=True)
    canvas_width = max(width, int(out.stdout)) + width // 5
    run("embed", os.path.join(work, "j.v"), os.path.join(work, "e.v"), str((canvas_width - int(out.stdout)) // 2),
        str((height - tall) // 2), str(canvas_width), str(height), "--extend", "background", "--background", "128 128 128")
    run("bandjoin_const", os.path.join(work, "e.v"), canvas, "255")
    raw = os.path.join(work, "canvas.raw")
    run("rawsave", canvas, raw)
    data = open(raw, "rb").read()
    span = canvas_width - width
    result = []
    for i in range(count):
        x = int(span * (0.5 - 0.5 * math.cos(2 * math.pi * i / count)))
        rows = [data[(y * canvas_width + x) * 4:(y * canvas_width + x + width) * 4] for y in range(height)]
        result.append(b"".join(rows))
    return result


def cpu_seconds(pid):
    """The CPU time (user and system) a process has used so far."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return float("nan")


def rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(binary, style, work, tag):
    """`serve --live` on a free port for `style`; its process and its URL (with the token) once it
    listens."""
    folder, out = os.path.join(work, "in"), os.path.join(work, f"{tag}-out-{style}")
    os.makedirs(folder, exist_ok=True)
    log = open(os.path.join(work, f"{tag}-serve-{style}.log"), "w+")
    server = subprocess.Popen([binary, "serve", folder, "--out", out, "--port", str(free_port()), "--live", "-f", style],
                              stdout=log, stderr=subprocess.STDOUT)
    for _ in range(240):
        log.seek(0)
        m = re.search(r"(http://\S+token=[0-9a-f]+\S*)", log.read())
        if m:
            return server, m.group(1)
        time.sleep(0.25)
    server.kill()
    raise SystemExit(f"serve did not start; see {log.name}")


def stop_server(server):
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()


def run_style(binary, style, size, seconds, pictures, work, in_flight=2):
    width, height = size
    server, url = start_server(binary, style, work, "loopback")
    try:
        address = urllib.parse.urlsplit(url)
        token = urllib.parse.parse_qs(address.query)["token"][0]
        session = f"bench-{style}"
        lock = threading.Lock()
        state = {"n": 0, "newest": -1, "shown": 0, "dropped": 0, "latencies": [], "counting": False, "stop": False,
                 "error": None}
        begin = time.monotonic()

        def lane():
            # As the page's lanes: each sends the newest frame, waits for its answer, shows it
            # unless a newer one was shown already.
            conn = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
            while not state["stop"]:
                with lock:
                    n = state["n"]
                    state["n"] += 1
                    t = (time.monotonic() - begin)
                frame = pictures[n % len(pictures)]
                sent = time.monotonic()
                conn.request("POST", f"/api/live/frame?session={session}&w={width}&h={height}&t={t:.3f}", body=frame,
                             headers={"X-SketchEase-Token": token, "Content-Type": "application/octet-stream"})
                response = conn.getresponse()
                response.read()
                back = time.monotonic()
                with lock:
                    if response.status == 429:
                        state["dropped"] += 1
                        continue
                    if response.status not in (200, 204):
                        state["error"], state["stop"] = f"frame {n}: HTTP {response.status}", True
                        return
                    number = int(response.getheader("X-SketchEase-Frame") or -1)
                    if response.status == 200 and number > state["newest"]:
                        state["newest"] = number
                        if state["counting"]:
                            state["shown"] += 1
                            state["latencies"].append((back - sent) * 1000)

        threads = [threading.Thread(target=lane) for _ in range(in_flight)]
        for thread in threads:
            thread.start()
        # Warm-up: the detector and the first mattes.
        time.sleep(2)
        start_rss = rss_mb(server.pid)
        with lock:
            state["counting"], counted_from, start_cpu = True, time.monotonic(), cpu_seconds(server.pid)
        time.sleep(seconds)
        with lock:
            state["counting"], elapsed, end_cpu = False, time.monotonic() - counted_from, cpu_seconds(server.pid)
            shown, latencies = state["shown"], sorted(state["latencies"])
        state["stop"] = True
        for thread in threads:
            thread.join()
        if state["error"]:
            raise SystemExit(state["error"])
        end_rss = rss_mb(server.pid)
        return {
            "style": style, "fps": shown / elapsed, "median_ms": statistics.median(latencies),
            "p95_ms": latencies[int(0.95 * (len(latencies) - 1))], "frames": shown,
            "rss_start": start_rss, "rss_end": end_rss, "cpu_ms": 1000 * (end_cpu - start_cpu) / max(1, shown),
        }
    finally:
        stop_server(server)


def webdriver(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=180) as response:
        return json.loads(response.read() or b"null").get("value")


def run_page(binary, style, size, seconds, pictures, work):
    """The same run measured in the page: Chromium's fake camera plays the frames."""
    width, height = size
    raw, camera = os.path.join(work, "camera.rgba"), os.path.join(work, "camera.y4m")
    if not os.path.exists(camera):
        with open(raw, "wb") as f:
            for frame in pictures:
                f.write(frame)
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", f"{width}x{height}",
                        "-framerate", "30", "-i", raw, "-pix_fmt", "yuv420p", camera], check=True)
    server, url = start_server(binary, style, work, "page")
    driver_port = free_port()
    driver = subprocess.Popen(["chromedriver", f"--port={driver_port}"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    session = None
    try:
        for _ in range(100):
            try:
                webdriver(driver_port, "GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900",
                "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                f"--use-file-for-fake-video-capture={camera}"]
        made = webdriver(driver_port, "POST", "/session", {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": args}}}})
        session = made["sessionId"]
        webdriver(driver_port, "POST", f"/session/{session}/url", {"url": url})
        script = lambda js: webdriver(driver_port, "POST", f"/session/{session}/execute/sync", {"script": js, "args": []})
        deadline = time.monotonic() + 180
        while (script("return window.sketchease?.live?.stats?.shown ?? 0") or 0) < 10:
            if time.monotonic() > deadline:
                raise SystemExit("the page showed no live frames in 3 minutes")
            time.sleep(0.5)
        time.sleep(2)
        first = script("return {shown: window.sketchease.live.stats.shown, at: performance.now()}")
        start_rss, start_cpu = rss_mb(server.pid), cpu_seconds(server.pid)
        time.sleep(seconds)
        last = script("return {shown: window.sketchease.live.stats.shown, at: performance.now(), "
                      "latencies: window.sketchease.live.stats.latencies.slice(-Math.max(1, window.sketchease.live.stats.shown - %d))}"
                      % first["shown"])
        end_rss, end_cpu = rss_mb(server.pid), cpu_seconds(server.pid)
        shown = last["shown"] - first["shown"]
        latencies = sorted(last["latencies"])
        return {
            "style": style, "fps": shown / ((last["at"] - first["at"]) / 1000), "frames": shown,
            "median_ms": statistics.median(latencies), "p95_ms": latencies[int(0.95 * (len(latencies) - 1))],
            "rss_start": start_rss, "rss_end": end_rss, "cpu_ms": 1000 * (end_cpu - start_cpu) / max(1, shown),
        }
    finally:
        if session:
            try:
                webdriver(driver_port, "DELETE", f"/session/{session}")
            except OSError:
                pass
        os.killpg(driver.pid, signal.SIGKILL)
        stop_server(server)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build/release/sketchease"))
    parser.add_argument("--size", default="640x480")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--minutes", type=float, default=0, help="run pencil this long instead (memory soak)")
    parser.add_argument("--styles", default="none,pencil")
    parser.add_argument("--page", action="store_true", help="measure in headless Chromium's page (fake camera)")
    parser.add_argument("--in-flight", type=int, default=1,
                        help="over loopback: frames in flight at once, as the page's Live.lanes (1)")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    work = tempfile.mkdtemp(prefix="sketchease-live-")
    try:
        pictures = frames(width, height, 180 if args.page else 90, work)
        styles = ["pencil"] if args.minutes else args.styles.split(",")
        seconds = args.minutes * 60 if args.minutes else args.seconds
        load = os.getloadavg()[0]
        where = "in the page (headless Chromium, fake camera at 30 fps)" if args.page else f"over loopback, {args.in_flight} frame(s) in flight as the page sends them"
        print(f"SketchEase Live benchmark, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, "
              f"{width}×{height}, two faces panning, {seconds:.0f} s per style, {where}, load average {load:.1f} at the start.\n")
        print("| style | frames shown | fps | camera to screen, median | 95th percentile | server CPU a frame | server RSS start → end |"
              if args.page else "| style | frames shown | fps | round trip, median | 95th percentile | server CPU a frame | server RSS start → end |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for style in styles:
            r = (run_page(args.bin, style, (width, height), seconds, pictures, work) if args.page
                 else run_style(args.bin, style, (width, height), seconds, pictures, work, in_flight=args.in_flight))
            print(f"| `{r['style']}` | {r['frames']} | {r['fps']:.1f} | {r['median_ms']:.0f} ms | {r['p95_ms']:.0f} ms | {r['cpu_ms']:.0f} ms | "
                  f"{r['rss_start']:.0f} → {r['rss_end']:.0f} MB |", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
