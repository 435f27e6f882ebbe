/* ECMA-262 regular expressions, the subset of jsregex.h: a parser into a small tree of atoms
 * and a backtracking matcher with explicit continuations (so a group's alternatives and its
 * repetitions backtrack into what follows them, as ECMA requires). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsregex.h"

#define UNBOUNDED UINT_MAX
#define MAX_REPEAT 1000u /* {n,m} bounds above this are refused: no pattern needs them */

enum atom_kind { A_CHAR, A_ANY, A_CLASS, A_GROUP, A_BOL, A_EOL };

struct alts;

struct atom {
	enum atom_kind kind;
	unsigned char ch;   /* A_CHAR: one byte (a UTF-8 literal is one atom per byte) */
	bool neg;           /* A_CLASS: [^...] */
	uint8_t set[16];    /* A_CLASS: ASCII members, bit c */
	struct alts *group; /* A_GROUP */
	unsigned min, max;
};

struct seq {
	struct atom *a;
	size_t n, cap;
};

struct alts {
	struct seq *s;
	size_t n, cap;
};

struct jsregex {
	struct seq top; /* one A_GROUP atom holding the whole pattern */
};

/* ---- parsing ---- */

struct parser {
	const char *p;
	char *err;
	size_t errlen;
	int depth;
};

static void alts_free(struct alts *g);

static void seq_free(struct seq *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->a[i].kind == A_GROUP)
			alts_free(s->a[i].group);
	free(s->a);
}

static void alts_free(struct alts *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++)
		seq_free(&g->s[i]);
	free(g->s);
	free(g);
}

static int fail(struct parser *ps, const char *what)
{
	snprintf(ps->err, ps->errlen, "%s", what);
	return -1;
}

static struct atom *seq_push(struct seq *s)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		struct atom *a = realloc(s->a, cap * sizeof *a);
		if (!a)
			return NULL;
		s->a = a;
		s->cap = cap;
	}
	struct atom *a = &s->a[s->n++];
	memset(a, 0, sizeof *a);
	a->min = a->max = 1;
	return a;
}

static void set_add(uint8_t *set, unsigned c)
{
	set[c / 8] |= (uint8_t)(1u << (c % 8));
}

static bool set_has(const uint8_t *set, unsigned c)
{
	return c < 128 && (set[c / 8] >> (c % 8) & 1u);
}

/* The class escapes \d \w \s and their negations, into set (negated ones complement it). */
static bool class_escape(char e, uint8_t *set, bool *neg)
{
	uint8_t s[16] = { 0 };
	switch (e | 0x20) {
	case 'd':
		for (unsigned c = '0'; c <= '9'; c++)
			set_add(s, c);
		break;
	case 'w':
		for (unsigned c = 0; c < 128; c++)
			if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    c == '_')
				set_add(s, c);
		break;
	case 's':
		for (const char *w = " \t\n\r\f\v"; *w; w++)
			set_add(s, (unsigned char)*w);
		break;
	default:
		return false;
	}
	*neg = e >= 'A' && e <= 'Z';
	memcpy(set, s, sizeof s);
	return true;
}

/* A single-character escape (after the backslash): its byte, or -1. */
static int char_escape(char e)
{
	static const char punct[] = "^$\\.*+?()[]{}|/-";
	switch (e) {
	case 'n':
		return '\n';
	case 'r':
		return '\r';
	case 't':
		return '\t';
	case 'f':
		return '\f';
	case 'v':
		return '\v';
	default:
		return e && strchr(punct, e) ? e : -1;
	}
}

static int parse_class(struct parser *ps, struct atom *a)
{
	a->kind = A_CLASS;
	ps->p++; /* [ */
	if (*ps->p == '^') {
		a->neg = true;
		ps->p++;
	}
	bool first = true;
	while (*ps->p != ']' || first) {
		int lo;
		first = false;
		if (*ps->p == '\0')
			return fail(ps, "unterminated [ class");
		if ((unsigned char)*ps->p >= 128)
			return fail(ps, "a non-ASCII character in a [ class");
		if (*ps->p == '\\') {
			uint8_t s[16];
			bool neg;
			if (class_escape(ps->p[1], s, &neg)) {
				if (neg)
					return fail(ps, "\\D, \\W or \\S inside a [ class");
				for (unsigned i = 0; i < 16; i++)
					a->set[i] |= s[i];
				ps->p += 2;
				continue;
			}
			if ((lo = char_escape(ps->p[1])) < 0)
				return fail(ps, "an escape outside the supported subset");
			ps->p += 2;
		} else if (*ps->p == '[') {
			return fail(ps, "'[' inside a class (escape it)");
		} else {
			lo = (unsigned char)*ps->p++;
		}
		int hi = lo;
		if (ps->p[0] == '-' && ps->p[1] != ']' && ps->p[1] != '\0') {
			ps->p++;
			if (*ps->p == '\\') {
				if ((hi = char_escape(ps->p[1])) < 0)
					return fail(ps, "a range ending in an unsupported escape");
				ps->p += 2;
			} else if ((unsigned char)*ps->p >= 128) {
				return fail(ps, "a non-ASCII character in a [ class");
			} else {
				hi = (unsigned char)*ps->p++;
			}
			if (hi < lo)
				return fail(ps, "a range out of order in a [ class");
		}
		for (int c = lo; c <= hi; c++)
			set_add(a->set, (unsigned)c);
	}
	ps->p++; /* ] */
	return 0;
}

static unsigned read_count(struct parser *ps, bool *ok)
{
	unsigned long v = 0;
	*ok = *ps->p >= '0' && *ps->p <= '9';
	while (*ps->p >= '0' && *ps->p <= '9') {
		v = v * 10 + (unsigned long)(*ps->p++ - '0');
		if (v > MAX_REPEAT)
			*ok = false;
	}
	return (unsigned)v;
}

static int parse_quantifier(struct parser *ps, struct atom *a)
{
	char q = *ps->p;
	if (q != '*' && q != '+' && q != '?' && q != '{')
		return 0;
	if (a->kind == A_BOL || a->kind == A_EOL)
		return fail(ps, "a quantifier on an anchor");
	if (a->kind == A_CHAR && a->ch >= 128)
		return fail(ps, "a quantifier on a non-ASCII character (it would repeat one byte)");
	ps->p++;
	if (q == '*')
		a->min = 0, a->max = UNBOUNDED;
	else if (q == '+')
		a->min = 1, a->max = UNBOUNDED;
	else if (q == '?')
		a->min = 0, a->max = 1;
	else {
		bool ok;
		a->min = a->max = read_count(ps, &ok);
		if (ok && *ps->p == ',') {
			ps->p++;
			a->max = UNBOUNDED;
			if (*ps->p != '}') {
				a->max = read_count(ps, &ok);
				ok = ok && a->max >= a->min;
			}
		}
		if (!ok || *ps->p != '}')
			return fail(ps, "a malformed {n,m} quantifier");
		ps->p++;
	}
	if (*ps->p == '?' || *ps->p == '*' || *ps->p == '+' || *ps->p == '{')
		return fail(ps, "a lazy or doubled quantifier");
	return 0;
}

static struct alts *parse_alts(struct parser *ps);

static int parse_atom(struct parser *ps, struct seq *s)
{
	struct atom *a = seq_push(s);
	if (!a)
		return fail(ps, "out of memory");
	char c = *ps->p;
	switch (c) {
	case '^':
		a->kind = A_BOL;
		ps->p++;
		break;
	case '$':
		a->kind = A_EOL;
		ps->p++;
		break;
	case '.':
		a->kind = A_ANY;
		ps->p++;
		break;
	case '[':
		if (parse_class(ps, a) != 0)
			return -1;
		break;
	case '(':
		if (ps->p[1] == '?')
			return fail(ps, "(?...) groups are outside the supported subset");
		if (++ps->depth > 16)
			return fail(ps, "groups nested too deep");
		ps->p++;
		a->kind = A_GROUP;
		if (!(a->group = parse_alts(ps)))
			return -1;
		if (*ps->p != ')')
			return fail(ps, "unbalanced (");
		ps->p++;
		ps->depth--;
		break;
	case '\\': {
		int e;
		if (class_escape(ps->p[1], a->set, &a->neg)) {
			a->kind = A_CLASS;
		} else if ((e = char_escape(ps->p[1])) >= 0) {
			a->kind = A_CHAR;
			a->ch = (unsigned char)e;
		} else {
			return fail(ps, "an escape outside the supported subset");
		}
		ps->p += 2;
		break;
	}
	case '*':
	case '+':
	case '?':
	case '{':
		return fail(ps, "a quantifier with nothing to repeat");
	case '}':
	case ']':
		return fail(ps, "an unescaped ] or }");
	default:
		a->kind = A_CHAR;
		a->ch = (unsigned char)c;
		ps->p++;
		break;
	}
	return parse_quantifier(ps, a);
}

static struct alts *parse_alts(struct parser *ps)
{
	struct alts *g = calloc(1, sizeof *g);
	if (!g) {
		fail(ps, "out of memory");
		return NULL;
	}
	for (;;) {
		if (g->n == g->cap) {
			size_t cap = g->cap ? 2 * g->cap : 2;
			struct seq *s = realloc(g->s, cap * sizeof *s);
			if (!s) {
				fail(ps, "out of memory");
				alts_free(g);
				return NULL;
			}
			g->s = s;
			g->cap = cap;
		}
		struct seq *s = &g->s[g->n++];
		memset(s, 0, sizeof *s);
		while (*ps->p && *ps->p != '|' && *ps->p != ')')
			if (parse_atom(ps, s) != 0) {
				alts_free(g);
				return NULL;
			}
		if (*ps->p != '|')
			return g;
		ps->p++;
	}
}

struct jsregex *jsregex_compile(const char *pattern, char *err, size_t errlen)
{
	struct parser ps = { pattern, err, errlen, 0 };
	struct jsregex *re = calloc(1, sizeof *re);
	struct atom *a = re ? seq_push(&re->top) : NULL;
	if (!a) {
		free(re);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	a->kind = A_GROUP;
	a->group = parse_alts(&ps);
	if (a->group && *ps.p == ')')
		fail(&ps, "unbalanced )");
	if (!a->group || *ps.p != '\0') {
		jsregex_free(re);
		return NULL;
	}
	return re;
}

void jsregex_free(struct jsregex *re)
{
	if (!re)
		return;
	seq_free(&re->top);
	free(re);
}

/* ---- matching ---- */

struct subject {
	const unsigned char *s;
	size_t len;
};

/* What is left to match after the current atom: the rest of a sequence, or more repetitions
 * of a group (reps done so far, and where the last repetition started). */
struct cont {
	bool rep;
	const struct seq *seq;
	size_t i;
	const struct atom *grp;
	unsigned reps;
	size_t start;
	const struct cont *next;
};

static bool m_seq(const struct subject *m, const struct seq *seq, size_t i, size_t pos,
		  const struct cont *k);
static bool m_group(const struct subject *m, const struct atom *g, unsigned reps, size_t start,
		    size_t pos, const struct cont *k);

static bool m_cont(const struct subject *m, size_t pos, const struct cont *k)
{
	if (!k)
		return true;
	if (k->rep)
		return m_group(m, k->grp, k->reps, k->start, pos, k->next);
	return m_seq(m, k->seq, k->i, pos, k->next);
}

static size_t utf8_next(const struct subject *m, size_t pos)
{
	pos++;
	while (pos < m->len && (m->s[pos] & 0xC0) == 0x80)
		pos++;
	return pos;
}

static size_t utf8_prev(const struct subject *m, size_t pos)
{
	pos--;
	while (pos > 0 && (m->s[pos] & 0xC0) == 0x80)
		pos--;
	return pos;
}

/* Whether the atom takes whole UTF-8 characters (else exactly one byte). */
static bool wide(const struct atom *a)
{
	return a->kind == A_ANY || (a->kind == A_CLASS && a->neg);
}

/* One step of a one-character atom at pos: the position after it, or SIZE_MAX. */
static size_t step(const struct subject *m, const struct atom *a, size_t pos)
{
	if (pos >= m->len)
		return SIZE_MAX;
	unsigned c = m->s[pos];
	switch (a->kind) {
	case A_CHAR:
		return c == a->ch ? pos + 1 : SIZE_MAX;
	case A_ANY: /* ECMA: any character but a line terminator */
		return c == '\n' || c == '\r' ? SIZE_MAX : utf8_next(m, pos);
	case A_CLASS:
		if (a->neg)
			return set_has(a->set, c) ? SIZE_MAX : utf8_next(m, pos);
		return set_has(a->set, c) ? pos + 1 : SIZE_MAX;
	default:
		return SIZE_MAX;
	}
}

static bool m_group(const struct subject *m, const struct atom *g, unsigned reps, size_t start,
		    size_t pos, const struct cont *k)
{
	/* A repetition that matched nothing ends the loop (ECMA's empty check). */
	if (reps > 0 && pos == start)
		return m_cont(m, pos, k);
	if (reps < g->max)
		for (size_t a = 0; a < g->group->n; a++) {
			struct cont c = { true, NULL, 0, g, reps + 1, pos, k };
			if (m_seq(m, &g->group->s[a], 0, pos, &c))
				return true;
		}
	return reps >= g->min && m_cont(m, pos, k);
}

static bool m_seq(const struct subject *m, const struct seq *seq, size_t i, size_t pos,
		  const struct cont *k)
{
	if (i == seq->n)
		return m_cont(m, pos, k);
	const struct atom *a = &seq->a[i];
	switch (a->kind) {
	case A_BOL:
		return pos == 0 && m_seq(m, seq, i + 1, pos, k);
	case A_EOL:
		return pos == m->len && m_seq(m, seq, i + 1, pos, k);
	case A_GROUP: {
		struct cont c = { false, seq, i + 1, NULL, 0, 0, k };
		return m_group(m, a, 0, pos, pos, &c);
	}
	default:
		break;
	}
	/* Greedy: as many as possible, then give back one at a time. */
	size_t p = pos;
	unsigned n = 0;
	while (n < a->max) {
		size_t q = step(m, a, p);
		if (q == SIZE_MAX)
			break;
		p = q;
		n++;
	}
	if (n < a->min)
		return false;
	for (;;) {
		if (m_seq(m, seq, i + 1, p, k))
			return true;
		if (n == a->min)
			return false;
		p = wide(a) ? utf8_prev(m, p) : p - 1;
		n--;
	}
}

bool jsregex_search(const struct jsregex *re, const char *s, size_t len)
{
	struct subject m = { (const unsigned char *)s, len };
	for (size_t start = 0; start <= len; start = start < len ? utf8_next(&m, start) : len + 1)
		if (m_seq(&m, &re->top, 0, start, NULL))
			return true;
	return false;
}
