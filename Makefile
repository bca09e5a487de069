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
# CI builds with warnings as errors.
MESON_ARGS ?= $(if $(CI),--werror,)

.PHONY: all san demo test bench clean bootstrap

all: bootstrap
	@test -f $(BUILD)/build.ninja || meson setup $(BUILD) $(MESON_ARGS)
	ninja -C $(BUILD)

san: bootstrap
	@test -f $(SAN_BUILD)/build.ninja || \
		CC=$(SAN_CC) CXX=$(SAN_CXX) meson setup $(SAN_BUILD) $(MESON_ARGS) $(SAN_MESON_ARGS)
	ninja -C $(SAN_BUILD)

bootstrap:
	@scripts/bootstrap

demo: all
	$(BUILD)/tools/xs12 demo

# Every test of both builds; the last line counts them all.
test: all san
	scripts/run-tests $(BUILD) $(SAN_BUILD)

bench: all
	python3 bench/xs12_bench.py $(BUILD)

clean:
	rm -rf $(BUILD) $(SAN_BUILD)
