/* <d3d12_x.h>, as titles include it: xs12's D3D12 header, <xs12/d3d12_xs.h>. */
#include "xs12/d3d12_xs.h"
