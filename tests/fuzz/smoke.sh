#!/bin/sh
# The CI smoke run of one libFuzzer target (tests/fuzz/meson.build):
#   smoke.sh FUZZER SECONDS CORPUS REGRESS [-dict=FILE]
# Fuzzes for SECONDS from the committed corpus and findings. New inputs go
# to a temporary directory (libFuzzer writes into its first corpus
# directory), crash files too; the source tree is never written. Any crash,
# leak, timeout (-timeout, per input) or memory blow-up fails the test.
set -eu
fuzzer=$1 seconds=$2 corpus=$3 regress=$4
shift 4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xs12-fuzz-smoke.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/new" "$tmp/crash"
rc=0
"$fuzzer" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=256 \
	-print_final_stats=1 -artifact_prefix="$tmp/crash/" "$@" "$tmp/new" "$corpus" "$regress" || rc=$?
# The finding itself, whole, in the log: CI runs on a clean clone and the
# temporary directory goes, so the log is where it survives. (The first
# 1 KiB as hex, before: a 4,556-byte finding then had to be rebuilt from
# its seed, 2026-12-07.) Inputs are at most FUZZ_MAX_INPUT (1 MiB).
if [ "$rc" -ne 0 ]; then
	for f in "$tmp"/crash/*; do
		[ -f "$f" ] || continue
		echo "smoke.sh: finding $(basename "$f") ($(wc -c <"$f") bytes); to recreate it:"
		echo "base64 -d > $(basename "$f") <<'EOF'"
		base64 -w 76 "$f"
		echo "EOF"
	done
fi
exit "$rc"
