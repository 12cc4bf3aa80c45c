#!/bin/sh
# The shape of the code (tests/layout.py): no cycle between the folders of
# filter/, none between its modules (a .c and its .h, which depend on the
# headers they include and on the files whose functions they call), every
# include names a real "folder/file.h", no .c file is over 600 lines and no
# folder holds over 20 files; and the Layout section of the docs lists each
# folder below those it uses. The checker itself is shown each bad case.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { skip "layout" "python3 missing"; exit 0; }

python3 "$ROOT/tests/layout.py" "$ROOT/filter" > "$T/graph"
check "layout: no cycle between folders or files, includes resolve, files and folders stay small" \
	sh -c "! grep PROBLEM '$T/graph' || { grep PROBLEM '$T/graph'; false; }"

mkdir -p "$T/tree/a" "$T/tree/b"
printf '#include "b/b.h"\n' > "$T/tree/a/a.h"
printf '#include "a/a.h"\n' > "$T/tree/b/b.h"
python3 "$ROOT/tests/layout.py" "$T/tree" > "$T/cycle"
check "layout: the checker reports a cycle" grep -q "include cycle: a -> b -> a" "$T/cycle"

# Two files of one folder that include each other's header.
mkdir -p "$T/files/m"
printf '#include "m/y.h"\n' > "$T/files/m/x.c"
printf '#include "m/x.h"\n' > "$T/files/m/y.c"
: > "$T/files/m/x.h"
: > "$T/files/m/y.h"
python3 "$ROOT/tests/layout.py" "$T/files" > "$T/out"
check "layout: the checker reports a cycle between files" \
	grep -q "file cycle: m/x (includes m/y.h) -> m/y (includes m/x.h) -> m/x" "$T/out"
# A header declaring two files' functions, each file calling the other's.
mkdir -p "$T/calls/m"
printf 'void one(void);\nvoid two(void);\n' > "$T/calls/m/both.h"
printf '#include "m/both.h"\nvoid one(void)\n{\n\ttwo();\n}\n' > "$T/calls/m/one.c"
printf '#include "m/both.h"\nvoid two(void)\n{\n\tone();\n}\n' > "$T/calls/m/two.c"
python3 "$ROOT/tests/layout.py" "$T/calls" > "$T/out"
check "layout: the checker sees a cycle through a shared header" \
	grep -q "file cycle: m/one (calls two()) -> m/two (calls one()) -> m/one" "$T/out"
check "layout: one-way use through a shared header is no cycle" sh -c "
	printf '#include \"m/both.h\"\nvoid two(void)\n{\n}\n' > '$T/calls/m/two.c' &&
	python3 '$ROOT/tests/layout.py' '$T/calls' > '$T/out'; ! grep -q 'file cycle' '$T/out'"
mkdir -p "$T/big/b"
for i in $(seq 1 21); do : > "$T/big/b/f$i.h"; done
python3 "$ROOT/tests/layout.py" "$T/big" > "$T/out"
check "layout: the checker reports a folder of 21 files" grep -q "PROBLEM: b/: 21 files (over 20)" "$T/out"

# The Layout section (README.md, or a page under doc/) lists the folders
# so that each uses only those above it.
python3 - "$ROOT" "$T/graph" > "$T/order" 2>&1 <<'PY'
import glob, os, re, sys
pages = [os.path.join(sys.argv[1], "README.md")] + sorted(glob.glob(os.path.join(sys.argv[1], "doc", "**", "*.md"), recursive=True))
texts = [open(p).read() for p in pages if os.path.isfile(p)]
layout = [re.split(r"^#+ Layout\s*$", t, maxsplit=1, flags=re.M)[1] for t in texts if re.search(r"^#+ Layout\s*$", t, re.M)]
if not layout:
    print("no page has a Layout section")
    sys.exit()
readme = layout[0]
order = re.findall(r"^      (\w+)/ ", readme, re.M)
bad = []
for line in open(sys.argv[2]):
    m = re.match(r"(\S+)\s+-> (.*)", line)
    if m and m.group(1) in order:
        later = [d for d in m.group(2).split() if d not in order[:order.index(m.group(1))]]
        bad += ["%s uses %s, listed below it" % (m.group(1), d) for d in later]
folders = sorted(d for d in os.listdir(os.path.join(sys.argv[1], "filter"))
                 if os.path.isdir(os.path.join(sys.argv[1], "filter", d)))
bad += ["%s/ is not in the Layout" % d for d in folders if d not in order]
for b in bad:
    print(b)
PY
check "layout: the Layout lists each folder below those it uses" \
	sh -c "[ ! -s '$T/order' ] || { cat '$T/order'; false; }"
