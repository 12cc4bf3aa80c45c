/* day.c: the day's token count of consume. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/slurp.h"
#include "consume/day.h"

static void today(char date[16])
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(date, 16, "%Y-%m-%d", &tm);
}

void day_read(struct day *d, const char *state)
{
	struct buf path = BUF_INIT, data = BUF_INIT;
	char date[16];
	long used;
	today(d->date);
	d->used = 0;
	buf_addf(&path, "%s/day", state);
	if (slurp_file(path.data, 64, &data) == 0 && data.len &&
	    sscanf(data.data, "%15s %ld", date, &used) == 2 && !strcmp(date, d->date) && used > 0)
		d->used = used;
	buf_release(&path);
	buf_release(&data);
}

void day_charge(struct day *d, const char *state, long tokens)
{
	struct buf path = BUF_INIT, data = BUF_INIT;
	char date[16];
	today(date);
	if (strcmp(date, d->date)) {
		memcpy(d->date, date, sizeof(date));
		d->used = 0;
	}
	d->used += tokens > 0 ? tokens : 0;
	buf_addf(&path, "%s/day", state);
	buf_addf(&data, "%s %ld\n", d->date, d->used);
	if (write_file_atomic(path.data, data.data, data.len) < 0)
		warn("cannot write '%s': %s", path.data, strerror(errno));
	buf_release(&path);
	buf_release(&data);
}
