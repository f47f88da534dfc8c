#include "cellkit.h"
CK_PLUGIN("FuzzSeed", "1.0.0", "A tiny plugin: a seed for the ELF fuzzer");
CK_EXPORT void initCellForSeed(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; }
CK_EXPORT void customizeCellForSeed(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; }
CK_EXPORT double heightForCellForSeed(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; return 2; }
CK_SIGNATURE(customizeCellForBar, "void (cell, row, data, host, context)");
CK_EXPORT void customizeCellForBar(void) {}
CK_SIGNATURE(heightForCellForBar, "double (row, data)");
CK_EXPORT double heightForCellForBar(void) { return 1; }
/* near misses: wrong case, a hidden hook, a bad identifier */
CK_EXPORT void initcellForSeed(void) {}
__attribute__((visibility("hidden"), used)) void customizeCellForHidden(void) {}
CK_EXPORT void initCellFor9Bad(void) {}
CK_EXPORT void _$s4Seed013initCellForD7PartneryyF(void) {}
/* previews: a sample, one that is not JSON, one that is not an object, one for no type */
CK_PREVIEW(Seed, typical, "{\"text\": \"Hi\", \"n\": [1, true, null]}");
CK_PREVIEW(Seed, broken, "{\"text\": ");
CK_PREVIEW(Seed, list, "[1]");
CK_PREVIEW(Nobody, x, "{}");
