import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_common import *

OUT = sys.argv[1]

NOTES = {
    "Ownership": {"bugType": "FUNCTIONALITY", "description": "A CQE is written at producer counter pc, entry pc mod 2^log_cq_size, owner (pc >> log_cq_size) & 1 (§7.12.3.1; SW initialised opcode 0xF / owner 1, D-CQ-8), signature so that the CQE and its 24-bit index XOR to FFh (T68; D-CQE-1). Expected bytes are computed from T73/T74 and these rules."},
    "Overrun": {"bugType": "FUNCTIONALITY", "description": "A CQ full by its doorbell record (pc - update_ci == 2^log_cq_size, D-CQ-2) without oi: the CQE is not written, the CQ goes to CQ_OVERFLOW and the CQ error event (type 04h, syndrome 1) goes to the EQ taking CQ errors (§7.12.1 steps 1-3, §7.12.5, T84/T85); a violation names the driver's fault. With oi old CQEs are overwritten."},
    "Arming": {"bugType": "FUNCTIONALITY", "description": "The CQ doorbell (UAR 20h/24h, T13/T14) arms with cmd_sn/cmd/ci; an armed CQ generates one completion event (EQE type 0, CQN at 18h, T80/T81) at the next qualifying CQE, then fires (§7.12.4); an arm whose cmd_sn is not the count of events delivered mod 4 is stale (D-CQ-4); arming with CQEs not consumed generates the event at once; error CQEs satisfy ARM_SOLICITED (D-CQ-5)."},
    "Moderation": {"bugType": "FUNCTIONALITY", "description": "Completion event moderation (§7.13.14): the event of an armed CQ waits until cq_max_count completions since the last event (D-CQ-6) or until the cq_period timer (1 us units) expires; the timer restarts on the event (cq_period_mode 0) or on each CQE (1)."},
    "Resize": {"bugType": "FUNCTIONALITY", "description": "Resize (§7.12.6): the Resize CQE in the old buffer at the producer index, counters unchanged, then the new buffer at pc mod the new size (D-CQ-7); a new size below the CQEs outstanding is BAD_SIZE (T128 0x40)."},
    "Doorbell": {"bugType": "DRIVER_VIOLATION", "description": "A CQ doorbell naming no CQ, on another UAR page than the CQ's (§7.2 item 4), written by halves out of order or interleaved (§7.2.2.2), with a consumer counter beyond the CQEs written, or rung on a CQ with oi (T76): a violation, and the doorbell changes nothing."},
    "Fault": {"bugType": "FUNCTIONALITY", "description": "A CQE write the host bus refuses: CQ_WRITE_FAIL (T76 status 0xA) and the CQ error event with syndrome 2 (T85; D-CQ-12)."},
}

SQN = 1

def up():
    return [{"bring_up": {"to": "initialized"}}, manage_pages(16), alloc_uar(),
            cmd("alloc_pd_in", {"opcode": "ALLOC_PD"}, ok()),
            cmd("alloc_transport_domain_in", {"opcode": "ALLOC_TRANSPORT_DOMAIN"}, ok()),
            cmd("create_tis_in", {"opcode": "CREATE_TIS", "transport_domain": 1}, ok()),
            eq_init(EQ_BUF, 8), create_eq(log_size=3, bitmask=1 << 4), flush()]

def cq_and_sq(log_size=2, extra=None, esz=64):
    """CQ 1 of 2^log_size CQEs, then SQ 1 completing to it, in ERR with flush_in_error_en: each
    WQE posted afterwards is flushed with an error CQE (T63, §7.12.7) - the CQE source."""
    return [cq_init(CQ_BUF, 1 << log_size, esz), create_cq(log_size=log_size, extra=extra),
            cmd("create_sq_in", {"opcode": "CREATE_SQ", "flush_in_error_en": 1, "min_wqe_inline_mode": 1, "cqn": 1,
                                 "tis_lst_sz": 1, "tis_num_0": 1, "wq_type": 1, "pd": 1, "uar_page": UAR,
                                 "dbr_addr_31_0": h(SQ_DBR), "log_wq_stride": 6, "log_wq_sz": 6, "pas[0]": h(SQ_BUF)},
                ok(), length=0x118),
            cmd("modify_sq_in", {"opcode": "MODIFY_SQ", "sq_state": 0, "sqn": SQN, "state": 1}, ok(), length=0x110),
            cmd("modify_sq_in", {"opcode": "MODIFY_SQ", "sq_state": 1, "sqn": SQN, "state": 3}, ok(), length=0x110),
            flush()]

def wqe(k):
    """Posts WQE k (a SEND ctrl segment, ds 1, ce 10b, T25/T26), the record's send counter k+1
    (T24), and rings the doorbell (ctrl dwords 0-1 at Blue Flame buffer 0, §7.2.2)."""
    d0, d1 = (k << 8) | 0x0A, (SQN << 8) | 1
    return [mem_write(SQ_BUF + 64 * k, be32(d0) + be32(d1) + be32(2 << 2) + be32(0)),
            mem_write(SQ_DBR + 4, be32(k + 1)),
            bar_write(UAR_PAGE + 0x800, d0), bar_write(UAR_PAGE + 0x804, d1)]

def sq_db(k):
    return ev("sq_doorbell", sqn=SQN, wqe_index=k, opcode=0x0A, ds=1, bf=0)

def cqe_ev(pc, k, opcode=13, syndrome=5):
    return ev("cqe", cqn=1, index=pc, opcode=opcode, syndrome=syndrome, wqe_counter=k)

def comp(i):
    return ev("eqe", eqn=0, index=i, type=0, sub_type=0)

def completion_eqe(i):
    return eqe(0, 0, data=bytes(0x18) + be32(1), pc=i, log_size=3)

def post(k, pc=None, extra=()):
    """WQE k flushed into CQE pc (= k unless said)."""
    pc = k if pc is None else pc
    return wqe(k) + [events([sq_db(k), cqe_ev(pc, k)] + list(extra))]

def arm(ci, sn=0, solicited=False, cqn=1, uar=UAR):
    return [bar_write(uar * 0x1000 + 0x20, (sn << 28) | ((1 if solicited else 0) << 24) | ci),
            bar_write(uar * 0x1000 + 0x24, cqn)]

def update_ci(ci):
    return mem_write(CQ_DBR, be32(ci))

def query_cq(fields, out=0x110):
    return cmd("query_cq_in", {"opcode": "QUERY_CQ", "cqn": 1}, ok({"layout": "query_cq_out", "fields": fields}), output_length=out)

tests = []
tc = [0]

def T(comment, cite, flags, result, steps):
    # A QUERY_CQ's own completion is checked right after it, so the next events step sees only
    # what it is about.
    out = []
    for i, st in enumerate(steps):
        out.append(st)
        c = st.get("command")
        if c and c["layout"] == "query_cq_in" and not (i + 1 < len(steps) and "events" in steps[i + 1]):
            out.append(events([done("QUERY_CQ")]))
    steps = out
    tc[0] += 1
    tests.append({"tcId": tc[0], "comment": comment, "cite": cite, "flags": flags,
                  "result": result, "steps": steps})

T("CQ of 2 CQEs: two flush CQEs (opcode 13, syndrome 5 WR_Flushed) at entries 0 and 1 with owner 0; software consumes both (update_ci 2); the third wraps to entry 0 with owner 1 and the signature over index 2",
  "PRM §7.12.3.1; T68 owner/signature; T73/T74; §7.12.2 T70 update_ci; D-CQE-1", ["Ownership"], "valid",
  cq_and_sq(1) + post(0) + post(1) +
  [mem_expect(CQ_BUF, err_cqe(0, 0, 1) + err_cqe(1, 1, 1)), update_ci(2)] + post(2) +
  [mem_expect(CQ_BUF, err_cqe(2, 2, 1)), query_cq({"producer_counter": 3, "consumer_counter": 2, "cq_status": 0})])
T("CQ of 2 CQEs, none consumed (update_ci 0): the third is not written; CQ_OVERFLOW; the CQ error event (type 4, cqn 1, syndrome 1 CQ_overrun) on EQ 0, which takes CQ errors",
  "PRM §7.12.1 ('If CQ is full ... Transfers the CQ to the appropriate error state ... Generates the appropriate event'); §7.12.5; T76 status 0x9; §7.13.8.2 T84/T85; D-CQ-2", ["Overrun"], "invalid",
  cq_and_sq(1) + post(0) + post(1) + wqe(2) +
  [events([sq_db(2), ev("violation", rule="CQ_OVERRUN", arg=1), ev("eqe", eqn=0, index=0, type=4, sub_type=0)]),
   mem_expect(CQ_BUF, err_cqe(0, 0, 1)),
   mem_expect(EQ_BUF, eqe(4, 0, data=be32(1) + be32(0) + be32(1), pc=0, log_size=3)),
   query_cq({"cq_status": 9, "producer_counter": 2})])
T("CQ of 2 CQEs with oi (overrun ignore): the third CQE overwrites entry 0 (owner 1)",
  "PRM §7.12.1 ('if overflow detection is disabled, then old CQEs may be overwritten'); T76 oi", ["Overrun"], "valid",
  cq_and_sq(1, extra={"oi": 1}) + post(0) + post(1) + post(2) + [mem_expect(CQ_BUF, err_cqe(2, 2, 1))])
T("ARM_NEXT with cmd_sn 0: one completion event (CQN 1 at event data 18h) at the next CQE, then FIRED and no event for the next; a new arm with the stale cmd_sn 0 is ignored; with cmd_sn 1 (one event delivered) the next CQE has its event",
  "PRM §7.12.4 ('no further events are generated before a new request for notification with a higher value of cmd_sn'); T13/T14 CQ doorbell; T80/T81; D-CQ-4", ["Arming"], "valid",
  cq_and_sq(2) + arm(0) + [events([]), query_cq({"st": 9})] +
  post(0, extra=[comp(0)]) + [mem_expect(EQ_BUF, completion_eqe(0)), query_cq({"st": 0xA, "last_notified_index": 0})] +
  post(1) + [update_ci(2)] + arm(2, sn=0) + [events([]), query_cq({"st": 0xA})] +
  arm(2, sn=1) + [events([]), query_cq({"st": 9})] + post(2, extra=[comp(1)]))
T("Arming with a CQE not consumed (ci 0, one CQE written): the event is generated at once",
  "PRM §7.12.4 ('If new CQEs are posted to the CQ after the reporting of a completion event and these CQEs are not yet consumed, then an event will be generated immediately after the request for notification is executed')", ["Arming"], "valid",
  cq_and_sq(2) + post(0) + arm(0) + [events([comp(0)]), query_cq({"st": 0xA})])
SOL, SE = "D-CQ-5: an error CQE fires ARM_SOLICITED", "only a CQE of a WQE with E set fires it"
T("ARM_SOLICITED (cmd 1): SOLICITED_NOTIFICATION_REQUEST_ARMED. §7.12.4 fires it for a 'Send WQE which completed with the E bit set' and says nothing of error completions: a flush error CQE (the WQE has no E) fires it (D-CQ-5, the InfiniBand rule: the event, then FIRED, last_solicit_index 0), or it does not (no event, still armed)",
  "PRM §7.12.4; T76 st 0x6; T14 cmd; D-CQ-5 (error CQEs count as solicited)", ["Arming"], "acceptable",
  cq_and_sq(2) + arm(0, solicited=True) + [events([]), query_cq({"st": 6})] + wqe(0) +
  [events_any((SOL, [sq_db(0), cqe_ev(0, 0), comp(0)], True), (SE, [sq_db(0), cqe_ev(0, 0)], True)),
   cmd("query_cq_in", {"opcode": "QUERY_CQ", "cqn": 1},
       dict(ok(), any_of=any_of((SOL, {"output": {"layout": "query_cq_out", "fields": {"st": 0xA, "last_solicit_index": 0}}}),
                               (SE, {"output": {"layout": "query_cq_out", "fields": {"st": 6}}}))), output_length=0x110)])
T("cq_max_count 2, armed: no event at the first CQE, the event at the second",
  "PRM §7.13.14 ('The number of completions generated since the one which triggered the last event generation reached cq_max_count'); D-CQ-6", ["Moderation"], "valid",
  cq_and_sq(2, extra={"cq_max_count": 2}) + arm(0) + [events([])] + post(0) + post(1, extra=[comp(0)]))
T("cq_period 10 us, cq_period_mode 0 (upon_event), armed at the CQ's creation time: the CQE's event waits 10 us from then",
  "PRM §7.13.14 ('The cq_period timer has expired and there is a pending event'); T76 cq_period (1 usec), cq_period_mode 0; D-CQ-6", ["Moderation"], "valid",
  cq_and_sq(2, extra={"cq_period": 10}) + arm(0) + [events([])] + post(0) +
  [advance(9999), events([]), advance(1), events([comp(0)])])
T("cq_period 10 us, cq_period_mode 1 (upon_cqe): the timer restarts at each CQE; the event follows 10 us of quiet after the last one",
  "PRM §7.13.14; T76 cq_period_mode 1 ('cq_period timer restarts upon completion generation'); T145 cq_period_start_from_cqe", ["Moderation"], "valid",
  cq_and_sq(2, extra={"cq_period": 10, "cq_period_mode": 1}) + arm(0) + [advance(50000), events([])] + post(0) +
  [advance(6000), events([])] + post(1) + [advance(6000), events([]), advance(4000), events([comp(0)])])
T("Resize of a 4-entry CQ holding 3 CQEs (2 not consumed: update_ci 1) to 8 entries: the Resize CQE at old entry 3 (owner (3 >> 2) & 1 = 0), producer_counter stays 3; the next CQE goes to entry 3 of the new buffer (owner (3 >> 3) & 1 = 0)",
  "PRM §7.12.6; T72; §12.7.4 T276/T277; D-CQ-7", ["Resize"], "valid",
  cq_and_sq(2) + post(0) + post(1) + post(2) +
  [update_ci(1), cq_init(CQ_BUF2, 8),
   cmd("modify_cq_in", {"opcode": "MODIFY_CQ", "op_mod": 1, "cqn": 1, "field_select": 7, "log_cq_size": 3, "pas[0]": h(CQ_BUF2)}, ok(), length=0x118),
   events([cqe_ev(3, 0, opcode=5, syndrome=0), done("MODIFY_CQ")]),
   mem_expect(CQ_BUF + 3 * 64, err_cqe(0, 3, 2, s_wqe_opcode=0, syndrome=0, opcode=5)),
   query_cq({"producer_counter": 3, "log_cq_size": 3})] + post(3) +
  [mem_expect(CQ_BUF2 + 3 * 64, err_cqe(3, 3, 3))])
T("Resize of a 4-entry CQ with 3 CQEs outstanding to 2 entries: BAD_SIZE, no Resize CQE, nothing changes",
  "PRM §12.2 T128 0x40 ('more outstanding CQEs in CQ than new CQ size'); §7.12.6", ["Resize"], "invalid",
  cq_and_sq(2) + post(0) + post(1) + post(2) +
  [cmd("modify_cq_in", {"opcode": "MODIFY_CQ", "op_mod": 1, "cqn": 1, "field_select": 1, "log_cq_size": 1, "pas[0]": h(CQ_BUF2)},
       refused("BAD_SIZE", "CQ_RESIZE_TOO_SMALL"), length=0x118),
   events(fail("MODIFY_CQ", "CQ_RESIZE_TOO_SMALL", "BAD_SIZE")),
   mem_expect(CQ_BUF + 3 * 64 + 63, b"\xf1"), query_cq({"log_cq_size": 2, "producer_counter": 3})])
T("CQ doorbells breaking the rules change nothing: CQ 99 does not exist; UAR 6 is not the CQ's page; 24h written first; another doorbell of the page between the halves; ci 3 with nothing written; an arm of a CQ with oi",
  "PRM §7.2 item 4; §7.2.2.2 ('from lower to upper addresses', 'No other DoorBell can be rung ... in the midst'); T14; T76 oi", ["Doorbell"], "invalid",
  cq_and_sq(2) + [alloc_uar(6), flush()] +
  arm(0, cqn=99) + [events([ev("violation", rule="CQ_DB_NO_CQ", arg=99)])] +
  arm(0, uar=6) + [events([ev("violation", rule="CQ_DB_WRONG_UAR", arg=1)])] +
  [bar_write(UAR_PAGE + 0x24, 1), events([ev("violation", rule="CQ_DB_SPLIT", arg=h((UAR << 16) | 0x24))])] +
  [bar_write(UAR_PAGE + 0x20, 0), bar_write(UAR_PAGE + 0x48, 0), events([ev("violation", rule="CQ_DB_SPLIT", arg=h((UAR << 16) | 0x48))])] +
  arm(3) + [events([ev("violation", rule="CQ_ARM_CI_BEYOND_PC", arg=1)]), query_cq({"st": 0xA}),
            cmd("modify_cq_in", {"opcode": "MODIFY_CQ", "op_mod": 0, "cqn": 1, "field_select": 4, "oi": 1}, ok(), length=0x110), flush()] +
  arm(0) + [events([ev("violation", rule="CQ_DB_WITH_OI", arg=1)]), query_cq({"st": 0xA})])
T("The CQE write fails on the bus: not written, the CQ's status CQ_WRITE_FAIL (T76 0xA, the status the PRM names for it) and the CQ error event with syndrome 2 CQ_access_violation_error (T85, the one error syndrome besides overrun)",
  "PRM §7.12.8 T76 status 0xA CQ_WRITE_FAIL; §7.13.8.2 T85; D-CQ-12", ["Fault"], "valid",
  cq_and_sq(2) + [{"dma_fault": {"addr": h(CQ_BUF), "len": "0x40", "read": False, "write": True}}] + wqe(0) +
  [events([sq_db(0), ev("dma_error", addr=h(CQ_BUF), len=64, write=1), ev("eqe", eqn=0, index=0, type=4, sub_type=0)]),
   mem_expect(EQ_BUF, eqe(4, 0, data=be32(1) + be32(0) + be32(2), pc=0, log_size=3)),
   query_cq({"cq_status": 0xA, "producer_counter": 0})])

T("cq_period 10 us, cq_period_mode 0 (upon_event): the held event is due 10 us after the CQ's creation; one 20 us clock advance releases it, and it was generated at its deadline, so the timer restarts there (not at the end of the advance): re-armed, a CQE at 20 us, 10 us after the event, has its event at once",
  "PRM §7.13.14 ('The cq_period timer restarts either upon event generation or upon completion generation'; 'The cq_period timer has expired and there is a pending event'); T76 cq_period (1 usec), cq_period_mode 0 upon_event; D-CQ-6", ["Moderation"], "valid",
  cq_and_sq(2, extra={"cq_period": 10}) + arm(0) + post(0) +
  [advance(20000), events([comp(0)]), update_ci(1)] + arm(1, sn=1) + [events([])] + post(1, extra=[comp(1)]))

def resize_to_8():
    return [cq_init(CQ_BUF2, 8),
            cmd("modify_cq_in", {"opcode": "MODIFY_CQ", "op_mod": 1, "cqn": 1, "field_select": 7, "log_cq_size": 3, "pas[0]": h(CQ_BUF2)}, ok(), length=0x118)]

T("Resize of a CQ in error (CQ_OVERFLOW after an overrun): a CQ in error takes no more CQEs, so no Resize CQE: the old buffer keeps the oldest unconsumed CQE at entry 0; the resize completes and the CQ stays in error",
  "PRM §7.12.1 ('Transfers the CQ to the appropriate error state'); §7.12.5; §7.12.6; T76 status 0x9; D-CQ-14, D-CQ-7", ["Resize"], "valid",
  cq_and_sq(1) + post(0) + post(1) + wqe(2) +
  [events([sq_db(2), ev("violation", rule="CQ_OVERRUN", arg=1), ev("eqe", eqn=0, index=0, type=4, sub_type=0)])] +
  resize_to_8() + [events([done("MODIFY_CQ")]),
   mem_expect(CQ_BUF, err_cqe(0, 0, 1) + err_cqe(1, 1, 1)),
   query_cq({"cq_status": 9, "log_cq_size": 3, "producer_counter": 2})])
T("Resize of a CQ whose old buffer is full (2 entries, 2 CQEs, update_ci 0): §7.12.6 advises the driver to reserve room for one extra CQE; there is none, a driver violation (CQ_RESIZE_NO_ROOM); the Resize CQE is written anyway at the producer index (entry 2 & 1 = 0, owner (2 >> 1) & 1 = 1) over the oldest unconsumed CQE, the counters stay",
  "PRM §7.12.6 ('it is advised that the driver reserves room for one extra CQE when creating a resizable CQ'); T72; D-CQ-7", ["Resize"], "invalid",
  cq_and_sq(1) + post(0) + post(1) + resize_to_8() +
  [events([ev("violation", rule="CQ_RESIZE_NO_ROOM", arg=1), cqe_ev(2, 0, opcode=5, syndrome=0), done("MODIFY_CQ")]),
   mem_expect(CQ_BUF, err_cqe(0, 2, 1, s_wqe_opcode=0, syndrome=0, opcode=5)),
   query_cq({"producer_counter": 2, "log_cq_size": 3, "cq_status": 0})])

groups = [{"comment": "HCA initialized, 16 more pages, UAR 5, PD 1, transport domain 1, TIS 1, EQ 0 of 8 EQEs at 0x31000000 taking CQ errors (type 4); each test creates CQ 1 (at 0x30000000, record 0x30100000) and SQ 1 completing to it, put in ERR with flush_in_error_en so that each WQE posted is flushed into a CQE",
           "setup": up(), "tests": tests}]

n = write_file(OUT, "cq", [
    "CQEs of PRM §7.12 and completion events: ownership across a wrap and signatures (§7.12.3, T68), overrun and oi (§7.12.1, §7.12.5, T84/T85), the CQ doorbell (T13/T14) and arming (§7.12.4), completion event moderation by count and period (§7.13.14), resize (§7.12.6).",
    "CQEs come from an SQ in ERR with flush_in_error_en: every WQE posted (doorbell at Blue Flame buffer 0) completes with a flush error CQE (T63, §7.12.7: opcode 13, syndrome 5, wqe_counter, s_wqe_opcode). The unsolicited-CQE cases of ARM_SOLICITED and scqe_break_moderation_en need CQEs with SE, which the flush path does not make: reference/tests/cq_cqe_test.c and cq_moderation_test.c pin them.",
    "Decisions D-CQ-* in docs/cq.md."],
    NOTES, groups)
print(OUT, n)
