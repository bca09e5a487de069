/* OpenCL twin of saxpy.hip, run on PoCL as the oracle. */
__kernel void saxpy(float a, __global const float *x, __global float *y, uint n)
{
	uint i = get_group_id(0) * get_local_size(0) + get_local_id(0);
	if (i < n)
		y[i] = a * x[i] + y[i];
}
