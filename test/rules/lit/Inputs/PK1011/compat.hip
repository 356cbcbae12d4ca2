// Input of the PK1011 test (HIP side): a project helper spelled like a HIP
// API is not renamed back to CUDA.
#include <hip/hip_runtime.h>

namespace compat {
// Selects the device, then waits for its null stream.
inline hipError_t hipDeviceSynchronize(int device) {
  hipError_t e = hipSetDevice(device);
  return e == hipSuccess ? hipStreamSynchronize(0) : e;
}
} // namespace compat

hipError_t finish(int device) { return compat::hipDeviceSynchronize(device); }
