/*
 * d3d12_x.h — the name Xbox titles include; the same as <d3d12_xs.h>.
 * `pkg-config --cflags xs12` puts this folder on the include path, so
 * `#include <d3d12_x.h>` and `#include <xs12/d3d12_x.h>` both work.
 */
#ifndef XS12_D3D12_X_H
#define XS12_D3D12_X_H
#include "d3d12_xs.h"
#endif
