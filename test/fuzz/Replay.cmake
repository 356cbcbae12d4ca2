# Included from test/CMakeLists.txt in every build: the fuzz targets of the
# report readers and of the escaping layer run without libFuzzer
# (StandaloneMain.cpp: their seeds, then a fixed sequence of mutations of
# each), so that every `scripts/test.sh` runs them briefly; the same
# harnesses are libFuzzer targets in a PK_FUZZ build (test/fuzz/CMakeLists.txt,
# scripts/fuzz.sh) for long campaigns.  Label replay.
set(_pk_fuzz ${CMAKE_CURRENT_LIST_DIR})
add_executable(pk-fuzz-escape-replay ${_pk_fuzz}/FuzzEscape.cpp ${_pk_fuzz}/StandaloneMain.cpp)
target_link_libraries(pk-fuzz-escape-replay PRIVATE pkCore)
add_executable(pk-fuzz-reports-replay ${_pk_fuzz}/FuzzReports.cpp ${_pk_fuzz}/StandaloneMain.cpp)
target_link_libraries(pk-fuzz-reports-replay PRIVATE pkGate)
add_test(NAME fuzz.escape-replay
         COMMAND pk-fuzz-escape-replay --rounds 5000
                 --dict "`" --dict "|" --dict "<" --dict "&" --dict "://"
                 --dict "  " --dict "%" --dict-hex 5c --dict-hex 0a
                 --dict-hex e280ae --dict-hex e2808b --dict-hex e9
                 ${_pk_fuzz}/corpus/escape)
add_test(NAME fuzz.reports-replay
         COMMAND pk-fuzz-reports-replay --rounds 300
                 --dict "[" --dict "{" --dict "\"file\": \"" --dict "%FF"
                 --dict "\"file_uri\": \"a%E9\"," --dict-hex 5c7530303030
                 ${_pk_fuzz}/corpus/reports)
set_tests_properties(fuzz.escape-replay fuzz.reports-replay PROPERTIES
                     LABELS "replay" TIMEOUT 300)
