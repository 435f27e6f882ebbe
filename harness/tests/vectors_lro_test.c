/* The runner's LRO language (docs/vectors.md "Large Receive Offload"): tirs[].lro, the lro_*
 * events by cause name, the LRO CQE fields, modify_tir, destroy_tir and rq_state, and their
 * refusals. A handful of smoke vectors; the golden ones are vectors/lro/. The frames are two
 * IPv4/TCP segments of one flow (seq 1000 and 1100, 100 bytes each, ACK), their checksums and
 * the merged checksum (T4, D-LRO-7: both payloads, 0xc427; T5's reading with the first TCP
 * header would be 0x13d9) computed by RFC 1071 outside the model. */
#include "vectest.h"

#define SEG1                                                                                     \
	"024e4943524602000000009908004500008c000000004006666a0a0000010a00000212345678000003e80000" \
	"100050102000630c0000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021" \
	"22232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d" \
	"4e4f505152535455565758595a5b5c5d5e5f60616263"
#define SEG2                                                                                     \
	"024e4943524602000000009908004500008c000000004006666a0a0000010a000002123456780000044c0000" \
	"100050102000d61b0000404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f6061" \
	"62636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d" \
	"8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3"

#define RX_LRO_SETUP(lro)                                                                        \
	"{\"rx_setup\":{\"tirs\":[{\"rq\":0" lro "}],\"steer_all\":[0]}},"                       \
	"{\"rq_post\":{\"rq\":0,\"entries\":[{\"offset\":\"0x1000\",\"byte_count\":4096}],"      \
	"\"count\":2}}"
#define FRAME(h) "{\"rx_frame\":{\"port\":1,\"hex\":\"" h "\"}}"

static void run_one(struct vt *t, const char *steps)
{
	char json[8192];
	snprintf(json, sizeof json, "%s", steps);
	vt_run(t, json);
}

/* PRM §3.3.6.2-§3.3.6.6: two segments merge; the timer (D-LRO-5, 32 µs) ends the session. */
Test(vectors_lro, two_segments_merge_and_the_timer_ends_them)
{
	struct vt t;
	run_one(&t, VT_ONE(RX_LRO_SETUP(",\"lro\":{}") "," FRAME(SEG1) "," FRAME(SEG2) ","
			   "{\"events\":{\"expect\":[{\"event\":\"lro_open\",\"wqe_counter\":0,"
			   "\"len\":154},{\"event\":\"lro_merge\",\"num_seg\":2,\"bytes\":254}]}},"
			   "{\"advance_ns\":64000},"
			   "{\"events\":{\"expect\":[{\"event\":\"lro_end\",\"cause\":\"timer\","
			   "\"num_seg\":2,\"byte_cnt\":254}]}},"
			   "{\"cqes\":{\"cq\":\"rx\",\"expect\":[{\"opcode\":2,\"lro_num_seg\":2,"
			   "\"byte_cnt\":254,\"lro_abrt\":1,\"checksum\":\"0xc427\","
			   "\"lro_tcp_win\":\"0x2000\",\"lro_ack_seq_num\":\"0x1000\","
			   "\"l4_hdr_type\":4,\"lro_min_ttl\":64}]}},"
			   "{\"mem_expect\":{\"addr\":\"0x50001000\",\"hex\":\"" SEG1 "\"}}"));
	cr_expect_eq(t.rep.passed, 1, "%s", t.out);
	cr_expect_eq(t.rc, VEC_PASSED, "%s", t.out);
	vt_free(&t);
}

/* A wrong cause name fails, naming the argument. */
Test(vectors_lro, a_wrong_cause_fails)
{
	struct vt t;
	run_one(&t, VT_ONE(RX_LRO_SETUP(",\"lro\":{}") "," FRAME(SEG1) ",{\"advance_ns\":64000},"
			   "{\"events\":{\"expect\":[{\"event\":\"lro_end\","
			   "\"cause\":\"max_size\"}]}}"));
	cr_expect_eq(t.rep.failed, 1, "%s", t.out);
	vt_free(&t);
}

/* D-LRO-10: modify_tir (LRO group) completes the session first: tir_change. */
Test(vectors_lro, modify_tir_flushes)
{
	struct vt t;
	run_one(&t, VT_ONE(RX_LRO_SETUP(",\"lro\":{}") "," FRAME(SEG1) ","
			   "{\"modify_tir\":{\"tir\":0,\"lro\":{\"enable_mask\":0}}},"
			   "{\"events\":{\"expect\":[{\"event\":\"lro_end\",\"cause\":\"tir_change\","
			   "\"num_seg\":1},{\"event\":\"cmd_done\",\"status\":\"OK\"}]}},"
			   FRAME(SEG2) ","
			   "{\"cqes\":{\"cq\":\"rx\",\"expect\":[{\"lro_num_seg\":1,\"byte_cnt\":154,"
			   "\"lro_abrt\":2},{\"lro_num_seg\":0,\"byte_cnt\":154}]}}"));
	cr_expect_eq(t.rep.passed, 1, "%s", t.out);
	vt_free(&t);
}

/* DESTROY_TIR after the steer_all entry is deleted by the runner (D-TIR-1). */
Test(vectors_lro, destroy_tir_flushes)
{
	struct vt t;
	run_one(&t, VT_ONE(RX_LRO_SETUP(",\"lro\":{\"timeout_usecs\":1024}") "," FRAME(SEG1) ","
			   "{\"destroy_tir\":{\"tir\":0}},"
			   "{\"events\":{\"expect\":[{\"event\":\"lro_end\","
			   "\"cause\":\"tir_change\"}]}},"
			   "{\"destroy_tir\":{\"tir\":0,\"status\":\"BAD_RESOURCE\"}}"));
	cr_expect_eq(t.rep.passed, 1, "%s", t.out);
	vt_free(&t);
}

/* MODIFY_RQ RDY -> ERR completes the session (rq_state); RST then RDY takes frames again. */
Test(vectors_lro, rq_state_flushes_and_restarts)
{
	struct vt t;
	run_one(&t, VT_ONE(RX_LRO_SETUP(",\"lro\":{}") "," FRAME(SEG1) ","
			   "{\"rq_state\":{\"rq\":0,\"to\":\"ERR\"}},"
			   "{\"events\":{\"expect\":[{\"event\":\"lro_end\",\"cause\":\"rq_state\"},"
			   "{\"event\":\"wq_state\",\"to\":3}]}},"
			   "{\"rq_state\":{\"rq\":0,\"to\":\"RST\"}},{\"rq_state\":{\"rq\":0,\"to\":\"RDY\"}},"
			   "{\"rq_post\":{\"rq\":0,\"entries\":[{\"offset\":\"0x1000\","
			   "\"byte_count\":4096}]}}," FRAME(SEG2) ","
			   "{\"events\":{\"expect\":[{\"event\":\"lro_open\",\"wqe_counter\":0}]}}"));
	cr_expect_eq(t.rep.passed, 1, "%s", t.out);
	vt_free(&t);
}

/* Profile settings by name and their ranges. */
Test(vectors_lro, profile_lro_settings)
{
	struct vt t;
	vt_run(&t, VT_HEAD("") "\"numberOfTests\":1,"
			       VT_GROUP_TEST("\"profile\":{\"lro_max_sessions\":0},", "{\"advance_ns\":1}"));
	cr_expect_eq(t.rc, VEC_BAD_INPUT);
	cr_expect(vt_has(&t, "profile.lro_max_sessions: 0: 1 to 4096 LRO sessions"), "%s", t.out);
	vt_free(&t);
	vt_run(&t, VT_HEAD("") "\"numberOfTests\":1,"
			       VT_GROUP_TEST("\"profile\":{\"lro_max_sessions\":1,\"lro_min_mss_size\":200},",
					     RX_LRO_SETUP(",\"lro\":{}") "," FRAME(SEG1) ","
					     "{\"events\":{\"expect\":[{\"event\":\"lro_pass\","
					     "\"cause\":\"small\"}]}}"));
	cr_expect_eq(t.rep.passed, 1, "%s", t.out);
	vt_free(&t);
}

/* Refusals of the new steps. */
Test(vectors_lro, refusals)
{
	struct vt t;
	vt_run(&t, VT_ONE("{\"modify_tir\":{\"tir\":0,\"lro\":{}}}"));
	cr_expect_eq(t.rc, VEC_BAD_INPUT);
	cr_expect(vt_has(&t, "modify_tir needs an rx_setup before it"), "%s", t.out);
	vt_free(&t);
	vt_run(&t, VT_ONE(RX_LRO_SETUP("") ",{\"destroy_tir\":{\"tir\":1}}"));
	cr_expect(vt_has(&t, "tir: 1: the rx_setup has 1 TIRs"), "%s", t.out);
	vt_free(&t);
	vt_run(&t, VT_ONE(RX_LRO_SETUP(",\"lro\":{\"enable_mask\":16}")));
	cr_expect(vt_has(&t, "tirs[0].lro.enable_mask: 16"), "%s", t.out);
	vt_free(&t);
}
