/* Corpus: divergent control flow. Branch conditions depend on the lane and
 * on the data, so waves run with partial EXEC masks, nested else-branches,
 * early returns, loops whose trip count differs per lane (break, continue,
 * do-while) and a switch. */

__kernel void cf_divergent(__global const int *a, __global int *out)
{
	size_t i = get_global_id(0);
	int x = a[i], r = 0;
	if (i == 5) {
		out[i] = -1;
		return;                              /* one lane leaves early */
	}
	if (x & 1) {
		if (x & 2)
			r = x * 3;
		else if (x & 4)
			r = x - 100;
		else
			r = ~x;
	} else {
		r = (int)(i & 7) * 11;
		if ((i & 3) == 0)
			r += x >> 3;
	}
	r = (x > 1000) ? r * 2 : ((x < -1000) ? r / 3 : r + 1);
	if ((i & 31) > 20)
		return;
	out[i] = r;
}

/* Collatz steps (capped), a loop with break and continue, a do-while and a
 * nested loop whose bound depends on the outer index. */
__kernel void cf_loops(__global const uint *a, __global uint *out)
{
	size_t i = get_global_id(0);
	uint x = a[i] % 10000u + 1u, steps = 0;
	while (x != 1u && steps < 300u) {
		x = (x & 1u) ? 3u * x + 1u : x >> 1;
		steps++;
	}
	uint acc = 0;
	for (uint k = 0; k < (a[i] & 63u); k++) {
		if (k % 5u == 3u)
			continue;
		if (acc > 5000u)
			break;
		acc += k * k;
	}
	uint d = a[i], n = 0;
	do {
		d /= 7u;
		n++;
	} while (d != 0u);
	uint nest = 0;
	for (uint p = 0; p < (uint)(i & 7); p++)
		for (uint q = p; q < 8u; q++)
			nest += p ^ q;
	out[i * 4 + 0] = steps;
	out[i * 4 + 1] = acc;
	out[i * 4 + 2] = n;
	out[i * 4 + 3] = nest;
}

__kernel void cf_switch(__global const int *a, __global int *out)
{
	size_t i = get_global_id(0);
	int x = a[i], r;
	switch ((uint)x % 11u) {
	case 0: r = x; break;
	case 1: r = x * 2; break;
	case 2:
	case 3: r = -x; break;
	case 4: r = x ^ 0x5555; /* fall through */
	case 5: r = x + 7; break;
	case 7: r = (int)i; break;
	case 9: r = x >> 2; break;
	default: r = 42; break;
	}
	out[i] = r;
}
