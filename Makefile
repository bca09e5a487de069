# The two commands of the README. Both set up a fresh Debian 12 machine
# first (scripts/bootstrap installs what is missing), then build with meson.
BUILD ?= build
# CI builds with warnings as errors.
MESON_ARGS ?= $(if $(CI),--werror,)

.PHONY: all demo test bench clean bootstrap

all: bootstrap
	@test -f $(BUILD)/build.ninja || meson setup $(BUILD) $(MESON_ARGS)
	ninja -C $(BUILD)

bootstrap:
	@scripts/bootstrap

demo: all
	$(BUILD)/tools/xs12 demo

test: all
	scripts/run-tests $(BUILD)

bench: all
	python3 bench/xs12_bench.py $(BUILD)

clean:
	rm -rf $(BUILD)
