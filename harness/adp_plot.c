/* The timeline as SVG (see adp_plot.h). Coordinates are in tenths of a pixel, computed in
 * integers. */
#include <string.h>

#include "adp_plot.h"

#define W 1060u
#define X0 100u     /* left edge of the time axis */
#define X1 760u     /* right edge of the time axis */
#define LEG_X 790u  /* legend */
#define Y0 76u      /* first row */
#define ROW 20u
#define MICRO "\xc2\xb5" /* U+00B5 in UTF-8 */

/* seed 000 allows up to 4 ranges (range_num 3 bits, at most NICREF_ADP_MAX_RANGES used). */
static const char *const range_colour[NICREF_ADP_MAX_RANGES] = { "#1f77b4", "#ff7f0e",
								 "#9467bd", "#8c564b" };
#define NO_RANGE_COLOUR "#9e9e9e"
#define CLASSIC_COLOUR "#607d8b"
#define ACK_COLOUR "#2e7d32"
#define LOST_COLOUR "#c62828"
#define LATE_COLOUR "#ef6c00"

const char *adp_limit_note(const struct nicref_adp_profile *p, const struct nicref_adp_attempt *a)
{
	if (!p || a->armed_ns == 0)
		return "";
	uint64_t v = nicref_adp_value_ns(p, a->e);
	/* seed 001 L43 (cap by the QP's ack timeout), L60 (floor at the minimum). */
	return a->armed_ns < v ? "capped by QP timeout" : a->armed_ns > v ? "floored at minimum" : "";
}

uint64_t adp_timeline_end_ns(const struct nicref_adp_attempt *a, size_t n, uint64_t rtt_ns,
			     enum nicref_adp_end end)
{
	if (n == 0)
		return 0;
	const struct nicref_adp_attempt *l = &a[n - 1];
	if (end == NICREF_ADP_END_STALL)
		return l->sent_ns;
	if (!l->lost)
		return l->sent_ns + rtt_ns;
	return l->sent_ns + l->armed_ns;
}

/* x of time t on an axis 0..tmax, in tenths of a pixel. */
static uint64_t xt(uint64_t t, uint64_t tmax)
{
	const uint64_t span = (uint64_t)(X1 - X0) * 10u;
	if (t > tmax)
		t = tmax;
	uint64_t num = t, den = tmax ? tmax : 1;
	while (den > UINT64_MAX / span) {
		num >>= 1;
		den >>= 1;
	}
	return X0 * 10u + num * span / den;
}

/* Tenths as "123.4". */
static void tenths(FILE *f, uint64_t v)
{
	fprintf(f, "%llu.%llu", (unsigned long long)(v / 10), (unsigned long long)(v % 10));
}

static void xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/* A duration in the unit, with as many decimals as needed (at most maxd, truncated). */
static void fmt_in_unit(char *buf, size_t len, uint64_t ns, uint64_t unit, unsigned maxd)
{
	unsigned d = 0;
	uint64_t scale = 1;
	while (d < maxd && (ns % unit) * scale % unit != 0) {
		d++;
		scale *= 10;
	}
	if (d == 0)
		snprintf(buf, len, "%llu", (unsigned long long)(ns / unit));
	else
		snprintf(buf, len, "%llu.%0*llu", (unsigned long long)(ns / unit), (int)d,
			 (unsigned long long)((ns % unit) * scale / unit));
}

/* A value with its own unit for the row notes, exact: "32 us", "4.194304 ms". */
static void fmt_auto(char *buf, size_t len, uint64_t ns)
{
	char v[40];
	if (ns >= 1000000000u) {
		fmt_in_unit(v, sizeof v, ns, 1000000000u, 9);
		snprintf(buf, len, "%s s", v);
	} else if (ns >= 1000000u) {
		fmt_in_unit(v, sizeof v, ns, 1000000u, 6);
		snprintf(buf, len, "%s ms", v);
	} else {
		fmt_in_unit(v, sizeof v, ns, 1000u, 3);
		snprintf(buf, len, "%s " MICRO "s", v);
	}
}

static const char *bar_colour(const struct nicref_adp_attempt *a, bool adp)
{
	if (!adp)
		return CLASSIC_COLOUR;
	if (a->range >= 0 && a->range < NICREF_ADP_MAX_RANGES)
		return range_colour[a->range];
	return NO_RANGE_COLOUR;
}

static void legend_swatch(FILE *f, unsigned *y, const char *colour, const char *opacity,
			  const char *text)
{
	fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"22\" height=\"12\" fill=\"%s\" "
		   "fill-opacity=\"%s\"/>\n", LEG_X + 8, *y - 10, colour, opacity);
	fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"small\">%s</text>\n", LEG_X + 36, *y, text);
	*y += 18;
}

static void legend(FILE *f, const struct nicref_adp_attempt *a, size_t n,
		   const struct adp_plot_info *info)
{
	unsigned y = Y0;
	bool used[NICREF_ADP_MAX_RANGES] = { false }, none = false;
	for (size_t i = 0; i < n; i++) {
		if (a[i].range >= 0 && a[i].range < NICREF_ADP_MAX_RANGES)
			used[a[i].range] = true;
		else
			none = true;
	}
	fprintf(f, "<g id=\"legend\">\n<text x=\"%u\" y=\"%u\" class=\"head\">Legend</text>\n",
		LEG_X, y - 20);
	unsigned nsw = info->adp ? (unsigned)none + used[0] + used[1] + used[2] + used[3] : 1;
	fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"none\" "
		   "stroke=\"#bbb\"/>\n", LEG_X, y - 14, W - LEG_X - 8, 18u * (nsw + 9) + 10);
	fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"small\">bar: the timer armed at the "
		   "send</text>\n", LEG_X + 8, y);
	y += 18;
	if (!info->adp) {
		legend_swatch(f, &y, CLASSIC_COLOUR, "0.85", "classic IB timer");
	} else {
		if (none)
			legend_swatch(f, &y, NO_RANGE_COLOUR, "0.85", "initial value (no range)");
		for (int r = 0; r < NICREF_ADP_MAX_RANGES; r++) {
			char t[32];
			snprintf(t, sizeof t, "timeout range %d", r);
			if (used[r])
				legend_swatch(f, &y, range_colour[r], "0.85", t);
		}
	}
	legend_swatch(f, &y, NO_RANGE_COLOUR, "0.3", "faded: stopped by the ACK");
	y += 4;
	fprintf(f, "<circle cx=\"%u\" cy=\"%u\" r=\"4.5\" fill=\"%s\"/>\n", LEG_X + 19, y - 4,
		ACK_COLOUR);
	fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"small\">sent, acknowledged</text>\n",
		LEG_X + 36, y);
	y += 18;
	fprintf(f, "<path d=\"M%u %uL%u %uM%u %uL%u %u\" stroke=\"%s\" stroke-width=\"2.5\"/>\n",
		LEG_X + 14, y - 9, LEG_X + 24, y + 1, LEG_X + 24, y - 9, LEG_X + 14, y + 1,
		LOST_COLOUR);
	fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"small\">sent, lost (no ACK)</text>\n",
		LEG_X + 36, y);
	y += 18;
	fprintf(f, "<path d=\"M%u %uL%u %uM%u %uL%u %u\" stroke=\"%s\" stroke-width=\"2.5\"/>\n",
		LEG_X + 14, y - 9, LEG_X + 24, y + 1, LEG_X + 24, y - 9, LEG_X + 14, y + 1,
		LATE_COLOUR);
	fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"small\">sent, ACK after the expiry</text>\n",
		LEG_X + 36, y);
	y += 18;
	fprintf(f, "<path d=\"M%u %uL%u %uL%u %uL%u %uZ\" fill=\"%s\"/>\n", LEG_X + 19, y - 10,
		LEG_X + 24, y - 4, LEG_X + 19, y + 2, LEG_X + 14, y - 4, ACK_COLOUR);
	fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"small\">ACK received</text>\n", LEG_X + 36,
		y);
	y += 18;
	fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"small\">row: #transmission, "
		   "m(essage) number</text>\n", LEG_X + 8, y);
	y += 18;
	fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"small\">note: armed value, range, "
		   "reason</text>\n</g>\n", LEG_X + 8, y);
}

static void axis(FILE *f, uint64_t tmax, unsigned ybot)
{
	/* Unit of the axis and a step of 1, 2 or 5 x 10^k ns giving at most 8 intervals. */
	uint64_t unit = tmax < 10000000u ? 1000u : tmax < 10000000000u ? 1000000u : 1000000000u;
	const char *uname = unit == 1000u ? MICRO "s" : unit == 1000000u ? "ms" : "s";
	uint64_t step = 1;
	for (uint64_t p = 1;; p *= 10) {
		if (p * 8 >= tmax) {
			step = p;
			break;
		}
		if (p * 2 * 8 >= tmax) {
			step = 2 * p;
			break;
		}
		if (p * 5 * 8 >= tmax || p > UINT64_MAX / 100) {
			step = 5 * p;
			break;
		}
	}
	fprintf(f, "<g id=\"axis\">\n<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" "
		   "stroke=\"#333\"/>\n", X0, ybot, X1, ybot);
	for (uint64_t t = 0; t <= tmax; t += step) {
		uint64_t x = xt(t, tmax);
		char lab[40];
		fmt_in_unit(lab, sizeof lab, t, unit, 3);
		fputs("<line x1=\"", f);
		tenths(f, x);
		fprintf(f, "\" y1=\"%u\" x2=\"", Y0 - 14);
		tenths(f, x);
		fprintf(f, "\" y2=\"%u\" stroke=\"#e3e3e3\"/>\n", ybot + 5);
		fputs("<text x=\"", f);
		tenths(f, x);
		fprintf(f, "\" y=\"%u\" class=\"small\" text-anchor=\"middle\">%s</text>\n",
			ybot + 18, lab);
		if (t > UINT64_MAX - step)
			break;
	}
	fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"label\" text-anchor=\"middle\">time since "
		   "the QP became ready to send (%s)</text>\n", (X0 + X1) / 2, ybot + 40, uname);
	fprintf(f, "<text transform=\"translate(18 %u) rotate(-90)\" class=\"label\" "
		   "text-anchor=\"middle\">transmission</text>\n</g>\n",
		(Y0 + ybot) / 2);
}

static void row(FILE *f, const struct nicref_adp_attempt *a, size_t i, uint64_t tmax,
		const struct adp_plot_info *info)
{
	unsigned yc = Y0 + (unsigned)i * ROW; /* row centre */
	uint64_t xs = xt(a->sent_ns, tmax);
	bool infinite = a->armed_ns == 0;
	uint64_t end = infinite || a->armed_ns > UINT64_MAX - a->sent_ns ? tmax
								     : a->sent_ns + a->armed_ns;
	uint64_t xe = xt(end, tmax);
	if (xe < xs + 20)
		xe = xs + 20; /* at least 2 px, so the shortest timer stays visible */
	fprintf(f, "<g id=\"t%u\">\n<text x=\"%u\" y=\"%u\" class=\"small\" "
		   "text-anchor=\"end\">#%u m%u</text>\n", a->attempt, X0 - 8, yc + 4, a->attempt,
		a->message);
	fputs("<rect x=\"", f);
	tenths(f, xs);
	fprintf(f, "\" y=\"%u\" width=\"", yc - 6);
	tenths(f, xe - xs);
	fprintf(f, "\" height=\"12\" fill=\"%s\" fill-opacity=\"%s\"%s/>\n", bar_colour(a, info->adp),
		a->lost ? "0.85" : "0.3", infinite ? " stroke=\"#333\" stroke-dasharray=\"4 3\"" : "");
	/* The note: armed value, range, reason. */
	char v[48], note[128];
	if (infinite)
		snprintf(v, sizeof v, "no timer");
	else
		fmt_auto(v, sizeof v, a->armed_ns);
	const char *why = nicref_adp_reason_name((enum nicref_adp_reason)a->reason);
	const char *lim = adp_limit_note(info->profile, a);
	if (*lim) {
		size_t l = strlen(v);
		snprintf(v + l, sizeof v - l, " (%s)", lim);
	}
	if (!info->adp)
		snprintf(note, sizeof note, "%s, %s", v, why ? why : "?");
	else if (a->range >= 0)
		snprintf(note, sizeof note, "%s, range %d, %s", v, a->range, why ? why : "?");
	else
		snprintf(note, sizeof note, "%s, no range, %s", v, why ? why : "?");
	uint64_t w10 = (uint64_t)strlen(note) * 55; /* ~5.5 px a character at 10 px */
	if (xe + 40 + w10 <= (X1 + 24) * 10u)
		fprintf(f, "<text x=\"%llu\" y=\"%u\" class=\"note\">%s</text>\n",
			(unsigned long long)((xe + 40) / 10), yc + 4, note);
	else if (xs >= X0 * 10u + 40 + w10)
		fprintf(f, "<text x=\"%llu\" y=\"%u\" class=\"note\" text-anchor=\"end\">%s</text>\n",
			(unsigned long long)((xs - 40) / 10), yc + 4, note);
	else
		fprintf(f, "<text x=\"%llu\" y=\"%u\" class=\"note\" text-anchor=\"end\" "
			   "style=\"fill:#fff\">%s</text>\n", (unsigned long long)((xe - 40) / 10), yc + 4,
			note);
	/* The transmission: a dot when acknowledged, a cross when lost or answered late. */
	if (!a->lost) {
		fputs("<circle cx=\"", f);
		tenths(f, xs);
		fprintf(f, "\" cy=\"%u\" r=\"4.5\" fill=\"%s\"/>\n", yc, ACK_COLOUR);
		uint64_t xa = xt(a->sent_ns + info->rtt_ns, tmax);
		fputs("<path d=\"M", f);
		tenths(f, xa);
		fprintf(f, " %uL", yc - 6);
		tenths(f, xa + 50);
		fprintf(f, " %uL", yc);
		tenths(f, xa);
		fprintf(f, " %uL", yc + 6);
		tenths(f, xa >= 50 ? xa - 50 : 0);
		fprintf(f, " %uZ\" fill=\"%s\"/>\n", yc, ACK_COLOUR);
	} else {
		fputs("<path d=\"M", f);
		tenths(f, xs - 50);
		fprintf(f, " %uL", yc - 5);
		tenths(f, xs + 50);
		fprintf(f, " %uM", yc + 5);
		tenths(f, xs + 50);
		fprintf(f, " %uL", yc - 5);
		tenths(f, xs - 50);
		fprintf(f, " %u\" stroke=\"%s\" stroke-width=\"2.5\"/>\n", yc + 5,
			a->lost == 1 ? LOST_COLOUR : LATE_COLOUR);
	}
	fputs("</g>\n", f);
}

int adp_plot_svg(FILE *f, const struct nicref_adp_attempt *a, size_t n,
		 const struct adp_plot_info *info)
{
	uint64_t end = adp_timeline_end_ns(a, n, info->rtt_ns, info->end);
	/* The axis covers every expiry, and the timers the ACKs stopped up to a quarter past
	 * the end (a long timer stopped by the last ACK would squeeze everything else). */
	uint64_t tmax = end;
	for (size_t i = 0; i < n; i++)
		if (a[i].lost && a[i].armed_ns && a[i].armed_ns <= UINT64_MAX - a[i].sent_ns &&
		    a[i].sent_ns + a[i].armed_ns > tmax)
			tmax = a[i].sent_ns + a[i].armed_ns;
	uint64_t slack = tmax + tmax / 4;
	for (size_t i = 0; i < n; i++) {
		uint64_t e = a[i].armed_ns > UINT64_MAX - a[i].sent_ns ? UINT64_MAX
									: a[i].sent_ns + a[i].armed_ns;
		if (!a[i].lost && a[i].armed_ns && e > tmax)
			tmax = e < slack ? e : slack;
	}
	if (tmax == 0)
		tmax = 1000;
	unsigned ybot = Y0 + (unsigned)n * ROW;
	unsigned h = ybot + 60;
	if (h < Y0 + 300)
		h = Y0 + 300;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%u\" "
		   "height=\"%u\" viewBox=\"0 0 %u %u\">\n", W, h, W, h);
	fputs("<title>", f);
	xml_text(f, info->title);
	fputs("</title>\n<style>text{font-family:sans-serif;fill:#222}.head{font-size:15px;"
	      "font-weight:bold}.sub{font-size:12px}.label{font-size:13px}.small{font-size:11px}"
	      ".note{font-size:10px;fill:#444}</style>\n"
	      "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n",
	      f);
	fprintf(f, "<text x=\"10\" y=\"22\" class=\"head\">");
	xml_text(f, info->title);
	fprintf(f, "</text>\n<text x=\"10\" y=\"42\" class=\"sub\">");
	xml_text(f, info->subtitle);
	fputs("</text>\n", f);
	axis(f, tmax, ybot);
	for (size_t i = 0; i < n; i++)
		row(f, &a[i], i, tmax, info);
	/* How it ended, at the time it ended. */
	const char *what = info->end == NICREF_ADP_END_DONE	 ? "every message acknowledged"
			   : info->end == NICREF_ADP_END_RETRY_EXC ? "IBV_WC_RETRY_EXC_ERR"
			   : info->end == NICREF_ADP_END_STALL	 ? "stalled: no timer"
								 : "attempt limit";
	const char *col = info->end == NICREF_ADP_END_DONE	? ACK_COLOUR
			  : info->end == NICREF_ADP_END_RETRY_EXC ? LOST_COLOUR
								: "#555";
	uint64_t xend = xt(end, tmax);
	fputs("<g id=\"end\">\n<line x1=\"", f);
	tenths(f, xend);
	fprintf(f, "\" y1=\"%u\" x2=\"", Y0 - 16);
	tenths(f, xend);
	fprintf(f, "\" y2=\"%u\" stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"6 3\"/>\n",
		ybot, col);
	fputs("<text x=\"", f);
	tenths(f, xend);
	fprintf(f, "\" y=\"%u\" class=\"small\" text-anchor=\"end\" style=\"fill:%s\">%s</text>\n</g>\n",
		Y0 - 19, col, what);
	legend(f, a, n, info);
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
