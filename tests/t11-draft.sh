#!/bin/sh
# The reply draft: headers, attribution, quoting and trimming, byte for byte
# against tests/expect/, and the rules that keep the mail from writing headers.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1764763200	# a fixed Date: header

for m in demo clean reply attachment; do
	run_pr < "$MAILS/$m.eml"
	if cmp -s "$T/out" "$ROOT/tests/expect/$m.draft"; then
		pass "draft: $m.eml matches tests/expect/$m.draft"
	else
		fail "draft: $m.eml" "differs from tests/expect/$m.draft: $(diff "$ROOT/tests/expect/$m.draft" "$T/out" | head -5 | tr '\n' ' ')"
	fi
done

run_pr --full < "$MAILS/demo.eml"
check "full: every line of the patch is quoted" \
	grep -q "^> @@ -88,7 +88,7 @@ static int foo_hw_init" "$T/out"
check "full: no trimming marker" sh -c "! grep -q '^\[ \.\.\. \]' '$T/out'"

run_pr < "$MAILS/demo.eml"
check "trim: the untouched first hunk is cut" sh -c "! grep -q 'foo_hw_init' '$T/out'"
check "trim: diffstat and notes dropped" sh -c "! grep -q -e 'v2: use the existing' -e 'foo_main.c | 12' '$T/out'"
check "headers: To is the author, Cc the rest minus To" \
	sh -c "grep -q '^To: =?' '$T/out' && grep -q '^Cc: netdev@vger.kernel.org, Andrew Lunn <andrew@lunn.example>, Jakub Kicinski' '$T/out'"
check "headers: References keeps the thread" \
	sh -c "sed -n '/^References:/,/^Date:/p' '$T/out' | grep -q '20261125101010' && sed -n '/^References:/,/^Date:/p' '$T/out' | grep -q '20261201081402'"
check "headers: no From: without an identity" sh -c "! grep -q '^From:' '$T/out'"
check "headers: no X-Mutt-References without --mutt" sh -c "! grep -q '^X-Mutt' '$T/out'"

run_pr --from "Reviewer Rëv <rev@example.org>" --mutt < "$MAILS/demo.eml"
check "headers: --from, RFC 2047-encoded" grep -q "^From: Reviewer =?" "$T/out"
check "headers: --mutt adds X-Mutt-References" \
	grep -q "^X-Mutt-References: <20261201081402.4711-1-jose.garcia@example.org>$" "$T/out"

run_pr --from "Andrew Lunn <ANDREW@lunn.example>" < "$MAILS/demo.eml"
check "headers: the reviewer is not Cc'd to themself" \
	grep -q '^Cc: netdev@vger.kernel.org, Jakub Kicinski <kuba@kernel.example>$' "$T/out"

run_pr < "$MAILS/hostile.eml"
check "hostile: draft written" test "$status" -eq 0
check "hostile: no injected header" sh -c "! sed '/^\$/q' '$T/out' | grep -q -i '^bcc'"
check "hostile: no escape or C1 control bytes anywhere" \
	sh -c "! LC_ALL=C grep -q -P '[\x01-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' '$T/out'"
if command -v python3 >/dev/null; then
	check "hostile: headers parse, no extra ones" python3 "$ROOT/tests/check-draft.py" "$MAILS/hostile.eml" "$T/out"
fi

run_pr < "$MAILS/reply.eml"
check "not a patch: exit 1" test "$status" -eq 1
check "not a patch: one line on stderr" \
	sh -c "[ \$(wc -l < '$T/err') -eq 1 ] && grep -q 'no patch found' '$T/err'"
check "not a patch: no findings invented" sh -c "! grep -q 'built-in checks' '$T/out'"
check "not a patch: Re: not doubled" grep -q "^Subject: Re: \[PATCH\] lib: bitmap: fix off-by-one" "$T/out"

# Threading headers with raw bytes: malformed ids are dropped, never copied.
run_pr < "$MAILS/hostile-ids.eml"
check "ids: the header block is printable ASCII" \
	sh -c "! sed '/^\$/q' '$T/out' | LC_ALL=C grep -q -P '[^\x09\x20-\x7e]'"
check "ids: a malformed Message-ID gives no In-Reply-To" sh -c "! grep -q '^In-Reply-To:' '$T/out'"
check "ids: ... and stderr says so" grep -q "Message-ID is malformed" "$T/err"
check "ids: References keeps the well-formed ids only" \
	sh -c "[ \"\$(sed -n '/^References:/,/^Date:/p' '$T/out' | grep -o '<[^>]*>' | tr '\n' ' ')\" = '<good-1@example.net> <good-2@example.net> ' ]"

# Lines of mail text that imitate a quoted patch line or an mbox separator.
run_pr --full < "$MAILS/hostile-lines.eml"
check "lines: an attribution starting 'From ' gets a space" \
	grep -q '^ From mallory@example.net Mon Jan  1 00:00:00 2024 <mallory@example.net> wrote:$' "$T/out"
check "lines: no bidi override or isolate, in text or code" \
	sh -c "! grep -q -e \"\$(printf '\342\200\256')\" -e \"\$(printf '\342\201\246')\" '$T/out' && grep -q '^> The access check is .flipped. on screen' '$T/out'"
if command -v python3 >/dev/null; then
	check "lines: the draft passes check-draft.py" python3 "$ROOT/tests/check-draft.py" "$MAILS/hostile-lines.eml" "$T/out"
fi
