/* Target: dll_rx_crc, the twin of dll_rx (dll_rx_fuzz.c, which documents the input and the
 * properties) that keeps the LCRC and DLLP CRC checks in the path: each TLP op ends with its 4
 * LCRC bytes and each DLLP op with its 2 CRC bytes from the input, as on the wire (PCIe Base
 * §3.6.2.1 T3, §3.6.2.2), so a packet gets past R3 / D2 only when the input carries its right
 * check value, and every other is a Bad TLP (Nak) or a Bad DLLP. The seeds carry the right
 * values (fuzzers/dll_rx_seeds.py computes them, apart from the model). */
#define DLL_RX_KEEP_CRC 1
#include "dll_rx_fuzz.c"
