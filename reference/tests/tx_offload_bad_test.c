/* Truncated and malformed packets through the send offloads (D-TXO-8): each gets a defined
 * result and the offloads that cannot apply are skipped; the packet and the scratch are heap
 * buffers of their exact size, so a read or write past them fails under ASan (make check).
 * Expected frames from the Scapy generator (tx_offload_cases_bad.h). */
#include <criterion/criterion.h>

#include "tx_offload_cases_bad.h"
#include "tx_offload_util.h"

Test(tx_offload_bad, scapy_cases)
{
	txo_check_cases("bad", txo_cases_bad, sizeof(txo_cases_bad) / sizeof(txo_cases_bad[0]));
}
