# The Debian package: `cpack -G DEB` in the build directory, or
# scripts/package.sh, gives port-kernel_<version>_amd64.deb installing under
# /usr (bin/port-kernel, share/port-kernel, the man page, the completions).
#
# Depends: what the installed files need at run time, no more:
#   libc6, libstdc++6, libgcc-s1, libllvm19, libclang-cpp19
#                      the shared libraries port-kernel is linked with (ldd)
#   libclang-common-19-dev  the clang resource headers every parse uses
#                      (/usr/lib/llvm-19/lib/clang/19)
#   clang-19           validate: clang++ compiles the emulated programs
#                      (and brings libstdc++-12-dev, binutils)
#   libboost-context-dev  validate: emulated programs link -lboost_context
#   libamdhip64-dev    the HIP headers: HIP inputs are parsed against them and
#                      validate compiles HIP outputs against them
#   python3, python3-numpy  validate --to nki: the NKI simulator
#   libopenblas0       validate: the emulator's cuBLAS/hipBLAS calls load
#                      libopenblas.so.0 (dlopen) for their GEMMs
# Test package.deb checks the shared libraries against this list.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME port-kernel)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR port-kernel)
set(CPACK_PACKAGE_CONTACT "port-kernel maintainers <port-kernel@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "port CUDA tile kernels to HIP (wave-64, MFMA), modern CUDA and NKI")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"port CUDA tile kernels to HIP (wave-64, MFMA), modern CUDA and NKI
 port-kernel is a Clang 19 source-to-source translator of CUDA tile kernels
 (shared-memory tiles, barriers, warp intrinsics, tensor cores) to HIP for
 64-lane AMD waves, to modern CUDA and to NKI for AWS Trainium. It flags what
 it cannot translate safely and validates every port on a lane-exact SIMT CPU
 emulator against CPU references.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6 (>= 2.34), libstdc++6 (>= 12), libgcc-s1 (>= 3.0), libllvm19, libclang-cpp19, libclang-common-19-dev, clang-19, libboost-context-dev, libamdhip64-dev, python3, python3-numpy, libopenblas0")
set(CPACK_STRIP_FILES bin/port-kernel)
include(CPack)
