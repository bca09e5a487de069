/* xs12 pm4 (placeholder until its issue lands). */
#include "xs_cli.h"

int xs_cli_pm4(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "xs12 pm4: not implemented yet\n");
	return 1;
}
