/* Corpus: global atomics with and without returned values, on int, uint
 * and (cl_khr_int64_base/extended_atomics) long. Results are order
 * independent: final values of add/sub/min/max/and/or/xor/inc/dec, sums
 * of the returned old values where the multiset is fixed (inc returns a
 * permutation of 0..n-1; xchg returns every value but the final one), and
 * a counter built from a cmpxchg loop. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

/* c[0..10] on entry: 0, 0, INT_MAX, INT_MIN, UINT_MAX, 0, -1, 0, 0, 0, 1000 */
__kernel void gatomic_int(__global const int *in, volatile __global int *c, __global int *ret)
{
	size_t i = get_global_id(0);
	int x = in[i];
	atomic_add(&c[0], x);
	atomic_sub(&c[1], x >> 4);
	atomic_min(&c[2], x);
	atomic_max(&c[3], x);
	atomic_min((volatile __global uint *)&c[4], (uint)x);
	atomic_max((volatile __global uint *)&c[5], (uint)x);
	atomic_and(&c[6], x | 0x10204080);
	atomic_or(&c[7], x & 0x11111111);
	atomic_xor(&c[8], x);
	int slot = atomic_inc(&c[9]);
	atomic_dec(&c[10]);
	atomic_add(&ret[0], slot);              /* sum of 0..n-1 */
	atomic_max(&ret[1], slot);              /* n-1 */
}

/* c[0] = xchg target (initial 7), c[1] = cmpxchg counter, c[2] = cmpxchg max,
 * ret[0] = sum of the values xchg returned */
__kernel void gatomic_xchg(__global const int *in, volatile __global int *c, __global int *ret)
{
	size_t i = get_global_id(0);
	int x = in[i];
	int old = atomic_xchg(&c[0], x);
	atomic_add(&ret[0], old);
	int cur = c[1], seen;
	while ((seen = atomic_cmpxchg(&c[1], cur, cur + 2)) != cur)
		cur = seen;
	cur = c[2];
	while (x > cur) {
		seen = atomic_cmpxchg(&c[2], cur, x);
		if (seen == cur)
			break;
		cur = seen;
	}
	float f = as_float(atomic_xchg((volatile __global float *)&ret[1], (float)x));
	atomic_add(&ret[2], (int)f);
}

/* c[0..7] on entry: 0, 0, LONG_MAX, LONG_MIN, 0, -1, 0, 99 */
__kernel void gatomic_long(__global const long *in, volatile __global long *c, __global long *ret)
{
	size_t i = get_global_id(0);
	long x = in[i];
	long a = atom_add(&c[0], x);
	atom_sub(&c[1], x >> 8);
	atom_min(&c[2], x);
	atom_max(&c[3], x);
	atom_max((volatile __global ulong *)&c[4], (ulong)x);
	atom_and(&c[5], x | 0x0102040810204080L);
	atom_xor(&c[6], x);
	long old = atom_xchg(&c[7], x);
	long cur = c[0], seen;
	(void)a;
	atom_add(&ret[0], old);
	while ((seen = atom_cmpxchg(&ret[1], cur, cur + 5)) != cur)
		cur = seen;
	atom_inc(&ret[2]);
}
