import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_common import *

OUT = sys.argv[1]

NOTES = {
    "Ownership": {"bugType": "FUNCTIONALITY", "description": "EQEs are written at producer counter pc, entry pc mod 2^log_eq_size, owner (pc >> log_eq_size) & 1 (§7.13.2.1 -> §7.12.3.1; SW initialised owner 1), signature so that the EQE and its 24-bit index XOR to FFh (T78; D-CQE-1). Expected bytes are computed from these rules."},
    "Overrun": {"bugType": "FUNCTIONALITY", "description": "A full EQ (pc - cc == 2^log_eq_size) without oi drops the EQE (eqe_dropped reason 1) and writes nothing more (reason 2); an EQ taking asynchronous events then reports the fatal health syndrome 0Ch (T8). With oi the device overwrites; with ec every EQE goes to entry 0 (T94; D-EQ-4)."},
    "Arming": {"bugType": "FUNCTIONALITY", "description": "The EQ doorbell at UAR 40h updates CI and arms, 48h updates CI only (T13); an EQE on an armed EQ interrupts once and the EQ fires (§7.13.12); arming with EQEs not consumed interrupts at once (D-EQ-3)."},
    "Moderation": {"bugType": "FUNCTIONALITY", "description": "Interrupt frequency moderation (§7.13.15, CONFIG_INT_MODERATION min_delay): an interrupt requested while the vector's timer runs waits for it to expire."},
    "Doorbell": {"bugType": "DRIVER_VIOLATION", "description": "A doorbell naming no EQ, rung on another UAR page than the EQ's (§7.2 item 4) or with a consumer index beyond the EQEs written: a violation, and the doorbell changes nothing."},
    "Mapping": {"bugType": "FUNCTIONALITY", "description": "CREATE_EQ maps the event types of its bitmask, moving a type already mapped (L6806); DESTROY_EQ unmaps (L6808); an event no EQ takes is not reported (§12.6)."},
    "Events": {"bugType": "FUNCTIONALITY", "description": "The device's events as EQEs: Port State Change (type 09h, T86-T88), Page Request (0Bh, T91/T92), Command Interface Completion (0Ah, T89/T90; none for the CREATE_EQ/DESTROY_EQ that maps it, L6810/L6865)."},
    "QueueBusy": {"bugType": "DRIVER_VIOLATION", "description": "§7.14 L4142: the CREATE_EQ mapping command completion events must be posted while the command queue is empty."},
}

def up(pages=16, eq_entries=4):
    s = [{"bring_up": {"to": "initialized"}}]
    if pages:
        s.append(manage_pages(pages))
    s += [alloc_uar(), eq_init(EQ_BUF, eq_entries), flush()]
    return s

tests = []
tc = [0]

def T(comment, cite, flags, result, steps):
    tc[0] += 1
    tests.append({"tcId": tc[0], "comment": comment, "cite": cite, "flags": flags,
                  "result": result, "steps": steps})

def gen(eqn=0, type_=0x17, sub=0):
    return cmd("gen_eqe_in", {"opcode": "GEN_EQE", "eq_number": eqn, "event_type": h(type_), "event_sub_type": sub}, ok())

def gen_done(eqn, index, type_=0x17, sub=0, extra=()):
    return events([ev("eqe", eqn=eqn, index=index, type=type_, sub_type=sub)] + list(extra) + [done("GEN_EQE")])

def query(fields, eqn=0):
    return cmd("query_eq_in", {"opcode": "QUERY_EQ", "eq_number": eqn}, ok({"layout": "query_eq_out", "fields": fields}), output_length=0x110)

def db(eqn, ci, arm, uar=UAR):
    return bar_write(uar * 0x1000 + (0x40 if arm else 0x48), (eqn << 24) | ci)

# ---- ownership across a wrap ----
T("EQ of 2 EQEs: GEN_EQE twice writes entries 0 and 1 with owner 0; software consumes both (48h, CI 2); the third EQE wraps to entry 0 with owner 1 and the signature over index 2",
  "PRM §7.13.2.1 -> §7.12.3.1 (owner flips at each wrap); T78 owner/signature; §12.6.1 L6859; T13 48h; D-CQE-1", ["Ownership"], "valid",
  [create_eq(log_size=1), flush(),
   gen(), gen_done(0, 0), gen(), gen_done(0, 1),
   mem_expect(EQ_BUF, eqe(0x17, 0, pc=0, log_size=1) + eqe(0x17, 0, pc=1, log_size=1)),
   db(0, 2, False), events([]),
   gen(), gen_done(0, 2),
   mem_expect(EQ_BUF, eqe(0x17, 0, pc=2, log_size=1)),
   query({"producer_counter": 3, "consumer_counter": 2})])

# ---- overrun ----
T("EQ of 2 EQEs, nothing consumed: the third EQE finds it full (pc - cc = 2) and is dropped (reason 1, violation EQ_OVERRUN), entry 0 keeps the first; a later one is dropped as the EQ is in error (reason 2); no asynchronous event is mapped: no fatal health syndrome",
  "PRM §7.13.2 ('managed ... same as CQ', §7.12.1 full = pc - cc == size); T94 oi; D-EQ-4", ["Overrun"], "invalid",
  [create_eq(log_size=1), gen(), gen(), flush(),
   gen(), events([ev("violation", rule="EQ_OVERRUN", arg=0), ev("eqe_dropped", eqn=0, type=0x17, reason=1), done("GEN_EQE")]),
   mem_expect(EQ_BUF, eqe(0x17, 0, pc=0, log_size=1)),
   db(0, 2, False), gen(), events([ev("eqe_dropped", eqn=0, type=0x17, reason=2), done("GEN_EQE")]),
   {"bar_read": {"offset": "0x1010", "expect": "0x00000000", "mask": "0xFF000000"}}])
T("The same overrun on an EQ that takes Port State Change events: T8 names the health syndrome for it, 0Ch ASYNCHRONOUS_EQ_BUF_OVERRUN; the device goes fatal (`fatal` event, D-H-2) and the GEN_EQE that met it completes (§9.2.2: 'all committed data transfers ... will be completed')",
  "PRM §4.3 T8 1010h health_syndrome 0xC; §9.2.2; D-EQ-4, D-H-2", ["Overrun"], "invalid",
  [create_eq(log_size=1, bitmask=1 << 9), gen(), gen(), flush(),
   gen(), events([ev("violation", rule="EQ_OVERRUN", arg=0), ev("eqe_dropped", eqn=0, type=0x17, reason=1), ev("fatal", syndrome=0xC), done("GEN_EQE")]),
   {"bar_read": {"offset": "0x1010", "expect": "0x0C000000", "mask": "0xFF000000"}}])
T("EQ of 2 EQEs with oi (overrun ignore): the third EQE overwrites entry 0, owner 1",
  "PRM §7.13.11 T94 oi ('overrun ignore is enabled'); §7.12.1 ('old CQEs may be overwritten'); D-EQ-4", ["Overrun"], "valid",
  [create_eq(log_size=1, extra={"oi": 1}), gen(), gen(), flush(),
   gen(), gen_done(0, 2),
   mem_expect(EQ_BUF, eqe(0x17, 0, pc=2, log_size=1))])
T("EQ of 4 EQEs with ec (collapse): three EQEs all at entry 0, the last one there (owner of pc 2, signature over 2); entry 1 untouched",
  "PRM §7.13.11 T94 ec ('all EQEs are written (collapsed) to first EQ entry')", ["Overrun"], "valid",
  [create_eq(log_size=2, extra={"ec": 1}), flush(),
   gen(sub=1), gen_done(0, 0, sub=1), gen(sub=2), gen_done(0, 1, sub=2), gen(sub=3), gen_done(0, 2, sub=3),
   mem_expect(EQ_BUF, eqe(0x17, 3, pc=2, log_size=2)),
   mem_expect(EQ_BUF + 0x40, bytes(63) + b"\x01")])

# ---- arming ----
T("Arm (40h, CI 0, nothing pending): ARMED, no interrupt; an EQE interrupts on vector 3 once and the EQ fires; the next EQE does not interrupt",
  "PRM §7.13.12 ('While EQ is in Armed state, when an event is generated, hardware disarms the EQ and no additional interrupts are generated until the EQ is re-armed'); T13 40h; T94 st", ["Arming"], "valid",
  [create_eq(intr=3), flush(),
   db(0, 0, True), events([]), query({"st": 0x9}), flush(),
   gen(), gen_done(0, 0, extra=[ev("interrupt", vector=3, eqn=0)]),
   gen(), gen_done(0, 1),
   query({"st": 0xA, "producer_counter": 2, "consumer_counter": 0})])
NOW, NEXT = "D-EQ-3: at once, as §7.12.4 for CQs", "at the next event"
T("Arming with an EQE not consumed (CI 0, pc 1): §7.13.12 interrupts 'when an event is generated' while armed and does not say what an arm finds pending. Either conforms: the interrupt at once and the EQ fires again (D-EQ-3, as §7.12.4 says for CQs), or none until the next event (the EQ stays ARMED)",
  "PRM §7.13.12; D-EQ-3 (as §7.12.4 for CQs)", ["Arming"], "acceptable",
  [create_eq(intr=3), gen(), flush(),
   db(0, 0, True), events_any((NOW, [ev("interrupt", vector=3, eqn=0)], True), (NEXT, [], True)),
   cmd("query_eq_in", {"opcode": "QUERY_EQ", "eq_number": 0},
       dict(ok(), any_of=any_of((NOW, {"output": {"layout": "query_eq_out", "fields": {"st": 0xA}}}),
                               (NEXT, {"output": {"layout": "query_eq_out", "fields": {"st": 0x9}}}))), output_length=0x110)])
T("48h updates the consumer index without arming: no interrupt at the next EQE; then 40h with CI = pc arms and the next EQE interrupts",
  "PRM §7.2.2 T13 (48h 'update CI', 40h 'update CI and Arm'); §7.13.12", ["Arming"], "valid",
  [create_eq(intr=3), gen(), flush(),
   db(0, 1, False), events([]), query({"st": 0xA, "consumer_counter": 1}), flush(),
   gen(), gen_done(0, 1),
   db(0, 2, True), events([]), query({"st": 0x9, "consumer_counter": 2}), flush(),
   gen(), gen_done(0, 2, extra=[ev("interrupt", vector=3, eqn=0)])])
T("EQ doorbells breaking the rules change nothing: EQ 9 does not exist; UAR 6 is not the EQ's page; CI 1 with no EQE written",
  "PRM §7.2 item 4 ('HCA validates that the UAR page used ... matches'); T13; §7.13.2", ["Doorbell"], "invalid",
  [create_eq(intr=3), alloc_uar(6), flush(),
   db(9, 0, True), events([ev("violation", rule="EQ_DB_NO_EQ", arg=9)]),
   db(0, 0, True, uar=6), events([ev("violation", rule="EQ_DB_WRONG_UAR", arg=0)]),
   db(0, 1, True), events([ev("violation", rule="EQ_DB_CI_BEYOND_PC", arg=1)]),
   query({"st": 0xA, "consumer_counter": 0})])
T("Interrupt moderation 10 us on vector 3: the first interrupt fires at once; the next, requested at once, waits until 10 us after the first",
  "PRM §7.13.15; §12.3.17 T209/T210 (min_delay, 1 us units)", ["Moderation"], "valid",
  [cmd("config_int_moderation_in", {"opcode": "CONFIG_INT_MODERATION", "op_mod": 0, "min_delay": 10, "int_vector": 3}, ok()),
   create_eq(intr=3), flush(),
   db(0, 0, True), gen(), gen_done(0, 0, extra=[ev("interrupt", vector=3, eqn=0)]),
   db(0, 1, True), gen(), gen_done(0, 1),
   advance(9999), events([]),
   advance(1), events([ev("interrupt", vector=3, eqn=0)])])

# ---- mapping and the device's events ----
PAOS_DOWN = cmd("access_reg_paos_in", {"opcode": "ACCESS_REG", "op_mod": 0, "register_id": "0x5006", "local_port": 1, "admin_status": 2, "ase": 1}, ok(), output_length=0x20)
T("EQ 0 then EQ 1 both map Port State Change (type 9): the type moves to EQ 1 (QUERY_EQ bitmasks 0 and 200h); a port going down writes the EQE on EQ 1 (sub_type 1, port_num 1 at event data 08h[31:28])",
  "PRM §12.6.1 L6806 ('it will be remapped to the new EQ'); §7.13.9.2 T86-T88; D-EQ-5; D-REG-23 (sub_type 1 down)", ["Mapping", "Events"], "valid",
  [create_eq(bitmask=1 << 9), eq_init(EQ_BUF2, 4), create_eq(bitmask=1 << 9, buf=EQ_BUF2, eqn=1), flush(),
   query({"event_bitmask": 0}, eqn=0), query({"event_bitmask": "0x200"}, eqn=1), flush(),
   PAOS_DOWN,
   events([ev("port_event", port=1, subtype=1), ev("eqe", eqn=1, index=0, type=9, sub_type=1), done("ACCESS_REG")]),
   mem_expect(EQ_BUF2, eqe(9, 1, data=bytes([0, 0, 0, 0, 0, 0, 0, 0, 0x10]), pc=0, log_size=2))])
T("DESTROY_EQ unmaps its events: the next port change makes no EQE (only the trace's port_event)",
  "PRM §12.6.1 L6808 ('Destroying the EQ will cause all events mapped to this EQ to be unmapped'); §12.6 L6787; D-EQ-6", ["Mapping"], "valid",
  [create_eq(bitmask=1 << 9), cmd("destroy_eq_in", {"opcode": "DESTROY_EQ", "eq_number": 0}, ok()), flush(),
   PAOS_DOWN, events([ev("port_event", port=1, subtype=1), done("ACCESS_REG")])])
T("Command completion events: the CREATE_EQ mapping type 0Ah has none; a NOP then writes one (vector bit 0: slot 0) after its completion; the DESTROY_EQ unmapping it has none, nor the next NOP",
  "PRM §7.14 ('If EQ is set and mapped to this command queue, SW will be informed on command completion by EQE'); §7.13.10.1 T89/T90; §12.6.1 L6810; §12.6.2 L6865; §12.18.1; D-EQ-6", ["Events"], "valid",
  [create_eq(bitmask=1 << 0x0A), events([done("CREATE_EQ")]),
   cmd("nop_in", {"opcode": "NOP"}, ok()),
   events([done("NOP"), ev("eqe", eqn=0, index=0, type=0x0A, sub_type=0)]),
   mem_expect(EQ_BUF, eqe(0x0A, 0, data=be32(1), pc=0, log_size=2)),
   cmd("destroy_eq_in", {"opcode": "DESTROY_EQ", "eq_number": 0}, ok()), events([done("DESTROY_EQ")]),
   cmd("nop_in", {"opcode": "NOP"}, ok()), events([done("NOP")])])
T("CREATE_EQ mapping command completion events while slot 1 is posted (ownership 1): violation (arg: slot bitmap 2); the EQ is created",
  "PRM §7.14 L4142 ('must be posted to the command queue while it is empty and no other command should be posted')", ["QueueBusy"], "invalid",
  [mem_write(CMDQ + 0x40 + 0x3F, b"\x01"),
   create_eq(bitmask=1 << 0x0A),
   events([ev("violation", rule="EQ_CMD_EVENTS_QUEUE_BUSY", arg=2), done("CREATE_EQ")]),
   mem_write(CMDQ + 0x40 + 0x3F, b"\x00")])

groups = [{"comment": "HCA initialized, 16 more pages, UAR 5, a 4-entry EQ buffer at 0x31000000 initialised to owner 1",
           "setup": up(), "tests": tests}]

tests = []
T("The EQ that takes Page Request (type 0Bh) gets one when a CQ context needs a page the device lacks: num_pages 1 at event data 04h; CREATE_CQ answers NO_RESOURCES; no second request before MANAGE_PAGES",
  "PRM §7.13.10.2 T91/T92 ('once Page Request Event is generated, it will not be generated again before the driver executes the MANAGE_PAGES command'); §12.2 T128 0x0F; D-PG-4", ["Events"], "valid",
  [create_eq(bitmask=1 << 0x0B), cq_init(CQ_BUF, 4), flush(),
   create_cq(expect=refused("NO_RESOURCES", "ICM_PAGES_SHORT")),
   events([ev("eqe", eqn=0, index=0, type=0x0B, sub_type=0)] + fail("CREATE_CQ", "ICM_PAGES_SHORT", "NO_RESOURCES")),
   mem_expect(EQ_BUF, eqe(0x0B, 0, data=bytes(4) + be32(1), pc=0, log_size=2)),
   create_cq(expect=refused("NO_RESOURCES", "ICM_PAGES_SHORT")),
   events(fail("CREATE_CQ", "ICM_PAGES_SHORT", "NO_RESOURCES")),
   manage_pages(1, base=0x12000000), create_cq(), flush()])
groups.append({"comment": "HCA initialized with the boot and init pages only: room for the first EQ's context (D-PG-5) and nothing more; page_wait 0, the refusal of D-PG-4",
               "profile": {"page_wait": 0}, "setup": up(pages=0), "tests": tests})

# D-PG-6 (with PRM §7.13.10.2 T91/T92: the Page Request is answered by MANAGE_PAGES, §12.3.2):
# a command short of pages waits, owned by the device (§7.14.1 T96: ownership 1 until it
# completes), only if its Page Request EQE was written and another slot can carry the answer; an
# answer is a MANAGE_PAGES that ran (delivery OK), giving the pages (the command runs again) or
# refusing them (ALLOCATION_FAIL, op_mod 0: the command completes with the refusal of D-PG-4,
# NO_RESOURCES, and no new Page Request since this one was answered).
def page_wait_start():
    """The EQ that takes Page Request, the CQ buffer, then a CREATE_CQ short of one page: its
    Page Request EQE (T91: type 0Bh, written before the command waits) and the refusal rule
    noted, but no completion (the entry stays the device's)."""
    return [create_eq(bitmask=1 << 0x0B), cq_init(CQ_BUF, 4), flush(),
            create_cq(expect={"delivery": "OK", "ownership": 1}),
            events([ev("eqe", eqn=0, index=0, type=0x0B, sub_type=0),
                    ev("cmd_fail", slot=0, opcode="CREATE_CQ", rule="ICM_PAGES_SHORT")])]

def in_slot(step, slot, entry=None):
    step["command"]["slot"] = slot
    if entry is not None:
        step["command"]["entry"] = entry
    return step

def cq_created():
    """The waiting CREATE_CQ's completion in slot 0 once the page came: OK, the first CQ (1)."""
    return {"completion": {"slot": 0, "delivery": "OK", "ownership": 0, "status": "OK", "syndrome": 0,
                           "output": {"layout": "create_cq_out", "fields": {"cqn": 1}}}}

MP_DONE_SLOT1 = ev("cmd_done", slot=1, opcode="MANAGE_PAGES", delivery="OK", status="OK")

tests = []
T("D-PG-6 (page_wait 1, the default): CREATE_CQ short of a page, once its Page Request reached the EQ, waits owned by the device (no completion); MANAGE_PAGES in slot 1 gives the page, completes, and the CQ command runs again and completes in slot 0",
  "PRM §7.13.10.2 T91/T92, §12.3.2, §7.14.1 T96 (ownership); D-PG-6", ["Events"], "valid",
  page_wait_start() +
  [in_slot(manage_pages(1, base=0x12000000), 1),
   events([MP_DONE_SLOT1, done("CREATE_CQ")]),
   cq_created(),
   flush()])
T("D-PG-6: a create waiting for pages (as test 16) when SW answers MANAGE_PAGES ALLOCATION_FAIL (op_mod 0, 'SW cannot provide the pages') in slot 1: the create completes in slot 0 with its refusal, NO_RESOURCES ICM_PAGES_SHORT, and no new Page Request is posted (the request was answered)",
  "PRM §12.3.2 T135 (op_mod 0 ALLOCATION_FAIL), §7.13.10.2 T91/T92, §7.14.1 T96 (ownership); D-PG-6", ["Events"], "valid",
  page_wait_start() +
  [in_slot(cmd("manage_pages_in", {"opcode": "MANAGE_PAGES", "op_mod": 0, "input_num_entries": 1},
               {"status": "OK"}, length=0x10), 1),
   events([MP_DONE_SLOT1] + fail("CREATE_CQ", "ICM_PAGES_SHORT", "NO_RESOURCES")),
   {"completion": {"slot": 0, "delivery": "OK", "ownership": 0, "status": "NO_RESOURCES",
                   "rule": "ICM_PAGES_SHORT"}},
   flush()])
T("D-PG-6: a doorbell for slot 0 while its CREATE_CQ waits for pages is not a new command (the entry is still the device's): violation DB_SLOT_BUSY, the command does not run again; MANAGE_PAGES in slot 1 then completes it once",
  "PRM §4.3 T8 (18h: the doorbell moves an entry to HW ownership), §7.14.1 T96 (ownership); D-PG-6", ["Events"], "valid",
  page_wait_start() +
  [{"doorbell": h(1 << 0)},
   events([ev("violation", rule="DB_SLOT_BUSY", arg=0)]),
   in_slot(manage_pages(1, base=0x12000000), 1),
   events([MP_DONE_SLOT1, done("CREATE_CQ")]),
   cq_created(),
   flush()])
bad_type = in_slot(manage_pages(1, base=0x12000000), 1, entry={"type": 5})
bad_type["command"]["expect"] = {"delivery": "BAD_TYPE", "ownership": 0}
T("D-PG-6: a MANAGE_PAGES refused at delivery (entry type 5: BAD_TYPE) never ran, so it answers nothing: the CREATE_CQ in slot 0 keeps waiting (ownership 1); a MANAGE_PAGES that runs then completes it",
  "PRM §12.3.2, §7.14.1 T96 (type 0x7, delivery status BAD_TYPE); D-PG-6", ["Events"], "valid",
  page_wait_start() +
  [bad_type,
   events([ev("violation", rule="ENTRY_BAD_TYPE"),
           ev("cmd_done", slot=1, opcode="MANAGE_PAGES", delivery="BAD_TYPE", status="OK")]),
   {"completion": {"slot": 0, "delivery": "OK", "ownership": 1}},
   in_slot(manage_pages(1, base=0x12000000), 1),
   events([MP_DONE_SLOT1, done("CREATE_CQ")]),
   cq_created(),
   flush()])
groups.append({"comment": "HCA initialized with the boot and init pages only, the default profile (page_wait 1)",
               "setup": up(pages=0), "tests": tests})

tests = []
T("D-PG-6: with a queue of one entry no other slot could carry the MANAGE_PAGES that answers a Page Request, so a CREATE_CQ short of pages does not wait: it is refused at once, NO_RESOURCES ICM_PAGES_SHORT (D-PG-4), with its Page Request EQE",
  "PRM §4.3 T8 (log_cmdq_size), §7.13.10.2 T91/T92, §12.2 T128 0x0F; D-PG-4, D-PG-6", ["Events"], "valid",
  [create_eq(bitmask=1 << 0x0B), cq_init(CQ_BUF, 4), flush(),
   create_cq(expect=refused("NO_RESOURCES", "ICM_PAGES_SHORT")),
   events([ev("eqe", eqn=0, index=0, type=0x0B, sub_type=0)] + fail("CREATE_CQ", "ICM_PAGES_SHORT", "NO_RESOURCES"))])
groups.append({"comment": "As the group of tests 16-19, with a command queue of one entry (profile log_cmdq_size 0)",
               "setup": up(pages=0), "tests": tests, "profile": {"log_cmdq_size": 0}})

# Session 29 (eqfix): added last so that the earlier tcIds stay.
tests = []
T("Interrupt moderation 10 us on vector 3: the second interrupt, held, is due 10 us after the first; one 20 us clock advance releases it, and it fired at its deadline, so the timer reloads there (not at the end of the advance): a third request at 20 us, 10 us after it, fires at once",
  "PRM §7.13.15 ('Every time interrupt is fired ... the timer is re-loaded'); §12.3.17 T209/T210 (min_delay, 1 us units); D-EQ-11", ["Moderation"], "valid",
  [cmd("config_int_moderation_in", {"opcode": "CONFIG_INT_MODERATION", "op_mod": 0, "min_delay": 10, "int_vector": 3}, ok()),
   create_eq(intr=3), flush(),
   db(0, 0, True), gen(), gen_done(0, 0, extra=[ev("interrupt", vector=3, eqn=0)]),
   db(0, 1, True), gen(), gen_done(0, 1),
   advance(20000), events([ev("interrupt", vector=3, eqn=0)]),
   db(0, 2, True), gen(), gen_done(0, 2, extra=[ev("interrupt", vector=3, eqn=0)])])
groups.append({"comment": "HCA initialized, 16 more pages, UAR 5, a 4-entry EQ buffer at 0x31000000 initialised to owner 1 (session 29: added last so that earlier tcIds stay)",
               "setup": up(), "tests": tests})

# Session 31 (initfix): the fatal state (D-H-2), added last so that earlier tcIds stay.
def overrun_fatal():
    """An EQ of 2 EQEs that takes Port State Change events (T86), nothing consumed: the third
    EQE overruns it, the fatal ASYNCHRONOUS_EQ_BUF_OVERRUN (T8 0xC, D-EQ-4)."""
    return [create_eq(log_size=1, bitmask=1 << 9), gen(), gen(), flush(),
            gen(), events([ev("violation", rule="EQ_OVERRUN", arg=0), ev("eqe_dropped", eqn=0, type=0x17, reason=1),
                           ev("fatal", syndrome=0xC), done("GEN_EQE")])]

NOTES["Fatal"] = {"bugType": "FUNCTIONALITY", "description": "A fatal error (T8 1010h health_syndrome not 0): §9.2.2 'HCA will halt execution - all committed data transfers (PCI and network) will be completed, but no new operation will start and the HCA will halt awaiting for hardware reset'; §7.13.9.1 the first dword of the internal error buffer (T7 200h, D-H-3) becomes non-zero. A command rung after it is not executed: it stays the device's (ownership 1), or, the other reading of D-H-2, completes with T96 delivery status 0x6 internal error."}
tests = []
T("EQ overrun on an EQ taking asynchronous events, then a NOP: the device halted (§9.2.2 'no new operation will start'), so the NOP is not executed: its entry stays the device's (D-H-2, ownership 1, no cmd_done), or it completes with T96 delivery status 0x6 'internal error' (D-H-2's other reading)",
  "PRM §9.2.2 ('HCA will halt execution ... no new operation will start and the HCA will halt awaiting for hardware reset'); §7.14.1 T96 (delivery status 0x6 internal error); §4.3 T8 1010h 0xC; D-EQ-4, D-H-2", ["Fatal"], "acceptable",
  overrun_fatal() +
  [cmd("nop_in", {"opcode": "NOP"}, {"any_of": [
       {"reading": "D-H-2: doorbell consumed, nothing executed", "delivery": "OK", "ownership": 1},
       {"reading": "D-H-2 other: completes with delivery 0x6 internal error", "delivery": "INTERNAL", "ownership": 0}]}),
   events_any(("D-H-2: doorbell consumed, nothing executed", [], True),
              ("D-H-2 other: completes with delivery 0x6 internal error",
               [ev("cmd_done", slot=0, opcode="NOP", delivery="INTERNAL")], True))])
T("EQ overrun on an EQ taking asynchronous events: the internal error buffer's first dword (T7 200h, D-H-3) reads non-zero, and 1010h health_syndrome reads 0Ch; it read 0 before the error",
  "PRM §7.13.9.1 ('When an error is reported, the Internal Error buffer will cause a non zero value to appear in the first DWORD of the buffer'); §4.3 T7 (200h-23Ch), T8 1010h 0xC; D-H-3", ["Fatal"], "valid",
  [{"bar_read": {"offset": "0x200", "expect": 0}}] + overrun_fatal() +
  [{"bar_read": {"offset": "0x200", "expect": {"ne": 0}}},
   {"bar_read": {"offset": "0x1010", "expect": "0x0C000000", "mask": "0xFF000000"}}])
T("EQ overrun on an EQ that takes no asynchronous event (no fatal error, D-EQ-4): the device goes on; a NOP completes OK and the internal error buffer's first dword still reads 0",
  "PRM §7.13.11 T94; §4.3 T8 1010h; §7.13.9.1; D-EQ-4, D-H-2, D-H-3", ["Fatal"], "invalid",
  [create_eq(log_size=1), gen(), gen(), flush(),
   gen(), events([ev("violation", rule="EQ_OVERRUN", arg=0), ev("eqe_dropped", eqn=0, type=0x17, reason=1), done("GEN_EQE")]),
   cmd("nop_in", {"opcode": "NOP"}, ok()), events([done("NOP")]),
   {"bar_read": {"offset": "0x200", "expect": 0}}])
groups.append({"comment": "HCA initialized, 16 more pages, UAR 5, a 4-entry EQ buffer at 0x31000000 initialised to owner 1 (session 31: the fatal state, added last so that earlier tcIds stay)",
               "setup": up(), "tests": tests})

n = write_file(OUT, "eq", [
    "EQEs and events of PRM §7.13: EQE ownership across a wrap and signatures (T77/T78), overrun, oi and ec (T94), the EQ doorbells and arming (§7.2.2 T13, §7.13.12), interrupt frequency moderation (§7.13.15), event mapping (§12.6.1) and the device's events (Port State Change, Page Request, Command Interface Completion).",
    "GEN_EQE (§12.6.4) is the EQE source where the PRM gives none. Decisions D-EQ-* in docs/eq.md."],
    NOTES, groups)
print(OUT, n)
