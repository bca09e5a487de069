/* D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS (SPEC S3): each rule broken
 * (its message ID, a failed Close), overrides kept (the results of the
 * overridden shape and LDS, hidden arguments included), a 2048-thread
 * wave64 group (S3.5), and ExecuteIndirect with arguments, launch
 * parameters and a count written by an earlier dispatch. */
#include "d3d12_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

static const char *vadd_path, *lds_path, *g2048_path, *args_path, *lds_cu_path;

static D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS lp(UINT flags, UINT lds, UINT x, UINT y, UINT z)
{
	D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS p;
	memset(&p, 0, sizeof(p));
	p.Flags = flags;
	p.LDSSize = lds;
	p.NumThreadX = x;
	p.NumThreadY = y;
	p.NumThreadZ = z;
	return p;
}
#define LDS D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_LDS_SIZE
#define SHAPE D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_NUM_THREADS

/* vadd's root arguments for n elements. */
static void vadd_args(t_ctx *c, ID3D12Resource *a, ID3D12Resource *b, ID3D12Resource *out, UINT n)
{
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c->list, 0, ID3D12Resource_GetGPUVirtualAddress(a));
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c->list, 1, ID3D12Resource_GetGPUVirtualAddress(b));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c->list, 2, ID3D12Resource_GetGPUVirtualAddress(out));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c->list, 3, n, 0);
}

/* ---- each rule broken ------------------------------------------------------------------ */

static void each_rule_broken(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	HRESULT hr;
	ID3D12PipelineState *vadd = t_pipeline(&c, vadd_path, NULL, &hr);
	ID3D12PipelineState *lds = t_pipeline(&c, lds_path, "lds_reduce", &hr);
	assert_int_equal(hr, S_OK);
	ID3D12Resource *buf = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 1 << 20);
	/* at the call: S3.2, S3.3, S3.4 */
	struct { D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS p; XS12_MESSAGE_ID id; const char *rule; } at_call[] = {
		{ lp(0x4, 0, 0, 0, 0), XS12_MESSAGE_ID_LAUNCH_FLAGS, "S3.2" },
		{ lp(LDS, 129, 0, 0, 0), XS12_MESSAGE_ID_LAUNCH_LDS_RANGE, "S3.3" },
		{ lp(SHAPE, 0, 0, 1, 1), XS12_MESSAGE_ID_LAUNCH_DIM_RANGE, "S3.4" },
		{ lp(SHAPE, 0, 2049, 1, 1), XS12_MESSAGE_ID_LAUNCH_DIM_RANGE, "S3.4" },
		{ lp(SHAPE, 0, 64, 64, 1), XS12_MESSAGE_ID_LAUNCH_GROUP_WAVES, "S3.5" },
	};
	for (size_t i = 0; i < sizeof(at_call) / sizeof(at_call[0]); i++) {
		ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(c.list, &at_call[i].p);
		char text[600];
		D3D12_MESSAGE_ID id = t_last_message(&c, text, sizeof(text));
		if (id != (D3D12_MESSAGE_ID)at_call[i].id || strncmp(text, at_call[i].rule, 4))
			fail_msg("case %zu: message %d '%s', expected %d naming %s", i, (int)id, text, (int)at_call[i].id,
				 at_call[i].rule);
		assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
		ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL);
	}
	/* at the dispatch: the kernel's own limits (S3.7), and S3.5 for wave32 */
	struct { ID3D12PipelineState *p; D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS lp; XS12_MESSAGE_ID id; } at_dispatch[] = {
		{ vadd, lp(SHAPE, 0, 512, 1, 1), XS12_MESSAGE_ID_LAUNCH_OVER_MAX_FLAT },   /* vadd: 256 */
		{ vadd, lp(SHAPE, 0, 2048, 1, 1), XS12_MESSAGE_ID_LAUNCH_GROUP_WAVES },    /* wave32: 64 waves */
		{ vadd, lp(SHAPE, 0, 64, 2, 1), XS12_MESSAGE_ID_LAUNCH_TIDIG },           /* X IDs only */
		{ lds, lp(SHAPE, 0, 128, 1, 1), XS12_MESSAGE_ID_LAUNCH_REQD_SIZE },       /* reqd 256 */
		{ lds, lp(LDS, 1, 0, 0, 0), XS12_MESSAGE_ID_LAUNCH_LDS_BELOW_STATIC },    /* 1 KB static */
	};
	for (size_t i = 0; i < sizeof(at_dispatch) / sizeof(at_dispatch[0]); i++) {
		ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(c.list, &at_dispatch[i].lp);
		assert_int_equal(t_last_message(&c, NULL, 0), 0);
		t_set_pipeline(&c, at_dispatch[i].p);
		D3D12_GPU_VIRTUAL_ADDRESS va = ID3D12Resource_GetGPUVirtualAddress(buf);
		for (UINT k = 0; k < 4; k++)
			ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, k, va); /* any: not reached */
		ID3D12GraphicsCommandList6_Dispatch(c.list, 1, 1, 1);
		assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)at_dispatch[i].id));
		ID3D12InfoQueue_ClearStoredMessages(c.iq);
		assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
		ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL);
	}
	/* a __local pointer argument with no LDS to point at: a warning (the
	 * kernel's accesses would leave the group's LDS); Close succeeds */
	HRESULT hr2;
	ID3D12PipelineState *dyn = t_pipeline(&c, lds_path, "lds_reduce_dyn", &hr2);
	t_set_pipeline(&c, dyn);
	D3D12_GPU_VIRTUAL_ADDRESS bva = ID3D12Resource_GetGPUVirtualAddress(buf);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 0, bva);
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 1, bva);
	ID3D12GraphicsCommandList6_Dispatch(c.list, 1, 1, 1);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_LAUNCH_LOCAL_NO_LDS);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	ID3D12PipelineState_Release(dyn);
	ID3D12Resource_Release(buf);
	ID3D12PipelineState_Release(vadd);
	ID3D12PipelineState_Release(lds);
	t_close(&c);
}

/* ---- overrides kept -------------------------------------------------------------------- */

/* vadd in groups of 128 (its PSO's shape is 64), then lds_reduce_dyn whose
 * LDS is only the launch parameters' LDSSize and whose n is
 * get_local_size(0): the group size and dynamic LDS reach the kernel. */
static void overrides_reach_the_kernel(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enum { N = 4096 };
	static float a[N], b[N], out[N];
	for (int i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = (float)(3 * i);
	}
	ID3D12Resource *ua = t_upload(&c, a, sizeof(a)), *ub = t_upload(&c, b, sizeof(b));
	ID3D12Resource *uc = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, sizeof(out));
	HRESULT hr;
	ID3D12PipelineState *vadd = t_pipeline(&c, vadd_path, NULL, &hr);
	ID3D12PipelineState *dyn = t_pipeline(&c, lds_path, "lds_reduce_dyn", &hr);
	assert_int_equal(hr, S_OK);
	D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS p = lp(SHAPE, 0, 128, 1, 1);
	ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(c.list, &p);
	t_set_pipeline(&c, vadd); /* S3.7: the parameters stay */
	vadd_args(&c, ua, ub, uc, N);
	ID3D12GraphicsCommandList6_Dispatch(c.list, N / 128, 1, 1); /* 64 groups would cover only half */
	assert_int_equal(t_run(&c), S_OK);
	t_read(&c, uc, out, sizeof(out));
	for (int i = 0; i < N; i++)
		assert_true(out[i] == 4.0f * (float)i);

	/* lds_reduce_dyn: sums of 256-element groups in 1 KB of LDS (2 units) */
	enum { G = 256 };
	static uint32_t in[N], sums[N / G];
	for (int i = 0; i < N; i++)
		in[i] = (uint32_t)(i * 7 + 1);
	ID3D12Resource *uin = t_upload(&c, in, sizeof(in));
	ID3D12Resource *usum = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, sizeof(sums));
	p = lp(SHAPE | LDS, 2, G, 1, 1);
	ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(c.list, &p);
	t_set_pipeline(&c, dyn);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 0, ID3D12Resource_GetGPUVirtualAddress(uin));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 1, ID3D12Resource_GetGPUVirtualAddress(usum));
	ID3D12GraphicsCommandList6_Dispatch(c.list, N / G, 1, 1);
	assert_int_equal(t_run(&c), S_OK);
	assert_int_equal(t_last_message(&c, NULL, 0), 0);
	t_read(&c, usum, sums, sizeof(sums));
	for (int g = 0; g < N / G; g++) {
		uint32_t s = 0;
		for (int i = 0; i < G; i++)
			s += in[g * G + i];
		assert_int_equal(sums[g], s);
	}
	/* a Reset list starts without overrides: vadd is back to 64 */
	memset(out, 0, sizeof(out));
	ID3D12Resource *zero = t_upload(&c, out, sizeof(out));
	ID3D12GraphicsCommandList6_CopyBufferRegion(c.list, uc, 0, zero, 0, sizeof(out));
	D3D12_RESOURCE_BARRIER bar = { .Type = D3D12_RESOURCE_BARRIER_TYPE_UAV };
	ID3D12GraphicsCommandList6_ResourceBarrier(c.list, 1, &bar);
	t_set_pipeline(&c, vadd);
	vadd_args(&c, ua, ub, uc, N);
	ID3D12GraphicsCommandList6_Dispatch(c.list, N / 128, 1, 1);
	assert_int_equal(t_run(&c), S_OK);
	t_read(&c, uc, out, sizeof(out));
	assert_true(out[N / 2 - 1] == 4.0f * (float)(N / 2 - 1));
	assert_true(out[N / 2] == 0.0f);
	ID3D12Resource_Release(zero);
	ID3D12Resource_Release(uin);
	ID3D12Resource_Release(usum);
	ID3D12Resource_Release(ua);
	ID3D12Resource_Release(ub);
	ID3D12Resource_Release(uc);
	ID3D12PipelineState_Release(vadd);
	ID3D12PipelineState_Release(dyn);
	t_close(&c);
}

/* A list records the launch of its last Dispatch again while nothing it
 * depends on changes (xs_rt_record_again). Every call that changes it
 * must say so: the same calls recorded with a no-op launch-parameter call
 * before each Dispatch (which makes every one take the long way) must
 * give the same submission, byte for byte: the recordings (GPU memory and
 * PM4 at submission, results) are compared. */
static void record_of(const char *path, bool long_way, ID3D12Resource **keep)
{
	XS12_DEVICE_DESC desc = { .Machine = XS12_MACHINE_SERIES_X, .RecordPath = path };
	t_ctx c;
	t_open_desc(&c, &desc, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enum { N = 4096, G = 256 };
	static float a[N];
	for (int i = 0; i < N; i++)
		a[i] = (float)i;
	ID3D12Resource *ua = t_upload(&c, a, sizeof(a)), *uc = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, sizeof(a));
	ID3D12Resource *usum = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, N / G * 4);
	ID3D12Resource *ring = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 1 << 20);
	HRESULT hr;
	ID3D12PipelineState *vadd = t_pipeline(&c, vadd_path, NULL, &hr), *dyn = t_pipeline(&c, lds_path, "lds_reduce_dyn", &hr);
	assert_int_equal(hr, S_OK);
	D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS now = lp(0, 0, 0, 0, 0);
#define SET_LP(p) (now = (p), ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(c.list, &now))
#define DISPATCH(x)                                                                                               \
	do {                                                                                                      \
		if (long_way)                                                                                     \
			ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(c.list, &now);               \
		ID3D12GraphicsCommandList6_Dispatch(c.list, (x), 1, 1);                                           \
	} while (0)
	t_set_pipeline(&c, vadd);
	vadd_args(&c, ua, ua, uc, N);
	DISPATCH(4);
	DISPATCH(64); /* again, other counts */
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c.list, 3, N / 2, 0);
	DISPATCH(7); /* again, another root constant */
	SET_LP(lp(SHAPE, 0, 32, 1, 1));
	DISPATCH(8);
	DISPATCH(9);
	SET_LP(lp(0, 0, 0, 0, 0));
	DISPATCH(2);
	/* another pipeline, its own root signature and dynamic LDS */
	SET_LP(lp(SHAPE | LDS, 2, G, 1, 1));
	t_set_pipeline(&c, dyn);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 0, ID3D12Resource_GetGPUVirtualAddress(ua));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 1, ID3D12Resource_GetGPUVirtualAddress(usum));
	DISPATCH(N / G);
	SET_LP(lp(SHAPE | LDS, 4, G, 1, 1));
	DISPATCH(N / G);
	DISPATCH(3);
	/* back to vadd; a title ring (vadd has no scratch, the ring stays unused) */
	SET_LP(lp(0, 0, 0, 0, 0));
	t_set_pipeline(&c, vadd);
	vadd_args(&c, ua, ua, uc, N);
	DISPATCH(16);
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
							 ID3D12Resource_GetGPUVirtualAddress(ring), 1 << 20, 4096);
	DISPATCH(16);
	DISPATCH(1);
#undef DISPATCH
#undef SET_LP
	assert_int_equal(t_run(&c), S_OK);
	*keep = NULL;
	ID3D12Resource_Release(ua);
	ID3D12Resource_Release(uc);
	ID3D12Resource_Release(usum);
	ID3D12Resource_Release(ring);
	ID3D12PipelineState_Release(vadd);
	ID3D12PipelineState_Release(dyn);
	t_close(&c);
}

/* XS12_TRACE / TracePath is written at the device's release whole or not at
 * all: past a file size limit (512 bytes, SIGXFSZ ignored so the write
 * fails) the path keeps what it held and no temporary is left beside it;
 * without the limit it holds the timeline. Each run in a child process,
 * which has the limit alone. */
static void trace_run(const char *path, bool limited)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (limited) {
			struct rlimit rl = { 512, 512 };
			signal(SIGXFSZ, SIG_IGN);
			if (setrlimit(RLIMIT_FSIZE, &rl))
				_exit(2);
		}
		XS12_DEVICE_DESC desc = { .Machine = XS12_MACHINE_SERIES_X, .TracePath = path };
		t_ctx c;
		t_open_desc(&c, &desc, D3D12_COMMAND_LIST_TYPE_DIRECT);
		static float a[1024];
		ID3D12Resource *ua = t_upload(&c, a, sizeof(a)), *uc = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, sizeof(a));
		HRESULT hr;
		ID3D12PipelineState *vadd = t_pipeline(&c, vadd_path, NULL, &hr);
		if (hr != S_OK)
			_exit(3);
		t_set_pipeline(&c, vadd);
		vadd_args(&c, ua, ua, uc, 1024);
		ID3D12GraphicsCommandList6_Dispatch(c.list, 8, 1, 1);
		if (t_run(&c) != S_OK)
			_exit(4);
		ID3D12Resource_Release(ua);
		ID3D12Resource_Release(uc);
		ID3D12PipelineState_Release(vadd);
		t_close(&c); /* the device's release writes the trace */
		_exit(0);
	}
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void trace_file_whole_or_kept(void **state)
{
	(void)state;
	char dir[] = "/tmp/xs12_trace_XXXXXX", path[64], buf[16] = { 0 };
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.json", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("before\n", f);
	fclose(f);
	trace_run(path, true);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "before\n");
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "test $(ls -A %s | wc -l) = 1", dir);
	assert_int_equal(system(cmd), 0); /* no temporary beside it */
	trace_run(path, false);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_true(buf[0] == '{' || buf[0] == '[');
	assert_int_equal(system(cmd), 0);
	unlink(path);
	rmdir(dir);
}

static void kept_launches_follow_the_list_state(void **state)
{
	(void)state;
	char kept[] = "/tmp/xs12_kept_XXXXXX", again[] = "/tmp/xs12_long_XXXXXX";
	int fa = mkstemp(kept), fb = mkstemp(again);
	assert_true(fa >= 0 && fb >= 0);
	close(fa);
	close(fb);
	ID3D12Resource *unused;
	record_of(kept, false, &unused);
	record_of(again, true, &unused);
	size_t na, nb;
	void *ra = t_read_file(kept, &na), *rb = t_read_file(again, &nb);
	unlink(kept);
	unlink(again);
	assert_true(na > 1000);
	assert_int_equal(na, nb);
	assert_memory_equal(ra, rb, na);
	free(ra);
	free(rb);
}

/* S3.5: 32 waves of 64 threads in one group. */
static void group_of_2048_wave64_threads(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(&c, g2048_path, NULL, &hr);
	assert_int_equal(hr, S_OK);
	ID3D12Resource *out = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 2 * 2048 * 4);
	D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS l = lp(SHAPE, 0, 2048, 1, 1);
	ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(c.list, &l);
	t_set_pipeline(&c, p);
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 0, ID3D12Resource_GetGPUVirtualAddress(out));
	ID3D12GraphicsCommandList6_Dispatch(c.list, 2, 1, 1);
	assert_int_equal(t_run(&c), S_OK);
	static uint32_t v[2 * 2048];
	t_read(&c, out, v, sizeof(v));
	for (uint32_t i = 0; i < 2 * 2048; i++)
		assert_int_equal(v[i], i % 2048 + 1);
	/* 2049 is S3.4's; 2048 x 2 is 64 waves: S3.5 */
	l = lp(SHAPE, 0, 1024, 2, 1);
	ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(c.list, &l);
	l = lp(SHAPE, 0, 2048, 2, 1);
	ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(c.list, &l);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_LAUNCH_GROUP_WAVES);
	ID3D12Resource_Release(out);
	ID3D12PipelineState_Release(p);
	t_close(&c);
}

/* ---- S3.6: CU mode and WGP mode -------------------------------------------------------- */

/* The same kernel compiled for WGP mode (the default) and CU mode, given
 * 40 KB of LDS per group by the launch parameters: a WGP-mode group draws
 * on the WGP's whole 128 KB (3 groups fit), a CU-mode group on its CU's
 * 64 KB (1 per CU, 2 per WGP). The peak waves in flight say so, 3 : 2. */
static void cu_mode_and_wgp_mode(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enum { G = 256, NG = 624, N = G * NG };
	static uint32_t in[N], sums[NG];
	for (int i = 0; i < N; i++)
		in[i] = (uint32_t)i * 3u + 1u;
	ID3D12Resource *uin = t_upload(&c, in, sizeof(in));
	ID3D12Resource *usum = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, sizeof(sums));
	UINT peak[2];
	for (int cu = 0; cu < 2; cu++) {
		HRESULT hr;
		ID3D12PipelineState *p = t_pipeline(&c, cu ? lds_cu_path : lds_path, "lds_reduce_dyn", &hr);
		assert_int_equal(hr, S_OK);
		D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS l = lp(SHAPE | LDS, 80, G, 1, 1); /* 40 KB */
		ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(c.list, &l);
		t_set_pipeline(&c, p);
		ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 0, ID3D12Resource_GetGPUVirtualAddress(uin));
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 1, ID3D12Resource_GetGPUVirtualAddress(usum));
		ID3D12GraphicsCommandList6_Dispatch(c.list, NG, 1, 1);
		assert_int_equal(t_run(&c), S_OK);
		XS12_DISPATCH_STATISTICS st;
		assert_int_equal(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.list, 0, &st), S_OK);
		peak[cu] = st.PeakWavesInFlight;
		t_read(&c, usum, sums, sizeof(sums));
		for (int g = 0; g < NG; g++) {
			uint32_t s = 0;
			for (int i = 0; i < G; i++)
				s += in[g * G + i];
			assert_int_equal(sums[g], s);
		}
		ID3D12PipelineState_Release(p);
	}
	/* 26 WGPs x 3 groups x 8 waves in WGP mode, x 2 groups in CU mode */
	assert_int_equal(peak[0], 26 * 3 * 8);
	assert_int_equal(peak[1], 26 * 2 * 8);
	ID3D12Resource_Release(uin);
	ID3D12Resource_Release(usum);
	t_close(&c);
}

/* ---- ExecuteIndirect --------------------------------------------------------------------- */

static ID3D12RootSignature *vadd_root_signature(t_ctx *c)
{
	D3D12_ROOT_PARAMETER params[4] = {
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV, .Descriptor = { 0, 0 } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV, .Descriptor = { 1, 0 } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV, .Descriptor = { 0, 0 } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, .Constants = { 0, 0, 1 } },
	};
	D3D12_ROOT_SIGNATURE_DESC rd = { .NumParameters = 4, .pParameters = params };
	ID3DBlob *blob, *err;
	assert_int_equal(D3D12SerializeRootSignature(&rd, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &err), S_OK);
	ID3D12RootSignature *rs;
	assert_int_equal(ID3D12Device_CreateRootSignature(c->dev, 0, ID3DBlob_GetBufferPointer(blob),
							  ID3DBlob_GetBufferSize(blob), &IID_ID3D12RootSignature,
							  (void **)&rs), S_OK);
	ID3DBlob_Release(blob);
	return rs;
}

/* write_args (indirect.cl) writes 3 of 4 commands' records and the count;
 * after a UAV barrier ExecuteIndirect runs vadd for each: its own output
 * buffer (a root UAV argument), n (a root constant), a 128-thread shape
 * (launch parameters) and its group count. The 4th command is past the
 * count and must not run. */
static void execute_indirect_from_gpu_written_arguments(void **state)
{
	(void)state;
	for (int debug = 1; debug >= 0; debug--) {
		t_ctx c;
		t_open(&c, debug, D3D12_COMMAND_LIST_TYPE_DIRECT);
		enum { N = 1000, MAX = 4, STRIDE = 32, OUT_STRIDE = 4096 };
		static float a[N], b[N];
		for (int i = 0; i < N; i++) {
			a[i] = (float)i;
			b[i] = 0.25f;
		}
		ID3D12Resource *ua = t_upload(&c, a, sizeof(a)), *ub = t_upload(&c, b, sizeof(b));
		ID3D12Resource *outs = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, MAX * OUT_STRIDE);
		ID3D12Resource *args = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, MAX * STRIDE);
		ID3D12Resource *count = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 256);
		HRESULT hr;
		ID3D12PipelineState *vadd = t_pipeline(&c, vadd_path, NULL, &hr);
		ID3D12PipelineState *writer = t_pipeline(&c, args_path, NULL, &hr);
		assert_int_equal(hr, S_OK);
		ID3D12RootSignature *rs = vadd_root_signature(&c);
		D3D12_INDIRECT_ARGUMENT_DESC ad[4] = {
			{ .Type = D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, .UnorderedAccessView = { 2 } },
			{ .Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = { 3, 0, 1 } },
			{ .Type = D3D12XBOX_INDIRECT_ARGUMENT_TYPE_COMPUTE_SHADER_LAUNCH_PARAMETERSX },
			{ .Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH },
		};
		D3D12_COMMAND_SIGNATURE_DESC sd = { .ByteStride = STRIDE, .NumArgumentDescs = 4, .pArgumentDescs = ad };
		ID3D12CommandSignature *sig;
		assert_int_equal(ID3D12Device_CreateCommandSignature(c.dev, &sd, rs, &IID_ID3D12CommandSignature,
								     (void **)&sig), S_OK);
		/* the arguments, written by a dispatch */
		ID3D12GraphicsCommandList6 *l = c.list;
		t_set_pipeline(&c, writer);
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(l, 0, ID3D12Resource_GetGPUVirtualAddress(args));
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(l, 1, ID3D12Resource_GetGPUVirtualAddress(count));
		UINT64 base = ID3D12Resource_GetGPUVirtualAddress(outs), ostride = OUT_STRIDE;
		UINT consts[7] = { (UINT)base, (UINT)(base >> 32), (UINT)ostride, 0, N / 4, 3, 128 };
		ID3D12GraphicsCommandList6_SetComputeRoot32BitConstants(l, 2, 2, &consts[0], 0);
		ID3D12GraphicsCommandList6_SetComputeRoot32BitConstants(l, 3, 2, &consts[2], 0);
		ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(l, 4, consts[4], 0);
		ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(l, 5, consts[5], 0);
		ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(l, 6, consts[6], 0);
		D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS p4 = lp(SHAPE, 0, MAX, 1, 1);
		ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(l, &p4);
		ID3D12GraphicsCommandList6_Dispatch(l, 1, 1, 1);
		p4 = lp(0, 0, 0, 0, 0);
		ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(l, &p4);
		D3D12_RESOURCE_BARRIER bar = { .Type = D3D12_RESOURCE_BARRIER_TYPE_UAV };
		ID3D12GraphicsCommandList6_ResourceBarrier(l, 1, &bar);
		/* the commands */
		ID3D12GraphicsCommandList6_SetComputeRootSignature(l, rs);
		t_set_pipeline(&c, vadd);
		vadd_args(&c, ua, ub, outs, 0); /* the UAV and n come from each record */
		ID3D12GraphicsCommandList6_ExecuteIndirect(l, sig, MAX, args, 0, count, 0);
		assert_int_equal(t_run(&c), S_OK);
		if (debug)
			assert_int_equal(t_last_message(&c, NULL, 0), 0);
		static float got[MAX * OUT_STRIDE / 4];
		t_read(&c, outs, got, sizeof(got));
		for (int k = 0; k < MAX; k++)
			for (int i = 0; i < OUT_STRIDE / 4; i++) {
				float want = k < 3 && i < N / 4 ? a[i] + b[i] : 0.0f;
				if (got[k * OUT_STRIDE / 4 + i] != want)
					fail_msg("command %d element %d: %g, expected %g", k, i, got[k * OUT_STRIDE / 4 + i], want);
			}
		ID3D12CommandSignature_Release(sig);
		ID3D12RootSignature_Release(rs);
		ID3D12PipelineState_Release(vadd);
		ID3D12PipelineState_Release(writer);
		ID3D12Resource_Release(ua);
		ID3D12Resource_Release(ub);
		ID3D12Resource_Release(outs);
		ID3D12Resource_Release(args);
		ID3D12Resource_Release(count);
		t_close(&c);
	}
}

/* Launch parameters ExecuteIndirect reads from memory are checked when the
 * command processor reads them (the XS_LAUNCH firmware packet): values that
 * break S3.4 or S3.5 remove the device, the report naming the rule. */
static void indirect_launch_parameters_checked_on_the_gpu(void **state)
{
	(void)state;
	const struct { UINT x, y; const char *rule; } bad[] = { { 0, 1, "S3.4" }, { 4096, 1, "S3.4" }, { 2048, 2, "S3.5" }, { 1024, 2, "S3.5" } };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t_ctx c;
		t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
		HRESULT hr;
		ID3D12PipelineState *vadd = t_pipeline(&c, vadd_path, NULL, &hr);
		ID3D12RootSignature *rs = vadd_root_signature(&c);
		D3D12_INDIRECT_ARGUMENT_DESC ad[2] = {
			{ .Type = D3D12XBOX_INDIRECT_ARGUMENT_TYPE_COMPUTE_SHADER_LAUNCH_PARAMETERSX },
			{ .Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH },
		};
		D3D12_COMMAND_SIGNATURE_DESC sd = { .ByteStride = 20, .NumArgumentDescs = 2, .pArgumentDescs = ad };
		ID3D12CommandSignature *sig;
		assert_int_equal(ID3D12Device_CreateCommandSignature(c.dev, &sd, rs, &IID_ID3D12CommandSignature,
								     (void **)&sig), S_OK);
		D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS l = lp(SHAPE, 0, bad[i].x, bad[i].y, 1);
		UINT rec[5] = { l.Dword0, l.Dword1, 1, 1, 1 };
		ID3D12Resource *args = t_upload(&c, rec, sizeof(rec));
		ID3D12Resource *buf = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 65536);
		t_set_pipeline(&c, vadd);
		vadd_args(&c, buf, buf, buf, 16);
		ID3D12GraphicsCommandList6_ExecuteIndirect(c.list, sig, 1, args, 0, NULL, 0);
		assert_int_equal(t_run(&c), DXGI_ERROR_DEVICE_RESET);
		char text[2000];
		bool found = false;
		UINT64 k = ID3D12InfoQueue_GetNumStoredMessages(c.iq);
		for (UINT64 m = 0; m < k && !found; m++) {
			SIZE_T len = 0;
			ID3D12InfoQueue_GetMessage(c.iq, m, NULL, &len);
			D3D12_MESSAGE *msg = malloc(len);
			ID3D12InfoQueue_GetMessage(c.iq, m, msg, &len);
			snprintf(text, sizeof(text), "%s", msg->pDescription);
			found = strstr(text, "XS_LAUNCH") && strstr(text, bad[i].rule);
			free(msg);
		}
		if (!found)
			fail_msg("case %zu: no removal report naming XS_LAUNCH and %s", i, bad[i].rule);
		ID3D12Resource_Release(args);
		ID3D12Resource_Release(buf);
		ID3D12CommandSignature_Release(sig);
		ID3D12RootSignature_Release(rs);
		ID3D12PipelineState_Release(vadd);
		t_close(&c);
	}
}

int main(int argc, char **argv)
{
	if (argc < 6) {
		fprintf(stderr, "usage: test_launch VADD LDS_REDUCE GROUP2048 INDIRECT_ARGS LDS_REDUCE_CUMODE\n");
		return 2;
	}
	lds_cu_path = argv[5];
	vadd_path = argv[1];
	lds_path = argv[2];
	g2048_path = argv[3];
	args_path = argv[4];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_rule_broken),
		cmocka_unit_test(overrides_reach_the_kernel),
		cmocka_unit_test(kept_launches_follow_the_list_state),
		cmocka_unit_test(trace_file_whole_or_kept),
		cmocka_unit_test(group_of_2048_wave64_threads),
		cmocka_unit_test(cu_mode_and_wgp_mode),
		cmocka_unit_test(execute_indirect_from_gpu_written_arguments),
		cmocka_unit_test(indirect_launch_parameters_checked_on_the_gpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
