/*
 * b4skip.c: b4 review's tracking data, read for the one thing the run
 * needs from it: which messages the maintainer marked "skip".
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/buf.h"
#include "base/slurp.h"
#include "run/b4skip.h"

/* b4 writes the whole tracking data of a series; a big one is still far below this. */
#define TRACKING_MAX ((size_t)64 << 20)

/* Does a reviewer's entry under target's "reviews" say "patch-state": "skip"? */
static bool marked_skip(const cJSON *target)
{
	const cJSON *entry;
	cJSON_ArrayForEach(entry, cJSON_GetObjectItemCaseSensitive(target, "reviews")) {
		const cJSON *state = cJSON_GetObjectItemCaseSensitive(entry, "patch-state");
		if (cJSON_IsString(state) && !strcmp(state->valuestring, "skip"))
			return true;
	}
	return false;
}

static bool is_message(const cJSON *target, const char *message_id)
{
	const cJSON *info = cJSON_GetObjectItemCaseSensitive(target, "header-info");
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(info, "msgid");
	return cJSON_IsString(id) && !strcmp(id->valuestring, message_id);
}

bool b4_marked_skip(const char *message_id)
{
	const char *path = getenv("B4_TRACKING_FILE");
	if (!path || !*path || !message_id)
		return false;
	struct buf text = BUF_INIT;
	bool skip = false;
	if (!slurp_file(path, TRACKING_MAX, &text)) {
		cJSON *root = cJSON_Parse(text.data);
		const cJSON *series = cJSON_GetObjectItemCaseSensitive(root, "series"), *p;
		if (is_message(series, message_id))
			skip = marked_skip(series);
		cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(root, "patches"))
			if (is_message(p, message_id))
				skip = marked_skip(p);
		cJSON_Delete(root);
	}
	buf_release(&text);
	return skip;
}
