//===- pkv_rt.h - support code for generated validation drivers -----------===//
//
// Standard C++ only.  The validation harness writes this header next to each
// generated driver and includes it first; the unit tests include it directly.
// It provides the portable input generator, half/bfloat16 bit conversions,
// the output comparison and the one-line JSON result.
//
//===----------------------------------------------------------------------===//
#ifndef PKV_RT_H
#define PKV_RT_H

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace pkv {

enum Ty { T_F32, T_F64, T_I32, T_U32, T_F16, T_BF16, T_U8 };
enum Init { I_ZERO, I_UNIFORM, I_IOTA, I_CONST };

inline std::size_t tySize(Ty t) {
  switch (t) {
  case T_F32:
  case T_I32:
  case T_U32:
    return 4;
  case T_F64:
    return 8;
  case T_F16:
  case T_BF16:
    return 2;
  case T_U8:
    return 1;
  }
  return 0;
}

inline bool tyIsInteger(Ty t) { return t == T_I32 || t == T_U32 || t == T_U8; }

/// SplitMix64 (Steele, Lea, Flood 2014): the same sequence on every platform.
struct SplitMix64 {
  std::uint64_t State;
  explicit SplitMix64(std::uint64_t Seed) : State(Seed) {}
  std::uint64_t next() {
    std::uint64_t Z = (State += 0x9e3779b97f4a7c15ULL);
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
    return Z ^ (Z >> 31);
  }
  /// Uniform in [0, 1) with 53 random bits.
  double nextUnit() {
    return (double)(next() >> 11) * (1.0 / 9007199254740992.0);
  }
};

inline std::uint32_t floatBits(float F) {
  std::uint32_t U;
  std::memcpy(&U, &F, 4);
  return U;
}
inline float bitsFloat(std::uint32_t U) {
  float F;
  std::memcpy(&F, &U, 4);
  return F;
}

/// IEEE binary16, round to nearest even; overflow gives infinity.
inline std::uint16_t floatToHalfBits(float F) {
  const std::uint32_t X = floatBits(F);
  const std::uint32_t Sign = (X >> 16) & 0x8000u;
  const std::uint32_t Abs = X & 0x7fffffffu;
  if (Abs >= 0x7f800000u) // inf or nan
    return (std::uint16_t)(Sign | 0x7c00u | (Abs > 0x7f800000u ? 0x200u : 0u));
  if (Abs >= 0x477ff000u) // rounds to >= 65520: infinity
    return (std::uint16_t)(Sign | 0x7c00u);
  if (Abs < 0x38800000u) { // result is subnormal or zero
    if (Abs < 0x33000000u) // < 2^-25: rounds to zero
      return (std::uint16_t)Sign;
    const std::uint32_t Exp = Abs >> 23;
    const std::uint32_t Mant = (Abs & 0x7fffffu) | 0x800000u;
    const std::uint32_t Shift = 126u - Exp; // 14..24
    std::uint32_t H = Mant >> Shift;
    const std::uint32_t Rem = Mant & ((1u << Shift) - 1u);
    const std::uint32_t Half = 1u << (Shift - 1u);
    if (Rem > Half || (Rem == Half && (H & 1u)))
      ++H;
    return (std::uint16_t)(Sign | H);
  }
  std::uint32_t H = ((Abs - 0x38000000u) >> 13);
  const std::uint32_t Rem = Abs & 0x1fffu;
  if (Rem > 0x1000u || (Rem == 0x1000u && (H & 1u)))
    ++H;
  return (std::uint16_t)(Sign | H);
}

inline float halfBitsToFloat(std::uint16_t H) {
  const std::uint32_t Sign = (std::uint32_t)(H & 0x8000u) << 16;
  const std::uint32_t Exp = (H >> 10) & 0x1fu;
  const std::uint32_t Mant = H & 0x3ffu;
  if (Exp == 0) {
    const float V = std::ldexp((float)Mant, -24);
    return Sign ? -V : V;
  }
  if (Exp == 31)
    return bitsFloat(Sign | 0x7f800000u | (Mant << 13));
  return bitsFloat(Sign | ((Exp + 112u) << 23) | (Mant << 13));
}

/// bfloat16 (upper half of binary32), round to nearest even.
inline std::uint16_t floatToBf16Bits(float F) {
  const std::uint32_t X = floatBits(F);
  if ((X & 0x7fffffffu) > 0x7f800000u) // nan: keep it quiet
    return (std::uint16_t)((X >> 16) | 0x40u);
  const std::uint32_t Rounding = 0x7fffu + ((X >> 16) & 1u);
  return (std::uint16_t)((X + Rounding) >> 16);
}

inline float bf16BitsToFloat(std::uint16_t B) {
  return bitsFloat((std::uint32_t)B << 16);
}

/// Stores \p V (already in range for integer types) as element \p I of type \p
/// T.
inline void storeElem(void *P, Ty T, std::size_t I, double V) {
  unsigned char *B = static_cast<unsigned char *>(P);
  switch (T) {
  case T_F32: {
    float F = (float)V;
    std::memcpy(B + 4 * I, &F, 4);
    break;
  }
  case T_F64:
    std::memcpy(B + 8 * I, &V, 8);
    break;
  case T_I32: {
    std::int32_t X = (std::int32_t)(std::int64_t)V;
    std::memcpy(B + 4 * I, &X, 4);
    break;
  }
  case T_U32: {
    std::uint32_t X = (std::uint32_t)(std::int64_t)V;
    std::memcpy(B + 4 * I, &X, 4);
    break;
  }
  case T_U8:
    B[I] = (unsigned char)(std::int64_t)V;
    break;
  case T_F16: {
    std::uint16_t X = floatToHalfBits((float)V);
    std::memcpy(B + 2 * I, &X, 2);
    break;
  }
  case T_BF16: {
    std::uint16_t X = floatToBf16Bits((float)V);
    std::memcpy(B + 2 * I, &X, 2);
    break;
  }
  }
}

inline double loadElem(const void *P, Ty T, std::size_t I) {
  const unsigned char *B = static_cast<const unsigned char *>(P);
  switch (T) {
  case T_F32: {
    float F;
    std::memcpy(&F, B + 4 * I, 4);
    return F;
  }
  case T_F64: {
    double D;
    std::memcpy(&D, B + 8 * I, 8);
    return D;
  }
  case T_I32: {
    std::int32_t X;
    std::memcpy(&X, B + 4 * I, 4);
    return X;
  }
  case T_U32: {
    std::uint32_t X;
    std::memcpy(&X, B + 4 * I, 4);
    return X;
  }
  case T_U8:
    return B[I];
  case T_F16: {
    std::uint16_t X;
    std::memcpy(&X, B + 2 * I, 2);
    return halfBitsToFloat(X);
  }
  case T_BF16: {
    std::uint16_t X;
    std::memcpy(&X, B + 2 * I, 2);
    return bf16BitsToFloat(X);
  }
  }
  return 0.0;
}

/// Fills \p N elements.  uniform: floating types draw lo + (hi - lo) * u with
/// u in [0, 1); integer types draw an integer in [lo, hi] inclusive.
/// iota: element i is i.  const: every element is \p Value.
inline void fill(void *P, Ty T, std::size_t N, Init K, double Lo, double Hi,
                 std::uint64_t Seed, double Value) {
  SplitMix64 G(Seed);
  for (std::size_t I = 0; I < N; ++I) {
    double V = 0.0;
    switch (K) {
    case I_ZERO:
      V = 0.0;
      break;
    case I_IOTA:
      V = (double)I;
      break;
    case I_CONST:
      V = Value;
      break;
    case I_UNIFORM:
      if (tyIsInteger(T)) {
        const std::int64_t L = (std::int64_t)Lo, H = (std::int64_t)Hi;
        const std::uint64_t Range = (std::uint64_t)(H - L) + 1u;
        V = (double)(L + (std::int64_t)(G.next() % Range));
      } else {
        V = Lo + (Hi - Lo) * G.nextUnit();
      }
      break;
    }
    storeElem(P, T, I, V);
  }
}

struct CompareStats {
  std::size_t Count = 0;
  std::size_t Mismatches = 0;
  std::size_t NanMismatches = 0;
  long long FirstBad = -1;
  double GotAtFirst = 0.0, WantAtFirst = 0.0;
  double MaxAbs = 0.0; ///< over all finite pairs
  double MaxRel = 0.0; ///< over finite pairs whose expected value is non-zero
};

/// An element fails when its error exceeds both the absolute tolerance and
/// the relative tolerance times |want|.  Integer types compare exactly.
/// NaN matches only NaN; infinities match only the same infinity.
inline CompareStats compare(const void *Got, const void *Want, Ty T,
                            std::size_t N, double AbsTol, double RelTol) {
  CompareStats S;
  S.Count = N;
  const bool Exact = tyIsInteger(T);
  for (std::size_t I = 0; I < N; ++I) {
    const double G = loadElem(Got, T, I), W = loadElem(Want, T, I);
    bool Bad = false;
    if (std::isnan(G) || std::isnan(W)) {
      if (!(std::isnan(G) && std::isnan(W))) {
        Bad = true;
        ++S.NanMismatches;
      }
    } else if (std::isinf(G) || std::isinf(W)) {
      Bad = G != W;
    } else {
      const double Err = std::fabs(G - W);
      if (Err > S.MaxAbs)
        S.MaxAbs = Err;
      if (W != 0.0 && Err / std::fabs(W) > S.MaxRel)
        S.MaxRel = Err / std::fabs(W);
      Bad = Exact ? (G != W) : (Err > AbsTol && Err > RelTol * std::fabs(W));
    }
    if (Bad) {
      if (S.Mismatches == 0) {
        S.FirstBad = (long long)I;
        S.GotAtFirst = G;
        S.WantAtFirst = W;
      }
      ++S.Mismatches;
    }
  }
  return S;
}

inline std::string jsonNumber(double V) {
  if (!std::isfinite(V))
    return std::isnan(V) ? "\"nan\"" : (V > 0 ? "\"inf\"" : "\"-inf\"");
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.9g", V);
  return Buf;
}

inline std::string jsonString(const std::string &S) {
  std::string R = "\"";
  for (unsigned char C : S) {
    if (C == '"' || C == '\\') {
      R += '\\';
      R += (char)C;
    } else if (C == '\n')
      R += "\\n";
    else if (C < 0x20) {
      char Buf[8];
      std::snprintf(Buf, sizeof Buf, "\\u%04x", C);
      R += Buf;
    } else
      R += (char)C;
  }
  return R + "\"";
}

/// The variant a driver runs as, from PKV_VARIANT (the harness sets it): a
/// driver that does not name its variant compiles to the same object for
/// the original and a byte-identical port.
inline const char *variantFromEnv() {
  const char *V = std::getenv("PKV_VARIANT");
  return V && *V ? V : "unnamed";
}

/// Collects per-output results and prints the single result line.
class Report {
public:
  Report(const char *Case, const char *Variant)
      : Case(Case), Variant(Variant) {}

  void compare(const char *Name, Ty T, const void *Got, const void *Want,
               std::size_t N, double AbsTol, double RelTol) {
    const CompareStats S = pkv::compare(Got, Want, T, N, AbsTol, RelTol);
    if (S.Mismatches)
      Failed = true;
    std::string O = "{\"name\":" + jsonString(Name) +
                    ",\"count\":" + std::to_string(S.Count) +
                    ",\"mismatches\":" + std::to_string(S.Mismatches) +
                    ",\"nan_mismatches\":" + std::to_string(S.NanMismatches) +
                    ",\"max_abs\":" + jsonNumber(S.MaxAbs) +
                    ",\"max_rel\":" + jsonNumber(S.MaxRel) +
                    ",\"first_bad\":" + std::to_string(S.FirstBad) +
                    ",\"got\":" + jsonNumber(S.GotAtFirst) +
                    ",\"want\":" + jsonNumber(S.WantAtFirst) + "}";
    Outputs.push_back(O);
  }

  /// Prints the result line and returns the process exit status.
  int finish() const {
    print(Failed ? "mismatch" : "pass", "");
    return Failed ? 1 : 0;
  }

  /// Reports a host-API failure and exits.
  [[noreturn]] void fail(const std::string &Message) const {
    print("error", Message);
    std::exit(3);
  }

private:
  void print(const char *Status, const std::string &Message) const {
    std::string L = "{\"pkv\":1,\"case\":" + jsonString(Case) +
                    ",\"variant\":" + jsonString(Variant) + ",\"status\":\"" +
                    Status + "\"";
    if (!Message.empty())
      L += ",\"message\":" + jsonString(Message);
    L += ",\"outputs\":[";
    for (std::size_t I = 0; I < Outputs.size(); ++I)
      L += (I ? "," : "") + Outputs[I];
    L += "]}";
    std::fflush(stdout);
    std::printf("\n%s\n", L.c_str());
    std::fflush(stdout);
  }

  std::string Case, Variant;
  std::vector<std::string> Outputs;
  bool Failed = false;
};

} // namespace pkv

#endif // PKV_RT_H
