/* tracked.c: git ls-files once a run, then reads of what it lists that follow no link. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/slurp.h"
#include "base/str.h"
#include "repo/repo.h"
#include "repo/tracked.h"

/* git ls-files -s of a very large tree; anything bigger is not a tree we read. */
#define TRACKED_MAX_LIST ((size_t)512 << 20)

struct tracked {
	bool loaded;
	char *listing;		/* git's output: the paths point into it */
	const char **v;		/* sorted */
	size_t n;
};

struct tracked *tracked_new(void)
{
	return xcalloc(1, sizeof(struct tracked));
}

void tracked_free(struct tracked *tk)
{
	if (!tk)
		return;
	free(tk->listing);
	free(tk->v);
	free(tk);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "MODE OID STAGE\tPATH\0" records: files and links at stage 0, not submodules. */
static void load(const struct tree *t, struct tracked *tk)
{
	static const char *const args[] = { "ls-files", "-s", "-z", NULL };
	struct buf out = BUF_INIT, why = BUF_INIT;
	size_t cap = 0;
	tk->loaded = true;
	int ret = repo_git(t, args, NULL, NULL, TRACKED_MAX_LIST, &out, NULL, &why);
	if (ret)
		warn("tree: cannot list the files git tracks: %s",
		     ret < 0 ? why.data : "git ls-files failed");
	for (char *p = out.data, *end = out.data + out.len; !ret && p < end;) {
		char *rec = p, *tab = strchr(rec, '\t');
		p += strlen(p) + 1;
		if (!tab || starts_with(rec, "160000 ") || tab < rec + 3 || strncmp(tab - 2, " 0", 2))
			continue;
		if (tk->n == cap) {
			cap = cap ? 2 * cap : 1024;
			tk->v = xrealloc(tk->v, cap * sizeof(*tk->v));
		}
		tk->v[tk->n++] = tab + 1;
	}
	/* git lists them sorted; an index someone else wrote need not be. */
	if (tk->n)
		qsort(tk->v, tk->n, sizeof(*tk->v), by_name);
	tk->listing = buf_detach(&out, NULL);
	buf_release(&why);
}

static struct tracked *list(const struct tree *t)
{
	if (!t->tracked->loaded)
		load(t, t->tracked);
	return t->tracked;
}

/* Is path inside the git directory, when that lies below the top under another name? */
static bool in_git_dir(const struct tree *t, const char *path)
{
	size_t top = strlen(t->top);
	if (strncmp(t->git_dir, t->top, top) || t->git_dir[top] != '/')
		return false;
	const char *rel = t->git_dir + top + 1;
	size_t n = strlen(rel);
	return !strncmp(path, rel, n) && (!path[n] || path[n] == '/');
}

/* The folder of path below the top, opened without following a link; -1 if none. */
static int open_folder(const char *top, const char *path, const char **lasto)
{
	int dir = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	const char *p = path;
	for (const char *slash; dir >= 0 && (slash = strchr(p, '/')); p = slash + 1) {
		char *name = xstrndup(p, (size_t)(slash - p));
		int next = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		free(name);
		close(dir);
		dir = next;
	}
	*lasto = p;
	return dir;
}

/* A link's target, as git stores a link: its text. */
static int read_link(int dir, const char *name, size_t size, size_t max, struct buf *out)
{
	if (size > max) {
		errno = EFBIG;
		return -1;
	}
	char *target = xmalloc(size + 1);
	ssize_t n = readlinkat(dir, name, target, size + 1);
	if (n >= 0 && (size_t)n <= size)
		buf_add(out, target, (size_t)n);
	free(target);
	if (n < 0 || (size_t)n > size) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

/* A regular file; O_NONBLOCK, so that a FIFO put in its place cannot hold us. */
static int read_regular(int dir, const char *name, size_t max, struct buf *out)
{
	struct stat st;
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		errno = ENOENT;
		return -1;
	}
	int ret = (size_t)st.st_size > max ? (errno = EFBIG, -1) : slurp_fd(fd, max, out);
	int err = errno;
	close(fd);
	errno = err;
	return ret;
}

int tracked_read(const struct tree *t, const char *path, size_t max, struct buf *out)
{
	struct tracked *tk = list(t);
	if (!repo_path_ok(path) || in_git_dir(t, path) ||
	    !bsearch(&path, tk->v, tk->n, sizeof(*tk->v), by_name)) {
		errno = ENOENT;
		return -1;
	}
	const char *name;
	int dir = open_folder(t->top, path, &name), ret = -1;
	struct stat st;
	if (dir < 0 || fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW))
		errno = ENOENT;
	else if (S_ISLNK(st.st_mode))
		ret = read_link(dir, name, (size_t)st.st_size, max, out);
	else
		ret = read_regular(dir, name, max, out);
	int err = errno;
	if (dir >= 0)
		close(dir);
	errno = err;
	return ret;
}

void tracked_list(const struct tree *t, const char *dir, struct strvec *names)
{
	struct tracked *tk = list(t);
	size_t n = strlen(dir), lo = 0, hi = tk->n;
	struct buf prefix = BUF_INIT;
	buf_addf(&prefix, "%s%s", dir, n ? "/" : "");
	/* The first path not below the prefix in sort order; the folder's paths follow it. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(tk->v[mid], prefix.data) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < tk->n && starts_with(tk->v[i], prefix.data); i++)
		if (!strchr(tk->v[i] + prefix.len, '/'))
			strvec_push(names, tk->v[i] + prefix.len);
	buf_release(&prefix);
}
