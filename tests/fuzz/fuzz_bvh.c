/*
 * BVH node reads of the ray-intersection instructions (src/isa/
 * xs_isa_exec_bvh.c): image_bvh_intersect_ray and image_bvh64_intersect_ray
 * read a node (box16, box32, triangle) from GPU memory and test a ray
 * against it. The input is the memory and the rays; a wave of 32 lanes
 * walks the BVH from its root the way a traversal loop does (the loop in C
 * between single instructions: a box's children, one of them each step,
 * back to the root after a leaf) for STEPS node tests. The input:
 *   byte 0     the program: 0 image_bvh_intersect_ray, 1 the bvh64 form,
 *              2 the a16 form (half-precision direction and inverse)
 *   byte 1     T# flags: bit 0 box_sort_enable, bit 1
 *              triangle_return_mode (IJ); byte 2 box_grow_ulp
 *   bytes 4..  FUZZ_BVH_RAYS rays (lane l takes ray l % 8) of 11 words:
 *              node pointer (the root: 5, a box32 at offset 0), extent,
 *              origin xyz, direction xyz, inverse direction xyz (a16: 3
 *              words of packed halves for both)
 *   then       the BVH's memory, at FUZZ_BVH_VA (the T#'s base): node
 *              pointers are offsets / 8 | type into it, so the seeds are
 *              BVHs the project's writer (src/bvh) made
 * Oracle: the wave ends the walk running or with a fault (a node outside
 * memory) — never a crash, a sanitizer report or a hang.
 */
#include <string.h>

#include "bvh/xs_bvh.h"
#include "fuzz.h"
#include "fuzz_layouts.h"
#include "isa/xs_isa.h"
#include "mem/xs_vm.h"

#define LANES 32
#define NVGPR 20
#define CODE_VA 0x180000000ull
#define STEPS 64

/* llvm-mc-15 -arch=amdgcn -mcpu=gfx1030 -show-encoding of
 *   loop: image_bvh_intersect_ray v[16:19], v[0:15], s[0:3]   (bvh64: image_bvh64_intersect_ray;
 *         s_branch loop                                          a16: v[0:7] ... a16)
 */
#define S_BRANCH_BACK 0xbf82fffdu /* s_branch -3 */
static const uint32_t progs[3][3] = {
	{ 0xf1989f01u, 0x00001000u, S_BRANCH_BACK },
	{ 0xf19c9f01u, 0x00001000u, S_BRANCH_BACK },
	{ 0xf1989f01u, 0x40001000u, S_BRANCH_BACK },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < FUZZ_BVH_HDR || size > FUZZ_MAX_INPUT)
		return 0;
	unsigned form = data[0] % 3;
	const uint8_t *bvh = data + FUZZ_BVH_HDR;
	size_t n = size - FUZZ_BVH_HDR;

	xs_vm *vm = xs_vm_create();
	xs_icache *ic = xs_icache_create();
	uint32_t(*v)[XS_MAX_LANES] = calloc(NVGPR, sizeof(*v));
	xs_wave *w = calloc(1, sizeof(*w));
	uint8_t lds[64];
	xs_err e = { 0 };
	if (!vm || !ic || !v || !w || xs_vm_alloc_at(vm, CODE_VA, XS_VM_PAGE_SIZE, &e) ||
	    xs_vm_alloc_at(vm, FUZZ_BVH_VA, XS_ALIGN_UP((uint64_t)XS_MAX(n, (size_t)1), (uint64_t)XS_VM_PAGE_SIZE), &e) ||
	    !xs_vm_write(vm, CODE_VA, progs[form], sizeof(progs[form]), NULL) ||
	    (n && !xs_vm_write(vm, FUZZ_BVH_VA, bvh, n, NULL)))
		goto out;

	w->v = v;
	w->nvgpr = NVGPR;
	w->lanes = LANES;
	w->pc = CODE_VA;
	w->s[XS_SREG_EXEC_LO] = 0xffffffffu;
	w->mode = 0xf0u | XS_MODE_IEEE;
	w->lds = lds;
	w->lds_size = sizeof(lds);
	/* the BVH T#: base >> 8, box_grow_ulp [62:55], box_sort_enable [63],
	 * size - 1 the maximum, triangle_return_mode [120], type 8 [127:124] */
	w->s[0] = (uint32_t)(FUZZ_BVH_VA >> 8);
	w->s[1] = (uint32_t)((FUZZ_BVH_VA >> 40) & 0xff) | (uint32_t)data[2] << 23 | (uint32_t)(data[1] & 1) << 31;
	w->s[2] = 0xffffffffu;
	w->s[3] = 0x3ffu | (uint32_t)((data[1] >> 1) & 1) << 24 | 8u << 28;
	for (unsigned l = 0; l < LANES; l++) {
		const uint8_t *ray = data + 4 + (l % FUZZ_BVH_RAYS) * FUZZ_BVH_RAY_BYTES;
		for (unsigned k = 0; k < FUZZ_BVH_RAY_BYTES / 4; k++)
			memcpy(&v[k][l], ray + 4 * k, 4);
		if (form == 1) { /* v0:v1 the 64-bit pointer, the ray from v2 */
			for (unsigned k = FUZZ_BVH_RAY_BYTES / 4; k > 1; k--)
				v[k][l] = v[k - 1][l];
			v[1][l] = 0;
		}
	}
	xs_isa_ctx ctx = { .vm = vm, .icache = ic };
	/* The walk: one intersection a step; a lane that tested a box goes on
	 * to one of the children it returned (a different one each step),
	 * else (a triangle, nothing hit, or a leaf of another kind) starts
	 * again at the root. */
	xs_wave_status st = XS_WAVE_READY;
	for (unsigned step = 0; step < STEPS && st == XS_WAVE_READY; step++) {
		uint32_t tested[LANES];
		for (unsigned l = 0; l < LANES; l++)
			tested[l] = v[0][l];
		st = xs_isa_run(&ctx, w, 2);
		for (unsigned l = 0; l < LANES && st == XS_WAVE_READY; l++) {
			uint32_t next = XS_BVH_ROOT_PTR, t = tested[l] & 7;
			if (t == XS_BVH_NODE_BOX16 || t == XS_BVH_NODE_BOX32)
				for (unsigned k = 0; k < 4; k++) {
					uint32_t c = v[16 + (step + l + k) % 4][l];
					if (c != XS_BVH_INVALID) {
						next = c;
						break;
					}
				}
			v[0][l] = next;
			if (form == 1)
				v[1][l] = 0;
		}
	}
	FUZZ_SAY("wave: status %d%s%s", (int)st, st == XS_WAVE_FAULT ? ": " : "",
		 st == XS_WAVE_FAULT ? ctx.fault.what : "");
	FUZZ_CHECK(st == XS_WAVE_READY || st == XS_WAVE_FAULT, "wave status %d", (int)st);
out:
	xs_icache_destroy(ic);
	xs_vm_destroy(vm);
	free(v);
	free(w);
	return 0;
}
