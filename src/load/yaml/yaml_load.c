/* YAML workload loader: the top level and parameters (the scalars they are substituted
 * into are converted in yaml_scalar.c).
 *
 * The yaml_* files form a one-way chain, each calling only those before it:
 * yaml_tree (libyaml -> nodes) <- yaml_fast (the plain subset, read fast) <- yaml_reopen
 * <- yaml_memo (lines written again) <- yaml_fast_steps (lazy lists, step by step; it
 * compiles through callbacks of yaml_steps) <- yaml_scalar (values) <- yaml_vocab (word
 * tables) <- yaml_pick (paths and file sets) <- yaml_dbench <- yaml_steps (ops)
 * <- yaml_streams (a recorded program's streams; it compiles each stream's steps through
 * yaml_steps, which hands it back the steps 'after' and 'think') <- yaml_load (this file). */
#include "loadgen/load/yaml_load.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/model/errnames.h"
#include "loadgen/model/suggest.h"
#include "loadgen/model/units.h"
#include "yaml_priv.h"

/* A parameter name is an identifier, and not one of the built-ins. */
static int check_param_name(struct lg_yctx *c, const struct lg_ynode *k)
{
	const char *s = k->text;

	if (!strcmp(s, "client") || !strcmp(s, "clients") || !strcmp(s, "peer"))
		return lg_yfail(c, k, "parameter '%s' is built in and cannot be declared", s);
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_') ||
	    s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")])
		return lg_yfail(c, k, "bad parameter name '%s' (letters, digits and '_', "
				"not starting with a digit)", s);
	for (size_t i = 0; i < c->nparams; i++)
		if (!strcmp(c->params[i].name, s))
			return lg_yfail(c, k, "duplicate parameter '%s'", s);
	return 0;
}

/* Declared parameters from mapping pm (may be NULL) into c->params. */
static int declare_params(struct lg_yctx *c, const struct lg_ynode *pm)
{
	if (!pm || lg_yis_null(pm))
		return 0;
	if (pm->kind != LG_YMAP)
		return lg_yfail(c, pm, "'params' must be a mapping of name: default, not %s",
				lg_ykind_name(pm));
	c->params = calloc(pm->n / 2 + 1, sizeof(*c->params));
	if (!c->params)
		return lg_ynomem(c);
	for (size_t i = 0; i + 1 < pm->n; i += 2) {
		const struct lg_ynode *k = pm->items[i], *v = pm->items[i + 1];
		int rc = check_param_name(c, k);

		if (rc)
			return rc;
		if (v->kind != LG_YSCALAR)
			return lg_yfail(c, v, "default of parameter '%s' must be a scalar, not %s",
					k->text, lg_ykind_name(v));
		if (strstr(v->text, "${"))
			return lg_yfail(c, v, "default of parameter '%s' refers to a parameter; "
					"parameter values are literal", k->text);
		c->params[c->nparams++] = (struct lg_yparam){ .name = k->text, .value = v->text };
	}
	return 0;
}

/* -p name for a parameter the workload does not declare: suggest the closest and list
 * those it has, with their defaults. */
static int unknown_param(struct lg_yctx *c, const struct lg_ynode *at, const char *name,
			 const char *cut)
{
	char list[512], hint[96];
	struct lg_suggest s;
	size_t o = 0;

	lg_suggest_init(&s, name);
	list[0] = '\0';
	for (size_t j = 0; j < c->nparams; j++) {
		int n = o < sizeof(list) ? snprintf(list + o, sizeof(list) - o, "%s%s=%s",
						    j ? ", " : "", c->params[j].name,
						    c->params[j].value) : 0;

		if (n > 0)
			o += (size_t)n;
		lg_suggest_add(&s, c->params[j].name);
	}
	hint[0] = '\0';
	if (lg_suggest_best(&s))
		snprintf(hint, sizeof(hint), "; did you mean '%s'?", lg_suggest_best(&s));
	if (!c->nparams)
		return lg_yfail(c, at, "-p %.64s%s: the workload declares no parameters",
				name, cut);
	return lg_yfail(c, at, "-p %.64s%s: the workload declares no parameter '%.64s%s'%s "
			"(its parameters, with defaults: %s)", name, cut, name, cut, hint, list);
}

/* Apply -p overrides (at: where to report them) and record the resolved parameters. */
static int apply_overrides(struct lg_yctx *c, const struct lg_ynode *at,
			   const struct lg_param *ov, size_t nov)
{
	for (size_t i = 0; i < nov; i++) {
		const char *cut = strlen(ov[i].name) > 64 ? "..." : "";
		size_t j = 0;

		while (j < c->nparams && strcmp(c->params[j].name, ov[i].name) != 0)
			j++;
		if (j == c->nparams) /* a name cut to 64 bytes keeps the message short */
			return unknown_param(c, at, ov[i].name, cut);
		if (strstr(ov[i].value, "${"))
			return lg_yfail(c, at, "-p %s: parameter values are literal and cannot "
					"contain '${'", ov[i].name);
		c->params[j].value = ov[i].value;
	}
	for (size_t j = 0; j < c->nparams; j++)
		if (lg_workload_set_param(c->wl, c->params[j].name, c->params[j].value))
			return lg_ynomem(c);
	return 0;
}

/* Compile one phase's steps; the run phase must contain something to measure. */
static int compile_phase(struct lg_yctx *c, enum lg_phase ph, const struct lg_ynode *seq,
			 const char *what)
{
	int rc;

	if (!seq)
		return 0;
	if (ph != LG_PHASE_RUN && lg_yis_null(seq))
		return 0;
	c->phase = ph;
	rc = lg_ysteps(c, seq, what);
	if (rc)
		return rc;
	for (size_t i = 0; i < c->wl->nops[ph]; i++)
		if (c->wl->ops[ph][i].kind < LG_OP_LOOP)
			return 0;
	if (ph == LG_PHASE_RUN)
		return lg_yfail(c, seq, "'run' must contain at least one op to measure");
	return 0;
}

/* Workload name: the 'name' key, else the file name without directory and extension. */
static int workload_name(struct lg_yctx *c, const struct lg_ynode *n, char *buf,
			 size_t len)
{
	const char *base = strrchr(c->fname, '/'), *dot;
	size_t blen;

	if (n) {
		if (n->kind != LG_YSCALAR || !*n->text)
			return lg_yfail(c, n, "'name' must be a non-empty string");
		snprintf(buf, len, "%s", n->text);
		return 0;
	}
	base = base ? base + 1 : c->fname;
	if (!strncmp(base, "builtin:", 8))
		base += 8;
	blen = strlen(base);
	dot = strrchr(base, '.');
	if (dot && (!strcmp(dot, ".yaml") || !strcmp(dot, ".yml")))
		blen = (size_t)(dot - base);
	snprintf(buf, len, "%.*s", (int)blen, blen ? base : "workload");
	return 0;
}

/* 'peer_shift' (n, may be NULL): how many ids on a client's ${peer} is, at least 1. */
static int peer_shift(struct lg_yctx *c, const struct lg_ynode *n)
{
	uint64_t v;
	int rc;

	if (!n)
		return 0;
	rc = lg_ycount(c, n, "peer_shift", &v);
	if (rc)
		return rc;
	if (v == 0 || v > UINT32_MAX)
		return lg_yfail(c, n, "'peer_shift' must be 1 to %" PRIu32 " clients, not %"
				PRIu64, UINT32_MAX, v);
	c->wl->peer_shift = (uint32_t)v;
	return 0;
}

/* Top-level keys, in the order of top_keys. */
enum { K_NAME, K_DESCRIPTION, K_PARAMS, K_LABELS, K_PEER_SHIFT, K_SETUP, K_RUN, K_CLEANUP,
       K_STREAMS, K_RECORDED, K_COUNT };
static const char *const top_keys[K_COUNT + 1] = {
	"name", "description", "params", "labels", "peer_shift", "setup", "run", "cleanup",
	"streams", "recorded", NULL,
};

static int compile_root(struct lg_yctx *c, const struct lg_ynode *root,
			const struct lg_param *ov, size_t nov, char *name, size_t namelen)
{
	const struct lg_ynode *v[K_COUNT];
	int rc;

	if (root->kind != LG_YMAP)
		return lg_yfail(c, root, "the workload must be a mapping (name, params, labels, "
				"setup, run, cleanup), not %s", lg_ykind_name(root));
	rc = lg_ykeys(c, root, "the workload", top_keys, v);
	if (rc)
		return rc;
	if (!v[K_RUN] && !v[K_STREAMS])
		return lg_yfail(c, root, "the workload has no 'run' section");
	if (v[K_RUN] && v[K_STREAMS])
		return lg_yfail(c, v[K_STREAMS], "a workload has 'run' or 'streams' (a recorded "
				"program's threads), not both");
	if (v[K_DESCRIPTION] && v[K_DESCRIPTION]->kind != LG_YSCALAR)
		return lg_yfail(c, v[K_DESCRIPTION], "'description' must be a string");
	rc = workload_name(c, v[K_NAME], name, namelen);
	if (!rc)
		rc = declare_params(c, v[K_PARAMS]);
	if (!rc)
		rc = apply_overrides(c, v[K_PARAMS] ? v[K_PARAMS] : root, ov, nov);
	if (!rc)
		rc = lg_ylabels(c, v[K_LABELS]);
	if (!rc)
		rc = peer_shift(c, v[K_PEER_SHIFT]);
	/* Phases compile in the order they run, so "used before it is opened" follows
	 * execution order whatever order the keys are written in. */
	if (!rc)
		rc = compile_phase(c, LG_PHASE_SETUP, v[K_SETUP], "setup");
	if (!rc)
		rc = lg_yrecorded(c, v[K_RECORDED]);
	if (!rc)
		rc = v[K_RUN] ? compile_phase(c, LG_PHASE_RUN, v[K_RUN], "run")
			      : lg_ycompile_streams(c, v[K_STREAMS]);
	if (!rc)
		rc = lg_ybarriers_check(c);
	if (!rc)
		rc = compile_phase(c, LG_PHASE_CLEANUP, v[K_CLEANUP], "cleanup");
	return rc;
}

/* Copy the declared parameters of c into *out (lg_yaml_describe). */
static int describe(struct lg_yctx *c, struct lg_yparam_info **out, size_t *n)
{
	struct lg_yparam_info *p = calloc(c->nparams + 1, sizeof(*p));

	if (!p)
		return lg_ynomem(c);
	for (size_t i = 0; i < c->nparams; i++) {
		p[i] = (struct lg_yparam_info){ .name = strdup(c->params[i].name),
						.value = strdup(c->params[i].value),
						.kind = c->params[i].kind ? c->params[i].kind
									  : "unused",
						.key = c->params[i].key ? c->params[i].key : "" };
		if (!p[i].name || !p[i].value) {
			lg_yparam_info_free(p, i + 1);
			return lg_ynomem(c);
		}
	}
	*out = p;
	*n = c->nparams;
	return 0;
}

void lg_yparam_info_free(struct lg_yparam_info *p, size_t n)
{
	for (size_t i = 0; p && i < n; i++) {
		free(p[i].name);
		free(p[i].value);
	}
	free(p);
}

int lg_yaml_load(const char *fname, const char *text, size_t len,
		 const struct lg_param *overrides, size_t noverrides, unsigned clients,
		 struct lg_workload **out, char *err, size_t errlen)
{
	return lg_yaml_describe(fname, text, len, overrides, noverrides, clients, out, NULL,
				NULL, err, errlen);
}

/* One load; no_fast: libyaml reads the text. *fast gets whether the fast reader did. */
static int load(const char *fname, const char *text, size_t len,
		const struct lg_param *overrides, size_t noverrides, unsigned clients,
		struct lg_workload **out, struct lg_yparam_info **params, size_t *nparams,
		char *err, size_t errlen, bool no_fast, bool *fast)
{
	struct lg_yctx c = { .fname = fname, .err = err, .errlen = errlen, .no_fast = no_fast,
			     .text_end = (text ? text : "") + len };
	struct lg_ynode *root = NULL;
	char name[256];
	int rc;

	if (err && errlen)
		err[0] = '\0';
	snprintf(c.clients, sizeof(c.clients), "%u", clients);
	if (lg_workload_create(&c.wl))
		return lg_ynomem(&c);
	rc = lg_ytree_parse(&c, text, len, &root);
	*fast = c.fast_read;
	if (!rc)
		rc = compile_root(&c, root, overrides, noverrides, name, sizeof(name));
	if (!rc)
		lg_workload_trim(c.wl);
	if (!rc && lg_workload_set_source(c.wl, name, fname, text ? text : "", len))
		rc = lg_ynomem(&c);
	if (!rc && params)
		rc = describe(&c, params, nparams);
	lg_ytree_free(&c);
	free(c.params);
	free(c.buf);
	lg_ypath_memo_free(&c);
	lg_yreopen_free(c.reopen);
	if (rc) {
		lg_workload_destroy(c.wl);
		return rc;
	}
	*out = c.wl;
	return 0;
}

int lg_yaml_describe(const char *fname, const char *text, size_t len,
		     const struct lg_param *overrides, size_t noverrides, unsigned clients,
		     struct lg_workload **out, struct lg_yparam_info **params, size_t *nparams,
		     char *err, size_t errlen)
{
	bool fast = false;
	int rc = load(fname, text, len, overrides, noverrides, clients, out, params, nparams,
		      err, errlen, false, &fast);

	/* The fast reader reads lists lazily, so it may only find out in the middle of
	 * compiling that a step is beyond it (-EAGAIN), and an error it reports may not
	 * be the first libyaml would: either way, libyaml reads the text again. */
	if (rc && rc != -ENOMEM && fast)
		rc = load(fname, text, len, overrides, noverrides, clients, out, params,
			  nparams, err, errlen, true, &fast);
	return rc;
}
