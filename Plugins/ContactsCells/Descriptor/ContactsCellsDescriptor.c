/* The Swift plugin's descriptor and signatures: plain C data the host reads
 * straight from the library file. Swift cannot export a C data symbol, so it
 * lives here and the product links it beside the Swift hooks. */
#include "cellkit.h"

CK_PLUGIN("ContactsCells", "1.0.0", "Seed 002: a contacts-style partner cell with a photo, and plain other cells");

/* The partner row is taller; the hook needs only the row number. */
CK_SIGNATURE(heightForCellForPartner, "double (row)");
