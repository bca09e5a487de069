/*
 * XS_BUILD_AS (hw/xs_hw_pm4.h): the CP's acceleration-structure work, run
 * when the CP reaches the packet, from what GPU memory holds then:
 *
 *   BUILD      gathers the triangles (vertex and index buffers, the 3x4
 *              transform) or the instances (and their BLASes' headers),
 *              runs the host builder (src/bvh), writes the structure and
 *              the postbuild info
 *   COPY       CLONE or COMPACT: the source's bytes in use (node pointers
 *              are offsets, so a copy is a structure where it lands)
 *   POSTBUILD  writes a u64 per source structure
 *
 * The CP is then busy for the cost model's cycles (xs_gpu_accel_cycles).
 * A descriptor or input the builder cannot take removes the device with a
 * report; memory that is not there is the CP's page fault, as DMA_DATA's.
 */
#include "bvh/xs_bvh.h"
#include "gpu/xs_gpu_priv.h"
#include "hw/xs_hw_pm4.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PRIMS (1u << 24) /* per build: bounds the host memory a descriptor can ask for */
#define MAX_INPUT_BYTES (1ull << 32) /* per vertex buffer, for the same reason */

typedef struct ctx {
	xs_gpu *g;
	unsigned q;
	size_t dword;
	uint64_t bytes_read, bytes_written;
	xs_err *e;
} ctx;

static uint32_t rd32(const uint8_t *p, size_t off)
{
	uint32_t v;
	memcpy(&v, p + off, 4);
	return v;
}

static uint64_t rd64(const uint8_t *p, size_t off)
{
	uint64_t v;
	memcpy(&v, p + off, 8);
	return v;
}

static xs_status page_fault(ctx *c, uint64_t va, const char *what)
{
	c->g->cp_fault = (xs_fault){ .kind = XS_FAULT_VM, .addr = va };
	snprintf(c->g->cp_fault.what, sizeof(c->g->cp_fault.what), "XS_BUILD_AS %s", what);
	return xs_err_set(c->e, XS_E_DEVICE_REMOVED, "device removed: queue %u: XS_BUILD_AS at dword %zu: %s at 0x%llx, "
			  "which is not in GPU memory", c->q, c->dword, what, (unsigned long long)va);
}

XS_PRINTF(2, 3) static xs_status malformed(ctx *c, const char *fmt, ...)
{
	char why[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	c->g->cp_fault = (xs_fault){ .kind = XS_FAULT_ILLEGAL };
	snprintf(c->g->cp_fault.what, sizeof(c->g->cp_fault.what), "XS_BUILD_AS: %.140s", why);
	return xs_err_set(c->e, XS_E_DEVICE_REMOVED, "device removed: queue %u: XS_BUILD_AS at dword %zu: %s", c->q,
			  c->dword, why);
}

/* Whether [va, va + n) is GPU memory; *bad is the first byte that is not.
 * Checked before host memory is allocated for what a descriptor's counts
 * say is there: a 56-byte descriptor can declare 16 M instances, and the
 * host must not allocate for them before the GPU memory that holds them
 * is known to exist (found while writing tests/fuzz's accel target). */
static bool mapped(const ctx *c, uint64_t va, uint64_t n, uint64_t *bad)
{
	if (n && va + n < va) {
		*bad = va;
		return false;
	}
	for (uint64_t at = va; at < va + n;) {
		uint64_t end = xs_vm_first_bad(c->g->vm, at);
		if (end == at) {
			*bad = at;
			return false;
		}
		at = end;
	}
	return true;
}

/* n bytes at va into a new host buffer (NULL on a fault, reported). */
static void *fetch(ctx *c, uint64_t va, size_t n, const char *what, xs_status *st)
{
	uint64_t bad = va;
	if (!mapped(c, va, n, &bad)) {
		*st = page_fault(c, bad, what);
		return NULL;
	}
	uint8_t *p = xs_malloc(n ? n : 1);
	if (!p) {
		*st = xs_err_set(c->e, XS_E_OUT_OF_MEMORY, "XS_BUILD_AS: no host memory for %zu bytes of %s", n, what);
		return NULL;
	}
	if (n && !xs_vm_read(c->g->vm, va, p, n, &bad)) {
		free(p);
		*st = page_fault(c, bad, what);
		return NULL;
	}
	c->bytes_read += n;
	*st = XS_OK;
	return p;
}

static xs_status store(ctx *c, uint64_t va, const void *src, size_t n, const char *what)
{
	uint64_t bad = va;
	if (!xs_vm_write(c->g->vm, va, src, n, &bad))
		return page_fault(c, bad, what);
	c->bytes_written += n;
	return XS_OK;
}

/* One geometry's triangles (D3D12_RAYTRACING_GEOMETRY_TRIANGLES_DESC),
 * appended to t[*n]. Triangles with a coordinate that is not finite are
 * inactive (D3D12: NaN x marks an inactive triangle; xs12 treats every
 * non-finite coordinate so) and take no leaf; PrimitiveIndex counts them. */
/* A geometry desc's format, counts and stride. */
static xs_status check_geometry(ctx *c, const uint8_t *gd, uint32_t gi)
{
	uint32_t ifmt = rd32(gd, 4), icount = rd32(gd, 8), vcount = rd32(gd, 12);
	uint64_t stride = rd64(gd, 32);
	if (ifmt > XS_AS_INDEX_U32 || stride < 12 || stride > 0xFFFFFFFFull || (ifmt && icount % 3) ||
	    (!ifmt && vcount % 3))
		return malformed(c, "geometry %u: index format %u, %u indices, %u vertices, stride %llu", gi, ifmt, icount,
				 vcount, (unsigned long long)stride);
	return XS_OK;
}

static xs_status gather_geometry(ctx *c, const uint8_t *gd, uint32_t gi, xs_bvh_triangle *t, uint32_t *n)
{
	uint32_t flags = rd32(gd, 0), ifmt = rd32(gd, 4), icount = rd32(gd, 8), vcount = rd32(gd, 12);
	uint64_t iva = rd64(gd, 16), vva = rd64(gd, 24), stride = rd64(gd, 32), tva = rd64(gd, 40);
	uint32_t ntri = ifmt == XS_AS_INDEX_NONE ? vcount / 3 : icount / 3;
	xs_status st = check_geometry(c, gd, gi);
	if (st)
		return st;
	if (!ntri)
		return XS_OK;
	float m[12] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0 };
	if (tva) {
		float *tm = fetch(c, tva, 48, "a geometry's Transform3x4 read", &st);
		if (!tm)
			return st;
		memcpy(m, tm, 48);
		free(tm);
	}
	size_t vbytes = (size_t)(vcount - 1) * stride + 12;
	if (vcount && vbytes > MAX_INPUT_BYTES)
		return malformed(c, "geometry %u: a vertex buffer of %zu bytes (%u vertices, stride %llu): xs12 reads at "
				 "most %llu", gi, vbytes, vcount, (unsigned long long)stride, (unsigned long long)MAX_INPUT_BYTES);
	uint8_t *vb = vcount ? fetch(c, vva, vbytes, "a vertex buffer read", &st) : NULL;
	if (vcount && !vb)
		return st;
	uint8_t *ib = NULL;
	unsigned isz = ifmt == XS_AS_INDEX_U16 ? 2 : 4;
	if (ifmt && !(ib = fetch(c, iva, (size_t)icount * isz, "an index buffer read", &st))) {
		free(vb);
		return st;
	}
	for (uint32_t k = 0; k < ntri; k++) {
		xs_bvh_triangle *o = &t[*n];
		bool active = true;
		for (int v = 0; v < 3; v++) {
			uint32_t idx = 3 * k + v;
			if (ifmt == XS_AS_INDEX_U16) {
				uint16_t i16;
				memcpy(&i16, ib + 2 * (size_t)idx, 2);
				idx = i16;
			} else if (ifmt == XS_AS_INDEX_U32) {
				memcpy(&idx, ib + 4 * (size_t)idx, 4);
			}
			if (idx >= vcount) {
				free(vb);
				free(ib);
				return malformed(c, "geometry %u: triangle %u has index %u, not below VertexCount %u", gi, k,
						 idx, vcount);
			}
			float p[3];
			memcpy(p, vb + (size_t)idx * stride, 12);
			for (int r = 0; r < 3; r++) {
				o->v[v][r] = m[4 * r] * p[0] + m[4 * r + 1] * p[1] + m[4 * r + 2] * p[2] + m[4 * r + 3];
				active = active && isfinite(o->v[v][r]);
			}
		}
		o->triangle_id = k;
		o->geometry_flags = gi | (flags & 1 ? XS_BVH_GEOMETRY_OPAQUE : 0) |
				    (flags & 2 ? XS_BVH_GEOMETRY_NO_DUPLICATE_ANYHIT : 0);
		*n += active;
	}
	free(vb);
	free(ib);
	return XS_OK;
}

/* The structure's bytes: at most the descriptor's dest bytes, and no more
 * than n primitives can take. */
static uint8_t *out_buffer(ctx *c, unsigned type, uint32_t n, uint64_t cap, size_t *room, xs_status *st)
{
	*room = (size_t)XS_MIN(cap, xs_bvh_max_size(type, n));
	uint8_t *out = xs_malloc(*room ? *room : 1);
	*st = out ? XS_OK : xs_err_set(c->e, XS_E_OUT_OF_MEMORY, "XS_BUILD_AS: no host memory for %zu bytes", *room);
	return out;
}

static xs_status build_bottom(ctx *c, const uint8_t *d, uint32_t count, uint64_t cap, uint8_t **out,
			      xs_bvh_stats *bs)
{
	uint64_t total = 0;
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *gd = d + XS_AS_BUILD_BYTES + (size_t)i * XS_AS_GEOM_BYTES;
		/* every desc well formed before its counts size anything (a
		 * geometry of index format 65536 made the CP allocate 490 MB
		 * before gathering refused it: found by tests/fuzz, regress/accel) */
		xs_status st = check_geometry(c, gd, i);
		if (st)
			return st;
		total += rd32(gd, 4) == XS_AS_INDEX_NONE ? rd32(gd, 12) / 3 : rd32(gd, 8) / 3;
	}
	if (total > MAX_PRIMS)
		return malformed(c, "%llu triangles: xs12 builds at most %u", (unsigned long long)total, MAX_PRIMS);
	/* the buffers the counts need (at least 2 bytes an index, 12 a vertex)
	 * must be GPU memory before room for their triangles is allocated */
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *gd = d + XS_AS_BUILD_BYTES + (size_t)i * XS_AS_GEOM_BYTES;
		bool indexed = rd32(gd, 4) != XS_AS_INDEX_NONE;
		uint64_t va = rd64(gd, indexed ? 16 : 24), bad = va;
		uint64_t need = indexed ? 2ull * rd32(gd, 8) : 12ull * rd32(gd, 12);
		if (need && !mapped(c, va, need, &bad))
			return page_fault(c, bad, indexed ? "an index buffer read" : "a vertex buffer read");
	}
	xs_bvh_triangle *t = xs_malloc((size_t)XS_MAX(total, 1u) * sizeof(*t));
	if (!t)
		return xs_err_set(c->e, XS_E_OUT_OF_MEMORY, "XS_BUILD_AS: no host memory for %llu triangles",
				  (unsigned long long)total);
	uint32_t n = 0;
	xs_status st = XS_OK;
	for (uint32_t i = 0; i < count && !st; i++)
		st = gather_geometry(c, d + XS_AS_BUILD_BYTES + (size_t)i * XS_AS_GEOM_BYTES, i, t, &n);
	size_t room = 0;
	if (!st)
		*out = out_buffer(c, XS_BVH_TYPE_BOTTOM, n, cap, &room, &st);
	if (!st && xs_bvh_build_triangles(t, n, count, rd32(d, 4), *out, room, bs, c->e))
		st = malformed(c, "%s", c->e->msg);
	free(t);
	return st;
}

/* D3D12_RAYTRACING_INSTANCE_DESC (64 bytes): Transform[3][4], InstanceID:24
 * | InstanceMask:8, InstanceContributionToHitGroupIndex:24 | Flags:8,
 * AccelerationStructure. A null structure (or an empty one) makes the
 * instance inactive; so does a transform that is not finite. */
static xs_status build_top(ctx *c, const uint8_t *d, uint32_t count, uint64_t cap, uint8_t **out,
			   xs_bvh_stats *bs)
{
	if (count > MAX_PRIMS)
		return malformed(c, "%u instances: xs12 builds at most %u", count, MAX_PRIMS);
	uint64_t iva = rd64(d, 32);
	bool pointers = rd32(d, 12) == XS_AS_LAYOUT_POINTERS;
	if (rd32(d, 12) > XS_AS_LAYOUT_POINTERS)
		return malformed(c, "instance layout %u", rd32(d, 12));
	xs_status st;
	uint64_t *ptrs = pointers && count ? fetch(c, iva, (size_t)count * 8, "the instance pointer array read", &st) : NULL;
	if (pointers && count && !ptrs)
		return st;
	uint64_t missing = iva;
	if (!pointers && !mapped(c, iva, 64ull * count, &missing))
		return page_fault(c, missing, "an instance desc read");
	xs_bvh_instance *in = xs_malloc((size_t)XS_MAX(count, 1u) * sizeof(*in));
	if (!in) {
		free(ptrs);
		return xs_err_set(c->e, XS_E_OUT_OF_MEMORY, "XS_BUILD_AS: no host memory for %u instances", count);
	}
	uint32_t n = 0;
	st = XS_OK;
	for (uint32_t i = 0; i < count && !st; i++) {
		uint8_t desc[64], hdr[XS_BVH_HEADER_BYTES];
		uint64_t at = pointers ? ptrs[i] : iva + 64ull * i, bad = at;
		if (!xs_vm_read(c->g->vm, at, desc, 64, &bad)) {
			st = page_fault(c, bad, "an instance desc read");
			break;
		}
		c->bytes_read += 64;
		uint64_t blas = rd64(desc, 56);
		bool finite = true;
		xs_bvh_instance *o = &in[n];
		memcpy(o->otw, desc, 48);
		for (int k = 0; k < 12; k++)
			finite = finite && isfinite(o->otw[k]);
		if (!blas || !finite)
			continue;
		if (blas % 256) {
			st = malformed(c, "instance %u: AccelerationStructure 0x%llx is not 256-byte aligned", i,
				       (unsigned long long)blas);
			break;
		}
		bad = blas;
		if (!xs_vm_read(c->g->vm, blas, hdr, sizeof(hdr), &bad)) {
			st = page_fault(c, bad, "an instance's bottom-level structure read");
			break;
		}
		c->bytes_read += sizeof(hdr);
		if (rd32(hdr, XS_BVH_HDR_MAGIC) != XS_BVH_MAGIC || rd32(hdr, XS_BVH_HDR_TYPE) != XS_BVH_TYPE_BOTTOM) {
			st = malformed(c, "instance %u: 0x%llx is not a bottom-level acceleration structure", i,
				       (unsigned long long)blas);
			break;
		}
		if (!rd32(hdr, XS_BVH_HDR_PRIMS))
			continue;
		o->custom_and_mask = rd32(desc, 48);
		o->sbt_and_flags = rd32(desc, 52);
		o->instance_id = i;
		o->blas_va = blas;
		o->blas_root = rd32(hdr, XS_BVH_HDR_ROOT_OFFSET);
		memcpy(o->blas_box.lo, hdr + XS_BVH_HDR_AABB, 12);
		memcpy(o->blas_box.hi, hdr + XS_BVH_HDR_AABB + 12, 12);
		n++;
	}
	size_t room = 0;
	if (!st)
		*out = out_buffer(c, XS_BVH_TYPE_TOP, n, cap, &room, &st);
	if (!st && xs_bvh_build_instances(in, n, count, rd32(d, 4), *out, room, bs, c->e))
		st = malformed(c, "%s", c->e->msg);
	free(in);
	free(ptrs);
	return st;
}

/* The header of the structure at va (its first 128 bytes), checked. */
static xs_status read_header(ctx *c, uint64_t va, uint8_t hdr[XS_BVH_HEADER_BYTES], const char *what)
{
	uint64_t bad = va;
	if (va % 256)
		return malformed(c, "%s 0x%llx is not 256-byte aligned", what, (unsigned long long)va);
	if (!xs_vm_read(c->g->vm, va, hdr, XS_BVH_HEADER_BYTES, &bad))
		return page_fault(c, bad, what);
	c->bytes_read += XS_BVH_HEADER_BYTES;
	if (rd32(hdr, XS_BVH_HDR_MAGIC) != XS_BVH_MAGIC || rd64(hdr, XS_BVH_HDR_SIZE) < XS_BVH_HEADER_BYTES)
		return malformed(c, "%s 0x%llx holds no acceleration structure", what, (unsigned long long)va);
	return XS_OK;
}

static xs_status write_info(ctx *c, const uint8_t *entry, const uint8_t hdr[XS_BVH_HEADER_BYTES], uint64_t dst)
{
	uint32_t type = rd32(entry, 8);
	if (type > XS_AS_INFO_CURRENT_SIZE)
		return malformed(c, "postbuild info type %u", type);
	uint64_t v = rd64(hdr, type == XS_AS_INFO_COMPACTED_SIZE ? XS_BVH_HDR_COMPACTED : XS_BVH_HDR_SIZE);
	return store(c, dst, &v, 8, "a postbuild info write");
}

static xs_status op_build(ctx *c, const uint8_t *d, uint32_t bytes, xs_bvh_stats *bs)
{
	if (bytes < XS_AS_BUILD_BYTES)
		return malformed(c, "a build descriptor of %u bytes", bytes);
	uint32_t type = rd32(d, 0), count = rd32(d, 8), ninfo = rd32(d, 48);
	uint64_t dst = rd64(d, 16), cap = rd64(d, 24);
	uint64_t need = XS_AS_BUILD_BYTES + (type == XS_BVH_TYPE_BOTTOM ? (uint64_t)count * XS_AS_GEOM_BYTES : 0) +
			(uint64_t)ninfo * XS_AS_INFO_BYTES;
	if (type > XS_BVH_TYPE_TOP || need != bytes || dst % 256 || cap > (1ull << 40))
		return malformed(c, "build descriptor: type %u, %u descs, %u postbuild entries in %u bytes, dest 0x%llx "
				 "of %llu bytes", type, count, ninfo, bytes, (unsigned long long)dst,
				 (unsigned long long)cap);
	uint8_t *out = NULL;
	xs_status st = type == XS_BVH_TYPE_BOTTOM ? build_bottom(c, d, count, cap, &out, bs)
						  : build_top(c, d, count, cap, &out, bs);
	if (!st)
		st = store(c, dst, out, bs->bytes, "the acceleration structure write");
	for (uint32_t i = 0; i < ninfo && !st; i++) {
		const uint8_t *en = d + need - (uint64_t)(ninfo - i) * XS_AS_INFO_BYTES;
		st = write_info(c, en, out, rd64(en, 0));
	}
	free(out);
	return st;
}

static xs_status op_copy(ctx *c, const uint8_t *d, uint32_t bytes)
{
	/* the mode is read only from a descriptor that has one (a 1-byte
	 * descriptor was read past its end: found by tests/fuzz, regress/accel) */
	if (bytes != XS_AS_COPY_BYTES)
		return malformed(c, "a copy descriptor of %u bytes (%u)", bytes, XS_AS_COPY_BYTES);
	if (rd32(d, 0) > XS_AS_COPY_COMPACT)
		return malformed(c, "a copy descriptor of mode %u (CLONE 0 or COMPACT 1)", rd32(d, 0));
	uint64_t dst = rd64(d, 8), src = rd64(d, 16);
	uint8_t hdr[XS_BVH_HEADER_BYTES];
	xs_status st = read_header(c, src, hdr, "the copy's source");
	if (st)
		return st;
	if (dst % 256)
		return malformed(c, "the copy's destination 0x%llx is not 256-byte aligned", (unsigned long long)dst);
	/* xs12's builds are compact already: CLONE and COMPACT copy the bytes in use */
	uint64_t n = rd64(hdr, rd32(d, 0) == XS_AS_COPY_COMPACT ? XS_BVH_HDR_COMPACTED : XS_BVH_HDR_SIZE);
	if (src < dst + n && dst < src + n)
		return malformed(c, "the copy's source 0x%llx and destination 0x%llx overlap", (unsigned long long)src,
				 (unsigned long long)dst);
	uint8_t *buf = fetch(c, src, n, "the copy's source read", &st);
	if (!buf)
		return st;
	st = store(c, dst, buf, n, "the copy's destination write");
	free(buf);
	return st;
}

static xs_status op_postbuild(ctx *c, const uint8_t *d, uint32_t bytes)
{
	uint32_t n = bytes >= XS_AS_POSTBUILD_BYTES ? rd32(d, 16) : 0;
	if (bytes < XS_AS_POSTBUILD_BYTES || bytes != XS_AS_POSTBUILD_BYTES + 8ull * n)
		return malformed(c, "a postbuild descriptor of %u bytes for %u structures", bytes, n);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t hdr[XS_BVH_HEADER_BYTES];
		xs_status st = read_header(c, rd64(d, XS_AS_POSTBUILD_BYTES + 8 * (size_t)i), hdr, "a postbuild source");
		if (!st)
			st = write_info(c, d, hdr, rd64(d, 0) + 8ull * i);
		if (st)
			return st;
	}
	return XS_OK;
}

/* [model] The CP's busy time: a GPU builder's fixed cost (a few kernel
 * launches and their barriers, 4000 cycles), 32 cycles per primitive, and
 * the bytes read and written at 64 bytes a cycle. A copy or a postbuild
 * query costs 500 cycles and its bytes. Not measured on hardware. */
static uint64_t cost(unsigned op, uint32_t prims, uint64_t bytes)
{
	return (op == XS_AS_OP_BUILD ? 4000 + 32ull * prims : 500) + bytes / XS_GPU_CP_DMA_BYTES_PER_CYCLE;
}

xs_status xs_gpu_cp_build_as(xs_gpu *g, unsigned q, const xs_pm4_packet *p, uint64_t *cycles, xs_err *e)
{
	ctx c = { g, q, p->index, 0, 0, e };
	const uint32_t *b = p->body;
	unsigned op = G_XS_AS_OP(b[0]);
	uint64_t va = (uint64_t)b[1] | ((uint64_t)b[2] << 32);
	xs_status st;
	uint8_t *d = fetch(&c, va, b[3], "the descriptor read", &st);
	if (!d)
		return st;
	xs_bvh_stats bs = { 0 };
	st = op == XS_AS_OP_BUILD ? op_build(&c, d, b[3], &bs) : op == XS_AS_OP_COPY ? op_copy(&c, d, b[3])
										 : op_postbuild(&c, d, b[3]);
	free(d);
	*cycles = cost(op, bs.leaves, c.bytes_read + c.bytes_written);
	return st;
}
