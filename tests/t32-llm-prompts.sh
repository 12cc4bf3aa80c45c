#!/bin/sh
# Prompt selection: the guides' triggers, the user's own prompt files, and
# --explain-prompt, which shows the choice without asking a model.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/llm-lib.sh"
command -v python3 >/dev/null || { skip "llm prompts" "python3 missing"; exit 0; }
start_server
NET=$MAILS/llm-net.eml
use_backend openai
export PATCHREVIEW_MODEL=scenario:ok PATCHREVIEW_CACHE=no
out_has() { grep -q -E -- "$1" "$T/out"; }

run_pr --explain-prompt < "$NET"
check "explain: exit 0, no request sent" sh -c "[ $status -eq 0 ] && [ $(requests) -eq 0 ]"
check "explain: the guide chosen and the trigger that chose it" \
	out_has '^  networking +selected: path net/ matches net/bar/bar_rx\.c \([0-9]+ bytes\)$'
check "explain: an always guide" out_has '^  commit-message +selected: always'
check "explain: guides left out" out_has '^  filesystems +not selected$'
check "explain: prompt size in bytes and estimated tokens" \
	out_has '^Prompt: [0-9]+ bytes \(instructions [0-9]+, user message [0-9]+\), about [0-9]+ tokens \(an estimate'
check "explain: each request split into instructions, patch, series, thread and tree" \
	out_has '^Request 1 of 1: [0-9]+ bytes, about [0-9]+ tokens: instructions [0-9]+, patch [0-9]+, series 0, thread 0, tree 0\.$'
check "explain: the size of all guides together" out_has '^Guides: [0-9]+ of [0-9]+ bytes selected'
check "explain: no draft" sh -c "! grep -q '^Subject:' '$T/out'"
check "kernel: no: the userspace C guide is not chosen for a kernel patch (net/)" \
	out_has '^  generic-c +not selected$'
check "kernel: yes: the kernel's memory guide is" out_has '^  kernel-memory +selected: path'
run_pr --explain-prompt < "$MAILS/empty-context.eml"
check "kernel: no: it is chosen for a C file outside a kernel tree" \
	out_has '^  generic-c +selected: path \*\*/\*\.c matches tools/foo/count\.c'
check "kernel: yes: the kernel's memory guide is not" out_has '^  kernel-memory +not selected$'
PATCHREVIEW_PROFILE=kernel run_pr --explain-prompt < "$MAILS/empty-context.eml"
check "kernel: no: and not when profile = kernel says the patch is kernel code" \
	out_has '^  generic-c +not selected$'
PATCHREVIEW_BACKEND= run_pr --explain-prompt < "$MAILS/llm-fs.eml"
check "explain: works with no backend configured" \
	sh -c "[ $status -eq 0 ] && grep -q -E '^  filesystems +selected: path fs/' '$T/out'"
PATCHREVIEW_CONTEXT_TOKENS=5000 PATCHREVIEW_MAX_TOKENS=1000 run_pr --explain-prompt < "$NET"
check "explain: says when context_tokens would skip the model" \
	out_has "^The model would be skipped: the instructions and what comes with the patch take about [0-9]+ tokens"
PATCHREVIEW_TOKEN_BUDGET=100 run_pr --explain-prompt < "$NET"
check "explain: says when the requests are over token_budget" out_has "^That is over token_budget \(100\)"

# The user's prompt files: replace, disable, add; README and dotfiles ignored.
P=$XDG_CONFIG_HOME/patchreview/prompts
mkdir -p "$P"
: > "$P/networking"
printf 'title: Local rules\npaths: nothing/\nsymbols: kfree_skb\n\nLOCAL-GUIDE-TEXT\n' > "$P/zz-local"
printf 'title: Mine\nalways: yes\n\nUSER-COMMIT-GUIDE\n' > "$P/commit-message"
printf 'title: Whole words\nsymbols: kfree rx\n\nWHOLE-WORD-TEXT\n' > "$P/zz-words"
printf 'title: Regex\nregex: rx_dropped\\+\\+\n\nREGEX-TEXT\n' > "$P/zz-regex"
printf 'README-TEXT\n' > "$P/README"
printf 'title: Hidden\nalways: yes\n\nHIDDEN-TEXT\n' > "$P/.hidden"
run_pr --explain-prompt < "$NET"
check "user prompts: an empty file disables a guide" out_has '^  networking +disabled by an empty file'
check "user prompts: a new guide, chosen by a symbol" out_has '^  zz-local +selected: symbol kfree_skb matches kfree_skb'
check "user prompts: a symbol without '_' matches whole identifiers only" out_has '^  zz-words +not selected$'
check "user prompts: a regex on the changed lines" out_has '^  zz-regex +selected: regex rx_dropped'
run_pr < "$NET"
check "user prompts: the disabled guide is not sent" logq "'$(guide_text networking)' not in s"
check "user prompts: the new guide is sent, with its title" logq "'GUIDE: Local rules\nLOCAL-GUIDE-TEXT' in s"
check "user prompts: a user file replaces the installed one" \
	logq "'USER-COMMIT-GUIDE' in s and '$(guide_text commit-message)' not in s"
check "user prompts: README and dotfiles are not prompts" logq "'README-TEXT' not in s and 'HIDDEN-TEXT' not in s"
check "user prompts: the other installed guides still come" logq "'$(guide_text c-memory)' in s"
# Malformed guides: one warning naming the file, and the guide is not sent.
printf 'title Colonless header\nalways: yes\n\nCOLONLESS-TEXT\n' > "$P/zz-colonless"
printf 'always: yes' > "$P/zz-header-only"
printf 'title: Unknown key\nalways: yes\ncolour: blue\n\nUNKNOWN-KEY-TEXT\n' > "$P/zz-unknown"
run_pr < "$NET"
check "bad guide: a header line without a colon is named, the guide skipped" \
	sh -c "[ \$(grep -c 'zz-colonless' '$T/err') -eq 1 ] && grep -q \"prompts/zz-colonless: line 1: not a 'key: value' trigger line; guide skipped\" '$T/err'"
check "bad guide: a header with no text and no newline is skipped" \
	grep -q "prompts/zz-header-only: no guide text after the trigger header" "$T/err"
check "bad guide: an unknown key is named" grep -q "prompts/zz-unknown: line 3: unknown trigger key 'colour'" "$T/err"
check "bad guide: none of them is sent, nor a (null) title" \
	logq "'COLONLESS-TEXT' not in s and 'UNKNOWN-KEY-TEXT' not in s and '(null)' not in s and 'GUIDE: zz-' not in s"
check "bad guide: the review still runs" sh -c "[ $status -eq 0 ] && grep -q STANDIN-ANCHORED '$T/out'"
head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' x > "$P/zz-huge"
run_pr --explain-prompt < "$NET"
check "bad guide: a file over 1 MiB is a warning, and skipped" \
	sh -c "grep -q 'prompts/zz-huge: larger than 1 MiB; skipped' '$T/err' && ! grep -q zz-huge '$T/out'"
rm -f "$P/zz-colonless" "$P/zz-header-only" "$P/zz-unknown" "$P/zz-huge"
mkdir -p "$T/elsewhere"
printf 'title: Elsewhere\nalways: yes\n\nELSEWHERE-TEXT\n' > "$T/elsewhere/zz-elsewhere"
PATCHREVIEW_PROMPTS_DIR=$T/elsewhere run_pr < "$NET"
check "prompts_dir: names the user's directory" \
	logq "'ELSEWHERE-TEXT' in s and 'LOCAL-GUIDE-TEXT' not in s and '$(guide_text networking)' in s"
rm -rf "$P"

# Real mails from the corpus: the selection is explained for each.
if have_corpus; then
	for m in lore-nf-latin2-2047from-patch.eml pw-git-rename.mbox lore-man-x-diff-base64.eml; do
		run_pr --explain-prompt < "$CORPUS/$m"
		check "explain: $m" sh -c "[ $status -eq 0 ] && grep -q '^Prompt: [0-9]* bytes' '$T/out'"
	done
	run_pr --explain-prompt < "$CORPUS/lore-man-x-diff-base64.eml"
	check "explain: a man page patch gets the docs guide, not C" \
		sh -c "grep -q -E '^  docs +selected' '$T/out' && grep -q -E '^  c-memory +not selected' '$T/out'"
fi
check "explain: only the three reviews sent requests" sent 3
