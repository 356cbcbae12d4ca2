//===- TargetCommon.cpp - edits, findings and the shared rule passes
//-------===//
// Rules: PK1001, PK1002, PK1003, PK1004, PK1006, PK1010, PK1011, PK1016,
// PK1027
#include "pk/Target.h"
#include "pk/TargetContext.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <set>

using namespace pk;
using namespace clang;

std::string pk::outputName(llvm::StringRef Path, Target T) {
  return targetBackend(T).outputName(Path);
}

TargetContext::TargetContext(ParsedFile &PF, const RenameDB &DB, Target T,
                             const TargetOptions &Opts)
    : UserSource(PF), PF(PF), DB(DB), T(T), Opts(Opts) {}

/// Where a finding at \p Loc is reported: the file location, or the
/// spelling of a macro argument.
static SourceLocation findingLoc(const SourceManager &S, SourceLocation Loc) {
  if (Loc.isMacroID() && S.isMacroArgExpansion(Loc))
    return S.getSpellingLoc(Loc);
  return S.getFileLoc(Loc);
}

void TargetContext::finding(SourceLocation Loc, RuleRef Rule, Severity Sev,
                            llvm::StringRef Msg) {
  SourceLocation L = findingLoc(SM(), Loc);
  finding(fileOf(L), SM().getFileOffset(L), Rule, Sev, Msg);
}

bool TargetContext::editedBy(SourceLocation Loc, RuleId R) const {
  SourceLocation L = findingLoc(SM(), Loc);
  return editedBy(fileOf(L), SM().getFileOffset(L), R);
}

void TargetContext::finding(llvm::StringRef File, unsigned Offset, RuleRef Rule,
                            Severity Sev, llvm::StringRef Msg) {
  Finding F;
  F.RuleID = Rule.name().str();
  F.Sev = Sev;
  F.File = File.str();
  F.Offset = Offset;
  F.Message = Msg.str();
  if (!FindingKeys.emplace(F.File, F.Offset, F.RuleID, F.Message).second)
    return; // the same finding reached twice
  lineCol(File, Offset, F.Line, F.Col);
  ++Counts[Rule.name()];
  Findings.push_back(std::move(F));
}

std::vector<std::string> pk::gpusWith(const std::set<std::string> &Needs) {
  // CDNA GPUs and their matrix instructions (the shared matrix-cores
  // reference): f16 MFMA on gfx908 and newer, bf16_1k from gfx90a.
  static const std::pair<const char *, std::set<std::string>> Gpus[] = {
      {"gfx908", {NeedMfmaF16}},
      {"gfx90a", {NeedMfmaF16, NeedMfmaBF16}},
      {"gfx940", {NeedMfmaF16, NeedMfmaBF16}},
      {"gfx941", {NeedMfmaF16, NeedMfmaBF16}},
      {"gfx942", {NeedMfmaF16, NeedMfmaBF16}},
  };
  std::vector<std::string> Out;
  for (const auto &[Name, Has] : Gpus)
    if (std::includes(Has.begin(), Has.end(), Needs.begin(), Needs.end()))
      Out.push_back(Name);
  return Out;
}

// ---- spellings that depend on the ROCm version (PK1016) ---------------------

namespace {

/// A CUDA name or header whose HIP spelling depends on --rocm-version.  The
/// rename tables hold what ROCm 5.2 has (hip_bfloat16, no intrinsics, no
/// 8-bit floats: their entries flag what 5.2 lacks); ROCm 6 has CUDA-like
/// __hip_bfloat16 types and intrinsics in <hip/hip_bf16.h> and the fp8
/// types and conversions of <hip/hip_fp8.h> (PK1027).  Every spelling is
/// checked against the ROCm 5.2 and 6.3 headers (rules.hip_names_exist).  An
/// empty spelling: the version has no counterpart (the table's entry
/// decides).  Paired conversions ROCm 6.3 lacks are spelled through those it
/// has; Bfloat16.cpp writes the argument that completes them.
struct RocmSpelling {
  const char *Cuda, *Rocm5, *Rocm6;
  RuleId Rule = RuleId::PK1016;
};

const RocmSpelling *rocmSpelling(llvm::StringRef Cuda) {
  static const RocmSpelling Table[] = {
      {"__nv_bfloat16", "hip_bfloat16", "__hip_bfloat16"},
      {"__nv_bfloat162", "", "__hip_bfloat162"},
      {"cuda_bf16.h", "hip/hip_bfloat16.h", "hip/hip_bf16.h"},
      {"__float2bfloat16", "hip_bfloat16", "__float2bfloat16"},
      {"__float2bfloat16_rn", "hip_bfloat16", "__float2bfloat16"},
      {"__bfloat162float", "float", "__bfloat162float"},
      {"__floats2bfloat162_rn", "", "__float22bfloat162_rn"},
      {"__float2bfloat162_rn", "", "__bfloat162bfloat162"},
      {"__bfloat1622float2", "", "__bfloat1622float2"},
      {"cuda_fp8.h", "", "hip/hip_fp8.h", RuleId::PK1027},
      {"__nv_fp8_e4m3", "", "__hip_fp8_e4m3", RuleId::PK1027},
      {"__nv_fp8_e5m2", "", "__hip_fp8_e5m2", RuleId::PK1027},
      {"__nv_fp8x2_e4m3", "", "__hip_fp8x2_e4m3", RuleId::PK1027},
      {"__nv_fp8x2_e5m2", "", "__hip_fp8x2_e5m2", RuleId::PK1027},
      {"__nv_fp8x4_e4m3", "", "__hip_fp8x4_e4m3", RuleId::PK1027},
      {"__nv_fp8x4_e5m2", "", "__hip_fp8x4_e5m2", RuleId::PK1027},
      {"__nv_fp8_storage_t", "", "__hip_fp8_storage_t", RuleId::PK1027},
      {"__nv_fp8x2_storage_t", "", "__hip_fp8x2_storage_t", RuleId::PK1027},
      {"__nv_fp8x4_storage_t", "", "__hip_fp8x4_storage_t", RuleId::PK1027},
      {"__nv_fp8_interpretation_t", "", "__hip_fp8_interpretation_t",
       RuleId::PK1027},
      {"__nv_saturation_t", "", "__hip_saturation_t", RuleId::PK1027},
      {"__NV_E4M3", "", "__HIP_E4M3", RuleId::PK1027},
      {"__NV_E5M2", "", "__HIP_E5M2", RuleId::PK1027},
      {"__NV_NOSAT", "", "__HIP_NOSAT", RuleId::PK1027},
      {"__NV_SATFINITE", "", "__HIP_SATFINITE", RuleId::PK1027},
      {"__nv_cvt_float_to_fp8", "", "__hip_cvt_float_to_fp8", RuleId::PK1027},
      {"__nv_cvt_float2_to_fp8x2", "", "__hip_cvt_float2_to_fp8x2",
       RuleId::PK1027},
      {"__nv_cvt_double_to_fp8", "", "__hip_cvt_double_to_fp8", RuleId::PK1027},
      {"__nv_cvt_double2_to_fp8x2", "", "__hip_cvt_double2_to_fp8x2",
       RuleId::PK1027},
      {"__nv_cvt_halfraw_to_fp8", "", "__hip_cvt_halfraw_to_fp8",
       RuleId::PK1027},
      {"__nv_cvt_halfraw2_to_fp8x2", "", "__hip_cvt_halfraw2_to_fp8x2",
       RuleId::PK1027},
      {"__nv_cvt_bfloat16raw_to_fp8", "", "__hip_cvt_bfloat16raw_to_fp8",
       RuleId::PK1027},
      {"__nv_cvt_bfloat16raw2_to_fp8x2", "", "__hip_cvt_bfloat16raw2_to_fp8x2",
       RuleId::PK1027},
      {"__nv_cvt_fp8_to_halfraw", "", "__hip_cvt_fp8_to_halfraw",
       RuleId::PK1027},
      {"__nv_cvt_fp8x2_to_halfraw2", "", "__hip_cvt_fp8x2_to_halfraw2",
       RuleId::PK1027},
      // Runtime functions and enumerators ROCm 6 has and ROCm 5.2 does not
      // (the tables flag them for ROCm 5; rules.cuda_enumerators finds them).
      {"cudaDeviceSetLimit", "", "hipDeviceSetLimit", RuleId::PK1001},
      {"cudaLimitStackSize", "", "hipLimitStackSize", RuleId::PK1001},
      {"cudaDevAttrHostRegisterSupported", "",
       "hipDeviceAttributeHostRegisterSupported", RuleId::PK1001},
      {"cudaDevAttrMemoryPoolSupportedHandleTypes", "",
       "hipDeviceAttributeMemoryPoolSupportedHandleTypes", RuleId::PK1001},
      {"cudaErrorInvalidChannelDescriptor", "",
       "hipErrorInvalidChannelDescriptor", RuleId::PK1001},
      {"cudaErrorInvalidTexture", "", "hipErrorInvalidTexture", RuleId::PK1001},
      {"cudaExternalMemoryHandleTypeNvSciBuf", "",
       "hipExternalMemoryHandleTypeNvSciBuf", RuleId::PK1001},
      {"cudaExternalSemaphoreHandleTypeD3D11Fence", "",
       "hipExternalSemaphoreHandleTypeD3D11Fence", RuleId::PK1001},
      {"cudaExternalSemaphoreHandleTypeKeyedMutex", "",
       "hipExternalSemaphoreHandleTypeKeyedMutex", RuleId::PK1001},
      {"cudaExternalSemaphoreHandleTypeKeyedMutexKmt", "",
       "hipExternalSemaphoreHandleTypeKeyedMutexKmt", RuleId::PK1001},
      {"cudaExternalSemaphoreHandleTypeNvSciSync", "",
       "hipExternalSemaphoreHandleTypeNvSciSync", RuleId::PK1001},
      {"cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd", "",
       "hipExternalSemaphoreHandleTypeTimelineSemaphoreFd", RuleId::PK1001},
      {"cudaExternalSemaphoreHandleTypeTimelineSemaphoreWin32", "",
       "hipExternalSemaphoreHandleTypeTimelineSemaphoreWin32", RuleId::PK1001},
      {"cudaFlushGPUDirectRDMAWritesOptionHost", "",
       "hipFlushGPUDirectRDMAWritesOptionHost", RuleId::PK1001},
      {"cudaFlushGPUDirectRDMAWritesOptionMemOps", "",
       "hipFlushGPUDirectRDMAWritesOptionMemOps", RuleId::PK1001},
      {"cudaGPUDirectRDMAWritesOrderingAllDevices", "",
       "hipGPUDirectRDMAWritesOrderingAllDevices", RuleId::PK1001},
      {"cudaGPUDirectRDMAWritesOrderingNone", "",
       "hipGPUDirectRDMAWritesOrderingNone", RuleId::PK1001},
      {"cudaGPUDirectRDMAWritesOrderingOwner", "",
       "hipGPUDirectRDMAWritesOrderingOwner", RuleId::PK1001},
      {"cudaGraphDebugDotFlagsEventNodeParams", "",
       "hipGraphDebugDotFlagsEventNodeParams", RuleId::PK1001},
      {"cudaGraphDebugDotFlagsExtSemasSignalNodeParams", "",
       "hipGraphDebugDotFlagsExtSemasSignalNodeParams", RuleId::PK1001},
      {"cudaGraphDebugDotFlagsExtSemasWaitNodeParams", "",
       "hipGraphDebugDotFlagsExtSemasWaitNodeParams", RuleId::PK1001},
      {"cudaGraphDebugDotFlagsHandles", "", "hipGraphDebugDotFlagsHandles",
       RuleId::PK1001},
      {"cudaGraphDebugDotFlagsHostNodeParams", "",
       "hipGraphDebugDotFlagsHostNodeParams", RuleId::PK1001},
      {"cudaGraphDebugDotFlagsKernelNodeAttributes", "",
       "hipGraphDebugDotFlagsKernelNodeAttributes", RuleId::PK1001},
      {"cudaGraphDebugDotFlagsKernelNodeParams", "",
       "hipGraphDebugDotFlagsKernelNodeParams", RuleId::PK1001},
      {"cudaGraphDebugDotFlagsMemcpyNodeParams", "",
       "hipGraphDebugDotFlagsMemcpyNodeParams", RuleId::PK1001},
      {"cudaGraphDebugDotFlagsMemsetNodeParams", "",
       "hipGraphDebugDotFlagsMemsetNodeParams", RuleId::PK1001},
      {"cudaGraphDebugDotFlagsVerbose", "", "hipGraphDebugDotFlagsVerbose",
       RuleId::PK1001},
      {"cudaGraphDependencyTypeDefault", "", "hipGraphDependencyTypeDefault",
       RuleId::PK1001},
      {"cudaGraphDependencyTypeProgrammatic", "",
       "hipGraphDependencyTypeProgrammatic", RuleId::PK1001},
      {"cudaGraphInstantiateError", "", "hipGraphInstantiateError",
       RuleId::PK1001},
      {"cudaGraphInstantiateFlagDeviceLaunch", "",
       "hipGraphInstantiateFlagDeviceLaunch", RuleId::PK1001},
      {"cudaGraphInstantiateFlagUpload", "", "hipGraphInstantiateFlagUpload",
       RuleId::PK1001},
      {"cudaGraphInstantiateFlagUseNodePriority", "",
       "hipGraphInstantiateFlagUseNodePriority", RuleId::PK1001},
      {"cudaGraphInstantiateInvalidStructure", "",
       "hipGraphInstantiateInvalidStructure", RuleId::PK1001},
      {"cudaGraphInstantiateMultipleDevicesNotSupported", "",
       "hipGraphInstantiateMultipleDevicesNotSupported", RuleId::PK1001},
      {"cudaGraphInstantiateNodeOperationNotSupported", "",
       "hipGraphInstantiateNodeOperationNotSupported", RuleId::PK1001},
      {"cudaGraphInstantiateSuccess", "", "hipGraphInstantiateSuccess",
       RuleId::PK1001},
      {"cudaGraphMemAttrReservedMemCurrent", "",
       "hipGraphMemAttrReservedMemCurrent", RuleId::PK1001},
      {"cudaGraphMemAttrReservedMemHigh", "", "hipGraphMemAttrReservedMemHigh",
       RuleId::PK1001},
      {"cudaGraphMemAttrUsedMemCurrent", "", "hipGraphMemAttrUsedMemCurrent",
       RuleId::PK1001},
      {"cudaGraphMemAttrUsedMemHigh", "", "hipGraphMemAttrUsedMemHigh",
       RuleId::PK1001},
      {"cudaGraphUserObjectMove", "", "hipGraphUserObjectMove", RuleId::PK1001},
      {"cudaLaunchAttributeAccessPolicyWindow", "",
       "hipLaunchAttributeAccessPolicyWindow", RuleId::PK1001},
      {"cudaLaunchAttributeCooperative", "", "hipLaunchAttributeCooperative",
       RuleId::PK1001},
      {"cudaLaunchAttributePriority", "", "hipLaunchAttributePriority",
       RuleId::PK1001},
      {"cudaUserObjectNoDestructorSync", "", "hipUserObjectNoDestructorSync",
       RuleId::PK1001},
      // Functions, types and macros ROCm 6 has and ROCm 5.2 does not (found by
      // rules.cuda_enumerators once it checked them; under --rocm-version=5
      // they are flagged where used, PK1033).
      {"cudaChildGraphNodeParams", "", "hipChildGraphNodeParams",
       RuleId::PK1001},
      {"cudaDeviceGetGraphMemAttribute", "", "hipDeviceGetGraphMemAttribute",
       RuleId::PK1001},
      {"cudaDeviceGraphMemTrim", "", "hipDeviceGraphMemTrim", RuleId::PK1001},
      {"cudaDeviceSetGraphMemAttribute", "", "hipDeviceSetGraphMemAttribute",
       RuleId::PK1001},
      {"cudaEventRecordNodeParams", "", "hipEventRecordNodeParams",
       RuleId::PK1001},
      {"cudaEventWaitNodeParams", "", "hipEventWaitNodeParams", RuleId::PK1001},
      {"cudaExternalMemoryDedicated", "", "hipExternalMemoryDedicated",
       RuleId::PK1001},
      {"cudaExternalMemoryGetMappedMipmappedArray", "",
       "hipExternalMemoryGetMappedMipmappedArray", RuleId::PK1001},
      {"cudaExternalMemoryMipmappedArrayDesc", "",
       "hipExternalMemoryMipmappedArrayDesc", RuleId::PK1001},
      {"cudaExternalSemaphoreSignalNodeParams", "",
       "hipExternalSemaphoreSignalNodeParams", RuleId::PK1001},
      {"cudaExternalSemaphoreWaitNodeParams", "",
       "hipExternalSemaphoreWaitNodeParams", RuleId::PK1001},
      {"cudaFlushGPUDirectRDMAWritesOptions", "",
       "hipFlushGPUDirectRDMAWritesOptions", RuleId::PK1001},
      {"cudaGPUDirectRDMAWritesOrdering", "", "hipGPUDirectRDMAWritesOrdering",
       RuleId::PK1001},
      {"cudaGetFuncBySymbol", "", "hipGetFuncBySymbol", RuleId::PK1001},
      {"cudaGraphAddExternalSemaphoresSignalNode", "",
       "hipGraphAddExternalSemaphoresSignalNode", RuleId::PK1001},
      {"cudaGraphAddExternalSemaphoresWaitNode", "",
       "hipGraphAddExternalSemaphoresWaitNode", RuleId::PK1001},
      {"cudaGraphAddMemAllocNode", "", "hipGraphAddMemAllocNode",
       RuleId::PK1001},
      {"cudaGraphAddMemFreeNode", "", "hipGraphAddMemFreeNode", RuleId::PK1001},
      {"cudaGraphAddNode", "", "hipGraphAddNode", RuleId::PK1001},
      {"cudaGraphDebugDotFlags", "", "hipGraphDebugDotFlags", RuleId::PK1001},
      {"cudaGraphDebugDotPrint", "", "hipGraphDebugDotPrint", RuleId::PK1001},
      {"cudaGraphExecExternalSemaphoresSignalNodeSetParams", "",
       "hipGraphExecExternalSemaphoresSignalNodeSetParams", RuleId::PK1001},
      {"cudaGraphExecExternalSemaphoresWaitNodeSetParams", "",
       "hipGraphExecExternalSemaphoresWaitNodeSetParams", RuleId::PK1001},
      {"cudaGraphExecGetFlags", "", "hipGraphExecGetFlags", RuleId::PK1001},
      {"cudaGraphExecNodeSetParams", "", "hipGraphExecNodeSetParams",
       RuleId::PK1001},
      {"cudaGraphExternalSemaphoresSignalNodeGetParams", "",
       "hipGraphExternalSemaphoresSignalNodeGetParams", RuleId::PK1001},
      {"cudaGraphExternalSemaphoresSignalNodeSetParams", "",
       "hipGraphExternalSemaphoresSignalNodeSetParams", RuleId::PK1001},
      {"cudaGraphExternalSemaphoresWaitNodeGetParams", "",
       "hipGraphExternalSemaphoresWaitNodeGetParams", RuleId::PK1001},
      {"cudaGraphExternalSemaphoresWaitNodeSetParams", "",
       "hipGraphExternalSemaphoresWaitNodeSetParams", RuleId::PK1001},
      {"cudaGraphInstantiateResult", "", "hipGraphInstantiateResult",
       RuleId::PK1001},
      {"cudaGraphInstantiateWithParams", "", "hipGraphInstantiateWithParams",
       RuleId::PK1001},
      {"cudaGraphKernelNodeCopyAttributes", "",
       "hipGraphKernelNodeCopyAttributes", RuleId::PK1001},
      {"cudaGraphKernelNodePortDefault", "", "hipGraphKernelNodePortDefault",
       RuleId::PK1001},
      {"cudaGraphKernelNodePortLaunchCompletion", "",
       "hipGraphKernelNodePortLaunchCompletion", RuleId::PK1001},
      {"cudaGraphKernelNodePortProgrammatic", "",
       "hipGraphKernelNodePortProgrammatic", RuleId::PK1001},
      {"cudaGraphMemAllocNodeGetParams", "", "hipGraphMemAllocNodeGetParams",
       RuleId::PK1001},
      {"cudaGraphMemAttributeType", "", "hipGraphMemAttributeType",
       RuleId::PK1001},
      {"cudaGraphMemFreeNodeGetParams", "", "hipGraphMemFreeNodeGetParams",
       RuleId::PK1001},
      {"cudaGraphNodeGetEnabled", "", "hipGraphNodeGetEnabled", RuleId::PK1001},
      {"cudaGraphNodeParams", "", "hipGraphNodeParams", RuleId::PK1001},
      {"cudaGraphNodeSetEnabled", "", "hipGraphNodeSetEnabled", RuleId::PK1001},
      {"cudaGraphNodeSetParams", "", "hipGraphNodeSetParams", RuleId::PK1001},
      {"cudaGraphReleaseUserObject", "", "hipGraphReleaseUserObject",
       RuleId::PK1001},
      {"cudaGraphRetainUserObject", "", "hipGraphRetainUserObject",
       RuleId::PK1001},
      {"cudaHostRegisterReadOnly", "", "hipHostRegisterReadOnly",
       RuleId::PK1001},
      {"cudaKernelNodeAttributePriority", "", "hipKernelNodeAttributePriority",
       RuleId::PK1001},
      {"cudaLaunchAttributeID", "", "hipLaunchAttributeID", RuleId::PK1001},
      {"cudaLaunchAttributeValue", "", "hipLaunchAttributeValue",
       RuleId::PK1001},
      {"cudaMemAllocNodeParams", "", "hipMemAllocNodeParams", RuleId::PK1001},
      {"cudaMemFreeNodeParams", "", "hipMemFreeNodeParams", RuleId::PK1001},
      {"cudaMemcpyNodeParams", "", "hipMemcpyNodeParams", RuleId::PK1001},
      {"cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags", "",
       "hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags",
       RuleId::PK1001},
      {"cudaSetValidDevices", "", "hipSetValidDevices", RuleId::PK1001},
      {"cudaStreamBeginCaptureToGraph", "", "hipStreamBeginCaptureToGraph",
       RuleId::PK1001},
      {"cudaStreamGetDevice", "", "hipStreamGetDevice", RuleId::PK1001},
      {"cudaUserObjectCreate", "", "hipUserObjectCreate", RuleId::PK1001},
      {"cudaUserObjectFlags", "", "hipUserObjectFlags", RuleId::PK1001},
      {"cudaUserObjectRelease", "", "hipUserObjectRelease", RuleId::PK1001},
      {"cudaUserObjectRetain", "", "hipUserObjectRetain", RuleId::PK1001},
      {"cudaUserObjectRetainFlags", "", "hipUserObjectRetainFlags",
       RuleId::PK1001},
      {"cudaUserObject_t", "", "hipUserObject_t", RuleId::PK1001},
  };
  for (const RocmSpelling &S : Table)
    if (Cuda == S.Cuda)
      return &S;
  return nullptr;
}

/// The HIP spelling of \p Cuda for the ROCm version of \p TC, with the
/// reason of the edit; false when the version has none (or the name does
/// not depend on it).
bool versionedSpelling(const TargetContext &TC, llvm::StringRef Cuda,
                       std::string &Hip, std::string &Why, RuleId &Rule) {
  const RocmSpelling *S = rocmSpelling(Cuda);
  if (!S)
    return false;
  Rule = S->Rule;
  bool Six = TC.Opts.RocmMajor >= 6;
  Hip = Six ? S->Rocm6 : S->Rocm5;
  if (Hip.empty())
    return false;
  Why = llvm::formatv("{0} -> {1} for ROCm {2} (--rocm-version; ROCm {3} "
                      "spells it {4})",
                      Cuda, Hip, Six ? "6" : "5", Six ? "5" : "6",
                      Six ? (*S->Rocm5 ? S->Rocm5 : "nothing") : S->Rocm6)
            .str();
  return true;
}

/// One note per file whose output depends on --rocm-version (per rule: the
/// bfloat16 spellings, PK1016, the 8-bit float ones, PK1027, and the runtime
/// enumerators only ROCm 6 has, PK1001).
void noteRocmDependence(TargetContext &TC, llvm::StringRef File,
                        unsigned Offset, RuleId Rule) {
  TC.finding(File, Offset, Rule, Severity::Note,
             llvm::formatv("this output depends on --rocm-version (here {0}): "
                           "the {1} of ROCm {0}",
                           TC.Opts.RocmMajor >= 6 ? "6" : "5",
                           Rule == RuleId::PK1027
                               ? "8-bit floating-point types, header and "
                                 "conversions"
                           : Rule == RuleId::PK1016
                               ? "bfloat16 types, header and conversions"
                               : "runtime API enumerators")
                 .str());
}

} // namespace

// ---- rename pass ------------------------------------------------------------

namespace {

void collectDeclaredNames(const DeclContext *DC, const TargetContext &TC,
                          llvm::StringSet<> &Names, bool WithFields, int Depth);

void collectDeclaredName(const Decl *D, const TargetContext &TC,
                         llvm::StringSet<> &Names, bool WithFields, int Depth) {
  if (const auto *ND = dyn_cast<NamedDecl>(D))
    if (ND->getIdentifier() && TC.isUserLoc(ND->getLocation()) &&
        (WithFields || !isa<FieldDecl>(ND)))
      Names.insert(ND->getName());
  if (const auto *Inner = dyn_cast<DeclContext>(D))
    if (!isa<FunctionDecl>(D) || TC.isUserLoc(D->getLocation()))
      collectDeclaredNames(Inner, TC, Names, WithFields, Depth + 1);
  if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
    collectDeclaredNames(FT->getTemplatedDecl(), TC, Names, WithFields,
                         Depth + 1);
  if (const auto *CT = dyn_cast<ClassTemplateDecl>(D))
    collectDeclaredNames(CT->getTemplatedDecl(), TC, Names, WithFields,
                         Depth + 1);
}

void collectDeclaredNames(const DeclContext *DC, const TargetContext &TC,
                          llvm::StringSet<> &Names, bool WithFields,
                          int Depth) {
  if (Depth > 64)
    return;
  for (const Decl *D : DC->decls())
    collectDeclaredName(D, TC, Names, WithFields, Depth);
}

} // namespace

void pk::collectUserDeclaredNames(const TargetContext &TC,
                                  llvm::StringSet<> &Names, bool WithFields) {
  // Declarations in the user's files lie in the user's top-level
  // declarations (a header's declaration context holds only the header's).
  for (const Decl *D : TC.userTopLevelDecls())
    collectDeclaredName(D, TC, Names, WithFields, 0);
}

void pk::runRenamePass(TargetContext &TC, bool ToHip) {
  llvm::StringSet<> Declared;
  collectUserDeclaredNames(TC, Declared, /*WithFields=*/false);
  const LangOptions &LO = TC.Ctx().getLangOpts();
  std::set<std::string> Done;
  std::set<std::pair<std::string, RuleId>> NotedRocm;
  for (const std::string &File : TC.PF.UserFiles) {
    if (!Done.insert(File).second)
      continue;
    llvm::StringRef Buf = TC.contents(File);
    if (Buf.empty())
      continue;
    const FileEdits *Covering = TC.Edits.find(File);
    Lexer L(SourceLocation::getFromRawEncoding(1), LO, Buf.begin(), Buf.begin(),
            Buf.end());
    L.SetCommentRetentionState(false);
    Token Tok;
    bool InInclude = false;
    while (!L.LexFromRawLexer(Tok)) {
      if (Tok.isAtStartOfLine())
        InInclude = false;
      if (Tok.is(tok::hash) && Tok.isAtStartOfLine()) {
        Token Next;
        if (L.LexFromRawLexer(Next))
          break;
        if (Next.is(tok::raw_identifier) &&
            (Next.getRawIdentifier() == "include" ||
             Next.getRawIdentifier() == "include_next"))
          InInclude = true; // header names are the include pass's business
        continue;
      }
      if (InInclude || Tok.isNot(tok::raw_identifier))
        continue;
      llvm::StringRef Name = Tok.getRawIdentifier();
      const RenameEntry *E = TC.DB.lookup(Name, ToHip);
      // A token an earlier pass rewrote with what surrounds it (a case
      // label made a comment, PK1034) is that pass's.
      if (E && Covering &&
          Covering->covers(Tok.getLocation().getRawEncoding() - 1))
        continue;
      std::string VHip, VWhy;
      RuleId VRule = RuleId::PK1016;
      bool Versioned = ToHip && TC.T == Target::HIP && !Declared.count(Name) &&
                       versionedSpelling(TC, Name, VHip, VWhy, VRule);
      if (!E && !Versioned)
        continue;
      unsigned Off = Tok.getLocation().getRawEncoding() - 1;
      if (Versioned) {
        if (NotedRocm.insert({File, VRule}).second)
          noteRocmDependence(TC, File, Off, VRule);
        // The table's own spelling (ROCm 5's) stays the table's edit.
        if (!(E && E->Unsupported.empty() && E->Hip == VHip)) {
          if (VHip != Name)
            TC.edit(File, Off, Name.size(), VHip, VRule, VWhy);
          continue;
        }
      }
      if (Declared.count(Name)) {
        TC.finding(File, Off, RuleId::PK1011, Severity::Note,
                   llvm::formatv("'{0}' is declared in your code; left as is "
                                 "(it shadows the {1} API of that name)",
                                 Name, ToHip ? "CUDA" : "HIP")
                       .str());
        continue;
      }
      if (!E->Unsupported.empty()) {
        TC.finding(File, Off, RuleId::PK1010, Severity::Warning,
                   llvm::formatv("'{0}' has no HIP counterpart: {1}", Name,
                                 E->Unsupported)
                       .str());
        continue;
      }
      std::string Why = llvm::formatv("{0} -> {1}", E->Cuda, E->Hip).str();
      if (!E->Note.empty())
        Why += " (" + E->Note + ")";
      TC.edit(File, Off, Name.size(), E->Hip, RuleRef::fromTable(E->RuleID),
              Why);
    }
  }
}

// ---- raw tokens ---------------------------------------------------------------

RawTokenCursor::RawTokenCursor(const TargetContext &TC, llvm::StringRef Buf)
    : RawTokenCursor(TC.Ctx().getLangOpts(), Buf) {}

RawTokenCursor::RawTokenCursor(const LangOptions &LO, llvm::StringRef Buf)
    : Buf(Buf),
      L(std::make_unique<Lexer>(SourceLocation::getFromRawEncoding(1), LO,
                                Buf.begin(), Buf.begin(), Buf.end())),
      End{static_cast<unsigned>(Buf.size()), 0, true, tok::eof,
          llvm::StringRef()} {}

RawTokenCursor::~RawTokenCursor() = default;

bool RawTokenCursor::lexOne() {
  if (Ended)
    return false;
  Token T;
  L->LexFromRawLexer(T);
  if (T.is(tok::eof)) {
    Ended = true;
    return false;
  }
  Window.push_back(
      {T.getLocation().getRawEncoding() - 1, T.getLength(), T.isAtStartOfLine(),
       T.getKind(),
       T.is(tok::raw_identifier) ? T.getRawIdentifier() : llvm::StringRef()});
  return true;
}

const RawToken &RawTokenCursor::operator[](int K) {
  if (K < 0 && Cur < static_cast<size_t>(-K))
    return End;
  size_t I = Cur + K;
  assert(I + Behind >= Cur && "read further back than the window holds");
  // Drop what is too far behind, then lex up to the token asked for.
  while (Base + Behind < Cur && !Window.empty()) {
    Window.pop_front();
    ++Base;
  }
  while (I >= Base + Window.size())
    if (!lexOne())
      return End;
  return Window[I - Base];
}

// ---- include pass -----------------------------------------------------------

void pk::forEachDirective(llvm::StringRef Text,
                          llvm::function_ref<void(const Directive &)> F) {
  // A UTF-8 byte-order mark is not part of the first line's text.
  size_t Pos = Text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (Pos < Text.size()) {
    size_t EOL = Text.find('\n', Pos);
    if (EOL == llvm::StringRef::npos)
      EOL = Text.size();
    llvm::StringRef T = Text.slice(Pos, EOL).ltrim();
    if (T.consume_front("#")) {
      Directive D;
      D.Begin = Pos;
      D.End = EOL < Text.size() ? EOL + 1 : EOL;
      T = T.ltrim();
      D.Keyword =
          T.take_while([](char C) { return llvm::isAlnum(C) || C == '_'; });
      D.Rest = T.drop_front(D.Keyword.size()).ltrim();
      if (D.Keyword == "include" && !D.Rest.empty()) {
        char Open = D.Rest.front();
        char Close = Open == '<' ? '>' : Open == '"' ? '"' : 0;
        size_t End = Close ? D.Rest.find(Close, 1) : llvm::StringRef::npos;
        if (End != llvm::StringRef::npos) {
          D.Header = D.Rest.slice(1, End);
          D.HeaderOffset = D.Header.data() - Text.data();
          D.Angled = Open == '<';
        }
      }
      F(D);
    }
    Pos = EOL + 1;
  }
}

void pk::reportUnportedIncludes(TargetContext &TC) {
  for (const UnportedInclude &U : TC.Facts.UnportedIncludes)
    if (!U.Handled)
      TC.finding(U.File, U.Begin, RuleId::PK1010, Severity::Warning,
                 llvm::formatv("header <{0}> has no HIP counterpart: {1}",
                               U.Header, U.Reason)
                     .str());
}

void pk::reportRefusedEdits(TargetContext &TC) {
  for (const RefusedEdit &R : TC.Facts.RefusedEdits) {
    // The rule's own report of the construct, on the line of the use.
    llvm::StringRef C = TC.contents(R.File);
    unsigned Line =
        1 + C.take_front(std::min<size_t>(R.Offset, C.size())).count('\n');
    bool Reported = llvm::any_of(TC.Findings, [&](const Finding &F) {
      return F.RuleID == R.Rule && F.File == R.File && F.Line == Line;
    });
    if (Reported)
      continue;
    TC.finding(R.File, R.Offset, RuleRef::fromTable(R.Rule), Severity::Warning,
               llvm::formatv("not translated: {0}; the construct is in a "
                             "macro here, and the edit would change what "
                             "the macro's other uses expand to (or its "
                             "tokens are made by ## or #): port it by hand",
                             R.Why)
                   .str());
  }
}

bool TargetContext::editedBy(llvm::StringRef File, unsigned Offset,
                             RuleId R) const {
  const FileEdits *FE = Edits.find(File);
  if (!FE)
    return false;
  for (const Edit &E : FE->at(Offset))
    if (E.RuleID == ruleName(R))
      return true;
  return false;
}

void pk::runIncludePass(TargetContext &TC, bool ToHip) {
  for (const std::string &File : TC.PF.UserFiles) {
    forEachDirective(TC.contents(File), [&](const Directive &D) {
      llvm::StringRef Name = D.Header;
      if (Name.empty())
        return;
      unsigned NameOff = D.HeaderOffset;
      std::string VHip, VWhy;
      RuleId VRule = RuleId::PK1016;
      const RenameEntry *HE = TC.DB.lookupHeader(Name, ToHip);
      if (ToHip && TC.T == Target::HIP &&
          versionedSpelling(TC, Name, VHip, VWhy, VRule) &&
          !(HE && HE->Unsupported.empty() && HE->Hip == VHip)) {
        TC.edit(File, NameOff, Name.size(), VHip, VRule, VWhy);
        return;
      }
      if (const RenameEntry *E = TC.DB.lookupHeader(Name, ToHip)) {
        if (!E->Unsupported.empty()) {
          TC.Facts.UnportedIncludes.push_back(
              {File, D.Begin, D.End, Name.str(), E->Unsupported});
        } else if (E->Hip.empty()) {
          TC.edit(
              File, D.Begin, D.End - D.Begin, "", RuleRef::fromTable(E->RuleID),
              llvm::formatv("<{0}> is not needed on the target", Name).str());
        } else {
          TC.edit(File, NameOff, Name.size(), E->Hip,
                  RuleRef::fromTable(E->RuleID),
                  llvm::formatv("<{0}> -> <{1}>", Name, E->Hip).str());
        }
      } else {
        // A local header of this TU: point at its translated name. One
        // named in <...> is local when found through an -I directory of the
        // program (a user file of the TU, not a system header).
        llvm::SmallString<256> Cand(llvm::sys::path::parent_path(File));
        llvm::sys::path::append(Cand, Name);
        llvm::sys::path::remove_dots(Cand, true);
        bool Local = !D.Angled && TC.isUserFile(Cand);
        if (!Local)
          for (const auto &U : TC.PF.UserFiles)
            if (llvm::StringRef(U).ends_with(("/" + Name).str()))
              Local = true;
        std::string New =
            TC.Opts.KeepNames ? Name.str() : outputName(Name, TC.T);
        if (Local && New != Name)
          TC.edit(
              File, NameOff, Name.size(), New, RuleId::PK1006,
              llvm::formatv("local header {0} is translated to {1}", Name, New)
                  .str());
      }
    });
  }
}

void pk::insertHelpers(TargetContext &TC) {
  for (const auto &[File, Blocks] : TC.Helpers) {
    if (Blocks.empty())
      continue;
    llvm::StringRef Buf = TC.contents(File);
    // After the last top-level #include (or at the top): one outside every
    // conditional but the file's include guard (`#ifndef X` then
    // `#define X` as its first directives), so that the helpers are never
    // compiled out with an optional dependency (`#ifdef USE_X #include
    // <x.h> #endif`).
    unsigned At = 0;
    int Depth = 0, GuardDepth = 0, Seen = 0;
    llvm::StringRef GuardName;
    forEachDirective(Buf, [&](const Directive &D) {
      ++Seen;
      if (Seen == 1 && D.Keyword == "ifndef")
        GuardName = D.Rest.take_while(
            [](char C) { return llvm::isAlnum(C) || C == '_'; });
      if (Seen == 2 && !GuardName.empty() && D.Keyword == "define" &&
          D.Rest.starts_with(GuardName))
        GuardDepth = 1;
      if (D.Keyword.starts_with("if"))
        ++Depth;
      else if (D.Keyword == "endif")
        --Depth;
      else if (D.Keyword.starts_with("include") && Depth <= GuardDepth)
        At = D.End;
    });
    std::string Text;
    for (const auto &[Key, Body] : Blocks)
      Text += Body;
    if (At == Buf.size() && !Buf.ends_with("\n"))
      Text = "\n" + Text;
    TC.edit(File, At, 0, Text, Blocks.begin()->first.Rule,
            "helpers used by the rewrites in this file");
  }
}
