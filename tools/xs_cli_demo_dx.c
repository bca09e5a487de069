/* The D3D12 plumbing of xs12 demo's stories (xs_cli_demo_dx.h). */
#include "xs_cli_demo_dx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>



bool dopen(dctx *c, bool debug, D3D12_COMMAND_LIST_TYPE type, ID3D12Device *share)
{
	return dopen_traced(c, debug, type, share, NULL);
}

bool dopen_traced(dctx *c, bool debug, D3D12_COMMAND_LIST_TYPE type, ID3D12Device *share, const char *trace)
{
	memset(c, 0, sizeof(*c));
	c->type = type;
	XS12_DEVICE_DESC dd = { .Machine = XS12_MACHINE_SERIES_X, .DebugLayer = debug, .TracePath = trace };
	if (share) {
		c->dev = share;
		ID3D12Device_AddRef(share);
	} else if (FAILED(XS12CreateDevice(&dd, &IID_ID3D12Device, (void **)&c->dev))) {
		return false;
	}
	if (FAILED(ID3D12Device_QueryInterface(c->dev, &IID_ID3D12InfoQueue, (void **)&c->iq)))
		c->iq = NULL;
	if (c->iq)
		ID3D12InfoQueue_SetMuteDebugOutput(c->iq, TRUE); /* the demo prints what it wants */
	D3D12_COMMAND_QUEUE_DESC qd = { .Type = type };
	return SUCCEEDED(ID3D12Device_CreateCommandQueue(c->dev, &qd, &IID_ID3D12CommandQueue, (void **)&c->q)) &&
	       SUCCEEDED(ID3D12Device_CreateCommandAllocator(c->dev, type, &IID_ID3D12CommandAllocator, (void **)&c->a)) &&
	       SUCCEEDED(ID3D12Device_CreateCommandList(c->dev, 0, type, c->a, NULL, &IID_ID3D12GraphicsCommandList6,
							(void **)&c->l)) &&
	       SUCCEEDED(ID3D12Device_CreateFence(c->dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&c->f));
}

void dclose(dctx *c)
{
	if (c->f) ID3D12Fence_Release(c->f);
	if (c->l) ID3D12GraphicsCommandList6_Release(c->l);
	if (c->a) ID3D12CommandAllocator_Release(c->a);
	if (c->q) ID3D12CommandQueue_Release(c->q);
	if (c->iq) ID3D12InfoQueue_Release(c->iq);
	if (c->dev) ID3D12Device_Release(c->dev);
	memset(c, 0, sizeof(*c));
}

/* Close, execute, signal: the GPU runs when someone waits. */
HRESULT submit(dctx *c)
{
	HRESULT hr = ID3D12GraphicsCommandList6_Close(c->l);
	if (FAILED(hr))
		return hr;
	ID3D12CommandList *l = (ID3D12CommandList *)c->l;
	ID3D12CommandQueue_ExecuteCommandLists(c->q, 1, &l);
	return ID3D12CommandQueue_Signal(c->q, c->f, ++c->fv);
}

HRESULT finish(dctx *c)
{
	HRESULT hr = ID3D12Fence_SetEventOnCompletion(c->f, c->fv, NULL);
	if (SUCCEEDED(hr))
		hr = ID3D12Device_GetDeviceRemovedReason(c->dev);
	return hr;
}

void reopen(dctx *c)
{
	ID3D12CommandAllocator_Reset(c->a);
	ID3D12GraphicsCommandList6_Reset(c->l, c->a, NULL);
}

ID3D12Resource *buffer(dctx *c, D3D12_HEAP_TYPE heap, UINT64 bytes, const void *data)
{
	D3D12_HEAP_PROPERTIES hp = { .Type = heap };
	D3D12_RESOURCE_DESC rd = { .Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = bytes, .Height = 1,
				   .DepthOrArraySize = 1, .MipLevels = 1, .SampleDesc = { 1, 0 },
				   .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR };
	ID3D12Resource *r = NULL;
	if (FAILED(ID3D12Device_CreateCommittedResource(c->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd,
							heap == D3D12_HEAP_TYPE_UPLOAD ? D3D12_RESOURCE_STATE_GENERIC_READ
											: D3D12_RESOURCE_STATE_COMMON,
							NULL, &IID_ID3D12Resource, (void **)&r)))
		return NULL;
	void *p;
	if (data && SUCCEEDED(ID3D12Resource_Map(r, 0, NULL, &p))) {
		memcpy(p, data, bytes);
		ID3D12Resource_Unmap(r, 0, NULL);
	}
	return r;
}

void rel(ID3D12Resource *r)
{
	if (r)
		ID3D12Resource_Release(r);
}

/* A buffer's bytes, through a READBACK copy. */
bool readback(dctx *c, ID3D12Resource *src, void *out, UINT64 bytes)
{
	ID3D12Resource *rb = buffer(c, D3D12_HEAP_TYPE_READBACK, bytes, NULL);
	if (!rb)
		return false;
	ID3D12GraphicsCommandList6_CopyBufferRegion(c->l, rb, 0, src, 0, bytes);
	bool ok = SUCCEEDED(submit(c)) && SUCCEEDED(finish(c));
	void *p;
	if (ok && SUCCEEDED(ID3D12Resource_Map(rb, 0, NULL, &p))) {
		memcpy(out, p, bytes);
		ID3D12Resource_Unmap(rb, 0, NULL);
	}
	reopen(c);
	rel(rb);
	return ok;
}



/* A pipeline of a code object's kernel, its root signature the one the
 * bytecode embeds (CreateRootSignature from the same bytes). */
bool pipeline(dctx *c, const char *kdir, const char *file, const char *kernel, pipe *p)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", kdir, file);
	uint8_t *code;
	size_t n;
	xs_err e;
	memset(p, 0, sizeof(*p));
	if (xs_read_file(path, 64u << 20, &code, &n, &e)) {
		fprintf(stderr, "xs12 demo: %s\n", e.msg);
		return false;
	}
	XS12_KERNEL_BYTECODE kb = { .Magic = XS12_KERNEL_BYTECODE_MAGIC, .KernelName = kernel, .pCodeObject = code,
				    .CodeObjectSize = n };
	bool ok = SUCCEEDED(ID3D12Device_CreateRootSignature(c->dev, 0, &kb, sizeof(kb), &IID_ID3D12RootSignature,
							     (void **)&p->rs));
	D3D12_COMPUTE_PIPELINE_STATE_DESC d = { .pRootSignature = p->rs, .CS = { &kb, sizeof(kb) } };
	ok = ok && SUCCEEDED(ID3D12Device_CreateComputePipelineState(c->dev, &d, &IID_ID3D12PipelineState,
								     (void **)&p->pso));
	free(code);
	if (!ok)
		fprintf(stderr, "xs12 demo: %s: no pipeline of %s\n", path, kernel);
	return ok;
}

void pipe_free(pipe *p)
{
	if (p->pso) ID3D12PipelineState_Release(p->pso);
	if (p->rs) ID3D12RootSignature_Release(p->rs);
}

void bind(dctx *c, const pipe *p)
{
	ID3D12GraphicsCommandList6_SetComputeRootSignature(c->l, p->rs);
	ID3D12GraphicsCommandList6_SetPipelineState(c->l, p->pso);
}

/* kernels/model/scratch_chase.cl on the host. */
uint32_t chase_ref(const uint32_t *in, uint32_t i, uint32_t steps)
{
	uint32_t p[64], x = i & 63u;
	for (uint32_t k = 0; k < 64; k++)
		p[k] = (in[(i * 7u + k) & 1023u] + k) & 63u;
	for (uint32_t s = 0; s < steps; s++)
		x = p[x];
	return x;
}

bool chase_right(dctx *c, ID3D12Resource *out, const uint32_t *in, uint32_t n, uint32_t steps)
{
	uint32_t *got = malloc(n * 4);
	bool ok = got && readback(c, out, got, n * 4);
	for (uint32_t i = 0; ok && i < n; i++)
		ok = got[i] == chase_ref(in, i, steps);
	free(got);
	return ok;
}

/* scratch_chase(in, out, steps) with the list's ring. */
void chase(dctx *c, const pipe *p, ID3D12Resource *in, ID3D12Resource *out, UINT groups, UINT steps)
{
	bind(c, p);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c->l, 0, ID3D12Resource_GetGPUVirtualAddress(in));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c->l, 1, ID3D12Resource_GetGPUVirtualAddress(out));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c->l, 2, steps, 0);
	ID3D12GraphicsCommandList6_Dispatch(c->l, groups, 1, 1);
}

