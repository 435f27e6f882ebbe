/* Walking a capture for the commands (roce_capture.h). */
#include <stdlib.h>
#include <string.h>

#include "roce_capture.h"

static int grow(void **arr, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 1024;
	void *g = realloc(*arr, nc * size);
	if (!g)
		return -1;
	*arr = g;
	*cap = nc;
	return 0;
}

/* "1.000 us" with ns exact. */
static void fmt_us(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%03llu us", (unsigned long long)(ns / 1000),
		 (unsigned long long)(ns % 1000));
}

int roce_capture_load(const char *path, const struct roce_load_opts *o, struct roce_capture *out,
		      char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	struct cap_summary *s = &out->sum;
	s->reorder_tol_ns = o->reorder_tol_ns;
	struct capture *c;
	if (capture_open(path, &c, err, errlen) != 0)
		return -1;
	size_t cap_rc = 0, cap_cm = 0;
	uint64_t prev_t = 0, prev_n = 0;
	/* The first inversion beyond the tolerance: reported after the whole file is read, with
	 * how many there are. */
	uint64_t bad_n = 0, bad_prev = 0, bad_ns = 0;
	struct cap_frame f;
	int rc;
	while ((rc = capture_next(c, &f, err, errlen)) == 1) {
		s->frames++;
		s->link[f.link]++;
		s->truncated += f.caplen < f.wirelen;
		if (f.time != CAP_TIME_OK && s->untimed++ == 0)
			s->untimed_first = f.number;
		if (f.caplen_over_len && s->caplen_over_len++ == 0)
			s->caplen_over_len_first = f.number;
		if (prev_n && f.t_ns < prev_t) {
			uint64_t d = prev_t - f.t_ns;
			if (d <= o->reorder_tol_ns) {
				s->inv_tolerated++;
			} else if (s->inv_beyond++ == 0) {
				bad_n = f.number;
				bad_prev = prev_n;
				bad_ns = d;
			}
		}
		prev_t = f.t_ns;
		prev_n = f.number;
		struct roce_pkt k;
		enum roce_class cl =
			roce_classify(f.data, f.caplen, f.wirelen, f.link, o->roce_port, &k);
		s->cls[cl]++;
		if (!roce_class_is_roce(cl))
			continue;
		s->roce_v1 += k.roce_ver == 1;
		s->roce_v2 += k.roce_ver == 2;
		k.t_ns = f.t_ns;
		k.frame = (uint32_t)f.number;
		if (o->frame_hook && o->frame_hook(o->hook_ctx, &f, cl, &k) != 0)
			goto nomem;
		if (cl == ROCE_CLASS_CM_MAD) {
			struct cm_msg m;
			if (roce_cm_parse(f.data, &k, &m) != 0 || m.kind == CM_OTHER)
				continue;
			if (grow((void **)&out->cm, &cap_cm, out->ncm, sizeof *out->cm) != 0)
				goto nomem;
			out->cm[out->ncm++] = m;
		} else if (cl == ROCE_CLASS_RC) {
			if (grow((void **)&out->rc, &cap_rc, out->nrc, sizeof *out->rc) != 0)
				goto nomem;
			out->rc[out->nrc++] = k;
		}
	}
	capture_close(c);
	if (rc < 0) {
		roce_capture_free(out);
		return -1;
	}
	if (s->inv_beyond) {
		char d[48], t[48];
		fmt_us(bad_ns, d, sizeof d);
		fmt_us(o->reorder_tol_ns, t, sizeof t);
		snprintf(err, errlen, "%s: frame %llu is stamped %s before frame %llu, more than the "
			 "reorder tolerance of %s (%llu such inversion%s in the capture, %llu within "
			 "the tolerance). nicref never reorders frames: sort the capture with "
			 "reordercap FILE SORTED.pcapng (Debian's wireshark tools) if its frames were "
			 "merged out of order, or raise --reorder-tolerance-ns",
			 path, (unsigned long long)bad_n, d, (unsigned long long)bad_prev, t,
			 (unsigned long long)s->inv_beyond, s->inv_beyond == 1 ? "" : "s",
			 (unsigned long long)s->inv_tolerated);
		roce_capture_free(out);
		return -1;
	}
	return 0;
nomem:
	capture_close(c);
	roce_capture_free(out);
	snprintf(err, errlen, "%s: out of memory", path);
	return -1;
}

void roce_capture_free(struct roce_capture *c)
{
	free(c->rc);
	free(c->cm);
	c->rc = NULL;
	c->cm = NULL;
	c->nrc = c->ncm = 0;
}

json_t *cap_summary_json(const struct cap_summary *s)
{
	json_t *o = json_object(), *l = json_object(), *c = json_object(), *t = json_object();
	json_object_set_new(o, "frames", json_integer((json_int_t)s->frames));
	for (int i = 0; i < CAP_LINK_COUNT; i++)
		json_object_set_new(l, cap_link_name((enum cap_link)i),
				    json_integer((json_int_t)s->link[i]));
	json_object_set_new(o, "link_types", l);
	json_object_set_new(o, "truncated", json_integer((json_int_t)s->truncated));
	json_object_set_new(o, "roce_v1", json_integer((json_int_t)s->roce_v1));
	json_object_set_new(o, "roce_v2", json_integer((json_int_t)s->roce_v2));
	for (int i = 0; i < ROCE_CLASS_COUNT; i++)
		json_object_set_new(c, roce_class_name((enum roce_class)i),
				    json_integer((json_int_t)s->cls[i]));
	json_object_set_new(o, "classes", c);
	json_object_set_new(t, "reorder_tolerance_ns", json_integer((json_int_t)s->reorder_tol_ns));
	json_object_set_new(t, "inversions_tolerated", json_integer((json_int_t)s->inv_tolerated));
	json_object_set_new(t, "inversions_beyond_tolerance",
			    json_integer((json_int_t)s->inv_beyond));
	json_object_set_new(t, "untimed", json_integer((json_int_t)s->untimed));
	json_object_set_new(o, "timestamps", t);
	json_object_set_new(o, "caplen_over_len", json_integer((json_int_t)s->caplen_over_len));
	json_object_set_new(o, "rc_flows", json_integer((json_int_t)s->rc_flows));
	return o;
}

void cap_summary_print(FILE *f, const struct cap_summary *s)
{
	fprintf(f, "frames: %llu (", (unsigned long long)s->frames);
	const char *sep = "";
	for (int i = 0; i < CAP_LINK_COUNT; i++)
		if (s->link[i]) {
			fprintf(f, "%s%s %llu", sep, cap_link_name((enum cap_link)i),
				(unsigned long long)s->link[i]);
			sep = ", ";
		}
	fprintf(f, "), %llu truncated by the snapshot length; RoCEv1 %llu, RoCEv2 %llu\n",
		(unsigned long long)s->truncated, (unsigned long long)s->roce_v1,
		(unsigned long long)s->roce_v2);
	fprintf(f, "classes:");
	for (int i = 0; i < ROCE_CLASS_COUNT; i++)
		fprintf(f, " %s %llu", roce_class_name((enum roce_class)i),
			(unsigned long long)s->cls[i]);
	fprintf(f, "\ntimestamps: %llu inversion%s within the reorder tolerance of %llu ns\n",
		(unsigned long long)s->inv_tolerated, s->inv_tolerated == 1 ? "" : "s",
		(unsigned long long)s->reorder_tol_ns);
	if (s->untimed)
		fprintf(f, "untimed: %llu frame%s without a timestamp (a pcapng Simple Packet Block, or "
			   "a sub-second field of a second or more; the first: frame %llu), each taken at "
			   "the time of the frame before it\n", (unsigned long long)s->untimed,
			s->untimed == 1 ? "" : "s", (unsigned long long)s->untimed_first);
	if (s->caplen_over_len)
		fprintf(f, "caplen over wire length: %llu frame%s (the first: frame %llu), read at the "
			   "captured length\n", (unsigned long long)s->caplen_over_len,
			s->caplen_over_len == 1 ? "" : "s", (unsigned long long)s->caplen_over_len_first);
	fprintf(f, "checked: %llu RC request flow%s (the other classes are counted, not checked)\n",
		(unsigned long long)s->rc_flows, s->rc_flows == 1 ? "" : "s");
}
