#!/bin/sh
# Every built-in check does work in proportion to the patch: each one's
# worst case (tests/gen-worst.py) at N and at 4N, the instructions spent
# in that check and in all the checks counted by callgrind, and their
# ratio under 6 (4 is linear; 16 was the square that the style checks'
# search back for each added line cost). Counts, never times.
#   BIN   the build to measure (default the release build, which valgrind
#         runs; the ASan build does not mix with it)
. "$(dirname "$0")/lib.sh"
for tool in valgrind callgrind_annotate python3; do
	command -v "$tool" >/dev/null || { skip "linear" "$tool missing"; exit 0; }
done
BIN=${BIN:-$ROOT/patchreview}
MAX_RATIO=6

# The stand-in checkpatch.pl of a small tree: three reports on each added line.
TREE=$T/tree
mkdir -p "$TREE/scripts" "$TREE/drivers"
echo "int a;" > "$TREE/drivers/c0.c"
cat > "$TREE/scripts/checkpatch.pl" <<'PY'
#!/usr/bin/env python3
import sys
for name in [a for a in sys.argv[1:] if not a.startswith("-")]:
    for i, l in enumerate(open(name).read().split("\n")):
        if l.startswith("+") and not l.startswith("+++"):
            for t in ("STANDIN_A", "STANDIN_B", "STANDIN_C"):
                print("%s:%d: WARNING:%s: a report" % (name, i + 1, t))
PY
chmod +x "$TREE/scripts/checkpatch.pl"
git -C "$TREE" init -q && git -C "$TREE" add . &&
	git -C "$TREE" -c user.name=T -c user.email=t@example.org commit -q -m tree ||
	{ fail "linear: tree" "git could not make the stand-in tree"; exit 0; }

# work CASE N: the instructions of each check on CASE at size N, in $T/work.N
work() {
	args=--no-cache
	[ "$1" = checkpatch ] && args="--no-cache --tree $TREE"
	python3 "$ROOT/tests/gen-worst.py" "$1" "$2" > "$T/in.eml" &&
		valgrind --tool=callgrind --callgrind-out-file="$T/cg" "$BIN" $args \
			< "$T/in.eml" > /dev/null 2> "$T/err"
	python3 "$ROOT/tests/checks-work.py" "$T/cg" > "$T/work.$2" < /dev/null
}

# ratio NAME N: the work of NAME at 4N over that at N, two decimals
ratio() {
	awk -v name="$1" '$1 == name { w[FILENAME] = $2 }
		END { if (w[a] > 0) printf "%.2f", w[b] / w[a]; else print "none" }' \
		a="$T/work.$2" b="$T/work.$(($2 * 4))" "$T/work.$2" "$T/work.$(($2 * 4))"
}

python3 "$ROOT/tests/gen-worst.py" list > "$T/cases"
while read -r name n check; do
	work "$name" "$n"
	work "$name" $((n * 4))
	one=$(ratio "$check" "$n")
	all=$(ratio checks "$n")
	check "linear: $name: $check ${one}x, all checks ${all}x the work at 4x the size" \
		awk -v one="$one" -v all="$all" -v max="$MAX_RATIO" \
		'BEGIN { exit !(one != "none" && one + 0 > 0 && one + 0 < max && all + 0 < max) }'
done < "$T/cases"
