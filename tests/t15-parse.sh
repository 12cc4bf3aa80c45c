#!/bin/sh
# The parsers, pinned directly: tests/tools/dump prints what they saw in
# each mail of tests/parse/ (subject prefix, trailers, files, hunks, the
# kind of every line, the built-in findings, what it said on stderr, and
# where the quotes of NAME.anchors are anchored), byte for byte against the
# .dump file beside it. To add a case: write NAME.eml (and NAME.anchors,
# "path|quote" lines), run this test, and read the new dump line by line
# before you copy it from the failure's temporary file.
. "$(dirname "$0")/lib.sh"
DUMP=${DUMP:-$ROOT/build/asan/dump}
[ -x "$DUMP" ] || { fail "parse" "$DUMP is missing (make build/asan/dump)"; exit 0; }

for mail in "$ROOT"/tests/parse/*.eml; do
	name=$(basename "$mail" .eml)
	anchors=${mail%.eml}.anchors
	[ -f "$anchors" ] || anchors=
	"$DUMP" $anchors < "$mail" > "$T/dump" 2> "$T/err"
	sed 's/^/stderr: /' "$T/err" >> "$T/dump"
	if cmp -s "$T/dump" "${mail%.eml}.dump"; then
		pass "parse: $name"
	else
		cp "$T/dump" "$ROOT/build/$name.dump.new" 2>/dev/null
		fail "parse: $name" "differs (new dump in build/$name.dump.new): $(diff "${mail%.eml}.dump" "$T/dump" | head -6 | tr '\n' ' ')"
	fi
done
