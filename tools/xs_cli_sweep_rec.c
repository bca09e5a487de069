/* xs12 sweep REC --override REG.FIELD=V: a recording replayed with
 * register fields overridden. */
#include "xs_cli_sweep.h"

int sweep_replay_point(int argc, char **argv, sweep_row *row)
{
	(void)argc;
	(void)argv;
	(void)row;
	fprintf(stderr, "xs12 sweep: --override is not built yet\n");
	return 1;
}
