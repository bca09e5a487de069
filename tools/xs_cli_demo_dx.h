/* The D3D12 plumbing of xs12 demo's stories (xs_cli_demo_d3d12.c, the
 * compute stories; xs_cli_demo_gfx.c, the graphics ones): a device with one
 * queue, list and fence; buffers; code-object pipelines; scratch_chase. */
#ifndef XS_CLI_DEMO_DX_H
#define XS_CLI_DEMO_DX_H

#include "xs_cli.h"

#define COBJMACROS
#include <xs12/d3d12_xs.h>

#include <stdbool.h>
#include <stdint.h>

typedef struct dctx {
	ID3D12Device *dev;
	ID3D12InfoQueue *iq;
	ID3D12CommandQueue *q;
	ID3D12CommandAllocator *a;
	ID3D12GraphicsCommandList6 *l;
	ID3D12Fence *f;
	UINT64 fv;
	D3D12_COMMAND_LIST_TYPE type;
} dctx;

typedef struct pipe {
	ID3D12PipelineState *pso;
	ID3D12RootSignature *rs;
} pipe;

bool dopen(dctx *c, bool debug, D3D12_COMMAND_LIST_TYPE type, ID3D12Device *share);
/* The same, the device writing its timeline to trace (XS12_DEVICE_DESC.TracePath) when released. */
bool dopen_traced(dctx *c, bool debug, D3D12_COMMAND_LIST_TYPE type, ID3D12Device *share, const char *trace);
void dclose(dctx *c);
HRESULT submit(dctx *c);
HRESULT finish(dctx *c);
void reopen(dctx *c);
ID3D12Resource *buffer(dctx *c, D3D12_HEAP_TYPE heap, UINT64 bytes, const void *data);
void rel(ID3D12Resource *r);
bool readback(dctx *c, ID3D12Resource *src, void *out, UINT64 bytes);
bool pipeline(dctx *c, const char *kdir, const char *file, const char *kernel, pipe *p);
void pipe_free(pipe *p);
void bind(dctx *c, const pipe *p);
uint32_t chase_ref(const uint32_t *in, uint32_t i, uint32_t steps);
bool chase_right(dctx *c, ID3D12Resource *out, const uint32_t *in, uint32_t n, uint32_t steps);
void chase(dctx *c, const pipe *p, ID3D12Resource *in, ID3D12Resource *out, UINT groups, UINT steps);

/* The graphics stories (xs_cli_demo_gfx.c); in: scratch_chase's input. */
int xs_cli_demo_gfx(const char *kdir, const uint32_t *in);

#endif
