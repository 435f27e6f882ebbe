/* Matchers (docs/vectors.md "Comparators"): one that can never hold, or that holds for every
 * value of its width (it compares nothing), is refused before anything runs; cmp_extent says
 * exactly which, checked here against every value of small widths. */
#include "vectest.h"
#include "vectors_int.h"

/* One NOP test, valid, with this expectation. */
static void run_expect(const char *expect, struct vt *t)
{
	char json[4096];
	snprintf(json, sizeof json, "%s",
		 VT_ONE("{\"command\":{\"layout\":\"nop_in\",\"fields\":{\"opcode\":\"NOP\"},"
			"\"expect\":EXPECT}}"));
	char *at = strstr(json, "EXPECT"), full[4096];
	snprintf(full, sizeof full, "%.*s%s%s", (int)(at - json), json, expect, at + 6);
	vt_run(t, full);
}

static void refused_with(const char *expect, const char *line)
{
	struct vt t;
	run_expect(expect, &t);
	cr_expect_eq(t.rc, VEC_BAD_INPUT, "%s -> %s", expect, t.out);
	cr_expect(strstr(t.out, line) != NULL, "%s -> %s (wanted %s)", expect, t.out, line);
	cr_expect_eq(t.rep.passed, 0);
	vt_free(&t);
}

#define ALWAYS(f, bits) f ": holds for every value of its " #bits " bits: it compares nothing"
#define NEVER(f, bits) f ": can never hold: no value of its " #bits " bits satisfies every key"

/* revrunner F2: each of these passes whatever the device answers. */
Test(matcher, one_that_holds_for_every_value_is_refused)
{
	refused_with("{\"status\":{\"ge\":0}}", ALWAYS("expect.status", 8));
	refused_with("{\"status\":{\"le\":255}}", ALWAYS("expect.status", 8));
	refused_with("{\"status\":{\"ge\":0,\"le\":\"0xff\"}}", ALWAYS("expect.status", 8));
	refused_with("{\"syndrome\":{\"mask\":0,\"eq\":0}}", ALWAYS("expect.syndrome", 32));
	refused_with("{\"ownership\":{\"in\":[0,1]}}", ALWAYS("expect.ownership", 1));
	refused_with("{\"status\":{\"mask\":\"0x80\",\"in\":[0,\"0x80\"]}}",
		     ALWAYS("expect.status", 8));
}

/* revrunner F3: each of these fails whatever the device answers (it read as a disagreement). */
Test(matcher, one_that_can_never_hold_is_refused)
{
	refused_with("{\"status\":{\"eq\":0,\"ne\":0}}", NEVER("expect.status", 8));
	refused_with("{\"status\":{\"eq\":3,\"in\":[0,1]}}", NEVER("expect.status", 8));
	refused_with("{\"status\":{\"ge\":3,\"in\":[0,1]}}", NEVER("expect.status", 8));
	refused_with("{\"status\":{\"ne\":3,\"in\":[3]}}", NEVER("expect.status", 8));
	refused_with("{\"status\":{\"mask\":\"0xf0\",\"ge\":1,\"le\":\"0xf\"}}",
		     NEVER("expect.status", 8));
	refused_with("{\"ownership\":{\"ne\":0,\"le\":0}}", NEVER("expect.ownership", 1));
}

/* A ne operand with bits outside the mask always holds: it compares nothing (it used to be
 * called "can never compare equal"). */
Test(matcher, a_ne_outside_the_mask_says_it_compares_nothing)
{
	refused_with("{\"status\":{\"mask\":\"0xf0\",\"ne\":1,\"le\":\"0x20\"}}",
		     "expect.status.ne: 0x1 has bits outside the mask 0xf0: the masked value always "
		     "differs from it, so this ne compares nothing");
}

Test(matcher, ordinary_matchers_still_run)
{
	struct vt t;
	run_expect("{\"status\":{\"in\":[\"OK\",\"BAD_OP\"]},\"syndrome\":{\"le\":0}}", &t);
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	vt_free(&t);
}

/* cmp_extent against every value of the width, for matchers drawn from a fixed seed. */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

Test(matcher, cmp_extent_is_exact)
{
	uint64_t seed = 30;
	unsigned tried = 0;
	for (unsigned bits = 1; bits <= 8; bits++) {
		uint64_t top = (1ull << bits) - 1;
		for (unsigned k = 0; k < 4000; k++) {
			char text[256];
			size_t len = (size_t)snprintf(text, sizeof text, "{");
			uint64_t pick = next(&seed);
#define ADD(fmt, ...)                                                                            \
	len += (size_t)snprintf(text + len, sizeof text - len, "%s" fmt, len > 1 ? "," : "",      \
				__VA_ARGS__)
			if (pick & 1)
				ADD("\"mask\":%llu", (unsigned long long)(next(&seed) & top));
			if (pick & 2)
				ADD("\"ge\":%llu", (unsigned long long)(next(&seed) & top));
			if (pick & 4)
				ADD("\"le\":%llu", (unsigned long long)(next(&seed) & top));
			if (pick & 8)
				ADD("\"ne\":%llu", (unsigned long long)(next(&seed) & top));
			if (pick & 16)
				ADD("\"eq\":%llu", (unsigned long long)(next(&seed) & top));
			if (pick & 32)
				ADD("\"in\":[%llu,%llu,%llu]", (unsigned long long)(next(&seed) & top),
				    (unsigned long long)(next(&seed) & top),
				    (unsigned long long)(next(&seed) & top));
#undef ADD
			if (len == 1)
				continue;
			snprintf(text + len, sizeof text - len, "}");
			json_t *c = json_loads(text, 0, NULL);
			cr_assert(c);
			unsigned held = 0;
			for (uint64_t v = 0; v <= top; v++)
				held += cmp_holds(c, NS_NONE, v);
			enum cmp_extent want = held == 0 ? CMP_NONE
					       : held == top + 1 ? CMP_ALL
					       : held == 1 ? CMP_ONE
							   : CMP_SOME;
			cr_expect_eq(cmp_extent(c, NS_NONE, bits), want, "%s on %u bits: %u hold",
				     text, bits, held);
			cr_expect_eq(cmp_open(c, NS_NONE, bits), want == CMP_SOME, "%s", text);
			json_decref(c);
			tried++;
		}
	}
	cr_expect_gt(tried, 30000u);
}

/* At 64 bits, where no enumeration is possible: the ends and a sparse mask. */
Test(matcher, cmp_extent_at_64_bits)
{
	static const struct {
		const char *text;
		enum cmp_extent want;
	} cases[] = {
		{ "{\"ge\":0}", CMP_ALL },
		{ "{\"le\":\"0xffffffffffffffff\"}", CMP_ALL },
		{ "{\"ge\":\"0xffffffffffffffff\"}", CMP_ONE },
		{ "{\"ge\":\"0xfffffffffffffffe\"}", CMP_SOME },
		{ "{\"ge\":\"0xffffffffffffffff\",\"ne\":\"0xffffffffffffffff\"}", CMP_NONE },
		{ "{\"mask\":\"0x8000000000000001\",\"ge\":2,\"le\":\"0x8000000000000000\"}",
		  CMP_SOME },
		{ "{\"mask\":\"0x8000000000000001\",\"ge\":2,\"le\":\"0x7fffffffffffffff\"}",
		  CMP_NONE },
		{ "{\"mask\":0,\"eq\":0}", CMP_ALL },
		{ "{\"ne\":5}", CMP_SOME },
		{ "7", CMP_ONE },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_t *c = json_loads(cases[i].text, JSON_DECODE_ANY, NULL);
		cr_assert(c, "%s", cases[i].text);
		cr_expect_eq(cmp_extent(c, NS_NONE, 64), cases[i].want, "%s", cases[i].text);
		json_decref(c);
	}
}
