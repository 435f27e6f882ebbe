#!/usr/bin/env bash
# `nicref drive` on the programs of harness/drivers/ (docs/drivers.md): M1, rdma-core's mlx5_vfio
# through Debian's libmlx5, must report exactly the rules of its expectation and exit 0; each
# deliberately wrong driver must report exactly its rules, exit 0 when its expectation lists
# them all and 1 when it crashes or hangs (a failed run whatever the expectation), and exit 1
# with no expectation at all; the JSON and JUnit reports validate against docs/schemas/; two
# runs of M1 give the same trace; usage errors exit 2.
# Usage: ci/check_drive.sh TOOL DRIVERS_DIR
set -u
tool=$1 dir=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
problems=0
# M1's expectation is for the libmlx5 of Debian bookworm's ibverbs-providers 44.0-2: another
# version may break other rules, and then the expectation needs a look, not an edit on trust.
ver=$(dpkg-query -W -f='${Version}' ibverbs-providers 2>/dev/null || echo unknown)
[ "$ver" = "44.0-2" ] || echo "drive-check: note: ibverbs-providers $ver, M1's expectation is for 44.0-2" >&2
fail() { echo "drive-check: $*" >&2; problems=$((problems + 1)); }

# program, nicref drive's exit status with the program's expectation
runs=("mlx5_vfio_smoke 0" "mlx5_vfio_devx 0" "mlx5_vfio_traffic 0" "reopen 0" "uar_quadword 0" "sleep_clock 0"
	"bad_wild_bar 0" "bad_dma 0" "bad_outstanding 0" "bad_crash 1" "bad_hang 1")
# M2's traffic: the frames out to a pcap, one frame injected once SET_FLOW_TABLE_ROOT completed
inject=harness/drivers/frames/bcast60.pcap@0x92f
for r in "${runs[@]}"; do
	set -- $r
	p=$1 want=$2
	exp=harness/drivers/expect/$p.expect
	extra=()
	[ "$p" = mlx5_vfio_traffic ] && extra=(--pcap "$out/$p.pcap" --inject "$inject")
	"$tool" drive --expect "$exp" --json "$out/$p.json" --junit "$out/$p.xml" --trace "$out/$p.trace" \
		"${extra[@]}" -- "$dir/$p" >"$out/$p.txt" 2>&1
	rc=$?
	[ "$rc" = "$want" ] || fail "$p: exit $rc, expected $want"
	if grep -q "<- not expected\|^expected but not reported" "$out/$p.txt"; then
		fail "$p: the reported rules differ from $exp:"
		grep "<- not expected\|^expected but not reported" "$out/$p.txt" >&2
	fi
	grep -q "^verdict: " "$out/$p.txt" || fail "$p: no verdict"
	xmllint --noout --schema docs/schemas/junit.xsd "$out/$p.xml" 2>/dev/null ||
		fail "$p: the JUnit report does not validate"
	/usr/bin/python3 -c 'import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
		"$out/$p.json" docs/schemas/report.schema.json || fail "$p: the JSON report does not validate"
	# the same run twice gives the same trace, byte for byte (virtual time, D-VFIO-5)
	if [ "$p" = mlx5_vfio_smoke ]; then
		"$tool" drive --trace "$out/$p.trace2" -- "$dir/$p" >/dev/null 2>&1
		cmp -s "$out/$p.trace" "$out/$p.trace2" || fail "$p: two runs, two traces"
		[ -s "$out/$p.trace" ] || fail "$p: empty trace"
		grep -q "commands: 2[0-9] executed" "$out/$p.txt" || fail "$p: the bring-up did not run"
	fi
	# M2's first part: three UMEMs registered, a DevX CQ in two of them created, queried and
	# destroyed, an RQ in two of them and an RQT of it, the UMEMs deregistered, a transport
	# domain and a TIS, through the driver
	# (docs/umem.md)
	if [ "$p" = mlx5_vfio_devx ]; then
		for c in "0xa08 CREATE_UMEM  *OK x3" "0xa0a DESTROY_UMEM  *OK x3" \
			"0xa0a DESTROY_UMEM  *BAD_RES_STATE x1" "0x400 CREATE_CQ  *OK x1" \
			"0x402 QUERY_CQ  *OK x1" "0x401 DESTROY_CQ  *OK x1" "0x912 CREATE_TIS  *OK x1" \
			"0x908 CREATE_RQ  *OK x1" "0x90b QUERY_RQ  *OK x1" "0x90a DESTROY_RQ  *OK x1" \
			"0x916 CREATE_RQT  *OK x1" "0x919 QUERY_RQT  *OK x1" "0x918 DESTROY_RQT  *OK x1" \
			"0x915 QUERY_TIS  *OK x1" "0x914 DESTROY_TIS  *OK x1"; do
			grep -q "$c" "$out/$p.txt" || fail "$p: no \"$c\" in the verdict"
		done
	fi
	# M2's second part: an SQ, a Direct TIR, an RQT and an RSS TIR created, queried and
	# destroyed; three frames sent
	# (doorbell, Blue Flame in order, Blue Flame doorbell last: D-VFIO-9), each on the wire as
	# the WQE's 18 inline bytes and its 42 gathered bytes unchanged (PRM §7.4.4.1 T28/T38,
	# D-TX-2: no FCS); the injected frame received with its CQE (the program checks the CQE
	# and the buffer and exits 14 otherwise); the same trace twice
	if [ "$p" = mlx5_vfio_traffic ]; then
		for c in "0x904 CREATE_SQ  *OK x1" "0x905 MODIFY_SQ  *OK x1" "0x907 QUERY_SQ  *OK x1" \
			"0x906 DESTROY_SQ  *OK x1" "0x900 CREATE_TIR  *OK x2" "0x903 QUERY_TIR  *OK x2" \
			"0x902 DESTROY_TIR  *OK x2" "0x916 CREATE_RQT  *OK x1" "0x918 DESTROY_RQT  *OK x1" \
			"0x909 MODIFY_RQ  *OK x1" "0x92f SET_FLOW_TABLE_ROOT  *OK x1" \
			"^frames: 3 out, 1 in, 0 receive drops, 0 send discards" "^  inject 1 frames after command"; do
			grep -q "$c" "$out/$p.txt" || fail "$p: no \"$c\" in the verdict"
		done
		grep -q "sq_doorbell .*wqe_index=0x1 .*bf=0x0" "$out/$p.trace" &&
			grep -q "sq_doorbell .*wqe_index=0x2 .*bf=0x1" "$out/$p.trace" ||
			fail "$p: the Blue Flame posts are not run as D-VFIO-9 says"
		/usr/bin/python3 - "$out/$p.pcap" <<'PY' || fail "$p: the frames on the wire are not the frames posted"
import struct, sys
d = open(sys.argv[1], "rb").read()
assert struct.unpack("<IHHiIII", d[:24])[0::6] == (0xA1B23C4D, 1)  # nanosecond stamps, Ethernet
hdr = bytes([2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x88, 0xB5])
want = [hdr + bytes((0xA0 + i + k * 0x40) & 0xFF for i in range(46)) for k in range(3)]
got, off = [], 24
while off < len(d):
    caplen, origlen = struct.unpack("<II", d[off + 8:off + 16])
    assert caplen == origlen
    got.append(d[off + 16:off + 16 + caplen])
    off += 16 + caplen
assert got == want, got
PY
		"$tool" drive --trace "$out/$p.trace2" --inject "$inject" -- "$dir/$p" >/dev/null 2>&1
		cmp -s "$out/$p.trace" "$out/$p.trace2" || fail "$p: two runs, two traces"
		# without the injected frame the program waits in vain and says so (exit 14)
		"$tool" drive -- "$dir/$p" >"$out/$p.noinject" 2>&1
		grep -q "^program: exited with status 14" "$out/$p.noinject" ||
			fail "$p: without --inject the program did not fail at the receive step"
		# injected after a command count, before any flow table: the frame arrives and the
		# receive path drops it (D-VFIO-7, docs/rx.md D-RX-8); the program waits in vain
		"$tool" drive --inject harness/drivers/frames/bcast60.pcap@20 -- "$dir/$p" >"$out/$p.early" 2>&1
		for c in "^program: exited with status 14" "^  inject 1 frames after command 20$" \
			"^frames: 3 out, 1 in, 1 receive drops, 0 send discards"; do
			grep -q "$c" "$out/$p.early" || fail "$p --inject @20: no \"$c\" in the verdict"
		done
	fi
	# 64-bit doorbell stores are not BAR_WIDE, a quadword over a dword register is (D-VFIO-8)
	if [ "$p" = uar_quadword ]; then
		grep -q "^  BAR_WIDE  *x1 " "$out/$p.txt" || fail "$p: BAR_WIDE is not reported exactly once"
	fi
done
# without an expectation every bad driver fails
for p in bad_wild_bar bad_dma bad_outstanding bad_crash bad_hang; do
	"$tool" drive -- "$dir/$p" >/dev/null 2>&1; rc=$?
	[ "$rc" = 1 ] || fail "$p without --expect: exit $rc, expected 1"
done
# through a shell: the shell loads the front end too, but only the process that opens the
# device records (the same verdict as run directly)
"$tool" drive --expect harness/drivers/expect/bad_dma.expect -- /bin/sh -c "$dir/bad_dma" >/dev/null 2>&1; rc=$?
[ "$rc" = 0 ] || fail "bad_dma through /bin/sh -c: exit $rc, expected 0"
# a program that never opens the device is no driver run
"$tool" drive -- /bin/true >/dev/null 2>&1; rc=$?
[ "$rc" = 1 ] || fail "/bin/true: exit $rc, expected 1"
# usage errors
for args in "" "--profile nosuch=1 -- /bin/true" "--profile cmdif_checksum=x -- /bin/true" \
	"--timeout 0 -- /bin/true" "-- /nonexistent/program" "--expect /nonexistent -- /bin/true" \
	"--inject /nonexistent.pcap@3 -- /bin/true" \
	"--inject harness/drivers/frames/bcast60.pcap@0 -- /bin/true" "--inject ci/check_drive.sh@3 -- /bin/true"; do
	# shellcheck disable=SC2086
	"$tool" drive $args >/dev/null 2>&1; rc=$?
	[ "$rc" = 2 ] || fail "nicref drive $args: exit $rc, expected 2"
done
if [ "$problems" -ne 0 ]; then
	echo "drive-check: $problems problem(s)" >&2
	exit 1
fi
echo "drive-check: M1 and ${#runs[@]} runs as expected, reports valid, usage errors exit 2"
