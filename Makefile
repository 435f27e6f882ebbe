# nicref: one entry point.
#   make                 libnicref (static + shared) and the nicref tool, gcc by default
#   make check           unit tests + vectors + fuzz smoke under ASan/UBSan + determinism,
#                        the command line, the exported symbols and a staged install
#   make conformance     every golden vector, and the conformance summary
#   make fuzz / afl      libFuzzer (clang) / AFL++ builds of the fuzz targets
#   make fuzz-smoke      each libFuzzer target for FUZZ_SECONDS under ASan/UBSan
#   make test T=cmdq     one unit test file (reference/tests/cmdq_test.c, or harness/tests/)
#   make install         libnicref.{so,a}, headers, nicref.pc, the tool and its man page under
#                        $(DESTDIR)$(PREFIX) (PREFIX=/usr/local); make uninstall removes them
# Variants build side by side: make BUILD=build/clang-O2 CC=clang OPT=-O2
# CPPFLAGS, CFLAGS and LDFLAGS (environment or command line) are added to the project's flags.

ifeq ($(origin CC),default)
CC      := gcc
endif
OPT     ?= -O2 -g
BUILD   ?= build/$(notdir $(CC))
SAN     ?=
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
# The user's CFLAGS come after OPT (they may change it) and before the standard and the
# warnings, which stay on whatever they say.
ALL_CFLAGS  = $(CPPFLAGS) $(OPT) $(CFLAGS) -std=c11 $(WARN) $(SAN) -fPIC -D_POSIX_C_SOURCE=200809L
ALL_LDFLAGS = $(SAN) $(LDFLAGS)
FUZZ_SECONDS ?= 60

# The version is written once, in nicref/version.h; the shared library is
# libnicref.so.MAJOR.MINOR.PATCH with SONAME libnicref.so.MAJOR.
VERSION_H     := reference/include/nicref/version.h
version_part   = $(shell awk '$$2 == "NICREF_VERSION_$(1)" { print $$3 }' $(VERSION_H))
VERSION_MAJOR := $(call version_part,MAJOR)
VERSION       := $(VERSION_MAJOR).$(call version_part,MINOR).$(call version_part,PATCH)
SONAME        := libnicref.so.$(VERSION_MAJOR)
ifneq ($(words $(subst ., ,$(VERSION))),3)
$(error cannot read the version from $(VERSION_H))
endif

# Every folder of reference/ but the tests: the layers of reference/layers.txt, a new one included
# as it comes.
REF_SRC  := $(sort $(filter-out reference/tests/%,$(wildcard reference/*/*.c)))
HAR_SRC  := $(sort $(filter-out harness/main.c harness/dut_wrap.c,$(wildcard harness/*.c)))
REF_OBJ  := $(REF_SRC:%.c=$(BUILD)/%.o)
# The VFIO front end's pure parts (the instruction decoder, the profile settings) serve the
# tool and the unit tests too.
VFIO_PURE := harness/vfio/x86_decode.c harness/vfio/vfio_profile.c
HAR_OBJ  := $(HAR_SRC:%.c=$(BUILD)/%.o) $(VFIO_PURE:%.c=$(BUILD)/%.o) $(BUILD)/gen/vector_schema.o
REF_INC  := -Ireference/include -Ireference
HAR_INC  := $(REF_INC) -Iharness
LIB_A    := $(BUILD)/libnicref.a
LIB_SO   := $(BUILD)/libnicref.so
LIB_SO_FILE := $(BUILD)/libnicref.so.$(VERSION)
PUB_HDR  := $(sort $(wildcard reference/include/nicref/*.h))
TOOL     := $(BUILD)/nicref
REF_TESTS := $(sort $(wildcard reference/tests/*_test.c))
HAR_TESTS := $(sort $(wildcard harness/tests/*_test.c))
# The tests' own library: every other .c of reference/tests (testlib.c), linked into each
# test program; its headers serve harness/tests too.
TEST_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(filter-out %_test.c,$(wildcard reference/tests/*.c)))
TEST_HDR := $(wildcard reference/tests/*.h harness/tests/*.h)
TEST_INC := $(HAR_INC) -Ireference/tests
FUZZ_TARGETS := $(patsubst fuzzers/%_fuzz.c,%,$(wildcard fuzzers/*_fuzz.c))
# The device-under-test interface (nicref/dut.h, docs/dut.md): libnicref as a DUT, and the
# interposition that gives a program the differential engine (harness/dut_diff.h): only the
# programs that offer --dut or NICREF_DUT link dut_wrap.o with these flags.
DUT_SO   := $(BUILD)/libnicref_dut.so
DUT_WRAP_OBJ := $(BUILD)/harness/dut_wrap.o
DUT_WRAP_SYMS := nicref_dev_create nicref_dev_destroy nicref_dev_reset nicref_bar_read32 \
	nicref_bar_write32 nicref_clock_advance nicref_wire_rx nicref_hostmem_write \
	nicref_hostmem_clear nicref_hostmem_fault
DUT_WRAP_LDFLAGS := $(foreach s,$(DUT_WRAP_SYMS),-Wl,--wrap=$(s))

.PHONY: all vfio drive-check deps check unit vectors conformance fuzz afl fuzz-smoke determinism docs-check \
	schema-check purity layers report-check pcap-check pcie-trace-check tx-gen-check rss-gen-check steer-gen-check rx-gen-check lro-gen-check qp-gen-check umem-gen-check eq-gen-check captures-check replay-check \
	test bench corpora coverage campaign campaign-check cflite-check \
	clean install \
	uninstall cli-check exports-check install-check flags-check dut-check repro-check mutation-bench
all: $(LIB_A) $(LIB_SO) $(TOOL) $(DUT_SO)

deps:
	@ci/deps.sh --check >/dev/null 2>&1 || ci/deps.sh

# `make -j4 clean all`: with clean among the goals, everything else waits for it (the goals and
# the flags stamp every object depends on have it as a prerequisite), so it never deletes what
# is being built.
CLEAN_FIRST := $(filter clean,$(MAKECMDGOALS))
ifneq ($(CLEAN_FIRST),)
ifneq ($(filter-out clean,$(MAKECMDGOALS)),)
$(filter-out clean,$(MAKECMDGOALS)): clean
endif
endif

# Only what nicref/*.h declares with NICREF_API leaves libnicref.so (ci/check_exports.sh).
LIB_VISIBILITY := -fvisibility=hidden
$(REF_OBJ) $(BUILD)/dut/nicref_dut.o: VISIBILITY := $(LIB_VISIBILITY)

# Objects are rebuilt when the compiler or its flags change: the stamp's text is the command
# line, and the file is rewritten only when that differs.
FLAGS_STAMP := $(BUILD)/cflags.txt
FLAGS_TEXT   = $(CC) $(ALL_CFLAGS) $(HAR_INC) [library: $(LIB_VISIBILITY)]
$(FLAGS_STAMP): FORCE $(CLEAN_FIRST)
	@mkdir -p $(dir $@)
	@echo '$(FLAGS_TEXT)' | cmp -s - $@ || echo '$(FLAGS_TEXT)' >$@
FORCE:

$(BUILD)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(VISIBILITY) $(HAR_INC) -MMD -MP -c $< -o $@

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

# -z defs: the library needs nothing but libc (not checkable under sanitizers, whose runtime
# the executable brings).
comma := ,
$(LIB_SO_FILE): $(REF_OBJ)
	$(CC) -shared $(ALL_LDFLAGS) -Wl$(comma)-soname$(comma)$(SONAME) \
		$(if $(SAN),,-Wl$(comma)-z$(comma)defs) -o $@ $^
$(LIB_SO): $(LIB_SO_FILE)
	ln -sf $(notdir $<) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $@

$(TOOL): $(BUILD)/harness/main.o $(HAR_OBJ) $(DUT_WRAP_OBJ) $(LIB_A)
	$(CC) $(ALL_LDFLAGS) $(DUT_WRAP_LDFLAGS) -o $@ $^ -ljansson -lpcap -ldl

# libnicref as a device under test: the adapter over the whole model, exporting only the entry
# point (dut/libnicref_dut.map).
$(DUT_SO): $(BUILD)/dut/nicref_dut.o $(REF_OBJ) dut/libnicref_dut.map
	$(CC) -shared $(ALL_LDFLAGS) -Wl$(comma)--version-script=dut/libnicref_dut.map \
		$(if $(SAN),,-Wl$(comma)-z$(comma)defs) -o $@ $(filter %.o,$^)

# Mutant DUTs: libnicref with one deliberate bug each (harness/tests/mutants/NAME.patch, which
# patches .c files of reference/ only), for the proof that the differential runs catch bugs
# (make dut-check). The model's sources are never touched: the patch applies to a copy of
# reference/ under $(BUILD)/mutants/NAME/, the files it patches are compiled from the copy and
# take the place of their objects in build/…/libnicref_dut_NAME.so.
MUTANTS := $(sort $(patsubst harness/tests/mutants/%.patch,%,$(wildcard harness/tests/mutants/*.patch)))
MUTANT_SO := $(MUTANTS:%=$(BUILD)/mutants/libnicref_dut_%.so)
mutant_files = $(shell sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' harness/tests/mutants/$(1).patch)
define mutant_rule
$(BUILD)/mutants/libnicref_dut_$(1).so: harness/tests/mutants/$(1).patch $(BUILD)/dut/nicref_dut.o \
		$(REF_OBJ) dut/libnicref_dut.map
	@case "$(call mutant_files,$(1))" in ""|*[!c][[:space:]]*|*[!c]) \
		echo "mutant $(1): the patch must change .c files of reference/ only" >&2; exit 1;; esac
	@rm -rf $(BUILD)/mutants/$(1) && mkdir -p $(BUILD)/mutants/$(1)
	@cp -R reference $(BUILD)/mutants/$(1)/
	@patch -s -p1 -d $(BUILD)/mutants/$(1) --no-backup-if-mismatch <$$< || { \
		echo "mutant $(1): $$< no longer applies to reference/: update it" >&2; exit 1; }
	@for f in $(call mutant_files,$(1)); do \
		$(CC) $(ALL_CFLAGS) $(LIB_VISIBILITY) -I$(BUILD)/mutants/$(1)/reference/include \
			-I$(BUILD)/mutants/$(1)/reference -c $(BUILD)/mutants/$(1)/$$$$f \
			-o $(BUILD)/mutants/$(1)/$$$${f%.c}.o || exit 1; done
	$(CC) -shared $(ALL_LDFLAGS) -Wl$(comma)--version-script=dut/libnicref_dut.map -o $$@ \
		$(BUILD)/dut/nicref_dut.o $(filter-out $(patsubst %.c,$(BUILD)/%.o,$(call mutant_files,$(1))),$(REF_OBJ)) \
		$(patsubst %.c,$(BUILD)/mutants/$(1)/%.o,$(call mutant_files,$(1)))
endef
$(foreach m,$(MUTANTS),$(eval $(call mutant_rule,$(m))))

# libnicref_vfio.so, the VFIO front end a driver's process loads with LD_PRELOAD
# (harness/vfio/, docs/drivers.md): libnicref inside, only the interposed libc functions
# exported. Not built under sanitizers: their runtime cannot be preloaded into a program
# built without them.
VFIO_SO  := $(BUILD)/libnicref_vfio.so
VFIO_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard harness/vfio/*.c))
$(VFIO_OBJ): VISIBILITY := $(LIB_VISIBILITY)
$(VFIO_SO): $(VFIO_OBJ) $(LIB_A)
	$(CC) -shared $(LDFLAGS) -Wl$(comma)--exclude-libs$(comma)ALL -o $@ $(VFIO_OBJ) $(LIB_A) -ldl

# Programs run under `nicref drive`: harness/drivers/ (M1: rdma-core's mlx5_vfio through
# Debian's libibverbs and libmlx5) and the deliberately wrong ones of harness/drivers/bad/.
BAD_DRIVERS := $(patsubst harness/drivers/bad/%.c,$(BUILD)/drivers/%,$(wildcard harness/drivers/bad/*.c))
DRIVERS := $(BUILD)/drivers/mlx5_vfio_smoke $(BUILD)/drivers/mlx5_vfio_devx \
	$(BUILD)/drivers/mlx5_vfio_traffic $(BAD_DRIVERS)
$(BUILD)/drivers/mlx5_vfio_%: harness/drivers/mlx5_vfio_%.c harness/drivers/devx_util.h $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS) -libverbs -lmlx5
$(BUILD)/drivers/%: harness/drivers/bad/%.c harness/drivers/bad/vfio_util.h $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS)
vfio: $(VFIO_SO) $(DRIVERS)

# `nicref drive` on M1 (rdma-core's mlx5_vfio) and the deliberately wrong drivers: the reported
# rules must equal harness/drivers/expect/ (ci/check_drive.sh, docs/drivers.md).
drive-check: $(TOOL) $(VFIO_SO) $(DRIVERS)
	ci/check_drive.sh $(TOOL) $(BUILD)/drivers
all: $(if $(SAN),,$(VFIO_SO))

# Unit tests: Criterion. All *_test.c files link into one runner (one synthesis line);
# `make test T=cmdq` builds and runs reference/tests/cmdq_test.c (or harness/tests/) alone.
UNIT_BIN := $(BUILD)/tests/unit_tests
$(UNIT_BIN): $(REF_TESTS) $(HAR_TESTS) $(TEST_HDR) $(TEST_OBJ) $(HAR_OBJ) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) $(REF_TESTS) $(HAR_TESTS) -o $@ $(TEST_OBJ) $(HAR_OBJ) \
		$(LIB_A) $(ALL_LDFLAGS) -lcriterion -ljansson -lpcap -ldl
$(BUILD)/tests/%_test: reference/tests/%_test.c $(TEST_HDR) $(TEST_OBJ) $(HAR_OBJ) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) $< -o $@ $(TEST_OBJ) $(HAR_OBJ) $(LIB_A) $(ALL_LDFLAGS) -lcriterion -ljansson -lpcap -ldl
$(BUILD)/tests/%_test: harness/tests/%_test.c $(TEST_HDR) $(TEST_OBJ) $(HAR_OBJ) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) $< -o $@ $(TEST_OBJ) $(HAR_OBJ) $(LIB_A) $(ALL_LDFLAGS) -lcriterion -ljansson -lpcap -ldl

# make check runs everything under ASan+UBSan (clang) in its own build tree, and ends with the
# Criterion synthesis and the vectors' closing line.
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_VARS  := BUILD=build/san CC=clang OPT="-O1 -g" SAN="$(SAN_FLAGS)"
check: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory schema-check docs-check purity layers report-check pcap-check
	@$(MAKE) --no-print-directory pcie-gen-check
	@$(MAKE) --no-print-directory tx-gen-check rss-gen-check steer-gen-check rx-gen-check lro-gen-check qp-gen-check umem-gen-check roce-gen-check adp-gen-check eq-gen-check captures-check
	@$(MAKE) --no-print-directory replay-check pcie-trace-check
	@$(MAKE) --no-print-directory cli-check exports-check install-check flags-check drive-check
	@$(MAKE) --no-print-directory roce-check
	@$(MAKE) --no-print-directory determinism
	@$(MAKE) --no-print-directory fuzz-smoke FUZZ_SECONDS=$(or $(CHECK_FUZZ_SECONDS),45)
	@$(MAKE) --no-print-directory campaign-check cflite-check
	@$(MAKE) --no-print-directory dut-check
	@$(MAKE) --no-print-directory repro-check
	@$(MAKE) --no-print-directory -j2 $(SAN_VARS) build/san/nicref build/san/tests/unit_tests
	@$(MAKE) --no-print-directory $(SAN_VARS) unit vectors

# Criterion runs each test in a child process and counts a child that leaked (LeakSanitizer) or
# tripped another sanitizer report it survived as passing: the log is read too, so a sanitizer
# report fails the run.
unit: $(UNIT_BIN)
	@$(UNIT_BIN) --jobs 2 >$(BUILD)/tests/unit.log 2>&1; rc=$$?; cat $(BUILD)/tests/unit.log; \
	if grep -q "ERROR: [A-Za-z]*Sanitizer\|runtime error:" $(BUILD)/tests/unit.log; then \
		echo "unit: a sanitizer reported a problem (above)" >&2; exit 1; fi; exit $$rc

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

# Layers point down (reference/layers.txt): every #include "…" of reference/ and every symbol
# the library's objects use (nm).
layers: $(LIB_A)
	/usr/bin/python3 ci/check_layers.py $(BUILD)

# JUnit XML and JSON reports of a real run, against docs/schemas/ (xmllint, jsonschema).
report-check: $(TOOL)
	/usr/bin/python3 ci/check_reports.py $(TOOL)

# The frames of the send-path vectors (vectors/tx/) in a pcap, which tshark must dissect without
# a malformed packet (skipped while the folder or tshark is absent).
pcap-check: $(TOOL)
	ci/check_pcap.sh $(TOOL) vectors/tx

# `nicref adp check` on every capture of corpora/captures/expected.json (the generated captures
# of issue 21): exit status, summary, flows and messages as the generator expects (skipped while
# the file is not in the tree).
# corpora/captures/ is the output of its independent generator (byte for byte) and tshark reads
# every capture as the expected summaries say; then nicref's adp check meets every expectation.
captures-check: $(TOOL)
	/usr/bin/python3 corpora/captures/test_gen_captures.py
	/usr/bin/python3 ci/check_captures.py $(TOOL) corpora/captures/expected.json

# `nicref roce check` (docs/roce_check.md) on every capture of corpora/roce_captures/: the
# captures and expected.json are the output of their independent generator (byte for byte; its
# model agrees with what each scenario injected), Wireshark's dissector reads their headers as
# the model does, and nicref meets every expectation.
.PHONY: roce-check
roce-check: $(TOOL)
	cd corpora/roce_captures/gen && /usr/bin/python3 gen_roce_captures.py --check
	cd corpora/roce_captures/gen && /usr/bin/python3 test_tshark.py
	/usr/bin/python3 ci/check_roce_captures.py $(TOOL) corpora/roce_captures/expected.json

# nicref replay (docs/replay.md): each example against its independent prediction
# (examples/replay/predict.py), --expect with injected disagreements and its reports, bad input.
replay-check: $(TOOL)
	/usr/bin/python3 ci/check_replay.py $(TOOL)

# `nicref pcie check` on every trace of examples/pcie/expected.json (the example link traces of
# issue 18, written with their verdicts by an independent Python model): each direction's
# verdict as the file expects it (skipped while the file is not in the tree).
pcie-trace-check: $(TOOL)
	/usr/bin/python3 ci/check_pcie_traces.py $(TOOL) examples/pcie/expected.json

# The send-path vectors are the output of their independent generator (vectors/tx/gen/, Python and
# Scapy): a file that differs from what the generator writes (a hand edit) fails, and so does the
# generator's self-check (every expectation derived again by hand, raw WQEs parsed back, a
# violation matched by the clause its test cites).
tx-gen-check:
	/usr/bin/python3 vectors/tx/gen/gen_tx.py --check
	/usr/bin/python3 vectors/tx/gen/test_gen_tx.py

# The receive parser's and RSS's unit-test tables are the output of their independent generator
# (reference/tests/gen/rss_gen.py, Scapy, a Toeplitz checked against Microsoft's published RSS
# verification values before anything is written): a table that differs from its output fails.
rss-gen-check:
	/usr/bin/python3 reference/tests/gen/rss_gen.py --check

# vectors/steer is the output of its generator (vectors/steer/gen/steer_gen.py, from the PRM).
steer-gen-check:
	@rm -rf $(BUILD)/steer-gen && mkdir -p $(BUILD)/steer-gen
	/usr/bin/python3 vectors/steer/gen/steer_gen.py --check $(BUILD)/steer-gen
	diff -r -x gen -x README.md $(BUILD)/steer-gen vectors/steer > /dev/null || \
		{ echo "steer-gen-check: vectors/steer differs from vectors/steer/gen/steer_gen.py's output (regenerate it)"; exit 1; }
	@echo "steer-gen-check: vectors/steer is the generator's output"

# The receive-path vectors (vectors/rx/*.json and frames.pcap) are the output of their
# independent generator (vectors/rx/gen/gen_rx.py, Scapy, its own Toeplitz checked against
# Microsoft's published verification values): a file that differs from its output fails.
rx-gen-check:
	/usr/bin/python3 vectors/rx/gen/gen_rx.py --check

# The LRO vectors and the example capture (examples/lro/) are the output of their independent
# generator (vectors/lro/gen/gen_lro.py, Scapy and a Python model of PRM §3.3.6): a file that
# differs from its output fails, and so does the generator's self-check.
lro-gen-check:
	/usr/bin/python3 vectors/lro/gen/gen_lro.py --check
	/usr/bin/python3 vectors/lro/gen/test_gen_lro.py

# The PCIe data link layer vectors (vectors/pcie/*.json) and example traces (examples/pcie/) are
# the output of their independent generator (vectors/pcie/gen, a Python model of seed 003 with
# its LCRC cross-checked against zlib.crc32): a file that differs from its output fails.
.PHONY: pcie-gen-check
pcie-gen-check:
	/usr/bin/python3 vectors/pcie/gen/gen_pcie.py --check
	/usr/bin/python3 vectors/pcie/gen/gen_traces.py --check
	/usr/bin/python3 vectors/pcie/gen/test_gen_pcie.py

# The QP command vectors (vectors/qp/*.json) are the output of their independent generator
# (vectors/qp/gen/gen_qp.py, from the public mlx5 interface, the IBTA QP state machine and
# seed 004 only): a file that differs from its output fails, and so does the self-check that
# replays every vector against a second transcription of the state machine and opt_mask.
qp-gen-check:
	/usr/bin/python3 vectors/qp/gen/gen_qp.py --check
	/usr/bin/python3 vectors/qp/gen/test_gen_qp.py

# The ADP timelines (vectors/adp/timeline_*.json, expected values worked out by hand from the
# seeds) agree with an independent Python model of the seeds (vectors/adp/gen/, which never reads
# reference/ or harness/): every attempt, the end and the counters, under each vector's options
# and under both readings of D-ADP-14's timeout_retry_num after progress (an any_of of both
# wherever they differ).
.PHONY: adp-gen-check
adp-gen-check:
	/usr/bin/python3 vectors/adp/gen/adp_indep.py

# The EQ and CQ vectors (vectors/eq/*.json, vectors/cq/*.json) are the output of their generators
# (vectors/eq/gen/, from the PRM's rules: owner bit, signature, field positions, statuses): a file
# that differs from what its generator writes (a hand edit) fails.
EQ_GEN := gen_eq.py:vectors/eq/eq.json gen_eq_events.py:vectors/eq/events.json \
	gen_cq.py:vectors/cq/cq.json gen_cqe.py:vectors/cq/cqe.json
eq-gen-check:
	@mkdir -p $(BUILD)/eq-gen
	@for g in $(EQ_GEN); do \
		py=$${g%%:*}; out=$${g#*:}; \
		/usr/bin/python3 vectors/eq/gen/$$py $(BUILD)/eq-gen/$$(basename $$out) > /dev/null || exit 1; \
		cmp -s $(BUILD)/eq-gen/$$(basename $$out) $$out || \
			{ echo "eq-gen-check: $$out differs from vectors/eq/gen/$$py's output (regenerate it)"; exit 1; }; \
	done
	@echo "eq-gen-check: vectors/eq and vectors/cq are the generators' output"

# vectors/umem is the output of its independent generator (mlx5_ifc.h, devx.c, PRM T128).
umem-gen-check:
	/usr/bin/python3 vectors/umem/gen/gen_umem.py --check

# The RoCE transport vectors (vectors/roce/*.json) are the output of their independent generator
# (vectors/roce/gen/gen_roce.py: a Python model of IBTA Vol. 1, its RoCEv2 Annex A17 and seed 004,
# frames by Scapy): a file that differs from its output fails, and so does the self-check (the
# ICRC against a ConnectX-4 Lx capture and Scapy's, every frame of the vectors parsed back).
.PHONY: roce-gen-check
roce-gen-check:
	/usr/bin/python3 vectors/roce/gen/gen_roce.py --check
	/usr/bin/python3 vectors/roce/gen/test_gen_roce.py

docs-check: $(TOOL)
	ci/check_conformance_doc.sh $(TOOL)
	ci/check_standalone_docs.sh

determinism:
	ci/determinism.sh

fuzz:
	@$(MAKE) --no-print-directory -f fuzzers/fuzz.mk fuzz

# The device-under-test proof (harness/tests/dut_check.sh): the unmodified libnicref_dut.so
# shows no difference, each mutant is caught by the vectors and by a short differential fuzz
# run (the libFuzzer builds of the targets it uses).
DUT_CHECK_TARGETS := rx tx ctrl
dut-check: $(TOOL) $(DUT_SO) $(MUTANT_SO)
	@$(MAKE) --no-print-directory -f fuzzers/fuzz.mk $(DUT_CHECK_TARGETS:%=build/fuzz/%_fuzz)
	CC="$(CC)" harness/tests/dut_check.sh $(TOOL) $(DUT_SO) $(BUILD)/mutants build/fuzz

# nicref repro (docs/repro.md): seeded findings (mutants of dut-check found by a short
# differential fuzz run) turned into draft vectors that pass against the model and fail against
# the mutant, and a pcap tshark reads (harness/tests/repro_check.sh, ~10 s after the builds).
REPRO_CHECK_MUTANTS := cqe_byte_cnt_misplaced rqt_pow2_unchecked
repro-check: $(TOOL) $(DUT_SO) $(REPRO_CHECK_MUTANTS:%=$(BUILD)/mutants/libnicref_dut_%.so)
	@$(MAKE) --no-print-directory -f fuzzers/fuzz.mk build/fuzz/rx_fuzz build/fuzz/ctrl_fuzz \
		build/replay/rx_fuzz build/replay/ctrl_fuzz build/replay/tests/broken_target
	harness/tests/repro_check.sh $(TOOL) $(DUT_SO) $(BUILD)/mutants build/fuzz build/replay

# The mutation benchmark (ci/mutants.py, docs/fuzzing.md): a seeded sample of operator, constant
# and condition mutants per module of reference/, each built as a DUT as dut-check's mutants
# are, killed by the vectors (nicref vectors --dut) and by a fixed-time differential fuzz run.
# Not part of make check: ~15 minutes with the defaults on two cores.
MUTANTS_PER_MODULE ?= 8
MUTANTS_SEED ?= 1
MUTANTS_FUZZ_SECONDS ?= 8
mutation-bench: $(TOOL) $(DUT_SO)
	@$(MAKE) --no-print-directory -f fuzzers/fuzz.mk build/fuzz/cmd_fuzz build/fuzz/cmdq_fuzz \
		build/fuzz/ctrl_fuzz build/fuzz/rx_fuzz build/fuzz/tx_fuzz
	/usr/bin/python3 ci/mutants.py bench --build $(BUILD) --cc $(CC) --fuzz-dir build/fuzz \
		--per-module $(MUTANTS_PER_MODULE) --seed $(MUTANTS_SEED) \
		--fuzz-seconds $(MUTANTS_FUZZ_SECONDS) --out $(BUILD)/mutbench

afl:
	@$(MAKE) --no-print-directory -f fuzzers/fuzz.mk afl

fuzz-smoke:
	@$(MAKE) --no-print-directory -f fuzzers/fuzz.mk smoke FUZZ_SECONDS=$(FUZZ_SECONDS)

# A fuzz campaign (ci/campaign.py, docs/fuzzing.md): every target for HOURS / targets on JOBS
# cores (libFuzzer fork mode, or AFL++ with FUZZ_ENGINE=afl), corpora merged into a store kept
# between campaigns (build/campaign/corpus), findings deduplicated by stack, a report in
# build/campaign/<UTC stamp>/report.html (build/campaign/latest). Exit 1 on findings.
# TARGETS=cmd,ctrl limits it; PROMOTE=1 merges the store into corpora/ for review.
HOURS ?= 8
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_ENGINE ?= libfuzzer
campaign:
	/usr/bin/python3 ci/campaign.py --hours $(HOURS) --jobs $(JOBS) --engine $(FUZZ_ENGINE) \
		$(if $(TARGETS),--targets $(TARGETS)) $(if $(filter 1,$(PROMOTE)),--promote)

# The campaign's triage on a target that breaks on purpose: six inputs, four findings.
campaign-check:
	@$(MAKE) --no-print-directory -f fuzzers/fuzz.mk build/fuzz/tests/broken_target
	/usr/bin/python3 ci/campaign.py --selftest

# The ClusterFuzzLite / OSS-Fuzz build script (ci/cflite_build.sh, run by .clusterfuzzlite/
# build.sh) with $CC $CFLAGS $LIB_FUZZING_ENGINE $OUT set, no container: every target built,
# each variable honoured, seed corpora, dictionaries and options written (build/cflite/).
cflite-check:
	ci/cflite_check.sh build/cflite

# Seed inputs exported from the golden vectors (op streams and command inputs) into
# build/corpora/{cmdq,cmd}/; the committed corpora/ are left as they are. To keep the exports
# that add coverage: make -f fuzzers/fuzz.mk corpora-merge (fuzzers/README.md).
corpora: $(TOOL)
	@rm -rf build/corpora && mkdir -p build/corpora/cmdq build/corpora/cmd
	$(TOOL) vectors --corpus build/corpora vectors/

# Speed figures live here, never in unit tests.
BENCH := $(BUILD)/harness/bench/cmdq_bench
$(BENCH): harness/bench/cmdq_bench.c $(BUILD)/harness/cmdbuild.o $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(HAR_INC) $^ -o $@ $(ALL_LDFLAGS)
OBJ_BENCH := $(BUILD)/harness/bench/obj_bench
$(OBJ_BENCH): harness/bench/obj_bench.c $(BUILD)/harness/driver.o $(BUILD)/harness/cmdbuild.o $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(HAR_INC) $^ -o $@ $(ALL_LDFLAGS)
CTRL_BENCH := $(BUILD)/harness/bench/ctrl_bench
$(CTRL_BENCH): harness/bench/ctrl_bench.c $(filter $(BUILD)/harness/driver%.o $(BUILD)/harness/cmdbuild.o,$(HAR_OBJ)) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(HAR_INC) $^ -o $@ $(ALL_LDFLAGS)
TX_BENCH := $(BUILD)/harness/bench/tx_bench
$(TX_BENCH): harness/bench/tx_bench.c harness/bench/alloc_count.h $(filter $(BUILD)/harness/driver%.o $(BUILD)/harness/cmdbuild.o,$(HAR_OBJ)) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(HAR_INC) $(filter-out %.h,$^) -o $@ $(ALL_LDFLAGS)
RX_BENCH := $(BUILD)/harness/bench/rx_bench
$(RX_BENCH): harness/bench/rx_bench.c harness/bench/alloc_count.h $(filter $(BUILD)/harness/driver%.o $(BUILD)/harness/cmdbuild.o,$(HAR_OBJ)) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(HAR_INC) $(filter-out %.h,$^) -o $@ $(ALL_LDFLAGS)
LRO_BENCH := $(BUILD)/harness/bench/lro_bench
$(LRO_BENCH): harness/bench/lro_bench.c harness/bench/alloc_count.h $(filter $(BUILD)/harness/driver%.o $(BUILD)/harness/cmdbuild.o,$(HAR_OBJ)) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(HAR_INC) $(filter-out %.h,$^) -o $@ $(ALL_LDFLAGS)
ADP_BENCH := $(BUILD)/harness/bench/adp_check_bench
$(ADP_BENCH): harness/bench/adp_check_bench.c $(HAR_OBJ) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(HAR_INC) $(filter-out %.h,$^) -o $@ $(ALL_LDFLAGS) -ljansson -lpcap -ldl
DLL_BENCH := $(BUILD)/harness/bench/dll_bench
$(DLL_BENCH): harness/bench/dll_bench.c $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(HAR_INC) $^ -o $@ $(ALL_LDFLAGS)
ROCE_BENCH := $(BUILD)/harness/bench/roce_bench
$(ROCE_BENCH): harness/bench/roce_bench.c $(filter $(BUILD)/harness/driver%.o $(BUILD)/harness/cmdbuild.o,$(HAR_OBJ)) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(HAR_INC) $^ -o $@ $(ALL_LDFLAGS)
bench: $(BENCH) $(OBJ_BENCH) $(CTRL_BENCH) $(TX_BENCH) $(RX_BENCH) $(LRO_BENCH) $(ADP_BENCH) $(DLL_BENCH) $(ROCE_BENCH) $(TOOL)
	$(BENCH)
	$(OBJ_BENCH)
	$(CTRL_BENCH)
	$(TX_BENCH)
	$(RX_BENCH)
	$(LRO_BENCH)
	$(ADP_BENCH) $(BUILD)/adp_check_bench.pcap
	/usr/bin/python3 harness/bench/replay_bench.py $(TOOL) $(BUILD)
	$(DLL_BENCH)
	$(ROCE_BENCH)

# Line and branch coverage of reference/ (gcovr HTML, ci/coverage.sh): one report per slice (the
# unit tests, the vectors, each fuzz target's corpora/<t>/ plus the campaign store's <t>/) and
# merged (vectors+corpora, all), listed in build/cov/index.html. COV_STORE=DIR: another store.
COV_VARS := BUILD=build/cov CC=gcc OPT="-O0 -g" SAN="--coverage"
COV_STORE ?= build/campaign/corpus
coverage: deps
	@rm -rf build/cov
	@$(MAKE) --no-print-directory -j2 $(COV_VARS) build/cov/nicref build/cov/tests/unit_tests
	ci/coverage.sh build/cov $(COV_STORE)

# The command line: every command's --help, usage errors, --opt=value, --version, the man page.
cli-check: $(TOOL)
	ci/check_cli.sh $(TOOL) docs/nicref.1

# libnicref.so exports nicref_* only, and every function its headers declare.
exports-check: $(LIB_SO)
	CC="$(CC)" ci/check_exports.sh $(LIB_SO_FILE) $(SONAME) $(PUB_HDR)

# An install staged under $(STAGE), and a program built against it through pkg-config.
STAGE := $(CURDIR)/$(BUILD)/stage
install-check: all
	@rm -rf $(STAGE)
	@$(MAKE) --no-print-directory -s install DESTDIR=$(STAGE) PREFIX=/usr
	CC="$(CC)" ci/check_install.sh $(STAGE) /usr $(VERSION)

# The user's CPPFLAGS, CFLAGS and LDFLAGS are added to the project's (a dry run).
flags-check:
	ci/check_flags.sh

# make install [PREFIX=/usr/local] [DESTDIR=]; LIBDIR and the others may be set one by one.
PREFIX       ?= /usr/local
BINDIR       ?= $(PREFIX)/bin
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
MANDIR       ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# nicref.pc says ${prefix}/... for what lies under the prefix.
pc_path = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/nicref \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(TOOL) $(DESTDIR)$(BINDIR)/nicref
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/libnicref.a
	install -m 755 $(LIB_SO_FILE) $(DESTDIR)$(LIBDIR)/libnicref.so.$(VERSION)
	ln -sf libnicref.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libnicref.so
	install -m 644 $(PUB_HDR) $(DESTDIR)$(INCLUDEDIR)/nicref/
	sed -e '/^#/d' -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call pc_path,$(LIBDIR))|' \
		-e 's|@INCLUDEDIR@|$(call pc_path,$(INCLUDEDIR))|' -e 's|@VERSION@|$(VERSION)|' \
		nicref.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/nicref.pc
	install -m 644 docs/nicref.1 $(DESTDIR)$(MANDIR)/man1/nicref.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/nicref $(DESTDIR)$(LIBDIR)/libnicref.a \
		$(DESTDIR)$(LIBDIR)/libnicref.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME) \
		$(DESTDIR)$(LIBDIR)/libnicref.so $(DESTDIR)$(PKGCONFIGDIR)/nicref.pc \
		$(DESTDIR)$(MANDIR)/man1/nicref.1 \
		$(patsubst reference/include/%,$(DESTDIR)$(INCLUDEDIR)/%,$(PUB_HDR))
	-rmdir $(DESTDIR)$(INCLUDEDIR)/nicref

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
