//===- DriverTest.cpp - driver generation and result parsing --------------===//

#include "pk/ValidateCase.h"
#include "gtest/gtest.h"
#include <cmath>

using namespace pk::validate;

namespace {

CaseSpec corpusCase(llvm::StringRef Name) {
  auto S = parseCaseSpecFile(std::string(PKV_CORPUS_DIR) + "/" + Name.str() + "/case.yaml");
  EXPECT_TRUE(!!S);
  if (!S) {
    llvm::consumeError(S.takeError());
    return CaseSpec();
  }
  return *S;
}

bool has(const std::string &Text, llvm::StringRef Needle) {
  return Text.find(Needle.str()) != std::string::npos;
}

TEST(Driver, CudaSaxpy) {
  CaseSpec S = corpusCase("saxpy");
  DriverConfig C;
  C.PreparedSource = "/w/prep/saxpy.cu";
  C.ReferenceSource = "/c/saxpy/ref.cpp";
  C.RuntimeHeader = "/w/pkv_rt.h";
  std::string D = generateDriver(S, C);
  EXPECT_TRUE(has(D, "#include \"/w/pkv_rt.h\"\n")) << D;
  EXPECT_TRUE(has(D, "#include \"/w/prep/saxpy.cu\"\n"));
  EXPECT_TRUE(has(D, "#include \"/c/saxpy/ref.cpp\"\n"));
  // The runtime header comes first, the reference after the kernel.
  EXPECT_LT(D.find("pkv_rt.h"), D.find("prep/saxpy.cu"));
  EXPECT_LT(D.find("prep/saxpy.cu"), D.find("ref.cpp"));
  EXPECT_TRUE(has(D, "pkv::fill(pkv_h0.data(), pkv::T_F32, pkv_n0, pkv::I_UNIFORM, "
                     "-1.0, 1.0, 1ull, 0.0);"));
  EXPECT_TRUE(has(D, "PKV_CHECK(cudaMalloc((void **)&pkv_a0, pkv_h0.size()));"));
  EXPECT_TRUE(has(D, "cudaMemcpyHostToDevice"));
  // Element and scalar types come from the kernel's signature.
  EXPECT_TRUE(has(D, "typedef pkv_sig<decltype(&saxpy)> pkv_kernel_sig;"));
  EXPECT_TRUE(has(D, "static_assert(pkv_kernel_sig::arity == 4,"));
  EXPECT_TRUE(has(D, "typedef pkv_kernel_sig::elem<0> pkv_t0;"));
  EXPECT_TRUE(has(D, "pkv_t0 *pkv_a0 = nullptr;"));
  EXPECT_TRUE(has(D, "static_assert(sizeof(pkv_t0) == 4, \"'y' is float in case.yaml"));
  EXPECT_TRUE(has(D, "pkv_t2 pkv_a2 = pkv_t2((float)2.5);"));
  EXPECT_TRUE(has(D, "pkv_t3 pkv_a3 = pkv_t3((int)3000);"));
  EXPECT_TRUE(has(D, "typedef pkv_sig<decltype(&saxpy_ref)> pkv_ref_sig;"));
  EXPECT_TRUE(has(D, "pkemu::launch(saxpy, dim3(4, 1, 1), dim3(256, 1, 1), 0, 0, "
                     "pkv_a0, pkv_a1, pkv_a2, pkv_a3);"));
  EXPECT_TRUE(has(D, "saxpy_ref((pkv_ref_sig::arg<0>)pkv_r0.data(), "
                     "(pkv_ref_sig::arg<1>)pkv_r1.data(), pkv_a2, pkv_a3);"));
  EXPECT_TRUE(has(D, "pkvReport.compare(\"y\", pkv::T_F32, pkv_h0.data(), pkv_r0.data(), "
                     "pkv_n0, 9.9999999999999995e-07, 9.9999999999999995e-07);"));
  // Only outputs are copied back.
  EXPECT_TRUE(has(D, "cudaMemcpy(pkv_h0.data(), pkv_a0, pkv_h0.size(), cudaMemcpyDeviceToHost)"));
  EXPECT_FALSE(has(D, "cudaMemcpy(pkv_h1.data()"));
  EXPECT_FALSE(has(D, "hip"));
  EXPECT_FALSE(has(D, "<<<"));
}

TEST(Driver, HipSpellingsAndTemplates) {
  CaseSpec S = corpusCase("wmma_bf16_gemm");
  DriverConfig C;
  C.Language = Lang::HIP;
  C.PreparedSource = "/w/prep/wmma_bf16_gemm.hip";
  C.ReferenceSource = "/c/ref.cpp";
  C.RuntimeHeader = "/w/pkv_rt.h";
  C.Variant = "hip";
  std::string D = generateDriver(S, C);
  // The bf16 type is whatever the port's kernel takes.
  EXPECT_TRUE(has(D, "typedef pkv_kernel_sig::elem<0> pk_bf16;"));
  EXPECT_TRUE(has(D, "pkv_t0 *pkv_a0 = nullptr;"));
  EXPECT_TRUE(has(D, "PKV_CHECK(hipMalloc((void **)&pkv_a0"));
  EXPECT_TRUE(has(D, "hipMemcpyDeviceToHost"));
  EXPECT_TRUE(has(D, "hipDeviceSynchronize()"));
  EXPECT_TRUE(has(D, "pkv::Report pkvReport(\"wmma_bf16_gemm\", \"hip\");"));
  EXPECT_FALSE(has(D, "cuda"));

  CaseSpec T = corpusCase("inclusive_scan");
  C.Language = Lang::CUDA;
  D = generateDriver(T, C);
  EXPECT_TRUE(has(D, "pkemu::launch(scan_inclusive<256>, dim3(6, 1, 1)"));
  EXPECT_TRUE(has(D, "pkvReport.compare(\"out\", pkv::T_I32"));
}

TEST(Driver, HalfHelpersOnlyWhenNeeded) {
  DriverConfig C;
  C.PreparedSource = "k.cu";
  C.ReferenceSource = "ref.cpp";
  C.RuntimeHeader = "pkv_rt.h";
  std::string D = generateDriver(corpusCase("rmsnorm"), C);
  EXPECT_TRUE(has(D, "typedef pkv_kernel_sig::elem<0> pk_half;"));
  EXPECT_TRUE(has(D, "pk_float_to_half"));
  EXPECT_FALSE(has(D, "pk_bf16"));
  EXPECT_TRUE(has(D, "pkv::T_F16"));
  D = generateDriver(corpusCase("transpose"), C);
  EXPECT_FALSE(has(D, "pk_half"));
}

TEST(Driver, NativeLaunchDefinesPkemuLaunch) {
  DriverConfig C;
  C.PreparedSource = "k.cu";
  C.ReferenceSource = "ref.cpp";
  C.RuntimeHeader = "pkv_rt.h";
  C.NativeLaunch = true;
  std::string D = generateDriver(corpusCase("saxpy"), C);
  EXPECT_TRUE(has(D, "k<<<g, b, s, st>>>(a...);"));
}

TEST(Driver, DynamicSharedAndScalarKinds) {
  DriverConfig C;
  C.PreparedSource = "k.cu";
  C.ReferenceSource = "ref.cpp";
  C.RuntimeHeader = "pkv_rt.h";
  std::string D = generateDriver(corpusCase("attention_scores"), C);
  EXPECT_TRUE(has(D, "dim3(12, 1, 1), dim3(64, 1, 1), 308, 0,"));
  EXPECT_TRUE(has(D, "(float)0.17677669529663687"));
}

TEST(DriverResult, ParsesTheLastResultLine) {
  auto R = parseDriverResult(
      "kernel printf\n"
      "{\"pkv\":1,\"case\":\"c\",\"variant\":\"original\",\"status\":\"mismatch\","
      "\"outputs\":[{\"name\":\"y\",\"count\":10,\"mismatches\":2,\"nan_mismatches\":1,"
      "\"max_abs\":0.5,\"max_rel\":\"inf\",\"first_bad\":3,\"got\":1.5,\"want\":1}]}\n");
  ASSERT_TRUE(!!R) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Status, "mismatch");
  ASSERT_EQ(R->Outputs.size(), 1u);
  EXPECT_EQ(R->Outputs[0].Name, "y");
  EXPECT_EQ(R->Outputs[0].Count, 10u);
  EXPECT_EQ(R->Outputs[0].Mismatches, 2u);
  EXPECT_EQ(R->Outputs[0].NanMismatches, 1u);
  EXPECT_EQ(R->Outputs[0].MaxAbs, 0.5);
  EXPECT_TRUE(std::isinf(R->Outputs[0].MaxRel));
  EXPECT_EQ(R->Outputs[0].FirstBad, 3);
  EXPECT_EQ(R->Outputs[0].Got, 1.5);

  auto E = parseDriverResult("{\"pkv\":1,\"status\":\"error\",\"message\":\"cudaMalloc failed\","
                             "\"outputs\":[]}");
  ASSERT_TRUE(!!E);
  EXPECT_EQ(E->Message, "cudaMalloc failed");

  auto None = parseDriverResult("Segmentation fault\n");
  ASSERT_FALSE(!!None);
  EXPECT_EQ(llvm::toString(None.takeError()), "the driver printed no result line");
}

TEST(Reports, EmulatorReportKeepsErrorBlocks) {
  std::string Err = "pkemu: info: 4 blocks\n"
                    "pkemu: error: barrier divergence in block (1,0,0)\n"
                    "  thread 3 waits at k.cu:12\n"
                    "  thread 40 exited\n"
                    "pkemu: info: done\n";
  EXPECT_EQ(emulatorReport(Err), "pkemu: error: barrier divergence in block (1,0,0)\n"
                                 "  thread 3 waits at k.cu:12\n"
                                 "  thread 40 exited");
  EXPECT_EQ(emulatorReport(Err, 1), "pkemu: error: barrier divergence in block (1,0,0)\n  ...");
}

TEST(Reports, CompileErrorSummary) {
  std::string Log = "In file included from d.cpp:3:\n"
                    "k.cu:4:3: error: expected ';' after expression\n"
                    "    4 |   if (i < n)\n"
                    "k.cu:9:1: warning: unused\n"
                    "1 error generated.\n";
  EXPECT_EQ(compileErrorSummary(Log), "k.cu:4:3: error: expected ';' after expression\n"
                                      "1 error generated.");
  EXPECT_EQ(compileErrorSummary("ld: something odd\n"), "ld: something odd");
  // A link that fails: what the linker says first, not the driver's
  // "linker command failed".
  EXPECT_EQ(compileErrorSummary(
                "/usr/bin/ld: /w/program.o: in function `main':\n"
                "main.cpp:(.text+0x3a): undefined reference to `ref(int)'\n"
                "clang++: error: linker command failed with exit code 1\n"),
            "main.cpp:(.text+0x3a): undefined reference to `ref(int)'");
  EXPECT_EQ(compileErrorSummary("clang++: error: linker command failed\n"),
            "clang++: error: linker command failed");
  // OpenMP calls without -fopenmp: the linker's line and what to pass.
  EXPECT_EQ(compileErrorSummary(
                "/usr/bin/ld: m.o: in function `main':\n"
                "m.cu:31: undefined reference to `omp_get_thread_num'\n"
                "clang++: error: linker command failed\n"),
            "m.cu:31: undefined reference to `omp_get_thread_num'\n"
            "(the program calls the OpenMP runtime: build it with "
            "--extra-arg=-fopenmp, as nvcc's -Xcompiler -fopenmp)");
}

} // namespace
