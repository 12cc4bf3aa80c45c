#!/bin/sh
# tests/bench.sh: times patchreview on three inputs and prints a table.
#   typical  tests/mails/demo.eml (or a generated ~5 KB one-patch mail)  x50
#   mbox30   30 format-patch patches in one message (~360 KB)            x20
#   big20m   one patch adding a ~20 MiB C file                           x5
# Reports median/max wall ms and peak RSS per input, then the targets
# (typical median <= 5 ms; big20m median <= 1 s and peak RSS <= 4x input).
# Then, when a large git tree is there, the --tree part (tests/bench-tree.py):
# context extraction first and warm, and the prompt with and without it.
# Not a pass/fail test: exits 0 unless the filter crashes (status >= 3 or a
# signal). Inputs come from tests/gen-bench.py into a temporary directory.
#   PR       binary to time (default ./patchreview)
#   PR_ARGS  its arguments (default --no-cache); PR=/bin/cat PR_ARGS= for a dry run
#   BENCH_TREE  a large git tree for the --tree part (../linux/linux-source-6.1)
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

# checkpatch.pl against the built-in checks on the same mails (issue 15):
# only where Debian's linux-source-6.1 package left its tarball; the
# script is read from the tarball into a scratch directory, never copied here.
CP_TARBALL=${CP_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
if [ -f "$CP_TARBALL" ]; then
	python3 tests/bench-checkpatch.py "$PR" "$CP_TARBALL" "$typical" \
		"${CORPUS:-../shared/corpus}/lore-nf-latin2-2047from-patch.eml" || exit 1
else
	echo "bench: no $CP_TARBALL (apt-get install linux-source-6.1); checkpatch.pl not compared"
fi
