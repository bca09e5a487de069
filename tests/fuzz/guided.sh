#!/bin/sh
# Checks that a libFuzzer target of this build sees the library's coverage,
# not only its harness's (tests/fuzz/meson.build, 'fuzz smoke guided <t>'):
#   guided.sh FUZZER FLOOR CORPUS REGRESS
# Runs the committed inputs once (-runs=0: no mutation, a second or two) and
# fails when libFuzzer's count of edges covered by them ("INITED cov: N") is
# below FLOOR. The count is the same in every run of one build. Without the
# library's edge counters (meson.build: clang's ASan build) the smoke runs
# mutate blind: accel's inputs then cover 13 edges, with them 310
# (2026-12-07), so a floor of a third of the guided count catches their loss
# and leaves room for the code to change.
set -eu
fuzzer=$1 floor=$2 corpus=$3 regress=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xs12-fuzz-guided.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# (an empty first directory: libFuzzer writes into its first corpus directory)
out=$("$fuzzer" -runs=0 -rss_limit_mb=2048 "$tmp" "$corpus" "$regress" 2>&1) || {
	printf '%s\n' "$out"
	echo "guided.sh: $fuzzer failed on its committed inputs"
	exit 1
}
cov=$(printf '%s\n' "$out" | sed -n 's/.*INITED cov: \([0-9][0-9]*\).*/\1/p' | head -n 1)
if [ -z "$cov" ]; then
	printf '%s\n' "$out"
	echo "guided.sh: no 'INITED cov:' line from $fuzzer"
	exit 1
fi
echo "$(basename "$fuzzer"): the committed inputs cover $cov edges (floor $floor)"
if [ "$cov" -lt "$floor" ]; then
	echo "guided.sh: below the floor: is the library built without libFuzzer's edge counters" \
		"(-fsanitize-coverage=inline-8bit-counters, meson.build)?"
	exit 1
fi
