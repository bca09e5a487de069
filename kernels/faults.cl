/* Kernels that misbehave on purpose: the device must be removed with a
 * report, and the host must return (tests/api). */

/* Spins until *flag becomes non-zero: with flag 0 it never ends. */
__kernel void spin(__global volatile uint *flag, __global uint *out)
{
	uint n = 0;
	while (flag[0] == 0)
		n++;
	out[get_global_id(0)] = n;
}

/* Stores through a pointer the host passes in: a bad one faults. */
__kernel void store_to(__global uint *p)
{
	p[get_global_id(0)] = 42u;
}

/* Indexes a private array by data, so it lives in scratch: a dispatch of it
 * takes the device's scratch ring. */
__kernel void private_walk(__global uint *out)
{
	uint p[64];
	uint i = get_global_id(0);
	for (int k = 0; k < 64; k++)
		p[k] = i + (uint)k;
	out[i] = p[(i * 7u) & 63u];
}
