#!/bin/sh
# patchreview eval on a small repository built here: two known bugs and
# their Fixes:, clean commits, a later change; the set, offline requests
# and answers, the stand-in server with two models, scores and resuming.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/llm-lib.sh"
command -v git >/dev/null || { skip "eval" "git missing"; exit 0; }
command -v python3 >/dev/null || { skip "eval" "python3 missing"; exit 0; }

R=$T/repo
export GIT_AUTHOR_NAME="Ada Lovelace" GIT_AUTHOR_EMAIL=ada@example.org
export GIT_COMMITTER_NAME="Ada Lovelace" GIT_COMMITTER_EMAIL=ada@example.org
# commit SUBJECT BODY: commits everything, one day after the last commit.
commit() {
	day=$(($(git -C "$R" rev-list --count HEAD 2>/dev/null || echo 0) + 1))
	git -C "$R" add -A
	GIT_AUTHOR_DATE="2024-03-0$day 10:00:00 +0000" GIT_COMMITTER_DATE="2024-03-0$day 10:00:00 +0000" \
		git -C "$R" commit -q -m "$1" -m "$2"
	git -C "$R" rev-parse HEAD
}
git init -q "$R"
cat > "$R/name.c" <<'C'
#include <stdlib.h>
#include <string.h>

int name_len(const char *src)
{
	return (int)strlen(src);
}
C
commit "name: add name_len" "The length of a name." >/dev/null
cat >> "$R/name.c" <<'C'

int name_copy(char *buf, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n > len)
		return -1;
	memcpy(buf, src, n);
	buf[n] = '\0';
	return 0;
}
C
BUG1=$(commit "name: copy a name into a buffer" "Callers want the name in their own buffer.")
printf 'int clamp(int v, int lo, int hi)\n{\n\treturn v < lo ? lo : v > hi ? hi : v;\n}\n' > "$R/util.c"
CLEAN1=$(commit "util: add clamp" "Bound a value.")
cat >> "$R/name.c" <<'C'

char *name_dup(const char *src)
{
	size_t n = strlen(src);
	char *p = malloc(n + 1);

	memcpy(p, src, n + 1);
	return p;
}
C
BUG2=$(commit "name: duplicate a name" "For callers that keep the name.")
printf '\nint twice(int v)\n{\n\treturn v + v;\n}\n' >> "$R/util.c"
CLEAN2=$(commit "util: add twice" "Double a value.")
sed -i 's/return v + v;/return 2 * v;/' "$R/util.c"
LATER=$(commit "util: twice: multiply" "Say what is meant.")
sed -i 's/if (n > len)/if (n >= len)/' "$R/name.c"
FIX1=$(commit "name: name_copy: leave room for the NUL" \
	"Fixes: $(echo "$BUG1" | cut -c1-12) (\"name: copy a name into a buffer\")")
sed -i 's/^\tchar \*p = malloc(n + 1);$/&\n\n\tif (!p)\n\t\treturn NULL;/' "$R/name.c"
FIX2=$(commit "name: name_dup: fail when out of memory" \
	"Fixes: $(echo "$BUG2" | cut -c1-12) (\"name: duplicate a name\")")

OUT=$T/run
REQ=$T/requests
ANS=$T/answers
mkdir -p "$ANS"
eval_pr() { run_pr eval --repo "$R" --count 2 --clean 5 --out "$OUT" "$@"; }
# case_of SHA: the case name the set gave that commit.
case_of() { awk -F '\t' -v s="$1" '$1 == "case" && $3 == s { print $2 }' "$OUT/set.tsv"; }
# result MODEL SHA EXPR: the Python EXPR holds for that case's result r.
result() {
	python3 - "$OUT/results/$1/$(case_of "$2").json" "$3" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
f = r["findings"]
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}
# summary EXPR: the Python EXPR holds for s, the first model's summary in the JSON report, m the models.
summary() {
	python3 - "$T/out" "$1" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["models"]
s = m[0]["summary"]
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}
no_crash() { ! grep -q "review process failed" "$T/err" && ! grep -l -e Sanitizer -e 'runtime error' "$OUT"/results/*/*.log; }

# The set, and the requests for offline answering.
eval_pr --requests-out "$REQ"
check "requests-out: exit 0, no report, stderr says how many" \
	sh -c "[ $status -eq 0 ] && [ ! -s '$T/out' ] && grep -q \"eval: 7 requests written to '$REQ'\" '$T/err'"
check "set: the two bugs and five clean commits (not the root), case00 to case06" \
	sh -c "[ \$(grep -c '	bug	' '$OUT/set.tsv') -eq 2 ] && [ \$(grep -c '	clean	' '$OUT/set.tsv') -eq 5 ] &&
	       [ \"\$(awk -F '\t' '\$1 == \"case\" { print \$2 }' '$OUT/set.tsv' | sort | tr '\n' ' ')\" = 'case00 case01 case02 case03 case04 case05 case06 ' ] &&
	       [ '$(case_of "$BUG1")' != '' ] && [ '$(case_of "$BUG2")' != '' ]"
check "set: each case is its format-patch mail" \
	sh -c "grep -q '^Subject: \[PATCH\] name: copy a name into a buffer' '$OUT/cases/$(case_of "$BUG1").eml' &&
	       grep -q '^+	if (n > len)' '$OUT/cases/$(case_of "$BUG1").eml'"
check "truth: the line the fix changes, where the bug commit had it" \
	sh -c "grep -q '^fix	$FIX1	' '$OUT/cases/$(case_of "$BUG1").truth' &&
	       grep -q '^line	name.c	13\$' '$OUT/cases/$(case_of "$BUG1").truth' &&
	       grep -q '^func	name.c	name_copy\$' '$OUT/cases/$(case_of "$BUG1").truth'"
check "truth: for a fix that only inserts, the lines around it, past a blank line" \
	sh -c "grep -q '^line	name.c	23\$' '$OUT/cases/$(case_of "$BUG2").truth' &&
	       grep -q '^line	name.c	25\$' '$OUT/cases/$(case_of "$BUG2").truth'"
B1=$(case_of "$BUG1")
B2=$(case_of "$BUG2")
check "requests: one per case, named by case, holding the patch but not the fix" \
	python3 - "$REQ" "$B1" <<'PY'
import json, os, sys
names = sorted(os.listdir(sys.argv[1]))
r = json.load(open(os.path.join(sys.argv[1], sys.argv[2] + ".json")))
user = r["messages"][0]["content"]
sys.exit(0 if len(names) == 7 and all(n.startswith("case") for n in names)
         and "+\tif (n > len)" in user and "n >= len" not in user and "Fixes" not in user
         and r["schema_name"] == "patch_review" and r["answer_file"] == sys.argv[2] + ".json" else 1)
PY
check "requests-out: no draft is written" sh -c "! ls '$OUT'/results/*/*.draft 2>/dev/null | grep -q ."

# Offline answers: the bug line and a remark elsewhere; the insertion's
# hunk; a line that a later commit changed; one case left unanswered.
finding() { printf '{"file": "%s", "quote": "%s", "severity": "%s", "confidence": 0.9, "comment": "%s"}' "$@"; }
answer() { printf '{"summary": "S.", "findings": [%s]}\n' "$2" > "$ANS/$1.json"; }
answer "$B1" "$(finding name.c 'if (n > len)' error 'OFF-BY-ONE: n == len leaves no room for the NUL.'),
	$(finding name.c 'return (int)strlen(src);' warning 'ELSEWHERE: a cast that may truncate.'),
	{\"file\": \"name.c\", \"quote\": \"if (n > len)\", \"confidence\": 0.3, \"comment\": \"UNSURE: the bound?\"}"
answer "$B2" "$(finding name.c 'return p;' warning 'HUNK: p may be NULL here.')"
answer "$(case_of "$CLEAN2")" "$(finding util.c 'return v + v;' nit 'LATER: say 2 * v.'),
	{\"file\": \"util.c\", \"quote\": \"return v + v;\", \"confidence\": 0.9, \"preexisting\": true, \"comment\": \"OLD: older than this.\"}"
for sha in "$CLEAN1" "$LATER" "$FIX1"; do answer "$(case_of "$sha")" ""; done
eval_pr --answers "$ANS" --format json -j 2
check "answers: exit 0, every case reviewed or failed, no crash" sh -c "[ $status -eq 0 ]" 
check "answers: no review process crashed" no_crash
check "score: a finding on the line the fix changes found the bug" \
	result offline "$BUG1" 'r["found"] == "line" and f[0]["match"] == "line" and f[0]["line"] == 13 and f[0]["function"] == "name_copy"'
check "score: a finding in another function is for a person to judge" \
	result offline "$BUG1" 'f[1]["match"] == "" and f[1]["function"] == "name_len" and f[1]["later"] == "unchanged"'
check "score: a finding in the fix's hunk and function found the bug too" \
	result offline "$BUG2" 'r["found"] == "hunk" and r["located"] is True and f[0]["match"] == "hunk"'
check "hints: the later commit that changed the line" \
	result offline "$CLEAN2" "f[0]['match'] == '' and f[0]['later'] == '$LATER' and f[0]['later_subject'] == 'util: twice: multiply' and f[0]['later_fixes_this'] is False"
check "filtered: what min_confidence removed, scored: here the known bug" \
	result offline "$BUG1" 'len(f) == 2 and r["filtered"][0]["filter"] == "min_confidence" and r["filtered"][0]["match"] == "line" and r["filtered"][0]["confidence"] == 0.3'
check "filtered: what preexisting = hide removed, with its hint from later history" \
	result offline "$CLEAN2" "len(f) == 1 and r['filtered'][0]['filter'] == 'preexisting' and r['filtered'][0]['later'] == '$LATER'"
check "report: per filter, what it removed and how much was the known bug" \
	summary 's["filtered"] == {"min_confidence": {"removed": 1, "known": 1, "later_fixed": 0}, "preexisting": {"removed": 1, "known": 0, "later_fixed": 0}}'
check "missing answer: a failed review, the draft still written with the note" \
	sh -c "grep -q 'no answer file' '$OUT/results/offline/$(case_of "$FIX2").json' &&
	       python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Note '$OUT/results/offline/$(case_of "$FIX2").draft' | grep -q '^model review failed: no answer file'"
check "drafts: the comment under the line it is about" \
	sh -c "grep -A2 -F '> +	if (n > len)' '$OUT/results/offline/$B1.draft' | grep -q 'OFF-BY-ONE'"
check "report: recall 2 of 2, one on the line, one in the hunk" \
	summary 's["bugs"] == 2 and s["found"] == 2 and s["found_on_line"] == 1 and s["found_in_hunk"] == 1 and s["recall"] == 1 and s["located"] == 2'
check "report: findings per patch, failures, estimated tokens" \
	summary 's["reviewed"] == 6 and s["failed"] == 1 and s["findings"] == 4 and abs(s["findings_per_patch"] - 4 / 6) < 1e-9 and s["tokens_estimated"] is True and s["prompt_tokens_per_patch"] > 100'

eval_pr --answers "$ANS" -q
check "text report: the summary row and the cases" \
	sh -c "grep -q '^offline  *2/2  *100%  *1  *1 ' '$T/out' && grep -q '^  $B1  *bug  *line ' '$T/out' && grep -q '^  $B2  *bug  *hunk ' '$T/out'"
check "text report: the findings to judge, with the later commit" \
	sh -c "grep -A2 'name.c:6 in name_len()' '$T/out' | grep -q 'later: the line is unchanged' &&
	       grep -A2 'util.c:8 in twice()' '$T/out' | grep -q 'later: changed by $(echo "$LATER" | cut -c1-12) \"util: twice: multiply\"'"
check "text report: a line per filter, and each finding it removed with its hint" \
	sh -c "grep -q '^  filter min_confidence   removed 1 finding: 1 the known bug, 0 on a line' '$T/out' &&
	       grep -q 'name.c:13 in name_copy(), removed by min_confidence (confidence 0.30), the known bug (line)' '$T/out' &&
	       grep -A2 'util.c:8 in twice(), removed by preexisting' '$T/out' | grep -q 'later: changed by'"
check "resume: the set is taken as it is" sh -c "! grep -q 'reading the Fixes' '$T/err'"

# A server, two models, two reviews at once; then the same run again.
start_server
use_backend openai
eval_pr --model scenario:eval,scenario:ok-empty -j 2 --format json
check "server: exit 0, no crash" sh -c "[ $status -eq 0 ]"
check "server: no review process crashed" no_crash
check "server: the stand-in's check finding is on the bug line" \
	result scenario_eval "$BUG1" 'r["found"] == "line" and any(x["comment"].startswith("EVAL-CHECK") for x in f)'
check "server: one table per model" \
	summary 'len(m) == 2 and m[0]["model"] == "scenario:eval" and s["found"] == 1 and s["bugs"] == 2 and m[1]["summary"]["found"] == 0 and m[1]["summary"]["findings"] == 0'
check "server: real token counts" summary 's["tokens_estimated"] is False and s["completion_tokens_per_patch"] > 0'
check "server: 14 requests" sent 14
eval_pr --model scenario:eval,scenario:ok-empty -j 2 --format json
check "resume: a second run sends nothing, the cache answers" sent 14
check "resume: ... with the same scores" \
	summary 'len(m) == 2 and s["found"] == 1 and m[0]["cases"][0]["cached"] is True'

# Offline requests for several models carry the model in their name.
eval_pr --model a,b --requests-out "$T/req2"
check "several models: request names carry the model" \
	sh -c "[ -f '$T/req2/$B1.a.json' ] && [ -f '$T/req2/$B1.b.json' ] && [ \$(ls '$T/req2' | wc -l) -eq 14 ]"

# --tree: each case reviewed with a work tree at its parent, removed at the end;
# the repository's hooks never run.
printf '#!/bin/sh\ntouch "%s"\n' "$T/hook-ran" > "$R/.git/hooks/post-checkout"
chmod +x "$R/.git/hooks/post-checkout"
run_pr eval --repo "$R" --count 2 --clean 5 --out "$T/treerun" --requests-out "$T/reqt" --tree -j 2
check "--tree: exit 0, a request per case" sh -c "[ $status -eq 0 ] && [ \$(ls '$T/reqt' | wc -l) -eq 7 ]"
check "--tree: the code at the case's parent: name_copy whole, not yet name_dup" \
	python3 - "$T/reqt/$B1.json" <<'PY'
import json, sys
u = json.load(open(sys.argv[1]))["messages"][0]["content"]
sys.exit(0 if "<<<CONTEXT" in u and "name.c:9-18: function name_copy()" in u and "name_dup" not in u else 1)
PY
check "--tree: the note names the parent as the work tree's HEAD" \
	sh -c "grep -q 'applies to the work tree (HEAD $(git -C "$R" rev-parse --short=12 "$BUG2^"))' '$T/treerun/results/offline/$B2.json'"
check "--tree: the work trees are removed, the repository's hooks never ran" \
	sh -c "[ \$(git -C '$R' worktree list | wc -l) -eq 1 ] && [ ! -e '$T/treerun/trees' ] && [ ! -e '$T/hook-ran' ]"
rm "$R/.git/hooks/post-checkout"

# --since: only the commits since then; the set remembers it.
run_pr eval --repo "$R" --since "2024-03-03 12:00 +0000" --count 2 --clean 0 --out "$T/since" --requests-out "$T/req3"
check "--since: only the later bug" \
	sh -c "[ $status -eq 0 ] && grep -q '^since	2024-03-03 12:00 +0000\$' '$T/since/set.tsv' &&
	       [ \$(grep -c '^case	' '$T/since/set.tsv') -eq 1 ] && grep -q '	$BUG2	bug	' '$T/since/set.tsv'"

run_pr eval --repo "$R" --since 2030-01-01 --out "$T/none" --answers "$ANS"
check "an empty set: exit 0, a report of nothing" \
	sh -c "[ $status -eq 0 ] && grep -q ': 0 cases, 0 with a known bug, 0 clean' '$T/out'"

# Bad use.
run_pr eval --answers "$ANS"
check "no --repo: exit 2" sh -c "[ $status -eq 2 ] && grep -q 'needs --repo' '$T/err'"
run_pr eval --repo "$R" --format xml --answers "$ANS"
check "bad --format: exit 2" exit_is 2
PATCHREVIEW_BACKEND=none run_pr eval --repo "$R"
check "no model: exit 2" sh -c "[ $status -eq 2 ] && grep -q 'eval needs a model' '$T/err'"
mkdir -p "$T/plain"
run_pr eval --repo "$T/plain" --out "$T/run2" --answers "$ANS"
check "not a repository: exit 3, git's reason" sh -c "[ $status -eq 3 ] && grep -q 'git rev-parse failed: fatal: not a git repository' '$T/err'"
run_pr eval --repo "$R" --count 3 --out "$OUT" --answers "$ANS"
check "a run directory of another set: exit 3" sh -c "[ $status -eq 3 ] && grep -q 'other parameters' '$T/err'"
