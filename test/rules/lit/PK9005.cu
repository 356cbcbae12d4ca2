// PK9005: NOPK suppressions.  A suppressed finding is not printed or
// counted, and is kept in the reports as suppressed; a bare NOPK, an
// unclosed NOPK-BEGIN, a NOPK-END that closes nothing, a suppression of an
// error and a stale suppression are findings themselves.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: not %pk check --to hip %t/k.cu 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT-NOT: k.cu:9:{{[0-9]+}}: warning: lane id
// TEXT-NOT: k.cu:11:{{[0-9]+}}: warning: lane id
// TEXT-DAG: k.cu:13:{{[0-9]+}}: warning: lane id {{.*}}[PK2103]
// TEXT-DAG: k.cu:13:{{[0-9]+}}: warning: NOPK names no rule and suppresses nothing: name the rules, e.g. NOPK(PK2010) [PK9005]
// TEXT-DAG: k.cu:14:{{[0-9]+}}: warning: NOPK(PK1001): no PK1001 finding on line 14; the suppression is stale (remove it) [PK9005]
// TEXT-DAG: k.cu:16:{{[0-9]+}}: warning: NOPK-END(PK2103) closes no NOPK-BEGIN; it suppresses nothing [PK9005]
// TEXT-DAG: k.cu:17:{{[0-9]+}}: warning: NOPK-BEGIN(PK2103) has no NOPK-END; it suppresses nothing [PK9005]
// TEXT: port-kernel: {{[0-9]+}} finding(s); 2 suppressed (NOPK)
//
// RUN: not %pk check --to hip --format json %t/k.cu > %t/r.json 2>/dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t/r.json
// JSON-COUNT-2: "suppressed": "inSource"
// RUN: not %pk check --to hip --format sarif %t/k.cu > %t/r.sarif 2>/dev/null
// RUN: FileCheck %s --check-prefix=SARIF < %t/r.sarif
// SARIF: "suppressions": [
// SARIF-NEXT: {
// SARIF-NEXT: "kind": "inSource"
//
// Only suppressed findings: exit 0.
// RUN: %pk check --to hip %t/clean.cu 2>&1 | FileCheck %s --check-prefix=CLEAN
// CLEAN: port-kernel: 0 finding(s); 1 suppressed (NOPK)

//--- k.cu
// Lane ids that assume 32-lane warps next to a vote (PK2103).
__global__ void k(int *o) {
  int l = threadIdx.x % 32;
  o[threadIdx.x] = __ballot(l > 3);
}
__global__ void q(int *o) { o[0] = 0; }
__global__ void r(int *o) { o[1] = 0; }
__global__ void p(int *o) { o[2] = 0; }
__global__ void s(int *o) { int l = threadIdx.x % 32; o[l] = __ballot(l > 3); } // NOPK(PK2103)
// NOPK-NEXTLINE(PK21*)
__global__ void t(int *o) { int l = threadIdx.x % 32; o[l] = __ballot(l > 3); }
// a bare one:
__global__ void u(int *o) { int l = threadIdx.x % 32; o[l] = __ballot(l > 3); } // NOPK
int x = 1; // NOPK(PK1001)
int NOPKY = 2; // not a suppression: NOPKX
// NOPK-END(PK2103)
// NOPK-BEGIN(PK2103)
//--- clean.cu
__global__ void s(int *o) { int l = threadIdx.x % 32; o[l] = __ballot(l > 3); } // NOPK(PK2103)
