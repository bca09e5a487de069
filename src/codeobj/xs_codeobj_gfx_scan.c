/*
 * What the entry's code says about a graphics shader, for the registers LLVM
 * leaves to the driver (SPI_VS_OUT_CONFIG, SPI_SHADER_POS_FORMAT,
 * SPI_SHADER_COL_FORMAT, SPI_PS_IN_CONTROL.NUM_INTERP, VGPR_COMP_CNT,
 * USER_SGPR): every instruction of the entry is decoded with the ISA
 * decoder (src/isa), and
 *   exp            -> pos/param/mrt masks, COMPR, MRTZ, NULL (EXP.TGT, gfx10)
 *   v_interp_*     -> the attributes read
 *   writes to EXEC before the last export -> kills (LLVM's discard)
 *   first reads of v0..v3 and of SGPRs -> input registers the shader uses.
 * The read-before-write tracking is in program order (branches are not
 * followed), so it can only over-report: an input read on one path counts.
 */
#include <string.h>

#include "codeobj/xs_codeobj_gfx_priv.h"
#include "codeobj/xs_codeobj_priv.h"
#include "isa/xs_isa.h"

typedef struct scan_state {
	uint8_t sgpr_written[106];
	uint8_t vgpr_written[4];
	uint32_t sgpr_max; /* highest SGPR read before written, + 1 */
	int vgpr_max;      /* highest of v0..v3 read before written, -1 none */
} scan_state;

/* Register count of an operand from the op's name (dwordx4, _b64, xyzw...). */
static unsigned width_of(const char *name)
{
	if (strstr(name, "x16"))
		return 16;
	if (strstr(name, "x8"))
		return 8;
	if (strstr(name, "x4") || strstr(name, "xyzw"))
		return 4;
	if (strstr(name, "x3") || strstr(name, "xyz"))
		return 3;
	if (strstr(name, "x2") || strstr(name, "_xy") || strstr(name, "64"))
		return 2;
	return 1;
}

static void read_op(scan_state *s, unsigned op, unsigned n)
{
	for (unsigned i = 0; i < n; i++, op++) {
		if (op < 106 && !s->sgpr_written[op] && op + 1 > s->sgpr_max)
			s->sgpr_max = op + 1;
		if (op >= XS_SRC_VGPR && op < XS_SRC_VGPR + 4 && !s->vgpr_written[op - XS_SRC_VGPR] &&
		    (int)(op - XS_SRC_VGPR) > s->vgpr_max)
			s->vgpr_max = (int)(op - XS_SRC_VGPR);
	}
}

static void write_op(scan_state *s, unsigned op, unsigned n)
{
	for (unsigned i = 0; i < n; i++, op++) {
		if (op < 106)
			s->sgpr_written[op] = 1;
		if (op >= XS_SRC_VGPR && op < XS_SRC_VGPR + 4)
			s->vgpr_written[op - XS_SRC_VGPR] = 1;
	}
}

/* The registers an instruction reads and then writes (enough for inputs). */
static void track(scan_state *s, const xs_inst *in)
{
	const char *nm = xs_isa_op_name(in->op);
	unsigned w = width_of(nm);
	switch ((xs_enc)in->enc) {
	case XS_ENC_SOP2: read_op(s, in->src[0], w); read_op(s, in->src[1], w); write_op(s, in->dst, w); break;
	case XS_ENC_SOPC: read_op(s, in->src[0], w); read_op(s, in->src[1], w); break;
	case XS_ENC_SOP1:
		if (strcmp(nm, "s_getpc_b64"))
			read_op(s, in->src[0], w);
		write_op(s, in->dst, w);
		break;
	case XS_ENC_SOPK:
		if (strstr(nm, "cmpk") || strstr(nm, "addk") || strstr(nm, "mulk"))
			read_op(s, in->src[0], 1);
		write_op(s, in->dst, 1);
		break;
	case XS_ENC_SOPP: break;
	case XS_ENC_SMEM:
		read_op(s, in->src[0], 2);
		if (in->src[1] != XS_SREG_NULL)
			read_op(s, in->src[1], 1);
		write_op(s, in->dst, w);
		break;
	case XS_ENC_VOP1:
	case XS_ENC_VOP2:
	case XS_ENC_VOPC:
	case XS_ENC_VOP3:
	case XS_ENC_VOP3P:
		read_op(s, in->src[0], 1);
		if (in->enc != XS_ENC_VOP1)
			read_op(s, in->src[1], 1);
		if (in->enc == XS_ENC_VOP3 || in->enc == XS_ENC_VOP3P || in->enc == XS_ENC_VOP2)
			read_op(s, in->src[2], 1);
		write_op(s, in->dst, 1);
		if (in->sdst != XS_SREG_NULL)
			write_op(s, in->sdst, 1);
		break;
	case XS_ENC_VINTRP: read_op(s, in->src[0], 1); write_op(s, in->dst, 1); break;
	case XS_ENC_MUBUF:
	case XS_ENC_MTBUF:
		if (in->mods & (XS_MOD_OFFEN | XS_MOD_IDXEN))
			read_op(s, in->src[0], (in->mods & XS_MOD_OFFEN) && (in->mods & XS_MOD_IDXEN) ? 2 : 1);
		read_op(s, in->src[1], 4);
		read_op(s, in->src[2], 1);
		if (strstr(nm, "store"))
			read_op(s, in->dst, w);
		else
			write_op(s, in->dst, w);
		break;
	case XS_ENC_MIMG:
		read_op(s, in->src[0], 1);
		read_op(s, in->src[1], 8);
		write_op(s, in->dst, 4);
		break;
	case XS_ENC_DS:
	case XS_ENC_FLAT:
	case XS_ENC_GLOBAL:
	case XS_ENC_SCRATCH:
		for (int i = 0; i < 3; i++)
			if (in->src[i] != XS_SREG_NULL)
				read_op(s, in->src[i], i == 0 && in->enc != XS_ENC_DS ? 2 : 1);
		if (!strstr(nm, "store") && !strstr(nm, "write"))
			write_op(s, in->dst, w);
		break;
	case XS_ENC_EXP:
		for (int i = 0; i < 4; i++)
			if (in->ext >> i & 1)
				read_op(s, in->src[i], 1);
		break;
	case XS_ENC_COUNT: break;
	}
}

static bool writes_exec(const xs_inst *in)
{
	switch ((xs_enc)in->enc) {
	case XS_ENC_SOP1:
	case XS_ENC_SOP2:
	case XS_ENC_SOPK:
		/* s_mov exec, exec (xs12 cc's Mesa wave64 marker) changes nothing */
		if (in->enc == XS_ENC_SOP1 && in->src[0] == in->dst && !strncmp(xs_isa_op_name(in->op), "s_mov_", 6))
			return false;
		return in->dst == XS_SREG_EXEC_LO || in->dst == XS_SREG_EXEC_HI;
	default: return false;
	}
}

bool xs_gfx_code_uses_exec64(const uint8_t *code, uint64_t size)
{
	for (uint64_t at = 0; at + 4 <= size;) {
		uint32_t words[3] = { 0 };
		size_t nw = (size_t)XS_MIN((size - at) / 4, 3);
		memcpy(words, code + at, nw * 4);
		xs_inst in;
		unsigned len = xs_isa_decode(words, nw, &in);
		if (!len)
			return false;
		const char *nm = xs_isa_op_name(in.op);
		bool salu = in.enc == XS_ENC_SOP1 || in.enc == XS_ENC_SOP2 || in.enc == XS_ENC_SOPC;
		if (salu && strstr(nm, "64") &&
		    (in.dst == XS_SREG_EXEC_LO || in.src[0] == XS_SREG_EXEC_LO || in.src[1] == XS_SREG_EXEC_LO))
			return true;
		/* Mesa's scratch V# dword3: INDEX_STRIDE (bits 22:21) 3 = 64 lanes. */
		if (salu && in.src[0] == XS_SRC_LITERAL && (in.literal & 0xfffff000u) == 0x31e16000u)
			return true;
		if (in.dst == XS_SREG_EXEC_HI || in.src[0] == XS_SREG_EXEC_HI || in.src[1] == XS_SREG_EXEC_HI)
			return true;
		at += len;
	}
	return false;
}

xs_status xs_gfx_scan(xs_gfx_shader *sh, uint64_t text_off, xs_err *e)
{
	scan_state s;
	memset(&s, 0, sizeof(s));
	s.vgpr_max = -1;
	const uint8_t *code = sh->image + sh->entry_offset;
	uint64_t size = sh->code_size, last_export = 0, last_exec_write = 0;
	bool any_exec_write = false, any_export = false;
	int max_attr = -1;
	for (uint64_t at = 0; at + 4 <= size;) {
		uint32_t words[3] = { 0 };
		size_t nw = (size_t)XS_MIN((size - at) / 4, 3);
		memcpy(words, code + at, nw * 4);
		xs_inst in;
		unsigned len = xs_isa_decode(words, nw, &in);
		if (!len || at + len > size)
			return xs_err_set(e, XS_E_INVALID_ARG,
			                  ".text+0x%llx (file offset 0x%llx, in '%s'): cannot decode instruction word "
			                  "0x%08x",
			                  (unsigned long long)(sh->entry_offset + at),
			                  (unsigned long long)(text_off + sh->entry_offset + at), sh->entry, words[0]);
		const char *nm = xs_isa_op_name(in.op);
		if (!strcmp(nm, "s_code_end"))
			break; /* padding after the code */
		track(&s, &in);
		if (writes_exec(&in)) {
			any_exec_write = true;
			last_exec_write = at;
		}
		if (in.enc == XS_ENC_EXP) {
			uint32_t tgt = in.ext >> 4 & 0x3f;
			bool compr = in.ext >> 10 & 1;
			any_export = true;
			last_export = at;
			if (sh->stage == XS_GFX_STAGE_VS) {
				if (tgt >= XS_EXP_TGT_POS0 && tgt < XS_EXP_TGT_POS0 + 4)
					sh->pos_mask |= 1u << (tgt - XS_EXP_TGT_POS0);
				else if (tgt >= XS_EXP_TGT_PARAM0 && tgt < XS_EXP_TGT_PARAM0 + 32)
					sh->param_mask |= 1u << (tgt - XS_EXP_TGT_PARAM0);
				else
					return xs_err_set(e, XS_E_INVALID_ARG,
					                  ".text+0x%llx: exp target %u is not a VS target (pos0-3, param0-31)",
					                  (unsigned long long)(sh->entry_offset + at), tgt);
			} else {
				if (tgt < 8) {
					sh->mrt_mask |= 1u << tgt;
					if (compr)
						sh->mrt_compr_mask |= 1u << tgt;
				} else if (tgt == XS_EXP_TGT_MRTZ) {
					sh->writes_z = true;
				} else if (tgt == XS_EXP_TGT_NULL) {
					sh->kills = true;
				} else {
					return xs_err_set(e, XS_E_INVALID_ARG,
					                  ".text+0x%llx: exp target %u is not a PS target (mrt0-7, mrtz, null)",
					                  (unsigned long long)(sh->entry_offset + at), tgt);
				}
			}
		}
		if (in.enc == XS_ENC_VINTRP) {
			int attr = (int)(in.ext & 0x3f);
			if (attr >= 32)
				return xs_err_set(e, XS_E_INVALID_ARG, ".text+0x%llx: v_interp attribute %d (at most 31)",
				                  (unsigned long long)(sh->entry_offset + at), attr);
			sh->interp_mask |= 1u << attr;
			if (attr > max_attr)
				max_attr = attr;
		}
		at += len;
	}
	if (sh->stage == XS_GFX_STAGE_PS && any_exec_write && any_export && last_exec_write < last_export)
		sh->kills = true;
	sh->num_interp = (uint32_t)(max_attr + 1);
	sh->user_sgprs_used = s.sgpr_max;
	if (sh->stage == XS_GFX_STAGE_VS)
		sh->vgpr_comp_cnt = s.vgpr_max == 3 ? 3 : s.vgpr_max > 0 ? (uint32_t)s.vgpr_max : 0;
	return XS_OK;
}
