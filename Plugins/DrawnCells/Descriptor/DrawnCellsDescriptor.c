/* The descriptor of the Swift plugin DrawnCells: plain data, read from the file. */
#include "cellkit.h"

CK_PLUGIN("DrawnCells", "1.0.0", "Seeds 000/001: custom-drawn rows with backgrounds by position (Swift)");
