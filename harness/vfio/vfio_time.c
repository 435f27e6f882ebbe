/* Virtual time. The driver's clocks (gettimeofday, clock_gettime, time) read the model's
 * clock, each query moving it by VFIO_TIME_STEP_NS so a polling loop ends; its sleeps
 * (usleep, nanosleep, clock_nanosleep, sleep) move it by what they ask and return at once; a poll() that would block while the device is open
 * moves it until an eventfd is signalled, or gives up after VFIO_HANG_NS of virtual time
 * (nothing the model does later will signal it: a hang, recorded, exit VFIO_EXIT_HANG).
 * So a run takes the same course, and leaves the same trace, every time. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "vfio/vfio.h"

#define VFIO_API __attribute__((visibility("default")))
#define EPOCH_S 1767225600ull /* 2026-01-01T00:00:00Z: the wall clock's virtual origin */
#define POLL_STEP_NS 1000000ull
#define VFIO_HANG_NS 10000000000ull

static uint64_t now_ns(void)
{
	vfio_wire_tick();
	vfio_time_advance(VFIO_TIME_STEP_NS);
	return vfio.dev ? nicref_clock_now(vfio.dev) : 0;
}

VFIO_API int gettimeofday(struct timeval *tv, void *tz)
{
	(void)tz;
	uint64_t t = now_ns();
	tv->tv_sec = (time_t)(EPOCH_S + t / 1000000000ull); /* glibc declares tv nonnull */
	tv->tv_usec = (suseconds_t)(t % 1000000000ull / 1000);
	return 0;
}

VFIO_API int clock_gettime(clockid_t id, struct timespec *ts)
{
	uint64_t t = now_ns();
	uint64_t base = id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE ? EPOCH_S : 0;
	ts->tv_sec = (time_t)(base + t / 1000000000ull);
	ts->tv_nsec = (long)(t % 1000000000ull);
	return 0;
}

VFIO_API time_t time(time_t *out)
{
	time_t t = (time_t)(EPOCH_S + now_ns() / 1000000000ull);
	if (out)
		*out = t;
	return t;
}

VFIO_API int usleep(useconds_t us)
{
	vfio_wire_tick();
	vfio_time_advance((uint64_t)us * 1000);
	return 0;
}

VFIO_API int nanosleep(const struct timespec *req, struct timespec *rem)
{
	if (!req || req->tv_nsec < 0 || req->tv_nsec >= 1000000000L || req->tv_sec < 0) {
		errno = EINVAL;
		return -1;
	}
	vfio_wire_tick();
	vfio_time_advance((uint64_t)req->tv_sec * 1000000000ull + (uint64_t)req->tv_nsec);
	if (rem)
		rem->tv_sec = 0, rem->tv_nsec = 0;
	return 0;
}

/* What nanosleep, sleep and Python's time.sleep come down to in glibc: relative, or until an
 * absolute time of the clock named (TIMER_ABSTIME). Returns the error number itself. */
VFIO_API int clock_nanosleep(clockid_t id, int flags, const struct timespec *req,
			     struct timespec *rem)
{
	if (!req || req->tv_nsec < 0 || req->tv_nsec >= 1000000000L || req->tv_sec < 0)
		return EINVAL;
	vfio_wire_tick();
	uint64_t want = (uint64_t)req->tv_sec * 1000000000ull + (uint64_t)req->tv_nsec;
	if (flags & TIMER_ABSTIME) {
		uint64_t base = id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE
					? EPOCH_S * 1000000000ull
					: 0;
		uint64_t now = base + (vfio.dev ? nicref_clock_now(vfio.dev) : 0);
		want = want > now ? want - now : 0;
	} else if (rem) {
		rem->tv_sec = 0, rem->tv_nsec = 0;
	}
	vfio_time_advance(want);
	return 0;
}

VFIO_API unsigned sleep(unsigned s)
{
	vfio_wire_tick();
	vfio_time_advance((uint64_t)s * 1000000000ull);
	return 0;
}

VFIO_API int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	int (*real)(struct pollfd *, nfds_t, int) =
		(int (*)(struct pollfd *, nfds_t, int))vfio_real("poll");
	if (vfio.device_fd < 0 || timeout == 0)
		return real(fds, n, timeout);
	uint64_t waited = 0, limit = timeout > 0 ? (uint64_t)timeout * 1000000ull : VFIO_HANG_NS;
	vfio_wire_tick();
	for (;;) {
		int r = real(fds, n, 0);
		if (r != 0)
			return r;
		if (waited >= limit)
			break;
		vfio_time_advance(POLL_STEP_NS);
		waited += POLL_STEP_NS;
	}
	if (timeout > 0)
		return 0;
	char where[128];
	vfio_where(__builtin_return_address(0), where, sizeof where);
	vfio_record("hang poll of %lu descriptors without a timeout, called from %s: nothing was "
		    "signalled in %llu s of virtual time", (unsigned long)n, where,
		    (unsigned long long)(VFIO_HANG_NS / 1000000000ull));
	_exit(VFIO_EXIT_HANG);
}
