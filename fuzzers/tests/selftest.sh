#!/usr/bin/env bash
# What the fuzz builds print and ignore (make -f fuzzers/fuzz.mk selftest; part of the smoke):
#
# 1. A finding explains itself. fuzzers/tests/broken_target.c breaks an invariant, trips a model
#    assertion and fails a target check; each must print its one line (fuzzers/fuzz_report.c)
#    before the trap, in the gcc replay build (which also names the input) and in the libFuzzer
#    build.
# 2. Reserved op codes are ignored. For each target, a committed input and the same input with
#    reserved codes inserted at op boundaries give the same trace (NICREF_FUZZ_TRACE=1), and the
#    trace is not empty; a cmd input with a reserved stage runs nothing. tx's corpus does the
#    same after its light restore as after a full bring-up.
#
# Run from the repository root after the replay and fuzz builds (fuzz.mk does both).
set -uo pipefail

fails=0
work=$(mktemp -d "${TMPDIR:-/tmp}/nicref-selftest.XXXXXX")
trap 'rm -rf "$work"' EXIT

bad() {
	echo "selftest: FAILED: $*" >&2
	fails=$((fails + 1))
}

# The line of a "selftest: <what>" marker in broken_target.c.
line_of() {
	grep -n "selftest: $1 \*/" fuzzers/tests/broken_target.c | cut -d: -f1
}

# expect_line <file> <extended regex>: some line of the file matches it whole.
expect_line() {
	grep -qxE "$2" "$1" || bad "$(basename "$1"): no line matches: $2 (got: $(head -c 600 "$1"))"
}

# --- 1. findings ---------------------------------------------------------------------------
src='fuzzers/tests/broken_target\.c'
inv_re="invariant REFCOUNT_MATCHES broken at $src:$(line_of invariant): PD [0-9]+: refs 1, held by 0 \(EQ 0, CQ 0, SQ/RQ/RMP 0, MKEY 0, TIR/RQT/TIS 0, FT/FG/FTE 0, QP 0\)"
inv2_re="  nicref_dev_check -12 \(D-OBJ-1\): each object's reference count equals the references the live objects hold to it"
ass_re='model assertion failed at reference/obj/obj\.c:[0-9]+: dev->obj_charged\[type\] > 0'
chk_re="fuzz check failed at $src:$(line_of check): len == 0"

for variant in replay fuzz; do
	bin=build/$variant/tests/broken_target
	[ -x "$bin" ] || { bad "$bin not built"; continue; }
	for k in i a c n; do
		in=$work/input-$k
		printf '%s' "$k" >"$in"
		out=$work/$variant-$k.log
		# (bash's own "Illegal instruction" notice is not the binary's output)
		{ "$bin" "$in" >"$out" 2>&1; } 2>/dev/null
		rc=$?
		case $k in
		n) [ "$rc" -eq 0 ] || bad "$variant: a healthy input exits $rc"
		   ! grep -qE '^(invariant|model assertion|fuzz check)' "$out" ||
			bad "$variant: a healthy input printed a finding"
		   continue ;;
		i) expect_line "$out" "$inv_re"; expect_line "$out" "$inv2_re" ;;
		a) expect_line "$out" "$ass_re" ;;
		c) expect_line "$out" "$chk_re" ;;
		esac
		[ "$rc" -ne 0 ] || bad "$variant $k: a finding exits 0"
		if [ "$variant" = replay ]; then
			# SIGILL after the message, and the input named
			[ "$rc" -eq 132 ] || bad "replay $k: exit $rc, not 132 (SIGILL)"
			expect_line "$out" "standalone_main: finding on input ${in//./\\.}"
		else
			expect_line "$out" '==[0-9]+== ERROR: libFuzzer: deadly signal'
		fi
	done
done

# --- 2. reserved codes ---------------------------------------------------------------------
trace_of() { # target input -> the device and op trace lines, without input offsets
	NICREF_FUZZ_TRACE=1 "build/replay/$1_fuzz" "$2" 2>&1 >/dev/null |
		grep -E '^(event|op|command|stage) ' | sed 's/ at byte [0-9]*$//'
}

# same_trace <target> <input> <variant>: the variant is the input with reserved codes inserted.
same_trace() {
	local a=$work/$1.a b=$work/$1.b
	trace_of "$1" "$2" >"$a"
	trace_of "$1" "$3" >"$b"
	[ -s "$a" ] || bad "$1: $(basename "$2") leaves no trace"
	cmp -s "$a" "$b" || bad "$1: reserved codes changed the trace of $(basename "$2"):
$(diff "$a" "$b" | head -5)"
}

# cmdq (harness/opstream.h): reserved op codes 0x09-0xFF, one byte each, before and after.
seed=corpora/cmdq/seed-bringup-nop
{ printf '\x09\xff'; cat "$seed"; printf '\x80'; } >"$work/cmdq-r"
same_trace cmdq "$seed" "$work/cmdq-r"
same_trace cmdq_strict "$seed" "$work/cmdq-r"

# bringup (bringup_ops.h): 0x1A-0xFF.
seed=corpora/bringup/seed-full-bringup
{ printf '\x1a\xff\x80'; cat "$seed"; printf '\x1a'; } >"$work/bringup-r"
same_trace bringup "$seed" "$work/bringup-r"

# ctrl: kinds 0x08-0xFF (one byte), and a command whose selector is reserved (0x34-0xFF: the
# kind and the selector).
seed=$(ls corpora/ctrl/* | head -n 1)
{ printf '\x0e\x08\xff\x00\x34\x03\xff'; cat "$seed"; } >"$work/ctrl-r"
same_trace ctrl "$seed" "$work/ctrl-r"

# adp: events 7-255 (two bytes each) after the 37-byte head, among the events. The events: a
# transmit, a re-init with a fresh draw (its seed counts events, reserved ones not), a transmit,
# an expiry (whose time shows the draw), a time step, an expiry.
head -c 37 corpora/adp/hand-escalate >"$work/adp-head"
{ cat "$work/adp-head"; printf '\x00\x00\x05\x02\x00\x00\x04\x00\x03\x0a\x04\x00'; } >"$work/adp-a"
{ cat "$work/adp-head"; printf '\x07\x00\x00\x00\xff\x05\x80\x80\x05\x02\x00\x00\x04\x00';
  printf '\x03\x0a\x09\x09\x04\x00\xff\xff'; } >"$work/adp-b"
same_trace adp "$work/adp-a" "$work/adp-b"

# tx (fuzzers/tx_ops.h): 0x0D-0xFF, the op byte alone.
seed=corpora/tx/seed-send-ptr-inline
{ printf '\x0d\xff'; cat "$seed"; printf '\x80'; } >"$work/tx-r"
same_trace tx "$seed" "$work/tx-r"

# tx restores its device from a snapshot between inputs (fuzz_snap.h), or without snapshots
# puts the SQ stack back by commands when it can (tx_fuzz.c light_restore): over its committed
# corpus, the device does the same both ways as with a full bring-up before every input
# (NICREF_TX_FULL_RESET=1), event for event (times, which go on, aside).
tx_events() { # the events of each input's ops, without the restores between inputs
	NICREF_FUZZ_TRACE=1 env "$@" build/replay/tx_fuzz corpora/tx 2>&1 >/dev/null | awk '
		BEGIN { skip = 1 }
		/^input done/ { skip = 1; next }
		/^bring-up/ { skip = 0; next }
		skip { next }
		/^(op|frame) / { print; next }
		/^event [0-9]+ / && !/ (eqe|interrupt|cmd_done|cmd_fail) / { $2 = ""; print }'
}
tx_events NICREF_TX_FULL_RESET=0 >"$work/tx-snap"
tx_events NICREF_TX_FULL_RESET=0 NICREF_FUZZ_SNAPSHOT=0 >"$work/tx-light"
tx_events NICREF_TX_FULL_RESET=1 >"$work/tx-full"
[ -s "$work/tx-light" ] || bad "tx: the corpus leaves no trace"
cmp -s "$work/tx-light" "$work/tx-full" || bad "tx: a light restore and a full bring-up differ:
$(diff "$work/tx-light" "$work/tx-full" | head -5)"
cmp -s "$work/tx-snap" "$work/tx-full" || bad "tx: a snapshot restore and a full bring-up differ:
$(diff "$work/tx-snap" "$work/tx-full" | head -5)"

# steer (steer_fuzz.c): 0x0C-0xFF; rx (rx_fuzz.c): 0x0E-0xFF; the op byte alone.
seed=corpora/steer/seed-dst-ip-udp-port
{ printf '\x0c\xff'; cat "$seed"; printf '\x80'; } >"$work/steer-r"
same_trace steer "$seed" "$work/steer-r"
seed=corpora/rx/seed-direct-vlan-no-wqe
{ printf '\x0e\xff'; cat "$seed"; printf '\x80'; } >"$work/rx-r"
same_trace rx "$seed" "$work/rx-r"

# lro (lro_fuzz.c): 0x05-0xFF, the op byte alone.
seed=corpora/lro/seed-causes
{ printf '\x05\xff'; cat "$seed"; printf '\x80'; } >"$work/lro-r"
same_trace lro "$seed" "$work/lro-r"
# roce_rx, roce_rx_icrc (roce_rx_fuzz.c): 0x05-0xFF, the op byte alone.
for t in roce_rx roce_rx_icrc; do
	seed=corpora/$t/seed-requester-acks
	{ printf '\x05\xff'; cat "$seed"; printf '\x80'; } >"$work/$t-r"
	same_trace $t "$seed" "$work/$t-r"
done
# roce_pair (roce_pair_fuzz.c): 0x04-0xFF after the config byte, the op byte alone.
seed=corpora/roce_pair/seed-write-send-read
{ head -c 1 "$seed"; printf '\x04\xff'; tail -c +2 "$seed"; printf '\x80'; } >"$work/roce_pair-r"
same_trace roce_pair "$seed" "$work/roce_pair-r"
# device (device_fuzz.c): 0x07-0xFF, the op byte alone.
seed=corpora/device/seed-frames
{ printf '\x07\xff'; cat "$seed"; printf '\x80'; } >"$work/device-r"
same_trace device "$seed" "$work/device-r"
# dll: ops 5-255 (two bytes each) after the 18-byte head.
head -c 18 corpora/dll/seed-faults >"$work/dll-head"
{ cat "$work/dll-head"; tail -c +19 corpora/dll/seed-faults; } >"$work/dll-a"
{ cat "$work/dll-head"; printf '\x05\x00\xff\x10'; tail -c +19 corpora/dll/seed-faults;
  printf '\x80\x80'; } >"$work/dll-b"
same_trace dll "$work/dll-a" "$work/dll-b"
# dll_rx, dll_rx_crc (dll_rx_fuzz.c): 0x05-0xFF after the 3-byte head, the op byte alone.
for t in dll_rx dll_rx_crc; do
	seed=corpora/$t/seed-in-order
	{ head -c 3 "$seed"; printf '\x05\xff'; tail -c +4 "$seed"; printf '\x80'; } >"$work/$t-r"
	same_trace $t "$seed" "$work/$t-r"
done

# cmd: stages 12-15 are reserved: the input runs nothing.
seed=corpora/cmd/seed-nop
[ -s "$(trace_of cmd "$seed" >"$work/cmd.a"; echo "$work/cmd.a")" ] || bad "cmd: seed-nop leaves no trace"
{ printf '\xc0'; tail -c +2 "$seed"; } >"$work/cmd-r"
[ -z "$(trace_of cmd "$work/cmd-r")" ] || bad "cmd: a reserved stage ran something"

# --- 3. checks behind a check value --------------------------------------------------------
# rx's POST bit 1 breaks the signature of a WQE of the signing RQ2 (rx_fuzz.c): its regression
# input reaches the device's receive-WQE signature check (PRM §9.2.3, T43; D-RX-14), which
# refuses the WQE with an error CQE of syndrome 0x2, and the WQE_SIGNATURE property agrees.
seed=corpora/rx/regress-rq-signature
trace_of rx "$seed" >"$work/rx-sig"
expect_line "$work/rx-sig" 'event [0-9]+ violation rule=RX_WQE_SIGNATURE arg=0x[0-9a-f]+'
expect_line "$work/rx-sig" 'event [0-9]+ cqe cqn=0x[0-9a-f]+ index=0x[0-9a-f]+ opcode=0xe syndrome=0x2 wqe_counter=0x[0-9a-f]+'

if [ "$fails" -gt 0 ]; then
	echo "selftest: $fails failure(s)" >&2
	exit 1
fi
echo "selftest: findings print name, place and state (replay and libFuzzer builds); reserved codes are ignored by cmdq, cmdq_strict, bringup, ctrl, adp, tx, steer, rx, lro, roce_rx, roce_rx_icrc, roce_pair, device, dll, dll_rx, dll_rx_crc and cmd; tx's snapshot and light restores match a full bring-up; rx reaches the receive-WQE signature check"
