/* xs12 demo, the D3D12 part: the scratch and launch-parameter story told
 * through the D3D12 API as a title calls it (d3d12_xs.h), with what the
 * GPU model measured (XS12GetDispatchStatistics, timestamp queries):
 *
 *   1. GetInformationX and SetShaderScratchSpaceX: ring slots bound the
 *      scratch waves in flight (S1.11-S1.13), from the documented 8 to 32
 *      per CU;
 *   2. async compute: rings of their own overlap and compute right (S1.9);
 *      the driver's one shared allocation is a debug-layer error on an
 *      async queue, and without the debug layer the corruption it prevents
 *      (S1.8, S1.10);
 *   3. launch parameters: the LDSSize of S3 trades occupancy (the group
 *      shape and ExecuteIndirect are in examples/d3d12/launch_params.c).
 *
 * The graphics stories (a picture, the S1.12 recipe, a draw beside async
 * compute) are in xs_cli_demo_gfx.c. Each result is checked against a host
 * computation. */
#include "xs_cli_demo_dx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- 1. ring slots ------------------------------------------------------------------------- */

static int story_slots(const char *kdir, const uint32_t *in_host)
{
	dctx c;
	pipe p;
	if (!dopen(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT, NULL) ||
	    !pipeline(&c, kdir, "scratch_chase.O2.w32.hsaco", "scratch_chase", &p))
		return 1;
	ID3DBlob *blob = NULL;
	UINT units = 0;
	if (SUCCEEDED(ID3D12PipelineState_GetInformationX(
		    p.pso, D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW, 0, &blob))) {
		units = *(const UINT *)ID3DBlob_GetBufferPointer(blob);
		ID3DBlob_Release(blob);
	}
	UINT per_wave = units * 1024; /* S1.12 */
	printf("\nD3D12: GetInformationX says scratch_chase needs %u x 256 DWORDs = %u KB of scratch per wave (S1.11).\n"
	       "SetShaderScratchSpaceX(COMPUTE, base, slots x %u KB, %u KB) on 65536 threads, latency-bound:\n",
	       units, per_wave / 1024, per_wave / 1024, per_wave / 1024);
	printf("  %-30s %-8s %-13s %-14s %-10s %s\n", "ring", "slots", "peak scratch", "waves per SIMD", "cycles",
	       "microseconds");
	enum { N = 65536 };
	ID3D12Resource *in = buffer(&c, D3D12_HEAP_TYPE_UPLOAD, 4096, in_host);
	ID3D12Resource *out = buffer(&c, D3D12_HEAP_TYPE_DEFAULT, N * 4, NULL);
	ID3D12Resource *ring = buffer(&c, D3D12_HEAP_TYPE_DEFAULT, (UINT64)per_wave * 1664, NULL);
	const struct { UINT slots; const char *what; } rings[] = {
		{ 8, "8 waves (the documented usage)" }, { 0, "the driver default (S1.8)" },
		{ 416, "a title ring" }, { 1664, "32 per CU, the most (S1.13)" },
	};
	int failures = 0;
	for (size_t i = 0; i < sizeof(rings) / sizeof(rings[0]) && in && out && ring; i++) {
		UINT slots = rings[i].slots;
		ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.l, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
								  slots ? ID3D12Resource_GetGPUVirtualAddress(ring) : 0,
								  (UINT64)per_wave * slots, slots ? per_wave : 0);
		chase(&c, &p, in, out, N / 64, 64); /* the PSO's shape: 64 threads */
		XS12_DISPATCH_STATISTICS st;
		bool ok = SUCCEEDED(submit(&c)) && SUCCEEDED(finish(&c)) &&
			  SUCCEEDED(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.l, 0, &st));
		reopen(&c);
		ok = ok && chase_right(&c, out, in_host, N, 64);
		if (ok)
			printf("  %-30s %-8u %-13u %-14u %-10llu %.1f\n", rings[i].what, st.ScratchSlots, st.PeakScratchSlots,
			       st.PeakWavesPerSimd, (unsigned long long)st.Cycles, st.Microseconds);
		else
			printf("  %-30s FAILED\n", rings[i].what);
		failures += !ok;
	}
	printf("  More slots, more waves in flight to hide latency, until the waves' private arrays\n"
	       "  (about 9 KB each) no longer fit the L2 and thrash it.\n");
	rel(in);
	rel(out);
	rel(ring);
	pipe_free(&p);
	dclose(&c);
	return failures;
}

/* ---- 2. async compute ------------------------------------------------------------------------ */

/* scratch_chase on the direct queue and on an async compute queue at the
 * same time, two inputs; ring = their own rings, else the driver's. */
static int async_pair(const char *kdir, bool debug, bool own, const uint32_t *in1, const uint32_t *in2, bool *right,
		      XS12_DISPATCH_STATISTICS st[2], char *msg, size_t msgn)
{
	dctx d, a;
	pipe p;
	enum { N = 4096 };
	if (!dopen(&d, debug, D3D12_COMMAND_LIST_TYPE_DIRECT, NULL) ||
	    !dopen(&a, debug, D3D12_COMMAND_LIST_TYPE_COMPUTE, d.dev) ||
	    !pipeline(&d, kdir, "scratch_chase.O2.w32.hsaco", "scratch_chase", &p))
		return 1;
	ID3DBlob *blob = NULL;
	UINT per_wave = 0;
	if (SUCCEEDED(ID3D12PipelineState_GetInformationX(
		    p.pso, D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW, 0, &blob))) {
		per_wave = *(const UINT *)ID3DBlob_GetBufferPointer(blob) * 1024;
		ID3DBlob_Release(blob);
	}
	ID3D12Resource *in[2] = { buffer(&d, D3D12_HEAP_TYPE_UPLOAD, 4096, in1), buffer(&d, D3D12_HEAP_TYPE_UPLOAD, 4096, in2) };
	ID3D12Resource *out[2] = { buffer(&d, D3D12_HEAP_TYPE_DEFAULT, N * 4, NULL), buffer(&d, D3D12_HEAP_TYPE_DEFAULT, N * 4, NULL) };
	ID3D12Resource *ring[2] = { buffer(&d, D3D12_HEAP_TYPE_DEFAULT, (UINT64)per_wave * 208, NULL),
				    buffer(&d, D3D12_HEAP_TYPE_DEFAULT, (UINT64)per_wave * 208, NULL) };
	dctx *q[2] = { &d, &a };
	for (int i = 0; i < 2; i++) {
		if (own)
			ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(q[i]->l, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
									  ID3D12Resource_GetGPUVirtualAddress(ring[i]),
									  (UINT64)per_wave * 208, per_wave);
		chase(q[i], &p, in[i], out[i], N / 64, 64);
	}
	*right = false;
	msg[0] = 0;
	HRESULT hr = S_OK;
	for (int i = 0; i < 2 && SUCCEEDED(hr); i++)
		hr = submit(q[i]);
	if (FAILED(hr) && d.iq) {
		/* the debug layer's message: why the compute list failed to Close */
		UINT64 k = ID3D12InfoQueue_GetNumStoredMessages(d.iq);
		SIZE_T len = 0;
		if (k && SUCCEEDED(ID3D12InfoQueue_GetMessage(d.iq, k - 1, NULL, &len))) {
			D3D12_MESSAGE *m = malloc(len);
			if (m && SUCCEEDED(ID3D12InfoQueue_GetMessage(d.iq, k - 1, m, &len)))
				snprintf(msg, msgn, "#%d %s", (int)m->ID, m->pDescription);
			free(m);
		}
	}
	if (SUCCEEDED(hr) && SUCCEEDED(finish(&d)) && SUCCEEDED(finish(&a))) {
		for (int i = 0; i < 2; i++)
			XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)q[i]->l, 0, &st[i]);
		reopen(&d);
		reopen(&a);
		*right = chase_right(&d, out[0], in1, N, 64) && chase_right(&d, out[1], in2, N, 64);
	}
	for (int i = 0; i < 2; i++) {
		rel(in[i]);
		rel(out[i]);
		rel(ring[i]);
	}
	pipe_free(&p);
	dclose(&a);
	dclose(&d);
	return 0;
}

static int story_async(const char *kdir, const uint32_t *in1, const uint32_t *in2)
{
	printf("\nD3D12: scratch_chase on the direct queue and on an async compute queue at once (4096 threads each):\n");
	XS12_DISPATCH_STATISTICS st[2];
	bool right;
	char msg[1200];
	int failures = 0;
	if (async_pair(kdir, true, true, in1, in2, &right, st, msg, sizeof(msg)) || !right ||
	    st[1].StartCycle >= st[0].EndCycle || st[0].StartCycle >= st[1].EndCycle)
		failures++;
	else
		printf("  a ring each (S1.9):              direct %5llu..%-6llu compute %5llu..%-6llu cycles: they overlap, "
		       "results right\n", (unsigned long long)st[0].StartCycle, (unsigned long long)st[0].EndCycle,
		       (unsigned long long)st[1].StartCycle, (unsigned long long)st[1].EndCycle);
	if (async_pair(kdir, true, false, in1, in2, &right, st, msg, sizeof(msg)) || !msg[0])
		failures++;
	else
		printf("  the driver's ring, debug layer:  the compute list fails to Close:\n    %.300s\n", msg);
	if (async_pair(kdir, false, false, in1, in2, &right, st, msg, sizeof(msg)) || right)
		failures++;
	else
		printf("  the driver's ring, no debug:     direct %5llu..%-6llu compute %5llu..%-6llu cycles: the results are "
		       "WRONG\n    (both queues' waves use the one allocation's slots at once: what S1.8 forbids, S1.10)\n",
		       (unsigned long long)st[0].StartCycle, (unsigned long long)st[0].EndCycle,
		       (unsigned long long)st[1].StartCycle, (unsigned long long)st[1].EndCycle);
	return failures;
}

/* ---- 3. launch parameters ---------------------------------------------------------------------- */

static int story_launch(const char *kdir)
{
	dctx c;
	pipe p;
	if (!dopen(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT, NULL) ||
	    !pipeline(&c, kdir, "lds_reduce.O2.w32.hsaco", "lds_reduce_dyn", &p))
		return 1;
	enum { G = 256, NG = 1024, N = G * NG };
	uint32_t *host = malloc(N * 4), *sums = malloc(NG * 4);
	for (uint32_t i = 0; host && i < N; i++)
		host[i] = i * 2654435761u >> 7;
	ID3D12Resource *in = buffer(&c, D3D12_HEAP_TYPE_UPLOAD, N * 4, host);
	ID3D12Resource *out = buffer(&c, D3D12_HEAP_TYPE_DEFAULT, NG * 4, NULL);
	printf("\nD3D12: SetComputeShaderLaunchParametersX on lds_reduce_dyn (sums of 256-thread groups, %u groups):\n"
	       "  %-28s %-14s %-10s %s\n", NG, "LDSSize", "waves per SIMD", "cycles", "result");
	int failures = 0;
	const UINT lds_units[] = { 2, 32, 64, 128 }; /* 1 KB .. 64 KB: fewer groups fit a WGP's 128 KB (S3.3, S3.6) */
	for (size_t i = 0; i < sizeof(lds_units) / sizeof(lds_units[0]) && in && out && host && sums; i++) {
		D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS lp;
		memset(&lp, 0, sizeof(lp));
		lp.Flags = D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_LDS_SIZE |
			   D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_NUM_THREADS;
		lp.LDSSize = lds_units[i];
		lp.NumThreadX = G;
		lp.NumThreadY = lp.NumThreadZ = 1;
		ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(c.l, &lp);
		bind(&c, &p);
		ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.l, 0, ID3D12Resource_GetGPUVirtualAddress(in));
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.l, 1, ID3D12Resource_GetGPUVirtualAddress(out));
		ID3D12GraphicsCommandList6_Dispatch(c.l, NG, 1, 1);
		XS12_DISPATCH_STATISTICS st;
		bool ok = SUCCEEDED(submit(&c)) && SUCCEEDED(finish(&c)) &&
			  SUCCEEDED(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.l, 0, &st));
		reopen(&c);
		ok = ok && readback(&c, out, sums, NG * 4);
		for (uint32_t g = 0; ok && g < NG; g++) {
			uint32_t s = 0;
			for (uint32_t k = 0; k < G; k++)
				s += host[g * G + k];
			ok = sums[g] == s;
		}
		char what[64];
		snprintf(what, sizeof(what), "%u x 512 B = %u KB", lds_units[i], lds_units[i] / 2);
		printf("  %-28s %-14u %-10llu %s\n", what, st.PeakWavesPerSimd, (unsigned long long)st.Cycles,
		       ok ? "ok" : "WRONG");
		failures += !ok;
	}
	printf("  The kernel asks for no LDS of its own size: what it gets is the launch parameters'\n"
	       "  LDSSize, and the more a group takes, the fewer groups share a WGP's 128 KB.\n");
	free(host);
	free(sums);
	rel(in);
	rel(out);
	pipe_free(&p);
	dclose(&c);
	return failures;
}

int xs_cli_demo_d3d12(const char *kdir)
{
	uint32_t *in1 = malloc(4096), *in2 = malloc(4096);
	if (!in1 || !in2)
		return 1;
	for (uint32_t i = 0; i < 1024; i++) {
		in1[i] = i * 2654435761u >> 5;
		in2[i] = (i * 7u + 3u) * 40503u;
	}
	int failures = story_slots(kdir, in1);
	failures += story_async(kdir, in1, in2);
	failures += story_launch(kdir);
	failures += xs_cli_demo_gfx(kdir, in1);
	free(in1);
	free(in2);
	return failures;
}
