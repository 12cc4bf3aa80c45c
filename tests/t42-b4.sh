#!/bin/sh
# patchreview as b4's check command, in real b4 (issue 14), offline: b4 prep
# --check on a branch of this project's own history and b4 am --check on a
# corpus mbox read with -m (--format lines, b4 0.14 and later), b4 review's
# check runner (--format b4-check) and its agent (contrib/b4/
# patchreview-agent), both b4 0.15 and later. Each part skips, saying why,
# when b4 is missing or too old (Debian 12 has 0.12).
#   B4=COMMAND        the b4 to run (default: b4 on PATH)
#   B4_PYTHON=COMMAND a python3 that imports that b4's modules (default: the
#                     interpreter on the first line of the b4 script)
. "$(dirname "$0")/lib.sh"
B4=${B4:-b4}

if ! command -v git >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	skip "b4" "git or python3 is not installed"
	exit 0
fi
if ! command -v "$B4" >/dev/null 2>&1; then
	skip "b4" "b4 is not installed (apt-get install b4; or set B4=)"
	exit 0
fi
version=$("$B4" --version 2>/dev/null | head -n1)
# at_least V: b4's version is V or later.
at_least() { printf '%s\n%s\n' "$1" "$version" | sort -V -C; }
if ! at_least 0.14; then
	skip "b4 prep/am --check" "b4 $version is older than 0.14, which added b4.prep-perpatch-check-cmd and b4.am-perpatch-check-cmd"
	skip "b4 review checks and agent" "b4 $version is older than 0.15, which added b4.review-perpatch-check-cmd and b4.review-agent-command"
	exit 0
fi

export XDG_DATA_HOME="$T/data" GIT_CONFIG_NOSYSTEM=1 GIT_EDITOR=true EDITOR=true
mkdir -p "$HOME"
git config --global user.name 'Ada Lovelace'
git config --global user.email ada@example.org
LINES_CMD="'$PR' --format lines"
# b4 prints its report on stderr, coloured even when it is not a terminal.
b4_run() { "$B4" --offline-mode "$@" 2>&1 | sed 's/\x1b\[[0-9;]*m//g'; }
SOB="ERROR: There is no Signed-off-by: line"

# --- b4 prep --check: two commits of this project, and two of ours ------
R=$T/repo
if git clone -q "$ROOT" "$R" 2>/dev/null && git -C "$R" cat-file -e cf1c6a0^{commit} 2>/dev/null; then
	(
		cd "$R" && git checkout -q -b feature cf1c6a0 && git branch base fa08a91~1 &&
		b4_run prep -e base && printf 'int a;\n' > new.c && git add new.c &&
		git commit -q -s -m 'new: add a' -m 'Clean.' &&
		printf 'int a;\nint b; \n' > new.c && git commit -q -a -s -m 'new: add b' -m 'Trailing blank.' &&
		git config b4.prep-perpatch-check-cmd "$LINES_CMD"
	) >"$T/prep-setup" 2>&1
	(cd "$R" && b4_run prep --check) >"$T/prep"
	# under SUBJECT LINE: LINE is among the report lines under "● sha: SUBJECT".
	under() {
		awk -v s="$1" '/^● [0-9a-f]+: / { t = $0; sub(/^● [0-9a-f]+: /, "", t); on = t == s; next }
			on' "$T/prep" | grep -qxF -- "$2"
	}
	check "b4 prep --check: a project commit without a sign-off fails" \
		under "patch: a 'diff -' line starts a file only when '--- ' follows it" \
		"  ● patchreview: commit message: $SOB. Please add one to certify the Developer's Certificate of Origin (git commit -s)."
	check "b4 prep --check: the next one fails and has a warning at its line" \
		under "anchor: do not read before an empty context line" \
		"  ● patchreview: tests/mails/empty-context.eml:23: CHECK: This line indents with a space before a tab."
	check "b4 prep --check: a clean commit is one line, nothing under it" \
		sh -c "grep -A1 -E '^● [0-9a-f]{12}: new: add a\$' '$T/prep' | sed -n 2p | grep -q '^●'"
	check "b4 prep --check: a nit is a warning at its file and line" \
		under "new: add b" "  ● patchreview: new.c:2: CHECK: This line adds trailing whitespace."
	check "b4 prep --check: b4's count: 1 clean, 2 warnings, 2 errors" \
		grep -qxF "Success: 1, Warning: 2, Error: 2" "$T/prep"
else
	skip "b4 prep --check" "$ROOT is not a git clone holding commits cf1c6a0 and fa08a91"
fi

# --- b4 am --check on mboxes read with -m -------------------------------
git config --global b4.am-perpatch-check-cmd "$LINES_CMD"
am_check() { # MBOX: b4 am -k's report in $T/am
	rm -rf "$XDG_CACHE_HOME/b4" "$T/amout"	# b4 caches check results by message
	(cd "$T" && b4_run am -k -m "$1" -o "$T/amout") >"$T/am"
}
if have_corpus; then
	am_check "$CORPUS/lore-nf-b4-series-v3-0-5.mbox"
	check "b4 am --check: a corpus series, the long subject of patch 1 is a warning" \
		sh -c "grep -A1 -F '  [PATCH v3 1/5] netfilter: Add ctx pointer' '$T/am' | sed -n 2p | grep -q '^    ● patchreview: CHECK: The subject is 91 characters long'"
	check "b4 am --check: ... the long commit message lines of 3/5 and 4/5 are warnings" \
		sh -c "[ \$(grep -c '^    ● patchreview: commit message: CHECK: This line of the commit message is over 75 columns, and 2 more are' '$T/am') -eq 2 ]"
	check "b4 am --check: ... and 2/5 and 5/5 pass" \
		sh -c "[ \$(grep -c '^    ● patchreview: passed all checks\$' '$T/am') -eq 2 ]"
fi

# b4 pipes the body decoded but keeps "Content-Transfer-Encoding: base64".
git -C "$T" init -q b64 && printf 'int a;\n' > "$T/b64/a.c" && git -C "$T/b64" add a.c &&
	git -C "$T/b64" commit -q -m init && printf 'int a;\nint b; \n' > "$T/b64/a.c" &&
	git -C "$T/b64" commit -q -a -s -m 'a: add b' &&
	git -C "$T/b64" format-patch -q --thread --stdout -1 > "$T/plain.mbox"
python3 - "$T/plain.mbox" "$T/b64.mbox" <<'PY'
import base64, sys
head, body = open(sys.argv[1], "rb").read().split(b"\n\n", 1)
head = head.replace(b"Content-Transfer-Encoding: 8bit", b"Content-Transfer-Encoding: base64")
if b"Content-Transfer-Encoding" not in head:
    head += b"\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64"
open(sys.argv[2], "wb").write(head + b"\n\n" + base64.encodebytes(body))
PY
am_check "$T/b64.mbox"
check "b4 am --check: a base64 patch b4 decoded is reviewed, not passed blind" \
	grep -qxF "    ● patchreview: a.c:2: CHECK: This line adds trailing whitespace." "$T/am"

# --- b4 review's check runner, 0.15 and later ----------------------------
if ! at_least 0.15; then
	skip "b4 am --check, attached patch" "b4 $version is older than 0.15, whose am -k handles a multipart mail"
	skip "b4 review checks and agent" "b4 $version is older than 0.15, which added b4.review-perpatch-check-cmd and b4.review-agent-command"
	exit 0
fi

# An attached patch: b4 pipes its text under the multipart header, no boundary.
python3 - "$T/plain.mbox" "$T/multi.mbox" <<'PY'
import email, email.policy, sys
from email.message import EmailMessage
src = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
m = EmailMessage()
for h in ("From", "Date", "Subject", "Message-Id"):
    m[h] = src[h]
m.set_content("See the attached patch.\n")
m.add_attachment(src.get_content().encode(), maintype="text", subtype="x-patch", filename="0001.patch")
open(sys.argv[2], "wb").write(b"From nobody Mon Sep 17 00:00:00 2001\n" + m.as_bytes())
PY
am_check "$T/multi.mbox"
check "b4 am --check: an attached patch b4 unwrapped is reviewed, not passed blind" \
	grep -qxF "    ● patchreview: a.c:2: CHECK: This line adds trailing whitespace." "$T/am"
if [ -z "$B4_PYTHON" ]; then
	B4_PYTHON=$(sed -n '1s/^#! *//p' "$(command -v "$B4")")
fi
if ! $B4_PYTHON -c 'import b4.review.checks' 2>/dev/null; then
	skip "b4 review checks and agent" "cannot import b4.review.checks with '$B4_PYTHON' (set B4_PYTHON)"
	exit 0
fi
# The TUI's key c, without the TUI: b4's own config reading, runner and parser.
review_check() { # MBOX [TRACKING]: each patch's results as JSON lines in $T/out
	(cd "$T/b64" && B4_TRACKING_FILE=${2:-} $B4_PYTHON - "$1" "$T/b64" <<'PY'
import json, mailbox, os, sys
import b4, b4.review.checks as checks
b4._setup_main_config()
box = mailbox.mbox(sys.argv[1], factory=lambda f: b4.email.message_from_binary_file(f, policy=b4.emlpolicy))
msgs = [(m.get("message-id", "").strip("<> "), m) for m in box]
perpatch, _ = checks.load_check_cmds()
env = {"B4_TRACKING_FILE": os.environ["B4_TRACKING_FILE"]} if os.environ.get("B4_TRACKING_FILE") else None
for msgid, results in checks.run_perpatch_checks(msgs, perpatch, sys.argv[2], extra_env=env).items():
    print(json.dumps(results))
PY
	) >"$T/out" 2>"$T/err"
}
git -C "$T/b64" config b4.review-perpatch-check-cmd "'$PR' --format b4-check"
review_check "$T/b64.mbox"
check "b4 review checks: one warn result from patchreview, b4 fills in nothing" \
	jsonq 'len(d) == 1 and d[0]["tool"] == "patchreview" and d[0]["status"] == "warn" and d[0]["summary"] == "1 nit" and d[0]["url"] == ""'
check "b4 review checks: the details name the place and quote the line" \
	jsonq 'd[0]["details"].startswith("a.c:2: nit (trailing-whitespace)\n> +int b; \n")'
id=$(sed -n 's/^Message-I[dD]: <\(.*\)>$/\1/p' "$T/b64.mbox")
printf '{"series": {}, "patches": [{"header-info": {"msgid": "%s"}, "reviews": {"ada@example.org": {"patch-state": "skip"}}}]}\n' "$id" > "$T/tracking.json"
review_check "$T/b64.mbox" "$T/tracking.json"
check "b4 review checks: a patch the tracking data marks skip reports nothing" \
	sh -c "[ \"\$(cat '$T/out')\" = '[]' ]"
if have_corpus; then
	review_check "$CORPUS/lore-nf-b4-series-v3-0-5.mbox"
	check "b4 review checks: a corpus series, the cover says nothing, patch 1 warns" \
		sh -c "[ \$(wc -l < '$T/out') -eq 6 ] && head -1 '$T/out' | grep -qxF '[]' && sed -n 2p '$T/out' | grep -q '\"status\": \"warn\", \"summary\": \"1 nit\"'"
fi

# --- b4 review's agent: b4 makes the review branch, reads the files back -
AG=$T/agent
mkdir -p "$AG/bin" && ln -s "$PR" "$AG/bin/patchreview"
# A series mailed as git would, and applied where b4 takes it from (FETCH_HEAD).
(
	git init -q "$AG/repo" && cd "$AG/repo" &&
	printf 'int a;\nint b;\nint c;\n' > a.c && git add a.c && git commit -q -m init &&
	git branch base && printf 'int a;\nint b; \nint c;\n' > a.c && git commit -q -a -s -m 'a: b gets a blank' &&
	printf 'int a;\nint b; \nint d;\n' > a.c && git commit -q -a -m 'a: c becomes d' &&
	git format-patch -q --thread --cover-letter -o "$AG/p" base.. &&
	git checkout -q --detach base && git am -q "$AG"/p/000[12]-*.patch &&
	git rev-parse HEAD > .git/FETCH_HEAD && git checkout -q - && cat "$AG"/p/*.patch > "$AG/series.mbox"
) >"$T/agent-setup" 2>&1 || fail "b4 review agent" "cannot make the series: $(tail -1 "$T/agent-setup")"
# b4 builds b4/review/test from the mbox, the agent runs as b4's key a runs
# it, and b4 integrates what it wrote; the reviews are printed as JSON.
(cd "$AG/repo" && PATH="$AG/bin:$PATH" $B4_PYTHON - "$AG/series.mbox" "$ROOT/contrib/b4/patchreview-agent" <<'PY'
import json, subprocess, sys
import b4, b4.review as rv
b4._setup_main_config()
b4.can_network = False
mbox = b4.LoreMailbox()
for m in b4.get_msgs_from_mailbox_or_maildir(sys.argv[1]):
    mbox.add_message(m)
top = b4.git_get_toplevel()
rv.create_review_branch(top, "b4/review/test", "base", mbox.get_series(), "https://lore.invalid/r/x",
                        "https://lore.invalid/r/%s")
subprocess.run([sys.argv[2], "Read and execute the prompt from " + top + "/.git/HEAD"], check=True,
               stdout=subprocess.DEVNULL)
cover, tracking = rv.load_tracking(top, "HEAD")
first = tracking["series"]["first-patch-commit"]
shas = b4.git_run_command(top, ["rev-list", "--reverse", first + "~1..HEAD~1"])[1].split()
done = rv._integrate_agent_reviews(top, cover, tracking, shas, tracking["patches"])
print(json.dumps({"integrated": done, "reviews": [p.get("reviews", {}) for p in tracking["patches"]]}))
PY
) >"$T/out" 2>"$T/err"
me=patchreview@patchreview.invalid
check "b4 review agent: b4 integrates what patchreview-agent wrote" jsonq 'd["integrated"]'
check "b4 review agent: the comment at its file and line in b4's own reading" \
	jsonq "d['reviews'][0]['$me']['comments'] == [{'path': 'b/a.c', 'line': 2, 'text': 'nit: This line adds trailing whitespace.', 'content': '+int b; '}]"
check "b4 review agent: a whole-patch finding is the patch's note" \
	jsonq "d['reviews'][1]['$me']['note'].startswith('patchreview: 1 error\n\nThere is no Signed-off-by:') and 'comments' not in d['reviews'][1]['$me']"
