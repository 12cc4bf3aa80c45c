/*
 * cache.c: the review cache. Entries are small JSON files named by a
 * SHA-256 of the request; a write goes to a temporary file that is renamed
 * into place, so a reader never sees half an entry, and an entry that does
 * not parse is treated as missing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "backend/cache.h"
#include "base/buf.h"
#include "base/msg.h"
#include "base/paths.h"
#include "base/slurp.h"

/* Entries hold one answer; anything far larger is not ours. */
#define CACHE_MAX_ENTRY ((size_t)32 << 20)
#define CACHE_FORMAT 1

/* The cache directory into *dir; returns -1 when neither variable is set. */
static int cache_dir(struct buf *dir)
{
	char *path = xdg_path("XDG_CACHE_HOME", ".cache", "patchreview");
	if (!path)
		return -1;
	buf_addstr(dir, path);
	free(path);
	return 0;
}

static int entry_path(struct buf *path, const char *key)
{
	if (cache_dir(path) < 0)
		return -1;
	buf_addf(path, "/%s.json", key);
	return 0;
}

int cache_get(const char *key, struct cache_entry *e)
{
	struct buf path = BUF_INIT, data = BUF_INIT;
	int ret = -1;
	*e = (struct cache_entry){ 0 };
	if (entry_path(&path, key) < 0 || slurp_file(path.data, CACHE_MAX_ENTRY, &data) < 0)
		goto out;
	cJSON *root = cJSON_ParseWithLength(data.data, data.len);
	const cJSON *format = cJSON_GetObjectItemCaseSensitive(root, "format");
	const char *text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root, "text"));
	const cJSON *prompt = cJSON_GetObjectItemCaseSensitive(root, "prompt_tokens");
	const cJSON *completion = cJSON_GetObjectItemCaseSensitive(root, "completion_tokens");
	if (cJSON_IsNumber(format) && format->valueint == CACHE_FORMAT && text &&
	    cJSON_IsNumber(prompt) && cJSON_IsNumber(completion)) {
		e->text = xstrdup(text);
		e->prompt_tokens = (long)prompt->valuedouble;
		e->completion_tokens = (long)completion->valuedouble;
		ret = 0;
	}
	cJSON_Delete(root);
out:
	buf_release(&path);
	buf_release(&data);
	return ret;
}

void cache_put(const char *key, const struct cache_entry *e)
{
	struct buf dir = BUF_INIT, path = BUF_INIT;
	cJSON *root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, "format", CACHE_FORMAT);
	cJSON_AddNumberToObject(root, "prompt_tokens", (double)e->prompt_tokens);
	cJSON_AddNumberToObject(root, "completion_tokens", (double)e->completion_tokens);
	cJSON_AddStringToObject(root, "text", e->text);
	char *json = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	if (!json)
		die_nomem();
	if (cache_dir(&dir) < 0 || entry_path(&path, key) < 0 ||
	    make_dirs(dir.data) < 0 || write_file_atomic(path.data, json, strlen(json)) < 0)
		warn("cannot write the review cache in '%s': %s",
		     dir.len ? dir.data : "$HOME/.cache", strerror(errno));
	free(json);
	buf_release(&dir);
	buf_release(&path);
}

void cache_entry_release(struct cache_entry *e)
{
	free(e->text);
	e->text = NULL;
}
