/* The history trend page (`loadgen history trend --html`): one result metric of every
 * stored series over kernels or time, its change points and each segment's drift.
 *
 * The C side only checks that the object is a trend and writes the page; the trend is
 * the data block as `loadgen history` built it (schema LG_TREND_SCHEMA), so the page
 * shows exactly the numbers the text output prints. web/report_trend.js draws it. */
#include "loadgen/compare/report_html.h"
#include "report_html_priv.h"

#include <errno.h>
#include <string.h>

#include "loadgen/model/errf.h"

extern const char lg_asset_report_trend_js[]; /* web/report_trend.js: draws the trend */
extern const size_t lg_asset_report_trend_js_len;

/* The page of trend (script: storage for its one script), or -EINVAL when trend is not
 * a trend object. */
static int page_of(const json_t *trend, const char *title, struct lg_html_asset *script,
		   struct lg_html_page *page)
{
	const char *schema = json_string_value(json_object_get(trend, "schema"));
	const char *db = json_string_value(json_object_get(trend, "db"));

	if (!schema || strcmp(schema, LG_TREND_SCHEMA) != 0 ||
	    !json_is_array(json_object_get(trend, "series")))
		return -EINVAL;
	*script = (struct lg_html_asset){ lg_asset_report_trend_js, lg_asset_report_trend_js_len };
	*page = (struct lg_html_page){ .heading = "loadgen history trend",
				       .title = title ? title : db ? db : "history",
				       .data = trend, .scripts = script, .nscripts = 1 };
	return 0;
}

int lg_report_html_trend(FILE *f, const json_t *trend, const char *title)
{
	struct lg_html_asset script;
	struct lg_html_page page;
	int rc = page_of(trend, title, &script, &page);

	if (rc == 0)
		rc = lg_html_page_put(f, &page);
	errno = 0;
	if (fflush(f) != 0)
		return rc ? rc : -(errno ? errno : EIO);
	if (rc == 0 && ferror(f))
		rc = -EIO;
	return rc;
}

int lg_report_html_trend_write(const json_t *trend, const char *title, const char *out_path,
			       char *err, size_t errlen)
{
	struct lg_html_asset script;
	struct lg_html_page page;

	if (page_of(trend, title, &script, &page) != 0)
		return lg_errf(err, errlen, -EINVAL, "not a trend of schema %s", LG_TREND_SCHEMA);
	return lg_html_page_save(&page, out_path, err, errlen);
}
