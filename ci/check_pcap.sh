#!/usr/bin/env bash
# Every frame the send-path vectors make the model transmit opens in tshark without a
# malformed-packet expert info (issue 12, "Done when"): `nicref vectors --pcap` over vectors/tx/,
# then tshark over the capture. A malformed frame is named by the vector that sent it (the
# frame_out events of the run's trace come in the capture's order).
# Skipped, with a message, while vectors/tx/ is not in the tree or tshark is not installed
# (ci/deps.sh installs it).
# Usage: ci/check_pcap.sh [TOOL] [FOLDER]   (from the repository root)
set -uo pipefail
tool=${1:-build/gcc/nicref}
folder=${2:-vectors/tx}
if [ ! -d "$folder" ]; then
  echo "pcap-check: $folder/ is not in the tree yet (the send-path vectors): skipped"
  exit 0
fi
if ! command -v tshark >/dev/null 2>&1; then
  echo "pcap-check: tshark is not installed (ci/deps.sh installs it): skipped"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$tool" vectors --pcap "$tmp/tx.pcap" --trace "$tmp/trace.txt" "$folder" >"$tmp/run.txt"
rc=$?
# 1 (a vector disagrees) is make vectors' to report; the frames sent are checked all the same.
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
  echo "pcap-check: FAIL: nicref vectors $folder exited $rc:"
  grep -E '^BAD' "$tmp/run.txt" | head -n 20
  exit 1
fi

# tshark reads the whole file (a capture it cannot read is an error), then the frames it
# dissects as malformed.
if ! tshark -r "$tmp/tx.pcap" -T fields -e frame.number >"$tmp/all.txt" 2>"$tmp/err.txt"; then
  echo "pcap-check: FAIL: tshark cannot read the capture: $(grep -v 'Running as user' "$tmp/err.txt" | head -n 3)"
  exit 1
fi
frames=$(wc -l <"$tmp/all.txt")
if [ "$frames" -eq 0 ]; then
  echo "pcap-check: FAIL: the vectors of $folder transmitted no frame"
  exit 1
fi
tshark -r "$tmp/tx.pcap" -Y _ws.malformed -T fields -e frame.number 2>/dev/null >"$tmp/bad.txt"
if [ -s "$tmp/bad.txt" ]; then
  echo "pcap-check: FAIL: $(wc -l <"$tmp/bad.txt") of $frames frames are malformed to tshark:"
  grep ' frame_out ' "$tmp/trace.txt" | awk '{ print $1 }' >"$tmp/senders.txt"
  head -n 20 "$tmp/bad.txt" | while read -r n; do
    sender=$(sed -n "${n}p" "$tmp/senders.txt")
    echo "  frame $n (${sender:-vector unknown}): $(tshark -r "$tmp/tx.pcap" -Y "frame.number == $n" 2>/dev/null)"
  done
  exit 1
fi
echo "pcap-check: $frames frames of $folder, none malformed to tshark ($(tshark -v 2>/dev/null | head -n 1))"
