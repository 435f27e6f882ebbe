/* Not a bad driver: one that waits the way Python's time.sleep and glibc's sleep do, through
 * clock_nanosleep, relative and absolute (TIMER_ABSTIME), and checks that its clocks moved by
 * what it slept (virtual time, D-VFIO-5: every sleep moves the model's clock and returns at
 * once). Exits 0 when both sleeps moved CLOCK_MONOTONIC by at least their length and
 * together took less than a second of real time, 5 otherwise. */
#include "vfio_util.h"

static uint64_t mono_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

int main(void)
{
	struct vdev v;
	vdev_open(&v);
	uint64_t t0 = mono_ns();
	struct timespec rel = { 2, 0 };
	int r1 = clock_nanosleep(CLOCK_MONOTONIC, 0, &rel, NULL);
	uint64_t t1 = mono_ns();
	uint64_t until = t1 + 3000000000ull;
	struct timespec abs = { (time_t)(until / 1000000000ull), (long)(until % 1000000000ull) };
	int r2 = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &abs, NULL);
	uint64_t t2 = mono_ns();
	printf("relative 2 s: %d, moved %llu ns; absolute +3 s: %d, moved %llu ns\n", r1,
	       (unsigned long long)(t1 - t0), r2, (unsigned long long)(t2 - t1));
	return r1 == 0 && r2 == 0 && t1 - t0 >= 2000000000ull && t2 - t1 >= 3000000000ull ? 0 : 5;
}
