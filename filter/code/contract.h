/*
 * contract.h: contracts in view. The project's functions that the added
 * lines call with an out-parameter ("&x"), whose result they test, or
 * whose name says it takes or drops a lock or a reference: each goes in as
 * a context item of its own, ahead of the other definitions.
 */
#ifndef CODE_CONTRACT_H
#define CODE_CONTRACT_H

#include "code/context.h"

/*
 * Adds an item per such callee, at most 12, whole when short, else its
 * head and the lines around its returns; their definitions go into *out
 * (caller frees out->v), not those in changed.
 */
void context_contracts(struct tree_review *tr, struct symbol_index *ix,
		       const struct changed_set *changed, struct changed_set *out);

#endif
