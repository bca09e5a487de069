/* xs12 replay FILE: runs a recording (xs12 run --record) again through the
 * GPU model alone and checks that the same cycles and bytes come out. */
#include "xs_cli.h"

#include <string.h>

int xs_cli_replay(int argc, char **argv)
{
	bool json = false;
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			printf("usage: xs12 replay FILE [--json]\n\n"
			       "Replays a recording made with `xs12 run --record FILE` (GPU memory at submission and\n"
			       "the PM4 command buffers) on a fresh device and compares each dispatch's cycles, waves\n"
			       "and instructions and a digest of all GPU memory with the recording. Exit 0 when\n"
			       "identical, 1 when not (the first difference is named).\n");
			return 0;
		}
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (argv[i][0] == '-' || path)
			return xs_cli_usage_error("replay", "unexpected '%s'", argv[i]);
		else
			path = argv[i];
	}
	if (!path)
		return xs_cli_usage_error("replay", "expected one recording file");
	xs_replay_report rep;
	if (xs_replay(path, &rep)) {
		fprintf(stderr, "xs12 replay: %s\n", xs_last_error(NULL));
		return 1;
	}
	if (json) {
		printf("{\"batches\": %u, \"dispatches\": %u, \"cycles\": %llu, \"identical\": %s, \"detail\": ",
		       rep.batches, rep.dispatches, (unsigned long long)rep.cycles, rep.identical ? "true" : "false");
		xs_cli_json_string(stdout, rep.detail);
		printf("}\n");
	} else if (rep.identical) {
		printf("%s: %u batch%s, %u dispatch%s, %llu cycles: identical to the recording\n", path, rep.batches,
		       rep.batches == 1 ? "" : "es", rep.dispatches, rep.dispatches == 1 ? "" : "es",
		       (unsigned long long)rep.cycles);
	} else {
		printf("%s: DIFFERS from the recording: %s\n", path, rep.detail);
	}
	return rep.identical ? 0 : 1;
}
