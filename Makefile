# SketchEase: the two commands a newcomer needs are `make demo` and `make test`.
# Both install what is missing (Debian packages, the face model, example photos) first.
SHELL := /bin/bash
SWIFT ?= swift
OUT ?= out/demo
BIN := .build/release/sketchease

.PHONY: demo test test-cluster stress bench bench-video bench-live fuzz gallery look-panel webapp-screenshots install setup deps model examples build clean

## demo: install what is missing, build, and sketch every face in examples/ into out/demo/
demo: build
	$(BIN) batch examples --out $(OUT) --overwrite
	@echo "Sketches written to $(OUT)/"

## gallery: the README's sheets: every style on the example faces and on varied ones, and other tools beside them
gallery: build
	scripts/gallery.sh

## look-panel: blind panel sheets (pencil and graphite against G'MIC, ImageMagick, OpenCV) in out/look-panel/sheets/judgeK (one folder per judge),
## their key in out/look-panel/key; `scripts/look-panel tally KEY RANKINGS...` makes the table (docs/look-panel.md)
look-panel: build
	scripts/setup.sh bench-tools
	scripts/look-panel make $(LOOK_PANEL_ARGS)

## webapp-screenshots: the browser tests of `sketchease serve`, keeping their screenshots in docs/webapp/
webapp-screenshots: setup
	$(SWIFT) build --build-tests
	SKETCHEASE_SCREENSHOTS=docs/webapp $(SWIFT) test --skip-build --filter BrowserTests

## test: install what is missing and run the whole test suite
test: setup
	scripts/setup.sh test-tools
	$(SWIFT) build --build-tests
	scripts/test.sh

## test-cluster: the slow checks of docs/cluster/ (the Slurm array and the ssh line run in `make test`):
## the Kubernetes manifest against the Job schema, and the container's runtime for real in a
## debootstrapped Debian 12 chroot (scripts/cluster-check.sh). Needs root; minutes long; not in CI.
test-cluster: setup
	scripts/setup.sh test-tools
	scripts/setup.sh cluster-tools
	scripts/cluster-check.sh

## bench: speed and memory on 12 MP photos, against the vips-copy floor, ImageMagick and G'MIC;
## group photos with known faces: time, memory, recall and precision;
## then on a 1080p30 clip, against the ffmpeg transcode floor and deface (bench-video alone);
## then Live: 640x480 camera frames through `serve --live`, fps and round trip, and scrubs in a
## clip as the browser's player asks for them (bench-live alone)
bench: build
	scripts/setup.sh bench-tools
	$(SWIFT) build -c release --product GroupPhotos
	python3 bench/run.py $(BENCH_ARGS)
	python3 bench/video.py $(VIDEO_BENCH_ARGS)
	python3 bench/live.py $(LIVE_BENCH_ARGS)
	python3 bench/scrub.py

bench-video: build
	scripts/setup.sh bench-tools
	python3 bench/video.py $(VIDEO_BENCH_ARGS)

bench-live: build
	python3 bench/live.py $(LIVE_BENCH_ARGS)
	python3 bench/scrub.py

## stress: hundreds of short batches, detects and clips, several at once; any crash or failure is counted
## and shown (STRESS_RUNS, default 300; STRESS_AT_ONCE, default 4). Not part of `make test`: minutes long.
stress: build
	scripts/setup.sh test-tools
	scripts/stress.sh $(STRESS_RUNS) $(STRESS_AT_ONCE)

## fuzz: a few minutes of libFuzzer on image loading (not part of CI)
fuzz: setup
	scripts/fuzz.sh $(FUZZ_SECONDS)

## setup: Debian packages, the CenterFace model and the example photos (idempotent)
setup:
	scripts/setup.sh all

deps:
	scripts/setup.sh deps

model:
	scripts/setup.sh model

examples:
	scripts/setup.sh examples

## build: the release binary at .build/release/sketchease
build: setup
	$(SWIFT) build -c release --product sketchease

## install: the command to $(PREFIX)/bin, the model and the web app's files to $(PREFIX)/share/sketchease
PREFIX ?= /usr/local
install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/sketchease/web
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/sketchease
	install -m 644 models/centerface.onnx $(DESTDIR)$(PREFIX)/share/sketchease/centerface.onnx
	install -m 644 Sources/WebApp/Site/* $(DESTDIR)$(PREFIX)/share/sketchease/web/

clean:
	rm -rf .build out
