/*
 * The depth test (DB): DB_DEPTH_CONTROL.ZFUNC against a linear
 * Z_32_FLOAT buffer [model: xs12's depth buffers are linear, row pitch
 * xs_hw_linear_pitch], used early by the rasterizer and late by the CB.
 */
#include "gpu/xs_gpu_gfx.h"

#include <math.h>
#include <string.h>

float xs_gfx_depth_clamp(const xs_gfx_state *s, float z)
{
	/* fmaxf/fminf also turn a NaN depth into zmin */
	return fminf(fmaxf(z, s->zmin), s->zmax);
}

bool xs_gfx_depth_compare(uint32_t zfunc, float z, float d)
{
	switch (zfunc) {
	case V_028800_FRAG_NEVER: return false;
	case V_028800_FRAG_LESS: return z < d;
	case V_028800_FRAG_EQUAL: return z == d;
	case V_028800_FRAG_LEQUAL: return z <= d;
	case V_028800_FRAG_GREATER: return z > d;
	case V_028800_FRAG_NOTEQUAL: return z != d;
	case V_028800_FRAG_GEQUAL: return z >= d;
	default: return true; /* FRAG_ALWAYS */
	}
}

bool xs_gfx_depth_test(const xs_gfx_state *s, xs_vm *vm, int32_t x, int32_t y, float z)
{
	if (!s->z_enable)
		return true;
	if (x < 0 || y < 0 || (uint32_t)x >= s->z_width || (uint32_t)y >= s->z_height)
		return true;
	uint64_t va = s->z_va + (uint64_t)y * s->z_pitch + (uint64_t)x * 4;
	uint8_t *p = xs_vm_ptr_n(vm, va, 4, s->z_write);
	if (!p)
		return true; /* no memory there: nothing to test against (the D3D12 layer checks placements) */
	float d;
	memcpy(&d, p, 4);
	if (!xs_gfx_depth_compare(s->zfunc, z, d))
		return false;
	if (s->z_write)
		memcpy(p, &z, 4);
	return true;
}
