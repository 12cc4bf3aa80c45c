#!/bin/sh
# The shape of the code: the include graph between the folders of filter/
# has no cycle, every include names a real "folder/file.h", and no .c file
# is over 600 lines (tests/layout.py), and the Layout of doc/hacking.md
# lists each folder below those it uses. The checker itself is shown a cycle.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { skip "layout" "python3 missing"; exit 0; }

python3 "$ROOT/tests/layout.py" "$ROOT/filter" > "$T/graph"
check "layout: folders form a DAG, includes resolve, files stay small" \
	sh -c "! grep PROBLEM '$T/graph' || { grep PROBLEM '$T/graph'; false; }"

mkdir -p "$T/tree/a" "$T/tree/b"
printf '#include "b/b.h"\n' > "$T/tree/a/a.h"
printf '#include "a/a.h"\n' > "$T/tree/b/b.h"
python3 "$ROOT/tests/layout.py" "$T/tree" > "$T/cycle"
check "layout: the checker reports a cycle" grep -q "include cycle: a -> b -> a" "$T/cycle"

# doc/hacking.md's Layout lists the folders so that each uses only those above it.
python3 - "$ROOT/doc/hacking.md" "$T/graph" > "$T/order" 2>&1 <<'PY'
import os, re, sys
readme = open(sys.argv[1]).read().split("## Layout", 1)[1]
order = re.findall(r"^      (\w+)/ ", readme, re.M)
bad = []
for line in open(sys.argv[2]):
    m = re.match(r"(\S+)\s+-> (.*)", line)
    if m and m.group(1) in order:
        later = [d for d in m.group(2).split() if d not in order[:order.index(m.group(1))]]
        bad += ["%s uses %s, listed below it" % (m.group(1), d) for d in later]
src = os.path.join(os.path.dirname(sys.argv[1]), "..", "filter")
folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
bad += ["%s/ is not in the Layout of doc/hacking.md" % d for d in folders if d not in order]
for b in bad:
    print(b)
PY
check "layout: doc/hacking.md lists each folder below those it uses" \
	sh -c "[ ! -s '$T/order' ] || { cat '$T/order'; false; }"
