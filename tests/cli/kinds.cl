/* Kernels with by-value arguments of each kind, for the checks of `xs12 run
 * --arg` against the metadata's type names (tests/cli/messages.py). Two
 * kernels: a run must name one with --kernel. */
__kernel void take_uint(__global uint *out, uint v) { out[get_global_id(0)] = v; }
__kernel void take_int(__global int *out, int v) { out[get_global_id(0)] = v; }
__kernel void take_float(__global float *out, float v) { out[get_global_id(0)] = v; }
