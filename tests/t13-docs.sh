#!/bin/sh
# The documentation keeps up: the man page renders without warnings, and
# every option and configuration key the program knows is in the README and
# the man page.
. "$(dirname "$0")/lib.sh"

if command -v mandoc >/dev/null; then
	mandoc -T lint -W warning "$ROOT/patchreview.1" >"$T/lint" 2>&1
	check "man page: mandoc -T lint is clean" sh -c "[ ! -s '$T/lint' ] || { cat '$T/lint'; false; }"
else
	skip "man page lint" "mandoc missing"
fi
if command -v groff >/dev/null; then
	groff -man -ww -z "$ROOT/patchreview.1" >"$T/groff" 2>&1
	check "man page: groff -ww is clean" sh -c "[ ! -s '$T/groff' ] || { cat '$T/groff'; false; }"
fi

run_pr --help
keys=$(sed -n '/^Configuration keys/,$p' "$T/out" | awk 'NR > 1 { print $1 }')
options=$(grep -o -e '--[a-z][a-z-]*' "$T/out" | sort -u)
run_pr eval --help
options="$options $(grep -o -e '--[a-z][a-z-]*' "$T/out" | sort -u)"
missing=
for k in $keys; do
	grep -q "\`$k\`" "$ROOT/README.md" || missing="$missing README:$k"
	grep -q "^\.B $k\$" "$ROOT/patchreview.1" || missing="$missing man:$k"
done
for o in $options; do
	grep -q -e "$o" "$ROOT/README.md" || missing="$missing README:$o"
	grep -q -e "$(echo "$o" | sed 's/-/\\\\-/g')" "$ROOT/patchreview.1" || missing="$missing man:$o"
done
check "docs: every key and option is documented${missing:+ (missing:$missing)}" test -z "$missing"

# The HTTP statuses retried: what the code retries, in --help, the man page
# and the README alike.
statuses() { grep -o '[0-9][0-9][0-9]' | sort -u | tr '\n' ' '; }
run_pr --help
code=$(sed -n '/retry\[\] = {/p' "$ROOT/filter/transport/http.c" | statuses)
help=$(sed -n 's/^  retries  *//p' "$T/out" | statuses)
man=$(sed -n '/^\.B retries$/{n;p;}' "$ROOT/patchreview.1" | statuses)
readme=$(grep '^| `retries` |' "$ROOT/README.md" | statuses)
check "docs: the retried statuses are the code's ($code) in --help, man page and README" \
	sh -c "[ -n '$code' ] && [ '$help' = '$code' ] && [ '$man' = '$code' ] && [ '$readme' = '$code' ]"
