#!/bin/sh
# The shape of the code: the include graph between the folders of filter/
# has no cycle, every include names a real "folder/file.h", and no .c file
# is over 600 lines (tests/layout.py). The checker itself is shown a cycle.
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
