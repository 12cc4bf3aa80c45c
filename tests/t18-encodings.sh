#!/bin/sh
# The findings are those of the decoded content, however the mail was
# sent: the rule test mails again as quoted-printable, base64, an attached
# format-patch, multipart/signed and format=flowed (tests/tools/encode-mail.py),
# and every real patch mail of the corpus against its content decoded by
# Python's email package (tests/tools/decode-mail.py). format=flowed and
# CR LF parts are findings about the transport itself, so they are left
# out of the comparison.
. "$(dirname "$0")/lib.sh"
DUMP=${DUMP:-$ROOT/build/asan/dump}
[ -x "$DUMP" ] || { fail "encodings" "$DUMP is missing (make build/asan/dump)"; exit 0; }
command -v python3 >/dev/null || { skip "encodings" "python3 missing"; exit 0; }

# findings MAIL OUT: the findings with their places, transport findings left out.
findings() {
	"$DUMP" --findings < "$1" 2>"$T/dump-err" | grep -v -e '^format-flowed	' -e '^crlf-part	' | sort > "$2"
}

for m in kernel-code kernel-message kernel-clean modes whitespace signoff-below demo \
	fixes-bad no-signoff signoff-other clean stable-mailed; do
	findings "$MAILS/$m.eml" "$T/plain"
	rm -rf "$T/enc" && mkdir "$T/enc"
	python3 "$ROOT/tests/tools/encode-mail.py" "$MAILS/$m.eml" "$T/enc"
	for v in qp base64 attached signed flowed; do
		findings "$T/enc/$v.eml" "$T/$v"
		if cmp -s "$T/plain" "$T/$v"; then
			pass "encodings: $m.eml as $v: the same $(wc -l < "$T/plain") findings"
		else
			fail "encodings: $m.eml as $v" "$(diff "$T/plain" "$T/$v" | head -3 | cut -c1-120 | tr '\n' ' ')"
		fi
	done
done

if have_corpus; then
	for mail in "$CORPUS"/*.eml "$CORPUS"/*.mbox; do
		name=$(basename "$mail")
		# Single patch mails only: decode-mail.py reads the first message.
		run_pr < "$mail"
		[ "$status" -eq 0 ] || continue
		grep -q "^$name	.*fuzzed" "$CORPUS/MANIFEST.tsv" && continue
		findings "$mail" "$T/raw"
		grep -q '^== message' "$T/raw" && continue
		python3 "$ROOT/tests/tools/decode-mail.py" "$mail" "$T/decoded.eml"
		findings "$T/decoded.eml" "$T/dec"
		if cmp -s "$T/raw" "$T/dec"; then
			pass "encodings: corpus $name: the same $(wc -l < "$T/raw") findings as its decoded content"
		else
			fail "encodings: corpus $name" "$(diff "$T/raw" "$T/dec" | head -3 | cut -c1-120 | tr '\n' ' ')"
		fi
	done
fi
