/* index.c: building, refreshing, storing and searching the symbol index. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/hash.h"
#include "base/msg.h"
#include "base/paths.h"
#include "base/slurp.h"
#include "base/str.h"
#include "code/index.h"
#include "csource/clex.h"
#include "repo/repo.h"
#include "repo/tracked.h"

#define INDEX_MAGIC "PRIDX03\n"
/* git ls-files -s of a very large tree; anything bigger is not a tree we index. */
#define INDEX_MAX_LIST ((size_t)512 << 20)

struct ix_header {
	char magic[8];
	uint64_t key;		/* of the staged C files and their blobs */
	uint64_t nfiles, nentries, paths_len;
	/* git's index file as it was when key was taken: unchanged, so is key */
	uint64_t git_index_ino, git_index_size, git_index_mtime;
};

/*
 * An entry is one u64: the name's hash above, the file and kind below, so
 * that sorting the numbers sorts by name. Lines are not kept: the file is
 * scanned again when read, which also resolves a hash that two names share.
 */
#define META(file, kind, st) (((uint64_t)(file) << 5) | ((uint64_t)(st) << 4) | (kind))
#define E_HASH(e) ((uint32_t)((e) >> 32))
#define E_FILE(e) ((uint32_t)(e) >> 5)
#define E_KIND(e) ((unsigned)(e) & 15)
#define E_STATIC(e) (((unsigned)(e) >> 4) & 1)

struct symbol_index {
	const uint64_t *entries;
	size_t nentries, nfiles;
	const uint32_t *offs;	/* per file: "OID PATH" in paths */
	const char *paths;
	void *map;
	size_t map_len;
	uint64_t *own_entries;	/* when built in this run */
	uint32_t *own_offs;
	char *own_paths;
	uint64_t key;
	struct ix_header header;	/* as loaded */
};

/* The files to index, from git ls-files -s. */
struct file_list {
	struct buf names;	/* "OID PATH\0" each */
	uint32_t *offs;
	size_t n, cap;
	uint64_t key;
};

static uint32_t hash32(const char *s, size_t len)
{
	return hash_fnv32(HASH_FNV32_INIT, s, len);
}

static bool indexable(const char *path)
{
	static const char *const ext[] = { ".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp" };
	const char *dot = strrchr(path, '.');
	for (size_t i = 0; dot && i < sizeof(ext) / sizeof(*ext); i++)
		if (!strcmp(dot, ext[i]))
			return true;
	return false;
}

/* "MODE OID STAGE\tPATH\0" records; regular files at stage 0 only. */
static int list_files(struct tree *t, struct file_list *fl, struct buf *why)
{
	static const char *const args[] = { "ls-files", "-s", "-z", NULL };
	struct buf out = BUF_INIT;
	int ret = repo_git(t, args, NULL, NULL, INDEX_MAX_LIST, &out, NULL, why);
	fl->key = HASH_FNV64_INIT;
	for (const char *p = out.data, *end = out.data + out.len; !ret && p < end;) {
		const char *rec = p;
		p += strlen(p) + 1;
		const char *tab = strchr(rec, '\t');
		const char *sp1 = strchr(rec, ' '), *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
		if (!tab || !sp2 || sp2 > tab || (!starts_with(rec, "100644 ") &&
		    !starts_with(rec, "100755 ")) || strncmp(sp2, " 0\t", 3) || !indexable(tab + 1))
			continue;
		if (fl->n == fl->cap) {
			fl->cap = fl->cap ? fl->cap * 2 : 1024;
			fl->offs = xrealloc(fl->offs, fl->cap * sizeof(*fl->offs));
		}
		fl->offs[fl->n++] = (uint32_t)fl->names.len;
		buf_add(&fl->names, sp1 + 1, (size_t)(sp2 - sp1 - 1));
		buf_addch(&fl->names, ' ');
		buf_addstr(&fl->names, tab + 1);
		buf_addch(&fl->names, '\0');
	}
	if (ret > 0)
		buf_addf(why, "git ls-files failed (status %d)", ret);
	fl->key = hash_fnv64(fl->key, fl->names.data, fl->names.len);
	buf_release(&out);
	return ret ? -1 : 0;
}

static char *index_path(const struct tree *t)
{
	char *dir = xdg_path("XDG_CACHE_HOME", ".cache", "patchreview/trees");
	if (!dir)
		return NULL;
	struct buf b = BUF_INIT;
	buf_addf(&b, "%s/%016llx.idx", dir,
		 (unsigned long long)hash_fnv64(HASH_FNV64_INIT, t->top, strlen(t->top)));
	free(dir);
	return buf_detach(&b, NULL);
}

/* Maps the stored index when it is whole. Returns NULL otherwise. */
static struct symbol_index *load(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return NULL;
	void *map = MAP_FAILED;
	if (!fstat(fd, &st) && (size_t)st.st_size >= sizeof(struct ix_header))
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NULL;
	const struct ix_header *h = map;
	size_t size = (size_t)st.st_size;
	uint64_t need = sizeof(*h) + h->nentries * 8 + h->nfiles * 4 + h->paths_len;
	if (memcmp(h->magic, INDEX_MAGIC, 8) || h->nentries > size / 8 || h->nfiles > size / 4 ||
	    h->paths_len > size || need != size ||
	    (h->paths_len && ((const char *)map)[size - 1] != '\0')) {
		munmap(map, size);
		return NULL;
	}
	struct symbol_index *ix = xcalloc(1, sizeof(*ix));
	ix->map = map;
	ix->map_len = size;
	ix->key = h->key;
	ix->header = *h;
	ix->nentries = h->nentries;
	ix->nfiles = h->nfiles;
	ix->entries = (const uint64_t *)(h + 1);
	ix->offs = (const uint32_t *)(ix->entries + ix->nentries);
	ix->paths = (const char *)(ix->offs + ix->nfiles);
	for (size_t i = 0; i < ix->nfiles; i++)
		if (ix->offs[i] >= h->paths_len) {
			symbol_index_free(ix);
			return NULL;
		}
	return ix;
}

struct entries {
	uint64_t *v;
	size_t n, cap;
};

static void push(struct entries *e, uint64_t x)
{
	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 4096;
		e->v = xrealloc(e->v, e->cap * sizeof(*e->v));
	}
	e->v[e->n++] = x;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

struct use_ctx {
	struct entries *e;
	uint32_t file;
};

static void on_use(void *ctx, enum cuse_kind kind, const char *s, size_t len, uint32_t line)
{
	struct use_ctx *u = ctx;
	(void)line;
	push(u->e, ((uint64_t)hash32(s, len) << 32) |
	     META(u->file, kind == CUSE_CALL ? IX_CALL : kind == CUSE_TAG ? IX_TAG : IX_ENUMERATOR, 0));
}

/* Scans the text of one file into e, sorted and without repeats. */
static void scan_text(const char *text, size_t len, uint32_t file, struct entries *e)
{
	size_t from = e->n;
	struct cdefs defs = { 0 };
	struct use_ctx u = { e, file };
	cscan(text, len, &defs, on_use, &u);
	for (size_t i = 0; i < defs.n; i++)
		push(e, ((uint64_t)hash32(defs.v[i].name, defs.v[i].name_len) << 32) |
		     META(file, defs.v[i].kind, defs.v[i].is_static));
	cdefs_release(&defs);
	if (e->n == from)
		return;	/* nothing in it (and e->v may be NULL) */
	qsort(e->v + from, e->n - from, sizeof(*e->v), by_value);
	size_t kept = from;
	for (size_t i = from; i < e->n; i++)
		if (i == from || e->v[i] != e->v[kept - 1])
			e->v[kept++] = e->v[i];
	e->n = kept;
}

/* Scans one file of the work tree (as git tracks it) into e. */
static void scan_file(const struct tree *t, const char *path, uint32_t file,
		      struct entries *e, struct buf *text)
{
	buf_reset(text);
	if (tracked_read(t, path, INDEX_MAX_FILE, text) == 0)
		scan_text(text->data, text->len, file, e);
}

/* The old index's entries of files whose blob is unchanged, renumbered. */
static void keep_unchanged(const struct symbol_index *old, const struct file_list *fl,
			   uint32_t *old_to_new, bool *fresh)
{
	size_t i = 0, j = 0;
	for (size_t k = 0; k < old->nfiles; k++)
		old_to_new[k] = UINT32_MAX;
	while (old && i < old->nfiles && j < fl->n) {
		const char *a = old->paths + old->offs[i], *b = fl->names.data + fl->offs[j];
		int c = strcmp(strchr(a, ' ') + 1, strchr(b, ' ') + 1);
		if (!c && !strcmp(a, b)) {
			old_to_new[i] = (uint32_t)j;
			fresh[j] = true;
		}
		if (c <= 0)
			i++;
		if (c >= 0)
			j++;
	}
}

/* Merges two runs sorted by name hash. */
static uint64_t *merge(const struct entries *a, const struct entries *b)
{
	uint64_t *v = xmalloc((a->n + b->n + 1) * sizeof(*v));
	size_t i = 0, j = 0, k = 0;
	while (i < a->n || j < b->n)
		if (j == b->n || (i < a->n && E_HASH(a->v[i]) <= E_HASH(b->v[j])))
			v[k++] = a->v[i++];
		else
			v[k++] = b->v[j++];
	return v;
}

/* The index of fl's files from the entries kept and scanned, all taken. */
static struct symbol_index *assemble(struct file_list *fl, struct entries *kept,
				     struct entries *scanned)
{
	if (scanned->n)
		qsort(scanned->v, scanned->n, sizeof(*scanned->v), by_value);
	struct symbol_index *ix = xcalloc(1, sizeof(*ix));
	ix->own_entries = merge(kept, scanned);
	ix->entries = ix->own_entries;
	ix->nentries = kept->n + scanned->n;
	ix->nfiles = fl->n;
	ix->own_offs = fl->offs;
	ix->offs = fl->offs;
	ix->own_paths = buf_detach(&fl->names, NULL);
	ix->paths = ix->own_paths;
	ix->key = fl->key;
	fl->offs = NULL;
	free(kept->v);
	free(scanned->v);
	return ix;
}

static struct symbol_index *build(const struct tree *t, struct file_list *fl,
				  const struct symbol_index *old)
{
	bool *fresh = xcalloc(fl->n + 1, sizeof(*fresh));
	uint32_t *old_to_new = xcalloc(old ? old->nfiles + 1 : 1, sizeof(*old_to_new));
	struct entries kept = { 0 }, scanned = { 0 };
	if (old) {
		keep_unchanged(old, fl, old_to_new, fresh);
		for (size_t i = 0; i < old->nentries; i++) {
			uint64_t e = old->entries[i];
			uint32_t to = E_FILE(e) < old->nfiles ? old_to_new[E_FILE(e)] : UINT32_MAX;
			if (to != UINT32_MAX)
				push(&kept, (e & ~(uint64_t)0xffffffffu) | META(to, E_KIND(e), E_STATIC(e)));
		}
	}
	struct buf text = BUF_INIT;
	for (size_t j = 0; j < fl->n; j++)
		if (!fresh[j])
			scan_file(t, strchr(fl->names.data + fl->offs[j], ' ') + 1, (uint32_t)j,
				  &scanned, &text);
	buf_release(&text);
	free(old_to_new);
	free(fresh);
	return assemble(fl, &kept, &scanned);
}

struct symbol_index *symbol_index_of_text(const char *path, const char *text, size_t len)
{
	struct file_list fl = { .names = BUF_INIT, .offs = xcalloc(1, sizeof(uint32_t)), .n = 1 };
	struct entries kept = { 0 }, scanned = { 0 };
	buf_addf(&fl.names, "0 %s", path);
	buf_addch(&fl.names, '\0');
	scan_text(text, len, 0, &scanned);
	return assemble(&fl, &kept, &scanned);
}

/* The stat of git's index file, to know without running git that nothing was staged. */
static void git_index_stat(const struct tree *t, struct ix_header *h)
{
	struct buf path = BUF_INIT;
	struct stat st;
	buf_addf(&path, "%s/index", t->git_dir);
	if (!stat(path.data, &st)) {
		h->git_index_ino = (uint64_t)st.st_ino;
		h->git_index_size = (uint64_t)st.st_size;
		h->git_index_mtime = (uint64_t)st.st_mtim.tv_sec * 1000000000u +
			(uint64_t)st.st_mtim.tv_nsec;
	}
	buf_release(&path);
}

static bool same_git_index(const struct ix_header *a, const struct ix_header *b)
{
	return a->git_index_mtime && a->git_index_ino == b->git_index_ino &&
		a->git_index_size == b->git_index_size && a->git_index_mtime == b->git_index_mtime;
}

/* Only the stat of git's index changed (git status refreshed it): a new header, in place. */
static void restamp(const char *path, const struct ix_header *h)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (pwrite(fd, h, sizeof(*h), 0) != (ssize_t)sizeof(*h))
			warn("cannot update the symbol index %s: %s", path, strerror(errno));
		close(fd);
	}
}

static void store(const struct symbol_index *ix, const char *path, const struct ix_header *stamp)
{
	struct ix_header h = { .key = ix->key, .nfiles = ix->nfiles, .nentries = ix->nentries };
	h.git_index_ino = stamp->git_index_ino;
	h.git_index_size = stamp->git_index_size;
	h.git_index_mtime = stamp->git_index_mtime;
	memcpy(h.magic, INDEX_MAGIC, 8);
	size_t paths_len = 0;
	if (ix->nfiles) {
		const char *last = ix->paths + ix->offs[ix->nfiles - 1];
		paths_len = (size_t)(last - ix->paths) + strlen(last) + 1;
	}
	h.paths_len = paths_len;
	struct buf b = BUF_INIT;
	buf_add(&b, &h, sizeof(h));
	buf_add(&b, ix->entries, ix->nentries * sizeof(*ix->entries));
	buf_add(&b, ix->offs, ix->nfiles * sizeof(*ix->offs));
	buf_add(&b, ix->paths, paths_len);
	char *dir = xstrdup(path);
	*strrchr(dir, '/') = '\0';
	if (make_dirs(dir) < 0 || write_file_atomic(path, b.data, b.len) < 0)
		warn("cannot store the symbol index in %s: %s", path, strerror(errno));
	free(dir);
	buf_release(&b);
}

struct symbol_index *symbol_index_get(struct tree *t)
{
	if (t->index_tried)
		return t->index;
	t->index_tried = true;
	struct file_list fl = { .names = BUF_INIT };
	struct buf why = BUF_INIT;
	char *path = index_path(t);
	struct symbol_index *old = path ? load(path) : NULL;
	struct ix_header now = { .key = 0 };
	git_index_stat(t, &now);
	if (old && same_git_index(&old->header, &now)) {
		t->index = old;
		old = NULL;
	} else if (list_files(t, &fl, &why) < 0) {
		warn("tree: no symbol index: %s", why.data);
	} else if (old && old->key == fl.key) {
		struct ix_header h = old->header;
		h.git_index_ino = now.git_index_ino;
		h.git_index_size = now.git_index_size;
		h.git_index_mtime = now.git_index_mtime;
		restamp(path, &h);
		t->index = old;
		old = NULL;
	} else {
		double start = clock_now();
		if (!t->quiet && !old)
			warn("tree: indexing %zu C files in %s (once; later runs rescan what changed)",
			     fl.n, t->top);
		t->index = build(t, &fl, old);
		if (!t->quiet && !old)
			warn("tree: indexed in %.1f s", clock_now() - start);
		if (path)
			store(t->index, path, &now);
	}
	symbol_index_free(old);
	free(fl.offs);
	buf_release(&fl.names);
	buf_release(&why);
	free(path);
	return t->index;
}

void symbol_index_free(struct symbol_index *ix)
{
	if (!ix)
		return;
	if (ix->map)
		munmap(ix->map, ix->map_len);
	free(ix->own_entries);
	free(ix->own_offs);
	free(ix->own_paths);
	free(ix);
}

size_t symbol_index_find(const struct symbol_index *ix, const char *name, size_t len,
			 unsigned mask, struct ix_hit *hits, size_t max)
{
	uint32_t h = hash32(name, len);
	size_t lo = 0, hi = ix->nentries, n = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (E_HASH(ix->entries[mid]) < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < ix->nentries && E_HASH(ix->entries[i]) == h && n < max; i++) {
		uint64_t e = ix->entries[i];
		if (!(mask & IX_BIT(E_KIND(e))) || E_FILE(e) >= ix->nfiles)
			continue;
		const char *rec = ix->paths + ix->offs[E_FILE(e)], *sp = strchr(rec, ' ');
		hits[n++] = (struct ix_hit){ sp ? sp + 1 : rec, (enum ix_kind)E_KIND(e), E_STATIC(e) };
	}
	return n;
}

/* The path of file i (after its "OID "). */
static const char *file_path(const struct symbol_index *ix, size_t i)
{
	const char *rec = ix->paths + ix->offs[i], *sp = strchr(rec, ' ');
	return sp ? sp + 1 : rec;
}

bool symbol_index_has_file(const struct symbol_index *ix, const char *path)
{
	size_t lo = 0, hi = ix->nfiles;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(file_path(ix, mid), path);
		if (!c)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

size_t symbol_index_files_ending(const struct symbol_index *ix, const char *suffix,
				 const char **out, size_t max)
{
	size_t n = 0, slen = strlen(suffix);
	for (size_t i = 0; i < ix->nfiles && n < max; i++) {
		const char *p = file_path(ix, i);
		size_t plen = strlen(p);
		if (plen >= slen && !memcmp(p + plen - slen, suffix, slen) &&
		    (plen == slen || p[plen - slen - 1] == '/'))
			out[n++] = p;
	}
	return n;
}
