/* How the D3D12 layer's C files include Microsoft's headers: the C
 * interfaces with const vtables (the objects point at static const ones),
 * the COBJMACROS, and <limits.h> restored after winadapter.h redefines
 * LONG_MAX to INT_MAX. Include this first in every file of src/d3d12. */
#ifndef XS_D3D12_COM_H
#define XS_D3D12_COM_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#define CONST_VTABLE
#define COBJMACROS
#include "xs12/d3d12_xs.h"

#undef LONG_MAX
#define LONG_MAX __LONG_MAX__
#undef ULONG_MAX
#define ULONG_MAX (__LONG_MAX__ * 2UL + 1UL)

#define XS_D3D12_EXPORT __attribute__((visibility("default")))

#endif
