// PK1034: a case label of an enumerator HIP has no counterpart of (a status
// the HIP library never returns) becomes a comment, so an error-string
// helper's switch compiles; the statements after it stay.
// RUN: rm -rf %t && %pk port -q --cuda-path=none --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG --allow-empty
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1034.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// The port compiles against ROCm 6's hipBLAS (but for the macro-made label,
// removed first).
// RUN: sed -e '/LICENSE_CASE/d' %t/hip/PK1034.hip > %t/ok.hip
// RUN: %hip6 --offload-host-only %t/ok.hip
// REPORT: "rule": "PK1034",
#include <cublas_v2.h>
#include <cstdio>

// helper_cuda.h's shape.
static const char *cublasErrorName(cublasStatus_t error) {
  switch (error) {
    case CUBLAS_STATUS_SUCCESS:
      return "CUBLAS_STATUS_SUCCESS";
// CHECK:    case HIPBLAS_STATUS_SUCCESS:
    case CUBLAS_STATUS_LICENSE_ERROR:
      return "CUBLAS_STATUS_LICENSE_ERROR";
// CHECK:    /* case CUBLAS_STATUS_LICENSE_ERROR: (no HIP counterpart) */
// CHECK-NEXT:      return "CUBLAS_STATUS_LICENSE_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
// CHECK:    case HIPBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    default:
      break;
  }
  return "<unknown>";
}

// Falling through into the label: the statement stays where the case before
// reaches it.
static int severity(cublasStatus_t s) {
  int n = 0;
  switch (s) {
    case CUBLAS_STATUS_NOT_INITIALIZED:
      n += 1;
    case CUBLAS_STATUS_LICENSE_ERROR: n += 2;
// CHECK:    /* case CUBLAS_STATUS_LICENSE_ERROR: (no HIP counterpart) */ n += 2;
      break;
    default:
      break;
  }
  return n;
}

// A label a macro writes stays, flagged (PK1010).
#define LICENSE_CASE case CUBLAS_STATUS_LICENSE_ERROR:
static int viaMacro(cublasStatus_t s) {
  switch (s) {
    LICENSE_CASE return 1;
    default: return 0;
  }
}
// DIAG: PK1034.cu:[[@LINE-7]]:27: warning: 'CUBLAS_STATUS_LICENSE_ERROR' has no HIP counterpart: {{.*}} [PK1010]
// DIAG-NOT: warning

int main() {
  std::printf("%s %d %d\n", cublasErrorName(CUBLAS_STATUS_SUCCESS),
              severity(CUBLAS_STATUS_NOT_INITIALIZED), viaMacro(CUBLAS_STATUS_SUCCESS));
  return 0;
}
