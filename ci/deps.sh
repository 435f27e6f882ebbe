#!/usr/bin/env bash
# Install every Debian package nicref needs. Quick (no apt at all) when they are present.
# Usage: ci/deps.sh        install what is missing (needs root or sudo)
#        ci/deps.sh --check exit 1 if something is missing, install nothing
set -euo pipefail

pkgs=(
  make gcc clang llvm            # build; llvm gives llvm-cov / llvm-profdata
  pkg-config groff-base          # make install-check (pkg-config), the man page check (groff)
  libclang-rt-14-dev             # libFuzzer, ASan, UBSan runtimes for clang
  libcriterion-dev               # unit tests
  libjansson-dev                 # vectors and reports (JSON)
  libpcap-dev                    # capture replay
  afl++                          # AFL++ builds of the fuzz targets
  python3-jsonschema             # vector files and the JSON report validated against schemas
  libxml2-utils                  # xmllint: the JUnit report validated against docs/schemas/junit.xsd
  python3-scapy                  # generated packet corpora
  gcovr                          # coverage reports
  tshark                         # make pcap-check: the vectors' frames dissected by Wireshark
  libibverbs-dev ibverbs-providers # nicref drive's M1: rdma-core's mlx5_vfio (libmlx5) and headers
)

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "${1:-}" = "--check" ]; then
  echo "missing packages: ${missing[*]}" >&2
  exit 1
fi

echo "ci/deps.sh: installing ${missing[*]}" >&2
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
# wireshark-common asks whether non-root users may capture; the answer, no, is given beforehand.
if printf '%s\n' "${missing[@]}" | grep -qx tshark; then
  echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections
fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
