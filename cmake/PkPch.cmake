# Precompiled headers.  Each source of the libraries parses clang's AST
# headers, LLVM's support headers and the standard library before a line of
# its own (about 5 s per file with GCC); a precompiled header per target
# parses them once.  -DPK_PCH=OFF compiles without (every source includes
# what it uses either way).
#
# ccache caches compiles that use a precompiled header only when told that
# the header's macros and __TIME__ may be ignored (its sloppiness
# pch_defines,time_macros; CMake includes the header with -include).

option(PK_PCH "Precompile the clang, LLVM and standard headers once per target" ON)

set(PK_PCH_STD <algorithm> <functional> <map> <memory> <optional> <set>
    <string> <tuple> <utility> <vector>)
set(PK_PCH_LLVM
    [["llvm/ADT/SmallString.h"]] [["llvm/ADT/SmallVector.h"]]
    [["llvm/ADT/StringMap.h"]] [["llvm/ADT/StringRef.h"]]
    [["llvm/Support/Error.h"]] [["llvm/Support/FileSystem.h"]]
    [["llvm/Support/FormatVariadic.h"]] [["llvm/Support/JSON.h"]]
    [["llvm/Support/MemoryBuffer.h"]] [["llvm/Support/Path.h"]]
    [["llvm/Support/raw_ostream.h"]])
set(PK_PCH_CLANG
    [["clang/AST/ASTContext.h"]] [["clang/AST/Attr.h"]]
    [["clang/AST/Decl.h"]] [["clang/AST/DeclCXX.h"]]
    [["clang/AST/DeclTemplate.h"]] [["clang/AST/Expr.h"]]
    [["clang/AST/ExprCXX.h"]] [["clang/AST/Stmt.h"]]
    [["clang/AST/StmtCXX.h"]] [["clang/Basic/SourceManager.h"]]
    [["clang/Lex/Lexer.h"]])

# pk_precompile(TARGET [CLANG]): two precompiled headers serve the
# libraries, since each costs about as much to build as it saves in a few
# files: the standard and LLVM headers (built with pkCore) and the same plus
# clang's AST headers (built with pkFrontend); the other libraries reuse
# them, so their own definitions go on the files that read them.  An
# executable (compiled -fPIE, where the libraries are -fPIC) builds its own.
function(pk_precompile target)
  if(NOT PK_PCH)
    return()
  endif()
  cmake_parse_arguments(PCH "CLANG" "" "" ${ARGN})
  if(PCH_CLANG)
    set(owner pkFrontend)
    set(headers ${PK_PCH_STD} ${PK_PCH_LLVM} ${PK_PCH_CLANG})
  else()
    set(owner pkCore)
    set(headers ${PK_PCH_STD} ${PK_PCH_LLVM})
  endif()
  get_target_property(type ${target} TYPE)
  if(target STREQUAL owner OR type STREQUAL "EXECUTABLE")
    target_precompile_headers(${target} PRIVATE ${headers})
  else()
    target_precompile_headers(${target} REUSE_FROM ${owner})
  endif()
endfunction()
