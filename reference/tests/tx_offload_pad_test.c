/* TX padding (PRM §3.3.8, HCA_CAP pad_tx_eth_packet; D-TXO-1): frames shorter than 60 bytes
 * (64 with the FCS the model leaves out) padded with zeros; expected frames from the Scapy
 * generator (tx_offload_cases_pad.h). */
#include <criterion/criterion.h>

#include "tx_offload_cases_pad.h"
#include "tx_offload_util.h"

Test(tx_offload_pad, scapy_cases)
{
	txo_check_cases("pad", txo_cases_pad, sizeof(txo_cases_pad) / sizeof(txo_cases_pad[0]));
}
