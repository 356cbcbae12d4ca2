//===- ValidateReport.cpp - the results table and JSON of validate --------===//
// Rules: none (validation harness)
//===----------------------------------------------------------------------===//

#include "ValidateInternal.h"

namespace pk::vrun {

std::string errCell(const Cell &C) {
  if (C.Status == CellStatus::Skip)
    return "SKIP";
  if (C.Status == CellStatus::Pass) {
    // PASS*: a check relaxed by --allow fired.
    const char *Pass = C.Relaxed.empty() ? "PASS" : "PASS*";
    if (!C.HaveErrors)
      return Pass;
    return formatv("{0} {1}/{2}", Pass, format("%.1e", C.MaxAbs),
                   format("%.1e", C.MaxRel))
        .str();
  }
  return "FAIL " + C.Kind;
}

void printTable(const std::vector<Row> &Rows, ArrayRef<std::string> Variants,
                bool Program, int Lanes, raw_ostream &Out) {
  size_t NameW = Program ? 7 : 4;
  for (const Row &R : Rows)
    NameW = std::max(NameW, R.Name.size());
  const size_t CellW = 22;
  Out << left_justify(Program ? "program" : "case", NameW + 2);
  for (const std::string &V : Variants) {
    std::string H = V;
    if (V == "original")
      H += Lanes ? " (" + std::to_string(Lanes) + ")" : " (32)";
    else if (Lanes)
      H += " (" + std::to_string(Lanes) + ")";
    else
      H += V == "hip" ? " (64)" : V == "cuda" ? " (32)" : "";
    Out << left_justify(H, CellW);
  }
  Out << "\n";
  for (const Row &R : Rows) {
    Out << left_justify(R.Name, NameW + 2);
    if (!R.SpecError.empty()) {
      Out << "FAIL spec\n";
      continue;
    }
    for (const std::string &V : Variants) {
      auto It =
          llvm::find_if(R.Cells, [&](const Cell &C) { return C.Variant == V; });
      Out << left_justify(It == R.Cells.end() ? "-" : errCell(*It), CellW);
    }
    Out << "\n";
  }
  if (!Program)
    Out << "(PASS a/r: largest absolute / relative error over the outputs)\n";
}

json::Value cellJson(const Cell &C) {
  json::Object O;
  O["variant"] = C.Variant;
  O["status"] = C.Status == CellStatus::Pass   ? "pass"
                : C.Status == CellStatus::Skip ? "skip"
                                               : "fail";
  if (!C.Kind.empty())
    O["kind"] = C.Kind;
  if (!C.Reason.empty())
    O["reason"] = C.Reason;
  if (!C.Detail.empty())
    O["detail"] = C.Detail;
  if (!C.HipHeaders.empty()) {
    O["hip_headers"] = C.HipHeaders;
    json::Array Archs;
    for (const char *A : HipArchs)
      Archs.push_back(A);
    O["hip_archs"] = std::move(Archs);
  }
  if (!C.Notes.empty()) {
    json::Array Notes;
    for (const std::string &N : C.Notes)
      Notes.push_back(N);
    O["notes"] = std::move(Notes);
  }
  if (C.Launches) {
    O["launches"] = (int64_t)C.Launches->Launches;
    O["threads"] = (int64_t)C.Launches->Threads;
    O["replayed_launches"] = (int64_t)C.Launches->Replayed;
    O["kernel_seconds"] = C.Launches->KernelSeconds;
    O["run_seconds"] = C.Launches->RunSeconds;
    if (C.Launches->RunningSeconds > 0)
      O["running_launch_seconds"] = C.Launches->RunningSeconds;
  }
  if (!C.Relaxed.empty()) {
    json::Array Relaxed;
    for (const std::string &N : C.Relaxed)
      Relaxed.push_back(N);
    O["relaxed"] = std::move(Relaxed);
  }
  auto Num = [](double D) -> json::Value {
    if (std::isfinite(D))
      return D;
    return std::isnan(D) ? "nan" : D > 0 ? "inf" : "-inf";
  };
  if (C.HaveErrors) {
    O["max_abs"] = Num(C.MaxAbs);
    O["max_rel"] = Num(C.MaxRel);
  }
  json::Array Outs;
  for (const OutputResult &R : C.Outputs)
    Outs.push_back(json::Object{{"name", R.Name},
                                {"count", (int64_t)R.Count},
                                {"mismatches", (int64_t)R.Mismatches},
                                {"nan_mismatches", (int64_t)R.NanMismatches},
                                {"max_abs", Num(R.MaxAbs)},
                                {"max_rel", Num(R.MaxRel)},
                                {"first_bad", R.FirstBad}});
  if (!Outs.empty())
    O["outputs"] = std::move(Outs);
  if (C.NkiOps)
    O["nki_ops"] = (int64_t)*C.NkiOps;
  O["exit_code"] = C.ExitCode;
  O["seconds"] = std::round(C.Seconds * 1000) / 1000;
  return O;
}

} // namespace pk::vrun
