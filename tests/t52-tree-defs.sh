#!/bin/sh
# --tree: of two definitions of one name, the request carries the one the
# changed file reaches (code/reach.h): its own, then the headers it
# includes and theirs, then its directory, then elsewhere. A small git tree
# made here, laid out as the kernel's, where a driver's compat header next
# door defines NETDEV_TX_OK too (the case of issue 24), as a macro, while the
# real one is an enumerator.
. "$(dirname "$0")/lib.sh"
command -v git >/dev/null || { skip "tree-defs" "git missing"; exit 0; }
command -v python3 >/dev/null || { skip "tree-defs" "python3 missing"; exit 0; }
TREE=$T/tree
D=$TREE/drivers/net/ethernet
mkdir -p "$D/foo" "$D/bar" "$TREE/include/linux" "$TREE/lib/ext2fs" "$TREE/misc"
cat > "$TREE/include/linux/netdevice.h" <<'EOF'
#ifndef _LINUX_NETDEVICE_H
#define _LINUX_NETDEVICE_H
#include <linux/types.h>

enum netdev_tx {
	__NETDEV_TX_MIN	 = -1,
	NETDEV_TX_OK	 = 0x00,	/* driver took care of packet (the real one) */
	NETDEV_TX_BUSY	 = 0x10,
};
typedef enum netdev_tx netdev_tx_t;

#endif
EOF
cat > "$TREE/include/linux/types.h" <<'EOF'
#define RING_BYTES 4096	/* two includes away from foo.c */
EOF
cat > "$D/bar/compat.h" <<'EOF'
/* compat.h: for kernels older than 2.6.x */
#ifndef NETDEV_TX_OK
#define NETDEV_TX_OK 0	/* the compat one, bar's alone */
#endif
#define RING_BYTES 512	/* bar's ring, not foo's */
EOF
cat > "$D/foo/foo.h" <<'EOF'
#include <linux/netdevice.h>

struct foo_priv {
	int irq;
};
EOF
cat > "$D/foo/foo.c" <<'EOF'
#include "foo.h"

static int foo_xmit(struct foo_priv *priv)
{
	if (!priv)
		return -1;
	return 0;
}
EOF
# A quoted name with a directory, found by its ending (a tree built with -I lib).
cat > "$TREE/lib/ext2fs/ext2fs.h" <<'EOF'
#define EXT2_MAGIC 0xEF53	/* lib/ext2fs: the one misc/tune.c includes */
EOF
cat > "$TREE/lib/ext2fs/magic.h" <<'EOF'
#define EXT2_MAGIC 0xEF53	/* lib/ext2fs/magic.h: another, not included */
EOF
cat > "$TREE/misc/tune.c" <<'EOF'
#include "ext2fs/ext2fs.h"

int tune_check(unsigned magic)
{
	return 0;
}
EOF
git -C "$TREE" init -q
G() { git -C "$TREE" -c user.name=T -c user.email=t@example.org "$@"; }
G add -A && G commit -q -m "a driver, two NETDEV_TX_OKs"
# The patch: foo_xmit() returns NETDEV_TX_OK and sizes a ring; tune_check() tests the magic.
sed -i 's/\treturn 0;/\tpriv->irq = RING_BYTES;\n\treturn NETDEV_TX_OK;/' "$D/foo/foo.c"
sed -i 's/\treturn 0;/\treturn magic == EXT2_MAGIC;/' "$TREE/misc/tune.c"
G commit -q -a -m "foo: return NETDEV_TX_OK"
G format-patch -q --stdout -1 HEAD > "$T/foo.eml"
# The same change with bar's compat header touched too: a patch's other file is no nearer.
sed -i 's/older than 2.6.x/older than 2.6.33/' "$D/bar/compat.h"
G commit -q -a -m "foo, bar: NETDEV_TX_OK"
git -C "$TREE" diff HEAD~2 HEAD > "$T/both.diff"
{ printf 'From: T <t@example.org>\nSubject: [PATCH] foo, bar: NETDEV_TX_OK\n\n'
  printf 'Signed-off-by: T <t@example.org>\n---\n'; cat "$T/both.diff"; } > "$T/both.eml"
G checkout -q --detach HEAD~2

# The context the request carries (the patch itself holds the compat line too).
defs() {
	run_pr --tree "$TREE" --request-name "$1" --requests-out "$T/req" < "$T/$1.eml"
	python3 - "$T/req/$1.json" > "$T/$1.ctx" <<'PY'
import json, sys
u = json.load(open(sys.argv[1]))["messages"][0]["content"]
a = u.find("\n<<<CONTEXT\n")
print(u[a:u.find("\nCONTEXT>>>", a)] if a >= 0 else "")
PY
}
ctx_has() { grep -q -F -- "$2" "$T/$1.ctx"; }
ctx_lacks() { ! grep -q -F -- "$2" "$T/$1.ctx"; }
defs foo
check "reach: NETDEV_TX_OK, an enumerator, as its enum in include/linux/netdevice.h, two includes away" \
	ctx_has foo "include/linux/netdevice.h:5-9: enum netdev_tx, used by the added lines"
check "reach: ... not the compat macro of a driver next door" ctx_lacks foo "the compat one"
check "reach: RING_BYTES through netdevice.h's own include, not bar's" sh -c "
	grep -q -F 'two includes away from foo.c' '$T/foo.ctx' && ! grep -q -F \"bar's ring\" '$T/foo.ctx'"
check "reach: a quoted name with a directory, found by its ending" sh -c "
	grep -q -F 'the one misc/tune.c includes' '$T/foo.ctx' && ! grep -q -F 'not included' '$T/foo.ctx'"
defs both
check "reach: a patch's other file that defines it is not nearer than the included header" sh -c "
	grep -q -F 'the real one' '$T/both.ctx' && ! grep -q -F 'the compat one' '$T/both.ctx'"
