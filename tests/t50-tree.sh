#!/bin/sh
# --tree: this repository's own history as the maintainer's tree. A
# temporary clone, real commits through git format-patch, checked out at
# fixed commits so that the answers never move: which base is read, whether
# the patch applies, the code chosen for the prompt and the budget's cut
# order, the tree's checkpatch.pl (a stand-in) merged with the built-in
# checks, the checks only a tree allows, and the tree left as it was.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/llm-lib.sh"
command -v git >/dev/null || { skip "tree" "git missing"; exit 0; }
command -v python3 >/dev/null || { skip "tree" "python3 missing"; exit 0; }
# cf1c6a0 changes best_line() in filter/anchor.c; d43c91f adds
# write_file_atomic() to filter/base/slurp.c and uses it in cache_put().
for c in cf1c6a0 d43c91f; do
	git -C "$ROOT" cat-file -e "$c^{commit}" 2>/dev/null ||
		{ skip "tree" "commit $c is not in this checkout's history"; exit 0; }
done
TREE=$T/tree
# Our scratch directories go here, to see that none is left behind.
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
git clone -q "$ROOT" "$TREE" || { fail "tree: clone" "git clone failed"; exit 0; }
git -C "$TREE" format-patch -q --stdout -1 cf1c6a0 > "$T/anchor.eml"
git -C "$TREE" format-patch -q --stdout -1 d43c91f > "$T/atomic.eml"
git -C "$TREE" format-patch -q --stdout --base=d43c91f~1 -1 d43c91f > "$T/atomic-base.eml"
at() { git -C "$TREE" checkout -q --detach "$1"; }

# Two commits made here for the checks only a tree allows: config_set()
# takes a fifth argument, its callers left as they are; buf_reset() goes
# while its callers stay.
at d43c91f
commit() { git -C "$TREE" -c user.name=T -c user.email=t@example.org commit -q -a -m "$1"; }
python3 - "$TREE/filter/config/config.c" "$TREE/filter/config/config.h" <<'PY'
import sys
for path in sys.argv[1:]:
    s = open(path).read()
    old = "int config_set(struct config *c, "
    assert old in s
    open(path, "w").write(s.replace(old, old + "bool quiet, ", 1))
PY
commit "config: config_set can be quiet"
git -C "$TREE" format-patch -q --stdout -1 HEAD > "$T/signature.eml"
at d43c91f
python3 - "$TREE/filter/base/buf.c" "$TREE/filter/base/buf.h" <<'PY'
import re, sys
c, h = sys.argv[1:]
s = open(c).read()
open(c, "w").write(re.sub(r"\nvoid buf_reset\(struct buf \*b\)\n\{.*?\n\}\n", "\n", s, flags=re.S))
s = open(h).read()
open(h, "w").write(s.replace("void buf_reset(struct buf *b);\n", ""))
PY
commit "buf: no buf_reset"
git -C "$TREE" format-patch -q --stdout -1 HEAD > "$T/removed.eml"
at d43c91f
sed -i 's/warn("the input holds more than one message; reviewing the first");/warn("the input holds more than one message; only the first is reviewed");/' \
	"$TREE/filter/mail/input.c"
commit "mail: a clearer word on extra messages"
git -C "$TREE" format-patch -q --stdout -1 HEAD > "$T/long.eml"
out_has() { grep -q -E -- "$1" "$T/out"; }
out_lacks() { ! grep -q -E -- "$1" "$T/out"; }
note_has() { notes "$T/out" | grep -q -F -- "$1"; }

# Which base, and whether the patch applies there: the first note of the draft.
at cf1c6a0~1
run_pr --tree "$TREE" < "$T/anchor.eml"
check "applies: exit 0, the work tree named with its HEAD, the first note" sh -c "
	[ $status -eq 0 ] && python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Note '$T/out' | head -1 | grep -q -x 'tree: the patch applies to the work tree (HEAD fa08a9130344)'"
at d43c91f
# Without index lines (not a git diff) no base can be guessed: the work tree.
sed '/^index /d' "$T/atomic.eml" > "$T/atomic-noindex.eml"
run_pr --tree "$TREE" < "$T/atomic-noindex.eml"
check "does not apply: the first failing file and hunk, at the top" \
	note_has "tree: the patch does not apply to the work tree (HEAD d43c91f99020): filter/base/slurp.c, hunk 1 of 2 (@@ -1,6 +1,9 @@) does not apply; the context is from the files as they are"
check "does not apply: still reviewed, exit 0" sh -c "[ $status -eq 0 ] && grep -q ' wrote:\$' '$T/out'"
run_pr --tree "$TREE" < "$T/atomic-base.eml"
check "base-commit: read at the mail's base when the tree has it" \
	note_has "tree: the patch applies to base-commit 2a1456529276 (from the mail)"
sed 's/^base-commit: .*/base-commit: 0123456789abcdef0123456789abcdef01234567/' "$T/atomic-base.eml" > "$T/unknown-base.eml"
run_pr --tree "$TREE" < "$T/unknown-base.eml"
check "base-commit: unknown to the tree, the base is guessed and the note says so" \
	note_has "tree: the patch applies to commit 2a1456529276 (guessed from the index lines: the newest commit where all 3 files match; the mail's base-commit 0123456789ab is not in the tree)"
run_pr --tree "$TREE" < "$T/atomic.eml"
check "guess: no base named, the parent found from the index lines" \
	note_has "tree: the patch applies to commit 2a1456529276 (guessed from the index lines: the newest commit where all 3 files match)"
check "HEAD: read at another base, whether it applies to HEAD, the conflicting file and hunk" \
	note_has "tree: the patch does not apply to HEAD d43c91f99020: filter/base/slurp.c, hunk 1 of 2 (@@ -1,6 +1,9 @@) does not apply"

# A scratch file that cannot be written (a file size limit of 1 KiB, its
# signal ignored; the draft goes through a pipe, which has no such limit):
# no check, said so, and nothing reads the path that was not written.
sh -c "trap '' XFSZ; ulimit -f 2; exec \"\$0\" --tree \"\$1\"" "$PR" "$TREE" \
	< "$T/atomic.eml" 2>"$T/err" | cat > "$T/out"
check "scratch file not written: the apply check not made, the note says so" \
	note_has "could not prepare the check"
check "scratch file not written: ... the review written, no sanitizer report" \
	sh -c "grep -q ' wrote:\$' '$T/out' && ! grep -q -e Sanitizer -e 'runtime error' '$T/err'"

# The context: the changed function whole, the definitions the added lines use.
at cf1c6a0~1
run_pr --tree "$TREE" --explain-prompt < "$T/anchor.eml"
context() { sed -n '/^Context from the tree/,/^Context: /p' "$T/out" | grep -E '^  (in|short|cut) '; }
check "context: best_line() whole, after the patch" \
	out_has '^  in    changed +[0-9]+ bytes  filter/anchor.c:74-92: function best_line\(\), changed by the patch, as the patch leaves it$'
check "context: struct patch_line, the type of the 'l' the added line reads" \
	out_has '^  in    definition +[0-9]+ bytes  filter/patch.h:28-36: struct patch_line, used by the added lines$'
check "context: nothing else (no locals, no unrelated files)" sh -c "[ \$(sed -n '/^Context from the tree/,/^Context: /p' '$T/out' | grep -c -E '^  (in|short|cut) ') -eq 2 ]"
check "context: the budget line" out_has '^Context: [0-9]+ of 12000 bytes \(context_budget\), 2 items in, 0 cut; the changed code takes [0-9]+'
at d43c91f
run_pr --tree "$TREE" --explain-prompt < "$T/atomic-base.eml"
check "context: read at the base, both changed functions" sh -c "
	grep -q -E '^  in    changed +[0-9]+ bytes  filter/base/slurp.c:46-72: function write_file_atomic\(\)' '$T/out' &&
	grep -q -E '^  in    changed +[0-9]+ bytes  filter/model/cache.c:80-99: function cache_put\(\)' '$T/out'"
check "context: definitions from the headers the added lines use" \
	grep -q -E '^  in    definition +[0-9]+ bytes  filter/base/buf.h:8-12: struct buf' "$T/out"
check "contracts: a helper whose result the added lines test, ahead of the definitions" \
	python3 - "$T/out" <<'PY'
import re, sys
rows = re.findall(r"^  in +(\w+) +\d+ bytes  (.*)$", open(sys.argv[1]).read(), re.M)
kinds = [k for k, _ in rows]
at = [i for i, (k, t) in enumerate(rows) if k == "contract" and
      t == "filter/base/paths.c:35-47: function make_dirs(), whose result the added lines test"]
sys.exit(0 if at and "definition" in kinds and at[0] < kinds.index("definition") else 1)
PY
check "contracts: an out-parameter (&path) names buf_add()" \
	out_has '^  in    contract +[0-9]+ bytes  filter/base/buf.c:[0-9-]+: function buf_add\(\), called by the added lines with an out-parameter'
check "context: every definition names something the added lines use" python3 - "$T/out" "$T/atomic-base.eml" <<'PY'
import re, sys
out, mail = open(sys.argv[1]).read(), open(sys.argv[2]).read()
added = "\n".join(l[1:] for l in mail.split("\n") if l.startswith("+") and not l.startswith("+++"))
names = re.findall(r"^  in +definition +\d+ bytes  \S+: \w+ (\w+)", out, re.M)
sys.exit(0 if names and all(re.search(r"\b%s\b" % n, added) for n in names) else 1)
PY
run_pr --tree "$TREE" --request-name contracts --requests-out "$T/creq" < "$T/atomic-base.eml"
check "contracts: the callee's body is in the request" python3 - "$T/creq/contracts.json" <<'PY'
import json, sys
u = json.load(open(sys.argv[1]))["messages"][0]["content"]
ok = ("function make_dirs(), whose result the added lines test\nint make_dirs(char *path)\n{" in u
      and "\treturn mkdir(path, 0700) < 0 && errno != EEXIST ? -1 : 0;\n}" in u)
sys.exit(0 if ok else 1)
PY

# The budget: changed functions, then definitions, then callers; a cut
# priority cuts everything below it. config_set()'s patch has all three;
# the budget holds the changed function and the smallest caller, but not
# the definition of struct config, so no caller may go in.
at d43c91f
run_pr --tree "$TREE" --explain-prompt < "$T/signature.eml"
context > "$T/all"
check "budget: the patch has a changed function, a definition and callers" sh -c "
	grep -q '^  in    changed .* function config_set()' '$T/all' &&
	grep -q '^  in    definition .* struct config, used' '$T/all' &&
	grep -q '^  in    caller .* a call of config_set(), whose signature the patch changes' '$T/all'"
budget=$(awk '$2 == "changed" { c += $3 } $2 == "definition" && (!d || $3 < d) { d = $3 }
	$2 == "caller" && (!s || $3 < s) { s = $3 } END { if (s < d) print c + s }' "$T/all")
PATCHREVIEW_CONTEXT_BUDGET=${budget:-1} run_pr --tree "$TREE" --explain-prompt < "$T/signature.eml"
context > "$T/order"
check "budget: the changed function goes in first" grep -q '^  in    changed' "$T/order"
check "budget: the definition that does not fit is cut" grep -q '^  cut   definition' "$T/order"
check "budget: in priority order, nothing after the first cut of a lower kind" python3 - "$T/order" <<'PY'
import sys
rank = {"changed": 0, "contract": 1, "definition": 2, "caller": 3}
rows = [l.split()[:2] for l in open(sys.argv[1])]
kinds = [rank[k] for _, k in rows]
cut_at = min((rank[k] for f, k in rows if f == "cut"), default=9)
ok = kinds == sorted(kinds) and all(f == "cut" for f, k in rows if rank[k] > cut_at)
sys.exit(0 if ok else 1)
PY
check "budget: within it" out_has "^Context: [0-9]+ of $budget bytes \(context_budget\), 1 item in"
# A long function that does not fit whole goes in short: its head and the change.
run_pr --tree "$TREE" --explain-prompt < "$T/long.eml"
full=$(awk '$1 == "in" && $2 == "changed" { print $3 }' "$T/out")
check "short: mail_read() is 49 lines, whole with the default budget" \
	out_has '^  in    changed +[0-9]+ bytes  filter/mail/input.c:147-195: function mail_read\(\)'
PATCHREVIEW_CONTEXT_BUDGET=$((full - 1)) run_pr --tree "$TREE" --explain-prompt < "$T/long.eml"
check "short: with a budget one byte too small, its short form" \
	out_has '^  short changed +[0-9]+ bytes  filter/mail/input.c:147-195: function mail_read\(\)'
PATCHREVIEW_CONTEXT_BUDGET=0 run_pr --tree "$TREE" --explain-prompt < "$T/atomic-base.eml"
check "budget 0: everything cut" sh -c "! grep -q -E '^  (in|short) ' '$T/out' && grep -q '^Context: 0 of 0 bytes' '$T/out'"

# The model gets the code, fenced as data, after the patch; without a tree nothing changes.
start_server
use_backend openai
export PATCHREVIEW_MODEL=scenario:ok PATCHREVIEW_CACHE=no
at cf1c6a0~1
run_pr --tree "$TREE" < "$T/anchor.eml"
check "prompt: the context after the patch, in its own fence" \
	logq 'u.index("\nPATCH>>>\n") < u.index("\n<<<CONTEXT\n") and u.endswith("\nCONTEXT>>>\n")'
check "prompt: the whole changed function, after the patch" \
	logq '"=== filter/anchor.c:74-92: function best_line()" in u and "static struct candidate best_line(const struct patch *p" in u and "size_t skip = !message && l->len;" in u.split("\n<<<CONTEXT\n")[1]'
check "prompt: the note on the base inside the fence" \
	logq '"tree: the patch applies to the work tree" in u.split("\n<<<CONTEXT\n")[1]'
run_pr < "$T/anchor.eml"
check "prompt: without --tree, no context" logq '"<<<CONTEXT" not in u'
at d43c91f
PATCHREVIEW_CONTEXT_BUDGET=$((full - 1)) run_pr --tree "$TREE" < "$T/long.eml"
check "short: the head, the change with its surroundings, and the end" \
	logq '"int mail_read(int fd, struct mail *m)\n{\n[... lines 149-163 ...]\n" in u and "only the first is reviewed" in u and "[... lines 177-194 ...]\n}\n" in u'

# The tree's checkpatch.pl: a stand-in that logs how it was run, and
# whether the model was asked while it ran (it waits up to 10 s for the
# stand-in server's first request), and reports on each mail it is given:
# on an added line twice (one type a built-in rule stands for), a context
# line and the commit message.
cat > "$T/checkpatch.pl" <<'PY'
#!/usr/bin/env python3
import os, sys, time
asked = False
for _ in range(100):
    if os.path.exists("@LLM_LOG@") and os.path.getsize("@LLM_LOG@"):
        asked = True
        break
    time.sleep(0.1)
with open("@CP_LOG@", "a") as log:   # our environment is not passed on
    log.write("cwd=%s args=%s model-asked=%s\n" % (os.getcwd(), " ".join(sys.argv[1:]),
                                                   "yes" if asked else "no"))
for name in [a for a in sys.argv[1:] if not a.startswith("-")]:
    lines = open(name).read().split("\n")
    added = [i + 1 for i, l in enumerate(lines) if l.startswith("+") and not l.startswith("+++")]
    context = [i + 1 for i, l in enumerate(lines) if l.startswith(" ") and i > 10]
    print("%s:%d: WARNING:STANDIN_ADDED: an added line" % (name, added[0]))
    print("%s:%d: ERROR:TRAILING_WHITESPACE: trailing whitespace" % (name, added[0]))
    if len(added) > 1:
        print("%s:%d: WARNING:STANDIN_ADDED: an added line" % (name, added[1]))
    if context:
        print("%s:%d: WARNING:STANDIN_CONTEXT: a context line" % (name, context[0]))
    print("%s:4: WARNING:STANDIN_MESSAGE: the commit message" % name)
print("total: 1 errors, 4 warnings")
sys.exit(1)
PY
CP_LOG=$T/cp.log
sed -i -e "s|@CP_LOG@|$CP_LOG|g" -e "s|@LLM_LOG@|$LOG|g" "$T/checkpatch.pl"
chmod +x "$T/checkpatch.pl"
mkdir -p "$TREE/scripts"
cp "$T/checkpatch.pl" "$TREE/scripts/checkpatch.pl"
at cf1c6a0~1
run_pr --tree "$TREE" < "$T/anchor.eml"
check "checkpatch: the tree's code is not run unless checkpatch = yes" \
	sh -c "[ ! -s '$CP_LOG' ] && ! grep -q 'checkpatch.pl:' '$T/out'"
: > "$LOG"
PATCHREVIEW_CHECKPATCH=yes run_pr --tree "$TREE" < "$T/anchor.eml"
check "checkpatch: its report on an added line, under that line, with the count of the rest" \
	under '> +		/* The diff marker; an empty context line lost it to the mailer. */' \
	'^nit: checkpatch.pl: an added line \(STANDIN_ADDED; 1 more like it below\)$'
check "checkpatch: a report on the commit message kept" draft_has 'checkpatch.pl: the commit message \(STANDIN_MESSAGE\)'
check "checkpatch: nothing about unchanged lines" draft_lacks STANDIN_CONTEXT
check "checkpatch: no duplicate of a built-in rule's type" draft_lacks TRAILING_WHITESPACE
check "checkpatch: run while the model reviews the patch, not before" grep -q 'model-asked=yes$' "$CP_LOG"
closing() { sed -n 's/^X-Patchreview-Summary: The built-in checks made \([0-9]*\) comments\.$/\1/p' "$T/out"; }
with_cp=$(closing)
check "checkpatch: run with --no-tree from our scratch directory, not the tree" sh -c "
	grep -q -- '--no-tree --terse --show-types --color=never --no-summary checkpatch.0.mail model-asked' '$CP_LOG' &&
	! grep -q 'cwd=$TREE' '$CP_LOG'"
: > "$CP_LOG"
PATCHREVIEW_CHECKPATCH=no run_pr --tree "$TREE" < "$T/anchor.eml"
check "checkpatch = no: not run" sh -c "[ ! -s '$CP_LOG' ] && ! grep -q 'checkpatch.pl:' '$T/out'"
without_cp=$(closing)
check "checkpatch: the checks' closing sentence counts its 2 comments" \
	test "${with_cp:-0}" -eq $((${without_cp:-0} + 2))
PATCHREVIEW_CHECKPATCH=yes PATCHREVIEW_SKIP_CHECKS=checkpatch run_pr --tree "$TREE" < "$T/anchor.eml"
check "skip_checks = checkpatch: not run either" sh -c "! grep -q 'checkpatch.pl:' '$T/out'"
chmod -x "$TREE/scripts/checkpatch.pl"
: > "$CP_LOG"
PATCHREVIEW_CHECKPATCH=yes run_pr --tree "$TREE" < "$T/anchor.eml"
check "checkpatch: not executable, not run" sh -c "[ ! -s '$CP_LOG' ] && ! grep -q 'checkpatch.pl:' '$T/out'"
rm -rf "$TREE/scripts"

# The checks only a tree allows, on the commits made above.
at d43c91f
run_pr --tree "$TREE" < "$T/signature.eml"
check "signature-callers: the callers the patch leaves behind, under the new signature" \
	under '> +int config_set(struct config *c, bool quiet, const char *name, const char *value,' \
	'^config_set\(\) now takes 5 arguments instead of 4, but'
check "signature-callers: named, nearest first, with a count" sh -c "sed -n '/now takes 5/,/^\$/p' '$T/out' | tr '\n' ' ' |
	grep -q -E 'but filter/config/config.c:[0-9]+ \(in read_file\(\)\), filter/config/config.c:[0-9]+ \(in read_environment\(\)\), .* and [0-9]+ more still pass 4: the patch leaves those callers unchanged\.'"
run_pr --tree "$TREE" < "$T/removed.eml"
still_called() {
	under '> -void buf_reset(struct buf *b)' '^This removes buf_reset\(\), but ' &&
		sed -n '/^This removes buf_reset/,/^$/p' "$T/out" | tr '\n' ' ' |
		grep -q -E 'filter/[a-z/]+\.c:[0-9]+ .* still call it\.'
}
check "removed-symbol: a removed function still called in the tree" still_called
PATCHREVIEW_SKIP_CHECKS="removed-symbol signature-callers" run_pr --tree "$TREE" < "$T/removed.eml"
check "removed-symbol: skip_checks turns it off" draft_lacks 'This removes buf_reset'
run_pr < "$T/removed.eml"
check "removed-symbol: nothing without a tree" draft_lacks 'This removes'

# Fixes: with a tree: the commit is there, under the subject quoted.
# atomic.eml (d43c91f) with a Fixes: naming cf1c6a0, an ancestor of it.
fixes() {
	awk -v tag="$1" '!done && /^---$/ { print ""; print tag; done = 1 } { print }' \
		"$T/atomic.eml" > "$T/fixes.eml"
}
at d43c91f
fixes 'Fixes: cf1c6a02cf0d ("anchor: do not read before an empty context line")'
run_pr --tree "$TREE" < "$T/fixes.eml"
check "fixes-commit: the right id and subject, silent" sh -c "
	[ $status -eq 0 ] && grep -q '^> Fixes: cf1c6a02cf0d' '$T/out' && ! grep -q -e 'The tree has no commit' -e 'in the tree, not the subject' '$T/out'"
fixes 'Fixes: cf1c6a02cf0d ("anchor: read before an empty context line")'
run_pr --tree "$TREE" < "$T/fixes.eml"
check "fixes-commit: another subject, named with the tree's" \
	draft_has 'Commit cf1c6a02cf0d is "anchor: do not read before an empty context$'
run_pr < "$T/fixes.eml"
check "fixes-commit: nothing without a tree" draft_lacks 'in the tree, not the subject'
fixes 'Fixes: 0123456789ab ("anchor: do not read before an empty context line")'
run_pr --tree "$TREE" < "$T/fixes.eml"
check "fixes-commit: an id the tree lacks" draft_has 'The tree has no commit 0123456789ab\.'
PATCHREVIEW_SKIP_CHECKS=fixes-commit run_pr --tree "$TREE" < "$T/fixes.eml"
check "fixes-commit: skip_checks turns it off" draft_lacks 'The tree has no commit'

# prerequisite-patch-id: the base moves to the tree's commit that has them.
at d43c91f
git -C "$TREE" checkout -q -b prereq
sed -i 's/^#define SLURP_CHUNK 65536$/#define SLURP_CHUNK 131072/' "$TREE/filter/base/slurp.c"
commit "slurp: bigger reads"
sed -i 's/^#define SLURP_CHUNK 131072$/#define SLURP_CHUNK 262144/' "$TREE/filter/base/slurp.c"
commit "slurp: bigger reads still"
git -C "$TREE" format-patch -q --stdout --base=d43c91f -1 HEAD > "$T/needs.eml"
git -C "$TREE" format-patch -q --stdout --cover-letter --base=d43c91f -1 HEAD > "$T/needs-series.mbox"
prereq=$(git -C "$TREE" rev-parse HEAD~1)
check "prerequisite: the mail names one" grep -q '^prerequisite-patch-id: ' "$T/needs.eml"
git -C "$TREE" reset -q --hard HEAD~1
run_pr --tree "$TREE" < "$T/needs.eml"
check "prerequisite: found in the tree, the patch applies on top of it" \
	note_has "tree: the patch applies to base-commit d43c91f99020 (from the mail) and its 1 prerequisite patch (up to commit $(echo "$prereq" | cut -c1-12))"
# With a cover letter, the base and the prerequisites are in it alone.
rm -rf "$T/needs-out"
run_pr --tree "$TREE" --output-dir "$T/needs-out" < "$T/needs-series.mbox"
check "prerequisite: the cover letter's, for the patches of its series" sh -c "
	[ \$(grep -c '^prerequisite-patch-id: ' '$T/needs-series.mbox') -eq 1 ] &&
	python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Note '$T/needs-out/0001'* |
	grep -q -F 'tree: the patch applies to base-commit d43c91f99020 (from the series) and its 1 prerequisite patch (up to commit $(echo "$prereq" | cut -c1-12))'"
at d43c91f
run_pr --tree "$TREE" < "$T/needs.eml"
check "prerequisite: not in the tree, said so; the patch does not apply to the base alone" \
	note_has "tree: the patch does not apply to base-commit d43c91f99020 (from the mail); not in the tree nor among the messages on hand: prerequisite-patch-id $(grep '^prerequisite-patch-id: ' "$T/needs.eml" | cut -c24-35): filter/base/slurp.c, hunk 1 of 1"

# The prerequisites' patch-ids are computed once a run for a base: a
# series of 5 patches whose cover letter names one runs git log -p once
# (counted by a git in PATH that logs its arguments), not once a patch.
at d43c91f
git -C "$TREE" checkout -q -b prereq5
sed -i 's/^#define SLURP_CHUNK 65536$/#define SLURP_CHUNK 131072/' "$TREE/filter/base/slurp.c"
commit "slurp: bigger reads"
for i in 1 2 3 4 5; do
	echo "/* $i */" >> "$TREE/filter/base/slurp.c"
	commit "slurp: note $i"
done
git -C "$TREE" format-patch -q --stdout --cover-letter --base=d43c91f -5 HEAD > "$T/prereq5.mbox"
git -C "$TREE" reset -q --hard HEAD~5
mkdir -p "$T/bin"
real_git=$(command -v git)
printf '#!/bin/sh\necho "$*" >> "%s"\nexec "%s" "$@"\n' "$T/git.log" "$real_git" > "$T/bin/git"
chmod +x "$T/bin/git"
# once WHAT TREE MBOX DIR ERE NOTE N: MBOX reviewed with --tree TREE into
# DIR, through that git, runs one git command matching ERE, and N of the
# drafts carry the note NOTE.
once() {
	: > "$T/git.log"
	rm -rf "$4"
	PATH="$T/bin:$PATH" run_pr --tree "$2" --output-dir "$4" < "$3"
	check "$1" sh -c "
		[ \$(grep -c -e '$5' '$T/git.log') -eq 1 ] &&
		for f in '$4/'*; do python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Note \"\$f\"; done |
		[ \$(grep -c -F '$6') -eq $7 ]"
}
once "prerequisite: a 5-patch series runs git log -p once for them" "$TREE" "$T/prereq5.mbox" \
	"$T/p5-out" ' log .* -p ' 'and its 1 prerequisite patch (up to commit' 5

# A series: the cover letter's base-commit is every patch's, and patch k
# is checked, and its files read, on top of patches 1..k-1. Patch 2 changes
# a line patch 1 adds; patch 3 one that patch 2 changes.
at d43c91f
git -C "$TREE" checkout -q -b series
sed -i 's/^#define SLURP_CHUNK 65536$/&\n#define SLURP_SERIES_A 1\n#define SLURP_SERIES_B 2/' "$TREE/filter/base/slurp.c"
commit "slurp: two series constants"
sed -i 's/^#define SLURP_SERIES_B 2$/#define SLURP_SERIES_B 3/' "$TREE/filter/base/slurp.c"
commit "slurp: B is 3"
sed -i 's/^#define SLURP_SERIES_B 3$/#define SLURP_SERIES_B 4/' "$TREE/filter/base/slurp.c"
commit "slurp: B is 4"
git -C "$TREE" format-patch -q --stdout --cover-letter --base=d43c91f -3 HEAD > "$T/series.mbox"
check "series: only the cover letter names the base" sh -c "[ \$(grep -c '^base-commit: ' '$T/series.mbox') -eq 1 ]"
at d43c91f
rm -rf "$T/series-out"
run_pr --tree "$TREE" --output-dir "$T/series-out" < "$T/series.mbox"
series_note() { notes "$T/series-out/$1"* | grep -q -F -- "$2"; }
check "series: patch 1 applies to the cover letter's base" \
	series_note 0001 "tree: the patch applies to base-commit d43c91f99020 (from the series)"
check "series: patch 2 applies on top of patch 1" \
	series_note 0002 "tree: the patch applies to base-commit d43c91f99020 (from the series) on top of the 1 patch before it in the series"
check "series: patch 3 applies on top of patches 1 and 2" \
	series_note 0003 "tree: the patch applies to base-commit d43c91f99020 (from the series) on top of the 2 patches before it in the series"
python3 - "$T/series.mbox" "$T/series-broken.mbox" <<'PY'
import sys
s = open(sys.argv[1]).read()
# Patch 1 no longer fits the base: patch 2 is checked against the base alone.
s = s.replace(" #define SLURP_CHUNK 65536\n", " #define SLURP_CHUNK 12345\n", 1)
open(sys.argv[2], "w").write(s)
PY
rm -rf "$T/series-out"
run_pr --tree "$TREE" --output-dir "$T/series-out" < "$T/series-broken.mbox"
check "series: when an earlier patch does not apply, the next is checked against the base alone" \
	series_note 0002 "tree: the patch does not apply to base-commit d43c91f99020 (from the series); the 1 patch before it in the series does not apply there, so it was checked against the base alone"

# checkpatch.pl once for a series, on all its patches, while the model reviews them.
mkdir -p "$TREE/scripts"
cp "$T/checkpatch.pl" "$TREE/scripts/checkpatch.pl"
: > "$CP_LOG"
: > "$LOG"
rm -rf "$T/series-cp"
PATCHREVIEW_CHECKPATCH=yes run_pr --tree "$TREE" --output-dir "$T/series-cp" < "$T/series.mbox"
check "checkpatch: run once for a 3-patch series, on its 3 patches, while the model reviews them" \
	sh -c "[ \$(wc -l < '$CP_LOG') -eq 1 ] &&
		grep -q -- '--no-summary checkpatch.0.mail checkpatch.1.mail checkpatch.2.mail model-asked=yes\$' '$CP_LOG'"
check "checkpatch: each patch's reports in its own draft, none in the cover letter's" sh -c "
	for f in '$T/series-cp/'000[123]-*; do grep -q 'checkpatch.pl: an added line (STANDIN_ADDED' \"\$f\" || exit 1; done &&
	! grep -q STANDIN_ '$T/series-cp/'0000-*"
rm -rf "$TREE/scripts"
at d43c91f
run_pr --tree "$TREE" --explain-prompt < "$T/series.mbox"
check "series: patches 2 and 3 read slurp.c as the patches before them leave it" sh -c "
	[ \$(grep -c -E '^  in    changed +[0-9]+ bytes  filter/base/slurp.c:13-13: macro SLURP_SERIES_B, changed by the patch' '$T/out') -eq 3 ]"

# Project knowledge from the tree: its .patchreview/ guides and AGENTS.md
# review notes, read as git tracks them (staged here; tests/t51-tree-trust.sh
# has the untracked and linked ones).
mkdir -p "$TREE/.patchreview"
printf 'title: Project rules\nalways: yes\n\nPROJECT-GUIDE-TEXT\n' > "$TREE/.patchreview/zz-project"
printf 'PROJECT-CORE-TEXT\n' > "$TREE/.patchreview/core"
: > "$TREE/.patchreview/networking"
printf '# Agents\n\nBuild with make.\n\n## Code review\n\nRange checks are left to the caller.\n\n### Threat model\n\nThe binary is never setuid.\n\n## Releases\n\nNOT-A-REVIEW-NOTE\n' > "$TREE/AGENTS.md"
at cf1c6a0~1
git -C "$TREE" add .patchreview AGENTS.md
run_pr --tree "$TREE" --explain-prompt < "$T/anchor.eml"
check "guides: the tree's folder is searched after yours" out_has "^  the tree's +$TREE/.patchreview$"
check "guides: a project guide is chosen" out_has '^  zz-project +selected: always'
check "guides: AGENTS.md's review section is a guide" out_has '^  AGENTS.md +selected: always'
check "guides: an empty project file disables an installed guide" out_has '^  networking +disabled by an empty file'
run_pr --tree "$TREE" < "$T/anchor.eml"
check "guides: the project's guide and review notes are sent" \
	logq '"PROJECT-GUIDE-TEXT" in s and "Range checks are left to the caller." in s and "The binary is never setuid." in s'
check "guides: other AGENTS.md sections and a project core are not" \
	logq '"NOT-A-REVIEW-NOTE" not in s and "Build with make" not in s and "PROJECT-CORE-TEXT" not in s'
run_pr < "$T/anchor.eml"
check "guides: without --tree, none of the project's" logq '"PROJECT-GUIDE-TEXT" not in s and "Range checks" not in s'
git -C "$TREE" rm -q -r -f --cached .patchreview AGENTS.md
rm -rf "$TREE/.patchreview" "$TREE/AGENTS.md"

# The review notes are capped at 8 KiB (AGENTS_MAX_NOTES): a line that would
# take them past it is left out, the lines before it are sent.
{
	printf '## Code review\n\nEARLY-REVIEW-NOTE\n'
	for i in $(seq 250); do printf 'note %03d: a review rule of forty bytes.\n' "$i"; done
	printf 'LATE-REVIEW-NOTE\n'
} > "$TREE/AGENTS.md"
git -C "$TREE" add AGENTS.md
run_pr --tree "$TREE" --explain-prompt < "$T/anchor.eml"
check "guides: AGENTS.md review notes stop at 8 KiB" sh -c "
	n=\$(sed -n 's/^  AGENTS.md  *selected: always (\\([0-9]*\\) bytes)\$/\\1/p' '$T/out')
	[ -n \"\$n\" ] && [ \$n -gt 8000 ] && [ \$n -le 8192 ]"
git -C "$TREE" rm -q -f --cached AGENTS.md
rm -f "$TREE/AGENTS.md"

# The verify pass gets the definitions each finding names.
at d43c91f
PATCHREVIEW_VERIFY=yes run_pr --tree "$TREE" < "$T/signature.eml"
check "verify: the finding's definitions from the tree in the refute request" \
	logq '"<<<FINDINGS" in u and "definitions from the tree:\nfilter/config/config.c:" in u and "function config_set\nint config_set(struct config *c, bool quiet," in u'
PATCHREVIEW_VERIFY=yes run_pr < "$T/signature.eml"
check "verify: without a tree, none" logq '"<<<FINDINGS" in u and "definitions from the tree" not in u'
unset PATCHREVIEW_BACKEND

# The base guessed from the index lines. c1 changes a.c; c2 only other.c,
# so it is the newest commit with a.c and b.c as c1 left them; c3 and c4
# change a.c and b.c again. The patches are made on c2, the tree is at c4.
B=$T/guessrepo
mkdir -p "$B"
git -C "$B" init -q
gcommit() { git -C "$B" -c user.name=T -c user.email=t@example.org commit -q -a -m "$1"; }
seq 1 40 | sed 's/^/int a/; s/$/;/' > "$B/a.c"
seq 1 40 | sed 's/^/int b/; s/$/;/' > "$B/b.c"
echo 'int other;' > "$B/other.c"
git -C "$B" add -A && gcommit c0
sed -i 's/^int a1;$/int a1 = 1;/' "$B/a.c" && gcommit c1
echo 'int other2;' >> "$B/other.c" && gcommit c2
c2=$(git -C "$B" rev-parse --short=12 HEAD)
git -C "$B" checkout -q -b topic
sed -i 's/^int a20;$/int a20 = 20;/' "$B/a.c"
sed -i 's/^int b20;$/int b20 = 20;/' "$B/b.c"
gcommit "both"
sed -i 's/^int a21;$/int a21 = 21;/' "$B/a.c" && gcommit "a again"
git -C "$B" format-patch -q --stdout -1 HEAD~1 > "$T/g-both.eml"
git -C "$B" format-patch -q --stdout -2 HEAD > "$T/g-series.mbox"
git -C "$B" checkout -q -
sed -i 's/^int a39;$/int a39 = 39;/' "$B/a.c" && gcommit c3
sed -i 's/^int b39;$/int b39 = 39;/' "$B/b.c" && gcommit c4
c4=$(git -C "$B" rev-parse --short=12 HEAD)
run_pr --tree "$B" < "$T/g-both.eml"
check "guess: a base several commits back, the newest where every file matches" \
	note_has "tree: the patch applies to commit $c2 (guessed from the index lines: the newest commit where all 2 files match)"
check "HEAD: a patch that applies to HEAD too, said so" note_has "tree: the patch also applies to HEAD $c4"
# b.c's pre-image blob is one no commit has: a.c alone matches.
python3 - "$T/g-both.eml" "$T/g-partial.eml" "$T/g-none.eml" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
blobs = re.findall(r"^index ([0-9a-f]+)\.\.", s, re.M)
open(sys.argv[2], "w").write(s.replace("index " + blobs[1], "index 1234567", 1))
open(sys.argv[3], "w").write(s.replace("index " + blobs[0], "index 1234567", 1).replace("index " + blobs[1], "index 7654321", 1))
PY
run_pr --tree "$B" < "$T/g-partial.eml"
check "guess: a partial match, the files matched counted" \
	note_has "tree: the patch applies to commit $c2 (guessed from the index lines: 1 of 2 files matched, no commit matched all)"
run_pr --tree "$B" < "$T/g-none.eml"
check "guess: no match, the work tree, said so" \
	note_has "to the work tree (HEAD $c4; no commit has any of the 2 files as the index lines name them)"
# A series is guessed once, from the first pre-image of each file: patch 2's
# a.c is patch 1's, in no commit.
once "guess: a series is guessed once, and every patch takes it" "$B" "$T/g-series.mbox" \
	"$T/g-out" '^-C .* log --format=%H %P' \
	"tree: the patch applies to commit $c2 (guessed from the index lines: the newest commit where all 2 files match)" 2
check "HEAD: patch 2 of a series, with patch 1 before it" sh -c "
	python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Note '$T/g-out/'*0002* |
	grep -q -x -F 'tree: the patch with the patches before it in the series also applies to HEAD $c4'"
# A patch of 101 files: the guess compares the first 100 (GUESS_MAX_FILES),
# and the note says so. The tree has moved f000.c and f100.c on.
W=$T/widerepo
mkdir -p "$W" && git -C "$W" init -q
for i in $(seq -w 0 100); do echo "int f$i;" > "$W/f$i.c"; done
git -C "$W" add -A && git -C "$W" -c user.name=T -c user.email=t@example.org commit -q -m w0
w0=$(git -C "$W" rev-parse --short=12 HEAD)
git -C "$W" checkout -q -b wide
for i in $(seq -w 0 100); do echo "int g$i;" >> "$W/f$i.c"; done
git -C "$W" -c user.name=T -c user.email=t@example.org commit -q -a -m wide
git -C "$W" format-patch -q --stdout -1 HEAD > "$T/g-wide.eml"
git -C "$W" checkout -q -
echo 'int h;' >> "$W/f000.c" && echo 'int h;' >> "$W/f100.c"
git -C "$W" -c user.name=T -c user.email=t@example.org commit -q -a -m w1
run_pr --tree "$W" < "$T/g-wide.eml"
check "guess: past 100 files, the first 100 compared, said so" \
	note_has "tree: the patch applies to commit $w0 (guessed from the index lines: the newest commit where all 100 files match; only the patch's first 100 files were compared)"

# Contracts, bounded: a patch calling 30 long helpers of its project with
# "&x" and testing each result gets at most 12, each as its head and the
# lines around its returns, a fraction of its size.
G=$T/gen
mkdir -p "$G"
git -C "$G" init -q
python3 - "$G" <<'PY'
import sys
out = []
for n in range(30):
    body = ["int helper%d(int *out)" % n, "{", "\tint v = 0;"]
    for i in range(400):
        body.append("\tv += %d;" % i)
        if i % 100 == 99:
            body.append("\tif (v < %d)\n\t\treturn -%d;" % (i, i))
    body += ["\t*out = v;", "\treturn 0;", "}", ""]
    out += body
open(sys.argv[1] + "/helpers.c", "w").write("\n".join(out))
open(sys.argv[1] + "/use.c", "w").write("int use(void)\n{\n\treturn 0;\n}\n")
PY
git -C "$G" add -A && git -C "$G" -c user.name=T -c user.email=t@example.org commit -q -m base
python3 - "$G/use.c" <<'PY'
import sys
calls = "".join("\tif (helper%d(&x) < 0)\n\t\treturn -1;\n" % n for n in range(30))
open(sys.argv[1], "w").write("int use(void)\n{\n\tint x;\n\n" + calls + "\treturn x;\n}\n")
PY
git -C "$G" -c user.name=T -c user.email=t@example.org commit -q -a -m "use: call the helpers"
git -C "$G" format-patch -q --stdout -1 > "$T/gen.eml"
git -C "$G" checkout -q --detach HEAD~1
PATCHREVIEW_CONTEXT_BUDGET=400000 run_pr --tree "$G" --explain-prompt < "$T/gen.eml"
check "contracts: at most 12 for one patch" sh -c "[ \$(grep -c -E '^  in    contract ' '$T/out') -eq 12 ]"
check "contracts: a long helper goes in short, under a fifth of its size" \
	sh -c "[ \$(awk '\$2 == \"contract\" { n += \$3 } END { print n }' '$T/out') -lt \$((12 * \$(sed -n '/^int helper0/,/^}/p' '$G/helpers.c' | wc -c) / 5)) ]"
run_pr --tree "$G" --request-name gen --requests-out "$T/greq" < "$T/gen.eml"
check "contracts: ... its head and the lines around its returns" python3 - "$T/greq/gen.json" <<'PY'
import json, sys
u = json.load(open(sys.argv[1]))["messages"][0]["content"]
part = u.split("function helper0(), called by the added lines with an out-parameter\n", 1)[-1].split("\n===", 1)[0]
ok = (part.startswith("int helper0(int *out)\n{") and "\t\treturn -99;" in part and "\t*out = v;\n\treturn 0;" in part
      and "[... lines" in part and "\tv += 150;" not in part)
sys.exit(0 if ok else 1)
PY

# Bad trees, and the tree left as it was.
run_pr --tree "$T/nowhere" < "$T/anchor.eml"
check "a tree that is not a git work tree: exit 2, one line, nothing read" \
	sh -c "[ $status -eq 2 ] && [ ! -s '$T/out' ] && [ \$(wc -l < '$T/err') -eq 1 ] && grep -q \"tree '$T/nowhere' is not a git work tree\" '$T/err'"
at d43c91f
# GIT_OPTIONAL_LOCKS=0: our own git status must not refresh the index either.
GIT_OPTIONAL_LOCKS=0 git -C "$TREE" status --porcelain --ignored > "$T/status.before"
sha256sum "$TREE/.git/index" > "$T/index.before"
touch "$T/stamp"
sleep 1
run_pr --tree "$TREE" < "$T/atomic-base.eml"
run_pr --tree "$TREE" < "$T/atomic.eml"
GIT_OPTIONAL_LOCKS=0 git -C "$TREE" status --porcelain --ignored > "$T/status.after"
check "the tree is only read: status, index and git directory unchanged" sh -c "
	cmp -s '$T/status.before' '$T/status.after' && sha256sum -c --status '$T/index.before' &&
	[ -z \"\$(find '$TREE' -newer '$T/stamp' -print -quit)\" ]"
check "no scratch directory left behind" sh -c "[ -z \"\$(ls -A '$TMPDIR')\" ]"
