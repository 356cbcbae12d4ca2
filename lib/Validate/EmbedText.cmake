# Writes the contents of IN to OUT as a C++ raw string literal.
file(READ "${IN}" PKV_CONTENT)
file(WRITE "${OUT}" "R\"PKVRT(${PKV_CONTENT})PKVRT\"\n")
