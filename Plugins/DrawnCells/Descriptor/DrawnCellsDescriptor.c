/* The descriptor of the Swift plugin DrawnCells: plain data, read from the file. */
#include "cellkit.h"

CK_PLUGIN("DrawnCells", "1.0.0", "Seeds 000/001: custom-drawn rows with backgrounds by position (Swift)");

/* Previews: sample rows `cellkit inspect` lists and `cellkit check` runs as typical data (C data,
 * so here beside the descriptor). The bottom line shows "info". */
CK_PREVIEW(DrawnCell, typical, "{\"info\": \"Some other information.\"}");
CK_PREVIEW(DrawnCell, empty, "{}");
CK_PREVIEW(DrawnCell, long, "{\"info\": \"Information long enough to run past the bottom line's frame, which cuts it where the drawn cell ends\"}");
CK_PREVIEW(DrawnCell, rtl, "{\"info\": \"מידע נוסף, מימין לשמאל\"}");
