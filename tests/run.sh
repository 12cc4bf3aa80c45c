#!/bin/sh
# Runs every tests/t*.sh and prints "N passed, N failed, N skipped".
# Each test file reports through tests/lib.sh into one results file.
cd "$(dirname "$0")/.." || exit 1
RESULTS=$(mktemp)
export RESULTS
for t in tests/t[0-9]*.sh; do
	case " $TESTS " in
	"  ") ;;
	*" $(basename "$t" .sh) "*) ;;
	*) continue ;;
	esac
	echo "== $t"
	sh "$t" || echo "fail $t: exited with status $?" >>"$RESULTS"
done
passed=$(grep -c '^pass ' "$RESULTS")
failed=$(grep -c '^fail ' "$RESULTS")
skipped=$(grep -c '^skip ' "$RESULTS")
grep '^fail ' "$RESULTS" | sed 's/^fail /FAILED: /'
rm -f "$RESULTS"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
