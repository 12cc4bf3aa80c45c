#!/bin/sh
# The kernel's rules (profile = kernel, or auto on a kernel mail): each
# fires right under the line that breaks it in kernel-code.eml or
# kernel-message.eml, and stays silent on the near misses of
# kernel-clean.eml; none of them speaks under profile = generic.
. "$(dirname "$0")/lib.sh"

run_pr < "$MAILS/kernel-code.eml"
said "function-brace" "> +static int frob_read(struct frob *f) {" "^nit: The opening brace of a function goes on a line of its own"
said "code-indent" "> +    int v = f->count;" "^nit: This line is indented with spaces"
said "keyword-space" "> +	if(v < 0)" "^nit: This line needs a space between the keyword and its"
said "bug-on" "> +		BUG();" "^This line adds a BUG\(\) or BUG_ON\(\)"
said "assign-in-if" "> +	if ((v = frob_fix(f)) != 0)" "^nit: This line assigns inside an if condition"
said "printk-level" '> +		printk("frob: fixed %d\n", v);' "^nit: This printk\(\) has no KERN_<LEVEL>"
said "sizeof-paren" "> +	memset(f->regs, 0, sizeof f->regs);" "^nit: sizeof is written with parentheses"
said "sizeof-address" "> +	frob_hash(f, sizeof(&f->regs));" "^sizeof\(&x\) is the size of a pointer, not of x; is that what is meant\?$"
said "debug-leftover" '> +	pr_info("%s:%d\n", __func__, __LINE__);' "^This line prints __func__ and __LINE__"
said "long-line" "> +	frob_write(f, FROB_REG_CTRL," "^nit: This line is over 100 columns wide\.$"
said "spelling: a comment" "> +	/* Wait until the device has recieved the reset. */" '^nit: "recieved" looks misspelt; perhaps "received"\?$'
said "c99-comment: where the file shows only /* */" "> +	return v; // the count" "^nit: This line adds a // comment, where the rest of drivers/misc/frob.c"
said "export-symbol" "> +EXPORT_SYMBOL(frob_read);" "^nit: EXPORT_SYMBOL\(\) goes right after the function"
said "if-0" "> +#if 0" "^nit: This adds an #if 0 block"
said "new-typedef" "> +typedef struct frob_regs {" "^nit: This line adds a typedef of a struct"
said "volatile" "> +	volatile u32 ctrl;" "^This line uses volatile"
said "attribute-macro" "> +} __attribute__((packed));" "^nit: The kernel spells __attribute__\(\(packed\)\) as __packed"
said "spdx-license: missing" "> +#ifndef FROB_H" "^The new file drivers/misc/frob.h has no SPDX-License-Identifier line"
said "spdx-license: a .c file's comment style" "> +/* SPDX-License-Identifier: GPL-2.0 */" '^nit: In a file like drivers/misc/frob-core.c the licence line is written$'
check "kernel-code: one comment per rule" grep -q "^X-Patchreview-Summary: The built-in checks made 19 comments\.$" "$T/out"

run_pr < "$MAILS/kernel-message.eml"
said "subject-period" "wrote:" "^nit: The subject ends with a full stop"
check "subject-prefix" grep -q '^nit: The subject has no "subsystem: " prefix' "$T/out"
said "commit-line-length" "> The frob limit of 1 was too low, the recieve path" "^nit: This line of the commit message is over 75 columns"
check "spelling: the commit message" grep -q '^nit: "recieve" looks misspelt; perhaps "receive"?$' "$T/out"
said "commit-ref: a short id, no subject" "> Commit 1234567 raised it once" "^nit: Commits are referred to as commit 0123456789ab"
said "reported-link: a bot's report without Closes:" "> Reported-by: syzbot+" "^nit: A report by a bot is public: a Closes: line"
said "codeveloper-signoff" "> Co-developed-by: Grace Hopper" "^A Co-developed-by: must be followed right away"
said "stable-cc: a name on the address" "> Cc: Stable <stable@vger.kernel.org>" "^nit: The stable Cc: takes the bare address"
said "stable-cc: a note without #" "> Cc: stable@vger.kernel.org [6.1+]" "^nit: The stable scripts read notes on this line after a #"
said "change-id" "> Change-Id: I0123" "^Gerrit's Change-Id: means nothing upstream"
said "signoff-form: no <> around the address" "> Signed-off-by: Ada Lovelace ada@example.org" "^This Signed-off-by: has no <> around the address"
check "duplicate-trailer: a sign-off twice in a row" \
	sh -c "grep -A3 -x '> Signed-off-by: Ada Lovelace <ada@example.org>' '$T/out' | grep -q '^nit: This Signed-off-by: line repeats one above it'"

PATCHREVIEW_PROFILE=kernel run_pr < "$ROOT/tests/parse/trailers-only.eml"
said "empty-message: only a sign-off" "wrote:" "^The commit message has no description, only the subject and"
run_pr < "$MAILS/kernel-clean.eml"
check "kernel-clean: every near miss is silent" grep -q "^X-Patchreview-Summary: The built-in checks found nothing to comment on" "$T/out"

run_pr < "$MAILS/stable-mailed.eml"
said "stable-cc: mailed to stable, no Cc: stable trailer" "wrote:" "^This patch is mailed to the stable list, but only a Cc:"
run_pr < "$MAILS/stable-backport.eml"
unsaid "stable-cc: a backport to a stable tree is mailed there" "stable list"

# The profile: kernel rules need a kernel mail or profile = kernel.
PATCHREVIEW_PROFILE=generic run_pr < "$MAILS/kernel-code.eml"
check "profile generic: none of the kernel rules speaks" grep -q "^X-Patchreview-Summary: The built-in checks found nothing to comment on" "$T/out"
PATCHREVIEW_PROFILE=generic PATCHREVIEW_ADD_CHECKS=spelling run_pr < "$MAILS/kernel-code.eml"
check "add_checks: one kernel rule in a generic project" \
	sh -c "grep -q 'looks misspelt' '$T/out' && grep -q '^X-Patchreview-Summary: The built-in checks made 1 comment' '$T/out'"
PATCHREVIEW_SKIP_CHECKS="spelling volatile" run_pr < "$MAILS/kernel-code.eml"
check "skip_checks: kernel rules by id" grep -q "^X-Patchreview-Summary: The built-in checks made 17 comments" "$T/out"
sed -e 's|drivers/misc/|src/|g' -e 's|linux-kernel@vger.kernel.org|dev@lists.example.org|' \
	"$MAILS/kernel-code.eml" > "$T/generic.eml"
run_pr < "$T/generic.eml"
check "profile auto: the same patch elsewhere gets only the universal rules" \
	grep -q "^X-Patchreview-Summary: The built-in checks found nothing to comment on" "$T/out"
sed -e 's|linux-kernel@vger.kernel.org|dev@lists.example.org|' "$MAILS/kernel-code.eml" > "$T/paths.eml"
run_pr < "$T/paths.eml"
check "profile auto: kernel paths alone make it a kernel patch" grep -q "^X-Patchreview-Summary: The built-in checks made 19 comments" "$T/out"
# Open vSwitch, iproute2 and libbpf carry copies of the kernel's headers.
sed -e 's|linux-kernel@vger.kernel.org|dev@lists.example.org|' -e 's|drivers/misc/|include/uapi/linux/|g' \
	"$MAILS/kernel-code.eml" > "$T/uapi.eml"
run_pr < "$T/uapi.eml"
check "profile auto: a copy of include/uapi/ is no kernel patch" \
	grep -q "^X-Patchreview-Summary: The built-in checks found nothing to comment on" "$T/out"
sed -e 's|drivers/misc/|src/|g' "$MAILS/kernel-code.eml" > "$T/list.eml"
run_pr < "$T/list.eml"
check "profile auto: a vger list alone makes it a kernel patch" grep -q "^X-Patchreview-Summary: The built-in checks made 19 comments" "$T/out"
sed -e 's|drivers/misc/|src/|g' -e 's|linux-kernel@vger.kernel.org|git@vger.kernel.org|' \
	"$MAILS/kernel-code.eml" > "$T/git.eml"
run_pr < "$T/git.eml"
check "profile auto: git's list on vger is not a kernel list" \
	grep -q "^X-Patchreview-Summary: The built-in checks found nothing to comment on" "$T/out"

# Real mails.
if have_corpus; then
	run_pr < "$CORPUS/lore-dm-vdo-large-patch.eml"
	said "corpus: bug-on in dm-vdo" "> +	BUG_ON(atomic_read(&pool->processing));" "^This line adds a BUG\(\) or BUG_ON\(\)"
	said "corpus: new-typedef in dm-vdo" "> +typedef struct list_head dirty_era_t[2];" "^nit: This line adds a typedef"
	said "corpus: spelling in dm-vdo" "> +		/* This field only exists for backwards compatability */" '^nit: "compatability" looks misspelt'
	said "corpus: long-line in dm-vdo" "> +int vdo_int_map_put(struct int_map *map, u64 key, void *new_value, bool update, void **old_value_ptr)" \
		"^nit: This line is over 100 columns wide"
	said "corpus: subject-prefix and subject-period in dm-vdo" "wrote:" "^nit: The subject ends with a full stop"
	run_pr < "$CORPUS/notmuch-lkml-rfc2047-subject-patch.eml"
	said "corpus: empty-message, only a sign-off" "wrote:" "^The commit message has no description"
	unsaid "corpus: code-indent is silent where the patch keeps an old space indent" "indented with spaces"
	run_pr < "$CORPUS/notmuch-signed-x-diff-linux-man.eml"
	unsaid "corpus: an attached git show's 'commit <sha>' line is no commit reference" "Commits are referred to"
	run_pr < "$CORPUS/lore-cifs-octet-stream-patch.eml"
	check "corpus: the subject of an attached format-patch is the commit's" \
		sh -c "! grep -q 'subsystem: ' '$T/out' && grep -q '^nit: This Signed-off-by: line repeats one above it' '$T/out'"
	unsaid "corpus: stable@kernel.org # v6.3~v6.9 is a fine stable Cc:" "^(nit: The stable|This patch is mailed to the stable)"
fi
