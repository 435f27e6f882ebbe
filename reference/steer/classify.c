/* Classification of one frame through the flow tables of a type (PRM §7.11.2, §7.11.4, with
 * the decisions of docs/steer.md):
 *   - the start is the root (§7.11.3.2): the explicit one, else the level-0 table; none → the
 *     type's default (§7.11.2.5);
 *   - in a table, the lowest-index valid flow that matches (§7.11.2, §7.11.2.6), found through
 *     the groups' indexes (obj/flow.h), not a scan of the entries;
 *   - a miss goes to the identified miss table (T388) or the default;
 *   - the hit flow's tag replaces the frame's unless it is 0 (§7.11.2.9), its counters count
 *     the frame (§7.11.2.8, D-FC-2), then DROP stops, ALLOW is the type's default (D-FT-7),
 *     FWD_DEST delivers to each TIR and walks each flow table, one copy each, in list order
 *     (§7.11.2.4; each copy keeps its own tag, D-FT-20).
 * Levels strictly increase along misses and forwards (§7.11.3.3, checked by the commands), so
 * a walk ends; the depth guard only bounds the stack. No allocation. */
#include <string.h>

#include "cmd/ctl_dev.h"
#include "steer/steer.h"

#define WALK_MAX_DEPTH 256 /* levels are 8 bits (T388 00h[23:16]) */

struct walk {
	struct nicref_dev *dev;
	struct steer_verdict *v;
	const uint32_t *key;
	uint32_t frame_len;
	unsigned drops, defaults;
	unsigned default_why; /* the first default's reason */
};

static void to_default(struct walk *w, unsigned why)
{
	if (w->defaults++ == 0)
		w->default_why = why;
}

static void count(struct walk *w, const struct fte *e)
{
	for (uint32_t k = 0; k < e->ncnt; k++) {
		struct flow_counter *c = obj_get(w->dev, OBJ_FC, e->cnt[k]);
		if (c) { /* a counter named by a valid flow is live (FC_IN_USE) */
			c->packets++;
			c->octets += w->frame_len;
		}
	}
}

static void walk(struct walk *w, const struct flow_table *t, uint32_t tag, unsigned depth)
{
	while (t) {
		if (depth++ > WALK_MAX_DEPTH) {
			to_default(w, STEER_WHY_MISS);
			return;
		}
		const struct fte *e = flow_table_lookup(t, w->key);
		if (!e) {
			if (t->miss_action != 1) {
				to_default(w, STEER_WHY_MISS);
				return;
			}
			t = obj_get(w->dev, OBJ_FT, t->miss_id);
			continue;
		}
		if (e->flow_tag)
			tag = e->flow_tag;
		if (e->action & FLOW_ACT_COUNT)
			count(w, e);
		if (e->action & FLOW_ACT_DROP) {
			w->drops++;
			return;
		}
		if (e->action & FLOW_ACT_ALLOW) {
			to_default(w, STEER_WHY_ALLOW);
			return;
		}
		for (uint32_t k = 0; k < e->ndest; k++) {
			if (e->dest[k].type == FLOW_DEST_TIR) {
				struct steer_verdict *v = w->v;
				if (v->ntirs == STEER_MAX_TIRS) {
					w->dev->flow.tir_overflow++; /* D-FT-20 */
					continue;
				}
				v->tirn[v->ntirs] = e->dest[k].id;
				v->flow_tag[v->ntirs++] = tag;
			} else {
				walk(w, obj_get(w->dev, OBJ_FT, e->dest[k].id), tag, depth);
			}
		}
		return;
	}
	to_default(w, STEER_WHY_MISS);
}

/* The verdict of a walk from root (not NULL) over the key's words. */
static void classify_from(struct nicref_dev *dev, const struct flow_table *root,
			  const uint32_t *words, uint32_t frame_len, struct steer_verdict *v)
{
	struct walk w = { .dev = dev, .v = v, .key = words, .frame_len = frame_len };
	walk(&w, root, 0, 0);
	/* Copies: any TIR delivers; else a default reached by any path wins over drops (the
	 * frame is not refused by every path); else the rule dropped it. */
	if (v->ntirs) {
		v->action = STEER_DELIVER;
		v->why = STEER_WHY_FORWARD;
	} else if (w.defaults) {
		v->action = STEER_DEFAULT;
		v->why = w.default_why;
	} else {
		v->action = STEER_DROP;
		v->why = STEER_WHY_RULE_DROP;
	}
}

void steer_classify(struct nicref_dev *dev, enum steer_table_type t, const uint8_t key[STEER_KEY_LEN],
		    uint32_t frame_len, struct steer_verdict *v)
{
	v->ntirs = 0;
	const struct flow_table *root = flow_root(dev, (unsigned)t);
	if (!root) {
		v->action = STEER_DEFAULT;
		v->why = STEER_WHY_NO_ROOT;
		return;
	}
	uint32_t words[FLOW_MATCH_WORDS];
	memcpy(words, key, sizeof words);
	classify_from(dev, root, words, frame_len, v);
}

void steer_classify_frame(struct nicref_dev *dev, enum steer_table_type t, const uint8_t *frame,
			  size_t len, const struct pkt_info *pi, struct steer_verdict *v)
{
	v->ntirs = 0;
	const struct flow_table *root = flow_root(dev, (unsigned)t);
	if (!root) {
		v->action = STEER_DEFAULT;
		v->why = STEER_WHY_NO_ROOT;
		return; /* no key to build */
	}
	/* The key built in place as the words the groups mask (no copy of it). */
	uint32_t words[FLOW_MATCH_WORDS];
	steer_key_build(frame, len, pi, (uint8_t *)words);
	classify_from(dev, root, words, (uint32_t)len, v);
}
