/* The front end's state and lifetime: the device is made by the constructor (profile from
 * NICREF_VFIO_PROFILE), the record file is written as things happen (so a crash loses
 * nothing), and the destructor writes the state at exit and the exit checks (vfio_rules.h). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vfio/vfio.h"
#include "vfio/vfio_profile.h"

struct vfio vfio;

static const struct {
	const char *name, *cite, *what;
	char cls;
} rules[] = {
#define VFIO_RULE_ROW(id, cite, what, cls) { #id, cite, what, cls },
	VFIO_RULES(VFIO_RULE_ROW)
#undef VFIO_RULE_ROW
};

const char *vfio_rule_name(enum vfio_rule rule)
{
	return rule < VFIO_RULE_COUNT ? rules[rule].name : "?";
}

void *vfio_real(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

static void write_all(int fd, const char *buf, size_t n)
{
	static ssize_t (*real_write)(int, const void *, size_t);
	if (!real_write)
		real_write = (ssize_t(*)(int, const void *, size_t))vfio_real("write");
	while (n > 0) {
		ssize_t w = real_write(fd, buf, n);
		if (w <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			return;
		}
		buf += w, n -= (size_t)w;
	}
}

void vfio_record(const char *fmt, ...)
{
	/* Only the process that opened the container speaks: a shell or any other process the
	 * program starts also loads the front end (LD_PRELOAD is inherited) and stays silent. */
	if (vfio.record_fd < 0 || !vfio.active)
		return;
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof line - 2)
		n = sizeof line - 2;
	line[n++] = '\n';
	write_all(vfio.record_fd, line, (size_t)n);
}

/* "vio front RULE class|clause|context": the clause and context may hold spaces, never '|'. */
void vfio_violation(enum vfio_rule rule, const char *fmt, ...)
{
	char ctx[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ctx, sizeof ctx, fmt, ap);
	va_end(ap);
	vfio_record("vio front %s %c|%s|%s (t=%llu ns, last command 0x%llx)", rules[rule].name,
		    rules[rule].cls, rules[rule].cite, ctx,
		    (unsigned long long)nicref_clock_now(vfio.dev),
		    (unsigned long long)vfio.last_opcode);
}

void vfio_where(const void *pc, char *buf, size_t len)
{
	Dl_info info;
	if (dladdr(pc, &info) && info.dli_fname) {
		const char *base = strrchr(info.dli_fname, '/');
		snprintf(buf, len, "%s+0x%lx", base ? base + 1 : info.dli_fname,
			 (unsigned long)((uintptr_t)pc - (uintptr_t)info.dli_fbase));
	} else {
		snprintf(buf, len, "?");
	}
}

void vfio_time_advance(uint64_t ns)
{
	if (vfio.dev)
		nicref_clock_advance(vfio.dev, ns);
}

/* The model's trace: every event to the trace file; commands and violations to the record. */
static void on_event(void *ctx, const struct nicref_event *ev)
{
	(void)ctx;
	if (vfio.trace_fd >= 0) {
		char line[512];
		int n = nicref_event_format(ev, line, sizeof line - 1);
		if (n > 0) {
			if ((size_t)n > sizeof line - 2)
				n = sizeof line - 2;
			line[n++] = '\n';
			write_all(vfio.trace_fd, line, (size_t)n);
		}
	}
	switch (ev->kind) {
	case NICREF_EV_CMD_DONE:
		vfio.last_opcode = ev->arg[1];
		vfio_wire_cmd_done((unsigned)ev->arg[1]);
		vfio_record("cmd 0x%llx 0x%llx %llu 0x%llx 0x%llx", (unsigned long long)ev->arg[1],
			    (unsigned long long)ev->arg[2], (unsigned long long)ev->arg[3],
			    (unsigned long long)ev->arg[4], (unsigned long long)ev->arg[5]);
		break;
	case NICREF_EV_CMD_FAIL:
		vfio_record("cmdfail 0x%llx %s", (unsigned long long)ev->arg[1],
			    nicref_cmd_rule_name((unsigned)ev->arg[2]));
		break;
	/* The wire: frames out and in (port, length, CRC-32 as the trace has them, D-TX-2), the
	 * copies the receive path dropped and the frames the send path discarded (reasons:
	 * docs/rx.md D-RX-8, docs/tx.md D-TX-6). */
	case NICREF_EV_FRAME_OUT:
	case NICREF_EV_FRAME_IN:
		vfio_record("frame %s %llu %llu 0x%08llx", ev->kind == NICREF_EV_FRAME_OUT ? "out" : "in",
			    (unsigned long long)ev->arg[0], (unsigned long long)ev->arg[1],
			    (unsigned long long)ev->arg[2]);
		break;
	case NICREF_EV_RX_DROP:
		vfio_record("frame rx_drop reason %llu num %llu len %llu", (unsigned long long)ev->arg[0],
			    (unsigned long long)ev->arg[1], (unsigned long long)ev->arg[2]);
		break;
	case NICREF_EV_TX_DISCARD:
		vfio_record("frame tx_discard sqn %llu wqe %llu reason %llu",
			    (unsigned long long)ev->arg[0], (unsigned long long)ev->arg[1],
			    (unsigned long long)ev->arg[2]);
		break;
	case NICREF_EV_UNMODELLED:
		vfio_record("unmodelled 0x%llx", (unsigned long long)ev->arg[1]);
		break;
	case NICREF_EV_VIOLATION: {
		unsigned r = (unsigned)ev->arg[0];
		vfio_record("vio model %s %c|%s|%s, arg 0x%llx (t=%llu ns, event %llu, last command "
			    "0x%llx)",
			    nicref_violation_name(r), nicref_violation_is_warning(r) == 1 ? 'W' : 'V', nicref_violation_citation(r),
			    nicref_violation_text(r), (unsigned long long)ev->arg[1],
			    (unsigned long long)ev->time_ns, (unsigned long long)ev->seq,
			    (unsigned long long)vfio.last_opcode);
		break;
	}
	default:
		break;
	}
}

static int open_out(const char *env)
{
	const char *path = getenv(env);
	if (!path || !*path)
		return -1;
	int (*real_open)(const char *, int, ...) =
		(int (*)(const char *, int, ...))vfio_real("open");
	return real_open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

/* The exit checks: entries still owned by hardware, the lifecycle, the pages (PRM §8.3). */
void vfio_release_checks(void)
{
	if (vfio.checked)
		return;
	vfio.checked = 1;
	if (vfio.cmdq_iova) {
		unsigned n = 1u << vfio.profile.log_cmdq_size, stride = 1u << vfio.profile.log_cmdq_stride;
		for (unsigned s = 0; s < n && s < 32; s++) {
			uint8_t own;
			uint64_t at = vfio.cmdq_iova + (uint64_t)s * stride + 0x3F;
			if (vfio_iova_peek(at, &own, 1) == 0 && (own & 1))
				vfio_violation(VFIO_RULE_EXIT_CMD_OUTSTANDING, "entry %u at IOVA 0x%llx",
					       s, (unsigned long long)(at - 0x3F));
		}
	}
	/* The model's own invariants (a failure is a model bug, not the driver's). */
	char why[256];
	int inv = nicref_dev_check_explain(vfio.dev, why, sizeof why);
	if (inv != 0)
		vfio_record("model_bug %s: %s", nicref_invariant_name(inv) ? nicref_invariant_name(inv) : "?",
			    why);
	struct nicref_hca_info h;
	nicref_hca_info(vfio.dev, &h);
	if (h.state == NICREF_HCA_ENABLED || h.state == NICREF_HCA_INITIALIZED)
		vfio_violation(VFIO_RULE_EXIT_NOT_TORN_DOWN, "HCA state %s at exit",
			       h.state == NICREF_HCA_ENABLED ? "enabled" : "initialized");
	else if (h.state == NICREF_HCA_TORN_DOWN)
		vfio_violation(VFIO_RULE_EXIT_NOT_DISABLED, "HCA torn down, not disabled, at exit");
	if (h.pages)
		vfio_violation(VFIO_RULE_EXIT_PAGES_HELD, "%u pages still held", h.pages);
	vfio_record("state %d pages %u pds %u uars %u tds %u mkeys %u eqs %u cqs %u tiss %u sqs %u "
		    "rmps %u rqs %u rqts %u tirs %u bar_accesses %llu dma %llu time_ns %llu",
		    (int)h.state, h.pages, h.pds, h.uars, h.tds, h.mkeys, h.eqs, h.cqs, h.tiss,
		    h.sqs, h.rmps, h.rqs, h.rqts, h.tirs, (unsigned long long)vfio.bar_accesses,
		    (unsigned long long)vfio.dma_ops,
		    (unsigned long long)nicref_clock_now(vfio.dev));
}

__attribute__((constructor)) static void vfio_init(void)
{
	memset(&vfio, 0, sizeof vfio);
	vfio.record_fd = open_out("NICREF_VFIO_RECORD");
	vfio.trace_fd = open_out("NICREF_VFIO_TRACE");
	vfio.container_fd = vfio.group_fd = vfio.device_fd = -1;
	for (unsigned i = 0; i < VFIO_MAX_IRQS; i++)
		vfio.irq_fd[i] = -1;
	const char *pci = getenv("NICREF_VFIO_PCI");
	snprintf(vfio.pci, sizeof vfio.pci, "%s", pci && *pci ? pci : "0000:00:01.0");
	const char *g = getenv("NICREF_VFIO_GROUP");
	vfio.group = g && *g ? atoi(g) : 42;
	vfio.log_bar = getenv("NICREF_VFIO_LOG_BAR") != NULL;

	struct nicref_config cfg;
	nicref_config_default(&cfg);
	char err[256];
	if (vfio_profile_apply(&cfg.profile, getenv("NICREF_VFIO_PROFILE"), err, sizeof err)) {
		vfio.active = 1; /* a refusal is recorded whoever meets it */
		vfio_record("error profile: %s", err);
		_exit(VFIO_EXIT_SETUP);
	}
	cfg.ops.ctx = &vfio;
	cfg.ops.dma_read = vfio_dma_read;
	cfg.ops.dma_write = vfio_dma_write;
	cfg.ops.interrupt = vfio_interrupt;
	cfg.ops.wire_tx = vfio_wire_tx;
	cfg.trace = on_event;
	vfio.dev = nicref_dev_create(&cfg);
	if (!vfio.dev) {
		vfio.active = 1;
		vfio_record("error profile: the device refuses this profile");
		_exit(VFIO_EXIT_SETUP);
	}
	vfio.profile = cfg.profile;
	if (vfio_wire_init(err, sizeof err)) {
		vfio.active = 1;
		vfio_record("error inject: %s", err);
		_exit(VFIO_EXIT_SETUP);
	}
	vfio.nirq = cfg.profile.msix_vectors < VFIO_MAX_IRQS ? cfg.profile.msix_vectors : VFIO_MAX_IRQS;
	vfio_cfg_init();
	vfio_bar_install_handlers();
	vfio.ready = 1;
}

void vfio_activate(void)
{
	if (vfio.active)
		return;
	vfio.active = 1;
	vfio.pid = getpid();
	vfio_record("start pci %s group %d", vfio.pci, vfio.group);
}

__attribute__((destructor)) static void vfio_fini(void)
{
	/* a child forked after the container was opened has a copy of the device: only the
	 * process that opened it checks and ends */
	if (!vfio.ready || !vfio.active || getpid() != vfio.pid)
		return;
	vfio.exiting = 1;
	vfio_release_checks(); /* unless the device was closed (and checked) before */
	vfio_wire_fini();
	vfio_record("end");
	vfio.ready = 0;
}
