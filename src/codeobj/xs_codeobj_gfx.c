/*
 * Graphics shaders: the ELF REL object llc-15 writes for amdgcn--amdpal or
 * amdgcn-mesa-mesa3d (see xs_codeobj_gfx.h). This file reads the header,
 * sections and symbols by hand with bounds checks (System V gABI ELF64
 * layouts), builds the code image (.text, then .rodata 256-byte aligned) and
 * applies the R_AMDGPU_REL32_LO/HI relocations; registers and the code scan
 * are in xs_codeobj_gfx_regs.c and xs_codeobj_gfx_scan.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj/xs_codeobj_gfx_priv.h"
#include "codeobj/xs_codeobj_priv.h"
#include "hw/xs_hw_regs.h"

#define SHT_PROGBITS_ 1
#define SHT_SYMTAB_ 2
#define SHT_STRTAB_ 3
#define SHT_RELA_ 4
#define SHT_NOTE_ 7
#define SHT_NOBITS_ 8
#define SHT_REL_ 9
#define STT_FUNC_ 2
#define STB_GLOBAL_ 1
#define STB_WEAK_ 2
#define ET_REL_ 1

typedef struct gsec {
	const char *name;
	uint32_t type, link, info;
	uint64_t off, size, entsize;
} gsec;

typedef struct gelf {
	const uint8_t *img;
	size_t size;
	gsec *sec;
	size_t shnum;
	size_t text, rodata, symtab, note, config; /* section indices, 0 = none */
} gelf;

static bool sniff_header(const uint8_t *p, size_t size)
{
	return size >= 64 && !memcmp(p, "\177ELF", 4) && xs_codeobj_rd16(p + 18) == XS_EM_AMDGPU &&
	       (p[7] == XS_ELFOSABI_AMDGPU_PAL || p[7] == XS_ELFOSABI_AMDGPU_MESA3D);
}

bool xs_gfx_shader_sniff(const void *data, size_t size)
{
	return data && sniff_header(data, size);
}

static xs_status check_header(const uint8_t *p, size_t size, xs_gfx_shader *sh, xs_err *e)
{
	if (size < 64 || memcmp(p, "\177ELF", 4))
		return xs_err_set(e, XS_E_INVALID_ARG, "not an ELF file (%zu bytes, no \\177ELF magic at byte 0)", size);
	if (p[4] != 2 || p[5] != 1)
		return xs_err_set(e, XS_E_INVALID_ARG, "ELF byte 4/5 (class %u, data %u): expected ELF64 little-endian",
		                  p[4], p[5]);
	if (xs_codeobj_rd16(p + 18) != XS_EM_AMDGPU)
		return xs_err_set(e, XS_E_INVALID_ARG, "e_machine %u (byte 18): not an AMDGPU object (EM_AMDGPU %u)",
		                  xs_codeobj_rd16(p + 18), XS_EM_AMDGPU);
	if (p[7] == XS_ELFOSABI_AMDGPU_HSA)
		return xs_err_set(e, XS_E_INVALID_ARG,
		                  "EI_OSABI 64 (AMDGPU_HSA, byte 7): a compute code object: load it as a compute "
		                  "pipeline");
	if (p[7] == XS_ELFOSABI_AMDGPU_PAL)
		sh->abi = XS_GFX_ABI_PAL;
	else if (p[7] == XS_ELFOSABI_AMDGPU_MESA3D)
		sh->abi = XS_GFX_ABI_MESA;
	else
		return xs_err_set(e, XS_E_INVALID_ARG,
		                  "EI_OSABI %u (byte 7): expected 65 (AMDGPU_PAL) or 66 (AMDGPU_MESA3D) for a "
		                  "graphics shader",
		                  p[7]);
	if (xs_codeobj_rd16(p + 16) != ET_REL_)
		return xs_err_set(e, XS_E_INVALID_ARG,
		                  "e_type %u (byte 16): expected ET_REL (1), the relocatable object llc -filetype=obj "
		                  "writes",
		                  xs_codeobj_rd16(p + 16));
	uint32_t flags = xs_codeobj_rd32(p + 48);
	const char *mach = xs_codeobj_mach_name(flags & XS_EF_AMDGPU_MACH);
	if (!mach || !xs_codeobj_is_gfx103(mach))
		return xs_err_set(e, XS_E_INVALID_ARG,
		                  "e_flags 0x%x (byte 48): the shader is for %s; xs12 runs gfx10.3 (gfx1030-gfx1036)",
		                  flags, mach ? mach : "an unknown processor");
	return XS_OK;
}

static xs_status read_sections(gelf *g, xs_err *e)
{
	const uint8_t *p = g->img;
	xs_status st = xs_codeobj_elf_check_layout(p, g->size, e);
	if (st) {
		char msg[sizeof(e->msg)];
		snprintf(msg, sizeof(msg), "%s", e->msg);
		return xs_err_set(e, XS_E_INVALID_ARG, "%s", msg); /* the same kind as every gfx error */
	}
	uint64_t shoff = xs_codeobj_rd64(p + 40);
	g->shnum = xs_codeobj_rd16(p + 60);
	size_t shstr = xs_codeobj_rd16(p + 62);
	if (!g->shnum || !shstr || shstr >= g->shnum)
		return xs_err_set(e, XS_E_INVALID_ARG, "e_shnum %zu / e_shstrndx %zu (bytes 60/62): no section table",
		                  g->shnum, shstr);
	g->sec = xs_calloc(g->shnum, sizeof(*g->sec));
	if (!g->sec)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "out of memory");
	for (size_t i = 0; i < g->shnum; i++) {
		const uint8_t *h = p + shoff + i * 64;
		gsec *s = &g->sec[i];
		s->type = xs_codeobj_rd32(h + 4);
		s->off = xs_codeobj_rd64(h + 24);
		s->size = xs_codeobj_rd64(h + 32);
		s->link = xs_codeobj_rd32(h + 40);
		s->info = xs_codeobj_rd32(h + 44);
		s->entsize = xs_codeobj_rd64(h + 56);
		if (s->type != SHT_NOBITS_ && i && !xs_codeobj_in_bounds(s->off, s->size, g->size))
			return xs_err_set(e, XS_E_INVALID_ARG,
			                  "section %zu: sh_offset 0x%llx + sh_size 0x%llx is past the end of the file "
			                  "(%zu bytes)",
			                  i, (unsigned long long)s->off, (unsigned long long)s->size, g->size);
	}
	const gsec *ss = &g->sec[shstr];
	/* the bounds check above spares SHT_NOBITS sections (they have no
	 * bytes), so the name table's own type is checked: a NOBITS .shstrtab
	 * with an offset past the file was read by memchr (found by tests/fuzz,
	 * regress/codeobj) */
	if (ss->type == SHT_NOBITS_ || !xs_codeobj_in_bounds(ss->off, ss->size, g->size))
		return xs_err_set(e, XS_E_INVALID_ARG,
		                  "section %zu (e_shstrndx, the section name table): type %u, sh_offset 0x%llx + sh_size "
		                  "0x%llx is not a string table in the file (%zu bytes)",
		                  shstr, ss->type, (unsigned long long)ss->off, (unsigned long long)ss->size, g->size);
	for (size_t i = 0; i < g->shnum; i++) {
		uint32_t no = xs_codeobj_rd32(p + shoff + i * 64);
		const char *nm = NULL;
		if (no < ss->size) {
			nm = (const char *)p + ss->off + no;
			if (!memchr(nm, 0, ss->size - no))
				nm = NULL;
		}
		if (!nm)
			return xs_err_set(e, XS_E_INVALID_ARG, "section %zu: sh_name %u is outside .shstrtab", i, no);
		g->sec[i].name = nm;
		if (!strcmp(nm, ".text"))
			g->text = i;
		else if (!strcmp(nm, ".rodata"))
			g->rodata = i;
		else if (g->sec[i].type == SHT_SYMTAB_)
			g->symtab = i;
		else if (g->sec[i].type == SHT_NOTE_ && !g->note)
			g->note = i;
		else if (!strcmp(nm, ".AMDGPU.config"))
			g->config = i;
	}
	if (!g->text || !g->sec[g->text].size)
		return xs_err_set(e, XS_E_INVALID_ARG, "no .text section (or an empty one): no shader code");
	/* found by name, read as bytes: not SHT_NOBITS, whose offset and size
	 * the bounds check spared */
	if (g->sec[g->text].type == SHT_NOBITS_ || (g->config && g->sec[g->config].type == SHT_NOBITS_))
		return xs_err_set(e, XS_E_INVALID_ARG, "section %zu (%s) is SHT_NOBITS: it has no bytes in the file",
		                  g->sec[g->text].type == SHT_NOBITS_ ? g->text : g->config,
		                  g->sec[g->text].type == SHT_NOBITS_ ? ".text" : ".AMDGPU.config");
	if (!g->symtab)
		return xs_err_set(e, XS_E_INVALID_ARG, "no .symtab section: the entry symbol cannot be found");
	const gsec *sy = &g->sec[g->symtab];
	if (sy->link >= g->shnum || g->sec[sy->link].type != SHT_STRTAB_)
		return xs_err_set(e, XS_E_INVALID_ARG, ".symtab: sh_link %u is not a string table", sy->link);
	if (sy->size % 24)
		return xs_err_set(e, XS_E_INVALID_ARG, ".symtab: sh_size %llu is not a multiple of 24",
		                  (unsigned long long)sy->size);
	return XS_OK;
}

typedef struct gsym {
	const char *name;
	uint64_t value, size;
	uint16_t shndx;
	uint8_t type, bind;
} gsym;

static xs_status get_sym(const gelf *g, size_t i, gsym *out, xs_err *e)
{
	const gsec *sy = &g->sec[g->symtab], *st = &g->sec[sy->link];
	if (i >= sy->size / 24)
		return xs_err_set(e, XS_E_INVALID_ARG, ".symtab: symbol index %zu is out of range (%llu symbols)", i,
		                  (unsigned long long)(sy->size / 24));
	const uint8_t *s = g->img + sy->off + i * 24;
	uint32_t no = xs_codeobj_rd32(s);
	if (no >= st->size || !memchr(g->img + st->off + no, 0, st->size - no))
		return xs_err_set(e, XS_E_INVALID_ARG, ".symtab: symbol %zu: st_name %u is outside its string table", i,
		                  no);
	out->name = (const char *)g->img + st->off + no;
	out->type = s[4] & 0xf;
	out->bind = s[4] >> 4;
	out->shndx = xs_codeobj_rd16(s + 6);
	out->value = xs_codeobj_rd64(s + 8);
	out->size = xs_codeobj_rd64(s + 16);
	return XS_OK;
}

static xs_status find_entry(const gelf *g, const char *want, xs_gfx_shader *sh, xs_err *e)
{
	size_t n = g->sec[g->symtab].size / 24, found = 0;
	gsym best = { 0 };
	char names[256] = "";
	for (size_t i = 1; i < n; i++) {
		gsym s;
		xs_status st = get_sym(g, i, &s, e);
		if (st)
			return st;
		if (s.type != STT_FUNC_ || (s.bind != STB_GLOBAL_ && s.bind != STB_WEAK_) || s.shndx != g->text)
			continue;
		if (want && strcmp(want, s.name))
			continue;
		if (found++ == 0)
			best = s;
		size_t l = strlen(names);
		snprintf(names + l, sizeof(names) - l, "%s'%s'", l ? ", " : "", s.name);
	}
	if (!found)
		return want ? xs_err_set(e, XS_E_INVALID_ARG, ".symtab: no function '%s' in .text", want)
		            : xs_err_set(e, XS_E_INVALID_ARG, ".symtab: no global function in .text (no shader entry)");
	if (found > 1)
		return xs_err_set(e, XS_E_INVALID_ARG, ".symtab: several entries (%s): name the one to load", names);
	const gsec *t = &g->sec[g->text];
	uint64_t size = best.size ? best.size : t->size - XS_MIN(best.value, t->size);
	if (!xs_codeobj_in_bounds(best.value, size, t->size) || !size)
		return xs_err_set(e, XS_E_INVALID_ARG,
		                  ".symtab: '%s' at .text+0x%llx size 0x%llx is outside .text (0x%llx bytes)", best.name,
		                  (unsigned long long)best.value, (unsigned long long)size,
		                  (unsigned long long)t->size);
	if (strlen(best.name) >= sizeof(sh->entry))
		return xs_err_set(e, XS_E_INVALID_ARG, ".symtab: entry name '%.40s...' is longer than %zu bytes", best.name,
		                  sizeof(sh->entry) - 1);
	snprintf(sh->entry, sizeof(sh->entry), "%s", best.name);
	sh->entry_offset = best.value;
	sh->code_size = size;
	return XS_OK;
}

/* Image offset of section index i (only .text and .rodata are in the image). */
static bool image_base(const gelf *g, size_t i, uint64_t rodata_off, uint64_t *out)
{
	if (i && i == g->text)
		*out = 0;
	else if (i && i == g->rodata)
		*out = rodata_off;
	else
		return false;
	return true;
}

static xs_status apply_relocs(const gelf *g, xs_gfx_shader *sh, uint64_t rodata_off, xs_err *e)
{
	for (size_t r = 1; r < g->shnum; r++) {
		const gsec *rs = &g->sec[r];
		if (rs->type != SHT_REL_ && rs->type != SHT_RELA_)
			continue;
		uint64_t tbase;
		if (!image_base(g, rs->info, rodata_off, &tbase))
			continue; /* relocations of sections not loaded (debug info) */
		size_t esz = rs->type == SHT_REL_ ? 16 : 24;
		if (rs->size % esz)
			return xs_err_set(e, XS_E_INVALID_ARG, "%s: sh_size %llu is not a multiple of %zu", rs->name,
			                  (unsigned long long)rs->size, esz);
		if (rs->link != g->symtab)
			return xs_err_set(e, XS_E_INVALID_ARG, "%s: sh_link %u is not .symtab", rs->name, rs->link);
		uint64_t tsize = g->sec[rs->info].size;
		for (uint64_t k = 0; k < rs->size / esz; k++) {
			const uint8_t *q = g->img + rs->off + k * esz;
			uint64_t off = xs_codeobj_rd64(q), info = xs_codeobj_rd64(q + 8);
			uint32_t type = (uint32_t)info, symi = (uint32_t)(info >> 32);
			if (type == XS_R_AMDGPU_NONE)
				continue;
			if (type != XS_R_AMDGPU_REL32_LO && type != XS_R_AMDGPU_REL32_HI)
				return xs_err_set(e, XS_E_INVALID_ARG,
				                  "%s entry %llu: relocation type %u is not R_AMDGPU_REL32_LO/HI (10/11), "
				                  "the only ones a graphics shader has",
				                  rs->name, (unsigned long long)k, type);
			if (!xs_codeobj_in_bounds(off, 4, tsize))
				return xs_err_set(e, XS_E_INVALID_ARG,
				                  "%s entry %llu: r_offset 0x%llx is outside %s (0x%llx bytes)", rs->name,
				                  (unsigned long long)k, (unsigned long long)off, g->sec[rs->info].name,
				                  (unsigned long long)tsize);
			gsym s;
			xs_status st = get_sym(g, symi, &s, e);
			if (st) {
				xs_err_prefix(e, "%s entry %llu", rs->name, (unsigned long long)k);
				return st;
			}
			uint64_t sbase;
			if (!image_base(g, s.shndx, rodata_off, &sbase))
				return xs_err_set(e, XS_E_INVALID_ARG,
				                  "%s entry %llu: symbol '%s' is in section %u, not .text or .rodata "
				                  "(undefined?)",
				                  rs->name, (unsigned long long)k, s.name, s.shndx);
			uint8_t *at = sh->image + tbase + off;
			int64_t a = rs->type == SHT_RELA_ ? (int64_t)xs_codeobj_rd64(q + 16)
			                                  : (int64_t)(int32_t)xs_codeobj_rd32(at);
			/* S + A - P, PC-relative inside the image (AMDGPUUsage). */
			uint64_t v = sbase + s.value + (uint64_t)a - (tbase + off);
			uint32_t w = type == XS_R_AMDGPU_REL32_LO ? (uint32_t)v : (uint32_t)(v >> 32);
			at[0] = (uint8_t)w;
			at[1] = (uint8_t)(w >> 8);
			at[2] = (uint8_t)(w >> 16);
			at[3] = (uint8_t)(w >> 24);
		}
	}
	return XS_OK;
}

/* Notes: the NT_AMDGPU_METADATA note (owner "AMDGPU", type 32). */
static xs_status find_pal_note(const gelf *g, const uint8_t **desc, size_t *dsize, uint64_t *doff, xs_err *e)
{
	for (size_t i = 1; i < g->shnum; i++) {
		const gsec *s = &g->sec[i];
		if (s->type != SHT_NOTE_)
			continue;
		uint64_t at = 0;
		while (at < s->size) {
			if (s->size - at < 12)
				return xs_err_set(e, XS_E_INVALID_ARG, "%s+0x%llx: truncated note header", s->name,
				                  (unsigned long long)at);
			const uint8_t *n = g->img + s->off + at;
			uint64_t nsz = xs_codeobj_rd32(n), dsz = xs_codeobj_rd32(n + 4);
			uint32_t type = xs_codeobj_rd32(n + 8);
			uint64_t nal = (nsz + 3) & ~3ull, dal = (dsz + 3) & ~3ull;
			if (!xs_codeobj_in_bounds(at + 12, nal + dal, s->size) &&
			    !xs_codeobj_in_bounds(at + 12, nal + dsz, s->size))
				return xs_err_set(e, XS_E_INVALID_ARG,
				                  "%s+0x%llx: note namesz %llu descsz %llu run past the section (0x%llx bytes)",
				                  s->name, (unsigned long long)at, (unsigned long long)nsz,
				                  (unsigned long long)dsz, (unsigned long long)s->size);
			if (type == XS_NT_AMDGPU_METADATA && nsz == 7 && !memcmp(n + 12, "AMDGPU", 7)) {
				*desc = n + 12 + nal;
				*dsize = dsz;
				*doff = s->off + at + 12 + nal;
				return XS_OK;
			}
			at += 12 + nal + dal;
		}
	}
	return xs_err_set(e, XS_E_INVALID_ARG,
	                  "no NT_AMDGPU_METADATA note (owner AMDGPU, type 32): a PAL shader's registers are there");
}

/* The fields LLVM does not give, or gives differently per ABI (xs_codeobj_gfx.h). */
static xs_status complete(xs_gfx_shader *sh, const xs_gfx_regsrc *rs, xs_err *e)
{
	if (rs->have_rsrc1_vs == rs->have_rsrc1_ps)
		return xs_err_set(e, XS_E_INVALID_ARG,
		                  rs->have_rsrc1_vs ? "registers: both SPI_SHADER_PGM_RSRC1_VS and _PS are set: one stage "
		                                      "per object"
		                                    : "registers: neither SPI_SHADER_PGM_RSRC1_VS (0xB128) nor _PS (0xB028) "
		                                      "is set: not a VS or PS");
	sh->stage = rs->have_rsrc1_vs ? XS_GFX_STAGE_VS : XS_GFX_STAGE_PS;
	bool vs = sh->stage == XS_GFX_STAGE_VS;
	if (sh->abi == XS_GFX_ABI_PAL) {
		/* AMDGPUPALMetadata::setWave32: the W32 bit is written for wave32 only. */
		sh->wave64 = !(rs->have_w32_reg &&
		               (rs->w32_reg_value & (vs ? XS_GFX_VS_W32_EN_BIT : S_0286D8_PS_W32_EN(1))));
		if (!rs->have_pal_stage)
			return xs_err_set(e, XS_E_INVALID_ARG, "PAL metadata: no .hardware_stages.%s entry", vs ? ".vs" : ".ps");
		if (strcmp(rs->pal_entry, sh->entry))
			return xs_err_set(e, XS_E_INVALID_ARG,
			                  "PAL metadata: .hardware_stages.%s.entry_point '%s' is not the entry symbol '%s'",
			                  vs ? ".vs" : ".ps", rs->pal_entry, sh->entry);
		sh->sgprs = rs->pal_sgprs;
		sh->scratch_bytes_per_lane = rs->pal_scratch;
		uint32_t lanes = sh->wave64 ? 64 : 32;
		sh->scratch_bytes_per_wave = (uint32_t)(((uint64_t)rs->pal_scratch * lanes + 1023) / 1024 * 1024);
	} else {
		/* Mesa writes SPI_TMPRING_SIZE.WAVESIZE (1 KiB units); bytes per
		 * lane follow from the wave size (set by the caller's scan). */
		sh->sgprs = ((sh->rsrc1 >> 6 & 0xf) + 1) * 8;
		sh->rsrc1 |= S_00B028_FLOAT_MODE(0xf0) | S_00B028_DX10_CLAMP(1) |
		             (vs ? S_00B128_MEM_ORDERED(1) : S_00B028_MEM_ORDERED(1));
		if (sh->scratch_bytes_per_wave)
			sh->rsrc2 |= S_00B02C_SCRATCH_EN(1); /* the same bit 0 for VS and PS */
	}
	sh->vgprs = ((sh->rsrc1 & 0x3f) + 1) * (sh->wave64 ? 4 : 8);
	if (sh->abi == XS_GFX_ABI_PAL && rs->pal_vgprs > sh->vgprs)
		return xs_err_set(e, XS_E_INVALID_ARG,
		                  "PAL metadata: .vgpr_count %u is more than RSRC1.VGPRS allocates (%u)", rs->pal_vgprs,
		                  sh->vgprs);
	return XS_OK;
}

/* Mesa objects say nothing about the wave size in their registers: the code
 * does (a wave64 shader's EXEC and lane masks are SGPR pairs). */
static bool mesa_code_is_wave64(const uint8_t *img, uint64_t off, uint64_t size);

xs_status xs_gfx_shader_parse(const void *data, size_t size, const char *entry, xs_gfx_shader *out, xs_err *e)
{
	memset(out, 0, sizeof(*out));
	if (!data)
		return xs_err_set(e, XS_E_INVALID_ARG, "no data");
	gelf g = { .img = data, .size = size };
	xs_gfx_regsrc rs;
	memset(&rs, 0, sizeof(rs));
	xs_status st = check_header(data, size, out, e);
	if (!st)
		st = read_sections(&g, e);
	if (!st)
		st = find_entry(&g, entry, out, e);
	uint64_t rodata_off = 0;
	if (!st) {
		const gsec *t = &g.sec[g.text];
		uint64_t rsz = g.rodata ? g.sec[g.rodata].size : 0;
		rodata_off = (t->size + 255) & ~255ull;
		out->image_size = (size_t)(rsz ? rodata_off + rsz : t->size);
		out->image = xs_calloc(1, out->image_size);
		if (!out->image)
			st = xs_err_set(e, XS_E_OUT_OF_MEMORY, "out of memory (%zu-byte image)", out->image_size);
		else {
			memcpy(out->image, g.img + t->off, t->size);
			if (rsz) {
				if (g.sec[g.rodata].type == SHT_NOBITS_)
					st = xs_err_set(e, XS_E_INVALID_ARG, ".rodata: SHT_NOBITS");
				else
					memcpy(out->image + rodata_off, g.img + g.sec[g.rodata].off, rsz);
			}
		}
	}
	if (!st)
		st = apply_relocs(&g, out, rodata_off, e);
	if (!st && out->abi == XS_GFX_ABI_PAL) {
		const uint8_t *desc = NULL;
		size_t dsz = 0;
		uint64_t doff = 0;
		st = find_pal_note(&g, &desc, &dsz, &doff, e);
		if (!st)
			st = xs_gfx_parse_pal(desc, dsz, doff, out, &rs, e);
	} else if (!st) {
		if (!g.config)
			st = xs_err_set(e, XS_E_INVALID_ARG,
			                "no .AMDGPU.config section: a Mesa shader's registers are there");
		else
			st = xs_gfx_parse_mesa_config(g.img + g.sec[g.config].off, g.sec[g.config].size,
			                              g.sec[g.config].off, out, &rs, e);
		if (!st) {
			out->wave64 = mesa_code_is_wave64(out->image, out->entry_offset, out->code_size);
			out->wave_size_assumed = !out->wave64;
			uint32_t lanes = out->wave64 ? 64 : 32;
			out->scratch_bytes_per_lane = out->scratch_bytes_per_wave / lanes;
		}
	}
	if (!st)
		st = complete(out, &rs, e);
	if (!st)
		st = xs_gfx_scan(out, g.sec[g.text].off, e);
	free(g.sec);
	if (st)
		xs_gfx_shader_free(out);
	return st;
}

void xs_gfx_shader_free(xs_gfx_shader *sh)
{
	if (!sh)
		return;
	free(sh->image);
	sh->image = NULL;
	sh->image_size = 0;
}

static bool mesa_code_is_wave64(const uint8_t *img, uint64_t off, uint64_t size)
{
	/* Wave32 code names exec_lo (s126) alone in its 32-bit lane-mask
	 * SALU ops; wave64 code uses exec (s[126:127]) through _b64 ops. The
	 * encodings: SOP1/SOP2 with SDST or SSRC = 126 and a _b64 opcode. A
	 * cheap check on the words, refined by the scan's decoder. */
	return xs_gfx_code_uses_exec64(img + off, size);
}
