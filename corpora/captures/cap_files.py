"""The pcap and pcapng writers, the expected outcome computed from the frames, and the helpers
the scenarios share.

Part of the capture generator (gen_captures.py): from public formats only, it never runs nicref."""
import os
import struct

from cap_frames import ARGS, LINK_KEY, LT_ETHERNET, MAC_SW, REL, REORDER_TOL_NS, T0_NS, other_frame
from cap_rc import lldp_bytes


# ---- Container writers -----------------------------------------------------------------------

def caplen_of(f, snaplen):
    return min(len(f.data), snaplen)


def write_pcap(path, frames, linktype, snaplen=262144, nano=True):
    """pcap (little-endian): nanosecond magic 0xa1b23c4d or microsecond 0xa1b2c3d4 (tcpdump's
    default); a microsecond stamp is the nanosecond time truncated, as the kernel does."""
    out = [struct.pack("<IHHiIII", 0xA1B23C4D if nano else 0xA1B2C3D4, 2, 4, 0, 0, snaplen,
                       linktype)]
    for f in frames:
        ts = T0_NS + f.t
        frac = ts % 10**9 if nano else (ts % 10**9) // 1000
        n = caplen_of(f, snaplen)
        out.append(struct.pack("<IIII", ts // 10**9, frac, n, len(f.data)) + f.data[:n])
    with open(path, "wb") as fh:
        fh.write(b"".join(out))


def pcapng_opt(code, value):
    return struct.pack("<HH", code, len(value)) + value + b"\0" * ((-len(value)) % 4)


def pcapng_block(btype, body):
    n = 12 + len(body)
    return struct.pack("<II", btype, n) + body + struct.pack("<I", n)


def write_pcapng(path, frames, ifaces):
    """pcapng as mergecap writes a merge: one section header, one interface description block
    per interface (name, description, if_tsresol 9 = nanoseconds), then enhanced packet blocks
    in time order, each naming its interface."""
    out = [pcapng_block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1) +
                        pcapng_opt(3, b"Linux 6.1.0-18-amd64") +
                        pcapng_opt(4, b"corpora/captures/gen_captures.py (nicref)") +
                        pcapng_opt(0, b""))]
    for linktype, snaplen, name, descr in ifaces:
        out.append(pcapng_block(1, struct.pack("<HHI", linktype, 0, snaplen) +
                                pcapng_opt(2, name) + pcapng_opt(3, descr) +
                                pcapng_opt(9, b"\x09") + pcapng_opt(0, b"")))
    for f in frames:
        ts = T0_NS + f.t
        snaplen = ifaces[f.iface][1]
        n = caplen_of(f, snaplen)
        body = struct.pack("<IIIII", f.iface, ts >> 32, ts & 0xFFFFFFFF, n, len(f.data)) + \
            f.data[:n] + b"\0" * ((-n) % 4)
        out.append(pcapng_block(6, body))
    with open(path, "wb") as fh:
        fh.write(b"".join(out))


# ---- The expected outcome, from the frames ---------------------------------------------------

def summary(frames, snaplens, linktypes, stamp_ns):
    """The contract's summary object, computed from what this file put into each frame.
    snaplens/linktypes: per interface; stamp_ns(frame) = the timestamp as written."""
    classes = dict.fromkeys(["rc", "uc", "rd", "ud", "xrc", "cnp", "cm_mad", "vendor",
                             "reserved", "cut", "malformed", "not_roce"], 0)
    links = dict.fromkeys(["ethernet", "linux_sll", "linux_sll2", "raw_ip"], 0)
    trunc = v1 = v2 = 0
    inv_ok = inv_bad = 0
    prev = None
    for f in frames:
        links[LINK_KEY[linktypes[f.iface]]] += 1
        n = caplen_of(f, snaplens[f.iface])
        cut = n < len(f.data)
        trunc += cut
        cls = f.cls
        if f.bth_end is not None and n < f.bth_end:
            assert cut
            cls = "cut"
        classes[cls] += 1
        if cls not in ("cut", "malformed", "not_roce"):
            assert f.ver in (1, 2)
            v1 += f.ver == 1
            v2 += f.ver == 2
        ts = stamp_ns(f)
        if prev is not None and ts < prev:
            if prev - ts <= REORDER_TOL_NS:
                inv_ok += 1
            else:
                inv_bad += 1
        prev = ts
    return {"frames": len(frames), "link_types": links, "truncated": trunc,
            "roce_v1": v1, "roce_v2": v2, "classes": classes,
            "timestamps": {"reorder_tolerance_ns": REORDER_TOL_NS,
                           "inversions_tolerated": inv_ok,
                           "inversions_beyond_tolerance": inv_bad}}


def flow_json(fl, frames, snaplen):
    """A flow's expected entry; requests/retransmissions count only the requests whose BTH is
    in the capture (a request cut inside its BTH is not seen)."""
    seen = [f for f in frames if f.info.get("flow") is fl and f.info.get("kind") == "req" and
            caplen_of(f, snaplen) >= f.bth_end]
    assert len(seen) == fl.requests
    return {"qp": fl.resp_qp, "ack_qp": fl.req_qp, "src": fl.addr(fl.req),
            "dst": fl.addr(fl.resp), "conforming": fl.conforming, "requests": fl.requests,
            "retransmissions": fl.retransmissions, "paired_by": fl.paired_by}


class Out:
    def __init__(self, outdir):
        self.outdir = outdir
        self.cases = []

    def path(self, name):
        return os.path.join(self.outdir, name)

    def add(self, name, what, exit_code, frames=None, flows=(), snaplens=(262144,),
            linktypes=(LT_ETHERNET,), nano=True, stderr=()):
        case = {"file": REL + name, "what": what, "args": list(ARGS), "exit": exit_code}
        if exit_code == 2:
            case["stderr_contains"] = list(stderr)
        else:
            def stamp(f):
                ts = T0_NS + f.t
                return ts if nano else ts - ts % 1000
            s = summary(frames, snaplens, linktypes, stamp)
            s["rc_flows"] = len(flows)
            case["summary"] = s
            case["flows"] = [flow_json(fl, frames, snaplens[0]) for fl in flows]
            bad = [fl for fl in flows if not fl.conforming]
            assert exit_code == (1 if bad else 0), name
        self.cases.append(case)


# ---- Scenario helpers ------------------------------------------------------------------------

def mlx_qpns(rng, n):
    """ConnectX-like QP numbers: distinct, in the few-hundred-to-thousands range."""
    qs = set()
    while len(qs) < n:
        qs.add(rng.randrange(0x100, 0x4000))
    return sorted(qs)


def loss_plan(rng, nbatches, p1=0.18, p2=0.05):
    plan = {}
    for b in range(nbatches):
        r = rng.random()
        if r < p2:
            plan[b] = 2
        elif r < p1:
            plan[b] = 1
    return plan


def sort_frames(frames):
    return sorted(frames, key=lambda f: f.t)      # stable: equal times keep their order


def tag_sports(frames):
    """Records the UDP source port of each RoCEv2 frame (read back from the bytes built)."""
    for f in frames:
        if f.ver == 2 and f.info.get("flow") is not None:
            d = f.data
            et_off = f.bth_end - 12 - 8           # UDP header start
            f.info["sport"] = struct.unpack("!H", d[et_off:et_off + 2])[0]
        elif f.info.get("flow") is not None:
            f.info["sport"] = None


def lldp_frame(link, t):
    return other_frame(link, t, MAC_SW, "01:80:c2:00:00:0e", lldp_bytes(), 0x88CC, tagged=False)
