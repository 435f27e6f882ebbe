/* What the DevX programs of harness/drivers/ share: command fields in the public mlx5 layout,
 * and DevX objects created, queried and moved RST -> RDY through the driver (mlx5dv_devx_obj_*),
 * each step printing one line. Header-only, for programs linked against libmlx5. */
#ifndef NICREF_DRIVERS_DEVX_UTIL_H
#define NICREF_DRIVERS_DEVX_UTIL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/mlx5dv.h>

/* A field of a command in the public mlx5 layout: bits msb..lsb of the big-endian dword at
 * byte off (PRM §12.2: commands are big-endian). */
static inline void put(uint8_t *b, unsigned off, unsigned msb, unsigned lsb, uint32_t v)
{
	uint32_t d = (uint32_t)b[off] << 24 | (uint32_t)b[off + 1] << 16 | (uint32_t)b[off + 2] << 8 |
		     b[off + 3];
	uint32_t m = (msb - lsb == 31 ? 0xFFFFFFFFu : ((1u << (msb - lsb + 1)) - 1)) << lsb;
	d = (d & ~m) | ((v << lsb) & m);
	b[off] = (uint8_t)(d >> 24);
	b[off + 1] = (uint8_t)(d >> 16);
	b[off + 2] = (uint8_t)(d >> 8);
	b[off + 3] = (uint8_t)d;
}

static inline uint32_t get(const volatile uint8_t *b, unsigned off, unsigned msb, unsigned lsb)
{
	uint32_t d = (uint32_t)b[off] << 24 | (uint32_t)b[off + 1] << 16 | (uint32_t)b[off + 2] << 8 |
		     b[off + 3];
	return msb - lsb == 31 ? d : (d >> lsb) & ((1u << (msb - lsb + 1)) - 1);
}

/* A DevX object from a command of inlen bytes; its handle, when asked, at output byte `at`
 * bits 23:0 (08h for every create of §12 this program uses). */
static inline struct mlx5dv_devx_obj *devx_create(struct ibv_context *ctx, const char *name,
						  uint8_t *in, size_t inlen, uint32_t *handle,
						  unsigned at)
{
	uint8_t out[0x10] = { 0 };
	struct mlx5dv_devx_obj *o = mlx5dv_devx_obj_create(ctx, in, inlen, out, sizeof out);
	if (handle)
		*handle = get(out, at, 23, 0);
	printf("%s: %s (status 0x%02x, syndrome 0x%08x, handle %u)\n", name,
	       o ? "ok" : strerror(errno), out[0], get(out, 4, 31, 0), handle ? *handle : 0);
	return o;
}

/* MODIFY_SQ (0x905, T319) / MODIFY_RQ (0x909, T336): RST -> RDY (state 08h[31:28] the current
 * state, the number 08h[23:0], the new state at 20h[23:20]; T63/T57 RST 0, RDY 1). 0 or the
 * error. */
static inline int devx_to_rdy(struct mlx5dv_devx_obj *o, unsigned opcode, uint32_t num,
			      const char *name)
{
	uint8_t in[0x110] = { 0 }, out[0x10] = { 0 };
	put(in, 0x00, 31, 16, opcode);
	put(in, 0x08, 23, 0, num);
	put(in, 0x20, 23, 20, 1);
	int err = mlx5dv_devx_obj_modify(o, in, sizeof in, out, sizeof out);
	printf("%s %u RST->RDY: %s (status 0x%02x)\n", name, num, err ? strerror(err) : "ok", out[0]);
	return err;
}

/* A query (the object number at 08h[23:0]) whose output the caller reads: 0 or the error. */
static inline int devx_query(struct mlx5dv_devx_obj *o, unsigned opcode, uint32_t num,
			     uint8_t *out, size_t outlen)
{
	uint8_t in[0x10] = { 0 };
	put(in, 0x00, 31, 16, opcode);
	put(in, 0x08, 23, 0, num);
	memset(out, 0, outlen);
	return mlx5dv_devx_obj_query(o, in, sizeof in, out, outlen);
}

/* A 64-bit store to the UAR, as rdma-core's mmio_write64_be is on x86-64: one mov of a
 * quadword whose bytes are already in bus (big-endian) order. */
static inline void mmio_write64(volatile void *addr, const uint8_t *src)
{
	uint64_t v;
	memcpy(&v, src, 8);
	*(volatile uint64_t *)addr = v;
}

#endif
