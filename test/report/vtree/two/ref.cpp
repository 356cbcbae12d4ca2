// CPU reference for warp_width: written for 32-lane warps.
void warp_width_ref(int *out) {
  for (int i = 0; i < 64; ++i)
    out[i] = 32;
}
