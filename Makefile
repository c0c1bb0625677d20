# HealthBroker: the two commands a newcomer needs.
#   make demo   install, build, start the daemon on a local data directory, run the example client
#   make test   install, check the generated code (wire, Python client, type catalogue), build, check the client's public API, run every test
#               (Swift, the install check of scripts/check-install.sh on the debug build, the
#               Python client's, then healthctl ui's in a headless Chromium: browser-tests/)
.PHONY: demo test build deps proto proto-check clean install

# Debian's python3, which sees python3-protobuf and python3-pytest from scripts/install-deps.sh (a
# pyenv or venv python3 first on PATH would not). Override: make test PYTHON=python3
PYTHON ?= /usr/bin/python3

deps:
	scripts/install-deps.sh

proto: deps
	scripts/generate-proto.sh
	clients/python/generate.sh
	scripts/generate-catalogue.py

proto-check: deps
	scripts/generate-proto.sh --check
	clients/python/generate.sh --check
	scripts/generate-catalogue.py --check

build: deps
	swift build

demo: deps
	scripts/demo.sh

test: proto-check
	swift build --build-tests
	scripts/check-public-api.sh
	# The 100,000-record Apple Health import test keeps both cores busy for ~40 s; run beside the
	# timing-bound suites (memory bounds, reconnect ends) it made them miss their bounds, so it runs alone.
	swift test --skip-build --skip AppleHealthImportTests
	swift test --skip-build --filter AppleHealthImportTests
	scripts/check-install.sh
	$(PYTHON) -m pytest -q clients/python/tests
	$(PYTHON) -m pytest -q browser-tests

clean:
	rm -rf .build run data

# make bench   side-by-side benchmark against a C libuv echo and gRPC C++ (benchmarks/run.sh; ~5 min)
#              flags pass through: make bench BENCH_ARGS="--rounds 1 --duration 2"
.PHONY: bench
bench:
	benchmarks/run.sh $(BENCH_ARGS)

# make install [PREFIX=/usr/local] [DESTDIR=]   binaries, man pages, bash completions, systemd units
PREFIX ?= /usr/local
DESTDIR ?=
install: deps
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install.sh
