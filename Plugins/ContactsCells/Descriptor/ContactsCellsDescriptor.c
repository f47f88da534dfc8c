/* The Swift plugin's descriptor and signatures: plain C data the host reads
 * straight from the library file. Swift cannot export a C data symbol, so it
 * lives here and the product links it beside the Swift hooks. */
#include "cellkit.h"

CK_PLUGIN("ContactsCells", "1.0.0", "Seed 002: a contacts-style partner cell with a photo, and plain other cells");

/* The partner row is taller; the hook needs only the row number. */
CK_SIGNATURE(heightForCellForPartner, "double (row)");

/* Previews: sample rows `cellkit inspect` lists and `cellkit check` runs as typical data. They
 * are C data too, so they live here beside the descriptor (a plugin installed with a file
 * beside it may write them in libContactsCells.preview.yaml instead). */
CK_PREVIEW(Partner, chosen, "{\"name\": \"Grace Hopper\", \"photo\": \"GenericContact\"}");
CK_PREVIEW(Partner, empty, "{}");
CK_PREVIEW(Partner, long, "{\"name\": \"Maria Salomea Skłodowska-Curie, twice a Nobel laureate, whose name runs past the row\"}");
CK_PREVIEW(Partner, rtl, "{\"name\": \"نجيب محفوظ\"}");
CK_PREVIEW(OtherCell, plain, "{}");
