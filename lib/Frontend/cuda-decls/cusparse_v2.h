/* cusparse_v2.h: the toolkit's name for cusparse.h (bundled declarations). */
#include <cusparse.h>
