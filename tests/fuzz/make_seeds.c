/*
 * Seeds for the harnesses whose inputs the project's own writers make:
 *   pm4/      a packet of every opcode the decoder knows (header, count,
 *             a body of its smallest size: structure-aware seeds), and
 *             command streams from the PM4 builder (a dispatch, a draw's
 *             state, fences, waits, copies, calls)
 *   rootsig/  D3D12SerializeVersionedRootSignature's blobs (1.0 and 1.1,
 *             every parameter type) and their bare RTS0 parts
 *   accel/    XS_BUILD_AS inputs (fuzz_accel.c's layout): bottom-level
 *             builds (no index, u16, u32 indices, a transform), a
 *             top-level build over a BLAS the BVH writer made, copies,
 *             postbuild queries
 *   bvh/      ray + BVH inputs for fuzz_bvh.c, over BVHs the writer made
 *   cp/       small GPU worlds for fuzz_cp.c (its layout, fuzz_layouts.h):
 *             dispatches (direct, indirect, wave32 and 64, a kernel that
 *             loops into the watchdog, more than the recorded results),
 *             fences, waits (satisfied, by the host, across queues, for
 *             ever), IB calls and chains, COND_EXEC, DMA_DATA, XS_FILL,
 *             XS_LAUNCH, XS_BUILD_AS, draw state and draws, errors
 * and the PM4 dictionary (pm4.dict): every PKT3 header the decoder knows
 * and every register's SET_*_REG offset dword, from the register database
 * (generated from src/hw/gfx103_regs.txt); cp.dict: the packet headers the
 * cp seeds use and the dwords that aim into fuzz_cp.c's memory image.
 * Usage: fuzz_seeds OUTDIR (make_corpus.py runs it; the output is committed).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bvh/xs_bvh.h"
#include "d3d12/xs_d3d12_private.h"
#include "fuzz_layouts.h"
#include "hw/xs_hw_pm4.h"
#include "hw/xs_hw_regs.h"
#include "isa/xs_isa_priv.h"
#include "pm4/xs_pm4_build.h"
#include "pm4/xs_pm4_parse.h"
#include "pm4/xs_pm4_regdb.h"

static const char *outdir;

static void put(const char *dir, const char *name, const void *p, size_t n)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", outdir, dir);
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s/%s", outdir, dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* ---- PM4 ---------------------------------------------------------------- */

static void put_builder(const char *name, xs_pm4_builder *b)
{
	if (xs_pm4_builder_failed(b)) {
		fprintf(stderr, "fuzz_seeds: %s: %s\n", name, b->err.msg);
		exit(1);
	}
	put("pm4", name, b->dw, b->cdw * 4);
	xs_pm4_builder_reset(b);
}

static void pm4_seeds(FILE *dict)
{
	/* one packet per opcode: header + count + the smallest body, zeros but
	 * for what the decoder's rules need to accept it (an aligned address,
	 * a register offset inside the packet's space, a non-zero IB size) */
	for (unsigned op = 0; op < 256; op++) {
		const xs_pm4_opinfo *o = xs_pm4_opinfo_get(op);
		if (!o)
			continue;
		uint32_t dw[1 + 64] = { 0 };
		unsigned body = o->min_body ? o->min_body : 1;
		if (body > 64)
			body = 64;
		dw[0] = xs_pm4_pkt3_header(op, body - 1, 0);
		if (op == PKT3_INDIRECT_BUFFER && body >= 3)
			dw[3] = 16;
		char name[64];
		snprintf(name, sizeof(name), "op_%02x_%s", op, o->name);
		put("pm4", name, dw, 4 * (1 + body));
		fprintf(dict, "pkt3_%s=\"", o->name);
		for (int i = 0; i < 4; i++)
			fprintf(dict, "\\x%02X", (dw[0] >> 8 * i) & 0xff);
		fprintf(dict, "\"\n");
	}
	/* every register's offset dword, as SET_*_REG's first body dword */
	for (size_t i = 0; i < xs_pm4_reg_count(); i++) {
		const xs_pm4_reg *r = xs_pm4_reg_at(i);
		if (r->space == XS_PM4_SPACE_NONE)
			continue;
		uint32_t off = (r->addr - xs_pm4_space_base((xs_pm4_space)r->space)) / 4;
		fprintf(dict, "reg_%s=\"", r->name);
		for (int k = 0; k < 4; k++)
			fprintf(dict, "\\x%02X", (off >> 8 * k) & 0xff);
		fprintf(dict, "\"\n");
	}
	fprintf(dict, "type2_filler=\"\\x00\\x00\\x00\\x80\"\n");

	xs_pm4_builder b;
	xs_pm4_builder_init(&b, 0);
	/* a compute dispatch as the runtime records one */
	xs_pm4_set_sh_reg1(&b, R_00B830_COMPUTE_PGM_LO, 0x1000);
	xs_pm4_set_sh_reg1(&b, R_00B834_COMPUTE_PGM_HI, 0);
	uint32_t dims[3] = { 64, 1, 1 };
	xs_pm4_set_sh_reg(&b, R_00B81C_COMPUTE_NUM_THREAD_X, dims, 3);
	xs_pm4_dispatch_direct(&b, 4, 2, 1, 1);
	xs_pm4_fence(&b, 0x200000, 7, true);
	put_builder("dispatch", &b);
	/* waits, conditional work, copies, fills and calls */
	xs_pm4_wait_reg_mem(&b, 3, 0x200000, 1, 0xffffffff);
	xs_pm4_wait_reg_mem64(&b, 5, 0x200008, 2, ~0ull);
	size_t mark = xs_pm4_cond_exec_begin(&b, 0x200010);
	xs_pm4_dispatch_direct(&b, 1, 1, 1, 1);
	xs_pm4_cond_exec_end(&b, mark);
	xs_pm4_dma_data(&b, 0x300000, 0x200000, 256);
	uint32_t v[2] = { 1, 2 };
	xs_pm4_write_data(&b, 0x200020, v, 2);
	xs_pm4_acquire_mem(&b, 0);
	xs_pm4_indirect_buffer(&b, 0x400000, 64, false);
	xs_pm4_nop(&b, v, 2);
	put_builder("sync_copy_call", &b);
	/* a draw's state: context registers, index buffer, draws */
	uint32_t ctx[2] = { 0, 0 };
	xs_pm4_set_context_reg(&b, R_0286D8_SPI_PS_IN_CONTROL, ctx, 1);
	xs_pm4_set_context_reg(&b, R_028040_DB_Z_INFO, ctx, 2);
	xs_pm4_index_type(&b, 1);
	xs_pm4_index_base(&b, 0x500000);
	xs_pm4_index_buffer_size(&b, 3);
	xs_pm4_num_instances(&b, 1);
	xs_pm4_draw_index_auto(&b, 3);
	xs_pm4_draw_index_2(&b, 3, 0x500000, 3);
	xs_pm4_xs_build_as(&b, XS_AS_OP_BUILD, 0x600000, XS_AS_BUILD_BYTES + XS_AS_GEOM_BYTES);
	put_builder("draw", &b);
	xs_pm4_builder_free(&b);
}

/* ---- root signatures ----------------------------------------------------- */

static void put_blob(const char *name, ID3DBlob *blob)
{
	const uint8_t *p = ID3D10Blob_GetBufferPointer(blob);
	size_t n = ID3D10Blob_GetBufferSize(blob);
	put("rootsig", name, p, n);
	/* the bare RTS0 part: after the DXBC header, one offset, the chunk's tag and size */
	char bare[96];
	snprintf(bare, sizeof(bare), "%s.rts0", name);
	if (n > 32 + 4 + 8)
		put("rootsig", bare, p + 32 + 4 + 8, n - 32 - 4 - 8);
	ID3D10Blob_Release(blob);
}

static void serialize(const char *name, const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *vd)
{
	ID3DBlob *blob = NULL, *err = NULL;
	if (FAILED(d3d12_root_signature_serialize(vd, &blob, &err))) {
		fprintf(stderr, "fuzz_seeds: %s: %s\n", name, err ? (const char *)ID3D10Blob_GetBufferPointer(err) : "?");
		exit(1);
	}
	put_blob(name, blob);
}

static void rootsig_seeds(void)
{
	D3D12_VERSIONED_ROOT_SIGNATURE_DESC vd = { .Version = D3D_ROOT_SIGNATURE_VERSION_1_0 };
	serialize("empty_1_0", &vd);
	D3D12_DESCRIPTOR_RANGE range = { D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 4, 0, 0, 0 };
	D3D12_ROOT_PARAMETER p10[5] = {
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, .Constants = { 0, 0, 4 } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV, .Descriptor = { 1, 0 } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV, .Descriptor = { 0, 1 } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV, .Descriptor = { 2, 0 },
		  .ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE, .DescriptorTable = { 1, &range } },
	};
	vd.Desc_1_0 = (D3D12_ROOT_SIGNATURE_DESC){ .NumParameters = 4, .pParameters = p10 };
	serialize("params_1_0", &vd);
	vd.Desc_1_0.NumParameters = 5;
	ID3DBlob *blob = NULL, *err = NULL;
	if (SUCCEEDED(d3d12_root_signature_serialize(&vd, &blob, &err)))
		put_blob("table_1_0", blob);
	else if (err)
		ID3D10Blob_Release(err);
	D3D12_ROOT_PARAMETER1 p11[4] = {
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV, .Descriptor = { 0, 0, D3D12_ROOT_DESCRIPTOR_FLAG_DATA_STATIC } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV, .Descriptor = { 1, 0, D3D12_ROOT_DESCRIPTOR_FLAG_NONE } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV, .Descriptor = { 0, 0, D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, .Constants = { 0, 0, 64 } },
	};
	vd = (D3D12_VERSIONED_ROOT_SIGNATURE_DESC){ .Version = D3D_ROOT_SIGNATURE_VERSION_1_1,
						    .Desc_1_1 = { .NumParameters = 4, .pParameters = p11 } };
	serialize("params_1_1", &vd);
}

/* ---- acceleration structures ---------------------------------------------- */

typedef struct image {
	uint8_t b[FUZZ_ACCEL_HDR + 16384];
	size_t n; /* bytes of the memory image used */
} image;

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint8_t *mem(image *im, size_t off) { return im->b + FUZZ_ACCEL_HDR + off; }

/* A dictionary entry: name="the dword's 4 bytes, little-endian". */
static void dict_word(FILE *dict, const char *prefix, const char *name, uint32_t v)
{
	fprintf(dict, "%s%s=\"", prefix, name);
	for (int i = 0; i < 4; i++)
		fprintf(dict, "\\x%02X", (v >> 8 * i) & 0xff);
	fprintf(dict, "\"\n");
}

static void put_accel(const char *name, image *im, unsigned op, size_t desc_off, uint32_t desc_bytes)
{
	put32(im->b, op);
	put32(im->b + 4, (uint32_t)desc_off);
	put32(im->b + 8, desc_bytes);
	put("accel", name, im->b, FUZZ_ACCEL_HDR + im->n);
}

/* A triangle list's vertices at off: a quad of two triangles and a third
 * triangle apart (9 vertices, 12-byte stride). */
static void vertices(image *im, size_t off)
{
	static const float v[9][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 },
				       { 2, 2, 1 }, { 3, 2, 1 }, { 2, 3, 1 } };
	memcpy(mem(im, off), v, sizeof(v));
}

/* BUILD bottom at 0, one geometry; vertices at 0x400, indices at 0x600,
 * transform at 0x700, the structure's destination at 0x1000 (4 KiB). */
static size_t blas_desc(image *im, unsigned ifmt, uint32_t icount, bool transform, uint32_t ninfo)
{
	memset(im->b, 0, sizeof(im->b));
	uint8_t *d = mem(im, 0);
	put32(d + 0, XS_BVH_TYPE_BOTTOM);
	put32(d + 8, 1);
	put64(d + 16, FUZZ_ACCEL_VA + 0x1000);
	put64(d + 24, 4096);
	put32(d + 48, ninfo);
	uint8_t *g = d + XS_AS_BUILD_BYTES;
	put32(g + 0, 1); /* opaque */
	put32(g + 4, ifmt);
	put32(g + 8, icount);
	put32(g + 12, 9);
	put64(g + 16, FUZZ_ACCEL_VA + 0x600);
	put64(g + 24, FUZZ_ACCEL_VA + 0x400);
	put64(g + 32, 12);
	put64(g + 40, transform ? FUZZ_ACCEL_VA + 0x700 : 0);
	vertices(im, 0x400);
	static const float m[12] = { 2, 0, 0, 1, 0, 2, 0, 0, 0, 0, 2, 0 };
	memcpy(mem(im, 0x700), m, sizeof(m));
	for (uint32_t i = 0; i < ninfo; i++) {
		uint8_t *en = g + XS_AS_GEOM_BYTES + XS_AS_INFO_BYTES * i;
		put64(en, FUZZ_ACCEL_VA + 0x800 + 8 * i);
		put32(en + 8, i % 2);
	}
	im->n = 0x2000;
	return XS_AS_BUILD_BYTES + XS_AS_GEOM_BYTES + XS_AS_INFO_BYTES * ninfo;
}

/* A BLAS the BVH writer made, over the 3 triangles of vertices(). */
static size_t make_blas(uint8_t *out, size_t cap)
{
	static const float v[9][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 },
				       { 2, 2, 1 }, { 3, 2, 1 }, { 2, 3, 1 } };
	xs_bvh_triangle t[3];
	memset(t, 0, sizeof(t));
	for (int i = 0; i < 3; i++) {
		memcpy(t[i].v, v[3 * i], sizeof(t[i].v));
		t[i].triangle_id = (uint32_t)i;
		t[i].geometry_flags = XS_BVH_GEOMETRY_OPAQUE;
	}
	xs_bvh_stats st;
	xs_err e;
	if (xs_bvh_build_triangles(t, 3, 1, 0, out, cap, &st, &e)) {
		fprintf(stderr, "fuzz_seeds: BLAS: %s\n", e.msg);
		exit(1);
	}
	return st.bytes;
}

static void accel_seeds(void)
{
	image im;
	size_t n = blas_desc(&im, XS_AS_INDEX_NONE, 0, false, 0);
	put_accel("build_bottom", &im, XS_AS_OP_BUILD, 0, (uint32_t)n);
	n = blas_desc(&im, XS_AS_INDEX_U16, 6, true, 2);
	static const uint16_t i16[6] = { 0, 1, 2, 6, 7, 8 };
	memcpy(mem(&im, 0x600), i16, sizeof(i16));
	put_accel("build_bottom_u16_transform_info", &im, XS_AS_OP_BUILD, 0, (uint32_t)n);
	n = blas_desc(&im, XS_AS_INDEX_U32, 3, false, 1);
	static const uint32_t i32[3] = { 3, 4, 5 };
	memcpy(mem(&im, 0x600), i32, sizeof(i32));
	put_accel("build_bottom_u32", &im, XS_AS_OP_BUILD, 0, (uint32_t)n);

	/* a TLAS of two instances of a BLAS at 0x1000 (written by the BVH writer) */
	memset(im.b, 0, sizeof(im.b));
	size_t blas = make_blas(mem(&im, 0x1000), 4096);
	uint8_t *d = mem(&im, 0);
	put32(d + 0, XS_BVH_TYPE_TOP);
	put32(d + 8, 2);
	put64(d + 16, FUZZ_ACCEL_VA + 0x800);
	put64(d + 24, 0x800);
	put64(d + 32, FUZZ_ACCEL_VA + 0x100);
	for (int i = 0; i < 2; i++) {
		uint8_t *in = mem(&im, 0x100 + 64 * (size_t)i);
		float m[12] = { 1, 0, 0, (float)i * 4, 0, 1, 0, 0, 0, 0, 1, 0 };
		memcpy(in, m, sizeof(m));
		put32(in + 48, (uint32_t)i | 0xffu << 24);
		put64(in + 56, FUZZ_ACCEL_VA + 0x1000);
	}
	im.n = 0x1000 + blas;
	put_accel("build_top", &im, XS_AS_OP_BUILD, 0, XS_AS_BUILD_BYTES);
	/* the same instances through an array of pointers */
	put32(d + 12, XS_AS_LAYOUT_POINTERS);
	put64(d + 32, FUZZ_ACCEL_VA + 0x200);
	put64(mem(&im, 0x200), FUZZ_ACCEL_VA + 0x100);
	put64(mem(&im, 0x208), FUZZ_ACCEL_VA + 0x140);
	put_accel("build_top_pointers", &im, XS_AS_OP_BUILD, 0, XS_AS_BUILD_BYTES);
	/* COPY (clone, compact) of the BLAS to 0x2000; POSTBUILD of it */
	memset(d, 0, 0x800);
	put32(d + 0, XS_AS_COPY_CLONE);
	put64(d + 8, FUZZ_ACCEL_VA + 0x2000);
	put64(d + 16, FUZZ_ACCEL_VA + 0x1000);
	im.n = 0x1000 + blas;
	if (im.n < 0x2000 + blas)
		im.n = 0x2000 + blas;
	put_accel("copy_clone", &im, XS_AS_OP_COPY, 0, XS_AS_COPY_BYTES);
	put32(d + 0, XS_AS_COPY_COMPACT);
	put_accel("copy_compact", &im, XS_AS_OP_COPY, 0, XS_AS_COPY_BYTES);
	memset(d, 0, 0x800);
	put64(d + 0, FUZZ_ACCEL_VA + 0x800);
	put32(d + 8, XS_AS_INFO_COMPACTED_SIZE);
	put32(d + 16, 2);
	put64(d + 24, FUZZ_ACCEL_VA + 0x1000);
	put64(d + 32, FUZZ_ACCEL_VA + 0x1000);
	put_accel("postbuild", &im, XS_AS_OP_POSTBUILD, 0, XS_AS_POSTBUILD_BYTES + 16);
}

/* ---- BVH node reads (fuzz_bvh.c) ------------------------------------------- */

static void put_ray(uint8_t *r, const float o[3], const float d[3], float extent)
{
	uint32_t root = XS_BVH_ROOT_PTR;
	memcpy(r, &root, 4);
	memcpy(r + 4, &extent, 4);
	memcpy(r + 8, o, 12);
	memcpy(r + 20, d, 12);
	float inv[3];
	for (int k = 0; k < 3; k++)
		inv[k] = 1.0f / d[k];
	memcpy(r + 32, inv, 12);
}

static void bvh_seeds(void)
{
	static uint8_t in[FUZZ_BVH_HDR + 8192];
	uint8_t blas[4096];
	size_t n = make_blas(blas, sizeof(blas));
	uint32_t root;
	memcpy(&root, blas + XS_BVH_HDR_ROOT_OFFSET, 4);
	static const float dirs[FUZZ_BVH_RAYS][3] = { { 0, 0, 1 }, { 0, 0, -1 }, { 0.1f, 0.2f, 1 }, { 1, 1, 1 },
						      { -1, 0, 0.5f }, { 0, 1, 0 }, { 0.5f, 0.5f, 0.7f }, { 1, 0, 0 } };
	static const float orgs[FUZZ_BVH_RAYS][3] = { { 0.25f, 0.25f, -1 }, { 0.6f, 0.6f, 2 }, { 2.2f, 2.2f, 0 },
						      { -1, -1, -1 }, { 5, 0.5f, 0 }, { 0.5f, -3, 0 },
						      { 0, 0, -2 }, { -2, 2.5f, 1 } };
	for (unsigned prog = 0; prog < 3; prog++)
		for (unsigned flags = 0; flags < 4; flags += 3) {
			memset(in, 0, sizeof(in));
			in[0] = (uint8_t)prog;
			in[1] = (uint8_t)flags;
			in[2] = flags ? 255 : 0;
			for (unsigned r = 0; r < FUZZ_BVH_RAYS; r++)
				put_ray(in + 4 + FUZZ_BVH_RAY_BYTES * r, orgs[r], dirs[r], 100.0f);
			if (prog == 2) { /* a16: direction and inverse as halves, 3 words */
				for (unsigned r = 0; r < FUZZ_BVH_RAYS; r++) {
					uint8_t *w = in + 4 + FUZZ_BVH_RAY_BYTES * r + 20;
					uint16_t h[6];
					for (int k = 0; k < 3; k++) {
						h[k] = xs_f32_to_f16(dirs[r][k]);
						h[3 + k] = xs_f32_to_f16(1.0f / dirs[r][k]);
					}
					memcpy(w, h, 12);
					memset(w + 12, 0, 12);
				}
			}
			/* the T# base is the root node: the structure from its root offset on */
			memcpy(in + FUZZ_BVH_HDR, blas + root, n - root);
			char name[64];
			snprintf(name, sizeof(name), "blas3_prog%u_flags%u", prog, flags);
			put("bvh", name, in, FUZZ_BVH_HDR + n - root);
		}
}

/* ---- command processor worlds (fuzz_cp.c) ---------------------------------- */

/* Where the cp seeds keep things in the image (FUZZ_CP_VA + offset): the
 * command buffer from 0, data the packets read, an IB the stream calls, a
 * kernel (s_endpgm; s_branch to itself in the watchdog's seed), and past the
 * image's end zeros that the packets write (the allocation is FUZZ_CP_MEM). */
#define CP_STREAM_MAX 0x180 /* the stream's room */
#define CP_DATA 0x180      /* dims {2,1,1}; +12: 1; +16: 0; +20: 5 */
#define CP_SUB 0x1a0       /* a called IB: WRITE_DATA 0xabc to CP_OUT + 0x40 */
#define CP_SUB_DW 5
#define CP_CODE 0x200      /* the kernel (256-byte aligned, as COMPUTE_PGM_LO has it) */
#define CP_IMG 0x204       /* the image's end, but for XS_BUILD_AS's descriptor after it */
#define CP_AS_DESC 0x210   /* XS_BUILD_AS's descriptor, its vertices at CP_AS_VTX */
#define CP_AS_VTX 0x280
#define CP_OUT 0x400       /* zeros: fences, copies, fills */
#define CP_AS 0x1000       /* an acceleration structure's destination (zeros) */
#define CP_VA(off) (FUZZ_CP_VA + (off))
#define S_ENDPGM 0xbf810000u
#define S_BRANCH_SELF 0xbf82ffffu

typedef struct cp_world {
	uint8_t b[FUZZ_CP_HDR + 0x300];
	size_t n; /* image bytes */
} cp_world;

static uint8_t *cp_img(cp_world *w) { return w->b + FUZZ_CP_HDR; }

/* A world with the data areas and the called IB; the stream goes at 0. */
static void cp_init(cp_world *w)
{
	memset(w, 0, sizeof(*w));
	uint8_t *m = cp_img(w);
	put32(m + CP_CODE, S_ENDPGM);
	static const uint32_t data[6] = { 2, 1, 1, 1, 0, 5 };
	memcpy(m + CP_DATA, data, sizeof(data));
	xs_pm4_builder b;
	xs_pm4_builder_init(&b, 0);
	uint32_t v = 0xabc;
	xs_pm4_write_data(&b, CP_VA(CP_OUT + 0x40), &v, 1);
	if (b.cdw != CP_SUB_DW) {
		fprintf(stderr, "fuzz_seeds: cp: the called IB is %zu dwords\n", b.cdw);
		exit(1);
	}
	memcpy(m + CP_SUB, b.dw, b.cdw * 4);
	xs_pm4_builder_free(&b);
	w->n = CP_IMG;
}

/* Writes the world: flags (FUZZ_CP_*), machine byte, A's dwords (the
 * builder's), B's first dword and dwords. */
static void put_cp(const char *name, cp_world *w, xs_pm4_builder *b, uint8_t flags, uint8_t machine,
		   uint16_t b_first, uint16_t b_ndw)
{
	if (xs_pm4_builder_failed(b) || b->cdw * 4 > CP_STREAM_MAX) {
		fprintf(stderr, "fuzz_seeds: cp %s: %s\n", name, xs_pm4_builder_failed(b) ? b->err.msg : "stream too long");
		exit(1);
	}
	memset(cp_img(w), 0, CP_STREAM_MAX);
	memcpy(cp_img(w), b->dw, b->cdw * 4);
	w->b[0] = flags;
	w->b[1] = machine;
	uint16_t h[3] = { (uint16_t)b->cdw, b_first, b_ndw };
	memcpy(w->b + 2, h, sizeof(h));
	put("cp", name, w->b, FUZZ_CP_HDR + w->n);
	xs_pm4_builder_reset(b);
}

/* The registers of a compute dispatch of the kernel at code (64 x 1 x 1
 * threads, the fewest VGPRs and SGPRs). */
static void cp_kernel(xs_pm4_builder *b, uint32_t code)
{
	xs_pm4_set_sh_reg1(b, R_00B830_COMPUTE_PGM_LO, (uint32_t)(CP_VA(code) >> 8));
	xs_pm4_set_sh_reg1(b, R_00B834_COMPUTE_PGM_HI, (uint32_t)(CP_VA(code) >> 40));
	uint32_t rsrc[2] = { 0, 0 };
	xs_pm4_set_sh_reg(b, R_00B848_COMPUTE_PGM_RSRC1, rsrc, 2);
	uint32_t dims[3] = { 64, 1, 1 };
	xs_pm4_set_sh_reg(b, R_00B81C_COMPUTE_NUM_THREAD_X, dims, 3);
}

#define CS_INIT (S_00B800_COMPUTE_SHADER_EN(1) | S_00B800_ORDER_MODE(1))

/* A draw's state: s_endpgm shaders, triangle lists. */
static void cp_draw_state(xs_pm4_builder *b)
{
	xs_pm4_set_sh_reg1(b, R_00B120_SPI_SHADER_PGM_LO_VS, (uint32_t)(CP_VA(CP_CODE) >> 8));
	xs_pm4_set_sh_reg1(b, R_00B020_SPI_SHADER_PGM_LO_PS, (uint32_t)(CP_VA(CP_CODE) >> 8));
	xs_pm4_set_sh_reg1(b, R_00B118_SPI_SHADER_PGM_RSRC3_VS, S_00B01C_CU_EN(0xffff));
	xs_pm4_set_sh_reg1(b, R_00B01C_SPI_SHADER_PGM_RSRC3_PS, S_00B01C_CU_EN(0xffff));
	uint32_t prim = V_030908_DI_PT_TRILIST;
	xs_pm4_set_uconfig_reg(b, R_030908_VGT_PRIMITIVE_TYPE, &prim, 1);
}

static void cp_seeds(FILE *dict)
{
	cp_world w;
	xs_pm4_builder b;
	xs_pm4_builder_init(&b, 0);

	/* dispatches */
	cp_init(&w);
	cp_kernel(&b, CP_CODE);
	xs_pm4_dispatch_direct(&b, 2, 1, 1, CS_INIT);
	xs_pm4_fence(&b, CP_VA(CP_OUT), 7, false);
	put_cp("dispatch_q1", &w, &b, 1, 0, 0, 0);
	cp_kernel(&b, CP_CODE);
	xs_pm4_dispatch_direct(&b, 3, 2, 1, CS_INIT | S_00B800_CS_W32_EN(1));
	xs_pm4_fence(&b, CP_VA(CP_OUT), 7, true);
	put_cp("dispatch_w32_q0_timing", &w, &b, FUZZ_CP_TIMING, 0, 0, 0);
	cp_kernel(&b, CP_CODE);
	xs_pm4_dispatch_direct(&b, 1, 1, 1, CS_INIT);
	put_cp("dispatch_series_s_timing", &w, &b, 2 | FUZZ_CP_TIMING, FUZZ_CP_SERIES_S, 0, 0);
	cp_kernel(&b, CP_CODE);
	xs_pm4_dispatch_indirect_mec(&b, CP_VA(CP_DATA), CS_INIT);
	xs_pm4_event_write(&b, V_028A90_CS_PARTIAL_FLUSH);
	xs_pm4_fence(&b, CP_VA(CP_OUT), 1, false);
	put_cp("dispatch_indirect_mec_q3", &w, &b, 3, 0, 0, 0);
	cp_kernel(&b, CP_CODE);
	xs_pm4_dispatch_indirect_gfx(&b, CP_VA(CP_DATA), 0, CS_INIT);
	put_cp("dispatch_indirect_gfx_q0", &w, &b, 0, 0, 0, 0);
	put32(cp_img(&w) + CP_CODE, S_BRANCH_SELF);
	cp_kernel(&b, CP_CODE);
	xs_pm4_dispatch_direct(&b, 1, 1, 1, CS_INIT);
	put_cp("dispatch_loop_watchdog", &w, &b, 1, 0, 0, 0);
	put32(cp_img(&w) + CP_CODE, S_ENDPGM);
	cp_kernel(&b, CP_CODE);
	for (int i = 0; i < 9; i++) /* one past the recorded results */
		xs_pm4_dispatch_direct(&b, 1, 1, 1, CS_INIT);
	put_cp("dispatch_past_results", &w, &b, 2, 0, 0, 0);
	cp_kernel(&b, CP_CODE);
	xs_pm4_dispatch_direct(&b, 512, 1, 1, CS_INIT); /* past the wave limit */
	put_cp("dispatch_over_wave_limit", &w, &b, 1, 0, 0, 0);

	/* writes, fences, waits */
	uint32_t v[4] = { 0x11111111, 0x22222222, 0x33333333, 0x44444444 };
	cp_init(&w);
	xs_pm4_write_data(&b, CP_VA(CP_OUT), v, 4);
	xs_pm4_fence(&b, CP_VA(CP_OUT + 0x20), 0x1234567890ull, true);
	xs_pm4_acquire_mem(&b, S_586_GLI_INV(1));
	put_cp("write_data_fence", &w, &b, 1, 0, 0, 0);
	xs_pm4_wait_reg_mem(&b, WAIT_REG_MEM_EQUAL, CP_VA(CP_DATA + 12), 1, 0xffffffff);
	xs_pm4_wait_reg_mem64(&b, WAIT_REG_MEM_GREATER_OR_EQUAL, CP_VA(CP_DATA), 2, ~0ull);
	xs_pm4_fence(&b, CP_VA(CP_OUT), 3, false);
	put_cp("wait_satisfied", &w, &b, 0, 0, 0, 0);
	xs_pm4_wait_reg_mem(&b, WAIT_REG_MEM_EQUAL, CP_VA(CP_OUT), 5, 0xffffffff);
	xs_pm4_fence(&b, CP_VA(CP_OUT + 8), 3, false);
	put_cp("wait_host", &w, &b, 2 | FUZZ_CP_HOST_WAITS, 0, 0, 0);
	xs_pm4_wait_reg_mem(&b, WAIT_REG_MEM_EQUAL, CP_VA(CP_OUT), 5, 0xffffffff);
	put_cp("wait_forever", &w, &b, 2, 0, 0, 0);
	/* queue 2 waits for a value queue 0 (submission B, the called IB's
	 * place) writes after it */
	xs_pm4_wait_reg_mem(&b, WAIT_REG_MEM_EQUAL, CP_VA(CP_OUT + 0x40), 0xabc, 0xffffffff);
	xs_pm4_fence(&b, CP_VA(CP_OUT + 8), 3, false);
	put_cp("wait_cross_queue", &w, &b, 2 | FUZZ_CP_B | (0 << 5), 0, CP_SUB / 4, CP_SUB_DW);
	xs_pm4_cond_write(&b, WAIT_REG_MEM_EQUAL, CP_VA(CP_DATA + 12), 1, 0xffffffff, CP_VA(CP_OUT), 9);
	put_cp("cond_write", &w, &b, 1, 0, 0, 0);

	/* calls, chains, conditional work */
	xs_pm4_indirect_buffer(&b, CP_VA(CP_SUB), CP_SUB_DW, false);
	xs_pm4_fence(&b, CP_VA(CP_OUT), 1, false);
	put_cp("ib_call", &w, &b, 0, 0, 0, 0);
	xs_pm4_indirect_buffer(&b, CP_VA(CP_SUB), CP_SUB_DW, true);
	put_cp("ib_chain", &w, &b, 1, 0, 0, 0);
	xs_pm4_indirect_buffer(&b, CP_VA(0), 4, true); /* itself: a loop */
	put_cp("ib_chain_loop", &w, &b, 1, 0, 0, 0);
	cp_kernel(&b, CP_CODE);
	size_t mark = xs_pm4_cond_exec_begin(&b, CP_VA(CP_DATA + 16)); /* 0: skipped */
	xs_pm4_dispatch_direct(&b, 1, 1, 1, CS_INIT);
	xs_pm4_cond_exec_end(&b, mark);
	mark = xs_pm4_cond_exec_begin(&b, CP_VA(CP_DATA + 12)); /* 1: run */
	xs_pm4_dispatch_direct(&b, 1, 1, 1, CS_INIT);
	xs_pm4_cond_exec_end(&b, mark);
	put_cp("cond_exec", &w, &b, 1, 0, 0, 0);

	/* memory work */
	xs_pm4_dma_data(&b, CP_VA(CP_OUT), CP_VA(0), 0x200);
	uint32_t fill[PKT3_DMA_DATA_BODY_DW] = { S_411_CP_SYNC(1) | S_411_SRC_SEL(V_411_DATA), 0xfeedf00d, 0,
						 (uint32_t)CP_VA(CP_OUT + 0x200), (uint32_t)(CP_VA(CP_OUT) >> 32),
						 S_415_BYTE_COUNT_GFX9(256) };
	xs_pm4_emit_pkt3(&b, PKT3_DMA_DATA, fill, PKT3_DMA_DATA_BODY_DW, 0);
	put_cp("dma_data", &w, &b, 3, 0, 0, 0);
	xs_pm4_xs_fill(&b, CP_VA(CP_OUT), 128, 64, 4, v, 1);
	xs_pm4_xs_fill(&b, CP_VA(CP_OUT + 0x200), 0, 64, 1, v, 4);
	put_cp("xs_fill", &w, &b, 0, 0, 0, 0);

	/* XS_LAUNCH: the counts at CP_DATA, then the dispatch reads them */
	xs_pm4_launch_desc ld = { .dims_va = CP_VA(CP_DATA), .dims_out_va = CP_VA(CP_OUT), .aql_va = CP_VA(CP_OUT + 0x40),
				  .kernarg_va = CP_VA(CP_OUT + 0x80), .wave_size = 64, .block = { 64, 1, 1 } };
	static const uint32_t patches[2] = { S_XS_PATCH(0, XS_PATCH_BLOCK_COUNT_X, 4), S_XS_PATCH(4, XS_PATCH_GROUP_SIZE_X, 2) };
	ld.patches = patches;
	ld.npatches = 2;
	cp_kernel(&b, CP_CODE);
	xs_pm4_xs_launch(&b, &ld);
	xs_pm4_dispatch_indirect_mec(&b, CP_VA(CP_OUT), CS_INIT);
	put_cp("xs_launch", &w, &b, 1, 0, 0, 0);

	/* XS_BUILD_AS: one triangle's BLAS at CP_AS (a descriptor and its
	 * vertices after the kernel) */
	{
		uint8_t *m = cp_img(&w);
		uint8_t *d = m + CP_AS_DESC;
		put32(d + 0, XS_BVH_TYPE_BOTTOM);
		put32(d + 8, 1);
		put64(d + 16, CP_VA(CP_AS));
		put64(d + 24, 4096);
		uint8_t *g = d + XS_AS_BUILD_BYTES;
		put32(g + 0, 1);
		put32(g + 4, XS_AS_INDEX_NONE);
		put32(g + 12, 3);
		put64(g + 24, CP_VA(CP_AS_VTX));
		put64(g + 32, 12);
		static const float tri[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
		memcpy(m + CP_AS_VTX, tri, sizeof(tri));
		w.n = CP_AS_VTX + sizeof(tri);
		xs_pm4_xs_build_as(&b, XS_AS_OP_BUILD, CP_VA(CP_AS_DESC), XS_AS_BUILD_BYTES + XS_AS_GEOM_BYTES);
		xs_pm4_fence(&b, CP_VA(CP_OUT), 1, false);
		put_cp("xs_build_as", &w, &b, 2, 0, 0, 0);
	}

	/* draws: state, then draws of 3 vertices with s_endpgm shaders */
	cp_init(&w);
	cp_draw_state(&b);
	xs_pm4_index_type(&b, V_03090C_VGT_INDEX_16);
	xs_pm4_index_base(&b, CP_VA(CP_DATA));
	xs_pm4_index_buffer_size(&b, 3);
	xs_pm4_num_instances(&b, 1);
	xs_pm4_draw_index_auto(&b, 3);
	xs_pm4_draw_index_2(&b, 3, CP_VA(CP_DATA), 3);
	xs_pm4_fence(&b, CP_VA(CP_OUT), 1, false);
	put_cp("draw", &w, &b, 0, 0, 0, 0);
	cp_draw_state(&b);
	xs_pm4_draw_indirect(&b, false, CP_VA(CP_DATA), 0, R_00B130_SPI_SHADER_USER_DATA_VS_0 + 4 * 2, 0);
	put_cp("draw_indirect", &w, &b, 0, 0, 0, 0);
	xs_pm4_draw_index_auto(&b, 3);
	put_cp("draw_on_compute_queue", &w, &b, 1, 0, 0, 0);

	/* errors: an unsupported packet, a truncated one */
	uint32_t bad[2] = { 0, 0 };
	xs_pm4_emit_pkt3(&b, 0x7f, bad, 2, 0);
	put_cp("unsupported", &w, &b, 1, 0, 0, 0);
	xs_pm4_fence(&b, CP_VA(CP_OUT), 1, false);
	b.cdw--;
	put_cp("truncated", &w, &b, 1, 0, 0, 0);
	xs_pm4_builder_free(&b);

	/* the dictionary: the headers the seeds use, the image's addresses */
	static const struct {
		const char *name;
		unsigned op, count;
	} hdrs[] = {
		{ "NOP", PKT3_NOP, 0 }, { "SET_SH_REG_1", PKT3_SET_SH_REG, 1 }, { "SET_SH_REG_3", PKT3_SET_SH_REG, 3 },
		{ "DISPATCH_DIRECT", PKT3_DISPATCH_DIRECT, 3 }, { "DISPATCH_INDIRECT_MEC", PKT3_DISPATCH_INDIRECT, 2 },
		{ "DISPATCH_INDIRECT_GFX", PKT3_DISPATCH_INDIRECT, 1 }, { "SET_BASE", PKT3_SET_BASE, 2 },
		{ "EVENT_WRITE", PKT3_EVENT_WRITE, 0 }, { "RELEASE_MEM", PKT3_RELEASE_MEM, 6 },
		{ "WAIT_REG_MEM", PKT3_WAIT_REG_MEM, 5 }, { "WAIT_REG_MEM64", PKT3_WAIT_REG_MEM64, 6 },
		{ "WRITE_DATA_1", PKT3_WRITE_DATA, 3 }, { "COND_WRITE", PKT3_COND_WRITE, 7 },
		{ "COND_EXEC", PKT3_COND_EXEC, 3 }, { "DMA_DATA", PKT3_DMA_DATA, 5 }, { "ACQUIRE_MEM", PKT3_ACQUIRE_MEM, 6 },
		{ "INDIRECT_BUFFER", PKT3_INDIRECT_BUFFER, 2 }, { "XS_BUILD_AS", PKT3_XS_BUILD_AS, 3 },
		{ "XS_FILL_1", PKT3_XS_FILL, 6 }, { "XS_FILL_4", PKT3_XS_FILL, 9 },
		{ "XS_LAUNCH", PKT3_XS_LAUNCH, PKT3_XS_LAUNCH_FIXED_DW - 1 }, { "DRAW_INDEX_AUTO", PKT3_DRAW_INDEX_AUTO, 1 },
		{ "DRAW_INDEX_2", PKT3_DRAW_INDEX_2, 4 }, { "DRAW_INDIRECT", PKT3_DRAW_INDIRECT, 3 },
		{ "INDEX_BASE", PKT3_INDEX_BASE, 1 }, { "INDEX_TYPE", PKT3_INDEX_TYPE, 0 },
	};
	for (size_t i = 0; i < XS_ARRAY_SIZE(hdrs); i++)
		dict_word(dict, "pkt3_", hdrs[i].name, xs_pm4_pkt3_header(hdrs[i].op, hdrs[i].count, 0));
	dict_word(dict, "", "va_hi", (uint32_t)(FUZZ_CP_VA >> 32));
	static const struct {
		const char *name;
		uint32_t off;
	} places[] = { { "code", CP_CODE }, { "data", CP_DATA }, { "sub", CP_SUB }, { "out", CP_OUT },
		       { "as", CP_AS }, { "end", FUZZ_CP_MEM - 4 } };
	for (size_t i = 0; i < XS_ARRAY_SIZE(places); i++)
		dict_word(dict, "va_lo_", places[i].name, (uint32_t)CP_VA(places[i].off));
	dict_word(dict, "", "pgm_lo_code", (uint32_t)(CP_VA(CP_CODE) >> 8));
	dict_word(dict, "", "s_endpgm", S_ENDPGM);
	dict_word(dict, "", "s_branch_self", S_BRANCH_SELF);
	dict_word(dict, "", "cs_initiator", CS_INIT);
	dict_word(dict, "", "cs_initiator_w32", CS_INIT | S_00B800_CS_W32_EN(1));
	static const uint32_t regs[] = { R_00B830_COMPUTE_PGM_LO, R_00B848_COMPUTE_PGM_RSRC1, R_00B84C_COMPUTE_PGM_RSRC2,
					 R_00B81C_COMPUTE_NUM_THREAD_X, R_00B860_COMPUTE_TMPRING_SIZE,
					 R_00B120_SPI_SHADER_PGM_LO_VS, R_00B020_SPI_SHADER_PGM_LO_PS };
	static const char *const reg_names[] = { "COMPUTE_PGM_LO", "COMPUTE_PGM_RSRC1", "COMPUTE_PGM_RSRC2",
						 "COMPUTE_NUM_THREAD_X", "COMPUTE_TMPRING_SIZE", "SPI_SHADER_PGM_LO_VS",
						 "SPI_SHADER_PGM_LO_PS" };
	for (size_t i = 0; i < XS_ARRAY_SIZE(regs); i++)
		dict_word(dict, "reg_", reg_names[i], (regs[i] - XS_SH_REG_OFFSET) / 4);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: fuzz_seeds OUTDIR\n");
		return 2;
	}
	outdir = argv[1];
	mkdir(outdir, 0755);
	char path[1024];
	snprintf(path, sizeof(path), "%s/pm4.dict", outdir);
	FILE *dict = fopen(path, "w");
	if (!dict) {
		perror(path);
		return 1;
	}
	fprintf(dict, "# PM4: every PKT3 header of tests/fuzz/make_seeds.c's opcode seeds and every\n"
		"# register's SET_*_REG offset dword (register database of src/hw/gfx103_regs.txt).\n"
		"# Generated by tests/fuzz/make_corpus.py; do not edit.\n");
	pm4_seeds(dict);
	fclose(dict);
	rootsig_seeds();
	accel_seeds();
	bvh_seeds();
	snprintf(path, sizeof(path), "%s/cp.dict", outdir);
	if (!(dict = fopen(path, "w"))) {
		perror(path);
		return 1;
	}
	fprintf(dict, "# fuzz_cp: the PKT3 headers of tests/fuzz/make_seeds.c's cp seeds, the dwords\n"
		"# that aim into fuzz_cp.c's memory image (fuzz_layouts.h) and its places.\n"
		"# Generated by tests/fuzz/make_corpus.py; do not edit.\n");
	cp_seeds(dict);
	fclose(dict);
	return 0;
}
