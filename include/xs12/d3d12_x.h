/*
 * d3d12_x.h — the name Xbox titles include; the same as <d3d12_xs.h>.
 * `#include <d3d12_x.h>`, `<d3d12_xs.h>` and `<xs12/d3d12_xs.h>` all work
 * with `pkg-config --cflags xs12` (installed or from the build tree).
 */
#ifndef XS12_D3D12_X_H
#define XS12_D3D12_X_H
#include "d3d12_xs.h"
#endif
