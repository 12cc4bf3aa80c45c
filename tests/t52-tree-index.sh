#!/bin/sh
# The symbol index is kept and brought up to date between runs: what a
# request carries must not depend on that history. Two files call foo() at
# the same distance from the patched file; after one of them changes (and
# only it is scanned again) the request is the one a fresh index gives.
. "$(dirname "$0")/lib.sh"
command -v git >/dev/null || { skip "tree index" "git missing"; exit 0; }
B=$T/ixrepo
mkdir -p "$B"
git -C "$B" init -q
gcommit() { git -C "$B" -c user.name=T -c user.email=t@example.org commit -q -a -m "$1"; }
printf 'int foo(int a)\n{\n\treturn a + 1;\n}\n' > "$B/chg.c"
printf 'int foo(int a);\nint xcall(void)\n{\n\treturn foo(1);\n}\n' > "$B/x.c"
printf 'int foo(int a);\nint ycall(void)\n{\n\treturn foo(2);\n}\n' > "$B/y.c"
git -C "$B" add -A && gcommit c0
git -C "$B" checkout -q -b topic
sed -i 's/a + 1/a + 2/' "$B/chg.c" && gcommit "foo: add two"
git -C "$B" format-patch -q --stdout -1 HEAD > "$T/foo.eml"
git -C "$B" checkout -q -
run_pr --tree "$B" --explain-prompt < "$T/foo.eml"
check "both callers are in the request" sh -c "grep -q 'xcall' '$T/out' && grep -q 'ycall' '$T/out'"
# x.c changes: only it is scanned again, the rest of the index is kept.
printf '/* x */\n' >> "$B/x.c" && gcommit "x: a comment"
run_pr --tree "$B" --explain-prompt < "$T/foo.eml"
cp "$T/out" "$T/kept"
XDG_CACHE_HOME=$T/fresh-cache run_pr --tree "$B" --explain-prompt < "$T/foo.eml"
check "a kept index gives the request a fresh one gives" cmp "$T/kept" "$T/out"
check "callers at the same distance in path order" sh -c "
	[ \$(grep -n xcall '$T/kept' | head -1 | cut -d: -f1) -lt \$(grep -n ycall '$T/kept' | head -1 | cut -d: -f1) ]"
