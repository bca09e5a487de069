/*
 * Instruction timing and counters through D3D12 (d3d12_xs.h): a program
 * profiles its dispatches with XS12SetProfiling / XS12WriteProfile or
 * XS12_PROFILE, and reads counters with XS12GetDispatchCounters; the
 * pipeline's kernel is named in the profile even after the pipeline is
 * released. argv: vadd.
 */
#include "d3d12_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static const char *vadd_path;

enum { N = 256 * 1024 };

/* vadd over N floats, in place; the list is executed and waited for. */
static void record_vadd(t_ctx *c, ID3D12PipelineState *p, ID3D12Resource *buf)
{
	D3D12_GPU_VIRTUAL_ADDRESS va = ID3D12Resource_GetGPUVirtualAddress(buf);
	t_set_pipeline(c, p);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c->list, 0, va);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c->list, 1, va);
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c->list, 2, va);
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c->list, 3, N, 0);
	ID3D12GraphicsCommandList6_Dispatch(c->list, N / 64, 1, 1);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c->list), S_OK);
	ID3D12CommandList *l = (ID3D12CommandList *)c->list;
	ID3D12CommandQueue_ExecuteCommandLists(c->queue, 1, &l);
	ID3D12CommandQueue_Signal(c->queue, c->fence, ++c->fence_value);
	assert_int_equal(ID3D12Fence_SetEventOnCompletion(c->fence, c->fence_value, NULL), S_OK);
}

static char *slurp(const char *path)
{
	size_t n;
	char *s = t_read_file(path, &n);
	assert_non_null(s);
	char *z = realloc(s, n + 1);
	assert_non_null(z);
	z[n] = 0;
	return z;
}

static void counters_and_profile(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	assert_int_equal(XS12SetProfiling(c.dev, TRUE), S_OK);
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(&c, vadd_path, NULL, &hr);
	ID3D12Resource *buf = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, N * 4);
	XS12_DISPATCH_COUNTERS k;
	record_vadd(&c, p, buf);
	memset(&k, 0xff, sizeof(k)); /* every field is written */
	assert_int_equal(XS12GetDispatchCounters((ID3D12GraphicsCommandList *)c.list, 0, &k), S_OK);
	assert_true(k.Valid);
	/* vadd(a, a, a): two loads and a store of 4 bytes per thread */
	assert_int_equal(k.VmemReadBytes, 2ull * N * 4);
	assert_int_equal(k.VmemWriteBytes, (uint64_t)N * 4);
	assert_int_equal(k.L0Hits + k.L0Misses, 2ull * N * 4 / 128);
	assert_int_equal(k.LdsBankConflictCycles, 0); /* vadd has no LDS */
	XS12_DISPATCH_STATISTICS st;
	assert_int_equal(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.list, 0, &st), S_OK);
	uint64_t insts = 0;
	for (int i = 0; i < 13; i++)
		insts += k.Instructions[i];
	assert_int_equal(insts, st.WaveInstructions);
	assert_int_equal(k.WavesPerSE[0] + k.WavesPerSE[1], st.WavesLaunched);
	assert_true(k.ValuBusyPercent > 0 && k.ValuBusyPercent <= 100);
	assert_int_equal(XS12GetDispatchCounters((ID3D12GraphicsCommandList *)c.list, 1, &k), E_INVALIDARG);
	assert_int_equal(XS12GetDispatchCounters((ID3D12GraphicsCommandList *)c.list, 0, NULL), E_INVALIDARG);
	assert_int_equal(XS12GetDispatchCounters(NULL, 0, &k), E_INVALIDARG);

	/* the pipeline goes before the profile is written: its kernel is still named */
	ID3D12PipelineState_Release(p);
	char path[] = "/tmp/xs12-d3d12-profile-XXXXXX.json";
	int fd = mkstemps(path, 5);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(XS12WriteProfile(c.dev, path), S_OK);
	char *json = slurp(path);
	assert_non_null(strstr(json, "\"format\":\"xs12-profile-1\""));
	assert_non_null(strstr(json, "{\"name\":\"vadd\""));
	assert_non_null(strstr(json, "\"top_stall\":\"vmcnt\""));
	free(json);
	unlink(path);

	assert_int_equal(XS12WriteProfile(c.dev, NULL), E_INVALIDARG);
	assert_int_equal(XS12WriteProfile(NULL, path), E_INVALIDARG);
	assert_int_equal(XS12WriteProfile(c.dev, "/nonexistent-dir/p.json"), E_FAIL);
	assert_int_equal(XS12SetProfiling(NULL, TRUE), E_INVALIDARG);
	assert_int_equal(XS12SetProfiling((ID3D12Device *)c.list, TRUE), E_INVALIDARG); /* not a device */
	assert_int_equal(XS12SetProfiling(c.dev, FALSE), S_OK);
	assert_int_equal(XS12WriteProfile(c.dev, path), E_INVALIDARG); /* not collecting */
	ID3D12Resource_Release(buf);
	t_close(&c);

	/* a functional device has no timing to profile */
	XS12_DEVICE_DESC fd2 = { .Functional = TRUE };
	t_open_desc(&c, &fd2, D3D12_COMMAND_LIST_TYPE_DIRECT);
	assert_int_equal(XS12SetProfiling(c.dev, TRUE), DXGI_ERROR_UNSUPPORTED);
	t_close(&c);
}

/* XS12_DEVICE_DESC.ProfilePath (and XS12_PROFILE): the profile is written
 * when the device is released, as text here. */
static void profile_written_at_release(void **state)
{
	(void)state;
	char path[] = "/tmp/xs12-d3d12-profile-XXXXXX.txt";
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	close(fd);
	XS12_DEVICE_DESC d = { .ProfilePath = path };
	t_ctx c;
	t_open_desc(&c, &d, D3D12_COMMAND_LIST_TYPE_DIRECT);
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(&c, vadd_path, NULL, &hr);
	ID3D12Resource *buf = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, N * 4);
	record_vadd(&c, p, buf);
	ID3D12PipelineState_Release(p);
	ID3D12Resource_Release(buf);
	t_close(&c);
	char *text = slurp(path);
	assert_non_null(strstr(text, "== vadd:"));
	assert_non_null(strstr(text, "top stall vmcnt"));
	assert_non_null(strstr(text, "s_waitcnt vmcnt(0)"));
	free(text);
	unlink(path);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s vadd.hsaco\n", argv[0]);
		return 2;
	}
	vadd_path = argv[1];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counters_and_profile),
		cmocka_unit_test(profile_written_at_release),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
