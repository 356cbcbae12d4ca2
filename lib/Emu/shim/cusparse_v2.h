// cusparse_v2.h: the toolkit's name for cusparse.h (emulator).
#include "cusparse.h"
