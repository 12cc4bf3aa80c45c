#!/bin/sh
# The model reviewer's limits (doc/limits.md): a hostile answer with a
# huge quote and 100,000 findings is placed in bounded time; quotes are
# matched up to their limits only; long comments and answers are cut or
# refused with a note; the draft is always written.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/llm-lib.sh"
command -v python3 >/dev/null || { skip "llm limits" "python3 missing"; exit 0; }
start_server
NET=$MAILS/llm-net.eml
NET_LINE='> +	if (skb->len > sizeof(frame)) {'
use_backend openai
export PATCHREVIEW_CACHE=no

# A 9,000-line patch, still under max_prompt_bytes.
python3 - "$T/long.eml" <<'PY'
import sys
n = 9000
with open(sys.argv[1], "w") as f:
    f.write("From: Ada Lovelace <ada@example.org>\nTo: netdev@vger.kernel.org\n"
            "Subject: [PATCH] net: bar: a long table\nMessage-ID: <long@example.org>\n\n"
            "Add the table.\n\nSigned-off-by: Ada Lovelace <ada@example.org>\n---\n"
            "diff --git a/net/bar/table.c b/net/bar/table.c\nnew file mode 100644\n"
            "--- /dev/null\n+++ b/net/bar/table.c\n@@ -0,0 +1,%d @@\n" % n)
    f.write("".join("+\tint v%05d = %d;\n" % (i, i) for i in range(n)))
PY
t0=$(now_s)
PATCHREVIEW_MODEL=scenario:flood PATCHREVIEW_TIMEOUT=120 run_pr_within 60 < "$T/long.eml"
took=$(elapsed_since "$t0")
check "flood: a 1 MiB quote and 100,001 findings on 9,000 lines, placed in bounded time (took $took s)" \
	sh -c "[ $status -eq 0 ] && awk 'BEGIN { exit !($took < 30) }'"
check "flood: a note says how many findings were read" \
	note_is "the model gave 100001 findings; only the first 100 were read"
check "flood: the findings read are in the draft, the rest are not" \
	sh -c "grep -q '^FLOOD-BIG-QUOTE' '$T/out' && grep -q '^FLOOD-98\$' '$T/out' && ! grep -q '^FLOOD-99\$' '$T/out'"

PATCHREVIEW_MODEL=scenario:caps run_pr < "$NET"
# placed TAG: the comment is under the quoted line; general TAG: at the top.
placed() { [ "$(grep -n "^$1" "$T/out" | cut -d: -f1)" -gt "$(grep -n -F -- "$NET_LINE" "$T/out" | cut -d: -f1)" ]; }
general() { [ "$(grep -n "^$1" "$T/out" | cut -d: -f1)" -lt "$(grep -n '^> diff --git' "$T/out" | cut -d: -f1)" ]; }
check "quote limit: the 20th line of a quote is matched" placed CAP-LINES-IN
check "quote limit: the 21st is not" general CAP-LINES-OUT
check "quote limit: a line within the first 4096 bytes is matched" placed CAP-BYTES-IN
check "quote limit: one past them is not" general CAP-BYTES-OUT
check "comment limit: a comment over 4000 bytes is cut, marked [...]" \
	sh -c "grep -q '^CAP-COMMENT: word word' '$T/out' && grep -q -F ' [...]' '$T/out' && ! grep -q END-OF-LONG-COMMENT '$T/out'"
check "limits: the draft is still whole" sh -c "[ $status -eq 0 ] && grep -q 'trailing whitespace' '$T/out'"

PATCHREVIEW_MODEL=scenario:huge run_pr < "$NET"
check "answer limit: an answer over 8 MiB is refused with a note" \
	note_is "model review failed: answer larger than 8 MiB"
check "answer limit: ... and the draft is still written" \
	sh -c "[ $status -eq 0 ] && grep -q 'trailing whitespace' '$T/out'"
