/* The L2 table of PRM §12.15: the function's L2 addresses, 2^log_max_l2_table entries (T145
 * 90h[28:24]) of {vlan_valid, vlan, mac_address} (T458).
 *
 * Only valid entries are stored, in a sorted array found by binary search (D-L2-4): the
 * capability allows up to 2^31 entries and a driver sets a handful (its own and its multicast
 * addresses, §12.15), so memory follows what is set, never the table's size. */
#include <stdlib.h>

#include "obj/vport.h"

/* The position of index i in t->e: where it is, or where it would go. */
static uint32_t l2_pos(const struct l2_table *t, uint32_t index)
{
	uint32_t lo = 0, hi = t->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (t->e[mid].index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct l2_entry *l2_table_get(const struct l2_table *t, uint32_t index)
{
	uint32_t p = l2_pos(t, index);
	return p < t->n && t->e[p].index == index ? &t->e[p] : NULL;
}

int l2_table_insert(struct l2_table *t, const struct l2_entry *e)
{
	uint32_t p = l2_pos(t, e->index);
	/* §12.15: "it cannot do SET twice before DELETE": the caller refused that already. */
	if (p < t->n && t->e[p].index == e->index)
		return -1;
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 8;
		if (cap < t->cap) /* 2^32 entries: beyond any 24-bit index space */
			return -1;
		struct l2_entry *ne = realloc(t->e, (size_t)cap * sizeof *ne);
		if (!ne)
			return -1;
		t->e = ne;
		t->cap = cap;
	}
	for (uint32_t k = t->n; k > p; k--)
		t->e[k] = t->e[k - 1];
	t->e[p] = *e;
	t->n++;
	return 0;
}

int l2_table_remove(struct l2_table *t, uint32_t index)
{
	uint32_t p = l2_pos(t, index);
	if (p >= t->n || t->e[p].index != index)
		return -1;
	for (uint32_t k = p; k + 1 < t->n; k++)
		t->e[k] = t->e[k + 1];
	t->n--;
	/* Give memory back when the table shrinks well below its allocation. */
	if (t->n == 0) {
		free(t->e);
		t->e = NULL;
		t->cap = 0;
	} else if (t->cap > 64 && t->n < t->cap / 4) {
		struct l2_entry *ne = realloc(t->e, (size_t)(t->cap / 2) * sizeof *ne);
		if (ne) {
			t->e = ne;
			t->cap /= 2;
		}
	}
	return 0;
}

void l2_table_clear(struct l2_table *t)
{
	free(t->e);
	t->e = NULL;
	t->n = t->cap = 0;
}

bool l2_table_has_mac(const struct l2_table *t, uint64_t mac, bool vlan_valid, uint16_t vlan)
{
	/* T458: vlan_valid 0 means "Only MAC is valid": the entry holds the MAC on any VLAN. */
	for (uint32_t k = 0; k < t->n; k++) {
		const struct l2_entry *e = &t->e[k];
		if (e->mac == mac && (!e->vlan_valid || (vlan_valid && e->vlan == vlan)))
			return true;
	}
	return false;
}

int l2_table_check(const struct l2_table *t, uint64_t size)
{
	if (t->n > t->cap || (t->cap && !t->e) || (!t->cap && t->e))
		return -440; /* the array and its counts disagree */
	for (uint32_t k = 0; k < t->n; k++) {
		const struct l2_entry *e = &t->e[k];
		if (e->index >= size)
			return -441; /* an entry outside 2^log_max_l2_table (D-L2-1) */
		if (k && t->e[k - 1].index >= e->index)
			return -442; /* not sorted, or an index twice */
		if (e->vlan > 0xFFF || e->mac >> 48)
			return -443; /* wider than T458's fields */
	}
	return 0;
}
