# HealthBroker: the two commands a newcomer needs.
#   make demo   install, build, start the daemon on a local data directory, run the example client
#   make test   install, check the generated code, build, check the client's public API, run every test
.PHONY: demo test build deps proto proto-check clean

deps:
	scripts/install-deps.sh

proto: deps
	scripts/generate-proto.sh

proto-check: deps
	scripts/generate-proto.sh --check

build: deps
	swift build

demo: deps
	scripts/demo.sh

test: proto-check
	swift build --build-tests
	scripts/check-public-api.sh
	swift test --skip-build

clean:
	rm -rf .build run data

# make bench   side-by-side benchmark against a C libuv echo and gRPC C++ (benchmarks/run.sh; ~5 min)
#              flags pass through: make bench BENCH_ARGS="--rounds 1 --duration 2"
.PHONY: bench
bench:
	benchmarks/run.sh $(BENCH_ARGS)
