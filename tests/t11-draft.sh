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
check "ids: an address that is not ASCII is left out of Cc" \
	grep -q '^Cc: list@example.org, Good <good@example.net>$' "$T/out"
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

# The reply's recipients: the author and the list, whatever the list did to Reply-To.
run_pr < "$MAILS/list-reply-to.eml"
check "recipients: a list's Reply-To: the author in To, the list and the rest in Cc" \
	sh -c "grep -q '^To: Ada Lovelace <ada@example.org>$' '$T/out' &&
		grep -q '^Cc: Foo Devel <foo-devel@lists.example.org>, Charles Babbage$' '$T/out'"
sed 's/^Reply-To: .*/Reply-To: Ada at home <ada@home.example.org>/' "$MAILS/list-reply-to.eml" > "$T/rt.eml"
run_pr < "$T/rt.eml"
check "recipients: a Reply-To naming someone else takes the author's place" \
	sh -c "grep -q '^To: Ada at home <ada@home.example.org>$' '$T/out' && ! grep -q 'ada@example.org>,' '$T/out'"
sed 's/^Reply-To: .*/Mail-Followup-To: foo-devel@lists.example.org, Charles Babbage <charles@example.org>/' \
	"$MAILS/list-reply-to.eml" > "$T/mft.eml"
run_pr < "$T/mft.eml"
check "recipients: Mail-Followup-To names them" \
	sh -c "grep -q '^To: foo-devel@lists.example.org, Charles Babbage <charles@example.org>$' '$T/out' && ! grep -q '^Cc:' '$T/out'"
mkdir -p "$XDG_CONFIG_HOME/patchreview"
CFG=$XDG_CONFIG_HOME/patchreview/config
printf 'me = "andrew@lunn.example, other@example.org"\n' > "$CFG"
run_pr < "$MAILS/demo.eml"
check "recipients: the me list is never Cc'd, even without from" \
	sh -c "grep -q '^Cc: netdev@vger.kernel.org, Jakub Kicinski <kuba@kernel.example>$' '$T/out' && ! grep -q '^From:' '$T/out'"
rm -f "$CFG"

# One "Re: ", no list tags, the [PATCH ...] prefix kept.
subject() { # ORIGINAL WANTED
	sed "s|^Subject: .*|Subject: $1|" "$MAILS/list-reply-to.eml" > "$T/subj.eml"
	run_pr < "$T/subj.eml"
	got=$(header Subject "$T/out")
	if [ "$got" = "$2" ]; then pass "subject: '$1'"; else fail "subject: '$1'" "got '$got', want '$2'"; fi
}
subject "[foo-devel] [PATCH] x: return 0" "Re: [PATCH] x: return 0"
subject "[foo-devel] Re: [foo-devel] Re: [PATCH] x: return 0" "Re: [PATCH] x: return 0"
subject "AW: Re: [PATCH v2 1/3] x: return 0" "Re: [PATCH v2 1/3] x: return 0"
subject "Re[2]: RE : Sv: [RFC PATCH net] x: return 0" "Re: [RFC PATCH net] x: return 0"
subject "=?UTF-8?B?562U5aSNOiDlm57lpI3vvJo=?= [PATCH] x: return 0" "Re: [PATCH] x: return 0"
subject "[ANNOUNCE] foo 1.0" "Re: [ANNOUNCE] foo 1.0"
if have_corpus; then
	run_pr < "$CORPUS/lore-dm-base64-inline-patch.eml"
	check "corpus: the [dm-devel] list tag is dropped" \
		grep -q '^Subject: Re: \[PATCH\] dm crypt: Fix reqsize in crypt_iv_eboiv_gen$' "$T/out"
fi

# The attribution line.
run_pr < "$MAILS/list-reply-to.eml"
check "attribution: the Date as sent, its double spaces made one" \
	grep -q '^On Tue, 1 Dec 2026 10:00:00 +0000, Ada Lovelace <ada@example.org> wrote:$' "$T/out"
sed -e '/^Date:/d' -e 's/^From: .*/From: ada@example.org/' "$MAILS/list-reply-to.eml" > "$T/nodate.eml"
run_pr < "$T/nodate.eml"
check "attribution: no Date, a bare address is not capitalised" \
	grep -q '^ada@example.org wrote:$' "$T/out"
printf 'attribution = "Le %%d, %%n <%%a> a écrit (%%s) 100%%%%:"\n' > "$CFG"
run_pr < "$MAILS/list-reply-to.eml"
check "attribution: the format's escapes" \
	grep -q '^Le Tue, 1 Dec 2026 10:00:00 +0000, Ada Lovelace <ada@example.org> a écrit (\[foo-devel\] \[PATCH\] x: return 0) 100%:$' "$T/out"
printf '\nattribution = "On %%D"\n' > "$CFG"
run_pr < "$MAILS/demo.eml"
check "attribution: an unknown escape is exit 2, naming file and line" \
	sh -c "[ $status -eq 2 ] && grep -q \"config:2: 'attribution': '%D' is no escape\" '$T/err'"
printf 'attribution =\n' > "$CFG"
run_pr < "$MAILS/list-reply-to.eml"
check "attribution: an empty value is the default" \
	sh -c "[ $status -eq 0 ] && grep -q '^On Tue, 1 Dec 2026 10:00:00 +0000, Ada Lovelace <ada@example.org> wrote:$' '$T/out'"
rm -f "$CFG"

# Trimming: trim = auto quotes a short or uncommented patch whole.
run_pr < "$MAILS/clean.eml"
check "trim auto: an uncommented patch is quoted whole" \
	sh -c "grep -q '^> +	for (i = first / BITS_PER_LONG; i < BITS_TO_LONGS(len); i++) {' '$T/out' && ! grep -q '^\[ \.\.\. \]' '$T/out'"
run_pr < "$MAILS/long-clean.eml"
check "trim auto: a 44-line diff nobody commented on is quoted whole" \
	sh -c "grep -q '^X-Patchreview-Summary: The built-in checks found nothing' '$T/out' && grep -q '^> +	549755813888ULL,$' '$T/out' &&
		! grep -q '^\[ \.\.\. \]' '$T/out'"
if have_corpus; then
	# Its subject ends in a full stop; that is a comment on the whole patch.
	PATCHREVIEW_SKIP_CHECKS=subject-period run_pr < "$CORPUS/lore-nf-rename-case.eml"
	check "corpus: trim auto: a 158-line diff nobody commented on is quoted whole" \
		sh -c "grep -q '^X-Patchreview-Summary: The built-in checks found nothing' '$T/out' && ! grep -q '^\[ \.\.\. \]' '$T/out' &&
			[ \$(grep -c '^> [-+ @]' '$T/out') -gt 100 ]"
fi
run_pr < "$MAILS/whitespace.eml"
check "trim auto: a short patch with comments is quoted whole" \
	sh -c "grep -q '^nit: This line adds trailing' '$T/out' && ! grep -q '^\[ \.\.\. \]' '$T/out'"
printf 'trim = yes\n' > "$CFG"
run_pr < "$MAILS/clean.eml"
check "trim yes: the uncommented diff is cut" sh -c "grep -q '^\[ \.\.\. \]' '$T/out' && ! grep -q 'BITS_TO_LONGS' '$T/out'"
printf 'trim = no\n' > "$CFG"
run_pr < "$MAILS/demo.eml"
check "trim no: a long commented patch is quoted whole" grep -q "foo_hw_init" "$T/out"
printf 'trim = maybe\n' > "$CFG"
run_pr < "$MAILS/demo.eml"
check "trim: a bad value is exit 2" \
	sh -c "[ $status -eq 2 ] && grep -q \"config:1: 'trim' wants auto, yes or no, not 'maybe'\" '$T/err'"

# The reviewer's own closing: a signature, and --tag.
printf 'Jane Maintainer\nhttps://jane.example.org\n' > "$T/sig"
printf 'from = "Jane Maintainer <jane@example.org>"\nsignature = %s\n' "$T/sig" > "$CFG"
run_pr < "$MAILS/clean.eml"
check "signature: appended after '-- ', as the client would" \
	sh -c "tail -3 '$T/out' | tr '\n' '|' | grep -q -x -F -e '-- |Jane Maintainer|https://jane.example.org|'"
PATCHREVIEW_SIGNATURE=$T/no-such-file run_pr < "$MAILS/clean.eml"
check "signature: a missing file is no signature, and no error (as in mutt)" \
	sh -c "[ $status -eq 0 ] && [ ! -s '$T/err' ] && ! grep -q '^-- $' '$T/out'"
run_pr --tag Reviewed-by < "$MAILS/clean.eml"
check "--tag: the reviewer's tag, above the signature" \
	sh -c "grep -B2 '^-- $' '$T/out' | head -1 | grep -q -x 'Reviewed-by: Jane Maintainer <jane@example.org>'"
run_pr < "$MAILS/clean.eml"
check "--tag: never added without the option" sh -c "! grep -q -e '-by: Jane' '$T/out'"
rm -f "$CFG"

# mutt's $signature and $sig_dashes, as the mutt macros export them (issue 9).
printf 'Rita Reviewer\n' > "$T/mutt-sig"
PATCHREVIEW_SIGNATURE=$T/sig PATCHREVIEW_MUTT_SIGNATURE=$T/mutt-sig run_pr --mutt < "$MAILS/clean.eml"
check "mutt's \$signature: patchreview's own signature wins" \
	sh -c "tail -1 '$T/out' | grep -q -x 'https://jane.example.org' && ! grep -q 'Rita' '$T/out'"
PATCHREVIEW_SIGNATURE= PATCHREVIEW_MUTT_SIGNATURE=$T/mutt-sig run_pr --mutt < "$MAILS/clean.eml"
check "mutt's \$signature: an empty 'signature' turns it off" \
	sh -c "[ $status -eq 0 ] && ! grep -q -e '^-- \$' -e 'Rita' '$T/out'"
mkdir -p "$HOME"
cp "$T/mutt-sig" "$HOME/.sig-t11"
PATCHREVIEW_MUTT_SIGNATURE='~/.sig-t11' PATCHREVIEW_MUTT_SIG_DASHES=yes run_pr --mutt < "$MAILS/clean.eml"
check "mutt's \$signature: with --mutt and no 'signature', after '-- ' (~ expanded)" \
	sh -c "tail -2 '$T/out' | tr '\n' '|' | grep -q -x -F -e '-- |Rita Reviewer|'"
PATCHREVIEW_MUTT_SIGNATURE=$T/mutt-sig run_pr < "$MAILS/clean.eml"
check "mutt's \$signature: only with --mutt" sh -c "! grep -q 'Rita' '$T/out'"
PATCHREVIEW_MUTT_SIGNATURE=$T/mutt-sig PATCHREVIEW_MUTT_SIG_DASHES=no run_pr --mutt < "$MAILS/clean.eml"
check "mutt's \$sig_dashes unset: the signature without the '-- ' line" \
	sh -c "tail -1 '$T/out' | grep -q -x 'Rita Reviewer' && ! grep -q '^-- \$' '$T/out'"
PATCHREVIEW_MUTT_SIGNATURE="cat $T/mutt-sig |" run_pr --mutt < "$MAILS/clean.eml"
check "mutt's \$signature ending in '|': not run, one warning, no signature" \
	sh -c "[ $status -eq 0 ] && ! grep -q -e '^-- \$' -e 'Rita' '$T/out' && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'is a command, which patchreview does not run' '$T/err'"
run_pr --tag Acked-by < "$MAILS/clean.eml"
check "--tag: without from, exit 2" sh -c "[ $status -eq 2 ] && grep -q \"needs your name and address: set 'from'\" '$T/err'"
run_pr --from "Jane <jane@example.org>" --tag patchreview < "$MAILS/clean.eml"
check "--tag: only a tag such as Reviewed-by" sh -c "[ $status -eq 2 ] && grep -q 'is not a tag such as' '$T/err'"
