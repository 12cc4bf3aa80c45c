#!/bin/sh
# tests/bench.sh: times patchreview on three inputs and prints a table.
#   typical  tests/mails/demo.eml (or a generated ~5 KB one-patch mail)  x50
#   mbox30   30 format-patch patches in one message (~360 KB)            x20
#   big20m   one patch adding a ~20 MiB C file                           x5
# Reports median/max wall ms and peak RSS per input, then the targets
# (typical median <= 5 ms; big20m median <= 1 s and peak RSS <= 4x input).
# Then, when a large git tree is there, the --tree part (tests/bench-tree.py):
# context extraction first and warm, and the prompt with and without it.
# Then side by side with an earlier build (tests/bench-compare.py): the
# same inputs, the corpus's large patch and each check's worst case, as
# this build's CPU time over the base's, so that a regression reads above
# 1; and both against the anchors: a process start, git mailinfo and
# checkpatch.pl. Then the key press on a mail reviewed at delivery against a
# review with no model (tests/bench-consume.py). Last, the weight of each
# model request, beside the bases' (tests/bench-tokens.py).
# Not a pass/fail test: exits 0 unless the filter crashes (status >= 3 or a
# signal). Inputs come from tests/gen-bench.py into a temporary directory.
#   PR       binary to time (default ./patchreview)
#   PR_ARGS  its arguments (default --no-cache); PR=/bin/cat PR_ARGS= for a dry run
#   BENCH_TREE  a large git tree for the --tree part (../linux/linux-source-6.1);
#            its scripts/checkpatch.pl is the checkpatch.pl compared with
#   BENCH_BASE  the revisions to compare with, side by side in the same run:
#            by default a57c38e (the round before the checks were made
#            linear) and fbf60be (the start of the round after). Each built
#            once from git archive into build/bench-base/.
#   CP_TARBALL  where checkpatch.pl comes from without a tree (Debian's
#            linux-source-6.1)
cd "$(dirname "$0")/.." || exit 2
PR=${PR:-./patchreview}
PR_ARGS=${PR_ARGS---no-cache}
command -v python3 >/dev/null || { echo "bench: needs python3" >&2; exit 2; }

T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
# Time the filter alone: no user configuration, cache or model backend.
export XDG_CONFIG_HOME="$T/config" XDG_CACHE_HOME="$T/cache" XDG_DATA_HOME="$T/data" HOME="$T/home"
for v in $(env | sed -n 's/^\(PATCHREVIEW_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$v"
done

python3 tests/gen-bench.py gen "$T" || exit 2
typical=tests/mails/demo.eml
[ -f "$typical" ] || typical=$T/typical.eml
python3 tests/gen-bench.py measure "$PR" "$PR_ARGS" \
	"typical=$typical:50" "mbox30=$T/mbox30.eml:20" "big20m=$T/big20m.eml:5" || exit 1

# A series: 31 messages parsed and drafted, against git mailsplit + mailinfo;
# 10 model requests at once and one at a time, the stand-in taking 1 s each.
python3 tests/bench-series.py "$PR" "$T" || exit 1

# The --tree part: only where a large tree is at hand (BENCH_TREE, by
# default an unpacked Linux tree beside the checkout).
BENCH_TREE=${BENCH_TREE:-../linux/linux-source-6.1}
if [ -d "$BENCH_TREE/.git" ] || [ -f "$BENCH_TREE/.git" ]; then
	python3 tests/bench-tree.py "$PR" "$BENCH_TREE" "${CORPUS:-../shared/corpus}" || exit 1
else
	echo "bench: no tree at $BENCH_TREE; the --tree part skipped"
fi

# checkpatch.pl: the tree's, or read from Debian's linux-source tarball into
# the scratch directory (never copied here) with the two data files it reads.
CP_TARBALL=${CP_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
checkpatch=
if [ -f "$BENCH_TREE/scripts/checkpatch.pl" ]; then
	checkpatch=$BENCH_TREE/scripts/checkpatch.pl
elif [ -f "$CP_TARBALL" ]; then
	top=$(tar -tJf "$CP_TARBALL" 2>/dev/null | sed -n '1{s|/.*||p;q}')
	for f in checkpatch.pl spelling.txt const_structs.checkpatch; do
		echo "$top/scripts/$f"
	done > "$T/cp-files"
	tar -xJf "$CP_TARBALL" -C "$T" -T "$T/cp-files" && checkpatch=$T/$top/scripts/checkpatch.pl
else
	echo "bench: no checkpatch.pl ($CP_TARBALL absent: apt-get install linux-source-6.1)"
fi

# The base builds, side by side: each made once per revision from git archive.
bases=
for base in ${BENCH_BASE:-a57c38e fbf60be}; do
	rev=$(git rev-parse --short "$base^{commit}" 2>/dev/null)
	if [ -z "$rev" ]; then
		echo "bench: no revision '$base' in this checkout; not compared with"
		continue
	fi
	dir=build/bench-base/$rev
	if [ ! -x "$dir/patchreview" ]; then
		echo "bench: building $base ($rev) in $dir"
		rm -rf "$dir" && mkdir -p "$dir" && git archive "$rev" | tar -x -C "$dir" &&
			make -C "$dir" patchreview >/dev/null 2>&1 ||
			{ echo "bench: $base does not build" >&2; exit 1; }
	fi
	bases="$bases $base=$dir/patchreview"
done
if [ -n "$bases" ]; then
	# shellcheck disable=SC2086 # one word per base
	python3 tests/bench-compare.py "$PR" "$T" "${CORPUS:-../shared/corpus}" \
		"$checkpatch" $bases || exit 1
fi
python3 tests/bench-consume.py "$PR" tests/mails/llm-net.eml tests/mails/demo.eml \
	"${CORPUS:-../shared/corpus}/patchew-html-base64-rfc2047-from.mbox" || exit 1
# shellcheck disable=SC2086 # one word per base
python3 tests/bench-tokens.py "$PR" "${CORPUS:-../shared/corpus}" $bases || exit 1
