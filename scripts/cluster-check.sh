#!/usr/bin/env bash
# `make test-cluster`: the parts of docs/cluster/ too slow for `make test` (the Slurm array and the
# ssh line run there, in Tests/SketchEaseCLITests/ClusterTests.swift), checked for real:
#
#   kubernetes  indexed-job.yaml validated against the Kubernetes API's own schema for batch/v1 Job
#               (PyPI's kubernetes-validate, in a virtual environment cached outside the repository).
#               No cluster runs here, so the Job itself is not run.
#   container   the Dockerfile's final stage built from the same parts, with no container engine:
#               a Debian 12 root filesystem from `debootstrap --variant=minbase` (the base of
#               debian:12-slim), the packages of docs/cluster/runtime-packages.txt (the list the
#               Dockerfile installs) installed into it with the Dockerfile's apt-get line, the
#               release binary built with the Dockerfile's line (`--static-swift-stdlib`) and the
#               model copied where the Dockerfile copies them; then, chrooted into it: the binary's
#               libraries all resolve, three shards of a batch run side by side as an Indexed Job's
#               pods would (`--shard auto/3` from JOB_COMPLETION_INDEX), report-merge sums them,
#               their sketches equal one run's byte for byte, and a short `video` is written frame
#               for frame. Root filesystems are cached in $SKETCHEASE_ROOTFS_CACHE
#               (/var/cache/sketchease), keyed by the package list, so a changed list is installed afresh.
#
# Needs root (debootstrap, chroot, mounting /proc) and Debian's and PyPI's package servers.
# Usage: scripts/cluster-check.sh [kubernetes|container|all]
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=${SKETCHEASE_ROOTFS_CACHE:-/var/cache/sketchease}
MIRROR=${SKETCHEASE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${SKETCHEASE_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
KUBERNETES_VALIDATE=kubernetes-validate==1.37.0
# The oldest release the manifest claims (podFailurePolicy is on by default from 1.26) and a current one.
KUBERNETES_VERSIONS=(1.26.0 1.33.0)
LIST=docs/cluster/runtime-packages.txt

say() { printf 'cluster-check: %s\n' "$*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

kubernetes() {
    local venv="$CACHE/kubernetes-validate"
    if [ ! -x "$venv/bin/kubernetes-validate" ]; then
        say "installing $KUBERNETES_VALIDATE from PyPI into $venv"
        mkdir -p "$CACHE"
        rm -rf "$venv"
        /usr/bin/python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet "$KUBERNETES_VALIDATE"
    fi
    local version
    for version in "${KUBERNETES_VERSIONS[@]}"; do
        say "kubernetes: validating docs/cluster/indexed-job.yaml against the batch/v1 Job schema of Kubernetes $version (strict: no unknown fields)"
        "$venv/bin/kubernetes-validate" --strict --kubernetes-version "$version" docs/cluster/indexed-job.yaml \
            || fail "indexed-job.yaml is not a valid Job for Kubernetes $version"
    done
    # What the README promises of the manifest: an Indexed Job whose N is the --shard auto/N.
    "$venv/bin/python" - docs/cluster/indexed-job.yaml <<'PY' || fail "indexed-job.yaml: the shard count does not match"
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
spec = job["spec"]
assert job["apiVersion"] == "batch/v1" and job["kind"] == "Job", "not a batch/v1 Job"
assert spec["completionMode"] == "Indexed", "not an Indexed Job"
args = spec["template"]["spec"]["containers"][0]["args"]
shard = args[args.index("--shard") + 1]
assert shard == f"auto/{spec['completions']}", f"--shard {shard} but completions {spec['completions']}"
assert spec["template"]["spec"]["restartPolicy"] == "Never"
print(f"cluster-check: kubernetes: ok (Indexed Job, {spec['completions']} completions, --shard {shard})", file=sys.stderr)
PY
}

# A Debian 12 minbase root filesystem with the runtime packages installed: its path on stdout.
runtime_rootfs() {
    local base="$CACHE/bookworm-minbase"
    if [ ! -f "$base/.complete" ]; then
        say "debootstrap --variant=minbase bookworm into $base (once)"
        mkdir -p "$CACHE"
        rm -rf "$base.tmp"
        debootstrap --variant=minbase bookworm "$base.tmp" "$MIRROR" >&2
        touch "$base.tmp/.complete"
        mv "$base.tmp" "$base"
    fi
    local packages; packages=$(sed 's/#.*//' "$LIST" | xargs)
    local key; key=$(printf '%s\n' "$packages" | sha256sum | cut -c1-12)
    local root="$CACHE/runtime-$key"
    if [ ! -f "$root/.complete" ]; then
        say "installing the runtime packages into $root (once per package list): $packages"
        rm -rf "$root.tmp"
        cp -a "$base" "$root.tmp"
        rm -f "$root.tmp/.complete"
        # debian:12-slim's sources: the release, its updates and its security updates.
        cat > "$root.tmp/etc/apt/sources.list" <<EOF
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb $SECURITY_MIRROR bookworm-security main
EOF
        cp /etc/resolv.conf "$root.tmp/etc/resolv.conf"
        # The Dockerfile's RUN line, word for word but for chroot.
        chroot "$root.tmp" /bin/sh -c "apt-get update \
            && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $packages \
            && rm -rf /var/lib/apt/lists/*" >&2
        touch "$root.tmp/.complete"
        mv "$root.tmp" "$root"
    fi
    printf '%s\n' "$root"
}

container() {
    [ "$(id -u)" -eq 0 ] || fail "the container check needs root (debootstrap, chroot)"
    command -v debootstrap >/dev/null || fail "no debootstrap (scripts/setup.sh cluster-tools)"
    command -v ffmpeg >/dev/null || fail "no ffmpeg (scripts/setup.sh test-tools)"
    # The image's runtime stage must install this list and no other: the check below runs what it names.
    local stage; stage=$(sed -n '/^FROM debian:12-slim/,$p' docs/cluster/Dockerfile)
    grep -q '^COPY docs/cluster/runtime-packages.txt ' <<< "$stage" \
        && grep -q "apt-get install -y --no-install-recommends \$(sed 's/#.\*//' /tmp/runtime-packages.txt)" <<< "$stage" \
        || fail "the Dockerfile's runtime stage no longer installs exactly $LIST"
    ! grep -Eq '\blib(vips|opencv|av|sw)' <<< "$stage" || fail "the Dockerfile's runtime stage names packages of its own: keep them in $LIST"
    local cached; cached=$(runtime_rootfs)
    say "building the release binary with the Dockerfile's line: swift build -c release --static-swift-stdlib --product sketchease"
    ${SWIFT:-swift} build -c release --static-swift-stdlib --product sketchease >&2
    local bin; bin="$(${SWIFT:-swift} build -c release --show-bin-path)/sketchease"

    local work; work=$(mktemp -d /var/tmp/sketchease-container.XXXXXX)
    local root="$work/root"
    # shellcheck disable=SC2064
    trap "umount '$root/proc' 2>/dev/null || true; rm -rf '$work'" EXIT
    cp -a "$cached" "$root"
    # The Dockerfile's install lines and `COPY --from=build /opt/sketchease /usr/local`.
    install -D -m 755 "$bin" "$root/usr/local/bin/sketchease"
    install -D -m 644 models/centerface.onnx "$root/usr/local/share/sketchease/centerface.onnx"
    mount -t proc proc "$root/proc" || say "note: /proc could not be mounted in the chroot; running without it"
    # inside [NAME=value...] COMMAND...: runs in the root filesystem with a container's bare
    # environment (the image's PATH and the variables named, nothing from this shell).
    inside() {
        local vars=()
        while [[ "${1:-}" == *=* ]]; do vars+=("$1"); shift; done
        env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "${vars[@]}" \
            /usr/sbin/chroot "$root" "$@"
    }

    say "container: the binary's libraries, inside"
    local libraries; libraries=$(inside ldd /usr/local/bin/sketchease) || fail "ldd inside: $libraries"
    ! grep 'not found' <<< "$libraries" || fail "libraries missing from the runtime packages (above)"
    ! grep -q 'libswift\|libFoundation' <<< "$libraries" \
        || fail "the binary loads Swift's runtime libraries: --static-swift-stdlib did not take"
    say "container: all $(wc -l <<< "$libraries") libraries found, none of them Swift's"

    mkdir -p "$root/data/photos/faces" "$root/data/reports"
    cp examples/*.jpg examples/*.png "$root/data/photos/"
    cp examples/faces/*.jpg "$root/data/photos/faces/" 2>/dev/null || true
    local count; count=$(find "$root/data/photos" -type f | wc -l)
    say "container: three shards of $count photos side by side, as an Indexed Job's pods (--shard auto/3)"
    local pids=() start end
    start=$(date +%s.%N)
    for i in 0 1 2; do
        inside JOB_COMPLETION_INDEX=$i sketchease batch /data/photos --recursive --out /data/sketches \
            --shard auto/3 --report "/data/reports/shard-$i.json" > "$work/shard-$i.log" 2>&1 &
        pids+=($!)
    done
    for i in 0 1 2; do wait "${pids[$i]}" || { cat "$work/shard-$i.log" >&2; fail "shard $i failed inside the root filesystem"; }; done
    end=$(date +%s.%N)
    local merged; merged=$(inside sh -c 'sketchease report-merge /data/reports/shard-*.json') \
        || fail "report-merge inside: $merged"
    say "container: report-merge: $merged"
    case "$merged" in
        "$count written (3 reports, shards 1/3, 2/3, 3/3)"*) ;;
        *) fail "report-merge did not count $count photos in three shards" ;;
    esac
    inside sketchease batch /data/photos --recursive --out /data/one > "$work/one.log" 2>&1 \
        || { cat "$work/one.log" >&2; fail "one run inside failed"; }
    local sharded one
    sharded=$(cd "$root/data/sketches" && find . -name '*.png' -not -path '*/.sketchease*' | sort)
    one=$(cd "$root/data/one" && find . -name '*.png' -not -path '*/.sketchease*' | sort)
    [ "$sharded" = "$one" ] || fail "the shards wrote other files than one run: $(diff <(echo "$sharded") <(echo "$one"))"
    [ "$(echo "$one" | wc -l)" -eq "$count" ] || fail "$(echo "$one" | wc -l) sketches for $count photos"
    while read -r f; do cmp -s "$root/data/sketches/$f" "$root/data/one/$f" || fail "$f differs from one run's"; done <<< "$one"
    say "container: the shards' $count sketches equal one run's, byte for byte ($(awk "BEGIN { printf \"%.1f\", $end - $start }") s for the three shards)"

    say "container: a short video"
    ffmpeg -loglevel error -y -loop 1 -framerate 15 -t 2 -i examples/group.jpg -f lavfi -i sine=frequency=330:duration=2 \
        -vf scale=640:-2 -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -shortest "$root/data/clip.mp4"
    inside sketchease video /data/clip.mp4 --out /data/video --report /data/video.json > "$work/video.log" 2>&1 \
        || { cat "$work/video.log" >&2; fail "video inside failed"; }
    local frames_in frames_out
    frames_in=$(ffprobe -v error -select_streams v:0 -count_frames -show_entries stream=nb_read_frames -of csv=p=0 "$root/data/clip.mp4")
    frames_out=$(ffprobe -v error -select_streams v:0 -count_frames -show_entries stream=nb_read_frames -of csv=p=0 "$root/data/video/clip.mp4")
    [ "$frames_in" = "$frames_out" ] || fail "video: $frames_out frames written of $frames_in"
    inside sketchease report-merge /data/video.json >&2 || fail "report-merge of the video report"
    say "container: ok (video: $frames_out of $frames_in frames, sound kept: $(ffprobe -v error -show_entries stream=codec_type -of csv=p=0 "$root/data/video/clip.mp4" | xargs))"
}

case "${1:-all}" in
    kubernetes) kubernetes ;;
    container) container ;;
    all) kubernetes; container ;;
    *) say "usage: $0 [kubernetes|container|all]"; exit 2 ;;
esac
