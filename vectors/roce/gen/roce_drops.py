"""The names of a silent drop, for the `roce_drop` event's `reason`.

The runner compares `reason` as a number. The numbers and names are the public table
NICREF_ROCE_DROPS of nicref/roce.h (the interface the issue fixes: "vectors name them"), copied
here by hand. The generator's own rules (the left column of RULE_OF, named after what the
public material says about the packet) map to those names, as vectors/qp/gen/gen_qp.py's
RULE_OF does for the QP commands, so a rename on either side shows here and nowhere else.
"""

# nicref/roce.h NICREF_ROCE_DROPS: name -> value (values are fixed by the header's comment)
DROP = {
    "icrc": 1, "malformed": 2, "tver": 3, "opcode_unknown": 4, "no_qp": 5, "qp_state": 6,
    "service": 7, "pkey": 8, "qkey": 9, "ud_no_wqe": 10, "atomic": 11, "qp_reserved": 12,
    "ud_length": 13, "cnp_no_qp": 14, "response_unexpected": 15, "tx_no_gid": 16,
    "tx_over_mtu": 17, "tx_link_down": 18, "loopback_full": 19,
}

# the generator's rule -> the public reason, with the clause that makes the packet a silent drop
RULE_OF = {
    # IBTA Vol. 1 §9.6.1, Annex A17 §A17.3.3: the ICRC fails
    "bad_icrc": "icrc",
    # IBTA Vol. 1 §9.6.1: the packet is shorter than the headers its opcode implies
    "short_headers": "malformed",
    # IBTA Vol. 1 §9.6.1.1 C9-7: TVer other than 0
    "tver_nonzero": "tver",
    # IBTA Vol. 1 §9.2.1 Table 38: a reserved opcode, or one of a service not run (UC, RD)
    "opcode_not_run": "opcode_unknown",
    # IBTA Vol. 1 §9.6.1.4 C9-12: no QP of that number
    "destqp_unknown": "no_qp",
    # IBTA Vol. 1 §10.3.1: Reset, Init and Error do not receive
    "qp_not_receiving": "qp_state",
    # IBTA Vol. 1 §9.6.1.4 C9-13: the opcode's service is not the QP's
    "service_mismatch": "service",
    # IBTA Vol. 1 §9.6.1.2 C9-9, §10.9.3: the P_Key does not match
    "pkey_mismatch": "pkey",
    # IBTA Vol. 1 §10.2.5 C10-15, §9.6.1.5: the DETH Q_Key is not the QP's
    "qkey_mismatch": "qkey",
    # IBTA Vol. 1 §9.8: UD, no receive WQE, no RNR
    "ud_no_receive_wqe": "ud_no_wqe",
    # seed 004 L33-37 (no atomics in the operation set); IBTA Vol. 1 §9.4.5
    "atomic_request": "atomic",
    # seed 004 L42-44: QP0 and QP1 are reserved
    "management_qp": "qp_reserved",
    # IBTA Vol. 1 §9.6.3.1 C9-53: a UD payload beyond the path MTU
    "ud_over_mtu": "ud_length",
    # Annex A17 §A17.9.1: a CNP for no sending QP
    "cnp_for_no_sender": "cnp_no_qp",
    # IBTA Vol. 1 §9.7.5.1.6, §9.7.5.1.5: a ghost ACK, a response nothing waits for
    "ghost_response": "response_unexpected",
    # Annex A17 §A17.4: the source GID index names no RoCEv2 GID
    "no_source_gid": "tx_no_gid",
    # PRM §11.1.1 T106: a packet longer than the port's MTU is dropped
    "over_port_mtu": "tx_over_mtu",
    # PRM §11.1.1 PAOS: a port down passes nothing
    "port_down": "tx_link_down",
    # docs/roce.md D-ROCE-12: the loopback queue of a local GID is full (the project's decision)
    "loopback_queue_full": "loopback_full",
}


def reason(rule):
    return DROP[RULE_OF[rule]]


def ev_drop(rules, qpn=None, psn=None):
    """A roce_drop event for one rule, or for any of several (a list: the order of the checks
    is the profile's, so either reason may be the one named)."""
    if isinstance(rules, str):
        r = reason(rules)
    else:
        r = {"in": sorted(reason(x) for x in rules)}
    e = {"event": "roce_drop", "reason": r}
    if qpn is not None:
        e["qpn"] = qpn
    if psn is not None:
        e["psn"] = psn
    return e
