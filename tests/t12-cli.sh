#!/bin/sh
# The command line: options, configuration, environment, exit statuses,
# Maildir delivery, and input that cannot be reviewed.
. "$(dirname "$0")/lib.sh"

run_pr --help
check "--help: exit 0 and lists exit statuses and keys" \
	sh -c "[ $status -eq 0 ] && grep -q '^Exit status' '$T/out' && grep -q '^  min_confidence' '$T/out'"
run_pr --list-keys
cp "$T/out" "$T/keys"
run_pr --help
check "--list-keys: key, default, meaning, as --help lists them" \
	sh -c "[ $status -eq 0 ] && grep -q '^timeout  *300  *seconds allowed for one model request$' '$T/keys' &&
		grep -q '^attribution  *\"On %d, %f wrote:\" ' '$T/keys' && grep -q '^from  *unset ' '$T/keys' &&
		sed -n 's/^  //p' '$T/out' | grep -F -x -f '$T/keys' | cmp -s - '$T/keys'"
run_pr --list-exit-codes
check "--list-exit-codes: 0 to 5, as --help lists them" \
	sh -c "[ $status -eq 0 ] && [ \"\$(cut -d' ' -f1 '$T/out' | tr '\n' ' ')\" = '0 1 2 3 4 5 ' ] &&
		grep -q '^4  --strict ' '$T/out'"
run_pr --version
check "--version" grep -q "^patchreview [0-9]" "$T/out"

run_pr --frobnicate < "$MAILS/demo.eml"
check "unknown option: exit 2, one line on stderr" \
	sh -c "[ $status -eq 2 ] && [ \$(wc -l < '$T/err') -eq 1 ] && grep -q \"unknown option '--frobnicate'\" '$T/err' && [ ! -s '$T/out' ]"

for o in --from -f --maildir; do
	run_pr $o < "$MAILS/demo.eml"
	check "$o without its argument: exit 2, says so" \
		sh -c "[ $status -eq 2 ] && [ \$(wc -l < '$T/err') -eq 1 ] && grep -q \"option '$o' needs an argument\" '$T/err'"
done

mkdir -p "$XDG_CONFIG_HOME/patchreview"
for v in nan inf -nan; do
	printf '# model\nmin_confidence = %s\n' $v > "$XDG_CONFIG_HOME/patchreview/config"
	run_pr < "$MAILS/demo.eml"
	check "min_confidence = $v: exit 2, names file and line" \
		sh -c "[ $status -eq 2 ] && grep -q \"config:2: 'min_confidence' wants a number, not '$v'\" '$T/err'"
done
printf 'mutt = maybe\n' > "$XDG_CONFIG_HOME/patchreview/config"
run_pr < "$MAILS/demo.eml"
check "bad config value: exit 2, names file and line" \
	sh -c "[ $status -eq 2 ] && grep -q 'config:1: .mutt. wants yes or no' '$T/err'"
# Every key whose value is a choice refuses another word alike: exit 2, one line.
for kv in trim=sometimes profile=linux fingerprints=all low_confidence=keep \
	preexisting=show backend=foo; do
	printf '%s = %s\n' "${kv%%=*}" "${kv#*=}" > "$XDG_CONFIG_HOME/patchreview/config"
	run_pr < "$MAILS/demo.eml"
	check "a choice: $kv in the config file is exit 2, one line" \
		sh -c "[ $status -eq 2 ] && [ \$(wc -l < '$T/err') -eq 1 ] && [ ! -s '$T/out' ] &&
			grep -q \"config:1: '${kv%%=*}' wants .*, not '${kv#*=}'\" '$T/err'"
done
rm -f "$XDG_CONFIG_HOME/patchreview/config"
run_pr --backend foo < "$MAILS/demo.eml"
check "a choice: --backend foo is exit 2, one line" \
	sh -c "[ $status -eq 2 ] && [ \$(wc -l < '$T/err') -eq 1 ] && [ ! -s '$T/out' ] &&
		grep -q \"^patchreview: error: --backend: 'backend' wants none, openai, anthropic or ollama, not 'foo'\$\" '$T/err'"
# Each backend the setting offers is one the model reviewer has.
for b in openai anthropic ollama; do
	PATCHREVIEW_RETRIES=0 OPENAI_API_KEY=k ANTHROPIC_API_KEY=k \
		run_pr --backend $b --model m --url http://127.0.0.1:9 --no-cache < "$MAILS/demo.eml"
	check "a choice: backend $b is one the model reviewer has" \
		sh -c "grep -q 'model review failed' '$T/out' && ! grep -q 'unknown backend' '$T/out'"
done
printf 'colour = blue\n' > "$XDG_CONFIG_HOME/patchreview/config"
run_pr < "$MAILS/demo.eml"
check "unknown config key: exit 2" sh -c "[ $status -eq 2 ] && grep -q \"unknown setting 'colour'\" '$T/err'"
printf '# reviewer\nfrom = "Rev Iewer <rev@example.org>"\ntrim = no\n' > "$XDG_CONFIG_HOME/patchreview/config"
run_pr < "$MAILS/demo.eml"
check "config file: from and trim" \
	sh -c "grep -q '^From: Rev Iewer <rev@example.org>' '$T/out' && grep -q 'foo_hw_init' '$T/out'"
PATCHREVIEW_TRIM=yes run_pr < "$MAILS/demo.eml"
check "environment overrides the file" sh -c "! grep -q 'foo_hw_init' '$T/out'"
PATCHREVIEW_TRIM=yes run_pr --full < "$MAILS/demo.eml"
check "option overrides the environment" grep -q "foo_hw_init" "$T/out"
PATCHREVIEW_SKIP_CHECKS="signoff,  fixes-tag" run_pr < "$MAILS/fixes-bad.eml"
check "skip_checks: the named checks are silent" grep -q "^X-Patchreview-Summary: The built-in checks found nothing" "$T/out"
PATCHREVIEW_SKIP_CHECKS="signoff" run_pr < "$MAILS/fixes-bad.eml"
check "skip_checks: the others still speak" grep -q "^X-Patchreview-Summary: The built-in checks made 2 comments" "$T/out"
run_pr --config "$T/nonexistent" < "$MAILS/demo.eml"
check "--config with a missing file: exit 2" test "$status" -eq 2
rm -f "$XDG_CONFIG_HOME/patchreview/config"

run_pr < /dev/null
check "empty input: exit 3, one line on stderr" \
	sh -c "[ $status -eq 3 ] && [ \$(wc -l < '$T/err') -eq 1 ]"
printf 'this is not a mail at all\n\001\002\377\376\n' > "$T/garbage"
run_pr < "$T/garbage"
check "garbage input: a draft anyway, exit 1" sh -c "[ $status -eq 1 ] && grep -q '^Subject: Re:' '$T/out'"

# Maildir delivery: tmp/ then new/, created when missing.
run_pr --maildir "$T/drafts" < "$MAILS/demo.eml"
check "maildir: exit 0, nothing on stdout" sh -c "[ $status -eq 0 ] && [ ! -s '$T/out' ]"
check "maildir: one draft in new/, tmp/ empty" \
	sh -c "[ \$(ls '$T/drafts/new' | wc -l) -eq 1 ] && [ -z \"\$(ls '$T/drafts/tmp')\" ] && [ -d '$T/drafts/cur' ]"
check "maildir: the draft is complete" \
	sh -c "grep -q '^X-Patchreview-Summary: The built-in checks made 2 comments.' '$T/drafts/new/'*"
run_pr --maildir "$T/drafts" < "$MAILS/reply.eml"
check "maildir: not a patch still exits 0" test "$status" -eq 0
printf x > "$T/file"
run_pr --maildir "$T/file/sub" < "$MAILS/demo.eml"
check "maildir: cannot create, exit 3" sh -c "[ $status -eq 3 ] && grep -q 'cannot create' '$T/err'"

# Large and broken input.
if command -v python3 >/dev/null; then
	python3 - "$T/big.eml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("From: Big <big@example.org>\nTo: l@example.org\nSubject: [PATCH] big\n"
            "Message-ID: <big@example.org>\n\nBig.\n\nSigned-off-by: Big <big@example.org>\n---\n"
            "diff --git a/big.c b/big.c\nnew file mode 100644\n--- /dev/null\n+++ b/big.c\n")
    n = 50 * 1024 * 1024 // 40
    f.write("@@ -0,0 +1,%d @@\n" % n)
    line = "+int x%08d = 1; /* padding text */\n"
    f.write("".join(line % i for i in range(n)))
PY
	run_pr < "$T/big.eml"
	check "50 MB patch: reviewed, short draft" \
		sh -c "[ $status -eq 0 ] && grep -q 'nothing to comment on' '$T/out' && [ \$(wc -c < '$T/out') -lt 4000 ]"
fi
printf 'From: a@example.org\nSubject: [PATCH] x\n\nmsg \377\376\303\050\n\nSigned-off-by: a@example.org\n---\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-\351t\351\n+\303\251t\303\251\n' > "$T/bad-utf8.eml"
run_pr --full < "$T/bad-utf8.eml"
check "invalid UTF-8: replaced, draft is valid UTF-8" \
	sh -c "[ $status -eq 0 ] && iconv -f UTF-8 -t UTF-8 '$T/out' >/dev/null && grep -q '^> +été$' '$T/out' && grep -q '^> -été$' '$T/out'"

# A reader that goes away: a write error, exit 3, one line; and patchreview,
# not a library it happens to load, is what ignores SIGPIPE.
printf 'From: a@example.org\nSubject: [PATCH] x\n\nx\n\nSigned-off-by: a@example.org\n---\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1,20000 @@\n x\n' > "$T/long.eml"
i=0
while [ $i -lt 20000 ]; do echo "+int y$i = $i;"; i=$((i + 1)); done >> "$T/long.eml"
("$PR" --full < "$T/long.eml" 2>"$T/err"; echo $? > "$T/st") | true
check "closed stdout: exit 3 and one line on stderr" \
	sh -c "[ \$(cat '$T/st') -eq 3 ] && [ \$(wc -l < '$T/err') -eq 1 ] && grep -q 'cannot write' '$T/err'"
if command -v strace >/dev/null 2>&1; then
	# LeakSanitizer does not run under ptrace.
	ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=rt_sigaction -o "$T/strace" "$PR" --version >/dev/null 2>&1
	check "SIGPIPE: main ignores it before any library could" \
		sh -c "grep -m1 'SIGPIPE' '$T/strace' | grep -q 'rt_sigaction(SIGPIPE, {sa_handler=SIG_IGN'"
else
	skip "SIGPIPE" "strace missing"
fi
