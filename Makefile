# accel-vp front end: `make run` and `make test` do everything on a fresh Debian machine.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc)
PREFIX     ?= /usr/local
CMAKE_ARGS ?=

.PHONY: all deps configure build run test sanitize fuzz-long soak-long bench bench-check install clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_ARGS)

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# ARGS is the accel-vp command line (default: `run`, the default scenario), e.g. ARGS="info".
run: build
	./$(BUILD)/accel-vp $(if $(ARGS),$(ARGS),run)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

sanitize: deps
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DAVP_SANITIZE=ON -DAVP_LINUX=OFF -DCMAKE_BUILD_TYPE=Debug $(CMAKE_ARGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS) -LE nosanitize

# Every libFuzzer target for FUZZ_SECONDS each (default 10 minutes; tests/fuzz, scripts/fuzz-long.sh).
FUZZ_SECONDS ?= 600
fuzz-long: build
	bash scripts/fuzz-long.sh $(BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The host-bridge soak (tests/bridge/bridge_soak.c) for SOAK_ROUNDS rounds of 40 clients (default 600, a few minutes).
SOAK_ROUNDS ?= 600
soak-long: build
	./$(BUILD)/accel-vp --no-progress -o $(BUILD)/soak-long exec --no-preload -- $(BUILD)/tests/bridge/bridge_bridge_soak $(SOAK_ROUNDS)

# Every benchmark once: figures in $(BUILD)/bench/results.json and a table (docs/performance.md).
bench: build
	cmake --build $(BUILD) --target bench-all

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# Best of three runs against bench/baseline.json; fails when a ratio dropped by more than its tolerance.
bench-check: build
	cmake --build $(BUILD) --target bench-check

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
