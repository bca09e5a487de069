/*
 * The API-sequence target: bytes -> a sequence of D3D12 calls through the
 * public headers, on one device per input with the debug layer on and a
 * small watchdog (XS12_DEVICE_DESC's hang limits and wave budget).
 *
 * Input: one header byte (bit 0: functional mode, bit 1: DRED on), then up
 * to MAX_OPS operations, each an opcode byte and the argument bytes that
 * operation reads (missing bytes read as 0, so every input is a sequence).
 * The objects live in small tables (buffers, lists with their allocators,
 * fences, three queues: direct, compute, copy) that an operation picks
 * from by a byte; an empty slot is passed as NULL, as a buggy client would.
 *
 * Oracles, besides ASan/UBSan/LSan and libFuzzer's timeout:
 *  - a creation that fails returns a failing HRESULT and no object, one
 *    that succeeds returns an object;
 *  - every message of the debug layer reads back whole (GetMessage's two
 *    calls agree, the text has the length the message says);
 *  - once GetDeviceRemovedReason fails, fences read UINT64_MAX and queue
 *    Signal fails (D3D12's behaviour after a removal);
 *  - at the end every queue drains: a blocking wait for a final signal on
 *    each returns, and then either the device was removed or the value
 *    was reached (xs12's deadlock and hang detection end every wait);
 *  - a COPY list ran no dispatch.
 * Work is bounded per input: at most 64 operations, dispatches of at most
 * 64 groups (unless a call that D3D12 rejects asks for more), rays grids of
 * at most 16x4x2 lanes, the GPU-time watchdog and a per-wave instruction
 * budget for the rest (a kernel that spins).
 *
 * Pipelines: compute kernels of the build (vadd, private_spill, faults,
 * lds_reduce) and kernels/rt_basic.hip's ray-tracing library when hipcc
 * built it, read once per process from XS_FUZZ_KERNEL_DIR (environment,
 * else the build's kernels folder compiled in) and made into pipelines on
 * each input's device when an operation first needs them.
 */
#define COBJMACROS
#include <xs12/d3d12_xs.h>
#include <xs12/xs12_rt.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#ifndef XS_FUZZ_KERNEL_DIR
#define XS_FUZZ_KERNEL_DIR "kernels"
#endif

enum { MAX_OPS = 64, NBUF = 8, NLIST = 4, NFENCE = 3, NQUEUE = 3, NSTALE = 8, MAX_GROUPS = 64 };

/* ---- the input ------------------------------------------------------------------------- */

typedef struct rd {
	const uint8_t *p;
	size_t n, at;
} rd;

static uint8_t u8(rd *r)
{
	return r->at < r->n ? r->p[r->at++] : 0;
}

static uint16_t u16(rd *r)
{
	uint16_t v = u8(r);
	return (uint16_t)(v | (uint16_t)u8(r) << 8);
}

static uint32_t u32(rd *r)
{
	uint32_t v = u16(r);
	return v | (uint32_t)u16(r) << 16;
}

static uint64_t u64(rd *r)
{
	uint64_t v = u32(r);
	return v | (uint64_t)u32(r) << 32;
}

/* ---- kernels, read once per process ------------------------------------------------------ */

typedef struct code_file {
	const char *name;
	void *bytes;
	size_t size;
	bool tried;
} code_file;

enum { F_VADD, F_SPILL, F_FAULTS, F_LDS, F_RT, NFILES };

static code_file files[NFILES] = {
	{ "vadd.O2.w32.hsaco", NULL, 0, false },     { "private_spill.O2.w32.hsaco", NULL, 0, false },
	{ "faults.O2.w32.hsaco", NULL, 0, false },   { "lds_reduce.O2.w32.hsaco", NULL, 0, false },
	{ "rt_basic.hip.co", NULL, 0, false },
};

/* A missing file leaves its pipelines out (NULL): the ray-tracing library
 * needs hipcc. */
static const code_file *code(int i)
{
	code_file *f = &files[i];
	if (f->tried)
		return f->bytes ? f : NULL;
	f->tried = true;
	const char *dir = getenv("XS_FUZZ_KERNEL_DIR");
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir && *dir ? dir : XS_FUZZ_KERNEL_DIR, f->name);
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0) {
		long n = ftell(fp);
		if (n > 0 && fseek(fp, 0, SEEK_SET) == 0 && (f->bytes = malloc((size_t)n))) {
			if (fread(f->bytes, 1, (size_t)n, fp) == (size_t)n) {
				f->size = (size_t)n;
			} else {
				free(f->bytes);
				f->bytes = NULL;
			}
		}
	}
	fclose(fp);
	return f->bytes ? f : NULL;
}

/* The compute pipelines: a kernel of a file. */
static const struct {
	int file;
	const char *kernel;
} pso_kinds[] = {
	{ F_VADD, "vadd" }, { F_SPILL, "private_spill" }, { F_FAULTS, "store_to" }, { F_FAULTS, "spin" },
	{ F_FAULTS, "private_walk" }, { F_LDS, "lds_reduce_dyn" }, { F_LDS, "lds_reduce" },
};
enum { NPSO = sizeof(pso_kinds) / sizeof(pso_kinds[0]) };

/* ---- one input's objects ------------------------------------------------------------------- */

typedef struct buf {
	ID3D12Resource *r;
	D3D12_HEAP_TYPE heap;
	UINT64 size;
	D3D12_GPU_VIRTUAL_ADDRESS va;
} buf;

typedef struct list {
	ID3D12CommandAllocator *alloc;
	ID3D12GraphicsCommandList6 *l;
	D3D12_COMMAND_LIST_TYPE type;
} list;

typedef struct seq {
	ID3D12Device *dev;
	ID3D12Device5 *dev5;
	ID3D12InfoQueue *iq;
	ID3D12CommandQueue *q[NQUEUE];
	ID3D12Fence *f[NFENCE];
	UINT64 fnext[NFENCE];
	buf b[NBUF];
	D3D12_GPU_VIRTUAL_ADDRESS stale[NSTALE]; /* VAs of released buffers */
	unsigned nstale;
	list ls[NLIST];
	ID3D12PipelineState *pso[NPSO];
	ID3D12RootSignature *pso_rs[NPSO];
	bool pso_tried[NPSO];
	/* rays: rt_basic's library, its global root signature, a shader table */
	ID3D12StateObject *so;
	ID3D12RootSignature *so_rs;
	ID3D12Resource *table;
	bool so_tried;
	bool messages; /* the debug layer said something */
} seq;

static const D3D12_COMMAND_LIST_TYPE queue_types[NQUEUE] = {
	D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY,
};

/* XS_FUZZ_VERBOSE=1: each operation, message and the removal reason on
 * stderr (to see what an input does; libFuzzer runs stay quiet). */
static bool verbose;

static bool removed(seq *s)
{
	return FAILED(ID3D12Device_GetDeviceRemovedReason(s->dev));
}

/* A creation's result: a failure gives no object, a success one. */
static void created(HRESULT hr, const void *obj, const char *what)
{
	FUZZ_CHECK(SUCCEEDED(hr) ? obj != NULL : obj == NULL, "%s returned 0x%08x and object %p", what, (unsigned)hr, obj);
}

/* Every stored message reads back whole; then they are cleared (the
 * queue would otherwise hold up to its limit of them). */
static void drain_messages(seq *s)
{
	if (!s->iq)
		return;
	UINT64 n = ID3D12InfoQueue_GetNumStoredMessages(s->iq);
	for (UINT64 i = 0; i < n; i++) {
		SIZE_T len = 0;
		HRESULT hr = ID3D12InfoQueue_GetMessage(s->iq, i, NULL, &len);
		FUZZ_CHECK(hr == S_OK && len >= sizeof(D3D12_MESSAGE), "message %llu: size query 0x%08x, %zu bytes",
			   (unsigned long long)i, (unsigned)hr, (size_t)len);
		D3D12_MESSAGE *m = malloc(len);
		FUZZ_CHECK(m != NULL, "out of memory");
		SIZE_T len2 = len;
		hr = ID3D12InfoQueue_GetMessage(s->iq, i, m, &len2);
		FUZZ_CHECK(hr == S_OK, "message %llu: GetMessage 0x%08x", (unsigned long long)i, (unsigned)hr);
		FUZZ_CHECK(m->pDescription && m->DescriptionByteLength == strlen(m->pDescription) + 1 &&
				   (const char *)m->pDescription + m->DescriptionByteLength <= (const char *)m + len,
			   "message %llu: description of %zu bytes", (unsigned long long)i, (size_t)m->DescriptionByteLength);
		FUZZ_CHECK(m->Severity <= D3D12_MESSAGE_SEVERITY_MESSAGE, "message %llu: severity %d", (unsigned long long)i,
			   (int)m->Severity);
		if (verbose)
			fprintf(stderr, "  message %d: %s\n", (int)m->ID, m->pDescription);
		free(m);
	}
	if (n)
		s->messages = true;
	ID3D12InfoQueue_ClearStoredMessages(s->iq);
}

/* The messages as they are made (ID3D12InfoQueue1's callback, which also
 * keeps them off stderr): each has a text. */
static void STDMETHODCALLTYPE on_message(D3D12_MESSAGE_CATEGORY cat, D3D12_MESSAGE_SEVERITY sev, D3D12_MESSAGE_ID id,
					 LPCSTR text, void *ctx)
{
	FUZZ_CHECK(text != NULL, "message %d without a text", (int)id);
	size_t n = strlen(text);
	if (verbose)
		fprintf(stderr, "  callback: category %d severity %d #%d: %s\n", (int)cat, (int)sev, (int)id, text);
	*(size_t *)ctx += n;
}

/* ---- arguments ------------------------------------------------------------------------------ */

static buf *pick_buf(seq *s, rd *r)
{
	return &s->b[u8(r) % NBUF];
}

static ID3D12Resource *pick_res(seq *s, rd *r)
{
	return pick_buf(s, r)->r; /* NULL when the slot is empty */
}

/* A GPU address: null, in or at the end of a live buffer, a released
 * buffer's, or any. */
static D3D12_GPU_VIRTUAL_ADDRESS pick_va(seq *s, rd *r)
{
	uint8_t how = u8(r);
	buf *b = &s->b[(how >> 3) % NBUF];
	/* the bytes read depend on the selector only, not on the objects */
	switch (how & 7) {
	case 0:
		return 0;
	case 1:
	case 2:
		return b->r ? b->va : 0;
	case 3: {
		UINT64 off = u16(r) & ~3u;
		return b->r ? b->va + off : 0;
	}
	case 4:
		return b->r ? b->va + b->size : 0;
	case 5:
		return s->nstale ? s->stale[(how >> 3) % s->nstale] : 0;
	case 6:
		return u64(r);
	default: {
		UINT64 off = u8(r);
		return b->r ? b->va + off : 1; /* misaligned */
	}
	}
}

/* A size or offset: small, page-sized, at a boundary or any. */
static UINT64 pick_size(rd *r)
{
	static const UINT64 sizes[] = { 0, 4, 256, 4096, 65536, 1 << 20, 1ull << 32, 1ull << 40, UINT64_MAX };
	uint8_t how = u8(r);
	if (how < 0x80)
		return sizes[how % (sizeof(sizes) / sizeof(sizes[0]))];
	if (how < 0xc0)
		return (UINT64)u16(r) * 4;
	if (how < 0xf0)
		return u16(r);
	return u64(r);
}

/* ---- pipelines ------------------------------------------------------------------------------ */

static ID3D12PipelineState *get_pso(seq *s, unsigned k, ID3D12RootSignature **rs)
{
	if (!s->pso_tried[k]) {
		s->pso_tried[k] = true;
		const code_file *f = code(pso_kinds[k].file);
		if (f) {
			XS12_KERNEL_BYTECODE kb = { .Magic = XS12_KERNEL_BYTECODE_MAGIC, .KernelName = pso_kinds[k].kernel,
						    .pCodeObject = f->bytes, .CodeObjectSize = f->size };
			ID3D12RootSignature *sig = NULL;
			HRESULT hr = ID3D12Device_CreateRootSignature(s->dev, 0, &kb, sizeof(kb), &IID_ID3D12RootSignature,
								      (void **)&sig);
			created(hr, sig, "CreateRootSignature of a kernel");
			if (sig) {
				D3D12_COMPUTE_PIPELINE_STATE_DESC d = { .pRootSignature = sig, .CS = { &kb, sizeof(kb) } };
				ID3D12PipelineState *p = NULL;
				hr = ID3D12Device_CreateComputePipelineState(s->dev, &d, &IID_ID3D12PipelineState, (void **)&p);
				created(hr, p, "CreateComputePipelineState");
				s->pso[k] = p;
				s->pso_rs[k] = sig;
			}
		}
	}
	*rs = s->pso_rs[k];
	return s->pso[k];
}

/* rt_basic's library with every export, a hit group, the configs and a
 * global root signature of a UAV and a constant; a shader table with the
 * ray-generation record at 0, the two miss records at 256 and the
 * callable one at 512, as tests/d3d12/test_rays.c lays it out. */
static ID3D12StateObject *get_so(seq *s)
{
	if (s->so_tried)
		return s->so;
	s->so_tried = true;
	const code_file *f = code(F_RT);
	if (!f || !s->dev5)
		return NULL;
	D3D12_ROOT_PARAMETER p[2] = {
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV, .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, .Constants = { 0, 0, 1 },
		  .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL },
	};
	D3D12_ROOT_SIGNATURE_DESC rd_ = { .NumParameters = 2, .pParameters = p };
	ID3DBlob *blob = NULL;
	if (FAILED(D3D12SerializeRootSignature(&rd_, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, NULL)))
		return NULL;
	HRESULT hr = ID3D12Device_CreateRootSignature(s->dev, 0, ID3D10Blob_GetBufferPointer(blob),
						      ID3D10Blob_GetBufferSize(blob), &IID_ID3D12RootSignature,
						      (void **)&s->so_rs);
	ID3D10Blob_Release(blob);
	created(hr, s->so_rs, "CreateRootSignature");
	if (!s->so_rs)
		return NULL;
	D3D12_DXIL_LIBRARY_DESC lib = { { f->bytes, f->size }, 0, NULL };
	D3D12_HIT_GROUP_DESC hit = { L"HG", D3D12_HIT_GROUP_TYPE_TRIANGLES, L"ahs_nop", L"chs_nop", NULL };
	D3D12_RAYTRACING_SHADER_CONFIG sc = { 16, 8 };
	D3D12_RAYTRACING_PIPELINE_CONFIG pc = { 2 };
	D3D12_GLOBAL_ROOT_SIGNATURE g = { s->so_rs };
	D3D12_STATE_SUBOBJECT sub[] = {
		{ D3D12_STATE_SUBOBJECT_TYPE_DXIL_LIBRARY, &lib }, { D3D12_STATE_SUBOBJECT_TYPE_HIT_GROUP, &hit },
		{ D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_SHADER_CONFIG, &sc },
		{ D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_PIPELINE_CONFIG, &pc },
		{ D3D12_STATE_SUBOBJECT_TYPE_GLOBAL_ROOT_SIGNATURE, &g },
	};
	D3D12_STATE_OBJECT_DESC d = { D3D12_STATE_OBJECT_TYPE_RAYTRACING_PIPELINE, 5, sub };
	hr = ID3D12Device5_CreateStateObject(s->dev5, &d, &IID_ID3D12StateObject, (void **)&s->so);
	created(hr, s->so, "CreateStateObject");
	if (!s->so)
		return NULL;
	D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_UPLOAD };
	D3D12_RESOURCE_DESC rdesc = { .Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = 1024, .Height = 1,
				      .DepthOrArraySize = 1, .MipLevels = 1, .SampleDesc = { 1, 0 },
				      .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR };
	hr = ID3D12Device_CreateCommittedResource(s->dev, &hp, D3D12_HEAP_FLAG_NONE, &rdesc,
						  D3D12_RESOURCE_STATE_GENERIC_READ, NULL, &IID_ID3D12Resource,
						  (void **)&s->table);
	created(hr, s->table, "CreateCommittedResource (shader table)");
	ID3D12StateObjectProperties *pp = NULL;
	uint8_t *tab = NULL;
	if (s->table && SUCCEEDED(ID3D12StateObject_QueryInterface(s->so, &IID_ID3D12StateObjectProperties, (void **)&pp)) &&
	    SUCCEEDED(ID3D12Resource_Map(s->table, 0, NULL, (void **)&tab))) {
		memset(tab, 0, 1024);
		static const struct {
			const wchar_t *name;
			unsigned at;
		} rec[] = { { L"rg_index", 0 }, { L"miss_add", 256 }, { L"miss_mul", 320 }, { L"callable_sq", 512 } };
		for (size_t i = 0; i < sizeof(rec) / sizeof(rec[0]); i++) {
			const void *id = ID3D12StateObjectProperties_GetShaderIdentifier(pp, rec[i].name);
			if (id)
				memcpy(tab + rec[i].at, id, XS12_RT_SHADER_ID_SIZE);
			tab[rec[i].at + XS12_RT_SHADER_ID_SIZE] = 3; /* the local root constant */
		}
		ID3D12Resource_Unmap(s->table, 0, NULL);
	}
	if (pp)
		ID3D12StateObjectProperties_Release(pp);
	return s->so;
}

/* ---- the operations ------------------------------------------------------------------------- */

static void op_create_buffer(seq *s, rd *r)
{
	buf *b = pick_buf(s, r);
	uint8_t h = u8(r);
	static const D3D12_HEAP_TYPE heaps[] = { D3D12_HEAP_TYPE_DEFAULT, D3D12_HEAP_TYPE_UPLOAD, D3D12_HEAP_TYPE_READBACK,
						 D3D12_HEAP_TYPE_CUSTOM };
	D3D12_HEAP_TYPE heap = heaps[h % 4];
	UINT64 size = pick_size(r);
	D3D12_HEAP_PROPERTIES hp = { .Type = heap };
	D3D12_RESOURCE_DESC rdesc = {
		.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = size, .Height = 1, .DepthOrArraySize = 1,
		.MipLevels = 1, .SampleDesc = { 1, 0 }, .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
		.Flags = (h & 4) ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE,
	};
	D3D12_RESOURCE_STATES st = (h & 8) ? (D3D12_RESOURCE_STATES)u32(r)
			      : heap == D3D12_HEAP_TYPE_UPLOAD ? D3D12_RESOURCE_STATE_GENERIC_READ
			      : heap == D3D12_HEAP_TYPE_READBACK ? D3D12_RESOURCE_STATE_COPY_DEST
								 : D3D12_RESOURCE_STATE_COMMON;
	ID3D12Resource *res = NULL;
	HRESULT hr = ID3D12Device_CreateCommittedResource(s->dev, &hp, D3D12_HEAP_FLAG_NONE, &rdesc, st, NULL,
							  &IID_ID3D12Resource, (void **)&res);
	created(hr, res, "CreateCommittedResource");
	if (!res)
		return;
	if (b->r) {
		s->stale[s->nstale++ % NSTALE] = b->va;
		if (s->nstale > NSTALE)
			s->nstale = NSTALE;
		ID3D12Resource_Release(b->r);
	}
	b->r = res;
	b->heap = heap;
	b->size = size;
	b->va = ID3D12Resource_GetGPUVirtualAddress(res);
}

/* Released even while the GPU may use it: the GPU then faults (a VM
 * fault removes the device), as on hardware. */
static void op_release_buffer(seq *s, rd *r)
{
	buf *b = pick_buf(s, r);
	if (!b->r)
		return;
	s->stale[s->nstale % NSTALE] = b->va;
	if (s->nstale < NSTALE)
		s->nstale++;
	ID3D12Resource_Release(b->r);
	memset(b, 0, sizeof(*b));
}

static void op_map(seq *s, rd *r)
{
	buf *b = pick_buf(s, r);
	uint8_t how = u8(r);
	UINT64 off = pick_size(r);
	uint8_t val = u8(r);
	D3D12_RANGE range;
	range.Begin = (SIZE_T)pick_size(r);
	range.End = (SIZE_T)pick_size(r);
	if (!b->r)
		return;
	void *p = NULL;
	HRESULT hr = ID3D12Resource_Map(b->r, 0, (how & 1) ? &range : NULL, (how & 2) ? NULL : &p);
	if (SUCCEEDED(hr) && p && b->size) {
		/* a write inside the buffer: the mapping covers all of it */
		uint8_t *m = p;
		m[off % b->size] ^= val;
		(void)m[(off * 7) % b->size];
	}
	if (SUCCEEDED(hr))
		ID3D12Resource_Unmap(b->r, 0, (how & 4) ? &range : NULL);
	else
		FUZZ_CHECK(!p || (how & 2), "a failed Map (0x%08x) returned a pointer", (unsigned)hr);
}

static void op_create_list(seq *s, rd *r)
{
	list *l = &s->ls[u8(r) % NLIST];
	uint8_t t = u8(r);
	D3D12_COMMAND_LIST_TYPE type = (t & 0x80) ? (D3D12_COMMAND_LIST_TYPE)u8(r) : queue_types[t % NQUEUE];
	ID3D12PipelineState *initial = NULL;
	ID3D12RootSignature *rs;
	if (t & 0x40)
		initial = get_pso(s, u8(r) % NPSO, &rs);
	ID3D12CommandAllocator *a = NULL;
	HRESULT hr = ID3D12Device_CreateCommandAllocator(s->dev, type, &IID_ID3D12CommandAllocator, (void **)&a);
	created(hr, a, "CreateCommandAllocator");
	if (!a)
		return;
	ID3D12GraphicsCommandList6 *cl = NULL;
	hr = ID3D12Device_CreateCommandList(s->dev, 0, type, a, initial, &IID_ID3D12GraphicsCommandList6, (void **)&cl);
	created(hr, cl, "CreateCommandList");
	if (!cl) {
		ID3D12CommandAllocator_Release(a);
		return;
	}
	if (l->l)
		ID3D12GraphicsCommandList6_Release(l->l);
	if (l->alloc)
		ID3D12CommandAllocator_Release(l->alloc);
	l->alloc = a;
	l->l = cl;
	l->type = type;
}

static void op_release_list(seq *s, rd *r)
{
	list *l = &s->ls[u8(r) % NLIST];
	if (l->l)
		ID3D12GraphicsCommandList6_Release(l->l);
	if (l->alloc)
		ID3D12CommandAllocator_Release(l->alloc);
	memset(l, 0, sizeof(*l));
}

static list *pick_list(seq *s, rd *r)
{
	list *l = &s->ls[u8(r) % NLIST];
	return l->l ? l : NULL;
}

static void op_close(seq *s, rd *r)
{
	list *l = pick_list(s, r);
	if (l)
		ID3D12GraphicsCommandList6_Close(l->l);
}

/* Allocator Reset (refused while its lists are in flight), list Reset
 * with a pipeline or none, with its own allocator or another's. */
static void op_reset(seq *s, rd *r)
{
	list *l = pick_list(s, r);
	uint8_t how = u8(r);
	list *other = &s->ls[(how >> 4) % NLIST];
	if (!l)
		return;
	if (how & 1)
		ID3D12CommandAllocator_Reset(l->alloc);
	ID3D12RootSignature *rs;
	ID3D12PipelineState *p = (how & 2) ? get_pso(s, u8(r) % NPSO, &rs) : NULL;
	ID3D12CommandAllocator *a = (how & 4) && other->alloc ? other->alloc : l->alloc;
	ID3D12GraphicsCommandList6_Reset(l->l, a, p);
}

static void op_set_pipeline(seq *s, rd *r)
{
	list *l = pick_list(s, r);
	uint8_t how = u8(r);
	if (!l)
		return;
	ID3D12RootSignature *rs = NULL;
	ID3D12PipelineState *p = get_pso(s, how % NPSO, &rs);
	if (!(how & 0x80) && rs)
		ID3D12GraphicsCommandList6_SetComputeRootSignature(l->l, rs);
	if (!(how & 0x40))
		ID3D12GraphicsCommandList6_SetPipelineState(l->l, p);
}

static void op_root_args(seq *s, rd *r)
{
	list *l = pick_list(s, r);
	uint8_t how = u8(r);
	UINT index = (how >> 3) % 6;
	D3D12_GPU_VIRTUAL_ADDRESS va = pick_va(s, r);
	UINT32 c[4];
	for (int i = 0; i < 4; i++)
		c[i] = u32(r); /* in order: an initializer's are unsequenced */
	if (!l)
		return;
	switch (how & 7) {
	case 0:
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(l->l, index, va);
		break;
	case 1:
		ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(l->l, index, va);
		break;
	case 2:
		ID3D12GraphicsCommandList6_SetComputeRootConstantBufferView(l->l, index, va);
		break;
	case 3:
		ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(l->l, index, c[0], c[1] % 64);
		break;
	case 4:
		ID3D12GraphicsCommandList6_SetComputeRoot32BitConstants(l->l, index, c[0] % 5, c, c[1] % 64);
		break;
	case 5:
		ID3D12GraphicsCommandList6_SetGraphicsRootUnorderedAccessView(l->l, index, va);
		break;
	case 6:
		ID3D12GraphicsCommandList6_SetComputeRootSignature(l->l, NULL);
		break;
	default:
		/* vadd's four: a, b, c, n of one buffer */
		for (UINT k = 0; k < 3; k++)
			ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(l->l, k, va);
		ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(l->l, 3, c[0] % 1024, 0);
		break;
	}
}

/* At most MAX_GROUPS groups, or sizes D3D12 rejects (above 65535 per
 * dimension) which must not run. */
static void op_dispatch(seq *s, rd *r)
{
	list *l = pick_list(s, r);
	uint8_t how = u8(r);
	UINT x = u8(r) % (MAX_GROUPS + 1), y = 1 + (how & 1), z = 1;
	if (x * y > MAX_GROUPS)
		y = 1;
	if ((how & 0x30) == 0x30) {
		static const UINT big[] = { 65536, 0x7fffffff, 0xffffffff, 1u << 20 };
		x = big[(how >> 1) % 4];
		y = (how & 0x40) ? 0 : 1;
	}
	if (!l)
		return;
	ID3D12GraphicsCommandList6_Dispatch(l->l, x, y, z);
}

static void op_copy(seq *s, rd *r)
{
	list *l = pick_list(s, r);
	uint8_t how = u8(r);
	ID3D12Resource *dst = pick_res(s, r), *src = pick_res(s, r);
	UINT64 doff = pick_size(r), soff = pick_size(r), n = pick_size(r);
	if (!l)
		return;
	if (how & 1)
		ID3D12GraphicsCommandList6_CopyResource(l->l, dst, src);
	else
		ID3D12GraphicsCommandList6_CopyBufferRegion(l->l, dst, doff, src, soff, n);
}

static void op_barrier(seq *s, rd *r)
{
	list *l = pick_list(s, r);
	uint8_t how = u8(r);
	D3D12_RESOURCE_BARRIER b[2];
	memset(b, 0, sizeof(b));
	for (int i = 0; i < 2; i++) {
		b[i].Type = (D3D12_RESOURCE_BARRIER_TYPE)(u8(r) % 4);
		b[i].Flags = (D3D12_RESOURCE_BARRIER_FLAGS)(u8(r) % 4);
		ID3D12Resource *res = pick_res(s, r);
		if (b[i].Type == D3D12_RESOURCE_BARRIER_TYPE_TRANSITION) {
			b[i].Transition.pResource = res;
			b[i].Transition.Subresource = (how & 4) ? u32(r) : D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
			b[i].Transition.StateBefore = (D3D12_RESOURCE_STATES)u32(r);
			b[i].Transition.StateAfter = (D3D12_RESOURCE_STATES)u32(r);
		} else if (b[i].Type == D3D12_RESOURCE_BARRIER_TYPE_ALIASING) {
			b[i].Aliasing.pResourceBefore = res;
			b[i].Aliasing.pResourceAfter = pick_res(s, r);
		} else {
			b[i].UAV.pResource = res;
		}
	}
	if (!l)
		return;
	ID3D12GraphicsCommandList6_ResourceBarrier(l->l, how % 3, b);
}

/* SPEC S1: any flags, destination, size and slot size. */
static void op_scratch(seq *s, rd *r)
{
	list *l = pick_list(s, r);
	uint8_t how = u8(r);
	D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS flags =
		(how & 0x80) ? (D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS)u32(r) : (D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS)(how & 7);
	D3D12_GPU_VIRTUAL_ADDRESS va = pick_va(s, r);
	UINT64 size = pick_size(r);
	static const UINT per_wave[] = { 0, 256, 1024, 4096, 65536, 8191 * 1024, 1u << 24 };
	uint8_t pw = u8(r);
	UINT per = pw < 0xe0 ? per_wave[pw % 7] : u32(r);
	if (!l)
		return;
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(l->l, flags, va, size, per);
}

/* SPEC S3: any two dwords, or a NULL pointer. */
static void op_launch(seq *s, rd *r)
{
	list *l = pick_list(s, r);
	uint8_t how = u8(r);
	D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS lp;
	if (how & 1) {
		lp.Dword0 = u32(r);
		lp.Dword1 = u32(r);
	} else {
		/* a plausible shape: flags, LDS units, a small group */
		lp.Dword0 = 0;
		lp.Dword1 = 0;
		lp.Flags = u8(r) & 3;
		lp.LDSSize = u8(r) % 130;
		lp.NumThreadX = u8(r);
		lp.NumThreadY = 1 + u8(r) % 4;
		lp.NumThreadZ = 1;
	}
	if (!l)
		return;
	ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(l->l, (how & 2) ? NULL : &lp);
}

/* SPEC S4: any members, or a NULL pointer. */
static void op_gfx_limits(seq *s, rd *r)
{
	list *l = pick_list(s, r);
	uint8_t how = u8(r);
	D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC d;
	D3D12XboxInitializeDefaultGraphicsShaderLimits(&d);
	UINT *m = (UINT *)(void *)&d;
	for (size_t i = 0; i < sizeof(d) / sizeof(UINT); i++)
		if (u8(r) & 1)
			m[i] = (how & 1) ? u32(r) : u8(r);
	if (!l)
		return;
	ID3D12GraphicsCommandList6_SetGraphicsShaderLimitsX(l->l, (how & 2) ? NULL : &d);
}

/* SPEC S2: DispatchRaysX with any title scratch (or DispatchRays) of
 * rt_basic's ray generation shader, or of any table address. */
static void op_rays(seq *s, rd *r)
{
	list *l = pick_list(s, r);
	uint8_t how = u8(r);
	D3D12_GPU_VIRTUAL_ADDRESS out = pick_va(s, r), any = pick_va(s, r);
	D3D12_GPU_VIRTUAL_ADDRESS_RANGE scratch;
	scratch.StartAddress = pick_va(s, r);
	scratch.SizeInBytes = pick_size(r);
	UINT w = u8(r) % 17, h = u8(r) % 5, dd = 1 + (u8(r) & 1);
	if (!l || !get_so(s))
		return;
	D3D12_GPU_VIRTUAL_ADDRESS t = (how & 8) ? any : s->table ? ID3D12Resource_GetGPUVirtualAddress(s->table) : 0;
	if (!(how & 1)) {
		ID3D12GraphicsCommandList6_SetComputeRootSignature(l->l, s->so_rs);
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(l->l, 0, out);
		ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(l->l, 1, how, 0);
	}
	if (!(how & 2))
		ID3D12GraphicsCommandList6_SetPipelineState1(l->l, s->so);
	D3D12XBOX_DISPATCH_RAYS_DESC x = {
		.DispatchArgs = { .RayGenerationShaderRecord = { t, (how & 0x10) ? 32 : 64 },
				  .MissShaderTable = { t + 256, 128, (how & 0x20) ? 8 : 64 },
				  .CallableShaderTable = { t + 512, 64, 64 },
				  .Width = w, .Height = h, .Depth = dd },
		.Scratch = scratch,
	};
	if (how & 4)
		ID3D12GraphicsCommandList6_DispatchRays(l->l, &x.DispatchArgs);
	else
		ID3D12GraphicsCommandList6_DispatchRaysX(l->l, (how & 0x40) ? NULL : &x);
}

/* A draw without a graphics pipeline (the list has none of its own): it
 * must be refused, on any list type. */
static void op_draw(seq *s, rd *r)
{
	list *l = pick_list(s, r);
	uint8_t how = u8(r);
	UINT v = u8(r), n = 1 + (u8(r) & 3);
	if (!l)
		return;
	ID3D12GraphicsCommandList6_IASetPrimitiveTopology(l->l, (D3D_PRIMITIVE_TOPOLOGY)(how % 6));
	if (how & 0x80)
		ID3D12GraphicsCommandList6_DrawIndexedInstanced(l->l, v, n, 0, 0, 0);
	else
		ID3D12GraphicsCommandList6_DrawInstanced(l->l, v, n, 0, 0);
}

static void op_execute(seq *s, rd *r)
{
	uint8_t how = u8(r);
	ID3D12CommandQueue *q = s->q[how % NQUEUE];
	ID3D12CommandList *cl[2] = { NULL, NULL };
	UINT n = 1 + ((how >> 2) & 1);
	for (UINT i = 0; i < n; i++) {
		list *l = &s->ls[u8(r) % NLIST];
		cl[i] = (ID3D12CommandList *)l->l; /* NULL for an empty slot */
	}
	if (how & 0x80)
		n = 0;
	ID3D12CommandQueue_ExecuteCommandLists(q, n, cl);
}

/* A fence value: the next, the same again, one ahead (a wait for it may
 * deadlock: detected), or any. */
static UINT64 pick_value(seq *s, unsigned f, uint8_t how)
{
	switch (how & 3) {
	case 0:
		return ++s->fnext[f];
	case 1:
		return s->fnext[f];
	case 2:
		return s->fnext[f] + 1;
	default:
		return how & 0x80 ? UINT64_MAX : (UINT64)how;
	}
}

static void op_signal(seq *s, rd *r)
{
	uint8_t how = u8(r);
	unsigned f = ((how >> 2) & 3) % NFENCE;
	ID3D12CommandQueue *q = s->q[((how >> 4) & 3) % NQUEUE];
	UINT64 v = pick_value(s, f, u8(r));
	bool was_removed = removed(s);
	HRESULT hr = ID3D12CommandQueue_Signal(q, (how & 0x40) ? NULL : s->f[f], v);
	FUZZ_CHECK(!was_removed || FAILED(hr), "Signal after a removal returned 0x%08x", (unsigned)hr);
}

static void op_wait(seq *s, rd *r)
{
	uint8_t how = u8(r);
	unsigned f = ((how >> 2) & 3) % NFENCE;
	ID3D12CommandQueue *q = s->q[((how >> 4) & 3) % NQUEUE];
	UINT64 v = pick_value(s, f, u8(r) & 0xfe ? 1 : 2); /* the current value, rarely one beyond */
	HRESULT hr = ID3D12CommandQueue_Wait(q, (how & 0x40) ? NULL : s->f[f], v);
	if (verbose)
		fprintf(stderr, "  Wait(queue %u, fence %u, %llu): 0x%08x\n", ((how >> 4) & 3) % NQUEUE, f, (unsigned long long)v,
			(unsigned)hr);
}

static void op_host_fence(seq *s, rd *r)
{
	uint8_t how = u8(r);
	unsigned f = ((how >> 2) & 3) % NFENCE;
	UINT64 v = pick_value(s, f, u8(r));
	switch (how & 3) {
	case 0: {
		bool was_removed = removed(s);
		UINT64 c = ID3D12Fence_GetCompletedValue(s->f[f]);
		FUZZ_CHECK(!was_removed || c == UINT64_MAX, "fence reads %llu after a removal", (unsigned long long)c);
		break;
	}
	case 1:
		ID3D12Fence_Signal(s->f[f], v);
		break;
	default: {
		/* a bounded wait through an event */
		HANDLE ev = XS12CreateEvent();
		FUZZ_CHECK(ev != NULL, "XS12CreateEvent");
		if (SUCCEEDED(ID3D12Fence_SetEventOnCompletion(s->f[f], v, ev))) {
			DWORD w = XS12WaitForEvent(ev, (how & 3) == 2 ? 0 : 5);
			FUZZ_CHECK(w == 0 || w == 0x102, "XS12WaitForEvent returned 0x%x", (unsigned)w);
		}
		XS12CloseEvent(ev);
		break;
	}
	}
}

/* The info queue: its limit (0, 1, a few, "unlimited", any) and a
 * message read into too small a buffer. */
static void op_info_queue(seq *s, rd *r)
{
	uint8_t how = u8(r);
	if (!s->iq)
		return;
	if (how & 1) {
		static const UINT64 lim[] = { 0, 1, 16, (UINT64)-1, 1u << 20 };
		UINT64 v = (how & 2) ? u32(r) : lim[(how >> 2) % 5];
		drain_messages(s);
		ID3D12InfoQueue_SetMessageCountLimit(s->iq, v);
	} else if (ID3D12InfoQueue_GetNumStoredMessages(s->iq)) {
		SIZE_T len = 1 + (how >> 1);
		D3D12_MESSAGE *m = malloc(len);
		FUZZ_CHECK(m != NULL, "out of memory");
		SIZE_T need = 0;
		ID3D12InfoQueue_GetMessage(s->iq, 0, NULL, &need);
		HRESULT hr = ID3D12InfoQueue_GetMessage(s->iq, 0, m, &len);
		FUZZ_CHECK(len >= need || FAILED(hr), "GetMessage into %zu of %zu bytes returned S_OK", (size_t)len,
			   (size_t)need);
		free(m);
	}
}

/* ---- one input ------------------------------------------------------------------------------ */

static void enable_dred(bool on)
{
	ID3D12DeviceRemovedExtendedDataSettings *d = NULL;
	if (FAILED(D3D12GetDebugInterface(&IID_ID3D12DeviceRemovedExtendedDataSettings, (void **)&d)))
		return;
	D3D12_DRED_ENABLEMENT e = on ? D3D12_DRED_ENABLEMENT_FORCED_ON : D3D12_DRED_ENABLEMENT_FORCED_OFF;
	ID3D12DeviceRemovedExtendedDataSettings_SetAutoBreadcrumbsEnablement(d, e);
	ID3D12DeviceRemovedExtendedDataSettings_SetPageFaultEnablement(d, e);
	ID3D12DeviceRemovedExtendedDataSettings_Release(d);
}

/* After a removal with DRED on: walk what DRED reports (ASan checks every
 * pointer it hands out). */
static void read_dred(seq *s)
{
	ID3D12DeviceRemovedExtendedData2 *d = NULL;
	if (FAILED(ID3D12Device_QueryInterface(s->dev, &IID_ID3D12DeviceRemovedExtendedData2, (void **)&d)))
		return;
	D3D12_DRED_AUTO_BREADCRUMBS_OUTPUT1 bc;
	if (SUCCEEDED(ID3D12DeviceRemovedExtendedData2_GetAutoBreadcrumbsOutput1(d, &bc))) {
		unsigned nodes = 0;
		for (const D3D12_AUTO_BREADCRUMB_NODE1 *n = bc.pHeadAutoBreadcrumbNode; n && nodes < 1000; n = n->pNext, nodes++) {
			volatile UINT sum = 0;
			for (UINT i = 0; i < n->BreadcrumbCount; i++)
				sum += (UINT)n->pCommandHistory[i];
			if (n->pLastBreadcrumbValue)
				sum += *n->pLastBreadcrumbValue;
			if (n->pCommandListDebugNameA)
				sum += (UINT)strlen(n->pCommandListDebugNameA);
		}
		FUZZ_CHECK(nodes < 1000, "DRED's breadcrumb list does not end");
	}
	D3D12_DRED_PAGE_FAULT_OUTPUT2 pf;
	if (SUCCEEDED(ID3D12DeviceRemovedExtendedData2_GetPageFaultAllocationOutput2(d, &pf))) {
		unsigned nodes = 0;
		for (const D3D12_DRED_ALLOCATION_NODE1 *a = pf.pHeadExistingAllocationNode; a && nodes < 100000; a = a->pNext)
			nodes += 1 + (a->ObjectNameA ? (unsigned)(strlen(a->ObjectNameA) & 0) : 0);
		for (const D3D12_DRED_ALLOCATION_NODE1 *a = pf.pHeadRecentFreedAllocationNode; a && nodes < 100000; a = a->pNext)
			nodes += 1 + (a->ObjectNameA ? (unsigned)(strlen(a->ObjectNameA) & 0) : 0);
		FUZZ_CHECK(nodes < 100000, "DRED's allocation lists do not end");
	}
	ID3D12DeviceRemovedExtendedData2_Release(d);
}

/* Each queue signals a fence of its own and the host waits for all:
 * the waits return (a deadlock or hang removes the device), and a live
 * device reached every value. */
static void drain(seq *s)
{
	ID3D12Fence *done[NQUEUE] = { NULL };
	for (unsigned i = 0; i < NQUEUE; i++) {
		HRESULT hr = ID3D12Device_CreateFence(s->dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&done[i]);
		created(hr, done[i], "CreateFence");
		if (done[i])
			ID3D12CommandQueue_Signal(s->q[i], done[i], 1);
	}
	for (unsigned i = 0; i < NQUEUE; i++)
		if (done[i])
			ID3D12Fence_SetEventOnCompletion(done[i], 1, NULL);
	bool gone = removed(s);
	for (unsigned i = 0; i < NQUEUE; i++) {
		if (!done[i])
			continue;
		UINT64 v = ID3D12Fence_GetCompletedValue(done[i]);
		FUZZ_CHECK(gone ? v == UINT64_MAX : v == 1, "queue %u's final fence reads %llu (device %s)", i,
			   (unsigned long long)v, gone ? "removed" : "live");
		ID3D12Fence_Release(done[i]);
	}
	if (gone)
		for (unsigned i = 0; i < NFENCE; i++) {
			UINT64 v = ID3D12Fence_GetCompletedValue(s->f[i]);
			FUZZ_CHECK(v == UINT64_MAX, "fence %u reads %llu after the removal", i, (unsigned long long)v);
		}
}

static void release_all(seq *s)
{
	for (unsigned i = 0; i < NLIST; i++) {
		if (s->ls[i].l)
			ID3D12GraphicsCommandList6_Release(s->ls[i].l);
		if (s->ls[i].alloc)
			ID3D12CommandAllocator_Release(s->ls[i].alloc);
	}
	for (unsigned i = 0; i < NBUF; i++)
		if (s->b[i].r)
			ID3D12Resource_Release(s->b[i].r);
	for (unsigned i = 0; i < NPSO; i++) {
		if (s->pso[i])
			ID3D12PipelineState_Release(s->pso[i]);
		if (s->pso_rs[i])
			ID3D12RootSignature_Release(s->pso_rs[i]);
	}
	if (s->table)
		ID3D12Resource_Release(s->table);
	if (s->so)
		ID3D12StateObject_Release(s->so);
	if (s->so_rs)
		ID3D12RootSignature_Release(s->so_rs);
	for (unsigned i = 0; i < NFENCE; i++)
		if (s->f[i])
			ID3D12Fence_Release(s->f[i]);
	for (unsigned i = 0; i < NQUEUE; i++)
		if (s->q[i])
			ID3D12CommandQueue_Release(s->q[i]);
	if (s->iq)
		ID3D12InfoQueue_Release(s->iq);
	if (s->dev5)
		ID3D12Device5_Release(s->dev5);
	ID3D12Device_Release(s->dev);
}

typedef void (*op_fn)(seq *s, rd *r);

static const op_fn ops[] = {
	op_create_buffer, op_release_buffer, op_map,     op_create_list, op_release_list, op_close,
	op_reset,         op_set_pipeline,   op_root_args, op_dispatch,  op_copy,         op_barrier,
	op_scratch,       op_launch,         op_gfx_limits, op_rays,     op_draw,         op_execute,
	op_signal,        op_wait,           op_host_fence, op_info_queue,
};
enum { NOPS = sizeof(ops) / sizeof(ops[0]) };
static const char *const op_names[NOPS] = {
	"create_buffer", "release_buffer", "map",     "create_list", "release_list", "close",
	"reset",         "set_pipeline",   "root_args", "dispatch",  "copy",         "barrier",
	"scratch",       "launch",         "gfx_limits", "rays",     "draw",         "execute",
	"signal",        "wait",           "host_fence", "info_queue",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	rd r = { data, size, 0 };
	uint8_t head = u8(&r);
	static bool debug_on;
	if (!debug_on) {
		const char *v = getenv("XS_FUZZ_VERBOSE");
		verbose = v && *v && *v != '0';
		ID3D12Debug *dbg = NULL;
		if (SUCCEEDED(D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&dbg))) {
			ID3D12Debug_EnableDebugLayer(dbg);
			ID3D12Debug_Release(dbg);
		}
		debug_on = true;
	}
	enable_dred(head & 2);
	/* the watchdog: 50 us of GPU time, 20 s of host time (a sanitized
	 * simulation is slow; libFuzzer's own timeout is the real bound) and
	 * a budget per wave that any kernel of the corpus keeps */
	XS12_DEVICE_DESC dd = {
		.Machine = (head & 4) ? XS12_MACHINE_SERIES_S : XS12_MACHINE_SERIES_X, .DebugLayer = TRUE,
		.Functional = (head & 1) ? TRUE : FALSE, .HostThreads = 1,
		.HangGpuMicroseconds = 50, .HangHostMilliseconds = 20000, .WaveInstructionBudget = 1u << 14,
	};
	seq s;
	memset(&s, 0, sizeof(s));
	HRESULT hr = XS12CreateDevice(&dd, &IID_ID3D12Device, (void **)&s.dev);
	created(hr, s.dev, "XS12CreateDevice");
	enable_dred(false);
	if (!s.dev)
		return 0;
	if (FAILED(ID3D12Device_QueryInterface(s.dev, &IID_ID3D12InfoQueue, (void **)&s.iq)))
		s.iq = NULL;
	FUZZ_CHECK(s.iq != NULL, "the debug layer is on but there is no ID3D12InfoQueue");
	ID3D12InfoQueue1 *iq1 = NULL;
	DWORD cookie = 0;
	static size_t message_bytes;
	if (SUCCEEDED(ID3D12Device_QueryInterface(s.dev, &IID_ID3D12InfoQueue1, (void **)&iq1))) {
		hr = ID3D12InfoQueue1_RegisterMessageCallback(iq1, on_message, D3D12_MESSAGE_CALLBACK_FLAG_NONE,
							      &message_bytes, &cookie);
		FUZZ_CHECK(hr == S_OK, "RegisterMessageCallback: 0x%08x", (unsigned)hr);
	}
	if (FAILED(ID3D12Device_QueryInterface(s.dev, &IID_ID3D12Device5, (void **)&s.dev5)))
		s.dev5 = NULL;
	for (unsigned i = 0; i < NQUEUE; i++) {
		D3D12_COMMAND_QUEUE_DESC qd = { .Type = queue_types[i] };
		hr = ID3D12Device_CreateCommandQueue(s.dev, &qd, &IID_ID3D12CommandQueue, (void **)&s.q[i]);
		created(hr, s.q[i], "CreateCommandQueue");
		FUZZ_CHECK(s.q[i] != NULL, "queue %u: 0x%08x", i, (unsigned)hr);
	}
	for (unsigned i = 0; i < NFENCE; i++) {
		hr = ID3D12Device_CreateFence(s.dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&s.f[i]);
		created(hr, s.f[i], "CreateFence");
		FUZZ_CHECK(s.f[i] != NULL, "fence %u: 0x%08x", i, (unsigned)hr);
	}
	for (unsigned k = 0; k < MAX_OPS && r.at < r.n; k++) {
		unsigned o = u8(&r) % NOPS;
		if (verbose)
			fprintf(stderr, "op %u: %s\n", k, op_names[o]);
		ops[o](&s, &r);
		/* a few stay stored for op_info_queue to read */
		if (s.iq && ID3D12InfoQueue_GetNumStoredMessages(s.iq) >= 8)
			drain_messages(&s);
	}
	drain(&s);
	/* a COPY list records no dispatch (COMPUTE_LIST_TYPE) */
	for (unsigned i = 0; i < NLIST; i++) {
		XS12_DISPATCH_STATISTICS st;
		if (s.ls[i].l && s.ls[i].type == D3D12_COMMAND_LIST_TYPE_COPY)
			FUZZ_CHECK(FAILED(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)s.ls[i].l, 0, &st)),
				   "list %u (COPY) ran a dispatch", i);
	}
	if (verbose) {
		fprintf(stderr, "end: device removed reason 0x%08x\n", (unsigned)ID3D12Device_GetDeviceRemovedReason(s.dev));
		for (unsigned i = 0; i < NLIST; i++) {
			XS12_DISPATCH_STATISTICS st;
			for (UINT k = 0; s.ls[i].l && k < 8; k++)
				if (SUCCEEDED(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)s.ls[i].l, k, &st)))
					fprintf(stderr, "  list %u dispatch %u: %llu waves, %llu cycles\n", i, k,
						(unsigned long long)st.WavesLaunched, (unsigned long long)st.Cycles);
		}
	}
	if (removed(&s) && (head & 2))
		read_dred(&s);
	drain_messages(&s);
	if (iq1) {
		ID3D12InfoQueue1_UnregisterMessageCallback(iq1, cookie);
		ID3D12InfoQueue1_Release(iq1);
	}
	release_all(&s);
	return 0;
}
