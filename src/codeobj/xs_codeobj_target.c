/*
 * Targets: EF_AMDGPU_MACH processor names, target-id strings, and which
 * processors xs12 runs.
 *
 * The EF_AMDGPU_MACH values are those of LLVM's BinaryFormat/ELF.h (AMDGPUUsage
 * "AMDGPU ELF Header", table "AMDGPU EF_AMDGPU_MACH Values"). Every known value
 * is listed so that a code object for another GPU gets an error naming it.
 */
#include <string.h>

#include "codeobj/xs_codeobj_priv.h"

static const struct {
	uint8_t mach;
	const char *name;
} xs_codeobj_machs[] = {
	{0x020, "gfx600"},  {0x021, "gfx601"},  {0x022, "gfx700"},  {0x023, "gfx701"},
	{0x024, "gfx702"},  {0x025, "gfx703"},  {0x026, "gfx704"},  {0x028, "gfx801"},
	{0x029, "gfx802"},  {0x02a, "gfx803"},  {0x02b, "gfx810"},  {0x02c, "gfx900"},
	{0x02d, "gfx902"},  {0x02e, "gfx904"},  {0x02f, "gfx906"},  {0x030, "gfx908"},
	{0x031, "gfx909"},  {0x032, "gfx90c"},  {0x033, "gfx1010"}, {0x034, "gfx1011"},
	{0x035, "gfx1012"}, {0x036, "gfx1030"}, {0x037, "gfx1031"}, {0x038, "gfx1032"},
	{0x039, "gfx1033"}, {0x03a, "gfx602"},  {0x03b, "gfx705"},  {0x03c, "gfx805"},
	{0x03d, "gfx1035"}, {0x03e, "gfx1034"}, {0x03f, "gfx90a"},  {0x040, "gfx940"},
	{0x041, "gfx1100"}, {0x042, "gfx1013"}, {0x043, "gfx1150"}, {0x044, "gfx1103"},
	{0x045, "gfx1036"}, {0x046, "gfx1101"}, {0x047, "gfx1102"}, {0x048, "gfx1200"},
	{0x04a, "gfx1151"}, {0x04b, "gfx941"},  {0x04c, "gfx942"},  {0x04e, "gfx1201"},
	{0x04f, "gfx950"},  {0x051, "gfx9-generic"}, {0x052, "gfx10-1-generic"},
	{0x053, "gfx10-3-generic"}, {0x054, "gfx11-generic"}, {0x055, "gfx1152"},
	{0x058, "gfx1153"}, {0x059, "gfx12-generic"}, {0x05f, "gfx9-4-generic"},
};

/* gfx1030..gfx1036 share the gfx10.3 ISA (AMDGPUUsage "Processors": all of
 * them are members of gfx10-3-generic). */
static const char *const xs_codeobj_gfx103[] = {
	"gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036",
};

const char *xs_codeobj_mach_name(uint32_t mach)
{
	for (size_t i = 0; i < XS_ARRAY_SIZE(xs_codeobj_machs); i++)
		if (xs_codeobj_machs[i].mach == mach)
			return xs_codeobj_machs[i].name;
	return NULL;
}

bool xs_codeobj_is_gfx103(const char *processor)
{
	if (!processor)
		return false;
	for (size_t i = 0; i < XS_ARRAY_SIZE(xs_codeobj_gfx103); i++)
		if (strcmp(processor, xs_codeobj_gfx103[i]) == 0)
			return true;
	return false;
}

/* Copies n bytes of s into dst (cap bytes) with a NUL; false if it does not fit. */
static bool copy_part(char *dst, size_t cap, const char *s, size_t n)
{
	if (n + 1 > cap)
		return false;
	memcpy(dst, s, n);
	dst[n] = 0;
	return true;
}

/* Entry ids (clang "ClangOffloadBundler" docs, "Bundle Entry ID"):
 * <offload kind>-<target triple>-<target id>, where the triple may have an
 * empty environment ("amdgcn-amd-amdhsa-") and the target id is
 * <processor>[:feature(+|-)]... The processor is what follows the last '-'
 * before the first ':'. */
bool xs_codeobj_split_bundle_id(const char *id, char *kind, size_t kind_cap, bool *amdhsa,
                                char *proc, size_t proc_cap)
{
	const char *dash = strchr(id, '-');
	*amdhsa = false;
	kind[0] = proc[0] = 0;
	if (!dash || dash == id || !copy_part(kind, kind_cap, id, (size_t)(dash - id)))
		return false;
	const char *rest = dash + 1;
	static const char triple[] = "amdgcn-amd-amdhsa-";
	*amdhsa = strncmp(rest, triple, sizeof(triple) - 1) == 0;
	const char *colon = strchr(rest, ':');
	size_t len = colon ? (size_t)(colon - rest) : strlen(rest);
	const char *p = rest + len;
	while (p > rest && p[-1] != '-')
		p--;
	if (!copy_part(proc, proc_cap, p, (size_t)(rest + len - p)))
		proc[0] = 0;
	return true;
}

/* amdhsa.target (AMDGPUUsage "Code Object V3 Metadata" and later):
 * "<triple>--<target id>", e.g. "amdgcn-amd-amdhsa--gfx1030:xnack-". */
bool xs_codeobj_target_processor(const char *target, char *proc, size_t proc_cap)
{
	static const char prefix[] = "amdgcn-amd-amdhsa--";
	proc[0] = 0;
	if (strncmp(target, prefix, sizeof(prefix) - 1) != 0)
		return false;
	const char *p = target + sizeof(prefix) - 1;
	const char *colon = strchr(p, ':');
	size_t n = colon ? (size_t)(colon - p) : strlen(p);
	return n > 0 && copy_part(proc, proc_cap, p, n);
}
