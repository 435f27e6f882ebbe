"""Events of the receive path: CQ overrun, timestamps, the RMP limit (PRM §7.12.5, §7.12.10, §7.10).
Part of gen_rx.py (its docstring says how the expectations are derived)."""
from rx_common import *  # noqa: F401,F403
from rx_rss import *  # noqa: F401,F403,E402
from rx_cqe import *  # noqa: F401,F403,E402
from rx_vport import *  # noqa: F401,F403,E402

# ---------------------------------------------------------------------------------------------
# events.json: the receive CQ (overrun §7.12.1, the CQE timestamp §7.12.10, se, the completion
# event) and the RMP limit event (§7.10, T55 lwm)

C_OVR = "PRM §7.12.1, §7.12.5, T79 CQ error (04h), T85"
C_TS = "PRM §7.12.10, T68 timestamp_h/timestamp_l, §4.3 T8 internal_timer, D-TS-1"
C_LWM = "PRM §7.10, T55 lwm, T66"
BRINGUP_SLACK_NS = 10_000_000  # bring_up and rx_setup take well under 10 ms of virtual time


def gen_events():
    vf = VFile("events.json", "rx_events", [
        "The receive CQ and its events: a CQ overrun on the receive CQ (PRM §7.12.1: the CQ to "
        "its error state, the RQ to ERR, the CQ error event T79 04h with T85's data), the CQE "
        "timestamp (§7.12.10, T68: the internal timer when the CQE is generated; D-TS-1 counts "
        "it from 0 at reset in virtual time), se (T68) and the completion event of an armed CQ "
        "(§7.12.4); the RMP limit event (§7.10, T55 lwm: 'when WQE count drops below this "
        "limit, an event is fired'; event type 14h, D-EV-1, D-WQ-2)."])
    b = raw(v4(UDP, 40))
    g = vf.group("a receive CQ of 2 entries (oi 0), every frame steered to one RQ",
                 [BRING_UP, rx_setup(log_cq_size=1, steer_all=[0])])
    vf.test(g, "three frames and no CQE consumed: the third CQE finds the CQ full; the CQ "
            "error event (type 04h), the RQ to ERR; the two CQEs written stay", C_OVR, [
                post(count=4), frame_step(b), frame_step(b),
                events([{"event": "cqe", "index": 0, "opcode": 2},
                        {"event": "cqe", "index": 1, "opcode": 2}]),
                frame_step(b),
                # the RQ's move to ERR is seen below (the next frame finds it not RDY), so the
                # order of its trace against the event's is not pinned
                events([{"event": "violation", "rule": "CQ_OVERRUN", "clause": "PRM §7.12.5"},
                        {"event": "eqe", "type": 4}]),
                cqes([cqe_ok(b, wqe_counter=0), cqe_ok(b, wqe_counter=1)]),
                frame_step(b), events([drop(8)]), cqes([])])
    g = vf.group("one RQ, every frame steered to it; the internal timer at 1 GHz (profile "
                 "timer_khz 1000000: one tick a nanosecond)",
                 [BRING_UP, rx_setup(steer_all=[0])], profile={"timer_khz": 1000000})
    t0 = 1_000_000_000
    vf.test(g, "the CQE's timestamp is the internal timer when the CQE was generated: 1 s of "
            "virtual time after reset and bring-up, then 5 µs more for the second frame; se 0 "
            "(a raw Ethernet frame asks no solicited event), cqe_format 0", C_TS +
            ", T68 se, cqe_format", [
                {"advance_ns": t0}, post(count=2), frame_step(b),
                cqes([cqe_ok(b, timestamp_h=0, se=0, cqe_format=0,
                             timestamp_l={"ge": t0, "le": t0 + BRINGUP_SLACK_NS})]),
                {"advance_ns": 5000}, frame_step(b),
                cqes([cqe_ok(b, wqe_counter=1, timestamp_h=0, se=0,
                             timestamp_l={"ge": t0 + 5000, "le": t0 + 5000 + BRINGUP_SLACK_NS})]),
                {"bar_read": {"offset": "0x1000", "expect": 0}},
                {"bar_read": {"offset": "0x1004",
                              "expect": {"ge": t0 + 5000, "le": t0 + 5000 + BRINGUP_SLACK_NS}}}],
            "acceptable", flags=["TimerProfile"])
    g = vf.group("one RQ, every frame steered to it; the internal timer at the default "
                 "frequency (156 MHz, HCA_CAP.device_frequency_mhz 156, D-TS-1)",
                 [BRING_UP, rx_setup(steer_all=[0])], profile={"timer_khz": 156000})
    t0 = 2_000_000_000  # 312,000,000 ticks
    lo, hi = t0 * 156000 // 10**6, (t0 + BRINGUP_SLACK_NS) * 156000 // 10**6 + 1
    vf.test(g, f"2 s of virtual time: the CQE's timestamp is {lo:#x} ticks and at most "
            "10 ms more (bring-up)", C_TS, [
                {"advance_ns": t0}, post(), frame_step(b),
                cqes([cqe_ok(b, timestamp_h=0, timestamp_l={"ge": lo, "le": hi})])],
            "acceptable", flags=["TimerProfile"])
    vf.test(g, "the CQ armed by rx_setup: the responder CQE raises a completion event "
            "(EQE type 00h) on the CQ's EQ", "PRM §7.12.4, §7.13.7 T80/T81, T79", [
                post(), frame_step(b),
                events([{"event": "frame_in", "port": 1, "len": len(b)},
                        {"event": "cqe", "opcode": 2, "wqe_counter": 0},
                        {"event": "eqe", "type": 0}]),
                cqes([cqe_ok(b, se=0)])])
    # the RMP limit (T55 lwm, "when WQE count drops below this limit, an event is fired")
    for lwm in (2, 0):
        g = vf.group(f"a cyclic RMP with lwm {lwm}, one RQ on it, every frame steered to it",
                     [BRING_UP, rx_setup(rmp={"wq_type": 1, "log_wq_stride": 6, "lwm": lwm},
                                         rqs=[{"on_rmp": 1}], steer_all=[0])])
        rmp_posts = [post(rq="rmp", entries=[{"offset": hex(0x1000 * (k + 1)),
                                              "byte_count": 400}]) for k in range(4)]
        quiet = {"events": {"expect": [{"event": "frame_in"}, {"event": "cqe", "opcode": 2}],
                            "exact": True}}
        if lwm:
            vf.test(g, "four WQEs posted, lwm 2: the first and second frames leave 3 and 2 "
                    "WQEs (not below 2): no event; the third leaves 1: the limit event "
                    "(type 14h)", C_LWM + ", D-EV-1", rmp_posts + [
                        frame_step(b), events([{"event": "cqe", "opcode": 2}]),
                        frame_step(b), quiet,
                        frame_step(b), events([{"event": "eqe", "type": 0x14}]),
                        cqes([cqe_ok(b, wqe_counter=k) for k in range(3)])],
                    "acceptable", flags=["LimitEventCode"])
            vf.test(g, "after the limit event, the fourth frame (0 left) raises no second "
                    "one (D-WQ-2: the limit disarms, lwm reads 0)", C_LWM + ", D-WQ-2",
                    rmp_posts + [frame_step(b), frame_step(b), frame_step(b),
                                 events([{"event": "eqe", "type": 0x14}]), frame_step(b),
                                 {"events": {"any_of": [
                                     {"reading": "D-WQ-2: fired once, lwm now 0",
                                      "expect": quiet["events"]["expect"], "exact": True},
                                     {"reading": "fired again below the limit",
                                      "expect": [{"event": "eqe", "type": 0x14}],
                                      "exact": False}]}}], "acceptable",
                    flags=["LimitEventCode"])
        else:
            vf.test(g, "lwm 0 ('0- Disabled', T55): four frames take every WQE, no limit event",
                    C_LWM, rmp_posts + [frame_step(b), events([{"event": "cqe", "opcode": 2}])] +
                    [frame_step(b), quiet] * 3 +
                    [cqes([cqe_ok(b, wqe_counter=k) for k in range(4)])])
    return vf


