# Read by ci/cflite_build.sh beside fuzzers/fuzz.mk (make -f fuzzers/fuzz.mk -f ci/cflite_vars.mk
# cflite-vars): the sources, include flags, standard and warnings, and link wraps of the fuzz
# builds, so the ClusterFuzzLite build compiles exactly what `make fuzz` compiles and a source
# added there needs no edit here.
.PHONY: cflite-vars
cflite-vars:
	@echo 'LIB_SRC=$(LIB_SRC) $(COMMON_SRC) $(DUT_SRC)'
	@echo 'TARGETS=$(FUZZ_TARGETS)'
	@echo 'INC=$(INC)'
	@echo 'BASE=$(BASE)'
	@echo 'WRAP=$(WRAP)'
