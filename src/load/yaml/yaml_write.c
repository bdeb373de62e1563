/* Compiled workload -> YAML.
 *
 * Each op becomes one step in flow style, '- op: {key: value, ...}', with only the
 * arguments that differ from what the loader assumes when they are missing, so that
 * loading the text gives back exactly the op that was written. Control ops are turned
 * back into blocks: LOOP ... NEXT is a repeat, CHOOSE with its alternatives (each
 * ending in a JUMP past the last) a choose. Strings are always double-quoted, so no
 * path, file or label can be mistaken for YAML syntax. The arguments of the ops of
 * recorded programs come as a list from yaml_write_meta.c; this file prints them. */
#include "loadgen/load/yaml_write.h"
#include "loadgen/model/clock.h"
#include "loadgen/model/errf.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "loadgen/model/errnames.h"
#include "yaml_priv.h"

/* State of one write. */
struct yw {
	FILE *f;
	const struct lg_workload *wl;
	const struct lg_op *ops;   /* the phase being written */
	size_t nops;
	const char *phase;         /* its name, for messages */
	char *err;                 /* message buffer */
	size_t errlen;
	unsigned nargs;            /* arguments written so far in the current op */
	/* per YAML op name (lg_ywrite_name_index): the label its steps are written without
	 * (the top-level 'labels'), or NULL for the name itself */
	const char *label_of[LG_YW_NAMES];
};

static int fail(struct yw *w, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct yw *w, size_t i, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!w->err || !w->errlen)
		return -EINVAL;
	n = snprintf(w->err, w->errlen, "%s op %zu (line %u): ", w->phase, i,
		     w->ops[i].line);
	va_start(ap, fmt);
	lg_verrf(w->err, w->errlen, n > 0 ? (size_t)n : 0, -EINVAL, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* s as a YAML double-quoted scalar. Bytes >= 0x80 pass as they are (UTF-8 text);
 * "\xHH" would mean the code point U+00HH, not the byte. */
void lg_ywrite_quoted(FILE *f, const char *s)
{
	putc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\x%02x", ch);
		else
			putc(ch, f);
	}
	putc('"', f);
}

/* s in a comment: a line break in it would end the comment. */
static void put_comment(FILE *f, const char *s)
{
	for (; *s; s++)
		putc((unsigned char)*s < 0x20 ? '?' : *s, f);
}

/* Start argument key of the current op's mapping. */
static void arg(struct yw *w, const char *key)
{
	fprintf(w->f, "%s%s: ", w->nargs++ ? ", " : "{", key);
}

static void arg_str(struct yw *w, const char *key, const char *s)
{
	arg(w, key);
	lg_ywrite_quoted(w->f, s);
}

static void arg_true(struct yw *w, const char *key)
{
	arg(w, key);
	fputs("true", w->f);
}

static void arg_num(struct yw *w, const char *key, uint64_t v)
{
	arg(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

/* Key with the list of the names in tab whose bits are all in *rest, then extra (may
 * be NULL); the bits named are removed from *rest, so what no name covers stays. */
static void arg_flags(struct yw *w, const char *key, const struct lg_yflag *tab, int *rest,
		      const char *extra)
{
	const char *sep = "";

	arg(w, key);
	putc('[', w->f);
	for (size_t i = 0; tab[i].name; i++) {
		if ((*rest & tab[i].value) == tab[i].value && tab[i].value) {
			fprintf(w->f, "%s%s", sep, tab[i].name);
			*rest &= ~tab[i].value;
			sep = ", ";
		}
	}
	fprintf(w->f, "%s%s]", extra ? sep : "", extra ? extra : "");
}

static void arg_file(struct yw *w, const struct lg_op *op)
{
	arg_str(w, "file", w->wl->slots[op->slot]);
}

/* A path, or with a variable the template of its file set (checked by var_paths). */
static void arg_path(struct yw *w, const char *key, uint32_t path, uint16_t var)
{
	arg_str(w, key, var ? lg_workload_set_template(w->wl, path, var) : w->wl->paths[path]);
}

/* Every variable of op i names a file set that starts at its path. */
static int var_paths(struct yw *w, size_t i, const struct lg_op *op)
{
	if (op->var && (op->var >= w->wl->nvars ||
			!lg_workload_set_template(w->wl, op->path, op->var)))
		return fail(w, i, "path %u with variable %u is no file set", op->path, op->var);
	if (op->var2 && (op->var2 >= w->wl->nvars ||
			 !lg_workload_set_template(w->wl, op->path2, op->var2)))
		return fail(w, i, "path %u with variable %u is no file set", op->path2, op->var2);
	return 0;
}

/* The op's name in YAML: its kind, but an open that creates is a create. */
static const char *op_name(const struct lg_op *op)
{
	if (op->kind == LG_OP_OPEN && (op->flags & O_CREAT))
		return "create";
	return lg_op_kind_name(op->kind);
}

static int open_args(struct yw *w, size_t i, const struct lg_op *op)
{
	static const char *const access[] = { "read", "write", NULL }; /* rdwr: default */
	int acc = op->flags & O_ACCMODE, rest = op->flags & ~(O_CREAT | O_ACCMODE);

	arg_path(w, "path", op->path, op->var);
	arg_str(w, "as", w->wl->slots[op->slot]);
	if (acc > O_RDWR)
		return fail(w, i, "open access mode %d has no name", acc);
	if (rest || access[acc])
		arg_flags(w, "flags", lg_yopen_flags, &rest, access[acc]); /* bar create, access */
	return rest ? fail(w, i, "open flags 0x%x have no name", (unsigned)rest) : 0;
}

/* ntcreate: a directory is opened read-only, a file read-write; both are implied. */
static int ntcreate_args(struct yw *w, size_t i, const struct lg_op *op)
{
	int dir = op->flags & O_DIRECTORY, rest = op->flags & ~O_ACCMODE;

	arg_path(w, "path", op->path, op->var);
	if (op->slot != LG_NO_SLOT)
		arg_str(w, "as", w->wl->slots[op->slot]);
	if ((op->flags & O_ACCMODE) != (dir ? O_RDONLY : O_RDWR) || (dir && (rest & O_TRUNC)))
		return fail(w, i, "ntcreate flags 0x%x have no name", (unsigned)op->flags);
	if (rest)
		arg_flags(w, "flags", lg_yntcreate_flags, &rest, NULL);
	return rest ? fail(w, i, "ntcreate flags 0x%x have no name", (unsigned)rest) : 0;
}

/* offset and, for random offsets, range, align and base; def: the loader's default
 * mode for the op (LG_OFF_SEQ for read and write, LG_OFF_FIXED at 0 for the others). */
static void offset_args(struct yw *w, const struct lg_op *op, enum lg_offset_mode def)
{
	if (op->off_mode == LG_OFF_FIXED) {
		if (def != LG_OFF_FIXED || op->offset)
			arg_num(w, "offset", op->offset);
		return;
	}
	if (op->off_mode != def) {
		arg(w, "offset");
		fputs(lg_yoffset_names[op->off_mode], w->f);
	}
	if (op->off_mode != LG_OFF_RANDOM)
		return;
	arg_num(w, "range", op->range);
	if (op->align != (op->size ? op->size : 1))
		arg_num(w, "align", op->align);
	if (op->offset)
		arg_num(w, "base", op->offset);
}

static int io_args(struct yw *w, size_t i, const struct lg_op *op)
{
	int rest = op->flags;

	arg_file(w, op);
	if (op->kind == LG_OP_READ || op->kind == LG_OP_WRITE) {
		arg_num(w, "size", op->size);
		if (op->count != 1)
			arg_num(w, "count", op->count);
		offset_args(w, op, LG_OFF_SEQ);
		if (op->flags & LG_OP_VECTOR)
			arg_true(w, "vector");
		return op->flags & ~LG_OP_VECTOR ? fail(w, i, "%s flags 0x%x have no name",
			lg_op_kind_name(op->kind), (unsigned)op->flags) : 0;
	}
	if (op->size)
		arg_num(w, "size", op->size);
	offset_args(w, op, LG_OFF_FIXED);
	if (op->kind == LG_OP_SYNC_FILE_RANGE) {
		arg_flags(w, "flags", lg_ysfr_flags, &rest, NULL);
		return rest ? fail(w, i, "sync_file_range flags 0x%x have no name",
				   (unsigned)rest) : 0;
	}
	for (size_t k = 0; lg_yfadvice[k].name; k++) {
		if (lg_yfadvice[k].value == op->flags) {
			arg(w, "advice");
			fputs(lg_yfadvice[k].name, w->f);
			return 0;
		}
	}
	return fail(w, i, "fadvise advice %d has no name", op->flags);
}

/* A duration in the largest unit that keeps it exact, bare. */
static void put_duration(FILE *f, uint64_t ns)
{
	static const struct {
		const char *unit;
		uint64_t ns;
	} units[] = {
		{ "h", UINT64_C(3600000000000) }, { "m", UINT64_C(60000000000) },
		{ "s", LG_NS_PER_SEC }, { "ms", LG_NS_PER_MS }, { "us", 1000 }, { "ns", 1 },
	};
	size_t u = 0;

	while (ns && ns % units[u].ns)
		u++;
	if (!ns)
		u = 5;
	fprintf(f, "%" PRIu64 "%s", ns / units[u].ns, units[u].unit);
}

static void arg_duration(struct yw *w, uint64_t ns)
{
	arg(w, "duration");
	put_duration(w->f, ns);
}

/* renameat2's flags, if any. */
static int rename_flags(struct yw *w, size_t i, const struct lg_op *op)
{
	int rest = op->flags & ~LG_OP_RESOLVE;

	if (rest)
		arg_flags(w, "flags", lg_yrename_flags, &rest, NULL);
	return rest ? fail(w, i, "rename flags 0x%x have no name", (unsigned)rest) : 0;
}

/* find's path: the path to stat, or the directory and the pattern joined again. */
static int find_args(struct yw *w, size_t i, const struct lg_op *op)
{
	const struct lg_workload *wl = w->wl;
	char buf[8192];
	int n;

	if (op->path2 == LG_NO_SLOT) {
		arg_path(w, "path", op->path, op->var);
	} else {
		if (op->path == LG_NO_SLOT)
			n = snprintf(buf, sizeof(buf), "%s", wl->paths[op->path2]);
		else
			n = snprintf(buf, sizeof(buf), "%s/%s", wl->paths[op->path],
				     wl->paths[op->path2]);
		if (n < 0 || (size_t)n >= sizeof(buf))
			return fail(w, i, "find path too long");
		arg_str(w, "path", buf);
	}
	if (op->size)
		arg_num(w, "max", op->size);
	return 0;
}

/* The arguments of op i from a list made by yaml_write_meta.c. */
static int listed_args(struct yw *w, size_t i, const struct lg_ywarg *a, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		int rest = a[k].flags;

		switch (a[k].type) {
		case LG_YWARG_STR: arg_str(w, a[k].key, a[k].s); break;
		case LG_YWARG_NUM: arg_num(w, a[k].key, a[k].num); break;
		case LG_YWARG_PATH: arg_path(w, a[k].key, (uint32_t)a[k].num, a[k].var); break;
		case LG_YWARG_INT:
			arg(w, a[k].key);
			fprintf(w->f, "%" PRId64, (int64_t)a[k].num);
			break;
		case LG_YWARG_MODE:
			arg(w, a[k].key);
			fprintf(w->f, "0%03" PRIo64, a[k].num);
			break;
		case LG_YWARG_FLAGS:
			arg_flags(w, a[k].key, a[k].tab, &rest, NULL);
			if (rest)
				return fail(w, i, "%s 0x%x have no name", a[k].key,
					    (unsigned)rest);
			break;
		default: /* LG_YWARG_WORD */
			if (!a[k].s)
				return fail(w, i, "%s %d has no name", a[k].key, a[k].flags);
			arg(w, a[k].key);
			fputs(a[k].s, w->f);
		}
	}
	return 0;
}

/* The arguments of op i, whatever its kind. */
static int op_args(struct yw *w, size_t i, const struct lg_op *op)
{
	struct lg_ywarg a[LG_YWARG_MAX];
	size_t n;
	int rc = var_paths(w, i, op);

	if (rc)
		return rc;
	if (lg_ywrite_meta_args(w->wl, op, a, &n) == 0)
		return listed_args(w, i, a, n);
	switch (op->kind) {
	case LG_OP_OPEN:
		return open_args(w, i, op);
	case LG_OP_NTCREATE:
		return ntcreate_args(w, i, op);
	case LG_OP_SYNCFS:
		if (op->slot == LG_NO_SLOT)
			return 0;
		/* fall through */
	case LG_OP_CLOSE: case LG_OP_FSYNC: case LG_OP_FDATASYNC: case LG_OP_FSTAT:
	case LG_OP_SETINFO:
		arg_file(w, op);
		return 0;
	case LG_OP_UNLINK: case LG_OP_MKDIR: case LG_OP_RMDIR: case LG_OP_STAT:
	case LG_OP_READDIR: case LG_OP_DELTREE:
		arg_path(w, "path", op->path, op->var);
		if (op->flags & LG_OP_RESOLVE) /* dbench's name resolution (ops_dbench.c) */
			arg_str(w, "resolve", "true");
		if (op->flags & AT_SYMLINK_FOLLOW) /* a stat's */
			arg_true(w, "follow");
		return 0;
	case LG_OP_RENAME:
		arg_path(w, "from", op->path, op->var);
		arg_path(w, "to", op->path2, op->var2);
		if (op->flags & LG_OP_RESOLVE)
			arg_str(w, "resolve", "true");
		return rename_flags(w, i, op);
	case LG_OP_TRUNCATE:
		if (op->slot == LG_NO_SLOT)
			arg_path(w, "path", op->path, op->var);
		else
			arg_file(w, op);
		arg_num(w, "size", op->size);
		return 0;
	case LG_OP_READ: case LG_OP_WRITE: case LG_OP_SYNC_FILE_RANGE: case LG_OP_FADVISE:
		return io_args(w, i, op);
	case LG_OP_SLEEP:
		arg_duration(w, op->size);
		return 0;
	case LG_OP_FIND:
		return find_args(w, i, op);
	case LG_OP_LOCK: case LG_OP_UNLOCK:
		arg_file(w, op);
		arg_num(w, "offset", op->offset);
		arg_num(w, "size", op->size);
		return 0;
	case LG_OP_STATFS:
		return 0;
	default:
		return fail(w, i, "op kind %d has no YAML form", op->kind);
	}
}

/* One op as '- name: {args, expect, label}'. */
static int emit_op(struct yw *w, size_t i, int indent)
{
	const struct lg_op *op = &w->ops[i];
	const char *name = op_name(op), *label = w->wl->types[op->type];
	int rc;

	fprintf(w->f, "%*s- %s: ", indent, "", name);
	w->nargs = 0;
	rc = op_args(w, i, op);
	if (op->expect != LG_EXPECT_OK) {
		arg(w, "expect");
		fputs(op->expect == LG_EXPECT_ANY ? "any" : lg_errno_name(op->expect), w->f);
	}
	if (strcmp(label, w->label_of[lg_ywrite_name_index(op)] ? w->label_of[lg_ywrite_name_index(op)] : name))
		arg_str(w, "label", label);
	fputs(w->nargs ? "}\n" : "{}\n", w->f);
	return rc;
}

static int emit_range(struct yw *w, size_t from, size_t to, int indent);

/* pick i as '- pick: {var, count, order}'; random, the loader's default, is left out. */
static int emit_pick(struct yw *w, size_t i, int indent)
{
	const struct lg_op *op = &w->ops[i];

	if (op->var == 0 || op->var >= w->wl->nvars)
		return fail(w, i, "pick of variable %u, which does not exist", op->var);
	if (op->flags < 0 || op->flags > LG_PICK_SHUFFLE)
		return fail(w, i, "pick order %d has no name", op->flags);
	fprintf(w->f, "%*s- pick: ", indent, "");
	w->nargs = 0;
	arg_str(w, "var", w->wl->vars[op->var].name);
	arg_num(w, "count", op->count);
	if (op->flags != LG_PICK_RANDOM) { /* the loader's default, left out */
		arg(w, "order");
		fputs(lg_ypick_orders[op->flags], w->f);
	}
	fputs("}\n", w->f);
	return 0;
}

/* Index after the choose at i: the target of the jump that ends its last alternative
 * (nested blocks in that alternative are skipped over). */
static size_t choose_end(const struct yw *w, size_t i)
{
	const struct lg_op *op = &w->ops[i];
	size_t j = w->wl->alts[op->target + op->count - 1].target;

	while (j < w->nops && w->ops[j].kind != LG_OP_JUMP) {
		if (w->ops[j].kind == LG_OP_LOOP)
			j = w->ops[j].target;
		else if (w->ops[j].kind == LG_OP_CHOOSE)
			j = choose_end(w, j);
		else
			j++;
	}
	return j < w->nops ? w->ops[j].target : w->nops;
}

/* The choose at i, whose blocks end at end; each alternative's ops end with a jump. */
static int emit_choose(struct yw *w, size_t i, size_t end, int indent)
{
	const struct lg_op *op = &w->ops[i];
	const struct lg_alt *alt = &w->wl->alts[op->target];
	int rc = 0;

	fprintf(w->f, "%*s- choose:\n", indent, "");
	for (uint64_t k = 0; !rc && k < op->count; k++) {
		size_t stop = k + 1 < op->count ? alt[k + 1].target : end;

		fprintf(w->f, "%*s- weight: %" PRIu64 "\n%*sdo:\n", indent + 4, "",
			alt[k].cum_weight - (k ? alt[k - 1].cum_weight : 0), indent + 6, "");
		rc = emit_range(w, alt[k].target, stop - 1, indent + 8);
	}
	return rc;
}

/* A barrier and the phase it begins. */
static void emit_barrier(struct yw *w, const struct lg_barrier_phase *ph, int indent)
{
	fprintf(w->f, "%*s- barrier: {phase: ", indent, "");
	lg_ywrite_quoted(w->f, ph->name);
	if (ph->items != LG_ITEMS_ALL) {
		fputs(", items: ", w->f);
		lg_ywrite_quoted(w->f, w->wl->types[ph->items]);
	}
	fputs("}\n", w->f);
}

/* Ops [from, to) of the phase, as steps at indent. */
static int emit_range(struct yw *w, size_t from, size_t to, int indent)
{
	int rc = 0;

	for (size_t i = from; !rc && i < to;) {
		const struct lg_op *op = &w->ops[i];
		size_t end;

		switch (op->kind) {
		case LG_OP_LOOP:
			fprintf(w->f, "%*s- repeat:\n%*scount: %" PRIu64 "\n%*sdo:\n", indent, "",
				indent + 4, "", op->count, indent + 4, "");
			rc = emit_range(w, i + 1, op->target - 1, indent + 6);
			i = op->target;
			break;
		case LG_OP_CHOOSE:
			end = choose_end(w, i);
			rc = emit_choose(w, i, end, indent);
			i = end;
			break;
		case LG_OP_PICK:
			rc = emit_pick(w, i++, indent);
			break;
		case LG_OP_AFTER:
			fprintf(w->f, "%*s- after: {stream: ", indent, "");
			lg_ywrite_quoted(w->f, w->wl->streams[op->slot].name);
			if (op->count == LG_AFTER_END)
				fputs(", calls: end}\n", w->f);
			else
				fprintf(w->f, ", calls: %" PRIu64 "}\n", op->count);
			i++;
			break;
		case LG_OP_BARRIER:
			emit_barrier(w, &w->wl->bphases[op->count], indent);
			i++;
			break;
		case LG_OP_THINK:
			fprintf(w->f, "%*s- think: ", indent, "");
			put_duration(w->f, op->size);
			putc('\n', w->f);
			i++;
			break;
		default:
			rc = emit_op(w, i++, indent);
		}
	}
	return rc;
}

/* 'recorded': where a recorded program's workload came from. */
static void emit_recorded(FILE *f, const struct lg_workload *wl)
{
	for (size_t i = 0; i < wl->nrecorded; i++) {
		fputs(i ? "  " : "recorded:\n  ", f);
		lg_ywrite_quoted(f, wl->recorded[i].name);
		fputs(": ", f);
		lg_ywrite_quoted(f, wl->recorded[i].value);
		putc('\n', f);
	}
}

/* A recorded program's run phase: its streams, each a range of the phase's ops. */
static int emit_streams(struct yw *w)
{
	const struct lg_workload *wl = w->wl;
	int rc = 0;

	fputs("streams:\n", w->f);
	w->ops = wl->ops[LG_PHASE_RUN];
	w->nops = wl->nops[LG_PHASE_RUN];
	w->phase = "streams";
	for (size_t s = 0; !rc && s < wl->nstreams; s++) {
		fputs("  - name: ", w->f);
		lg_ywrite_quoted(w->f, wl->streams[s].name);
		fputs("\n    steps:\n", w->f);
		rc = emit_range(w, wl->streams[s].first, wl->streams[s].first + wl->streams[s].nops,
				6);
	}
	return rc;
}

int lg_yaml_write(FILE *f, const struct lg_workload *wl, char *err, size_t errlen)
{
	static const char *const phases[] = { "setup", "run", "cleanup" };
	struct yw w = { .f = f, .wl = wl, .err = err, .errlen = errlen };
	int rc = 0;

	if (err && errlen)
		err[0] = '\0';
	fputs("# Written by loadgen from ", f);
	put_comment(f, wl->source ? wl->source : "a workload");
	fputs(".\n", f);
	for (size_t i = 0; i < wl->nparams; i++) {
		fputs(i ? ", " : "# Its parameters, already resolved in the ops below: ", f);
		put_comment(f, wl->params[i].name);
		putc('=', f);
		put_comment(f, wl->params[i].value);
	}
	if (wl->nparams)
		putc('\n', f);
	fputs("name: ", f);
	lg_ywrite_quoted(f, wl->name ? wl->name : "workload");
	putc('\n', f);
	lg_ywrite_labels(f, wl, w.label_of);
	if (wl->peer_shift)
		fprintf(f, "peer_shift: %" PRIu32 "\n", wl->peer_shift);
	emit_recorded(f, wl);
	for (int p = 0; !rc && p < LG_PHASE_COUNT; p++) {
		if (!wl->nops[p] && p != LG_PHASE_RUN)
			continue;
		if (p == LG_PHASE_RUN && wl->nstreams) {
			rc = emit_streams(&w);
			continue;
		}
		fprintf(f, "%s:%s\n", phases[p], wl->nops[p] ? "" : " []");
		w.ops = wl->ops[p];
		w.nops = wl->nops[p];
		w.phase = phases[p];
		rc = emit_range(&w, 0, wl->nops[p], 2);
	}
	if (!rc && (fflush(f) != 0 || ferror(f)))
		rc = -EIO;
	return rc;
}
