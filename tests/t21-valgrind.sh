#!/bin/sh
# The release build under valgrind on a few mails of each shape: no errors,
# no definite leaks. (The ASan build covers the rest; the two do not mix.)
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || { skip "valgrind" "valgrind missing"; exit 0; }
BIN=$ROOT/patchreview
set -- "$MAILS/demo.eml" "$MAILS/attachment.eml" "$MAILS/reply.eml" "$MAILS/hostile.eml" \
	"$ROOT/tests/parse/mbox-truncated.eml" "$ROOT/tests/parse/mbox-nul.eml" \
	"$ROOT/tests/parse/mbox-from-prose.eml" "$ROOT/tests/parse/utf16-attachment.eml"
if [ -d "$CORPUS" ]; then
	set -- "$@" "$CORPUS/lore-man-latin1-signed-patch.eml" "$CORPUS/pi-message-rfc822-embedded-patch.eml" \
		"$CORPUS/patchew-binary-qp.mbox" "$CORPUS/pw-fuzz-codec-null.mbox"
fi
for mail in "$@"; do
	G_SLICE=always-malloc G_DEBUG=gc-friendly valgrind -q --error-exitcode=99 \
		--leak-check=full --errors-for-leak-kinds=definite \
		"$BIN" --maildir "$T/md" < "$mail" >/dev/null 2>"$T/vg"
	st=$?
	if [ "$st" -eq 0 ] && ! grep -q "==[0-9]*==" "$T/vg"; then
		pass "valgrind: $(basename "$mail")"
	else
		fail "valgrind: $(basename "$mail")" "exit $st: $(grep -m3 "==[0-9]*==" "$T/vg" | tr '\n' ' ')"
	fi
done
