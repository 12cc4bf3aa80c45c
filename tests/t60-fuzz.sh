#!/bin/sh
# The libFuzzer targets (tests/fuzz/): every seed replayed, then a short
# run from a fixed seed, each target asserting the draft invariants of
# tests/fuzz/fuzz.h. `make fuzz` runs them for longer.
. "$(dirname "$0")/lib.sh"
if [ ! -x "$ROOT/build/fuzz/fuzz_mail" ]; then
	skip "fuzz" "no fuzz targets: clang cannot build -fsanitize=fuzzer (apt-get install clang libclang-rt-dev)"
	exit 0
fi
for t in mail answer stream config guide cscan apply thread learn; do
	if line=$(CORPUS=$CORPUS sh "$ROOT/tests/fuzz/run.sh" check "$t"); then
		pass "fuzz: $line"
	else
		fail "fuzz: $t" "$line"
	fi
done
