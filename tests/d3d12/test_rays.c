/* Ray-tracing pipelines from code objects, DispatchRays and DispatchRaysX
 * (SPEC S2) through D3D12: kernels/rt_basic.hip's shaders called through
 * identifiers read from shader tables written after recording; each
 * CreateStateObject rejection with its message ID; GetInformationX's
 * ScratchSize against LLVM's own per-function figures (the -S output);
 * DispatchRaysX on a ring of k waves (k in flight at most, results equal to
 * DispatchRays' and the CPU's), S2.6 and S2.7.
 * argv: rt_basic.hip.co rt_basic.s rt_basic.nosizes.hip.co vadd.w32 vadd.w64 private_spill.w32
 * (no arguments: hipcc is missing, the test is skipped). */
#include "d3d12_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <xs12/xs12_rt.h>

static const char *lib_path, *asm_path, *nosizes_path, *vadd32_path, *vadd64_path, *spill_path;

typedef struct lib {
	void *code;
	size_t size;
} lib;

static lib load(const char *path)
{
	lib l;
	l.code = t_read_file(path, &l.size);
	return l;
}

/* A root signature: a root UAV (u0) and one 32-bit constant (b0). */
static ID3D12RootSignature *global_root(t_ctx *c)
{
	D3D12_ROOT_PARAMETER p[2] = {
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV, .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, .Constants = { 0, 0, 1 },
		  .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL },
	};
	return t_root_signature(c, p, 2);
}

typedef struct so_parts {
	D3D12_STATE_SUBOBJECT sub[12];
	UINT n;
	D3D12_DXIL_LIBRARY_DESC lib;
	D3D12_EXPORT_DESC exports[12];
	D3D12_HIT_GROUP_DESC hit;
	D3D12_RAYTRACING_SHADER_CONFIG shader;
	D3D12_RAYTRACING_PIPELINE_CONFIG pipeline;
	D3D12_GLOBAL_ROOT_SIGNATURE global;
} so_parts;

static void add(so_parts *p, D3D12_STATE_SUBOBJECT_TYPE t, const void *desc)
{
	p->sub[p->n++] = (D3D12_STATE_SUBOBJECT){ t, desc };
}

/* A pipeline of one library (exports as given; none = all), a hit group
 * "HG" (Chs, Ahs) when asked, configs (depth), the global root signature. */
static void parts(so_parts *p, const lib *l, const D3D12_EXPORT_DESC *x, UINT nx, bool hit, UINT depth,
		  ID3D12RootSignature *rs, bool shader_config, bool pipeline_config)
{
	memset(p, 0, sizeof(*p));
	if (nx)
		memcpy(p->exports, x, nx * sizeof(*x));
	p->lib = (D3D12_DXIL_LIBRARY_DESC){ { l->code, l->size }, nx, nx ? p->exports : NULL };
	add(p, D3D12_STATE_SUBOBJECT_TYPE_DXIL_LIBRARY, &p->lib);
	if (hit) {
		p->hit = (D3D12_HIT_GROUP_DESC){ L"HG", D3D12_HIT_GROUP_TYPE_TRIANGLES, L"Ahs", L"Chs", NULL };
		add(p, D3D12_STATE_SUBOBJECT_TYPE_HIT_GROUP, &p->hit);
	}
	p->shader = (D3D12_RAYTRACING_SHADER_CONFIG){ 16, 8 };
	p->pipeline = (D3D12_RAYTRACING_PIPELINE_CONFIG){ depth };
	if (shader_config)
		add(p, D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_SHADER_CONFIG, &p->shader);
	if (pipeline_config)
		add(p, D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_PIPELINE_CONFIG, &p->pipeline);
	if (rs) {
		p->global.pGlobalRootSignature = rs;
		add(p, D3D12_STATE_SUBOBJECT_TYPE_GLOBAL_ROOT_SIGNATURE, &p->global);
	}
}

static HRESULT create(t_ctx *c, so_parts *p, ID3D12StateObject **so)
{
	D3D12_STATE_OBJECT_DESC d = { D3D12_STATE_OBJECT_TYPE_RAYTRACING_PIPELINE, p->n, p->sub };
	ID3D12Device5 *dev5;
	assert_int_equal(ID3D12Device_QueryInterface(c->dev, &IID_ID3D12Device5, (void **)&dev5), S_OK);
	*so = NULL;
	HRESULT hr = ID3D12Device5_CreateStateObject(dev5, &d, &IID_ID3D12StateObject, (void **)so);
	ID3D12Device5_Release(dev5);
	return hr;
}

static ID3D12StateObjectProperties *props_of(ID3D12StateObject *so)
{
	ID3D12StateObjectProperties *p;
	assert_int_equal(ID3D12StateObject_QueryInterface(so, &IID_ID3D12StateObjectProperties, (void **)&p), S_OK);
	return p;
}

/* A record: the export's identifier, then the local root bytes. */
static void put_record(uint8_t *at, ID3D12StateObjectProperties *p, const wchar_t *name, uint32_t local)
{
	const void *id = ID3D12StateObjectProperties_GetShaderIdentifier(p, name);
	assert_non_null(id);
	memcpy(at, id, XS12_RT_SHADER_ID_SIZE);
	memcpy(at + XS12_RT_SHADER_ID_SIZE, &local, 4);
}

static void *map(ID3D12Resource *r)
{
	void *p;
	assert_int_equal(ID3D12Resource_Map(r, 0, NULL, &p), S_OK);
	return p;
}

static void bind(t_ctx *c, ID3D12RootSignature *rs, ID3D12StateObject *so, ID3D12Resource *out, UINT k)
{
	ID3D12GraphicsCommandList6_SetComputeRootSignature(c->list, rs);
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c->list, 0, ID3D12Resource_GetGPUVirtualAddress(out));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c->list, 1, k, 0);
	ID3D12GraphicsCommandList6_SetPipelineState1(c->list, so);
}

static D3D12_DISPATCH_RAYS_DESC rays(ID3D12Resource *table, UINT w, UINT h, UINT d)
{
	uint64_t va = ID3D12Resource_GetGPUVirtualAddress(table);
	D3D12_DISPATCH_RAYS_DESC r = { .RayGenerationShaderRecord = { va, 64 },
				       .MissShaderTable = { va + 256, 128, 64 },
				       .CallableShaderTable = { va + 512, 64, 64 },
				       .Width = w, .Height = h, .Depth = d };
	return r;
}

/* ---- every lane of W x H x D once, its index and the dimensions ---------------- */

static void every_lane_once(void **state)
{
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	lib l = load(lib_path);
	ID3D12RootSignature *rs = global_root(&c);
	so_parts p;
	parts(&p, &l, NULL, 0, false, 1, rs, true, true); /* no exports: all functions */
	ID3D12StateObject *so;
	assert_int_equal(create(&c, &p, &so), S_OK);
	ID3D12StateObjectProperties *pp = props_of(so);
	const UINT W = 13, H = 7, D = 3, N = W * H * D, SPARE = 64;
	ID3D12Resource *out = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, (N + SPARE) * 16);
	ID3D12Resource *table = t_buffer(&c, D3D12_HEAP_TYPE_UPLOAD, 1024);
	uint8_t *tab = map(table);
	memset(tab, 0, 1024);
	bind(&c, rs, so, out, 0xabcu);
	D3D12_DISPATCH_RAYS_DESC r = rays(table, W, H, D);
	ID3D12GraphicsCommandList6_DispatchRays(c.list, &r);
	D3D12_DISPATCH_RAYS_DESC none = rays(table, 0, H, D);
	ID3D12GraphicsCommandList6_DispatchRays(c.list, &none); /* no rays: nothing recorded */
	/* the table is written after recording, before ExecuteCommandLists */
	put_record(tab, pp, L"rg_index", 0);
	assert_int_equal(t_run(&c), S_OK);
	XS12_DISPATCH_STATISTICS st;
	assert_int_equal(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.list, 0, &st), S_OK);
	assert_int_equal(st.WavesLaunched, 2 * 2 * 3); /* ceil(13 / 8) x ceil(7 / 4) x 3 groups of one wave */
	assert_int_equal(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.list, 1, &st),
			 E_INVALIDARG); /* the dispatch of no rays recorded nothing */
	uint32_t *got = malloc((N + SPARE) * 16);
	t_read(&c, out, got, (N + SPARE) * 16);
	for (UINT z = 0; z < D; z++)
		for (UINT y = 0; y < H; y++)
			for (UINT x = 0; x < W; x++) {
				const uint32_t *o = got + 4 * ((z * H + y) * W + x);
				assert_int_equal(o[0], x | y << 10 | z << 20);
				assert_int_equal(o[1], W | H << 10 | D << 20);
				assert_int_equal(o[2], 0xabcu);
				assert_int_equal(o[3], 1); /* once */
			}
	for (UINT i = 4 * N; i < 4 * (N + SPARE); i++)
		assert_int_equal(got[i], 0); /* no lane outside the dimensions wrote */
	free(got);
	ID3D12StateObjectProperties_Release(pp);
	ID3D12StateObject_Release(so);
	ID3D12Resource_Release(out);
	ID3D12Resource_Release(table);
	ID3D12RootSignature_Release(rs);
	free(l.code);
	t_close(&c);
}

/* ---- exports renamed, identifiers, miss and callable tables with strides -------- */

static const D3D12_EXPORT_DESC named[] = {
	{ L"RayGen", L"rg_calls", 0 }, { L"MissA", L"miss_add", 0 }, { L"MissB", L"miss_mul", 0 },
	{ L"Sq", L"callable_sq", 0 }, { L"Chs", L"chs_nop", 0 }, { L"Ahs", L"ahs_nop", 0 },
};

static void tables_and_identifiers(void **state)
{
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	lib l = load(lib_path);
	ID3D12RootSignature *rs = global_root(&c);
	so_parts p;
	parts(&p, &l, named, 6, true, 2, rs, true, true);
	ID3D12StateObject *so;
	assert_int_equal(create(&c, &p, &so), S_OK);
	ID3D12StateObjectProperties *pp = props_of(so);
	/* identifiers: one per export and hit group, distinct; NULL for a name unknown or renamed away */
	const wchar_t *names[] = { L"RayGen", L"MissA", L"MissB", L"Sq", L"Chs", L"Ahs", L"HG" };
	const xs12_rt_shader_id *ids[7];
	for (int i = 0; i < 7; i++) {
		ids[i] = ID3D12StateObjectProperties_GetShaderIdentifier(pp, names[i]);
		assert_non_null(ids[i]);
		for (int j = 0; j < i; j++)
			assert_memory_not_equal(ids[i], ids[j], XS12_RT_SHADER_ID_SIZE);
	}
	assert_null(ID3D12StateObjectProperties_GetShaderIdentifier(pp, L"NoSuchShader"));
	assert_null(ID3D12StateObjectProperties_GetShaderIdentifier(pp, L"rg_calls")); /* exported as RayGen */
	assert_int_equal(ids[6]->kind, XS12_RT_KIND_HIT_GROUP);
	assert_true(ids[6]->function == ids[4]->function && ids[6]->any_hit == ids[5]->function &&
		    !ids[6]->intersection);
	assert_int_equal(ids[0]->kind, XS12_RT_KIND_FUNCTION);
	/* a hit group's shaders' stack sizes by "group::type"; the group itself has none */
	assert_int_equal(ID3D12StateObjectProperties_GetShaderStackSize(pp, L"HG::closesthit"),
			 ID3D12StateObjectProperties_GetShaderStackSize(pp, L"Chs"));
	assert_int_equal(ID3D12StateObjectProperties_GetShaderStackSize(pp, L"HG::anyhit"),
			 ID3D12StateObjectProperties_GetShaderStackSize(pp, L"Ahs"));
	assert_int_equal(ID3D12StateObjectProperties_GetShaderStackSize(pp, L"HG::intersection"), 0xffffffffu);
	assert_int_equal(ID3D12StateObjectProperties_GetShaderStackSize(pp, L"HG"), 0xffffffffu);
	assert_true(ID3D12StateObjectProperties_GetShaderStackSize(pp, L"RayGen") < 1024);

	const UINT W = 16, H = 3;
	ID3D12Resource *out = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, W * H * 16);
	ID3D12Resource *table = t_buffer(&c, D3D12_HEAP_TYPE_UPLOAD, 1024);
	uint8_t *tab = map(table);
	memset(tab, 0, 1024);
	bind(&c, rs, so, out, 0);
	D3D12_DISPATCH_RAYS_DESC r = rays(table, W, H, 1);
	ID3D12GraphicsCommandList6_DispatchRays(c.list, &r);
	put_record(tab, pp, L"RayGen", 0x55);
	put_record(tab + 256, pp, L"MissA", 100);      /* miss record 0 */
	put_record(tab + 256 + 64, pp, L"MissB", 3);   /* miss record 1: the stride */
	put_record(tab + 512, pp, L"Sq", 0);
	assert_int_equal(t_run(&c), S_OK);
	uint32_t got[16 * 3 * 4];
	t_read(&c, out, got, sizeof(got));
	for (UINT y = 0; y < H; y++)
		for (UINT x = 0; x < W; x++) {
			const uint32_t *o = got + 4 * (y * W + x);
			assert_int_equal(o[0], x % 2 ? x * 3 : x + 100);
			assert_int_equal(o[1], y * y + 1000); /* called one level down */
			assert_int_equal(o[2], 0x55);          /* the ray generation's local root constant */
			assert_int_equal(o[3], 1);
		}
	ID3D12StateObjectProperties_Release(pp);
	ID3D12StateObject_Release(so);
	ID3D12Resource_Release(out);
	ID3D12Resource_Release(table);
	ID3D12RootSignature_Release(rs);
	free(l.code);
	t_close(&c);
}

/* ---- CreateStateObject's rejections, each with its message ID --------------------- */

static void rejected(t_ctx *c, so_parts *p, D3D12_MESSAGE_ID msg)
{
	ID3D12StateObject *so;
	ID3D12InfoQueue_ClearStoredMessages(c->iq);
	assert_int_equal(create(c, p, &so), E_INVALIDARG);
	assert_null(so);
	if (!t_has_message(c, msg)) {
		fprintf(stderr, "expected message %d\n", (int)msg);
		fail();
	}
}

static void state_object_rejections(void **state)
{
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	lib l = load(lib_path), v32 = load(vadd32_path), v64 = load(vadd64_path);
	so_parts p;
	D3D12_EXPORT_DESC missing[] = { { L"rg_index", NULL, 0 }, { L"nope", NULL, 0 } };
	parts(&p, &l, missing, 2, false, 1, NULL, true, true);
	rejected(&c, &p, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RTPSO_EXPORT);
	D3D12_EXPORT_DESC dup[] = { { L"A", L"rg_index", 0 }, { L"A", L"rg_calls", 0 } };
	parts(&p, &l, dup, 2, false, 1, NULL, true, true);
	rejected(&c, &p, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RTPSO_DUPLICATE);
	D3D12_EXPORT_DESC no_chs[] = { { L"Ahs", L"ahs_nop", 0 } }; /* HG imports Chs, not exported */
	parts(&p, &l, no_chs, 1, true, 1, NULL, true, true);
	rejected(&c, &p, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RTPSO_EXPORT);
	/* D3D12_HIT_GROUP_TYPE: no intersection shader in a triangles hit group, one in a procedural one */
	parts(&p, &l, named, 6, true, 1, NULL, true, true);
	p.hit.IntersectionShaderImport = L"Sq";
	rejected(&c, &p, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RTPSO_SUBOBJECT);
	parts(&p, &l, named, 6, true, 1, NULL, true, true);
	p.hit.Type = D3D12_HIT_GROUP_TYPE_PROCEDURAL_PRIMITIVE;
	rejected(&c, &p, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RTPSO_SUBOBJECT);
	parts(&p, &l, named, 6, true, 1, NULL, true, true);
	p.hit.Type = D3D12_HIT_GROUP_TYPE_PROCEDURAL_PRIMITIVE;
	p.hit.IntersectionShaderImport = L"Sq";
	ID3D12StateObject *hg;
	assert_int_equal(create(&c, &p, &hg), S_OK);
	ID3D12StateObject_Release(hg);
	parts(&p, &v32, NULL, 0, false, 1, NULL, true, true); /* vadd: no entry kernel */
	rejected(&c, &p, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RTPSO_NO_ENTRY);
	parts(&p, &v64, NULL, 0, false, 1, NULL, true, true);
	rejected(&c, &p, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RTPSO_NOT_WAVE32);
	parts(&p, &l, NULL, 0, false, 1, NULL, false, true);
	rejected(&c, &p, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RTPSO_CONFIG);
	parts(&p, &l, NULL, 0, false, 1, NULL, true, false);
	rejected(&c, &p, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RTPSO_CONFIG);
	parts(&p, &l, NULL, 0, false, 1, NULL, true, true);
	p.shader.MaxAttributeSizeInBytes = D3D12_RAYTRACING_MAX_ATTRIBUTE_SIZE_IN_BYTES + 4;
	rejected(&c, &p, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RTPSO_CONFIG);
	parts(&p, &l, NULL, 0, false, 1, NULL, true, true);
	p.shader.MaxAttributeSizeInBytes = UINT32_MAX;
	rejected(&c, &p, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RTPSO_CONFIG);
	parts(&p, &l, NULL, 0, false, D3D12_RAYTRACING_MAX_DECLARABLE_TRACE_RECURSION_DEPTH + 1, NULL, true, true);
	rejected(&c, &p, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RTPSO_RECURSION);
	parts(&p, &l, NULL, 0, false, D3D12_RAYTRACING_MAX_DECLARABLE_TRACE_RECURSION_DEPTH, NULL, true, true);
	p.shader.MaxAttributeSizeInBytes = D3D12_RAYTRACING_MAX_ATTRIBUTE_SIZE_IN_BYTES;
	ID3D12StateObject *so;
	assert_int_equal(create(&c, &p, &so), S_OK); /* 31 and 32 bytes of attributes are allowed */
	ID3D12StateObjectProperties *pp = props_of(so);
	D3D12XBOX_RAYTRACING_INFORMATION info;
	assert_int_equal(ID3D12StateObjectProperties_GetInformationX(pp, 1, &info), E_INVALIDARG);
	assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RTPSO_INFO_FLAGS));
	ID3D12StateObjectProperties_Release(pp);
	ID3D12StateObject_Release(so);
	free(l.code);
	free(v32.code);
	free(v64.code);
	t_close(&c);
}

/* ---- ScratchSize against LLVM's own figures (S2.4, S2.5, S2.7) --------------------- */

/* A function's own frame from hipcc -S output: its "; ScratchSize: N",
 * less the 16 KB LLVM assumes for an indirect call when its body makes one
 * (s_swappc_b64): LLVM's figure counts callees, the frame does not. */
static uint64_t llvm_scratch(const char *fn)
{
	size_t n;
	char *s = t_read_file(asm_path, &n);
	char *text = realloc(s, n + 1);
	text[n] = 0;
	char label[160];
	snprintf(label, sizeof(label), "\n%s:", fn);
	char *at = strstr(text, label);
	assert_non_null(at);
	char *ss = strstr(at, "; ScratchSize: ");
	assert_non_null(ss);
	uint64_t v = strtoull(ss + 15, NULL, 10);
	*ss = 0;
	if (strstr(at, "s_swappc_b64")) {
		assert_true(v >= 16384);
		v -= 16384;
	}
	free(text);
	return v;
}

static void scratch_size(void **state)
{
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	lib l = load(lib_path), ns = load(nosizes_path);
	static const char *const fns[] = { "rg_index", "rg_calls", "miss_add", "miss_mul", "callable_sq", "chs_nop",
					   "ahs_nop", "rg_spill" };
	uint64_t F = 0;
	for (int i = 0; i < 8; i++)
		F = llvm_scratch(fns[i]) > F ? llvm_scratch(fns[i]) : F;
	uint64_t entry = llvm_scratch("rt_entry");
	assert_true(entry > 0 && entry < 1024);
	for (UINT depth = 0; depth <= 3; depth++) {
		so_parts p;
		parts(&p, &l, NULL, 0, false, depth, NULL, true, true);
		ID3D12StateObject *so;
		assert_int_equal(create(&c, &p, &so), S_OK);
		ID3D12StateObjectProperties *pp = props_of(so);
		/* S2.7: RGS + max(CHS, MS, IS + AHS) + max(CHS, MS) x (depth - 1) + 2 x CS, every frame at most F */
		uint64_t stack = F + F + F * (depth > 1 ? depth - 1 : 0) + 2 * F;
		assert_int_equal(ID3D12StateObjectProperties_GetPipelineStackSize(pp), stack);
		assert_int_equal(ID3D12StateObjectProperties_GetShaderStackSize(pp, L"rg_spill"), llvm_scratch("rg_spill"));
		assert_int_equal(ID3D12StateObjectProperties_GetShaderStackSize(pp, L"rg_calls"), llvm_scratch("rg_calls"));
		assert_int_equal(ID3D12StateObjectProperties_GetShaderStackSize(pp, L"nope"), 0xffffffffu);
		D3D12XBOX_RAYTRACING_INFORMATION info = { 0 };
		assert_int_equal(ID3D12StateObjectProperties_GetInformationX(pp, 0, &info), S_OK);
		assert_int_equal(info.ScratchSize, entry + stack);
		ID3D12StateObjectProperties_SetPipelineStackSize(pp, 4096);
		assert_int_equal(ID3D12StateObjectProperties_GetPipelineStackSize(pp), 4096);
		assert_int_equal(ID3D12StateObjectProperties_GetInformationX(pp, 0, &info), S_OK);
		assert_int_equal(info.ScratchSize, entry + 4096);
		ID3D12StateObjectProperties_SetPipelineStackSize(pp, 0x100000000ull); /* dropped, as D3D12 */
		assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RTPSO_STACK_SIZE));
		assert_int_equal(ID3D12StateObjectProperties_GetPipelineStackSize(pp), 4096);
		ID3D12StateObjectProperties_Release(pp);
		ID3D12StateObject_Release(so);
	}
	/* without .stack_sizes: LLVM's assumption, 16 KB per function */
	so_parts p;
	parts(&p, &ns, NULL, 0, false, 1, NULL, true, true);
	ID3D12StateObject *so;
	assert_int_equal(create(&c, &p, &so), S_OK);
	ID3D12StateObjectProperties *pp = props_of(so);
	D3D12XBOX_RAYTRACING_INFORMATION info = { 0 };
	assert_int_equal(ID3D12StateObjectProperties_GetInformationX(pp, 0, &info), S_OK);
	assert_int_equal(info.ScratchSize, entry + 4 * 16384);
	assert_int_equal(ID3D12StateObjectProperties_GetShaderStackSize(pp, L"rg_spill"), 16384);
	ID3D12StateObjectProperties_Release(pp);
	ID3D12StateObject_Release(so);
	free(l.code);
	free(ns.code);
	t_close(&c);
}

/* ---- DispatchRaysX: a ring of k waves; S2.6; S2.7 -------------------------------------- */

/* rg_spill on the CPU */
static void spill_ref(uint32_t x, uint32_t y, uint32_t o[4])
{
	uint32_t a[96];
	for (uint32_t i = 0; i < 96; i++)
		a[i] = x * 131u + i * (y + 3u);
	for (uint32_t i = 1; i < 96; i++)
		a[(i * 37u + x) % 96u] += a[(i + y) % 96u];
	o[0] = a[x % 96u];
	o[1] = a[(x + y) % 96u];
	o[2] = a[(x * y) % 96u];
	o[3] = 1;
}

typedef struct spill_rays {
	ID3D12RootSignature *rs;
	ID3D12StateObject *so;
	ID3D12StateObjectProperties *pp;
	ID3D12Resource *table, *out;
	uint64_t per_wave;
	lib l;
} spill_rays;

enum { SW = 64, SH = 32 }; /* 8 x 8 groups: 64 waves */

static void spill_setup(t_ctx *c, spill_rays *s)
{
	s->l = load(lib_path);
	s->rs = global_root(c);
	so_parts p;
	parts(&p, &s->l, NULL, 0, false, 1, s->rs, true, true);
	assert_int_equal(create(c, &p, &s->so), S_OK);
	s->pp = props_of(s->so);
	D3D12XBOX_RAYTRACING_INFORMATION info;
	assert_int_equal(ID3D12StateObjectProperties_GetInformationX(s->pp, 0, &info), S_OK);
	s->per_wave = ((uint64_t)info.ScratchSize * 32 + 1023) / 1024 * 1024; /* S2.5 */
	s->table = t_buffer(c, D3D12_HEAP_TYPE_UPLOAD, 1024);
	uint8_t *tab = map(s->table);
	memset(tab, 0, 1024);
	put_record(tab, s->pp, L"rg_spill", 0);
	s->out = t_buffer(c, D3D12_HEAP_TYPE_DEFAULT, SW * SH * 16);
}

static void spill_free(spill_rays *s)
{
	ID3D12StateObjectProperties_Release(s->pp);
	ID3D12StateObject_Release(s->so);
	ID3D12Resource_Release(s->table);
	ID3D12Resource_Release(s->out);
	ID3D12RootSignature_Release(s->rs);
	free(s->l.code);
}

static void dispatch_rays_x(void **state)
{
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	spill_rays s;
	spill_setup(&c, &s);
	uint32_t *ref = malloc(SW * SH * 16), *got = malloc(SW * SH * 16);
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++)
			spill_ref(x, y, ref + 4 * (y * SW + x));
	D3D12_DISPATCH_RAYS_DESC r = rays(s.table, SW, SH, 1);
	/* DispatchRays on the driver's scratch */
	bind(&c, s.rs, s.so, s.out, 0);
	ID3D12GraphicsCommandList6_DispatchRays(c.list, &r);
	assert_int_equal(t_run(&c), S_OK);
	t_read(&c, s.out, got, SW * SH * 16);
	assert_memory_equal(got, ref, SW * SH * 16);
	/* DispatchRaysX with rings of k waves: at most k in flight, the same results */
	for (UINT k = 1; k <= 5; k += 2) {
		ID3D12Resource *zero = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, SW * SH * 16);
		ID3D12Resource *ring = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, k * s.per_wave);
		ID3D12GraphicsCommandList6_CopyResource(c.list, s.out, zero);
		D3D12_RESOURCE_BARRIER b = { .Type = D3D12_RESOURCE_BARRIER_TYPE_UAV };
		ID3D12GraphicsCommandList6_ResourceBarrier(c.list, 1, &b);
		bind(&c, s.rs, s.so, s.out, 0);
		D3D12XBOX_DISPATCH_RAYS_DESC x = { r, { ID3D12Resource_GetGPUVirtualAddress(ring), k * s.per_wave } };
		ID3D12GraphicsCommandList6_DispatchRaysX(c.list, &x);
		HRESULT hr = ID3D12GraphicsCommandList6_Close(c.list);
		assert_int_equal(hr, S_OK);
		ID3D12CommandList *cl = (ID3D12CommandList *)c.list;
		ID3D12CommandQueue_ExecuteCommandLists(c.queue, 1, &cl);
		assert_int_equal(ID3D12CommandQueue_Signal(c.queue, c.fence, ++c.fence_value), S_OK);
		assert_int_equal(ID3D12Fence_SetEventOnCompletion(c.fence, c.fence_value, NULL), S_OK);
		XS12_DISPATCH_STATISTICS st;
		assert_int_equal(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.list, 0, &st), S_OK);
		assert_int_equal(st.ScratchSlots, k);
		assert_int_equal(st.PeakScratchSlots, k);
		assert_int_equal(st.PeakWavesInFlight, k);
		assert_int_equal(st.WavesLaunched, (SW / 8) * (SH / 4));
		assert_int_equal(ID3D12CommandAllocator_Reset(c.alloc), S_OK);
		assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
		memset(got, 0, SW * SH * 16);
		t_read(&c, s.out, got, SW * SH * 16);
		assert_memory_equal(got, ref, SW * SH * 16);
		ID3D12Resource_Release(ring);
		ID3D12Resource_Release(zero);
	}
	free(ref);
	free(got);
	spill_free(&s);
	t_close(&c);
}

static void dispatch_rays_x_rules(void **state)
{
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	spill_rays s;
	spill_setup(&c, &s);
	D3D12_DISPATCH_RAYS_DESC r = rays(s.table, SW, SH, 1);
	ID3D12Resource *ring = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 8 * s.per_wave);
	uint64_t va = ID3D12Resource_GetGPUVirtualAddress(ring);
	/* S2.6: less than one wave: an error, nothing runs, nothing written */
	bind(&c, s.rs, s.so, s.out, 0);
	D3D12XBOX_DISPATCH_RAYS_DESC x = { r, { va, s.per_wave - 1024 } };
	ID3D12GraphicsCommandList6_DispatchRaysX(c.list, &x);
	assert_int_equal(t_run(&c), E_INVALIDARG);
	assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RAYS_SCRATCH_BELOW_WAVE));
	uint32_t *got = calloc(SW * SH, 16);
	t_read(&c, s.out, got, SW * SH * 16);
	for (UINT i = 0; i < SW * SH * 4; i++)
		assert_int_equal(got[i], 0);
	/* S1.3 for its address */
	bind(&c, s.rs, s.so, s.out, 0);
	x.Scratch = (D3D12_GPU_VIRTUAL_ADDRESS_RANGE){ va + 256, 4 * s.per_wave };
	ID3D12GraphicsCommandList6_DispatchRaysX(c.list, &x);
	assert_int_equal(t_run(&c), E_INVALIDARG);
	assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_SCRATCH_DEST_ALIGN));
	/* S1.7: two DispatchRaysX rings of other layouts over the same memory, no barrier between */
	bind(&c, s.rs, s.so, s.out, 0);
	D3D12XBOX_DISPATCH_RAYS_DESC two = { r, { va, 2 * s.per_wave } }, four = { r, { va, 4 * s.per_wave } };
	ID3D12GraphicsCommandList6_DispatchRaysX(c.list, &two);
	ID3D12GraphicsCommandList6_DispatchRaysX(c.list, &four);
	assert_int_equal(t_run(&c), E_INVALIDARG);
	assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_SCRATCH_REUSE_NO_FLUSH));
	/* ... and with a barrier between, both run */
	bind(&c, s.rs, s.so, s.out, 0);
	ID3D12GraphicsCommandList6_DispatchRaysX(c.list, &two);
	D3D12_RESOURCE_BARRIER uav = { .Type = D3D12_RESOURCE_BARRIER_TYPE_UAV };
	ID3D12GraphicsCommandList6_ResourceBarrier(c.list, 1, &uav);
	ID3D12GraphicsCommandList6_DispatchRaysX(c.list, &four);
	assert_int_equal(t_run(&c), S_OK);
	/* no state object */
	D3D12XBOX_DISPATCH_RAYS_DESC ok = { r, { va, 2 * s.per_wave } };
	ID3D12GraphicsCommandList6_DispatchRaysX(c.list, &ok);
	assert_int_equal(t_run(&c), E_INVALIDARG);
	assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RAYS_NO_STATE_OBJECT));

	/* S2.7: the list's ring (SetShaderScratchSpaceX) is back after DispatchRaysX */
	HRESULT hr;
	ID3D12PipelineState *spill = t_pipeline(&c, spill_path, NULL, &hr);
	assert_non_null(spill);
	UINT units = 0;
	ID3DBlob *blob;
	assert_int_equal(ID3D12PipelineState_GetInformationX(
				 spill, D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW, 0, &blob),
			 S_OK);
	memcpy(&units, ID3D10Blob_GetBufferPointer(blob), 4);
	ID3D10Blob_Release(blob);
	const UINT J = 6;
	ID3D12Resource *list_ring = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, (UINT64)J * units * 1024);
	uint32_t in[1024];
	for (int i = 0; i < 1024; i++)
		in[i] = (uint32_t)i * 2654435761u;
	ID3D12Resource *sin = t_upload(&c, in, sizeof(in)), *sout = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 4096 * 4);
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
							 ID3D12Resource_GetGPUVirtualAddress(list_ring),
							 (UINT64)J * units * 1024, units * 1024);
	bind(&c, s.rs, s.so, s.out, 0);
	ID3D12GraphicsCommandList6_DispatchRaysX(c.list, &ok);
	t_set_pipeline(&c, spill);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 0, ID3D12Resource_GetGPUVirtualAddress(sin));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 1, ID3D12Resource_GetGPUVirtualAddress(sout));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c.list, 2, 1024, 0);
	ID3D12GraphicsCommandList6_Dispatch(c.list, 4096 / 64, 1, 1);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	ID3D12CommandList *cl = (ID3D12CommandList *)c.list;
	ID3D12CommandQueue_ExecuteCommandLists(c.queue, 1, &cl);
	assert_int_equal(ID3D12CommandQueue_Signal(c.queue, c.fence, ++c.fence_value), S_OK);
	assert_int_equal(ID3D12Fence_SetEventOnCompletion(c.fence, c.fence_value, NULL), S_OK);
	XS12_DISPATCH_STATISTICS st;
	assert_int_equal(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.list, 0, &st), S_OK);
	assert_int_equal(st.ScratchSlots, 2); /* DispatchRaysX: its own ring */
	assert_int_equal(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.list, 1, &st), S_OK);
	assert_int_equal(st.ScratchSlots, J); /* the Dispatch after it: the list's ring again */
	assert_true(st.PeakScratchSlots <= J && st.PeakScratchSlots > 0);
	assert_int_equal(ID3D12CommandAllocator_Reset(c.alloc), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
	ID3D12PipelineState_Release(spill);
	ID3D12Resource_Release(list_ring);
	ID3D12Resource_Release(sin);
	ID3D12Resource_Release(sout);
	ID3D12Resource_Release(ring);
	free(got);
	spill_free(&s);
	t_close(&c);
}

/* More rays than D3D12_RAYTRACING_MAX_RAY_GENERATION_SHADER_THREADS (2^30)
 * are refused when recorded, by either method, whether W x H x D only
 * passes 2^30 or, in 64 bits, wraps to 0 or to a small number. */
static void too_many_rays(void **state)
{
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	spill_rays s;
	spill_setup(&c, &s);
	ID3D12Resource *ring = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 2 * s.per_wave);
	const UINT dims[][3] = {
		{ (1u << 30) + 1, 1, 1 }, { 1u << 15, 1u << 15, 2 },
		{ 1u << 22, 1u << 21, 1u << 21 }, /* 2^64: 0 in 64 bits */
		{ 2931542417u, 17u << 20, 353 },  /* 2^20 x (2^44 + 1): 2^20 in 64 bits */
		{ 0xffffffffu, 0xffffffffu, 0xffffffffu },
		{ 1u << 16, 1u << 16, 1u << 16 }, /* 2^48 */
	};
	for (size_t i = 0; i < sizeof(dims) / sizeof(dims[0]); i++)
		for (int x = 0; x < 2; x++) {
			bind(&c, s.rs, s.so, s.out, 0);
			D3D12_DISPATCH_RAYS_DESC r = rays(s.table, dims[i][0], dims[i][1], dims[i][2]);
			D3D12XBOX_DISPATCH_RAYS_DESC rx = { r, { ID3D12Resource_GetGPUVirtualAddress(ring), 2 * s.per_wave } };
			if (x)
				ID3D12GraphicsCommandList6_DispatchRaysX(c.list, &rx);
			else
				ID3D12GraphicsCommandList6_DispatchRays(c.list, &r);
			char text[400];
			if (t_last_message(&c, text, sizeof(text)) != (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RAYS_ARGS)
				fail_msg("%s(%u x %u x %u) not refused (RAYS_ARGS)", x ? "DispatchRaysX" : "DispatchRays",
					 dims[i][0], dims[i][1], dims[i][2]);
			assert_non_null(strstr(text, "MAX_RAY_GENERATION_SHADER_THREADS"));
			assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG); /* nothing runs */
			assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
		}
	ID3D12Resource_Release(ring);
	spill_free(&s);
	t_close(&c);
}

/* A miss, hit-group or callable table's stride is a multiple of 32 in
 * [0, 4096] (D3D12_RAYTRACING_MAX_SHADER_RECORD_STRIDE): 0 and 4096 are
 * recorded, 4096 + 32 and more is RAYS_ARGS, by either method. */
static void table_strides(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	spill_rays s;
	spill_setup(&c, &s);
	ID3D12Resource *ring = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 2 * s.per_wave);
	const UINT64 strides[] = { 0, 4096, 4096 + 32, 8192, 1ull << 32, 0xffffffffffffffe0ull };
	for (int table = 0; table < 3; table++)
		for (size_t i = 0; i < sizeof(strides) / sizeof(strides[0]); i++)
			for (int x = 0; x < 2; x++) {
				bind(&c, s.rs, s.so, s.out, 0);
				D3D12_DISPATCH_RAYS_DESC r = rays(s.table, 8, 4, 1);
				D3D12_GPU_VIRTUAL_ADDRESS_RANGE_AND_STRIDE *t =
					table == 0 ? &r.MissShaderTable : table == 1 ? &r.HitGroupTable : &r.CallableShaderTable;
				t->StrideInBytes = strides[i];
				D3D12XBOX_DISPATCH_RAYS_DESC rx = { r, { ID3D12Resource_GetGPUVirtualAddress(ring),
									 2 * s.per_wave } };
				ID3D12InfoQueue_ClearStoredMessages(c.iq);
				if (x)
					ID3D12GraphicsCommandList6_DispatchRaysX(c.list, &rx);
				else
					ID3D12GraphicsCommandList6_DispatchRays(c.list, &r);
				bool ok = strides[i] <= D3D12_RAYTRACING_MAX_SHADER_RECORD_STRIDE;
				if (ok != !t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_RAYS_ARGS))
					fail_msg("table %d, stride %llu: %s", table, (unsigned long long)strides[i],
						 ok ? "refused" : "not refused (RAYS_ARGS)");
				assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), ok ? S_OK : E_INVALIDARG);
				assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
			}
	ID3D12Resource_Release(ring);
	spill_free(&s);
	t_close(&c);
}

/* S1.10 covers DispatchRaysX's memory: the same ring on two queues, not
 * ordered, is refused by the debug layer (the second submission does not
 * run); ordered by a fence, both run and are right. */
static void rays_x_reuse_across_queues(void **state)
{
	for (int ordered = 0; ordered < 2; ordered++) {
		t_ctx c;
		t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
		spill_rays s;
		spill_setup(&c, &s);
		ID3D12CommandQueue *q2;
		ID3D12CommandAllocator *a2;
		ID3D12GraphicsCommandList6 *l2;
		ID3D12Fence *f2;
		D3D12_COMMAND_QUEUE_DESC qd = { .Type = D3D12_COMMAND_LIST_TYPE_COMPUTE };
		assert_int_equal(ID3D12Device_CreateCommandQueue(c.dev, &qd, &IID_ID3D12CommandQueue, (void **)&q2), S_OK);
		assert_int_equal(ID3D12Device_CreateCommandAllocator(c.dev, D3D12_COMMAND_LIST_TYPE_COMPUTE,
								     &IID_ID3D12CommandAllocator, (void **)&a2), S_OK);
		assert_int_equal(ID3D12Device_CreateCommandList(c.dev, 0, D3D12_COMMAND_LIST_TYPE_COMPUTE, a2, NULL,
								&IID_ID3D12GraphicsCommandList6, (void **)&l2), S_OK);
		assert_int_equal(ID3D12Device_CreateFence(c.dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&f2),
				 S_OK);
		ID3D12Resource *ring = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 4 * s.per_wave);
		ID3D12Resource *out2 = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, SW * SH * 16);
		D3D12XBOX_DISPATCH_RAYS_DESC x = { rays(s.table, SW, SH, 1),
						   { ID3D12Resource_GetGPUVirtualAddress(ring), 4 * s.per_wave } };
		bind(&c, s.rs, s.so, s.out, 0);
		ID3D12GraphicsCommandList6_DispatchRaysX(c.list, &x);
		t_ctx c2 = c;
		c2.list = l2;
		bind(&c2, s.rs, s.so, out2, 0);
		ID3D12GraphicsCommandList6_DispatchRaysX(l2, &x);
		assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
		assert_int_equal(ID3D12GraphicsCommandList6_Close(l2), S_OK);
		ID3D12CommandList *cl = (ID3D12CommandList *)c.list, *cl2 = (ID3D12CommandList *)l2;
		ID3D12CommandQueue_ExecuteCommandLists(c.queue, 1, &cl);
		assert_int_equal(ID3D12CommandQueue_Signal(c.queue, c.fence, ++c.fence_value), S_OK);
		if (ordered)
			assert_int_equal(ID3D12CommandQueue_Wait(q2, c.fence, c.fence_value), S_OK);
		ID3D12InfoQueue_ClearStoredMessages(c.iq);
		ID3D12CommandQueue_ExecuteCommandLists(q2, 1, &cl2);
		assert_int_equal(ID3D12CommandQueue_Signal(q2, f2, 1), S_OK);
		assert_int_equal(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_SCRATCH_REUSE), !ordered);
		assert_int_equal(ID3D12Fence_SetEventOnCompletion(f2, 1, NULL), S_OK);
		assert_int_equal(ID3D12Fence_SetEventOnCompletion(c.fence, c.fence_value, NULL), S_OK);
		assert_int_equal(ID3D12CommandAllocator_Reset(c.alloc), S_OK);
		assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
		uint32_t *got = malloc(SW * SH * 16), ref[4];
		t_read(&c, s.out, got, SW * SH * 16);
		spill_ref(SW - 1, SH - 1, ref);
		assert_memory_equal(got + 4 * (SW * SH - 1), ref, 16); /* the first ran */
		t_read(&c, out2, got, SW * SH * 16);
		if (ordered)
			assert_memory_equal(got + 4 * (SW * SH - 1), ref, 16);
		else
			assert_int_equal(got[4 * (SW * SH - 1) + 3], 0); /* refused: not run */
		free(got);
		ID3D12Resource_Release(ring);
		ID3D12Resource_Release(out2);
		ID3D12Fence_Release(f2);
		ID3D12GraphicsCommandList6_Release(l2);
		ID3D12CommandAllocator_Release(a2);
		ID3D12CommandQueue_Release(q2);
		spill_free(&s);
		t_close(&c);
	}
}

int main(int argc, char **argv)
{
	if (argc < 7) {
		fprintf(stderr, "test_rays: no HIP ray-tracing library (hipcc is missing): skipped\n");
		return 77;
	}
	lib_path = argv[1];
	asm_path = argv[2];
	nosizes_path = argv[3];
	vadd32_path = argv[4];
	vadd64_path = argv[5];
	spill_path = argv[6];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_lane_once),
		cmocka_unit_test(tables_and_identifiers),
		cmocka_unit_test(state_object_rejections),
		cmocka_unit_test(scratch_size),
		cmocka_unit_test(dispatch_rays_x),
		cmocka_unit_test(dispatch_rays_x_rules),
		cmocka_unit_test(too_many_rays),
		cmocka_unit_test(table_strides),
		cmocka_unit_test(rays_x_reuse_across_queues),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
