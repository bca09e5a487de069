/* Helpers of the D3D12 tests: a device with a queue, list and fence,
 * buffers, pipelines from code objects, and the debug layer's last
 * message. Written the way a D3D12 program is (C with COBJMACROS). */
#ifndef XS_TEST_D3D12_UTIL_H
#define XS_TEST_D3D12_UTIL_H

#define COBJMACROS
#include <xs12/d3d12_xs.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct t_ctx {
	ID3D12Device *dev;
	ID3D12InfoQueue *iq;               /* NULL without the debug layer */
	D3D12_COMMAND_LIST_TYPE type;
	ID3D12CommandQueue *queue;
	ID3D12CommandAllocator *alloc;
	ID3D12GraphicsCommandList6 *list;
	ID3D12Fence *fence;
	UINT64 fence_value;
} t_ctx;

/* A device (debug layer on or off) with a queue, allocator, open list and fence. */
void t_open(t_ctx *c, bool debug, D3D12_COMMAND_LIST_TYPE type);
void t_open_desc(t_ctx *c, const XS12_DEVICE_DESC *desc, D3D12_COMMAND_LIST_TYPE type);
void t_close(t_ctx *c);
/* Closes the list, executes it, waits for it; the list is reset after. */
HRESULT t_run(t_ctx *c);
/* A committed buffer (DEFAULT, UPLOAD or READBACK heap). */
ID3D12Resource *t_buffer(t_ctx *c, D3D12_HEAP_TYPE heap, UINT64 bytes);
/* An UPLOAD buffer holding data. */
ID3D12Resource *t_upload(t_ctx *c, const void *data, UINT64 bytes);
/* Copies a buffer's bytes back through a READBACK buffer (runs the list). */
void t_read(t_ctx *c, ID3D12Resource *buf, void *out, UINT64 bytes);
/* A compute pipeline of a code object file's kernel (NULL: the only one),
 * with the root signature CreateRootSignature makes of the same bytecode. */
ID3D12PipelineState *t_pipeline(t_ctx *c, const char *path, const char *kernel, HRESULT *hr);
/* SetComputeRootSignature (the pipeline's) and SetPipelineState. */
void t_set_pipeline(t_ctx *c, ID3D12PipelineState *p);
/* The ID of the last message the debug layer stored (0: none); clears. */
D3D12_MESSAGE_ID t_last_message(t_ctx *c, char *text, size_t n);
/* Does any stored message (since the last clear) have this ID? */
bool t_has_message(t_ctx *c, D3D12_MESSAGE_ID id);
void *t_read_file(const char *path, size_t *size);

/* A version 1.0 root signature of these parameters, serialized and
 * created (a failure aborts, as the other set-up steps). */
ID3D12RootSignature *t_root_signature(t_ctx *c, const D3D12_ROOT_PARAMETER *params, UINT n);

/* A graphics pipeline of these shaders with what most tests draw with: one
 * RGBA8 target with every colour written, solid triangles, no culling,
 * depth clip, one sample. The caller adds the root signature and the input
 * layout. */
D3D12_GRAPHICS_PIPELINE_STATE_DESC t_gfx_desc(const void *vs, size_t vs_size, const void *ps, size_t ps_size);

/* kernels/private_spill.cl on the CPU: output i of n inputs. */
uint32_t t_spill_ref(const uint32_t *in, uint32_t n, uint32_t i);

#endif
