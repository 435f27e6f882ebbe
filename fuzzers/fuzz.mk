# Fuzz builds of nicref (the main Makefile delegates `make fuzz`, `make afl`, `make fuzz-smoke`).
#
#   make -f fuzzers/fuzz.mk fuzz        libFuzzer + ASan + UBSan   build/fuzz/<t>_fuzz
#   make -f fuzzers/fuzz.mk replay      gcc + ASan + UBSan + standalone_main.c   build/replay/<t>_fuzz
#   make -f fuzzers/fuzz.mk afl         AFL++ (afl-clang-fast, libAFLDriver)   build/afl/<t>_fuzz
#   make -f fuzzers/fuzz.mk smoke FUZZ_SECONDS=60
#                                       each target FUZZ_SECONDS under libFuzzer on a temporary
#                                       copy of corpora/<t>/, FUZZ_JOBS (2) at a time, then the
#                                       committed corpora replayed through the gcc build; any
#                                       finding fails. Wall time: ceil(targets / FUZZ_JOBS) *
#                                       FUZZ_SECONDS plus ~30 s of build from clean (17 targets,
#                                       45 s in `make check`: 9 rounds, ~7 min)
#   make -f fuzzers/fuzz.mk replay-corpus   only the replay of corpora/<t>/ (gcc build)
#   make -f fuzzers/fuzz.mk selftest    what a finding prints, and reserved op codes ignored
#                                       (fuzzers/tests/selftest.sh; the smoke runs it too)
#   make -f fuzzers/fuzz.mk afl-start   afl-fuzz on each AFL build for ~10 s (proves they start)
#   make -f fuzzers/fuzz.mk seeds       regenerate corpora/*/seed-* and fuzzers/*.dict (make_seeds.c)
#   make -f fuzzers/fuzz.mk corpora-merge   the golden-vector exports of `make corpora`
#                                       (build/corpora/) that add coverage, into corpora/
#
# A target is a file fuzzers/<t>_fuzz.c ending in NICREF_FUZZ_TARGET (fuzzers/fuzz_target.h);
# adding one needs no edit here. Its corpus is corpora/<t>/, its dictionary fuzzers/<t>.dict.
# Other fuzzers/*.c files (except standalone_main.c and make_seeds*.c) are shared by all targets:
# every target links them all, also a file only one target calls (tx's tx_follow.c, tx_wqe.c, ...),
# which therefore refers to nothing but the library and the other shared files.
# The library is compiled into each variant from source, in its own object tree.

FUZZ_SECONDS ?= 60
# Targets fuzzed side by side in the smoke (one libFuzzer process each, one per core).
FUZZ_JOBS ?= 2
# Rounds of the smoke: ceil(targets / FUZZ_JOBS).
SMOKE_ROUNDS = $(shell echo $$(( ($(words $(FUZZ_TARGETS)) + $(FUZZ_JOBS) - 1) / $(FUZZ_JOBS) )))
AFL_SECONDS ?= 10
AFL_CC ?= afl-clang-fast
# AFL builds carry no sanitizer unless asked (e.g. AFL_SAN="-fsanitize=address,undefined").
AFL_SAN ?=

FUZZ_TARGETS := $(patsubst fuzzers/%_fuzz.c,%,$(wildcard fuzzers/*_fuzz.c))
LIB_SRC := $(sort $(filter-out reference/tests/%,$(wildcard reference/*/*.c))) \
	harness/opstream.c harness/cmdbuild.c harness/driver.c harness/driver_vport.c harness/driver_wq.c harness/driver_mkey.c harness/driver_tir.c harness/driver_eq.c harness/driver_cq.c harness/driver_sq.c harness/driver_steer.c harness/driver_rq.c harness/driver_rxstack.c harness/driver_qp.c
# The differential engine (NICREF_DUT, fuzzers/fuzz_dut.c): its interposition needs the --wrap
# flags below (harness/dut_wrap.c).
DUT_SRC := harness/dut_diff.c harness/dut_name.c harness/dut_load.c harness/dut_wrap.c \
	harness/repro_record.c
COMMON_SRC := $(filter-out fuzzers/%_fuzz.c fuzzers/standalone_main.c fuzzers/make_seeds%.c, \
	$(wildcard fuzzers/*.c))

INC := -Ireference/include -Ireference -Iharness -Ifuzzers
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
BASE := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -g -fno-omit-frame-pointer

# The model's assertions trap in nicref_assert_failed (reference/core/assert.c); every fuzz
# build routes them through fuzzers/fuzz_report.c, which says which one and where first.
WRAP := -Wl,--wrap=nicref_assert_failed
DUT_WRAP_SYMS := nicref_dev_create nicref_dev_destroy nicref_dev_reset nicref_bar_read32 \
	nicref_bar_write32 nicref_clock_advance nicref_wire_rx nicref_hostmem_write \
	nicref_hostmem_clear nicref_hostmem_fault
WRAP += $(foreach s,$(DUT_WRAP_SYMS),-Wl,--wrap=$(s))

FUZZ_CC := clang
FUZZ_FLAGS := $(BASE) -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
# Code that is not under test carries no coverage instrumentation (the file says which, and why).
FUZZ_COV_IGNORE := fuzzers/coverage_ignore.txt
FUZZ_COMPILE := -fsanitize-coverage-ignorelist=$(FUZZ_COV_IGNORE)
REPLAY_CC := gcc
REPLAY_FLAGS := $(BASE) -O1 -fsanitize=address,undefined -fno-sanitize-recover=all
AFL_FLAGS := $(BASE) -O2 $(AFL_SAN)
SEEDS_CC := gcc
SEEDS_FLAGS := $(BASE) -O1

.PHONY: fuzz replay afl afl-check smoke replay-corpus selftest corpora-merge afl-start seeds clean
.DEFAULT_GOAL := fuzz

# $(call variant,name,cc,flags,compile-only flags,extra objects of the link)
define variant
$(1)_OBJ := $$(patsubst %.c,build/$(1)/obj/%.o,$$(LIB_SRC) $$(COMMON_SRC) $$(DUT_SRC))
build/$(1)/obj/%.o: %.c
	@mkdir -p $$(dir $$@)
	$(2) $(3) $(4) $$(INC) -MMD -MP -c $$< -o $$@
build/$(1)/%_fuzz: build/$(1)/obj/fuzzers/%_fuzz.o $$($(1)_OBJ) $(5)
	$(2) $(3) $$(WRAP) -o $$@ $$^ -ldl
build/$(1)/tests/%: build/$(1)/obj/fuzzers/tests/%.o $$($(1)_OBJ) $(5)
	@mkdir -p $$(dir $$@)
	$(2) $(3) $$(WRAP) -o $$@ $$^ -ldl
endef

$(eval $(call variant,fuzz,$(FUZZ_CC),$(FUZZ_FLAGS),$(FUZZ_COMPILE),))
# A change of the list rebuilds the objects it may concern.
$(fuzz_OBJ) $(patsubst %.c,build/fuzz/obj/%.o,$(wildcard fuzzers/*_fuzz.c)): $(FUZZ_COV_IGNORE)
$(eval $(call variant,replay,$(REPLAY_CC),$(REPLAY_FLAGS),,build/replay/obj/fuzzers/standalone_main.o))
# afl-clang-fast turns -fsanitize=fuzzer into a link of libAFLDriver, which runs
# LLVMFuzzerTestOneInput in AFL's persistent, shared-memory mode.
$(eval $(call variant,afl,$(AFL_CC),$(AFL_FLAGS) -fsanitize=fuzzer,,))

# The object files are only ever wanted by the binaries; keep them between runs.
.SECONDARY:

fuzz: $(FUZZ_TARGETS:%=build/fuzz/%_fuzz)
replay: $(FUZZ_TARGETS:%=build/replay/%_fuzz)

afl-check:
	@command -v $(AFL_CC) >/dev/null 2>&1 || { \
		echo "fuzz.mk: $(AFL_CC) not found: install AFL++ (ci/deps.sh installs afl++)" >&2; \
		exit 1; }
afl: afl-check
	@$(MAKE) --no-print-directory -f fuzzers/fuzz.mk $(FUZZ_TARGETS:%=build/afl/%_fuzz)

smoke:
	@$(MAKE) --no-print-directory -j$(FUZZ_JOBS) -f fuzzers/fuzz.mk fuzz replay
	@echo "fuzz smoke: $(FUZZ_TARGETS) for $(FUZZ_SECONDS) s each, $(FUZZ_JOBS) at a time" \
		"($(SMOKE_ROUNDS) rounds, ~$$(( $(SMOKE_ROUNDS) * $(FUZZ_SECONDS) )) s)"
	@printf '%s\n' $(FUZZ_TARGETS) | \
		xargs -P $(FUZZ_JOBS) -I{} fuzzers/smoke.sh libfuzzer {} $(FUZZ_SECONDS) || { \
		echo "fuzz smoke: FAILED (see the report above)" >&2; exit 1; }
	@$(MAKE) --no-print-directory -f fuzzers/fuzz.mk replay-corpus selftest
	@echo "fuzz smoke: passed"

replay-corpus: replay
	@set -e; for t in $(FUZZ_TARGETS); do \
		mkdir -p corpora/$$t; \
		printf 'replay %s: ' "$$t"; build/replay/$${t}_fuzz corpora/$$t; \
	done

# What a finding prints (fuzzers/tests/broken_target.c, in both builds) and that every target
# ignores its reserved op codes (fuzzers/tests/selftest.sh).
SELFTEST_BIN := build/replay/tests/broken_target build/fuzz/tests/broken_target
selftest: replay fuzz $(SELFTEST_BIN)
	@fuzzers/tests/selftest.sh

# Promote what `make corpora` exported from the golden vectors (build/corpora/{cmdq,cmd}/) into
# the committed corpora: libFuzzer's merge copies only the inputs that add coverage, named by
# their SHA-1. Review and commit the new files of corpora/ by hand.
corpora-merge: fuzz
	@test -d build/corpora/cmdq -a -d build/corpora/cmd || { \
		echo "fuzz.mk: nothing exported: run make corpora first" >&2; exit 1; }
	@set -e; for t in cmdq cmd; do \
		build/fuzz/$${t}_fuzz -merge=1 -timeout=5 -rss_limit_mb=2048 corpora/$$t \
			build/corpora/$$t >build/corpora/merge-$$t.log 2>&1 || { \
			tail -n 40 build/corpora/merge-$$t.log; exit 1; }; \
		printf 'corpora-merge %s: ' "$$t"; grep 'MERGE-OUTER: [0-9]* new files' \
			build/corpora/merge-$$t.log; \
	done

afl-start: afl
	@set -e; for t in $(FUZZ_TARGETS); do \
		fuzzers/smoke.sh afl $$t $(AFL_SECONDS); \
	done

SEEDS_SRC := $(wildcard fuzzers/make_seeds*.c)
build/seeds/make_seeds: $(SEEDS_SRC) $(LIB_SRC) $(wildcard fuzzers/*.h)
	@mkdir -p $(dir $@)
	$(SEEDS_CC) $(SEEDS_FLAGS) $(INC) -o $@ $(SEEDS_SRC) $(LIB_SRC)

seeds: build/seeds/make_seeds
	@mkdir -p $(FUZZ_TARGETS:%=corpora/%)
	build/seeds/make_seeds corpora fuzzers

clean:
	rm -rf build/fuzz build/replay build/afl build/seeds build/corpora

-include $(shell find build/fuzz build/replay build/afl -name '*.d' 2>/dev/null)
