/* The send-path steps of docs/vectors.md ("Send path"): tx_setup, wqe, sq_ring (through the
 * model's doorbell layer, which reports every send doorbell as an sq_doorbell event), cqes (CQEs
 * that a mem_write puts in the CQ buffer stand in for the send engine's), frames (frames handed
 * to the runner's ops.wire_tx directly stand in for the engine's), and --pcap. */
/* pcap.h uses the BSD types u_int/u_char, which -D_POSIX_C_SOURCE hides in glibc. */
#define _DEFAULT_SOURCE 1
#include <pcap/pcap.h>

#include "pcap_write.h"
#include "vectest.h"
#include "vectors_int.h"

/* One test whose group sets up the device and the send queue (tx_setup keys tx). */
#define TX_ONE_WITH(tx, steps)                                                                   \
	VT_HEAD("") "\"numberOfTests\":1,\"testGroups\":[{\"setup\":[{\"bring_up\":{\"to\":"      \
		    "\"initialized\"}},{\"tx_setup\":{" tx "}}],\"tests\":[{\"tcId\":7,\"comment\":"   \
		    "\"c\",\"cite\":\"PRM §7.4.3.1\",\"flags\":[],\"result\":\"valid\",\"steps\":["  \
		    steps "]}]}]}"
#define TX_ONE(steps) TX_ONE_WITH("", steps)

static int run_tx(const char *json, struct vt *t)
{
	vt_run(t, json);
	return t->rc;
}

#define expect_run(json, rc)                                                                    \
	do {                                                                                    \
		struct vt t_;                                                                   \
		cr_expect_eq(run_tx((json), &t_), (rc), "%s", t_.out);                          \
		vt_free(&t_);                                                                   \
	} while (0)

#define SQ_DOORBELL(idx, op, ds, bf)                                                            \
	"{\"event\":\"sq_doorbell\",\"wqe_index\":" #idx ",\"opcode\":" #op ",\"ds\":" #ds       \
	",\"bf\":" #bf "}"

/* ---- tx_setup ---- */

Test(vectors_tx, tx_setup_places_the_stack_where_the_docs_say)
{
	/* §7.12.3.1: the CQ buffer at 0x30800000, every CQE owned by hardware (0xF1); the SQ's
	 * doorbell record at 0x31010000 zeroed (§7.4.2); no event of the stack is the test's. */
	expect_run(TX_ONE("{\"mem_expect\":{\"addr\":\"0x3080003f\",\"hex\":\"f1\"}},"
			  "{\"mem_expect\":{\"addr\":\"0x30800fff\",\"hex\":\"f1\"}},"
			  "{\"mem_expect\":{\"addr\":\"0x31010000\",\"hex\":\"0000000000000000\"}},"
			  "{\"events\":{\"expect\":[],\"exact\":true}}"),
		   VEC_PASSED);
	/* cqe_sz 1: 128-byte CQEs, op_own the last byte of each (D-CQE-2). */
	expect_run(TX_ONE_WITH("\"cqe_sz\":1,\"log_cq_size\":2",
			       "{\"mem_expect\":{\"addr\":\"0x3080007f\",\"hex\":\"f1\"}},"
			       "{\"mem_expect\":{\"addr\":\"0x308001ff\",\"hex\":\"f1\"}}"),
		   VEC_PASSED);
	expect_run(TX_ONE("{\"mem_expect\":{\"addr\":\"0x3080003f\",\"hex\":\"f0\"}}"), VEC_FAILED);
}

Test(vectors_tx, tx_setup_in_the_test_after_its_own_bring_up)
{
	expect_run(VT_ONE("{\"tx_setup\":{\"log_sq_size\":3}},{\"wqe\":{\"opcode\":\"NOP\"}},"
			  "{\"events\":{\"expect\":[" SQ_DOORBELL(0, 0, 1, 0) "],\"exact\":true}}"),
		   VEC_PASSED);
}

/* One test on a device whose group sets `profile` (keys p) and the send queue (tx_setup keys tx). */
#define TX_ONE_ON(p, tx, steps)                                                                  \
	VT_HEAD("") "\"numberOfTests\":1,\"testGroups\":[{\"profile\":{" p "},\"setup\":[{"     \
		    "\"bring_up\":{\"to\":\"initialized\"}},{\"tx_setup\":{" tx "}}],\"tests\":[{"   \
		    "\"tcId\":7,\"comment\":\"c\",\"cite\":\"PRM §7.4.3.1\",\"flags\":[],\"result\":" \
		    "\"valid\",\"steps\":[" steps "]}]}]}"
/* QUERY_SQ of SQ 1: its context's min_wqe_inline_mode (T61) is m. */
#define SQ_INLINE_IS(m)                                                                          \
	"{\"command\":{\"layout\":\"query_sq_in\",\"fields\":{\"opcode\":\"QUERY_SQ\",\"sqn\":1}," \
	"\"output_length\":\"0x118\",\"expect\":{\"status\":\"OK\",\"output\":{\"layout\":"       \
	"\"query_sq_out\",\"fields\":{\"min_wqe_inline_mode\":" #m "}}}}}"

Test(vectors_tx, tx_setup_inline_mode_defaults_to_the_vports)
{
	/* Absent: the SQ takes the vport's minimum (§7.9.3), L2 on the default device (D-VP-3)
	 * and the profile's vport_min_wqe_inline_mode otherwise. */
	expect_run(TX_ONE(SQ_INLINE_IS(1)), VEC_PASSED);
	expect_run(TX_ONE_ON("\"vport_min_wqe_inline_mode\":3", "", SQ_INLINE_IS(3)), VEC_PASSED);
	expect_run(TX_ONE_ON("\"vport_min_wqe_inline_mode\":3", "", SQ_INLINE_IS(1)), VEC_FAILED);
}

Test(vectors_tx, tx_setup_inline_mode_sets_the_sqs_only)
{
	/* Given: the SQ's (T61), at or above the vport's; the vport keeps its own (QUERY of the
	 * context: T16 00h[26:24] still L2). */
	expect_run(TX_ONE_WITH("\"min_wqe_inline_mode\":2",
			       SQ_INLINE_IS(2) ",{\"command\":{\"layout\":\"query_nic_vport_context_in\","
			       "\"fields\":{\"opcode\":\"QUERY_NIC_VPORT_CONTEXT\"},\"output_length\":"
			       "\"0x110\",\"expect\":{\"status\":\"OK\",\"output\":{\"layout\":"
			       "\"query_nic_vport_context_out\",\"fields\":{\"min_wqe_inline_mode\":1}}}}}"),
		   VEC_PASSED);
	/* 0 on a vport of minimum 0 (profile); on the default vport CREATE_SQ refuses it
	 * (§7.9.3 "will fail"): the tx_setup fails the test. */
	expect_run(TX_ONE_ON("\"vport_min_wqe_inline_mode\":0", "\"min_wqe_inline_mode\":0",
			     SQ_INLINE_IS(0)),
		   VEC_PASSED);
	expect_run(TX_ONE_WITH("\"min_wqe_inline_mode\":0", SQ_INLINE_IS(0)), VEC_FAILED);
}

/* ---- wqe and sq_ring ---- */

Test(vectors_tx, a_nop_rung_by_the_doorbell)
{
	/* T26: wqe_index 0 (the producer counter), opcode 0, ds 1; not through Blue Flame. (Not
	 * exact: what the send engine does with the NOP follows.) */
	expect_run(TX_ONE("{\"wqe\":{\"opcode\":\"NOP\",\"ctrl\":{\"ce\":2}}},"
			  "{\"events\":{\"expect\":[" SQ_DOORBELL(0, 0, 1, 0) "]}}"),
		   VEC_PASSED);
	/* The opcode as a number; the next WQE at WQEBB 1. */
	expect_run(TX_ONE("{\"wqe\":{\"opcode\":0}},{\"wqe\":{\"opcode\":0}},"
			  "{\"events\":{\"expect\":[" SQ_DOORBELL(0, 0, 1, 0) "," SQ_DOORBELL(1, 0, 1, 0)
			  "]}}"),
		   VEC_PASSED);
	expect_run(TX_ONE("{\"wqe\":{\"opcode\":\"NOP\"}},"
			  "{\"events\":{\"expect\":[" SQ_DOORBELL(1, 0, 1, 0) "]}}"),
		   VEC_FAILED);
}

Test(vectors_tx, ring_modes_post_record_and_ring_as_named)
{
	/* none: nothing rung; record: the record counts the WQEBBs (T24 send word at +4), no
	 * doorbell; sq_ring then rings for the last WQE posted (§7.4.3.1). */
	expect_run(TX_ONE("{\"wqe\":{\"opcode\":\"NOP\",\"ring\":\"none\"}},"
			  "{\"mem_expect\":{\"addr\":\"0x31010004\",\"hex\":\"00000000\"}},"
			  "{\"wqe\":{\"opcode\":\"NOP\",\"ring\":\"record\"}},"
			  "{\"mem_expect\":{\"addr\":\"0x31010004\",\"hex\":\"00000002\"}},"
			  "{\"events\":{\"expect\":[],\"exact\":true}},"
			  "{\"sq_ring\":{}},"
			  "{\"events\":{\"expect\":[" SQ_DOORBELL(1, 0, 1, 0) "]}}"),
		   VEC_PASSED);
}

Test(vectors_tx, a_wqe_given_whole_is_written_as_given_and_may_wrap)
{
	/* An SQ of 4 WQEBBs: three NOPs, then a WQE of 96 bytes (ds 6) at WQEBB 3: its first 64
	 * bytes there, the rest from the start of the buffer (§7.4.1.1 Figure 14). Its bytes are
	 * the vector's, the first 8 too (wqe_index 0 and SQ 0 as given, nothing filled in). Posted
	 * only: the record would otherwise count 5 WQEBBs in a ring of 4. */
	char wqe[2 * 96 + 1] = "";
	for (unsigned i = 0; i < 96; i++)
		snprintf(wqe + 2 * i, 3, "%02x", i < 8 ? (i == 7 ? 6 : 0) : 0xA0 + i % 32);
	char json[8192];
	snprintf(json, sizeof json,
		 TX_ONE_WITH("\"log_sq_size\":2",
			     "{\"wqe\":{\"opcode\":\"NOP\",\"ring\":\"none\"}},"
			     "{\"wqe\":{\"opcode\":\"NOP\",\"ring\":\"none\"}},"
			     "{\"wqe\":{\"opcode\":\"NOP\",\"ring\":\"none\"}},"
			     "{\"wqe\":{\"hex\":\"%s\",\"ring\":\"none\"}},"
			     "{\"mem_expect\":{\"addr\":\"0x300000c0\",\"hex\":\"%.128s\"}},"
			     "{\"mem_expect\":{\"addr\":\"0x30000000\",\"hex\":\"%.64s\"}},"
			     "{\"events\":{\"expect\":[],\"exact\":true}}"),
		 wqe, wqe, wqe + 128);
	expect_run(json, VEC_PASSED);
}

Test(vectors_tx, blue_flame_posts_the_whole_wqe)
{
	/* A NOP of 2 octowords (a zero-length inline segment pads it, §7.2.2.1) through Blue Flame,
	 * given whole with its index and SQ 1 (the first SQ, D-OBJ-2): the device takes it from the
	 * buffer (D-DB-3). */
	expect_run(TX_ONE("{\"wqe\":{\"hex\":\"00000000 00000102 00000008 00000000 80000000 00000000"
			  " 00000000 00000000\",\"ring\":\"bf\"}},"
			  "{\"events\":{\"expect\":[" SQ_DOORBELL(0, 0, 2, 1) "]}},"
			  "{\"wqe\":{\"hex\":\"00000100 00000102 00000008 00000000 80000000 00000000"
			  " 00000000 00000000\",\"ring\":\"none\"}},{\"sq_ring\":{\"ring\":\"bf\"}},"
			  "{\"events\":{\"expect\":[" SQ_DOORBELL(1, 0, 2, 1) "]}}"),
		   VEC_PASSED);
}

Test(vectors_tx, a_vector_breaks_a_rule_by_giving_the_field)
{
	/* sq_number of no SQ: the doorbell names none (§7.2 item 4). */
	expect_run(TX_ONE("{\"wqe\":{\"opcode\":\"NOP\",\"ctrl\":{\"sq_number\":\"0xabcdef\"}}},"
			  "{\"events\":{\"expect\":[{\"event\":\"violation\",\"rule\":\"SQ_DB_NO_SQ\"}],"
			  "\"exact\":true}}"),
		   VEC_PASSED);
	/* Unmatched, the violation fails the test. */
	expect_run(TX_ONE("{\"wqe\":{\"opcode\":\"NOP\",\"ctrl\":{\"sq_number\":\"0xabcdef\"}}},"
			  "{\"frames\":{\"expect\":[]}}"),
		   VEC_FAILED);
}

Test(vectors_tx, the_check_refuses_before_anything_runs)
{
	struct vt t;
	/* A second test's error is found in the first pass: nothing runs, not even test 1. */
	vt_run(&t, VT_HEAD("") "\"numberOfTests\":2,\"testGroups\":[{\"setup\":[{\"bring_up\":"
			   "{\"to\":\"initialized\"}},{\"tx_setup\":{}}],\"tests\":[{\"tcId\":1,"
			   "\"comment\":\"c\",\"cite\":\"PRM §7.4\",\"flags\":[],\"result\":\"valid\","
			   "\"steps\":[{\"wqe\":{\"opcode\":\"NOP\"}}]},{\"tcId\":2,\"comment\":\"c\","
			   "\"cite\":\"PRM §7.4\",\"flags\":[],\"result\":\"valid\",\"steps\":[{\"wqe\":"
			   "{\"opcode\":\"NOP\",\"ctrl\":{\"ds\":64}}}]}]}]}");
	cr_expect_eq(t.rc, VEC_BAD_INPUT);
	cr_expect(vt_has(&t, "tcId 2: step 0 (wqe): ctrl.ds: 64 does not fit in 6 bits"), "%s", t.out);
	cr_expect(vt_has(&t, "nothing was run"), "%s", t.out);
	vt_free(&t);
}

Test(vectors_tx, the_runner_signs_what_it_builds_not_what_is_given_whole)
{
	/* wq_signature (T55): the runner's signature (D-WQE-2) is the device's, so the NOP it
	 * builds completes without error. A WQE given whole carries its own: NOP at index 1 of SQ
	 * 1, ce 10b; the bytes 00000100 00000101 SS000008 00000000, SQ number 000001 and index 0001
	 * XOR to 0x09 ^ SS, so SS = 0xF6 makes 0xFF (§9.2.3) and 0xF7 does not. */
	expect_run(TX_ONE_WITH("\"wq_signature\":1",
			       "{\"wqe\":{\"opcode\":\"NOP\",\"ctrl\":{\"ce\":2}}},"
			       "{\"wqe\":{\"hex\":\"00000100 00000101 f6000008 00000000\"}},"
			       "{\"cqes\":{\"expect\":[{\"opcode\":0,\"wqe_counter\":0,"
			       "\"s_wqe_opcode\":\"NOP\"},{\"opcode\":0,\"wqe_counter\":1}]}}"),
		   VEC_PASSED);
	expect_run(TX_ONE_WITH("\"wq_signature\":1",
			       "{\"wqe\":{\"opcode\":\"NOP\",\"ctrl\":{\"ce\":2}}},"
			       "{\"wqe\":{\"hex\":\"00000100 00000101 f7000008 00000000\"}},"
			       "{\"cqes\":{\"expect\":[{\"opcode\":0,\"wqe_counter\":0},"
			       "{\"layout\":\"err_cqe\",\"opcode\":13,\"wqe_counter\":1}]}},"
			       "{\"events\":{\"expect\":[{\"event\":\"violation\",\"rule\":"
			       "\"TX_WQE_SIGNATURE\"}]}}"),
		   VEC_PASSED);
}

Test(vectors_tx, data_is_placed_in_the_data_region_64_byte_aligned)
{
	/* Pointer segments (T38): 10 bytes at 0x40000000, 70 at the next 64-byte boundary, 0x40;
	 * one at an address of the test's; an inline segment (T39). */
	expect_run(TX_ONE("{\"wqe\":{\"opcode\":\"SEND\",\"eth\":{\"inline_header\":"
			  "\"ffffffffffff00024e494352"
			  "0800\"},\"data\":[{\"bytes\":\"00112233445566778899\"},{\"bytes\":\""
			  "0102030405060708091011121314151617181920212223242526272829303132333435"
			  "3637383940414243444546474849505152535455565758596061626364656667686970\"},"
			  "{\"bytes\":\"beef\",\"addr\":\"0x40080000\",\"lkey\":\"data\"},"
			  "{\"inline\":\"cafe\"}],\"ring\":\"none\"}},"
			  "{\"mem_expect\":{\"addr\":\"0x40000000\",\"hex\":\"00112233445566778899\"}},"
			  "{\"mem_expect\":{\"addr\":\"0x40000040\",\"hex\":\"0102030405\"}},"
			  "{\"mem_expect\":{\"addr\":\"0x40080000\",\"hex\":\"beef\"}},"
			  /* ds: ctrl 1 + Eth 2 (14 header bytes from 0Eh) + 3 pointers + 1 inline */
			  "{\"mem_expect\":{\"addr\":\"0x30000007\",\"hex\":\"07\"}},"
			  /* the second pointer (at 40h): byte_count 70 and its address (T38) */
			  "{\"mem_expect\":{\"addr\":\"0x30000040\",\"hex\":\"00000046\"}},"
			  "{\"mem_expect\":{\"addr\":\"0x30000048\",\"hex\":\"0000000040000040\"}}"),
		   VEC_PASSED);
}

Test(vectors_tx, a_umr_wqe_is_built_in_the_order_of_t31)
{
	/* ctrl 00h, UMR control 10h-3Ch, MKey context 40h-7Ch, the KLMs from 80h (T31). */
	expect_run(TX_ONE("{\"wqe\":{\"opcode\":\"UMR\",\"umr\":{\"ctrl\":{\"inline\":1},"
			  "\"mkey_ctx\":{\"lr\":1},\"klm\":[{\"byte_count\":\"0x1000\"}]},"
			  "\"ring\":\"none\"}},"
			  "{\"mem_expect\":{\"addr\":\"0x30000010\",\"hex\":\"80\"}},"
			  "{\"mem_expect\":{\"addr\":\"0x30000042\",\"hex\":\"04\"}},"
			  "{\"mem_expect\":{\"addr\":\"0x30000080\",\"hex\":\"00001000\"}},"
			  /* ds: 1 + 3 + 4 + 4 (the KLM list padded to 64 bytes) */
			  "{\"mem_expect\":{\"addr\":\"0x30000007\",\"hex\":\"0c\"}}"),
		   VEC_PASSED);
}

/* ---- cqes: CQEs written by a mem_write stand in for the send engine's ---- */

/* A 64-byte CQE (T67/T68) at byte `at` (2 hex digits) of the default CQ's buffer: wqe_counter wc,
 * s_wqe_opcode SEND, byte_cnt 60, syndrome syn at 34h[7:0] (T73), op_own (opcode << 4 | owner). */
#define CQE_AT(at, wc, syn, op_own)                                                             \
	"{\"mem_write\":{\"addr\":\"0x308000" at "\",\"hex\":\"00000000000000000000000000000000" \
	"00000000000000000000000000000000 000000000000000000000000 0000003c 00000000 000000" syn   \
	" 0a000000 00" wc "00" op_own "\"}}"

Test(vectors_tx, cqes_are_read_with_the_owner_bit_and_compared_by_field)
{
	expect_run(TX_ONE(CQE_AT("00", "05", "00", "00") ","
			  "{\"cqes\":{\"expect\":[{\"opcode\":0,\"wqe_counter\":5,"
			  "\"s_wqe_opcode\":\"SEND\",\"byte_cnt\":60,\"owner\":0}]}},"
			  /* consumed: the record's update_ci is 1 (T69), and no CQE is new */
			  "{\"mem_expect\":{\"addr\":\"0x31010040\",\"hex\":\"00000001\"}},"
			  "{\"cqes\":{\"expect\":[]}}"),
		   VEC_PASSED);
	struct vt t;
	run_tx(TX_ONE(CQE_AT("00", "05", "00", "00") ","
		      "{\"cqes\":{\"expect\":[{\"wqe_counter\":6,\"s_wqe_opcode\":{\"in\":[\"NOP\","
		      "\"UMR\"]}}]}}"),
	       &t);
	cr_expect_eq(t.rc, VEC_FAILED);
	cr_expect(vt_has(&t, "cqes[0].wqe_counter: expected 6 (0x6), got 5 (0x5)"), "%s", t.out);
	cr_expect(vt_has(&t, "cqes[0].s_wqe_opcode: expected {\"in\":[\"NOP\",\"UMR\"]}, got SEND "
			     "(0xa)"),
		  "%s", t.out);
	vt_free(&t);
	/* Owner 1 at the first pass is hardware's: not a CQE software may read (§7.12.3.2). */
	expect_run(TX_ONE(CQE_AT("00", "05", "00", "01") ",{\"cqes\":{\"expect\":[]}}"), VEC_PASSED);
	expect_run(TX_ONE(CQE_AT("00", "05", "00", "01") ",{\"cqes\":{\"expect\":[{\"wqe_counter\":"
			  "5}]}}"),
		   VEC_FAILED);
}

Test(vectors_tx, cqes_exact_any_of_and_the_error_layout)
{
	/* Two CQEs; the second a completion with error (opcode 13, T73) of syndrome 02h. */
	const char *two = CQE_AT("00", "05", "00", "00") "," CQE_AT("40", "06", "02", "d0");
	char json[8192];
	snprintf(json, sizeof json,
		 TX_ONE("%s,{\"cqes\":{\"expect\":[{\"layout\":\"err_cqe\",\"syndrome\":2,"
			"\"wqe_counter\":6}],\"exact\":false}}"),
		 two);
	expect_run(json, VEC_PASSED);
	struct vt t;
	snprintf(json, sizeof json, TX_ONE("%s,{\"cqes\":{\"expect\":[{\"wqe_counter\":5}]}}"), two);
	run_tx(json, &t);
	cr_expect_eq(t.rc, VEC_FAILED);
	cr_expect(vt_has(&t, "cqes: 1 more than expected, the first: opcode 13, wqe_counter 6, "
			     "s_wqe_opcode SEND (0xa), syndrome 2"),
		  "%s", t.out);
	vt_free(&t);
	snprintf(json, sizeof json,
		 TX_ONE("%s,{\"cqes\":{\"any_of\":[{\"reading\":\"one\",\"expect\":[{\"wqe_counter\":5}]},"
			"{\"reading\":\"both\",\"expect\":[{\"wqe_counter\":5},{\"layout\":\"err_cqe\","
			"\"syndrome\":2}]}]}}"),
		 two);
	run_tx(json, &t);
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	cr_assert_eq(t.rep.n, 1);
	cr_expect(strstr(t.rep.tests[0].notes, "any_of[1] (\"both\") held"), "%s",
		  t.rep.tests[0].notes);
	vt_free(&t);
}

/* ---- frames: frames handed to ops.wire_tx directly stand in for the send engine's ---- */

struct frun {
	struct run r;
	struct vec_options opt;
	char *out;
	size_t len;
};

static void frun_init(struct frun *f)
{
	memset(f, 0, sizeof *f);
	f->r.opt = &f->opt;
	f->r.out = open_memstream(&f->out, &f->len);
	f->r.file = "t.json";
	f->r.tc_id = 7;
	f->r.group = -1;
	f->r.step = 1;
	f->r.kind = "frames";
	vec_tx_start(&f->r);
}

static void frun_fini(struct frun *f)
{
	vec_tx_free(&f->r);
	fclose(f->r.out);
	free(f->out);
	lines_free(&f->r.fail);
	lines_free(&f->r.bad);
	lines_free(&f->r.notes);
}

/* Runs a frames step of JSON text: the number of failures it added. */
static unsigned frames_step(struct frun *f, const char *text)
{
	json_error_t e;
	json_t *s = json_loads(text, 0, &e);
	cr_assert(s, "%s", e.text);
	unsigned before = f->r.fail.n;
	step_frames(&f->r, s);
	json_decref(s);
	fflush(f->r.out);
	cr_expect_eq(f->r.bad.n, 0, "%s", f->out);
	return f->r.fail.n - before;
}

static const uint8_t f1[4] = { 0xAA, 0xBB, 0xCC, 0xDD }, f2[3] = { 1, 2, 3 };

Test(vectors_tx, frames_are_compared_in_order_byte_for_byte)
{
	struct frun f;
	frun_init(&f);
	vec_wire_tx(&f.r, 1, f1, sizeof f1);
	vec_wire_tx(&f.r, 2, f2, sizeof f2);
	cr_expect_eq(frames_step(&f, "{\"expect\":[{\"port\":1,\"hex\":\"aabbccdd\"},"
				     "{\"port\":{\"in\":[2,3]},\"hex\":\"010203\"}]}"),
		     0, "%s", f.out);
	/* Consumed: none since. */
	cr_expect_eq(frames_step(&f, "{\"expect\":[]}"), 0, "%s", f.out);
	vec_wire_tx(&f.r, 1, f1, sizeof f1);
	cr_expect_eq(frames_step(&f, "{\"expect\":[{\"hex\":\"aabbcc00\"}]}"), 1);
	cr_expect(strstr(f.out, "frames[0]: byte 3: expected 0x00, got 0xdd (4 bytes expected, 4 "
				"sent)"),
		  "%s", f.out);
	vec_wire_tx(&f.r, 1, f1, sizeof f1);
	cr_expect_eq(frames_step(&f, "{\"expect\":[{\"port\":2,\"hex\":\"aabbccddee\"}]}"), 2);
	cr_expect(strstr(f.out, "frames[0].port: expected 2 (0x2), got 1"), "%s", f.out);
	cr_expect(strstr(f.out, "frames[0]: expected 5 bytes, got 4 (the same up to byte 4)"), "%s",
		  f.out);
	frun_fini(&f);
}

Test(vectors_tx, frames_exact_and_any_of)
{
	struct frun f;
	frun_init(&f);
	vec_wire_tx(&f.r, 1, f1, sizeof f1);
	vec_wire_tx(&f.r, 1, f2, sizeof f2);
	cr_expect_eq(frames_step(&f, "{\"expect\":[{\"hex\":\"aabbccdd\"}]}"), 1);
	cr_expect(strstr(f.out, "frames: 1 more than expected, the first: port 1, 3 bytes: 010203"),
		  "%s", f.out);
	vec_wire_tx(&f.r, 1, f1, sizeof f1);
	vec_wire_tx(&f.r, 1, f2, sizeof f2);
	cr_expect_eq(frames_step(&f, "{\"expect\":[{\"hex\":\"010203\"}],\"exact\":false}"), 0);
	vec_wire_tx(&f.r, 1, f2, sizeof f2);
	cr_expect_eq(frames_step(&f, "{\"expect\":[{\"hex\":\"aabbccdd\"}],\"exact\":false}"), 1);
	cr_expect(strstr(f.out, "frames[0]: not found (in order) among the 1 that came"), "%s",
		  f.out);
	/* An empty list with exact: nothing went out. */
	vec_wire_tx(&f.r, 1, f2, sizeof f2);
	cr_expect_eq(frames_step(&f, "{\"expect\":[]}"), 1);
	vec_wire_tx(&f.r, 1, f2, sizeof f2);
	cr_expect_eq(frames_step(&f, "{\"any_of\":[{\"reading\":\"padded\",\"expect\":[{\"hex\":"
				     "\"01020300\"}]},{\"reading\":\"as is\",\"expect\":[{\"hex\":"
				     "\"010203\"}]}]}"),
		     0, "%s", f.out);
	cr_expect(strstr(f.r.notes.s, "any_of[1] (\"as is\") held"), "%s", f.r.notes.s);
	frun_fini(&f);
}

Test(vectors_tx, frames_past_the_bounds_are_counted_not_kept)
{
	struct frun f;
	frun_init(&f);
	for (unsigned i = 0; i < MAX_TX_FRAMES + 2; i++)
		vec_wire_tx(&f.r, 1, f2, sizeof f2);
	cr_expect_eq(frames_step(&f, "{\"expect\":[{\"hex\":\"010203\"}],\"exact\":false}"), 1);
	cr_expect(strstr(f.out, "2 frames came past what the runner keeps between two frames steps"),
		  "%s", f.out);
	/* A frame longer than MAX_TX_FRAME is kept cut, and never equals an expectation. */
	static uint8_t big[MAX_TX_FRAME + 1];
	vec_wire_tx(&f.r, 1, big, sizeof big);
	cr_expect_eq(frames_step(&f, "{\"expect\":[{\"hex\":\"00\"}]}"), 1);
	cr_expect(strstr(f.out, "frames[0]: expected 1 bytes, got 65537"), "%s", f.out);
	frun_fini(&f);
}

/* ---- --pcap ---- */

Test(vectors_tx, pcap_holds_every_frame_at_virtual_time_test_after_test)
{
	char path[] = "/tmp/nicref_pcap_XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	close(fd);
	struct frun f;
	frun_init(&f);
	cr_assert((f.opt.pcap = pcap_out_open(path)));
	/* Two tests: the second's clock starts at 0 again, its frames come after the first's. */
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	for (unsigned test = 0; test < 2; test++) {
		f.r.dev = nicref_dev_create(&cfg);
		nicref_clock_advance(f.r.dev, test ? 10 : 1500);
		vec_wire_tx(&f.r, 1, test ? f2 : f1, test ? sizeof f2 : sizeof f1);
		vec_tx_end(&f.r);
		nicref_dev_destroy(f.r.dev);
		f.r.dev = NULL;
	}
	cr_expect_eq(pcap_out_count(f.opt.pcap), 2);
	cr_assert_eq(pcap_out_close(f.opt.pcap), 0);
	f.opt.pcap = NULL;
	frun_fini(&f);
	/* The file as libpcap reads it: Ethernet, nanoseconds, the frames and their times. */
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, err);
	cr_assert(p, "%s", err);
	cr_expect_eq(pcap_datalink(p), DLT_EN10MB);
	struct pcap_pkthdr *h;
	const u_char *d;
	cr_assert_eq(pcap_next_ex(p, &h, &d), 1);
	cr_expect_eq(h->ts.tv_sec, 0);
	cr_expect_eq(h->ts.tv_usec, 1500, "nanoseconds in this precision");
	cr_expect_eq(h->caplen, 4);
	cr_expect_eq(h->len, 4);
	cr_expect_arr_eq(d, f1, sizeof f1);
	cr_assert_eq(pcap_next_ex(p, &h, &d), 1);
	cr_expect_eq(h->ts.tv_usec, 1500 + 1000 + 10, "after the first test's 1500 ns and 1 us");
	cr_expect_arr_eq(d, f2, sizeof f2);
	cr_expect_eq(pcap_next_ex(p, &h, &d), PCAP_ERROR_BREAK);
	pcap_close(p);
	/* Little-endian whatever the host: magic A1B23C4Dh (nanoseconds), link type 1. */
	uint8_t head[24];
	FILE *in = fopen(path, "rb");
	cr_assert(in);
	cr_assert_eq(fread(head, 1, sizeof head, in), sizeof head);
	fclose(in);
	static const uint8_t want[24] = { 0x4D, 0x3C, 0xB2, 0xA1, 2, 0, 4, 0, 0, 0, 0, 0,
					  0,    0,    0,    0,    0, 0, 4, 0, 1, 0, 0, 0 };
	cr_expect_arr_eq(head, want, sizeof want);
	unlink(path);
}

Test(vectors_tx, pcap_of_a_vector_run)
{
	/* No frame today (the send engine is TX-A's): the file is a valid empty capture. */
	char path[] = "/tmp/nicref_pcap_XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	close(fd);
	struct vec_options opt = { 0 };
	cr_assert((opt.pcap = pcap_out_open(path)));
	struct vt t;
	vt_run_opt(&t, TX_ONE("{\"wqe\":{\"opcode\":\"NOP\",\"ctrl\":{\"ce\":2}}},"
			      "{\"frames\":{\"expect\":[]}}"),
		   &opt);
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	vt_free(&t);
	cr_assert_eq(pcap_out_close(opt.pcap), 0);
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, err);
	cr_assert(p, "%s", err);
	pcap_close(p);
	unlink(path);
}
