/* A kernel that only ends (s_endpgm): what a wave costs the host beyond its
 * instructions (launch, set-up, pick, retire). bench/xs12_bench.py prints it
 * beside the mix, for reference. */
__kernel void empty(void)
{
}
