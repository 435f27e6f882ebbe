/* The command queue's state beside its transport (cmd/cmdq.c): the gather/scatter buffers of one
 * command, sized once from the profile so no command allocates, and the count of completed
 * entries (nicref_stats.commands). Its row of the subsystem table (core/subsys.h). */
#include <stdlib.h>

#include "cmd/ctl_dev.h"

/* PRM §7.14.1: the queue lives in one 4 KiB chunk (so a stride is at most 2^12, checked before
 * the shift) and an entry is 64 bytes (T95); the checksum modes are 0, 1 and 3 (D-CMD-5); a
 * chain is at most 8192 blocks (D-CMD-10). */
static int cmdq_profile_ok(const struct nicref_profile *p)
{
	return p->log_cmdq_stride >= 6 && p->log_cmdq_stride <= 12 && p->log_cmdq_size <= 5 &&
	       (1u << p->log_cmdq_size) << p->log_cmdq_stride <= 4096u &&
	       p->cmdif_checksum != 2 && p->cmdif_checksum <= 3 && p->max_mailbox_blocks != 0 &&
	       p->max_mailbox_blocks <= 8192;
}

static int cmdq_create(struct nicref_dev *dev, void **state)
{
	(void)state;
	unsigned blocks = dev->core.cfg.profile.max_mailbox_blocks;
	/* 16 inline bytes plus the mailbox data of the longest chain (PRM §7.14.1). */
	dev->cmd_buf_len = 16 + (size_t)blocks * 512;
	dev->cmd_in = malloc(dev->cmd_buf_len);
	dev->cmd_out = malloc(dev->cmd_buf_len);
	dev->out_block_addr = calloc(blocks, sizeof(uint64_t));
	dev->out_block_ctrl = calloc(blocks, 0x40);
	return dev->cmd_in && dev->cmd_out && dev->out_block_addr && dev->out_block_ctrl ? 0 : -1;
}

static void cmdq_destroy(struct nicref_dev *dev, void *state)
{
	(void)state;
	free(dev->cmd_in);
	free(dev->cmd_out);
	free(dev->out_block_addr);
	free(dev->out_block_ctrl);
}

static void cmdq_reset(struct nicref_dev *dev, void *state)
{
	(void)state;
	dev->cmd_completed = 0;
}

static void cmdq_counters(const struct nicref_dev *dev, const void *state,
			  struct nicref_stats *out)
{
	(void)state;
	out->commands += dev->cmd_completed;
}

const struct dev_subsys cmdq_subsys = {
	.name = "cmdq",
	.profile_ok = cmdq_profile_ok,
	.create = cmdq_create,
	.destroy = cmdq_destroy,
	.reset = cmdq_reset,
	.counters = cmdq_counters,
};
