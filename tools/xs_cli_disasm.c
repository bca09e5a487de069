/* xs12 disasm (placeholder until its issue lands). */
#include "xs_cli.h"

int xs_cli_disasm(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "xs12 disasm: not implemented yet\n");
	return 1;
}
