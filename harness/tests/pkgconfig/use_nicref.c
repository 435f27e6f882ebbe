/* A program built against an installed libnicref through pkg-config (ci/check_install.sh): it
 * creates a device, reads the firmware and command interface revisions from the BAR0
 * initialization segment (PRM §4.3 T8: 00h fw_rev_minor[31:16] fw_rev_major[15:0], 04h
 * cmd_interface_rev[31:16] fw_rev_subminor[15:0]), destroys the device and prints them. */
#include <stdio.h>

#include <nicref/nicref.h>

int main(void)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	struct nicref_dev *dev = nicref_dev_create(&cfg);
	if (!dev) {
		fprintf(stderr, "use_nicref: nicref_dev_create failed\n");
		return 1;
	}
	uint32_t fw = nicref_bar_read32(dev, 0x00), cmdif = nicref_bar_read32(dev, 0x04);
	nicref_dev_destroy(dev);
	printf("libnicref %s (headers %s): fw_rev %u.%u.%u, cmd_interface_rev %u\n",
	       nicref_version(), NICREF_VERSION_STRING, fw & 0xFFFFu, fw >> 16, cmdif & 0xFFFFu,
	       cmdif >> 16);
	return 0;
}
