/* `nicref adp timeline` and `nicref adp check` (docs/adp.md "Tools"). */
#ifndef NICREF_ADP_CMD_H
#define NICREF_ADP_CMD_H

/* argv[0] is the subcommand. Exit status: 0 done / conforming, 1 non-conforming (check), 2
 * bad input. */
int adp_main(int argc, char **argv);

#endif
