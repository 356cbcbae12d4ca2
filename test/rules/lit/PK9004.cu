// PK9004: invisible and bidirectional control characters in the source are
// warned about at their line and column for every target, and shown as a
// visible <U+XXXX> in the reports; the output keeps the bytes.  The kernel is
// written here without them; the RUN lines put them in (U+202E after
// "check", U+200B inside "scale" in a string, a form feed that is not reported).
//
// RUN: rm -rf %t && mkdir -p %t/in
// RUN: sed -e 's/@RLO@/\xe2\x80\xae/' -e 's/@ZWSP@/\xe2\x80\x8b/' -e 's/@FF@/\x0c/' %S/Inputs/PK9004/kernel.cu.in > %t/in/k.cu
// RUN: %pk port -q --to hip,cuda -o %t/o %t/in/k.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// DIAG-DAG: {{.*}}k.cu:3:22: warning: bidirectional control character U+202E in the source: {{.*}}(Trojan Source){{.*}} [PK9004]
// DIAG-DAG: {{.*}}k.cu:5:32: warning: invisible character U+200B in the source: {{.*}} [PK9004]
// DIAG-NOT: U+000C
// RUN: FileCheck %s --check-prefix=OUT < %t/o/hip/k.hip
// OUT: // port-kernel: warning: bidirectional control character U+202E {{.*}}[PK9004]
// RUN: env LC_ALL=C grep -c -P '\xe2\x80\xae' %t/o/hip/k.hip | FileCheck %s --check-prefix=KEPT
// KEPT: 1
//
// check: one finding per character and target, in JSON.
// RUN: not %pk check -q --to hip --format json %t/in/k.cu > %t/r.json
// RUN: FileCheck %s --check-prefix=JSON < %t/r.json
// JSON-COUNT-2: "rule": "PK9004"
//
// The reports never show the characters raw.
// RUN: %pk report --to hip -o %t/r.html --markdown %t/r.md %t/in/k.cu 2>/dev/null
// RUN: FileCheck %s --check-prefix=HTML < %t/r.html
// HTML: &lt;U+202E&gt;
// RUN: not env LC_ALL=C grep -l -P '\xe2\x80\xae|\xe2\x80\x8b' %t/r.html %t/r.md
