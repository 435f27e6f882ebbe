/* VLAN tags in the inline headers (PRM §3.3.7): 802.1Q, 802.1ad, QinQ, what is not a tag;
 * expected frames from the Scapy generator (tx_offload_cases_l2.h). */
#include <criterion/criterion.h>

#include "tx_offload_cases_l2.h"
#include "tx_offload_util.h"

Test(tx_offload_l2, scapy_cases)
{
	txo_check_cases("l2", txo_cases_l2, sizeof(txo_cases_l2) / sizeof(txo_cases_l2[0]));
}
