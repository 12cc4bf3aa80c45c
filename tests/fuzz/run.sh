#!/bin/sh
# tests/fuzz/run.sh: runs the libFuzzer targets of tests/fuzz/, one after
# another (they are built by `make fuzz-targets` into build/fuzz/).
#
#   run.sh can-build           is $FUZZ_CC able to build -fsanitize=fuzzer?
#   run.sh fuzz SECONDS [T..]  each target for SECONDS (make fuzz), growing
#                              build/fuzz/corpus/TARGET; one summary line each
#   run.sh check [T..]         every seed once, then 1000 runs from a fixed
#                              seed (make check runs this through t60-fuzz.sh)
#
# Seeds are read in place: tests/mails, tests/parse, ../shared/corpus (or
# $CORPUS), prompts/, filter/ (C), tests/fuzz/regressions/TARGET, and what
# seeds.py makes (answers and streams from the stand-in server, patches of
# this tree's files, drafts and replies). A crash is saved as build/fuzz/crash-*
# (the target's output says why); once fixed, add it to
# tests/fuzz/regressions/TARGET/ so that every check replays it.
cd "$(dirname "$0")/../.." || exit 2
B=build/fuzz
TARGETS="mail answer stream config guide cscan apply thread learn"
CORPUS=${CORPUS:-../shared/corpus}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

seeds() {
	target=$1
	case $target in
	mail) set -- tests/mails tests/parse; [ -d "$CORPUS" ] && set -- "$@" "$CORPUS" ;;
	thread) set -- tests/mails; [ -d "$CORPUS" ] && set -- "$@" "$CORPUS" ;;
	guide) set -- prompts ;;
	cscan) set -- filter tests/tools ;;
	*) set -- "$B/seeds/$target" ;;
	esac
	[ -d "tests/fuzz/regressions/$target" ] && set -- "$@" "tests/fuzz/regressions/$target"
	echo "$@"
}

dict() {
	case $1 in
	answer | stream) echo tests/fuzz/json.dict ;;
	*) echo "tests/fuzz/$1.dict" ;;
	esac
}

# fuzz_one TARGET SCRATCH FLAGS...: one run; its last status line to stdout.
fuzz_one() {
	t=$1 dir=$2
	shift 2
	mkdir -p "$dir"
	# The first directory gets what the run finds; the seed directories are only read.
	"$B/fuzz_$t" "$@" -dict="$(dict "$t")" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
		-artifact_prefix="$B/crash-$t-" "$dir" $(seeds "$t") \
		>"$B/$t.log" 2>&1
	status=$?
	grep -E '^#[0-9]+' "$B/$t.log" | tail -1 | sed 's/ *MS: .*//' 
	return $status
}

mode=$1
[ $# -gt 0 ] && shift
case $mode in
can-build)
	printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' |
		${FUZZ_CC:-clang} -x c -fsanitize=fuzzer,address,undefined -o /dev/null - 2>/dev/null
	exit ;;
fuzz)
	seconds=${1:-60}
	[ $# -gt 0 ] && shift ;;
check) ;;
*)
	echo "usage: tests/fuzz/run.sh can-build | fuzz SECONDS [TARGET...] | check [TARGET...]" >&2
	exit 2 ;;
esac
[ $# -gt 0 ] && TARGETS=$*
python3 tests/fuzz/seeds.py "$B/seeds" || exit 2
failed=0
for t in $TARGETS; do
	if [ "$mode" = fuzz ]; then
		line=$(fuzz_one "$t" "$B/corpus/$t" -max_total_time="$seconds" -print_final_stats=1)
		st=$?
	else
		scratch=$(mktemp -d)
		line=$(fuzz_one "$t" "$scratch" -seed=1 -runs=1000)
		st=$?
		rm -rf "$scratch"
	fi
	if [ "$st" -eq 0 ]; then
		echo "fuzz_$t: $line"
	else
		echo "fuzz_$t: FAILED (status $st), see $B/$t.log: $(grep -m1 -E 'ERROR|invariant|Sanitizer|deadly|Timeout' "$B/$t.log")"
		failed=1
	fi
done
exit $failed
