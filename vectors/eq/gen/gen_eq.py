import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_common import *

OUT = sys.argv[1]

NOTES = {
    "Valid": {"bugType": "FUNCTIONALITY", "description": "Correct use of the command; the device answers OK with the output the PRM table describes."},
    "ContextRule": {"bugType": "CONFORMANCE", "description": "A validity rule of the EQ context (T94) or of the CREATE_EQ input (T244); the command is refused with the rule's status and changes nothing."},
    "Resource": {"bugType": "CONFORMANCE", "description": "The command names an EQ or UAR that does not exist (T128 BAD_RESOURCE 'unallocated resource')."},
    "InUse": {"bugType": "CONFORMANCE", "description": "DESTROY_EQ of an EQ a CQ still reports to: BAD_RES_STATE, nothing changes (D-EQ-1, D-OBJ-1; docs/eq.md)."},
    "Limit": {"bugType": "CONFORMANCE", "description": "A size or count beyond HCA_CAP (log_max_eq_sz, log_max_eq): EXCEED_LIM (T128 'required capability exceeds device limits'; D-EQ-7)."},
    "Length": {"bugType": "CONFORMANCE", "description": "input_length or output_length too short for the command (T128 0x50/0x51); for CREATE_EQ also the pas[] the EQ size implies (D-EQ-9)."},
    "Pages": {"bugType": "CONFORMANCE", "description": "The device holds too few ICM pages for one more EQ context: NO_RESOURCES and a Page Request event (D-PG-4, T91/T92), dropped when no EQ takes type 0x0B."},
    "OpMod": {"bugType": "CONFORMANCE", "description": "T100: op_mod must be 0 for a command that describes none; BAD_OP."},
    "Lifecycle": {"bugType": "CONFORMANCE", "description": "EQ commands are resource commands: before INIT_HCA BAD_SYS_STATE (D-INIT-2)."},
    "Profile": {"bugType": "PROFILE", "description": "The bound comes from the device profile (64 MSI-X vectors by default, D-EQ-8), not from the PRM."},
    "Handles": {"bugType": "PROFILE", "description": "EQ numbers from 0, lowest free first (§7.13.11 'numbered from 0x0'; D-OBJ-2)."},
    "Acceptable": {"bugType": "AMBIGUOUS_SPEC", "description": "The PRM allows more than one response: the expectation lists each (any_of, the model's reading first). A number beyond its table (an eq_number of 2^log_max_eq or more, a uar_page beyond the UAR area) is BAD_INDEX (T128 0x0A 'beyond table size', D-OBJ-2) or, read as an unallocated resource, BAD_RESOURCE (0x05); a number in the table that names nothing is BAD_RESOURCE only."},
    "Caps": {"bugType": "PROFILE", "description": "The group lowers a capability (caps): the EQ numbers are 0 to 2^log_max_eq - 1 of the capability the device reports (T145)."},
}

def up(pages=16):
    s = [{"bring_up": {"to": "initialized"}}]
    if pages:
        s.append(manage_pages(pages))
    s += [alloc_uar(), eq_init(EQ_BUF, 4), flush()]
    return s

tests = []
tc = [0]

def T(comment, cite, flags, result, steps):
    tc[0] += 1
    tests.append({"tcId": tc[0], "comment": comment, "cite": cite, "flags": flags,
                  "result": result, "steps": steps})

def refuse_create(comment, cite, flags, extra, status, rule, **kw):
    T(comment, cite, flags, "invalid", [
        create_eq(extra=extra, expect=refused(status, rule), **kw),
        events(fail("CREATE_EQ", rule, status)),
        cmd("query_eq_in", {"opcode": "QUERY_EQ", "eq_number": 0},
            refused("BAD_RESOURCE", "EQ_NOT_FOUND"), output_length=0x110),
        flush()])

# ---- CREATE_EQ ----
T("CREATE_EQ of 4 EQEs on UAR 5: OK, eq_number 0 (EQs are numbered from 0x0); only the command's completion", 
  "PRM §12.6.1 T243-T246; §7.13.11 ('Each one of the functions owns EQs numbered from 0x0')", ["Valid"], "valid",
  [create_eq(), events([done("CREATE_EQ")])])
refuse_create("CREATE_EQ with EQC page_offset 1", "PRM §7.13.11 T94 page_offset 'Must be 0'", ["ContextRule"],
              {"page_offset": 1}, "BAD_PARAM", "EQ_PAGE_OFFSET_NOT_ZERO")
refuse_create("CREATE_EQ with consumer_counter 5", "PRM §7.13.11 T94 consumer_counter 'Must be 0x0 in EQ initialization'", ["ContextRule"],
              {"consumer_counter": 5}, "BAD_PARAM", "EQ_COUNTER_NOT_ZERO")
refuse_create("CREATE_EQ with producer_counter 1", "PRM §7.13.11 T94 producer_counter 'Should be 0x0 in EQ initialization'", ["ContextRule"],
              {"producer_counter": 1}, "BAD_PARAM", "EQ_COUNTER_NOT_ZERO")
refuse_create("CREATE_EQ with event bitmask bit 0 (with bit 9)", "PRM §12.6.1 T244 'bitmask[0] is reserved'", ["ContextRule"],
              {"event_bitmask": "0x201"}, "BAD_PARAM", "EQ_EVENT_BITMASK_BIT0")
refuse_create("CREATE_EQ with intr 64 on a device of 64 MSI-X vectors", "PRM §7.13.11 T94 intr ('MSI-X table entry index'); D-EQ-8", ["ContextRule", "Profile"],
              {"intr": 64}, "BAD_PARAM", "EQ_INTR_BEYOND_VECTORS")
T("CREATE_EQ with intr 63, the last vector: OK", "PRM §7.13.11 T94 intr; D-EQ-8", ["Valid", "Profile"], "valid",
  [create_eq(intr=63), events([done("CREATE_EQ")])])
refuse_create("CREATE_EQ with log_eq_size 23 beyond HCA_CAP.log_max_eq_sz 22", "PRM §7.13.1 (log_max_eq_sz), T145 1Ch[31:24]; D-EQ-7", ["Limit"],
              {"log_eq_size": 23}, "EXCEED_LIM", "EQ_LOG_SIZE_BEYOND_CAP")
refuse_create("CREATE_EQ naming UAR 6, which is not allocated", "PRM §7.13.11 T94 uar_page; §7.2", ["Resource"],
              {"uar_page": 6}, "BAD_RESOURCE", "EQ_UAR_NOT_ALLOCATED")
refuse_create("CREATE_EQ of 2^7 EQEs (8 KB, two 4 KB pages) with one pas[] entry", "PRM §12.6.1 T244 pas[]; §7.13.2; D-EQ-9", ["Length"],
              {"log_eq_size": 7}, "BAD_INPUT_LEN", "EQ_PAS_SHORT")
refuse_create("CREATE_EQ with pas[0] 0x31000800, not 4 KB aligned", "PRM §12.3.2 T139 (pa_l is bits 31:12)", ["ContextRule"],
              {"pas[0]": "0x31000800"}, "BAD_PARAM", "EQ_PAS_NOT_ALIGNED")
refuse_create("CREATE_EQ with op_mod 1", "PRM §7.14.1.2 T100; §12.6.1 T244", ["OpMod"],
              {"op_mod": 1}, "BAD_OP", "BAD_OP_MOD")
T("CREATE_EQ with input_length 100h, below its 110h-byte input", "PRM §12.2 T128 0x50; §12.6.1 T243", ["Length"], "invalid",
  [cmd("create_eq_in", {"opcode": "CREATE_EQ", "log_eq_size": 2, "uar_page": UAR, "pas[0]": h(EQ_BUF)},
       refused("BAD_INPUT_LEN", "INPUT_TOO_SHORT"), length=0x118, input_length=0x100),
   events(fail("CREATE_EQ", "INPUT_TOO_SHORT", "BAD_INPUT_LEN"))])
steps = []
for i in range(128):
    steps.append(create_eq(log_size=0, eqn=i))
steps.append(flush())
EXC, NRS = "D-OBJ-2: the count is a capability (EXCEED_LIM)", "lack of resources (NO_RESOURCES)"
steps.append(create_eq(log_size=0, expect={"delivery": "OK", "ownership": 0, "any_of": any_of(
    (EXC, {"status": "EXCEED_LIM", "rule": "EQ_EXHAUSTED"}), (NRS, {"status": "NO_RESOURCES"}))}))
steps.append(events_any((EXC, fail("CREATE_EQ", "EQ_EXHAUSTED", "EXCEED_LIM"), True),
                        (NRS, [ev("cmd_fail", slot=0, opcode="CREATE_EQ"), done("CREATE_EQ", "NO_RESOURCES")], True)))
steps.append(cmd("destroy_eq_in", {"opcode": "DESTROY_EQ", "eq_number": 77}, ok()))
steps.append(create_eq(log_size=0, eqn=77))
T("128 EQs (HCA_CAP.log_max_eq 7) numbered 0..127 (D-OBJ-2); the 129th is refused, EXCEED_LIM ('Required capability exceeds device limits') or NO_RESOURCES ('lack of resources'): T128 fits both; after DESTROY_EQ 77 the next is 77",
  "PRM T145 1Ch[3:0] log_max_eq; §12.6.1; D-OBJ-2", ["Limit", "Handles"], "acceptable", steps)

# ---- DESTROY_EQ ----
T("DESTROY_EQ: OK; the EQ is gone (QUERY_EQ BAD_RESOURCE) and its number is free again",
  "PRM §12.6.2 T247-T250", ["Valid", "Handles"], "valid",
  [create_eq(), flush(),
   cmd("destroy_eq_in", {"opcode": "DESTROY_EQ", "eq_number": 0}, ok()),
   events([done("DESTROY_EQ")]),
   cmd("query_eq_in", {"opcode": "QUERY_EQ", "eq_number": 0}, refused("BAD_RESOURCE", "EQ_NOT_FOUND"), output_length=0x110),
   create_eq(), flush()])
T("DESTROY_EQ of EQ 3, which does not exist", "PRM §12.6.2; §12.2 T128 BAD_RESOURCE", ["Resource"], "invalid",
  [create_eq(), flush(),
   cmd("destroy_eq_in", {"opcode": "DESTROY_EQ", "eq_number": 3}, refused("BAD_RESOURCE", "EQ_NOT_FOUND")),
   events(fail("DESTROY_EQ", "EQ_NOT_FOUND", "BAD_RESOURCE"))])
T("DESTROY_EQ of the EQ CQ 1 reports to (c_eqn): BAD_RES_STATE; the EQ stays; after DESTROY_CQ it goes",
  "PRM §12.6.2; §3.2.1 tear-down order; D-EQ-1", ["InUse"], "invalid",
  [create_eq(), cq_init(CQ_BUF, 4), create_cq(), flush(),
   cmd("destroy_eq_in", {"opcode": "DESTROY_EQ", "eq_number": 0}, refused("BAD_RES_STATE", "EQ_IN_USE")),
   events(fail("DESTROY_EQ", "EQ_IN_USE", "BAD_RES_STATE")),
   cmd("query_eq_in", {"opcode": "QUERY_EQ", "eq_number": 0}, ok(), output_length=0x110),
   cmd("destroy_cq_in", {"opcode": "DESTROY_CQ", "cqn": 1}, ok()),
   cmd("destroy_eq_in", {"opcode": "DESTROY_EQ", "eq_number": 0}, ok()), flush()])
T("DESTROY_EQ with op_mod 1", "PRM §7.14.1.2 T100; §12.6.2 T248", ["OpMod"], "invalid",
  [create_eq(), flush(),
   cmd("destroy_eq_in", {"opcode": "DESTROY_EQ", "op_mod": 1, "eq_number": 0}, refused("BAD_OP", "BAD_OP_MOD")),
   events(fail("DESTROY_EQ", "BAD_OP_MOD", "BAD_OP"))])

# ---- QUERY_EQ ----
T("QUERY_EQ returns the EQC as created (oi 1, log_eq_size 2, uar_page 5, intr 3, log_page_size 0), the device's st FIRED (D-EQ-2) and status OK, the counters 0, the event bitmask and pas[0]",
  "PRM §12.6.3 T251-T254; §7.13.11 T94; D-EQ-2, D-EQ-5", ["Valid"], "valid",
  [create_eq(bitmask=0x200, intr=3, extra={"oi": 1}), flush(),
   cmd("query_eq_in", {"opcode": "QUERY_EQ", "eq_number": 0},
       ok({"layout": "query_eq_out", "fields": {"eq_status": 0, "ec": 0, "oi": 1, "st": 0xA, "page_offset": 0,
                                                "log_eq_size": 2, "uar_page": UAR, "intr": 3, "log_page_size": 0,
                                                "consumer_counter": 0, "producer_counter": 0,
                                                "event_bitmask": "0x200", "pas[0]": h(EQ_BUF)}}),
       output_length=0x118),
   events([done("QUERY_EQ")])])
T("QUERY_EQ of EQ 1, which does not exist", "PRM §12.6.3; §12.2 T128 BAD_RESOURCE", ["Resource"], "invalid",
  [create_eq(), flush(),
   cmd("query_eq_in", {"opcode": "QUERY_EQ", "eq_number": 1}, refused("BAD_RESOURCE", "EQ_NOT_FOUND"), output_length=0x110),
   events(fail("QUERY_EQ", "EQ_NOT_FOUND", "BAD_RESOURCE"))])
T("QUERY_EQ with output_length 100h, below its 110h-byte output", "PRM §12.2 T128 0x51; §12.6.3 T253", ["Length"], "invalid",
  [create_eq(), flush(),
   cmd("query_eq_in", {"opcode": "QUERY_EQ", "eq_number": 0}, refused("BAD_OUTPUT_LEN", "OUTPUT_TOO_SHORT"), output_length=0x100),
   events(fail("QUERY_EQ", "OUTPUT_TOO_SHORT", "BAD_OUTPUT_LEN"))])

# ---- GEN_EQE ----
T("GEN_EQE of an EQE of type 17h sub_type 2: written at entry 0 with owner 0 (first pass) and the signature (XOR of the EQE and index 0 is FFh)",
  "PRM §12.6.4 T255-T258; §7.13.2.1; T78 owner/signature; D-CQE-1", ["Valid"], "valid",
  [create_eq(), flush(),
   cmd("gen_eqe_in", {"opcode": "GEN_EQE", "eq_number": 0, "event_type": "0x17", "event_sub_type": 2}, ok()),
   events([ev("eqe", eqn=0, index=0, type=0x17, sub_type=2), done("GEN_EQE")]),
   mem_expect(EQ_BUF, eqe(0x17, 2, index=0, log_size=2))])
T("GEN_EQE on EQ 2, which does not exist", "PRM §12.6.4; §12.2 T128 BAD_RESOURCE", ["Resource"], "invalid",
  [create_eq(), flush(),
   cmd("gen_eqe_in", {"opcode": "GEN_EQE", "eq_number": 2, "event_type": "0x17"}, refused("BAD_RESOURCE", "EQ_NOT_FOUND")),
   events(fail("GEN_EQE", "EQ_NOT_FOUND", "BAD_RESOURCE")),
   mem_expect(EQ_BUF + 0x3F, b"\x01")])
T("GEN_EQE with input_length 40h, below its 50h-byte input", "PRM §12.2 T128 0x50; §12.6.4 T255", ["Length"], "invalid",
  [create_eq(), flush(),
   cmd("gen_eqe_in", {"opcode": "GEN_EQE", "eq_number": 0, "event_type": "0x17"}, refused("BAD_INPUT_LEN", "INPUT_TOO_SHORT"),
       length=0x50, input_length=0x40),
   events(fail("GEN_EQE", "INPUT_TOO_SHORT", "BAD_INPUT_LEN"))])

# ---- op_mod and input lengths of the small commands ----
for op, lay, fields in [("DESTROY_EQ", "destroy_eq_in", {"eq_number": 0}), ("QUERY_EQ", "query_eq_in", {"eq_number": 0}),
                        ("GEN_EQE", "gen_eqe_in", {"eq_number": 0, "event_type": "0x17"})]:
    f = {"opcode": op, "op_mod": 1}
    f.update(fields)
    out = 0x110 if op == "QUERY_EQ" else None
    T("%s with op_mod 1" % op, "PRM §7.14.1.2 T100 (no op_mod described: must be 0); §12.6", ["OpMod"], "invalid",
      [create_eq(), flush(), cmd(lay, f, refused("BAD_OP", "BAD_OP_MOD"), output_length=out),
       events(fail(op, "BAD_OP_MOD", "BAD_OP"))])
for op, lay in [("DESTROY_EQ", "destroy_eq_in"), ("QUERY_EQ", "query_eq_in")]:
    T("%s with input_length Ch, below its 10h-byte input" % op, "PRM §12.2 T128 0x50; §12.6", ["Length"], "invalid",
      [create_eq(), flush(),
       cmd(lay, {"opcode": op, "eq_number": 0}, refused("BAD_INPUT_LEN", "INPUT_TOO_SHORT"), length=0x10, input_length=0xC,
           output_length=0x110 if op == "QUERY_EQ" else None),
       events(fail(op, "INPUT_TOO_SHORT", "BAD_INPUT_LEN"))])

groups = [{"comment": "HCA initialized, 16 more pages given (MANAGE_PAGES), UAR 5 allocated, a 4-entry EQ buffer at 0x31000000 initialised to owner 1",
           "setup": up(), "tests": tests}]

# ---- without pages / before INIT_HCA ----
tests = []
T("CREATE_EQ with only the boot and init pages: OK, the init pages hold the first page of EQ contexts (no Page Request can reach SW before an EQ exists); QUERY_PAGES regular then asks for none",
  "PRM §12.3.1, §7.13.10.2 T91/T92 (page requests are EQEs); §8.2 (QUERY_PAGES init covers INIT_HCA and what follows); D-PG-5", ["Pages"], "valid",
  [create_eq(), events([done("CREATE_EQ")]),
   cmd("query_pages_in", {"opcode": "QUERY_PAGES", "op_mod": 3}, ok({"layout": "query_pages_out", "fields": {"num_pages": 0}})),
   flush()])
groups.append({"comment": "HCA initialized with the boot and init pages only", "setup": up(pages=0), "tests": tests})

tests = []
for op, lay, fields, outl in [("CREATE_EQ", "create_eq_in", {"log_eq_size": 2, "uar_page": UAR, "pas[0]": h(EQ_BUF)}, None),
                               ("QUERY_EQ", "query_eq_in", {"eq_number": 0}, 0x110),
                               ("DESTROY_EQ", "destroy_eq_in", {"eq_number": 0}, None),
                               ("GEN_EQE", "gen_eqe_in", {"eq_number": 0}, None)]:
    f = {"opcode": op}
    f.update(fields)
    T("%s before INIT_HCA (HCA enabled, pages given)" % op, "PRM §8.2; D-INIT-2", ["Lifecycle"], "invalid",
      [cmd(lay, f, refused("BAD_SYS_STATE", "HCA_NOT_INITIALIZED"),
           length=0x118 if op == "CREATE_EQ" else None, output_length=outl),
       events(fail(op, "HCA_NOT_INITIALIZED", "BAD_SYS_STATE"))])
groups.append({"comment": "HCA enabled, before INIT_HCA", "setup": [{"bring_up": {"to": "init_pages"}}, flush()], "tests": tests})

# ---- numbers outside their tables (D-OBJ-2) ----
tests = []
T("QUERY_EQ of EQ 128, DESTROY_EQ of EQ 255 and GEN_EQE on EQ 200, beyond the 2^log_max_eq = 128 EQ numbers (0..127): BAD_INDEX (D-OBJ-2) or BAD_RESOURCE, either conforms, for each; QUERY_EQ and GEN_EQE of EQ 127, in range but no EQ: BAD_RESOURCE; EQ 0 is untouched (no EQE written)",
  "PRM §12.6.2-§12.6.4 08h eq_number; T145 1Ch[3:0] log_max_eq; §7.13.11; §12.2 T128 0x0A, 0x05; D-OBJ-2", ["Acceptable", "Handles"], "acceptable",
  [create_eq(), flush(),
   cmd("query_eq_in", {"opcode": "QUERY_EQ", "eq_number": 128}, beyond("EQ_INDEX_OUT_OF_RANGE"), output_length=0x110),
   cmd("destroy_eq_in", {"opcode": "DESTROY_EQ", "eq_number": 255}, beyond("EQ_INDEX_OUT_OF_RANGE")),
   cmd("gen_eqe_in", {"opcode": "GEN_EQE", "eq_number": 200, "event_type": "0x17"}, beyond("EQ_INDEX_OUT_OF_RANGE")),
   cmd("query_eq_in", {"opcode": "QUERY_EQ", "eq_number": 127}, refused("BAD_RESOURCE", "EQ_NOT_FOUND"), output_length=0x110),
   cmd("gen_eqe_in", {"opcode": "GEN_EQE", "eq_number": 127, "event_type": "0x17"}, refused("BAD_RESOURCE", "EQ_NOT_FOUND")),
   mem_expect(EQ_BUF + 0x3F, b"\x01"),
   cmd("query_eq_in", {"opcode": "QUERY_EQ", "eq_number": 0}, ok(), output_length=0x110), flush()])
T("CREATE_EQ naming UAR 0xFFFFFF, beyond the UAR area: BAD_INDEX (D-OBJ-2) or BAD_RESOURCE, either conforms; nothing was created (the next CREATE_EQ is EQ 0)",
  "PRM §7.13.11 T94 uar_page; §7.2; §12.2 T128 0x0A, 0x05; D-OBJ-2, D-UAR-1", ["Acceptable", "Handles"], "acceptable",
  [create_eq(extra={"uar_page": "0xFFFFFF"}, expect=beyond("EQ_UAR_OUT_OF_RANGE")),
   create_eq(), flush()])
groups.append({"comment": "HCA initialized, 16 more pages given (MANAGE_PAGES), UAR 5 allocated, a 4-entry EQ buffer at 0x31000000 initialised to owner 1",
               "setup": up(), "tests": tests})

tests = []
T("With HCA_CAP.log_max_eq 3 the EQ numbers are 0..7: QUERY_EQ of EQ 8 and DESTROY_EQ of EQ 200 are BAD_INDEX (D-OBJ-2) or BAD_RESOURCE, either conforms; QUERY_EQ of EQ 7, in range but no EQ, is BAD_RESOURCE",
  "PRM §12.6.2-§12.6.3 08h eq_number; T145 1Ch[3:0] log_max_eq; §12.2 T128 0x0A, 0x05; D-OBJ-2", ["Acceptable", "Handles", "Caps"], "acceptable",
  [create_eq(), flush(),
   cmd("query_eq_in", {"opcode": "QUERY_EQ", "eq_number": 8}, beyond("EQ_INDEX_OUT_OF_RANGE"), output_length=0x110),
   cmd("destroy_eq_in", {"opcode": "DESTROY_EQ", "eq_number": 200}, beyond("EQ_INDEX_OUT_OF_RANGE")),
   cmd("query_eq_in", {"opcode": "QUERY_EQ", "eq_number": 7}, refused("BAD_RESOURCE", "EQ_NOT_FOUND"), output_length=0x110),
   flush()])
groups.append({"comment": "HCA_CAP.log_max_eq = 3 (8 EQs); HCA initialized, 16 more pages given, UAR 5 allocated, a 4-entry EQ buffer at 0x31000000 initialised to owner 1",
               "caps": {"hca_cap.log_max_eq": 3}, "setup": up(), "tests": tests})

n = write_file(OUT, "eq", [
    "EQ commands of PRM §12.6: CREATE_EQ, DESTROY_EQ, QUERY_EQ, GEN_EQE, every validity rule and status (§12.6.1-§12.6.4, checked against T94 and T243-T258).",
    "EQEs, doorbells, arming, interrupts and the device's events are in events.json; decisions D-EQ-* in docs/eq.md.",
    "Expected bytes (owner bit, signature) are computed from T78 and §7.12.3.1, not taken from the model."],
    NOTES, groups)
print(OUT, n)
