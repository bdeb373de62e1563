/* libFuzzer target: the strace trace converter (lg_trace_convert) and the sniffing that
 * tells a trace from a loadfile (lg_trace_sniff).
 *
 * Every input is converted, whatever sniff said: a foreign or cut text must be refused
 * with "fuzz.txt:LINE:COL: ..." (or converted), never crash or leak. Half of the inputs
 * are converted with a snapshot of the directory, half with the tree inferred. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/load/trace.h"

#define FNAME "fuzz.txt"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct lg_tree_entry tree[] = {
		{ .rel = "a", .type = 'd' },
		{ .rel = "a/f", .type = 'f', .size = 5000000 },
		{ .rel = "l", .type = 'l', .target = "a/f" },
	};
	struct lg_trace_opts o = { .dir = "/d", .overhead_ns = 1000, .command = "x" };
	struct lg_trace_summary sum;
	char err[1024] = "", *out = NULL;
	size_t outlen = 0, n = strlen(FNAME);
	FILE *in, *f;
	int rc;

	if (!size)
		return 0;
	(void)lg_trace_sniff((const char *)data, size);
	if (data[0] & 1) {
		o.tree = tree;
		o.ntree = 3;
	}
	in = fmemopen((void *)data, size, "r");
	f = open_memstream(&out, &outlen);
	if (!in || !f)
		abort();
	rc = lg_trace_convert(in, FNAME, &o, f, &sum, err, sizeof(err));
	fclose(in);
	fclose(f);
	free(out);
	if (rc == 0 || ((rc == -EINVAL || rc == -ENOMEM) && !strncmp(err, FNAME, n) &&
			err[n] == ':'))
		return 0;
	fprintf(stderr, "converter contract broken: rc=%d err='%s'\n", rc, err);
	abort();
}
