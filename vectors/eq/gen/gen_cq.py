import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_common import *

OUT = sys.argv[1]

NOTES = {
    "Valid": {"bugType": "FUNCTIONALITY", "description": "Correct use of the command; the device answers OK with the output the PRM table describes."},
    "ContextRule": {"bugType": "CONFORMANCE", "description": "A validity rule of the CQ context (T76) or of the CQ command (T261, T273-T277); the command is refused with the rule's status and changes nothing."},
    "Resource": {"bugType": "CONFORMANCE", "description": "The command names a CQ, EQ or UAR that does not exist (T128 BAD_RESOURCE)."},
    "InUse": {"bugType": "CONFORMANCE", "description": "DESTROY_CQ of a CQ an SQ still completes to: BAD_RES_STATE, nothing changes (D-CQ-1, D-OBJ-1; docs/cq.md)."},
    "Limit": {"bugType": "CONFORMANCE", "description": "A size or count beyond HCA_CAP (log_max_cq_sz and 22, log_max_cq): EXCEED_LIM (D-EQ-7)."},
    "Length": {"bugType": "CONFORMANCE", "description": "input_length or output_length too short (T128 0x50/0x51), including the pas[] the CQ size implies (D-EQ-9)."},
    "Pages": {"bugType": "CONFORMANCE", "description": "Too few ICM pages for one more CQ context: NO_RESOURCES (D-PG-4)."},
    "OpMod": {"bugType": "CONFORMANCE", "description": "T100/T273: CREATE/DESTROY/QUERY_CQ describe no op_mod (must be 0); MODIFY_CQ has 0 and 1; others BAD_OP."},
    "Lifecycle": {"bugType": "CONFORMANCE", "description": "CQ commands are resource commands: before INIT_HCA BAD_SYS_STATE (D-INIT-2)."},
    "Handles": {"bugType": "PROFILE", "description": "CQ numbers from 1, lowest free first (D-OBJ-2); the count limit comes from profile log_max_objects."},
    "Acceptable": {"bugType": "AMBIGUOUS_SPEC", "description": "The PRM allows more than one response: the expectation lists each (any_of, the model's reading first). A number beyond its table is BAD_INDEX (T128 0x0A 'beyond table size', D-OBJ-2) or, read as an unallocated resource, BAD_RESOURCE (0x05)."},
    "Resize": {"bugType": "FUNCTIONALITY", "description": "MODIFY_CQ resize (op_mod 1, §7.12.6): a Resize CQE (opcode 5, T72) in the old buffer at the producer index, the counters unchanged (D-CQ-7), then the new buffer."},
}

def up(pages=16, profile=None):
    s = [{"bring_up": {"to": "initialized"}}]
    if pages:
        s.append(manage_pages(pages))
    s += [alloc_uar(), eq_init(EQ_BUF, 4), create_eq(bitmask=1 << 4), cq_init(CQ_BUF, 4), flush()]
    return s

tests = []
tc = [0]

def T(comment, cite, flags, result, steps):
    tc[0] += 1
    tests.append({"tcId": tc[0], "comment": comment, "cite": cite, "flags": flags,
                  "result": result, "steps": steps})

def query_cq(fields, cqn=1, out=0x110):
    return cmd("query_cq_in", {"opcode": "QUERY_CQ", "cqn": cqn}, ok({"layout": "query_cq_out", "fields": fields}), output_length=out)

def refuse_create(comment, cite, flags, extra, status, rule, **kw):
    T(comment, cite, flags, "invalid", [
        create_cq(extra=extra, expect=refused(status, rule), **kw),
        events(fail("CREATE_CQ", rule, status)),
        cmd("query_cq_in", {"opcode": "QUERY_CQ", "cqn": 1}, refused("BAD_RESOURCE", "CQ_NOT_FOUND"), output_length=0x110),
        flush()])

# ---- CREATE_CQ ----
T("CREATE_CQ of 4 64-byte CQEs on EQ 0 and UAR 5: OK (which cqn the device returns is its own, T262; the model's 1, D-OBJ-2)",
  "PRM §12.7.1 T260-T263", ["Valid"], "valid",
  [create_cq(expect=ok()), events([done("CREATE_CQ")])])
refuse_create("CREATE_CQ with cqe_sz 2", "PRM §7.12.8 T76 cqe_sz (0 BYTES_64, 1 BYTES_128)", ["ContextRule"], {"cqe_sz": 2}, "BAD_PARAM", "CQ_CQE_SIZE_INVALID")
refuse_create("CREATE_CQ with cqe_compression_en and 128-byte CQEs", "PRM §7.12.8 T76 cqe_compression_en ('Must be zero when cqe size is 128 byte')", ["ContextRule"],
              {"cqe_sz": 1, "cqe_compression_en": 1}, "BAD_PARAM", "CQ_COMPRESSION_WITH_128B")
refuse_create("CREATE_CQ with compression and mini_cqe_res_format 2", "PRM §7.12.8 T76 mini_cqe_res_format (0 or 1)", ["ContextRule"],
              {"cqe_compression_en": 1, "mini_cqe_res_format": 2}, "BAD_PARAM", "CQ_MINI_CQE_FORMAT_INVALID")
refuse_create("CREATE_CQ with cq_period_mode 2", "PRM §7.12.8 T76 cq_period_mode (0 upon_event, 1 upon_cqe)", ["ContextRule"],
              {"cq_period_mode": 2}, "BAD_PARAM", "CQ_PERIOD_MODE_UNSUPPORTED")
refuse_create("CREATE_CQ with page_offset 1", "PRM §7.12.8 T76 page_offset 'Must be 0'", ["ContextRule"], {"page_offset": 1}, "BAD_PARAM", "CQ_PAGE_OFFSET_NOT_ZERO")
refuse_create("CREATE_CQ with consumer_counter 1", "PRM §7.12.8 T76 consumer_counter 'Must be 0x0 in CQ initialization'", ["ContextRule"],
              {"consumer_counter": 1}, "BAD_PARAM", "CQ_CONSUMER_COUNTER_NOT_ZERO")
refuse_create("CREATE_CQ with its doorbell record at ...04h", "PRM §7.12.2 ('CQ Doorbell Records are aligned on an 8B boundary')", ["ContextRule"],
              {"dbr_addr": h(CQ_DBR + 4)}, "BAD_PARAM", "CQ_DBR_NOT_ALIGNED")
refuse_create("CREATE_CQ with log_cq_size 23", "PRM §7.12.8 T76 ('max log_cq_size is 22'); T145 log_max_cq_sz; D-EQ-7", ["Limit"],
              {"log_cq_size": 23}, "EXCEED_LIM", "CQ_LOG_SIZE_BEYOND_CAP")
refuse_create("CREATE_CQ naming EQ 5, which does not exist", "PRM §7.12.8 T76 c_eqn; §12.2 T128", ["Resource"], {"c_eqn": 5}, "BAD_RESOURCE", "CQ_EQ_NOT_FOUND")
refuse_create("CREATE_CQ naming UAR 6, which is not allocated", "PRM §7.12.8 T76 uar_page; §7.2", ["Resource"], {"uar_page": 6}, "BAD_RESOURCE", "CQ_UAR_NOT_ALLOCATED")
refuse_create("CREATE_CQ of 2^7 64-byte CQEs (8 KB, two pages) with one pas[] entry", "PRM §12.7.1 T261 pas[]; §7.12.1; D-EQ-9", ["Length"],
              {"log_cq_size": 7}, "BAD_INPUT_LEN", "CQ_PAS_SHORT")
refuse_create("CREATE_CQ with pas[0] 0x30000100, not 4 KB aligned", "PRM §12.3.2 T139 (pa_l 31:12)", ["ContextRule"],
              {"pas[0]": "0x30000100"}, "BAD_PARAM", "CQ_PAS_NOT_ALIGNED")
refuse_create("CREATE_CQ with op_mod 1", "PRM §7.14.1.2 T100; §12.7.1 T261", ["OpMod"], {"op_mod": 1}, "BAD_OP", "BAD_OP_MOD")
T("CREATE_CQ with input_length 10Ch, below its 110h-byte input", "PRM §12.2 T128 0x50; §12.7.1 T260", ["Length"], "invalid",
  [cmd("create_cq_in", {"opcode": "CREATE_CQ", "log_cq_size": 2, "uar_page": UAR, "dbr_addr": h(CQ_DBR), "pas[0]": h(CQ_BUF)},
       refused("BAD_INPUT_LEN", "INPUT_TOO_SHORT"), length=0x118, input_length=0x10C),
   events(fail("CREATE_CQ", "INPUT_TOO_SHORT", "BAD_INPUT_LEN"))])
T("CREATE_CQ with every option CREATE takes (64-byte CQEs): oi, collapse (cc), scqe_break_moderation_en, cq_period_mode 1, compression with mini_cqe_res_format 1, cq_period 0xABC, cq_max_count 0x1234: QUERY_CQ returns each, with st FIRED (D-CQ-3), status OK and counters 0",
  "PRM §12.7.1; §12.7.3 T270/T271; §7.12.8 T76; T145 44h[21:20]; D-CQ-3", ["Valid"], "valid",
  [create_cq(extra={"oi": 1, "cc": 1, "scqe_break_moderation_en": 1, "cq_period_mode": 1, "cqe_compression_en": 1,
                    "mini_cqe_res_format": 1, "cq_period": "0xABC", "cq_max_count": "0x1234", "log_page_size": 1}),
   flush(),
   query_cq({"cq_status": 0, "cqe_sz": 0, "cc": 1, "scqe_break_moderation_en": 1, "oi": 1, "cq_period_mode": 1,
             "cqe_compression_en": 1, "mini_cqe_res_format": 1, "st": 0xA, "page_offset": 0, "log_cq_size": 2,
             "uar_page": UAR, "cq_period": "0xABC", "cq_max_count": "0x1234", "c_eqn": 0, "log_page_size": 1,
             "last_notified_index": 0, "last_solicit_index": 0, "consumer_counter": 0, "producer_counter": 0,
             "dbr_addr": h(CQ_DBR), "pas[0]": h(CQ_BUF)}, out=0x118),
   events([done("QUERY_CQ")])])

# ---- DESTROY_CQ ----
T("DESTROY_CQ: OK; QUERY_CQ then fails, and EQ 0 can be destroyed",
  "PRM §12.7.2 T264-T267", ["Valid"], "valid",
  [create_cq(), flush(),
   cmd("destroy_cq_in", {"opcode": "DESTROY_CQ", "cqn": 1}, ok()), events([done("DESTROY_CQ")]),
   cmd("query_cq_in", {"opcode": "QUERY_CQ", "cqn": 1}, refused("BAD_RESOURCE", "CQ_NOT_FOUND"), output_length=0x110),
   cmd("destroy_eq_in", {"opcode": "DESTROY_EQ", "eq_number": 0}, ok()), flush()])
T("DESTROY_CQ of CQ 2, which does not exist", "PRM §12.7.2; §12.2 T128 BAD_RESOURCE", ["Resource"], "invalid",
  [create_cq(), flush(),
   cmd("destroy_cq_in", {"opcode": "DESTROY_CQ", "cqn": 2}, refused("BAD_RESOURCE", "CQ_NOT_FOUND")),
   events(fail("DESTROY_CQ", "CQ_NOT_FOUND", "BAD_RESOURCE"))])
T("DESTROY_CQ of the CQ SQ 1 completes to: BAD_RES_STATE; after DESTROY_SQ it goes",
  "PRM §12.7.2; §3.2.1 tear-down order; D-CQ-1", ["InUse"], "invalid",
  [create_cq(),
   cmd("alloc_pd_in", {"opcode": "ALLOC_PD"}, ok()),
   cmd("alloc_transport_domain_in", {"opcode": "ALLOC_TRANSPORT_DOMAIN"}, ok()),
   cmd("create_tis_in", {"opcode": "CREATE_TIS", "transport_domain": 1}, ok()),
   cmd("create_sq_in", {"opcode": "CREATE_SQ", "flush_in_error_en": 1, "min_wqe_inline_mode": 1, "cqn": 1, "tis_lst_sz": 1,
                        "tis_num_0": 1, "wq_type": 1, "pd": 1, "uar_page": UAR, "dbr_addr_31_0": h(SQ_DBR),
                        "log_wq_stride": 6, "log_wq_sz": 6, "pas[0]": h(SQ_BUF)}, ok(), length=0x118),
   flush(),
   cmd("destroy_cq_in", {"opcode": "DESTROY_CQ", "cqn": 1}, refused("BAD_RES_STATE", "CQ_IN_USE")),
   events(fail("DESTROY_CQ", "CQ_IN_USE", "BAD_RES_STATE")),
   query_cq({"log_cq_size": 2}),
   cmd("destroy_sq_in", {"opcode": "DESTROY_SQ", "sqn": 1}, ok()),
   cmd("destroy_cq_in", {"opcode": "DESTROY_CQ", "cqn": 1}, ok()), flush()])

# ---- QUERY_CQ ----
T("QUERY_CQ of CQ 7, which does not exist", "PRM §12.7.3; §12.2 T128", ["Resource"], "invalid",
  [create_cq(), flush(),
   cmd("query_cq_in", {"opcode": "QUERY_CQ", "cqn": 7}, refused("BAD_RESOURCE", "CQ_NOT_FOUND"), output_length=0x110),
   events(fail("QUERY_CQ", "CQ_NOT_FOUND", "BAD_RESOURCE"))])
T("QUERY_CQ with output_length 10h, below its 110h output", "PRM §12.2 T128 0x51; §12.7.3 T270", ["Length"], "invalid",
  [create_cq(), flush(),
   cmd("query_cq_in", {"opcode": "QUERY_CQ", "cqn": 1}, refused("BAD_OUTPUT_LEN", "OUTPUT_TOO_SHORT"), output_length=0x10),
   events(fail("QUERY_CQ", "OUTPUT_TOO_SHORT", "BAD_OUTPUT_LEN"))])

# ---- MODIFY_CQ ----
def modify(sel, fields, op_mod=0, cqn=1, expect=None, length=0x110):
    f = {"opcode": "MODIFY_CQ", "op_mod": op_mod, "cqn": cqn, "field_select": h(sel)}
    f.update(fields)
    return cmd("modify_cq_in", f, expect if expect else ok(), length=length)

T("MODIFY_CQ op_mod 0 with field_select 0xF: cq_period, cq_max_count, oi and c_eqn (to EQ 1) change; nothing else; EQ 0 can then be destroyed, EQ 1 not",
  "PRM §12.7.4 T272-T275; §7.12.9; D-EQ-1", ["Valid"], "valid",
  [create_cq(), eq_init(EQ_BUF2, 4), create_eq(buf=EQ_BUF2, eqn=1), flush(),
   modify(0xF, {"cq_period": "0x321", "cq_max_count": "0xBEEF", "oi": 1, "c_eqn": 1, "log_cq_size": 5, "cq_period_mode": 1}),
   events([done("MODIFY_CQ")]),
   query_cq({"cq_period": "0x321", "cq_max_count": "0xBEEF", "oi": 1, "c_eqn": 1, "log_cq_size": 2, "cq_period_mode": 0}),
   cmd("destroy_eq_in", {"opcode": "DESTROY_EQ", "eq_number": 1}, refused("BAD_RES_STATE", "EQ_IN_USE")),
   cmd("destroy_eq_in", {"opcode": "DESTROY_EQ", "eq_number": 0}, ok()), flush()])
T("MODIFY_CQ op_mod 0 with field_select bit 4 (T275 defines bits 0-3)", "PRM §12.7.4 T275", ["ContextRule"], "invalid",
  [create_cq(), flush(), modify(0x10, {"cq_period": 5}, expect=refused("BAD_PARAM", "CQ_MODIFY_SELECT_UNKNOWN")),
   events(fail("MODIFY_CQ", "CQ_MODIFY_SELECT_UNKNOWN", "BAD_PARAM")), query_cq({"cq_period": 0})])
T("MODIFY_CQ remapping to EQ 4, which does not exist", "PRM §12.7.4 T275 bit 3; §7.12.9", ["Resource"], "invalid",
  [create_cq(), flush(), modify(0x8, {"c_eqn": 4}, expect=refused("BAD_RESOURCE", "CQ_EQ_NOT_FOUND")),
   events(fail("MODIFY_CQ", "CQ_EQ_NOT_FOUND", "BAD_RESOURCE")), query_cq({"c_eqn": 0})])
T("MODIFY_CQ of CQ 3, which does not exist", "PRM §12.7.4; §12.2 T128", ["Resource"], "invalid",
  [create_cq(), flush(), modify(0x1, {"cq_period": 5}, cqn=3, expect=refused("BAD_RESOURCE", "CQ_NOT_FOUND")),
   events(fail("MODIFY_CQ", "CQ_NOT_FOUND", "BAD_RESOURCE"))])
T("MODIFY_CQ with op_mod 2", "PRM §12.7.4 T273 (0 modify_cq, 1 resize_cq); T100", ["OpMod"], "invalid",
  [create_cq(), flush(), modify(0x1, {}, op_mod=2, expect=refused("BAD_OP", "BAD_OP_MOD")),
   events(fail("MODIFY_CQ", "BAD_OP_MOD", "BAD_OP"))])
T("MODIFY_CQ with input_length 100h", "PRM §12.2 T128 0x50; §12.7.4 T272", ["Length"], "invalid",
  [create_cq(), flush(),
   cmd("modify_cq_in", {"opcode": "MODIFY_CQ", "cqn": 1, "field_select": 1}, refused("BAD_INPUT_LEN", "INPUT_TOO_SHORT"), length=0x110, input_length=0x100),
   events(fail("MODIFY_CQ", "INPUT_TOO_SHORT", "BAD_INPUT_LEN"))])
T("Resize (op_mod 1) of an empty 4-entry CQ to 8 entries at 0x30200000: the Resize CQE (opcode 5, owner (0 >> 2) & 1 = 0, signature over index 0) in the old buffer at entry 0; QUERY_CQ shows log_cq_size 3, the new pas[0] and producer_counter 0",
  "PRM §7.12.6; T72; §12.7.4 T276/T277; D-CQ-7", ["Resize"], "valid",
  [create_cq(), cq_init(CQ_BUF2, 8), flush(),
   modify(0x7, {"log_cq_size": 3, "pas[0]": h(CQ_BUF2)}, op_mod=1, length=0x118),
   events([ev("cqe", cqn=1, index=0, opcode=5, syndrome=0, wqe_counter=0), done("MODIFY_CQ")]),
   mem_expect(CQ_BUF, err_cqe(0, 0, 2, s_wqe_opcode=0, syndrome=0, opcode=5)),
   query_cq({"log_cq_size": 3, "producer_counter": 0, "pas[0]": h(CQ_BUF2)}, out=0x118)])
T("Resize with resize_field_select bit 3 (T277 defines bits 0-2)", "PRM §12.7.4 T277", ["ContextRule"], "invalid",
  [create_cq(), flush(), modify(0x8, {"pas[0]": h(CQ_BUF2)}, op_mod=1, length=0x118, expect=refused("BAD_PARAM", "CQ_MODIFY_SELECT_UNKNOWN")),
   events(fail("MODIFY_CQ", "CQ_MODIFY_SELECT_UNKNOWN", "BAD_PARAM"))])
T("Resize to 2^8 CQEs (16 KB, four pages) with one pas[] entry", "PRM §12.7.4 T273 pas[]; D-EQ-9", ["Length"], "invalid",
  [create_cq(), flush(), modify(0x1, {"log_cq_size": 8, "pas[0]": h(CQ_BUF2)}, op_mod=1, length=0x118, expect=refused("BAD_INPUT_LEN", "CQ_PAS_SHORT")),
   events(fail("MODIFY_CQ", "CQ_PAS_SHORT", "BAD_INPUT_LEN")), query_cq({"log_cq_size": 2})])
T("Resize to log_cq_size 23", "PRM §7.12.8 T76 (22 at most); D-EQ-7", ["Limit"], "invalid",
  [create_cq(), flush(), modify(0x1, {"log_cq_size": 23, "pas[0]": h(CQ_BUF2)}, op_mod=1, length=0x118, expect=refused("EXCEED_LIM", "CQ_LOG_SIZE_BEYOND_CAP")),
   events(fail("MODIFY_CQ", "CQ_LOG_SIZE_BEYOND_CAP", "EXCEED_LIM"))])
T("Resize with page_offset 1 selected", "PRM §7.12.8 T76 page_offset 'Must be 0'; T277 bit 1", ["ContextRule"], "invalid",
  [create_cq(), flush(), modify(0x2, {"page_offset": 1, "pas[0]": h(CQ_BUF2)}, op_mod=1, length=0x118, expect=refused("BAD_PARAM", "CQ_PAGE_OFFSET_NOT_ZERO")),
   events(fail("MODIFY_CQ", "CQ_PAGE_OFFSET_NOT_ZERO", "BAD_PARAM"))])

# ---- op_mod and input lengths of the small commands ----
for op, lay in [("DESTROY_CQ", "destroy_cq_in"), ("QUERY_CQ", "query_cq_in")]:
    out = 0x110 if op == "QUERY_CQ" else None
    T("%s with op_mod 1" % op, "PRM §7.14.1.2 T100 (no op_mod described: must be 0); §12.7", ["OpMod"], "invalid",
      [create_cq(), flush(), cmd(lay, {"opcode": op, "op_mod": 1, "cqn": 1}, refused("BAD_OP", "BAD_OP_MOD"), output_length=out),
       events(fail(op, "BAD_OP_MOD", "BAD_OP"))])
    T("%s with input_length Ch, below its 10h-byte input" % op, "PRM §12.2 T128 0x50; §12.7", ["Length"], "invalid",
      [create_cq(), flush(),
       cmd(lay, {"opcode": op, "cqn": 1}, refused("BAD_INPUT_LEN", "INPUT_TOO_SHORT"), length=0x10, input_length=0xC, output_length=out),
       events(fail(op, "INPUT_TOO_SHORT", "BAD_INPUT_LEN"))])

# ---- numbers outside their tables (D-OBJ-2) ----
# beyond(rule): gen_common.py
T("CREATE_CQ naming UAR 0xFFFFFF (beyond the UAR area), QUERY_CQ of CQ 0xFFFFFF, DESTROY_CQ of CQ 0 and MODIFY_CQ of CQ 0xFFFFFF (outside the CQ numbers, from 1): BAD_INDEX (D-OBJ-2) or BAD_RESOURCE, either conforms, for each; nothing was created (the next CREATE_CQ is CQ 1)",
  "PRM §7.12.8 T76 uar_page, §12.7.2-§12.7.4 08h cqn; §12.2 T128 0x0A, 0x05; D-OBJ-2, D-MKC-13", ["Acceptable", "Handles"], "acceptable",
  [create_cq(extra={"uar_page": "0xFFFFFF"}, expect=beyond("CQ_UAR_OUT_OF_RANGE")),
   cmd("query_cq_in", {"opcode": "QUERY_CQ", "cqn": "0xFFFFFF"}, beyond("CQ_INDEX_OUT_OF_RANGE"), output_length=0x110),
   cmd("destroy_cq_in", {"opcode": "DESTROY_CQ", "cqn": 0}, beyond("CQ_INDEX_OUT_OF_RANGE")),
   modify(0x1, {"cq_period": 5}, cqn="0xFFFFFF", expect=beyond("CQ_INDEX_OUT_OF_RANGE")),
   create_cq(expect=ok({"layout": "create_cq_out", "fields": {"cqn": 1}})), flush()])

groups = [{"comment": "HCA initialized, 16 more pages, UAR 5, EQ 0 (taking CQ errors) and a 4-entry CQ buffer at 0x30000000 initialised to opcode 0xF / owner 1",
           "setup": up(), "tests": tests}]

tests = []
T("CREATE_CQ when the pages held cover only the EQ context (the init pages, D-PG-5): NO_RESOURCES (the Page Request event is dropped: EQ 0 takes CQ errors only)",
  "PRM §12.2 T128 0x0F; §12.3.1; §7.13.10.2; D-PG-4, D-PG-5", ["Pages"], "invalid",
  [create_cq(expect=refused("NO_RESOURCES", "ICM_PAGES_SHORT")),
   events([ev("eqe_dropped", eqn="0xFFFFFFFF", type=0x0B, reason=0)] + fail("CREATE_CQ", "ICM_PAGES_SHORT", "NO_RESOURCES"))])
groups.append({"comment": "HCA initialized with the boot and init pages only (EQ 0 takes the first EQ context page they hold, D-PG-5)", "setup": up(pages=0), "tests": tests})

tests = []
for op, lay, fields, outl, length in [
        ("CREATE_CQ", "create_cq_in", {"log_cq_size": 2, "uar_page": UAR, "dbr_addr": h(CQ_DBR), "pas[0]": h(CQ_BUF)}, None, 0x118),
        ("QUERY_CQ", "query_cq_in", {"cqn": 1}, 0x110, None),
        ("DESTROY_CQ", "destroy_cq_in", {"cqn": 1}, None, None),
        ("MODIFY_CQ", "modify_cq_in", {"cqn": 1, "field_select": 1}, None, 0x110)]:
    f = {"opcode": op}
    f.update(fields)
    T("%s before INIT_HCA" % op, "PRM §8.2; D-INIT-2", ["Lifecycle"], "invalid",
      [cmd(lay, f, refused("BAD_SYS_STATE", "HCA_NOT_INITIALIZED"), length=length, output_length=outl),
       events(fail(op, "HCA_NOT_INITIALIZED", "BAD_SYS_STATE"))])
groups.append({"comment": "HCA enabled, before INIT_HCA", "setup": [{"bring_up": {"to": "init_pages"}}, flush()], "tests": tests})

# ---- c_eqn outside the EQ numbers (D-OBJ-2, D-CQ-21) ----
tests = []
T("CREATE_CQ naming EQ 128 and EQ 255, beyond the 2^log_max_eq = 128 EQ numbers (0..127): BAD_INDEX (D-OBJ-2) or BAD_RESOURCE, either conforms; EQ 127, in range but no EQ: BAD_RESOURCE; nothing was created (the next CREATE_CQ is CQ 1); MODIFY_CQ remapping CQ 1 to EQ 128: BAD_INDEX or BAD_RESOURCE, to EQ 127: BAD_RESOURCE; the CQ stays on EQ 0",
  "PRM §7.12.8 T76 c_eqn; §12.7.1, §12.7.4 T275 bit 3; T145 1Ch[3:0] log_max_eq; §12.2 T128 0x0A, 0x05; D-OBJ-2, D-CQ-21", ["Acceptable", "Handles"], "acceptable",
  [create_cq(eqn=128, expect=beyond("CQ_EQ_OUT_OF_RANGE")),
   create_cq(eqn=255, expect=beyond("CQ_EQ_OUT_OF_RANGE")),
   create_cq(eqn=127, expect=refused("BAD_RESOURCE", "CQ_EQ_NOT_FOUND")),
   create_cq(expect=ok({"layout": "create_cq_out", "fields": {"cqn": 1}})), flush(),
   modify(0x8, {"c_eqn": 128}, expect=beyond("CQ_EQ_OUT_OF_RANGE")),
   modify(0x8, {"c_eqn": 127}, expect=refused("BAD_RESOURCE", "CQ_EQ_NOT_FOUND")),
   query_cq({"c_eqn": 0}), flush()])
groups.append({"comment": "HCA initialized, 16 more pages, UAR 5, EQ 0 (taking CQ errors) and a 4-entry CQ buffer at 0x30000000 initialised to opcode 0xF / owner 1",
               "setup": up(), "tests": tests})

n = write_file(OUT, "cq", [
    "CQ commands of PRM §12.7: CREATE_CQ, DESTROY_CQ, QUERY_CQ, MODIFY_CQ (op_mod 0 moderation/oi/remap, op_mod 1 resize), every validity rule and status (§12.7.1-§12.7.4, checked against T76 and T260-T279).",
    "CQ_EXHAUSTED (2^log_max_cq CQs) is in vectors/cq/cq_limits.json (profile log_max_objects).",
    "Capability-gated refusals (MODIFY_CQ without cq_moderation/cq_oi/cq_eq_remap, resize without cq_resize, cq_period_mode 1 or scqe_break_moderation_en without their caps) are in vectors/cq/cq_caps.json, whose groups lower the capabilities.",
    "CQEs, arming, moderation, overrun and the BAD_SIZE resize are in cqe.json; decisions D-CQ-* in docs/cq.md."],
    NOTES, groups)
print(OUT, n)
