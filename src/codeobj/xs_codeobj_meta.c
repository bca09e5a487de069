/*
 * NT_AMDGPU_METADATA: the msgpack map described in AMDGPUUsage "Code Object
 * V4 Metadata" / "Code Object V5 Metadata" (amdhsa.version, amdhsa.target,
 * amdhsa.kernels with per-kernel and per-argument maps).
 *
 * msgpack-c's unpacker allocates room for an array or map as soon as it reads
 * the header's element count (up to 2^32 - 1 elements of 24 bytes each), so a
 * five-byte hostile note could make it ask for ~100 GB. xs_codeobj_msgpack_check() walks
 * the encoding first and rejects any container whose count exceeds the bytes
 * left (every element takes at least one byte), which bounds what msgpack-c
 * allocates to a small multiple of the note size. The graphics loader's PAL
 * metadata (xs_codeobj_gfx_regs.c) goes through the same check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "codeobj/xs_codeobj_priv.h"

#define MAX_DEPTH 24  /* msgpack-c stops at 32; metadata nests 4 deep */

static uint64_t rd_be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* Encoding of one msgpack object header (msgpack spec "Formats"). */
typedef struct mp_head {
	unsigned hdr;       /* bytes of type byte + length field */
	unsigned lenbytes;  /* bytes of the big-endian length field (0: fixed) */
	uint64_t payload;   /* fixed payload bytes, or added to the read length */
	unsigned kids_per;  /* 1 for arrays, 2 for maps, 0 otherwise */
	bool len_is_kids;   /* the length field counts children, not bytes */
} mp_head;

static bool mp_classify(uint8_t c, mp_head *h)
{
	*h = (mp_head){.hdr = 1};
	if (c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3)
		return true;                                         /* fixint, nil, bool */
	if (c >= 0x80 && c <= 0x8f) {                            /* fixmap */
		h->payload = c & 0xf, h->kids_per = 2, h->len_is_kids = true;
		return true;
	}
	if (c >= 0x90 && c <= 0x9f) {                            /* fixarray */
		h->payload = c & 0xf, h->kids_per = 1, h->len_is_kids = true;
		return true;
	}
	if (c >= 0xa0 && c <= 0xbf) {                            /* fixstr */
		h->payload = c & 0x1f;
		return true;
	}
	switch (c) {
	case 0xc4: case 0xd9: h->lenbytes = 1; break;            /* bin8, str8 */
	case 0xc5: case 0xda: h->lenbytes = 2; break;            /* bin16, str16 */
	case 0xc6: case 0xdb: h->lenbytes = 4; break;            /* bin32, str32 */
	case 0xc7: h->lenbytes = 1, h->payload = 1; break;       /* ext8: + type */
	case 0xc8: h->lenbytes = 2, h->payload = 1; break;
	case 0xc9: h->lenbytes = 4, h->payload = 1; break;
	case 0xca: h->payload = 4; break;                        /* float32 */
	case 0xcb: h->payload = 8; break;                        /* float64 */
	case 0xcc: case 0xd0: h->payload = 1; break;             /* (u)int8 */
	case 0xcd: case 0xd1: h->payload = 2; break;
	case 0xce: case 0xd2: h->payload = 4; break;
	case 0xcf: case 0xd3: h->payload = 8; break;
	case 0xd4: h->payload = 2; break;                        /* fixext1..16: type + data */
	case 0xd5: h->payload = 3; break;
	case 0xd6: h->payload = 5; break;
	case 0xd7: h->payload = 9; break;
	case 0xd8: h->payload = 17; break;
	case 0xdc: h->lenbytes = 2, h->kids_per = 1, h->len_is_kids = true; break;  /* array16 */
	case 0xdd: h->lenbytes = 4, h->kids_per = 1, h->len_is_kids = true; break;  /* array32 */
	case 0xde: h->lenbytes = 2, h->kids_per = 2, h->len_is_kids = true; break;  /* map16 */
	case 0xdf: h->lenbytes = 4, h->kids_per = 2, h->len_is_kids = true; break;  /* map32 */
	default: return false;                                   /* 0xc1: never used */
	}
	h->hdr += h->lenbytes;
	return true;
}

/* Exactly one well-formed object filling the note (or, !whole, starting
 * it: PAL's notes may be padded), nesting at most MAX_DEPTH, no container
 * claiming more elements than bytes remain. */
xs_status xs_codeobj_msgpack_check(const uint8_t *p, size_t n, uint64_t off, bool whole, xs_err *e)
{
	uint64_t stack[MAX_DEPTH];
	unsigned depth = 0;
	uint64_t owed = 1;  /* objects still to read */
	size_t pos = 0;
	while (owed > 0) {
		if (pos >= n)
			return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
			                  "metadata note (msgpack, file offset 0x%llx): truncated: %llu more "
			                  "object(s) expected at byte %zu of %zu",
			                  (unsigned long long)off, (unsigned long long)owed, pos, n);
		mp_head h;
		if (!mp_classify(p[pos], &h))
			return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
			                  "metadata note (msgpack, file offset 0x%llx): invalid type byte 0x%02x at "
			                  "byte %zu",
			                  (unsigned long long)off, p[pos], pos);
		if (!xs_codeobj_in_bounds(pos, h.hdr, n))
			return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
			                  "metadata note (msgpack, file offset 0x%llx): object header at byte %zu "
			                  "runs past the end (%zu bytes)",
			                  (unsigned long long)off, pos, n);
		uint64_t len = h.lenbytes ? rd_be(p + pos + 1, h.lenbytes) : 0;
		uint64_t kids = 0, bytes = h.payload;
		if (h.len_is_kids)
			kids = (h.lenbytes ? len : h.payload) * h.kids_per, bytes = 0;
		else
			bytes += len;
		if (!xs_codeobj_in_bounds(pos + h.hdr, bytes, n))
			return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
			                  "metadata note (msgpack, file offset 0x%llx): object at byte %zu has %llu "
			                  "payload bytes, past the end (%zu bytes)",
			                  (unsigned long long)off, pos, (unsigned long long)bytes, n);
		size_t at = pos;
		pos += h.hdr + (size_t)bytes;
		owed--;
		if (depth > 0)
			stack[depth - 1]--;
		if (kids > 0) {
			if (depth == MAX_DEPTH)
				return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
				                  "metadata note (msgpack, file offset 0x%llx): containers nest deeper "
				                  "than %d at byte %zu",
				                  (unsigned long long)off, MAX_DEPTH, at);
			if (kids > n - pos || owed + kids > n - pos)
				return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
				                  "metadata note (msgpack, file offset 0x%llx): container at byte %zu "
				                  "claims %llu elements but only %zu bytes remain",
				                  (unsigned long long)off, at, (unsigned long long)kids, n - pos);
			stack[depth++] = kids;
			owed += kids;
		}
		while (depth > 0 && stack[depth - 1] == 0)
			depth--;
	}
	if (whole && pos != n)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "metadata note (msgpack, file offset 0x%llx): %zu trailing bytes after the "
		                  "root object (at byte %zu)",
		                  (unsigned long long)off, n - pos, pos);
	return XS_OK;
}

/* ---- the tree -------------------------------------------------------------- */

typedef struct meta_ctx {
	xs_codeobj *co;
	char *arena;            /* == co->strings */
	size_t used, cap;
	uint64_t off;
	char where[200];        /* "kernel 0 'vadd'" or "kernel 0 'vadd' arg 3" */
	xs_err *e;
} meta_ctx;

static xs_status meta_bad(meta_ctx *c, const char *fmt, ...) XS_PRINTF(2, 3);
static xs_status meta_bad(meta_ctx *c, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return xs_err_set(c->e, XS_E_BAD_CODE_OBJECT, "metadata note (file offset 0x%llx): %s%s%s",
	                  (unsigned long long)c->off, c->where, c->where[0] ? ": " : "", msg);
}

static const char *type_name(msgpack_object_type t)
{
	switch (t) {
	case MSGPACK_OBJECT_NIL: return "nil";
	case MSGPACK_OBJECT_BOOLEAN: return "boolean";
	case MSGPACK_OBJECT_POSITIVE_INTEGER: return "integer";
	case MSGPACK_OBJECT_NEGATIVE_INTEGER: return "negative integer";
	case MSGPACK_OBJECT_FLOAT32: case MSGPACK_OBJECT_FLOAT64: return "float";
	case MSGPACK_OBJECT_STR: return "string";
	case MSGPACK_OBJECT_ARRAY: return "array";
	case MSGPACK_OBJECT_MAP: return "map";
	case MSGPACK_OBJECT_BIN: return "binary";
	case MSGPACK_OBJECT_EXT: return "ext";
	}
	return "?";
}

static const msgpack_object *map_get(const msgpack_object *m, const char *key)
{
	size_t n = strlen(key);
	for (uint32_t i = 0; i < m->via.map.size; i++) {
		const msgpack_object *k = &m->via.map.ptr[i].key;
		if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
		    memcmp(k->via.str.ptr, key, n) == 0)
			return &m->via.map.ptr[i].val;
	}
	return NULL;
}

/* Copies a msgpack string into the arena (NUL-terminated). */
static xs_status copy_str(meta_ctx *c, const msgpack_object *v, const char *key, const char **out)
{
	uint32_t n = v->via.str.size;
	if (n > XS_CODEOBJ_MAX_STRING)
		return meta_bad(c, "%s is %u bytes long (limit %d)", key, n, XS_CODEOBJ_MAX_STRING);
	if (memchr(v->via.str.ptr, 0, n))
		return meta_bad(c, "%s contains a NUL byte", key);
	/* cannot fail: every string is copied once and the arena holds twice
	 * the note's bytes; checked anyway */
	if (n + 1 > c->cap - c->used)
		return meta_bad(c, "%s: out of string storage", key);
	char *dst = c->arena + c->used;
	memcpy(dst, v->via.str.ptr, n);
	dst[n] = 0;
	c->used += n + 1;
	*out = dst;
	return XS_OK;
}

static xs_status get_str(meta_ctx *c, const msgpack_object *m, const char *key, bool required,
                         const char **out)
{
	const msgpack_object *v = map_get(m, key);
	*out = "";
	if (!v)
		return required ? meta_bad(c, "%s is missing", key) : XS_OK;
	if (v->type != MSGPACK_OBJECT_STR)
		return meta_bad(c, "%s is a %s, not a string", key, type_name(v->type));
	return copy_str(c, v, key, out);
}

static xs_status get_u32(meta_ctx *c, const msgpack_object *m, const char *key, bool required,
                         uint32_t *out)
{
	const msgpack_object *v = map_get(m, key);
	*out = 0;
	if (!v)
		return required ? meta_bad(c, "%s is missing", key) : XS_OK;
	if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
		return meta_bad(c, "%s is a %s, not an unsigned integer", key, type_name(v->type));
	if (v->via.u64 > UINT32_MAX)
		return meta_bad(c, "%s = %llu does not fit in 32 bits", key, (unsigned long long)v->via.u64);
	*out = (uint32_t)v->via.u64;
	return XS_OK;
}

static xs_status get_bool(meta_ctx *c, const msgpack_object *m, const char *key, bool *out)
{
	const msgpack_object *v = map_get(m, key);
	*out = false;
	if (!v)
		return XS_OK;
	if (v->type != MSGPACK_OBJECT_BOOLEAN)
		return meta_bad(c, "%s is a %s, not a boolean", key, type_name(v->type));
	*out = v->via.boolean;
	return XS_OK;
}

#define TRY(x)                          \
	do {                                \
		xs_status s_ = (x);             \
		if (s_ != XS_OK)                \
			return s_;                  \
	} while (0)

/* AMDGPUUsage "Code Object V3 Metadata", table "AMDHSA Code Object V3
 * Kernel Argument Metadata Map" (unchanged in v4/v5). */
static xs_arg_kind arg_kind(const char *vk)
{
	if (strcmp(vk, "by_value") == 0)
		return XS_ARG_BY_VALUE;
	if (strcmp(vk, "global_buffer") == 0)
		return XS_ARG_GLOBAL_BUFFER;
	if (strcmp(vk, "dynamic_shared_pointer") == 0)
		return XS_ARG_DYNAMIC_SHARED_POINTER;
	if (strncmp(vk, "hidden_", 7) == 0)
		return XS_ARG_HIDDEN;
	return XS_ARG_OTHER;
}

static xs_codeobj_hidden hidden_kind(const char *vk)
{
	static const struct { const char *name; xs_codeobj_hidden h; } t[] = {
		{ "hidden_block_count_x", XS_HIDDEN_BLOCK_COUNT_X }, { "hidden_block_count_y", XS_HIDDEN_BLOCK_COUNT_Y },
		{ "hidden_block_count_z", XS_HIDDEN_BLOCK_COUNT_Z }, { "hidden_group_size_x", XS_HIDDEN_GROUP_SIZE_X },
		{ "hidden_group_size_y", XS_HIDDEN_GROUP_SIZE_Y }, { "hidden_group_size_z", XS_HIDDEN_GROUP_SIZE_Z },
		{ "hidden_remainder_x", XS_HIDDEN_REMAINDER_X }, { "hidden_remainder_y", XS_HIDDEN_REMAINDER_Y },
		{ "hidden_remainder_z", XS_HIDDEN_REMAINDER_Z }, { "hidden_global_offset_x", XS_HIDDEN_GLOBAL_OFFSET_X },
		{ "hidden_global_offset_y", XS_HIDDEN_GLOBAL_OFFSET_Y }, { "hidden_global_offset_z", XS_HIDDEN_GLOBAL_OFFSET_Z },
		{ "hidden_grid_dims", XS_HIDDEN_GRID_DIMS }, { "hidden_queue_ptr", XS_HIDDEN_QUEUE_PTR },
		{ "hidden_dynamic_lds_size", XS_HIDDEN_DYNAMIC_LDS_SIZE }, { "hidden_private_base", XS_HIDDEN_PRIVATE_BASE },
		{ "hidden_shared_base", XS_HIDDEN_SHARED_BASE },
	};
	if (strncmp(vk, "hidden_", 7) != 0)
		return XS_HIDDEN_NOT;
	for (size_t i = 0; i < XS_ARRAY_SIZE(t); i++)
		if (strcmp(vk, t[i].name) == 0)
			return t[i].h;
	return XS_HIDDEN_OTHER;
}

static xs_status parse_arg(meta_ctx *c, const msgpack_object *m, xs_codeobj_kernel *k, uint32_t i)
{
	xs_kernel_arg *a = &k->args[i];
	if (m->type != MSGPACK_OBJECT_MAP)
		return meta_bad(c, "is a %s, not a map", type_name(m->type));
	TRY(get_str(c, m, ".name", false, &a->name));
	TRY(get_str(c, m, ".type_name", false, &a->type_name));
	TRY(get_str(c, m, ".value_kind", true, &a->value_kind));
	TRY(get_str(c, m, ".address_space", false, &k->arg_address_space[i]));
	TRY(get_u32(c, m, ".offset", true, &a->offset));
	TRY(get_u32(c, m, ".size", true, &a->size));
	a->kind = arg_kind(a->value_kind);
	k->arg_hidden[i] = (uint8_t)hidden_kind(a->value_kind);
	bool is_const;
	TRY(get_bool(c, m, ".is_const", &is_const));
	k->arg_const[i] = is_const;
	if (k->arg_hidden[i] != XS_HIDDEN_NOT && k->arg_hidden[i] != XS_HIDDEN_OTHER && a->size > 8)
		return meta_bad(c, "%s of %u bytes: at most 8", a->value_kind, a->size);
	if ((uint64_t)a->offset + a->size > k->info.kernarg_size)
		return meta_bad(c, ".offset %u + .size %u is beyond .kernarg_segment_size %u", a->offset,
		                a->size, k->info.kernarg_size);
	return XS_OK;
}

/* AMDGPUUsage table "AMDHSA Code Object V3 Kernel Metadata Map" (v4/v5). */
static xs_status parse_kernel(meta_ctx *c, const msgpack_object *m, uint32_t idx)
{
	xs_codeobj_kernel *k = &c->co->kernels[idx];
	xs_kernel_info *ki = &k->info;
	snprintf(c->where, sizeof(c->where), "amdhsa.kernels[%u]", idx);
	if (m->type != MSGPACK_OBJECT_MAP)
		return meta_bad(c, "is a %s, not a map", type_name(m->type));
	TRY(get_str(c, m, ".name", true, &ki->name));
	snprintf(c->where, sizeof(c->where), "kernel %u '%.100s'", idx, ki->name);
	TRY(get_str(c, m, ".symbol", true, &k->symbol));
	TRY(get_u32(c, m, ".group_segment_fixed_size", true, &ki->group_segment_fixed_size));
	TRY(get_u32(c, m, ".private_segment_fixed_size", true, &ki->private_segment_fixed_size));
	TRY(get_u32(c, m, ".kernarg_segment_size", true, &ki->kernarg_size));
	TRY(get_u32(c, m, ".kernarg_segment_align", true, &k->kernarg_segment_align));
	TRY(get_u32(c, m, ".wavefront_size", true, &ki->wavefront_size));
	TRY(get_u32(c, m, ".sgpr_count", true, &ki->sgpr_count));
	TRY(get_u32(c, m, ".vgpr_count", true, &ki->vgpr_count));
	TRY(get_u32(c, m, ".max_flat_workgroup_size", true, &ki->max_flat_workgroup_size));
	TRY(get_bool(c, m, ".uses_dynamic_stack", &ki->uses_dynamic_stack));
	/* OpenCL's reqd_work_group_size (the counterpart of HLSL's [numthreads]) */
	const msgpack_object *reqd = map_get(m, ".reqd_workgroup_size");
	if (reqd) {
		if (reqd->type != MSGPACK_OBJECT_ARRAY || reqd->via.array.size != 3)
			return meta_bad(c, ".reqd_workgroup_size is not an array of 3 integers");
		for (int i = 0; i < 3; i++) {
			const msgpack_object *v = &reqd->via.array.ptr[i];
			if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER || v->via.u64 == 0 || v->via.u64 > 0xffff)
				return meta_bad(c, ".reqd_workgroup_size[%d] is not 1..65535", i);
			k->reqd_workgroup_size[i] = (uint32_t)v->via.u64;
		}
	}
	if (ki->wavefront_size != 32 && ki->wavefront_size != 64)
		return meta_bad(c, ".wavefront_size %u is neither 32 nor 64", ki->wavefront_size);
	if (ki->kernarg_size > XS_CODEOBJ_MAX_KERNARG)
		return meta_bad(c, ".kernarg_segment_size %u is over %u bytes (4 KiB of explicit arguments, the HIP and "
		                "CUDA limit, plus 256 of hidden ones)", ki->kernarg_size, XS_CODEOBJ_MAX_KERNARG);
	if (!XS_IS_POW2(k->kernarg_segment_align))
		return meta_bad(c, ".kernarg_segment_align %u is not a power of two",
		                k->kernarg_segment_align);

	const msgpack_object *args = map_get(m, ".args");
	if (!args)
		return XS_OK;  /* optional: a kernel without arguments */
	if (args->type != MSGPACK_OBJECT_ARRAY)
		return meta_bad(c, ".args is a %s, not an array", type_name(args->type));
	uint32_t n = args->via.array.size;
	if (n > XS_CODEOBJ_MAX_ARGS)
		return meta_bad(c, ".args has %u entries (limit %d)", n, XS_CODEOBJ_MAX_ARGS);
	if (n == 0)
		return XS_OK;
	k->args = xs_calloc(n, sizeof(*k->args));
	k->arg_address_space = xs_calloc(n, sizeof(*k->arg_address_space));
	k->arg_hidden = xs_calloc(n, 1);
	k->arg_const = xs_calloc(n, 1);
	if (!k->args || !k->arg_address_space || !k->arg_hidden || !k->arg_const)
		return xs_err_set(c->e, XS_E_OUT_OF_MEMORY, "out of memory for %u kernel arguments", n);
	ki->args = k->args;
	ki->num_args = n;
	char kwhere[sizeof(c->where)];
	memcpy(kwhere, c->where, sizeof(kwhere));
	for (uint32_t i = 0; i < n; i++) {
		snprintf(c->where, sizeof(c->where), "%s .args[%u]", kwhere, i);
		TRY(parse_arg(c, &args->via.array.ptr[i], k, i));
	}
	return XS_OK;
}

static xs_status parse_root(meta_ctx *c, const msgpack_object *root)
{
	xs_codeobj *co = c->co;
	if (root->type != MSGPACK_OBJECT_MAP)
		return meta_bad(c, "the root is a %s, not a map", type_name(root->type));

	const msgpack_object *ver = map_get(root, "amdhsa.version");
	if (!ver || ver->type != MSGPACK_OBJECT_ARRAY || ver->via.array.size < 2 ||
	    ver->via.array.ptr[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    ver->via.array.ptr[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER)
		return meta_bad(c, "amdhsa.version is missing or not [major, minor]");
	/* v3/v4 metadata is 1.0/1.1, v5 is 1.2; a new major breaks the format */
	if (ver->via.array.ptr[0].via.u64 != 1)
		return xs_err_set(c->e, XS_E_UNSUPPORTED,
		                  "metadata note (file offset 0x%llx): amdhsa.version %llu.%llu; xs12 reads "
		                  "major version 1",
		                  (unsigned long long)c->off,
		                  (unsigned long long)ver->via.array.ptr[0].via.u64,
		                  (unsigned long long)ver->via.array.ptr[1].via.u64);

	const char *target;
	TRY(get_str(c, root, "amdhsa.target", true, &target));
	if (strlen(target) >= sizeof(co->target))
		return meta_bad(c, "amdhsa.target is %zu bytes long (limit %zu)", strlen(target),
		                sizeof(co->target) - 1);
	snprintf(co->target, sizeof(co->target), "%s", target);

	const msgpack_object *ks = map_get(root, "amdhsa.kernels");
	if (!ks)
		return meta_bad(c, "amdhsa.kernels is missing");
	if (ks->type != MSGPACK_OBJECT_ARRAY)
		return meta_bad(c, "amdhsa.kernels is a %s, not an array", type_name(ks->type));
	uint32_t n = ks->via.array.size;
	if (n > XS_CODEOBJ_MAX_KERNELS)
		return meta_bad(c, "amdhsa.kernels has %u entries (limit %d)", n, XS_CODEOBJ_MAX_KERNELS);
	co->kernels = xs_calloc(n ? n : 1, sizeof(*co->kernels));
	if (!co->kernels)
		return xs_err_set(c->e, XS_E_OUT_OF_MEMORY, "out of memory for %u kernels", n);
	for (uint32_t i = 0; i < n; i++) {
		co->nkernels = i + 1;  /* so xs_codeobj_free sees what was allocated */
		TRY(parse_kernel(c, &ks->via.array.ptr[i], i));
		for (uint32_t j = 0; j < i; j++)
			if (strcmp(co->kernels[j].info.name, co->kernels[i].info.name) == 0)
				return meta_bad(c, ".name is also the name of kernel %u", j);
	}
	co->nkernels = n;
	return XS_OK;
}

xs_status xs_codeobj_meta_parse(const uint8_t *meta, size_t size, uint64_t meta_off, xs_codeobj *co,
                                xs_err *e)
{
	if (size == 0)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "metadata note (file offset 0x%llx) is empty", (unsigned long long)meta_off);
	TRY(xs_codeobj_msgpack_check(meta, size, meta_off, true, e));

	meta_ctx c = {.co = co, .off = meta_off, .e = e};
	c.cap = 2 * size + 64;
	co->strings = c.arena = xs_malloc(c.cap);
	if (!co->strings)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "out of memory for %zu bytes of names", c.cap);

	msgpack_unpacked u;
	msgpack_unpacked_init(&u);
	size_t off = 0;
	msgpack_unpack_return r = msgpack_unpack_next(&u, (const char *)meta, size, &off);
	xs_status s;
	if (r != MSGPACK_UNPACK_SUCCESS)
		s = xs_err_set(e, r == MSGPACK_UNPACK_NOMEM_ERROR ? XS_E_OUT_OF_MEMORY : XS_E_BAD_CODE_OBJECT,
		               "metadata note (file offset 0x%llx): msgpack-c cannot unpack it (code %d)",
		               (unsigned long long)meta_off, (int)r);
	else
		s = parse_root(&c, &u.data);
	msgpack_unpacked_destroy(&u);
	return s;
}
