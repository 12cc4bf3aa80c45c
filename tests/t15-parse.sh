#!/bin/sh
# The parsers, pinned directly: tests/tools/dump prints what they saw in
# each mail of tests/parse/ (subject prefix, trailers, files, hunks, the
# kind of every line, the built-in findings), byte for byte against the
# .dump file beside it. To add a case: write NAME.eml, run
# build/asan/dump < NAME.eml > NAME.dump, and read the dump line by line.
. "$(dirname "$0")/lib.sh"
DUMP=${DUMP:-$ROOT/build/asan/dump}
[ -x "$DUMP" ] || { fail "parse" "$DUMP is missing (make build/asan/dump)"; exit 0; }

for mail in "$ROOT"/tests/parse/*.eml; do
	name=$(basename "$mail" .eml)
	"$DUMP" < "$mail" > "$T/dump" 2> "$T/err"
	if cmp -s "$T/dump" "${mail%.eml}.dump" && [ ! -s "$T/err" ]; then
		pass "parse: $name"
	else
		fail "parse: $name" "$(diff "${mail%.eml}.dump" "$T/dump" | head -6 | tr '\n' ' ') $(head -c 200 "$T/err")"
	fi
done
