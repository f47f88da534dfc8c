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

/* The same work with a declared parameter list of two words, called through a
 * typed pointer with the words in registers. */
CK_SIGNATURE(customizeCellForBenchDeclared, "void (cell, row)");
CK_EXPORT void customizeCellForBenchDeclared(ck_cell *cell, int64_t row) {
    cell->host->cell_set_int(cell, CK_CELL_INDENTATION_LEVEL, row & 3);
}

/* The same work with a list of seven words, more than the registers take:
 * called through libffi. */
CK_SIGNATURE(customizeCellForBenchFFI, "void (cell, indexPath, section, row, data, host)");
CK_EXPORT void customizeCellForBenchFFI(ck_cell *cell, ck_index_path indexPath, int64_t section, int64_t row,
                                        const ck_data *data, const ck_host *host) {
    (void)indexPath, (void)section, (void)data;
    host->cell_set_int(cell, CK_CELL_INDENTATION_LEVEL, row & 3);
}

/* The render benchmark's wrapped rows (seed-003 style subviews): a title, a
 * description of 12-28 words wrapped at 40 columns with numberOfLines 0, and a
 * column of CJK and emoji words, five lines a row. The labels are made once per
 * cell; each row only sets their texts from its JSON Lines data. */
enum { WRAPPED_TITLE = 1, WRAPPED_DESCRIPTION = 2, WRAPPED_WORDS = 3 };

CK_EXPORT void initCellForBenchWrapped(ck_cell *cell, ck_index_path indexPath) {
    (void)indexPath;
    const ck_host *host = cell->host;
    host->cell_set_double(cell, CK_CELL_ROW_HEIGHT, 5);
    ck_view *title = host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){1, 0, 40, 1}, WRAPPED_TITLE);
    ck_view *description = host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){1, 1, 40, 4}, WRAPPED_DESCRIPTION);
    ck_view *words = host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){43, 0, 30, 5}, WRAPPED_WORDS);
    if (!title || !description || !words) return;
    ck_set_font(title, 17, CK_WEIGHT_BOLD);
    host->view_set_int(description, CK_VIEW_NUMBER_OF_LINES, 0);
    host->view_set_int(description, CK_VIEW_LINE_BREAK_MODE, CK_BREAK_WORD_WRAP);
    host->view_set_int(words, CK_VIEW_NUMBER_OF_LINES, 0);
    host->view_set_int(words, CK_VIEW_LINE_BREAK_MODE, CK_BREAK_WORD_WRAP);
}

CK_SIGNATURE(customizeCellForBenchWrapped, "void (cell, data)");
CK_EXPORT void customizeCellForBenchWrapped(ck_cell *cell, const ck_data *data) {
    const ck_host *host = cell->host;
    static const char *const keys[] = {"", "title", "description", "words"};
    for (int32_t tag = WRAPPED_TITLE; tag <= WRAPPED_WORDS; tag++) {
        const char *text = "";
        ck_view *view = host->view_with_tag(cell, tag);
        if (view && host->data_string(data, keys[tag], &text) == CK_OK) ck_set_text(view, text);
    }
}

/* The browse benchmark's plugin cell: the Subtitle cell's two lines (`text` in bold, then
 * `detail`) as two labels made once per cell and set per row from its data, so that
 * `cellkit-bench browse` measures a plugin's cells drawn through the worker beside the
 * built-in Subtitle. */
enum { BROWSE_TEXT = 1, BROWSE_DETAIL = 2 };

CK_EXPORT void initCellForBenchBrowse(ck_cell *cell, ck_index_path indexPath) {
    (void)indexPath;
    const ck_host *host = cell->host;
    host->cell_set_double(cell, CK_CELL_ROW_HEIGHT, 2);
    ck_view *text = host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){1, 0, 60, 1}, BROWSE_TEXT);
    host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){1, 1, 60, 1}, BROWSE_DETAIL);
    if (text) ck_set_font(text, 17, CK_WEIGHT_BOLD);
}

CK_SIGNATURE(customizeCellForBenchBrowse, "void (cell, data)");
CK_EXPORT void customizeCellForBenchBrowse(ck_cell *cell, const ck_data *data) {
    const ck_host *host = cell->host;
    static const char *const keys[] = {"", "text", "detail"};
    for (int32_t tag = BROWSE_TEXT; tag <= BROWSE_DETAIL; tag++) {
        const char *value = "";
        ck_view *view = host->view_with_tag(cell, tag);
        if (view && host->data_string(data, keys[tag], &value) == CK_OK) ck_set_text(view, value);
    }
}
