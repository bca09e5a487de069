# The two commands of the README. Both set up a fresh Debian 12 machine
# first (scripts/bootstrap installs what is missing), then build with meson.
BUILD ?= build
# The sanitizer build of `make test`: ASan + UBSan (LeakSanitizer included),
# every report fatal (meson.build, tests/meson.build); with debug info and
# asserts; -O1, since clang takes minutes per interpreter file at -O2 with
# the sanitizers. b_lundef=false: the shared library's sanitizer symbols
# come from the runtime linked into the program. Compiled by clang-15
# (installed for the kernels anyway): its UBSan also checks float-to-integer
# overflow, and honours log_path, which tests/sanitizer/run relies on.
SAN_BUILD ?= build-san
SAN_CC ?= clang-15
SAN_CXX ?= clang++-15
SAN_MESON_ARGS = -Ddebug=true -Doptimization=1 -Db_ndebug=false \
	-Db_sanitize=address,undefined -Db_lundef=false
# The ThreadSanitizer build of `make test`: only what the threaded tests
# need is built (meson suite 'threads': tests/load, tests/determinism's
# host-thread runs, tests/d3d12/test_threads.c, tests/api's removal on
# host threads), and only that suite runs (scripts/run-tests
# build-tsan:threads): TSan costs several times the run time of the plain
# build, and the whole suite would take far longer than the few minutes
# CI gives it on a 2-core machine.
TSAN_BUILD ?= build-tsan
TSAN_MESON_ARGS = -Ddebug=true -Doptimization=1 -Db_ndebug=false \
	-Db_sanitize=thread -Db_lundef=false
TSAN_TARGETS = tests/load/test_load tests/d3d12/test_d3d12_threads \
	tests/determinism/test_determinism tests/api/test_api \
	kernels/private_spill.O2.w32.hsaco kernels/vadd.O2.w32.hsaco \
	kernels/lds_reduce.O2.w32.hsaco kernels/faults.O2.w32.hsaco
# CI builds with warnings as errors.
MESON_ARGS ?= $(if $(CI),--werror,)

.PHONY: all san tsan demo test bench clean bootstrap fuzz fidelity

all: bootstrap
	@test -f $(BUILD)/build.ninja || meson setup $(BUILD) $(MESON_ARGS)
	ninja -C $(BUILD)

san: bootstrap
	@test -f $(SAN_BUILD)/build.ninja || \
		CC=$(SAN_CC) CXX=$(SAN_CXX) meson setup $(SAN_BUILD) $(MESON_ARGS) $(SAN_MESON_ARGS)
	ninja -C $(SAN_BUILD)

tsan: bootstrap
	@test -f $(TSAN_BUILD)/build.ninja || \
		CC=$(SAN_CC) CXX=$(SAN_CXX) meson setup $(TSAN_BUILD) $(MESON_ARGS) $(TSAN_MESON_ARGS)
	ninja -C $(TSAN_BUILD) $(TSAN_TARGETS)

bootstrap:
	@scripts/bootstrap

# The D3D12 story, then the ray-tracing scene on the simulated GPU
# (docs/rays.md "On the GPU"): 640x360 in timing mode, about 35 s on this
# 2-core machine; it needs hipcc (the library) and libassimp with the model
# file (the scene), and says so when one is missing.
RAYS_MODEL ?= /usr/share/assimp/models/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb
demo: all
	$(BUILD)/tools/xs12 demo
	@if test -x $(BUILD)/examples/rays_scene && test -f $(RAYS_MODEL); then \
		echo "== the ray-tracing scene on the GPU: $(BUILD)/rays_scene.png (CPU: $(BUILD)/rays_scene-cpu.png)"; \
		$(BUILD)/examples/rays_scene $(BUILD)/examples/rays_scene.hip.co $(BUILD)/rays_scene.png 640 360 $(RAYS_MODEL); \
	else echo "== ray-tracing scene skipped: needs hipcc, libassimp and $(RAYS_MODEL)"; fi

# Every test of both builds and the threaded tests under TSan; the last
# line counts them all.
test: all san tsan
	scripts/run-tests $(BUILD) $(SAN_BUILD) $(TSAN_BUILD):threads

# Fuzzing (tests/fuzz, docs/reliability.md "Fuzzing"): a build of its own,
# clang-15 with ASan + UBSan, every file compiled with
# -fsanitize=fuzzer-no-link so that libFuzzer sees the parsers' coverage;
# only the fuzz targets are built. scripts/fuzz runs each for FUZZ_TIME
# seconds and keeps what it finds in $(FUZZ_BUILD)/fuzz-findings/.
FUZZ_BUILD ?= build-fuzz
FUZZ_TIME ?= 300
fuzz: bootstrap
	@test -f $(FUZZ_BUILD)/build.ninja || \
		CC=$(SAN_CC) CXX=$(SAN_CXX) meson setup $(FUZZ_BUILD) $(SAN_MESON_ARGS) \
			-Dc_args=-fsanitize=fuzzer-no-link -Dcpp_args=-fsanitize=fuzzer-no-link
	ninja -C $(FUZZ_BUILD) fuzz-targets
	FUZZ_TIME=$(FUZZ_TIME) scripts/fuzz $(FUZZ_BUILD)

bench: all
	python3 bench/xs12_bench.py $(BUILD)

# The timing model against published figures: regenerates docs/fidelity.md.
fidelity: all
	python3 bench/fidelity.py $(BUILD) --write docs/fidelity.md

clean:
	rm -rf $(BUILD) $(SAN_BUILD) $(TSAN_BUILD) $(FUZZ_BUILD)
