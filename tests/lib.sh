# tests/lib.sh: sourced by every tests/t*.sh.
#
#   PR          the binary under test (the ASan+UBSan build by default)
#   CORPUS      shared/corpus beside the checkout or beside a folder above it
#               (the nearest one), when present
#   T           a scratch directory, removed on exit, on a signal too
#   run_pr ARGS < mail   runs $PR, output in $T/out, stderr in $T/err, status in $status
#   run_pr_within S ARGS < mail   the same, killed after S seconds (status 124)
#   pass NAME / fail NAME WHY / skip NAME WHY   report one result
#   check NAME COMMAND...   pass when COMMAND succeeds, fail otherwise
#   jsonq EXPR   the Python EXPR holds for the JSON in $T/out (see below)
#   valid        $T/out matches contrib/patchreview.schema.json
#   said NAME LINE PATTERN  the draft in $T/out has a comment matching PATTERN
#                           (grep -E) right under the quoted LINE (grep -F)
#   unsaid NAME PATTERN     the draft in $T/out holds no PATTERN (grep -E)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PR=${PR:-$ROOT/build/asan/patchreview}
MAILS=$ROOT/tests/mails
if [ -z "$CORPUS" ]; then
	CORPUS=$ROOT/../shared/corpus
	up=$ROOT
	while [ "$up" != / ] && [ ! -d "$up/../shared/corpus" ]; do
		up=$(dirname "$up")
	done
	if [ "$up" != / ]; then CORPUS=$(cd "$up/../shared/corpus" && pwd); fi
fi
RESULTS=${RESULTS:-/dev/stdout}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# A signal (Ctrl-C on make check) ends the test through its EXIT trap, which
# a test may replace with a fuller cleanup (t40 stops its tmux servers).
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
# Tests never read the user's configuration or cache.
export XDG_CONFIG_HOME="$T/config" XDG_CACHE_HOME="$T/cache" XDG_DATA_HOME="$T/data" HOME="$T/home"
unset PATCHREVIEW_CONFIG PATCHREVIEW_BACKEND PATCHREVIEW_FROM PATCHREVIEW_SIGNATURE \
	PATCHREVIEW_MUTT PATCHREVIEW_MUTT_FLAGS PATCHREVIEW_MUTT_FROM PATCHREVIEW_MUTT_REALNAME \
	PATCHREVIEW_MUTT_HOSTNAME PATCHREVIEW_MUTT_SIGNATURE PATCHREVIEW_MUTT_SIG_DASHES
# One request a review unless a test asks for the verify pass; t30 checks the
# default (verify = low) by unsetting this.
export PATCHREVIEW_VERIFY=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=99}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=99}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$ROOT/tests/lsan.supp:print_suppressions=0}

pass() { echo "pass $1" >>"$RESULTS"; echo "  ok   $1"; }
fail() { echo "fail $1: $2" >>"$RESULTS"; echo "  FAIL $1: $2"; }
skip() { echo "skip $1: $2" >>"$RESULTS"; echo "  skip $1: $2"; }

check() {
	name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name" "$*"; fi
}

said() {
	if grep -A2 -F -- "$2" "$T/out" | sed -n 3p | grep -q -E -- "$3"; then
		pass "$1"
	else
		fail "$1" "no /$3/ under '$2'"
	fi
}

unsaid() {
	if [ "$status" -eq 0 ] && ! grep -q -E -- "$2" "$T/out"; then
		pass "$1"
	else
		fail "$1" "exit $status, or /$2/ in the draft"
	fi
}

run_pr() { run_pr_within 0 "$@"; }

run_pr_within() {
	limit=$1
	shift
	if [ "$limit" -gt 0 ]; then
		timeout "$limit" "$PR" "$@" >"$T/out" 2>"$T/err"
	else
		"$PR" "$@" >"$T/out" 2>"$T/err"
	fi
	status=$?
	if grep -q -e 'Sanitizer' -e 'runtime error' "$T/err"; then
		cat "$T/err" >&2
		fail "sanitizer" "report while running $PR $*"
	fi
	return 0
}

have_corpus() {
	[ -d "$CORPUS" ] && return 0
	skip "corpus" "$CORPUS is absent; real-mail cases skipped"
	return 1
}

# notes FILE / summaries FILE: the draft's notes / closing summaries (its
# X-Patchreview-Note / -Summary fields), decoded, one a line.
notes() { python3 "$ROOT/tests/tools/fields.py" X-Patchreview-Note "$@"; }
summaries() { python3 "$ROOT/tests/tools/fields.py" X-Patchreview-Summary "$@"; }
# body FILE: the draft body (after the first blank line).
body() { sed '1,/^$/d' "$1"; }
# header NAME FILE: the value of the first header NAME in the draft.
header() { sed -n '/^$/q;p' "$2" | grep -i -m1 "^$1:" | sed "s/^[^:]*: *//"; }

# jsonq EXPR: the Python EXPR holds for d, the JSON in $T/out; p is d's first
# patch (or d itself when d is a list), f its findings.
jsonq() {
	python3 - "$T/out" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["patches"][0] if isinstance(d, dict) and d.get("patches") else d
f = p.get("findings", []) if isinstance(p, dict) else []
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}
# valid: $T/out matches the schema of --format json, by jsonschema when it
# is installed and always by the small validator in tests/schema_check.py.
SCHEMA=$ROOT/contrib/patchreview.schema.json
valid() {
	python3 "$ROOT/tests/schema_check.py" "$SCHEMA" "$T/out" &&
		python3 "$ROOT/tests/schema_check.py" --mini "$SCHEMA" "$T/out"
}
