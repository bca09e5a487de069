/* Streaming copy, 16 bytes per lane each way: bandwidth-bound. */
__kernel void stream_copy(__global const float4 *in, __global float4 *out)
{
	size_t i = get_global_id(0);
	out[i] = in[i];
}
