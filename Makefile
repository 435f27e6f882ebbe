# nicref: one entry point.
#   make                 libnicref (static + shared) and the nicref tool, gcc by default
#   make check           unit tests + vectors + fuzz smoke under ASan/UBSan + determinism
#   make conformance     every golden vector, and the conformance summary
#   make fuzz / afl      libFuzzer (clang) / AFL++ builds of the fuzz targets
#   make fuzz-smoke      each libFuzzer target for FUZZ_SECONDS under ASan/UBSan
#   make test T=cmdq     one unit test file (reference/tests/cmdq_test.c)
# Variants build side by side: make BUILD=build/clang-O2 CC=clang OPT=-O2

ifeq ($(origin CC),default)
CC      := gcc
endif
OPT     ?= -O2 -g
BUILD   ?= build/$(notdir $(CC))
SAN     ?=
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
CFLAGS  := -std=c11 $(OPT) $(WARN) $(SAN) -fPIC -D_POSIX_C_SOURCE=200809L
LDFLAGS := $(SAN)
FUZZ_SECONDS ?= 60

REF_SRC  := $(sort $(wildcard reference/prm/*.c reference/core/*.c reference/cmd/*.c reference/obj/*.c reference/reg/*.c reference/adp/*.c))
HAR_SRC  := $(sort $(filter-out harness/main.c,$(wildcard harness/*.c)))
REF_OBJ  := $(REF_SRC:%.c=$(BUILD)/%.o)
HAR_OBJ  := $(HAR_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/vector_schema.o
REF_INC  := -Ireference/include -Ireference
HAR_INC  := $(REF_INC) -Iharness
LIB_A    := $(BUILD)/libnicref.a
LIB_SO   := $(BUILD)/libnicref.so
TOOL     := $(BUILD)/nicref
REF_TESTS := $(sort $(wildcard reference/tests/*_test.c))
HAR_TESTS := $(sort $(wildcard harness/tests/*_test.c))
FUZZ_TARGETS := $(patsubst fuzzers/%_fuzz.c,%,$(wildcard fuzzers/*_fuzz.c))

.PHONY: all deps check unit vectors conformance fuzz afl fuzz-smoke determinism docs-check \
	schema-check purity test bench corpora coverage clean
all: $(LIB_A) $(LIB_SO) $(TOOL)

deps:
	@ci/deps.sh --check >/dev/null 2>&1 || ci/deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HAR_INC) -MMD -MP -c $< -o $@

# The vector schema compiled into the tool (harness/vector_schema.h): the runner applies the
# very file ci/validate_vectors.py applies, and the installed tool needs no data file.
SCHEMA_JSON := vectors/schemas/vector_file.schema.json
$(BUILD)/gen/vector_schema.c: $(SCHEMA_JSON)
	@mkdir -p $(dir $@)
	{ echo '/* Generated from $(SCHEMA_JSON) by the Makefile: do not edit. */'; \
	  echo '#include "vector_schema.h"'; echo 'const char vector_schema_json[] = {'; \
	  od -An -v -tx1 $< | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'; echo '0x00 };'; } >$@
$(BUILD)/gen/vector_schema.o: $(BUILD)/gen/vector_schema.c
	$(CC) $(CFLAGS) $(HAR_INC) -c $< -o $@

$(LIB_A): $(REF_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(LIB_SO): $(REF_OBJ)
	$(CC) -shared $(LDFLAGS) -o $@ $^

$(TOOL): $(BUILD)/harness/main.o $(HAR_OBJ) $(LIB_A)
	$(CC) $(LDFLAGS) -o $@ $^ -ljansson -lpcap

# Unit tests: Criterion. All *_test.c files link into one runner (one synthesis line);
# `make test T=cmdq` builds and runs reference/tests/cmdq_test.c alone.
UNIT_BIN := $(BUILD)/tests/unit_tests
$(UNIT_BIN): $(REF_TESTS) $(HAR_TESTS) $(HAR_OBJ) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HAR_INC) $(REF_TESTS) $(HAR_TESTS) -o $@ $(HAR_OBJ) $(LIB_A) \
		$(LDFLAGS) -lcriterion -ljansson -lpcap
$(BUILD)/tests/%_test: reference/tests/%_test.c $(HAR_OBJ) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HAR_INC) $< -o $@ $(HAR_OBJ) $(LIB_A) $(LDFLAGS) -lcriterion -ljansson -lpcap

# make check runs everything under ASan+UBSan (clang) in its own build tree, and ends with the
# Criterion synthesis and the vectors' closing line.
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_VARS  := BUILD=build/san CC=clang OPT="-O1 -g" SAN="$(SAN_FLAGS)"
check: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory schema-check docs-check purity
	@$(MAKE) --no-print-directory determinism
	@$(MAKE) --no-print-directory fuzz-smoke FUZZ_SECONDS=$(or $(CHECK_FUZZ_SECONDS),60)
	@$(MAKE) --no-print-directory -j2 $(SAN_VARS) build/san/nicref build/san/tests/unit_tests
	@$(MAKE) --no-print-directory $(SAN_VARS) unit vectors

unit: $(UNIT_BIN)
	$(UNIT_BIN) --jobs 2

test: $(BUILD)/tests/$(T)_test
	$(BUILD)/tests/$(T)_test

vectors: $(TOOL)
	$(TOOL) vectors vectors/
	/usr/bin/python3 ci/check_bad_vectors.py $(TOOL)

conformance: deps
	@$(MAKE) --no-print-directory all
	$(TOOL) vectors --summary vectors/

schema-check:
	/usr/bin/python3 ci/validate_vectors.py

purity:
	/usr/bin/python3 ci/check_purity.py

docs-check: $(TOOL)
	ci/check_conformance_doc.sh $(TOOL)

determinism:
	ci/determinism.sh

fuzz:
	@$(MAKE) --no-print-directory -f fuzzers/fuzz.mk fuzz

afl:
	@$(MAKE) --no-print-directory -f fuzzers/fuzz.mk afl

fuzz-smoke:
	@$(MAKE) --no-print-directory -f fuzzers/fuzz.mk smoke FUZZ_SECONDS=$(FUZZ_SECONDS)

# Seed corpora exported from the golden vectors (op streams and command inputs).
corpora: $(TOOL)
	@mkdir -p corpora/cmdq corpora/cmd
	rm -f corpora/cmdq/vec-* corpora/cmd/vec-*
	$(TOOL) vectors --corpus corpora vectors/

# Speed figures live here, never in unit tests.
BENCH := $(BUILD)/harness/bench/cmdq_bench
$(BENCH): harness/bench/cmdq_bench.c $(BUILD)/harness/cmdbuild.o $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HAR_INC) $^ -o $@ $(LDFLAGS)
OBJ_BENCH := $(BUILD)/harness/bench/obj_bench
$(OBJ_BENCH): harness/bench/obj_bench.c $(BUILD)/harness/driver.o $(BUILD)/harness/cmdbuild.o $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HAR_INC) $^ -o $@ $(LDFLAGS)
CTRL_BENCH := $(BUILD)/harness/bench/ctrl_bench
$(CTRL_BENCH): harness/bench/ctrl_bench.c $(filter $(BUILD)/harness/driver%.o $(BUILD)/harness/cmdbuild.o,$(HAR_OBJ)) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HAR_INC) $^ -o $@ $(LDFLAGS)
bench: $(BENCH) $(OBJ_BENCH) $(CTRL_BENCH)
	$(BENCH)
	$(OBJ_BENCH)
	$(CTRL_BENCH)

# Line and branch coverage of reference/ by the unit tests and the vectors (gcovr).
COV_VARS := BUILD=build/cov CC=gcc OPT="-O0 -g" SAN="--coverage"
coverage: deps
	@rm -rf build/cov
	@$(MAKE) --no-print-directory -j2 $(COV_VARS) build/cov/nicref build/cov/tests/unit_tests
	build/cov/tests/unit_tests --jobs 1 >/dev/null
	build/cov/nicref vectors vectors/ >/dev/null
	gcovr --root . --filter reference/ --exclude reference/tests/ --object-directory build/cov \
		--print-summary --html-details build/cov/coverage.html | tail -n 3
	@echo "coverage report: build/cov/coverage.html"

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
