/* Helpers of the D3D12 tests (d3d12_util.h). Failures abort with the call
 * that failed: these are set-up steps, not what a test asserts. */
#include "d3d12_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(hr, what)                                                                                   \
	do {                                                                                              \
		HRESULT hr_ = (hr);                                                                       \
		if (FAILED(hr_)) {                                                                        \
			fprintf(stderr, "%s:%d: %s failed: 0x%08x\n", __FILE__, __LINE__, what, (unsigned)hr_); \
			abort();                                                                          \
		}                                                                                         \
	} while (0)

void t_open_desc(t_ctx *c, const XS12_DEVICE_DESC *desc, D3D12_COMMAND_LIST_TYPE type)
{
	memset(c, 0, sizeof(*c));
	c->type = type;
	CHECK(XS12CreateDevice(desc, &IID_ID3D12Device, (void **)&c->dev), "XS12CreateDevice");
	if (FAILED(ID3D12Device_QueryInterface(c->dev, &IID_ID3D12InfoQueue, (void **)&c->iq)))
		c->iq = NULL;
	D3D12_COMMAND_QUEUE_DESC qd = { .Type = type };
	CHECK(ID3D12Device_CreateCommandQueue(c->dev, &qd, &IID_ID3D12CommandQueue, (void **)&c->queue), "queue");
	CHECK(ID3D12Device_CreateCommandAllocator(c->dev, type, &IID_ID3D12CommandAllocator, (void **)&c->alloc),
	      "allocator");
	CHECK(ID3D12Device_CreateCommandList(c->dev, 0, type, c->alloc, NULL, &IID_ID3D12GraphicsCommandList6,
					     (void **)&c->list), "list");
	CHECK(ID3D12Device_CreateFence(c->dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&c->fence), "fence");
}

void t_open(t_ctx *c, bool debug, D3D12_COMMAND_LIST_TYPE type)
{
	XS12_DEVICE_DESC d = { .Machine = XS12_MACHINE_SERIES_X, .DebugLayer = debug };
	t_open_desc(c, &d, type);
}

void t_close(t_ctx *c)
{
	if (c->fence)
		ID3D12Fence_Release(c->fence);
	if (c->list)
		ID3D12GraphicsCommandList6_Release(c->list);
	if (c->alloc)
		ID3D12CommandAllocator_Release(c->alloc);
	if (c->queue)
		ID3D12CommandQueue_Release(c->queue);
	if (c->iq)
		ID3D12InfoQueue_Release(c->iq);
	if (c->dev)
		ID3D12Device_Release(c->dev);
	memset(c, 0, sizeof(*c));
}

HRESULT t_run(t_ctx *c)
{
	HRESULT hr = ID3D12GraphicsCommandList6_Close(c->list);
	if (SUCCEEDED(hr)) {
		ID3D12CommandList *l = (ID3D12CommandList *)c->list;
		ID3D12CommandQueue_ExecuteCommandLists(c->queue, 1, &l);
		hr = ID3D12CommandQueue_Signal(c->queue, c->fence, ++c->fence_value);
		if (SUCCEEDED(hr))
			hr = ID3D12Fence_SetEventOnCompletion(c->fence, c->fence_value, NULL);
		if (SUCCEEDED(hr))
			hr = ID3D12Device_GetDeviceRemovedReason(c->dev);
	}
	if (SUCCEEDED(ID3D12CommandAllocator_Reset(c->alloc)))
		ID3D12GraphicsCommandList6_Reset(c->list, c->alloc, NULL);
	return hr;
}

ID3D12Resource *t_buffer(t_ctx *c, D3D12_HEAP_TYPE heap, UINT64 bytes)
{
	D3D12_HEAP_PROPERTIES hp = { .Type = heap };
	D3D12_RESOURCE_DESC rd = {
		.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = bytes, .Height = 1, .DepthOrArraySize = 1,
		.MipLevels = 1, .SampleDesc = { 1, 0 }, .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
		.Flags = heap == D3D12_HEAP_TYPE_DEFAULT ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE,
	};
	D3D12_RESOURCE_STATES st = heap == D3D12_HEAP_TYPE_UPLOAD ? D3D12_RESOURCE_STATE_GENERIC_READ
				   : heap == D3D12_HEAP_TYPE_READBACK ? D3D12_RESOURCE_STATE_COPY_DEST
								      : D3D12_RESOURCE_STATE_COMMON;
	ID3D12Resource *r = NULL;
	CHECK(ID3D12Device_CreateCommittedResource(c->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd, st, NULL,
						   &IID_ID3D12Resource, (void **)&r), "CreateCommittedResource");
	return r;
}

ID3D12Resource *t_upload(t_ctx *c, const void *data, UINT64 bytes)
{
	ID3D12Resource *r = t_buffer(c, D3D12_HEAP_TYPE_UPLOAD, bytes);
	void *p;
	CHECK(ID3D12Resource_Map(r, 0, NULL, &p), "Map");
	memcpy(p, data, bytes);
	ID3D12Resource_Unmap(r, 0, NULL);
	return r;
}

void t_read(t_ctx *c, ID3D12Resource *buf, void *out, UINT64 bytes)
{
	ID3D12Resource *rb = t_buffer(c, D3D12_HEAP_TYPE_READBACK, bytes);
	ID3D12GraphicsCommandList6_CopyBufferRegion(c->list, rb, 0, buf, 0, bytes);
	CHECK(t_run(c), "the read-back copy");
	void *p;
	D3D12_RANGE all = { 0, bytes };
	CHECK(ID3D12Resource_Map(rb, 0, &all, &p), "Map");
	memcpy(out, p, bytes);
	ID3D12Resource_Unmap(rb, 0, NULL);
	ID3D12Resource_Release(rb);
}

void *t_read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		abort();
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	void *p = malloc((size_t)n);
	if (!p || fread(p, 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	*size = (size_t)n;
	return p;
}

/* The PSO keeps its root signature as private data, where t_set_pipeline finds it. */
static const GUID root_guid = { 0x78733132, 0x7274, 0x4f6f, { 0x80, 0x01, 0x72, 0x6f, 0x6f, 0x74, 0x73, 0x67 } };

ID3D12PipelineState *t_pipeline(t_ctx *c, const char *path, const char *kernel, HRESULT *hr)
{
	size_t n;
	void *code = t_read_file(path, &n);
	XS12_KERNEL_BYTECODE kb = { .Magic = XS12_KERNEL_BYTECODE_MAGIC, .pCodeObject = code, .CodeObjectSize = n,
				    .KernelName = kernel };
	const void *bc = kernel ? (const void *)&kb : code;
	size_t bn = kernel ? sizeof(kb) : n;
	/* the root signature embedded in the shader, as a D3D12 program makes it */
	ID3D12RootSignature *rs = NULL;
	*hr = ID3D12Device_CreateRootSignature(c->dev, 0, bc, bn, &IID_ID3D12RootSignature, (void **)&rs);
	ID3D12PipelineState *p = NULL;
	if (SUCCEEDED(*hr)) {
		D3D12_COMPUTE_PIPELINE_STATE_DESC d = { .pRootSignature = rs, .CS = { bc, bn } };
		*hr = ID3D12Device_CreateComputePipelineState(c->dev, &d, &IID_ID3D12PipelineState, (void **)&p);
	}
	if (p)
		ID3D12PipelineState_SetPrivateDataInterface(p, &root_guid, (const IUnknown *)rs);
	if (rs)
		ID3D12RootSignature_Release(rs);
	free(code);
	return p;
}

void t_set_pipeline(t_ctx *c, ID3D12PipelineState *p)
{
	ID3D12RootSignature *rs = NULL;
	UINT size = sizeof(rs);
	if (SUCCEEDED(ID3D12PipelineState_GetPrivateData(p, &root_guid, &size, &rs)) && rs) {
		ID3D12GraphicsCommandList6_SetComputeRootSignature(c->list, rs);
		ID3D12RootSignature_Release(rs);
	}
	ID3D12GraphicsCommandList6_SetPipelineState(c->list, p);
}

D3D12_MESSAGE_ID t_last_message(t_ctx *c, char *text, size_t n)
{
	if (text && n)
		text[0] = 0;
	if (!c->iq)
		return 0;
	UINT64 k = ID3D12InfoQueue_GetNumStoredMessages(c->iq);
	if (!k)
		return 0;
	SIZE_T len = 0;
	ID3D12InfoQueue_GetMessage(c->iq, k - 1, NULL, &len);
	D3D12_MESSAGE *m = malloc(len);
	ID3D12InfoQueue_GetMessage(c->iq, k - 1, m, &len);
	D3D12_MESSAGE_ID id = m->ID;
	if (text && n)
		snprintf(text, n, "%s", m->pDescription);
	free(m);
	ID3D12InfoQueue_ClearStoredMessages(c->iq);
	return id;
}

bool t_has_message(t_ctx *c, D3D12_MESSAGE_ID id)
{
	if (!c->iq)
		return false;
	UINT64 k = ID3D12InfoQueue_GetNumStoredMessages(c->iq);
	for (UINT64 i = 0; i < k; i++) {
		SIZE_T len = 0;
		ID3D12InfoQueue_GetMessage(c->iq, i, NULL, &len);
		D3D12_MESSAGE *m = malloc(len);
		ID3D12InfoQueue_GetMessage(c->iq, i, m, &len);
		bool hit = m->ID == id;
		free(m);
		if (hit)
			return true;
	}
	return false;
}

ID3D12RootSignature *t_root_signature(t_ctx *c, const D3D12_ROOT_PARAMETER *params, UINT n)
{
	D3D12_ROOT_SIGNATURE_DESC d = { .NumParameters = n, .pParameters = params };
	ID3DBlob *blob;
	CHECK(D3D12SerializeRootSignature(&d, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, NULL), "D3D12SerializeRootSignature");
	ID3D12RootSignature *rs;
	CHECK(ID3D12Device_CreateRootSignature(c->dev, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
					       &IID_ID3D12RootSignature, (void **)&rs), "CreateRootSignature");
	ID3D10Blob_Release(blob);
	return rs;
}

uint32_t t_spill_ref(const uint32_t *in, uint32_t n, uint32_t i)
{
	uint32_t hist[64];
	for (int k = 0; k < 64; k++)
		hist[k] = (uint32_t)k * 3u + i;
	uint32_t v = in[i % n];
	for (int k = 0; k < 32; k++) {
		uint32_t idx = (v >> (k % 26)) & 63u;
		hist[idx] += v ^ (uint32_t)k;
		v = v * 1664525u + 1013904223u;
	}
	uint32_t acc = 0;
	for (int k = 0; k < 64; k++)
		acc = acc * 31u + hist[(k * 7) & 63];
	return acc;
}

D3D12_GRAPHICS_PIPELINE_STATE_DESC t_gfx_desc(const void *vs, size_t vs_size, const void *ps, size_t ps_size)
{
	D3D12_GRAPHICS_PIPELINE_STATE_DESC d;
	memset(&d, 0, sizeof(d));
	d.VS = (D3D12_SHADER_BYTECODE){ vs, vs_size };
	d.PS = (D3D12_SHADER_BYTECODE){ ps, ps_size };
	d.BlendState.RenderTarget[0].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
	d.SampleMask = UINT32_MAX;
	d.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
	d.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
	d.RasterizerState.DepthClipEnable = TRUE;
	d.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
	d.NumRenderTargets = 1;
	d.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
	d.SampleDesc.Count = 1;
	return d;
}
