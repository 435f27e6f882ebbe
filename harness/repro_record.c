/* The stimulus recorder (repro_record.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repro_record.h"

static struct {
	int state; /* 0 not asked yet, 1 recording, -1 off */
	FILE *f;
	const struct nicref_dev *dev; /* the device recorded: the first one created */
	unsigned depth;               /* stimuli under way: a nested call is the device's */
} rec;

static int recording(void)
{
	if (rec.state == 0) {
		const char *path = getenv("NICREF_REPRO_RECORD");
		rec.state = -1;
		if (path && *path) {
			rec.f = fopen(path, "w");
			if (rec.f)
				rec.state = 1;
			else
				fprintf(stderr, "NICREF_REPRO_RECORD: cannot write %s\n", path);
		}
	}
	return rec.state > 0;
}

static void hex_out(const void *buf, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const uint8_t *p = buf;
	char chunk[512];
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		chunk[n++] = digits[p[i] >> 4];
		chunk[n++] = digits[p[i] & 15];
		if (n == sizeof chunk) {
			fwrite(chunk, 1, n, rec.f);
			n = 0;
		}
	}
	fwrite(chunk, 1, n, rec.f);
}

void repro_record_enter(const struct nicref_dev *dev, enum repro_stim kind, uint64_t a,
			uint64_t b, const void *buf, size_t len)
{
	if (rec.depth++ || !recording())
		return;
	if (kind == REPRO_CREATE) {
		if (rec.dev)
			return; /* a second device: only the first is recorded */
		rec.dev = dev;
	} else if (!rec.dev || dev != rec.dev) {
		return;
	}
	switch (kind) {
	case REPRO_CREATE:
	case REPRO_RESET:
	case REPRO_CLEAR:
		fprintf(rec.f, "%c\n", (char)kind);
		break;
	case REPRO_BAR_WRITE:
		fprintf(rec.f, "W %llx %llx\n", (unsigned long long)a, (unsigned long long)b);
		break;
	case REPRO_BAR_READ:
		fprintf(rec.f, "r %llx\n", (unsigned long long)a);
		break;
	case REPRO_TIME:
		fprintf(rec.f, "T %llu\n", (unsigned long long)a);
		break;
	case REPRO_MEM:
	case REPRO_FRAME:
		fprintf(rec.f, "%c %llx ", (char)kind, (unsigned long long)a);
		hex_out(buf, len);
		fputc('\n', rec.f);
		break;
	case REPRO_FAULT:
		fprintf(rec.f, "X %llx %llx %zx\n", (unsigned long long)a, (unsigned long long)b, len);
		break;
	}
	/* A crash may follow: what is recorded is on disk before the stimulus runs. */
	fflush(rec.f);
}

void repro_record_leave(void)
{
	if (rec.depth)
		rec.depth--;
}
