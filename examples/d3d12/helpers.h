/*
 * helpers.h — the boilerplate of the C examples, kept out of their way: a
 * check macro, a file reader, committed buffers, a compute pipeline from
 * an AMDGPU code object, and "execute and wait on a fence". Everything a
 * D3D12 sample's helper header would hold; static, so each example is one
 * file to compile:
 *
 *   cc -std=c11 scratch_size.c $(pkg-config --cflags --libs xs12)
 */
#ifndef XS12_EXAMPLE_HELPERS_H
#define XS12_EXAMPLE_HELPERS_H

#define COBJMACROS
#include <xs12/d3d12_xs.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Win32's names for XS12WaitForEvent (winadapter.h has no events). */
#ifndef INFINITE
#define INFINITE 0xFFFFFFFFu
#endif
#ifndef WAIT_OBJECT_0
#define WAIT_OBJECT_0 0u
#endif

/* A failed call ends the example with the call and its HRESULT. */
#define CHECK(call)                                                                                       \
	do {                                                                                              \
		HRESULT hr_ = (call);                                                                     \
		if (FAILED(hr_)) {                                                                        \
			fprintf(stderr, "%s:%d: %s failed: 0x%08x\n", __FILE__, __LINE__, #call, (unsigned)hr_); \
			exit(1);                                                                          \
		}                                                                                         \
	} while (0)

/* DIR/NAME into a static buffer (kernel files of the build: build/kernels). */
static inline const char *kernel_file(const char *dir, const char *name)
{
	static char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static inline void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	void *p = malloc(n > 0 ? (size_t)n : 1);
	if (!p || n < 0 || fread(p, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	*size = (size_t)n;
	return p;
}

/* A committed buffer: DEFAULT (with UAV access), UPLOAD or READBACK. */
static inline ID3D12Resource *create_buffer(ID3D12Device *dev, D3D12_HEAP_TYPE heap, UINT64 bytes)
{
	D3D12_HEAP_PROPERTIES hp = { .Type = heap };
	D3D12_RESOURCE_DESC rd = {
		.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = bytes, .Height = 1, .DepthOrArraySize = 1,
		.MipLevels = 1, .SampleDesc = { 1, 0 }, .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
		.Flags = heap == D3D12_HEAP_TYPE_DEFAULT ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE,
	};
	D3D12_RESOURCE_STATES state = heap == D3D12_HEAP_TYPE_UPLOAD     ? D3D12_RESOURCE_STATE_GENERIC_READ
				      : heap == D3D12_HEAP_TYPE_READBACK ? D3D12_RESOURCE_STATE_COPY_DEST
									 : D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
	ID3D12Resource *r;
	CHECK(ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, &rd, state, NULL, &IID_ID3D12Resource,
						   (void **)&r));
	return r;
}

/* An UPLOAD buffer holding a copy of data. */
static inline ID3D12Resource *create_upload_buffer(ID3D12Device *dev, const void *data, UINT64 bytes)
{
	ID3D12Resource *r = create_buffer(dev, D3D12_HEAP_TYPE_UPLOAD, bytes);
	void *p;
	CHECK(ID3D12Resource_Map(r, 0, NULL, &p));
	memcpy(p, data, bytes);
	ID3D12Resource_Unmap(r, 0, NULL);
	return r;
}

/* A transition barrier of a whole buffer. */
static inline void transition(ID3D12GraphicsCommandList6 *list, ID3D12Resource *r, D3D12_RESOURCE_STATES before,
		       D3D12_RESOURCE_STATES after)
{
	D3D12_RESOURCE_BARRIER b = {
		.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION,
		.Transition = { .pResource = r, .Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES,
				.StateBefore = before, .StateAfter = after },
	};
	ID3D12GraphicsCommandList6_ResourceBarrier(list, 1, &b);
}

/* A compute pipeline of a code object's kernel (NULL: its only one) and
 * the root signature embedded in the same bytecode, as CreateRootSignature
 * takes it from a DXIL shader. */
static inline void create_compute_pipeline(ID3D12Device *dev, const char *path, const char *kernel,
				    ID3D12RootSignature **root_signature, ID3D12PipelineState **pso)
{
	size_t size;
	void *code = read_file(path, &size);
	XS12_KERNEL_BYTECODE named = { .Magic = XS12_KERNEL_BYTECODE_MAGIC, .KernelName = kernel, .pCodeObject = code,
				       .CodeObjectSize = size };
	D3D12_SHADER_BYTECODE cs = { code, size };
	if (kernel)
		cs = (D3D12_SHADER_BYTECODE){ &named, sizeof(named) };
	CHECK(ID3D12Device_CreateRootSignature(dev, 0, cs.pShaderBytecode, cs.BytecodeLength, &IID_ID3D12RootSignature,
					       (void **)root_signature));
	D3D12_COMPUTE_PIPELINE_STATE_DESC pd = { .pRootSignature = *root_signature, .CS = cs };
	CHECK(ID3D12Device_CreateComputePipelineState(dev, &pd, &IID_ID3D12PipelineState, (void **)pso));
	free(code);
}

/* Closes the list, executes it, signals the fence and waits for it. */
static inline void execute_and_wait(ID3D12CommandQueue *queue, ID3D12GraphicsCommandList6 *list, ID3D12Fence *fence,
			     UINT64 *fence_value, HANDLE event)
{
	CHECK(ID3D12GraphicsCommandList6_Close(list));
	ID3D12CommandList *lists[] = { (ID3D12CommandList *)list };
	ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
	CHECK(ID3D12CommandQueue_Signal(queue, fence, ++*fence_value));
	if (ID3D12Fence_GetCompletedValue(fence) < *fence_value) {
		CHECK(ID3D12Fence_SetEventOnCompletion(fence, *fence_value, event));
		XS12WaitForEvent(event, INFINITE);
	}
}

/* kernels/private_spill.cl on the CPU: the reference of the scratch examples. */
static inline uint32_t private_spill_reference(const uint32_t *in, uint32_t n, uint32_t i)
{
	uint32_t hist[64];
	for (uint32_t k = 0; k < 64; k++)
		hist[k] = k * 3u + i;
	uint32_t v = in[i % n];
	for (uint32_t k = 0; k < 32; k++) {
		uint32_t idx = (v >> (k % 26)) & 63u;
		hist[idx] += v ^ k;
		v = v * 1664525u + 1013904223u;
	}
	uint32_t acc = 0;
	for (uint32_t k = 0; k < 64; k++)
		acc = acc * 31u + hist[(k * 7) & 63];
	return acc;
}

#endif
