/* Cells for the dispatch benchmark: cheap hooks that still make a real host
 * call, so the benchmark measures dispatch rather than the hooks' own work. */
#include "cellkit.h"

CK_PLUGIN("BenchmarkCells", "1.0.0", "Three cheap cell types for the dispatch benchmark");

#define BENCH_CELL(Id, level)                                                       \
    CK_EXPORT void customizeCellFor##Id(ck_cell *cell, ck_index_path indexPath) {  \
        cell->host->cell_set_int(cell, CK_CELL_INDENTATION_LEVEL, (indexPath.row + level) & 3); \
    }

BENCH_CELL(BenchAlpha, 0)
BENCH_CELL(BenchBeta, 1)
BENCH_CELL(BenchGamma, 2)

/* The same work with a declared parameter list, called through libffi. */
CK_SIGNATURE(customizeCellForBenchFFI, "void (cell, row)");
CK_EXPORT void customizeCellForBenchFFI(ck_cell *cell, int64_t row) {
    cell->host->cell_set_int(cell, CK_CELL_INDENTATION_LEVEL, row & 3);
}
