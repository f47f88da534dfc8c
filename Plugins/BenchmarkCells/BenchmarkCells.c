/* The benchmarks' cells (cellkit-bench): for the dispatch benchmark, cheap hooks that still
 * make a real host call, so it measures dispatch rather than the hooks' own work; then the
 * render benchmark's wrapped rows, the browse benchmark's cell and the same-work table's. */
#include "cellkit.h"

CK_PLUGIN("BenchmarkCells", "1.0.0", "The benchmarks' cell types: dispatch, wrapped, browse, same-work");

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

/* The same-work table's cell (`cellkit-bench render same-work`), as the shared bound's
 * ColumnsCell.c has it: a title clipped at 12 columns, a description word-wrapped at 40 with
 * numberOfLines 0 and no row height set (self-sizing: the row grows past the default 5 lines to
 * fit it), and a column of CJK and emoji text cut at 24. Its rows come from the same JSON Lines
 * file the C formatter (Reference/samework-formatter.c) reads, which writes the same bytes. */
enum { COLUMNS_TITLE = 1, COLUMNS_DESCRIPTION = 2, COLUMNS_WIDE = 3 };

CK_EXPORT void initCellForColumns(ck_cell *cell, ck_index_path indexPath) {
    (void)indexPath;
    const ck_host *host = cell->host;
    ck_view *title = host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){0, 0, 12, 1}, COLUMNS_TITLE);
    ck_view *description = host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){13, 0, 40, 5}, COLUMNS_DESCRIPTION);
    host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){54, 0, 24, 1}, COLUMNS_WIDE);
    if (!title || !description) return;
    host->view_set_int(title, CK_VIEW_LINE_BREAK_MODE, CK_BREAK_CLIP);
    host->view_set_int(description, CK_VIEW_NUMBER_OF_LINES, 0);
    host->view_set_int(description, CK_VIEW_LINE_BREAK_MODE, CK_BREAK_WORD_WRAP);
}

CK_EXPORT void customizeCellForColumns(ck_cell *cell, ck_index_path indexPath) {
    (void)indexPath;
    const ck_host *host = cell->host;
    const ck_data *data = host->row_data(cell);
    static const char *const keys[] = {"", "t", "d", "w"};
    for (int32_t tag = COLUMNS_TITLE; tag <= COLUMNS_WIDE; tag++) {
        const char *text;
        if (host->data_string(data, keys[tag], &text) == CK_OK) ck_set_text(host->view_with_tag(cell, tag), text);
    }
}

/* Previews: sample rows `cellkit inspect` lists and `cellkit check` runs as typical data. The
 * dispatch cells read no data (one empty sample each); the others as their benchmarks' rows. */
CK_PREVIEW(BenchAlpha, plain, "{}");
CK_PREVIEW(BenchBeta, plain, "{}");
CK_PREVIEW(BenchGamma, plain, "{}");
CK_PREVIEW(BenchDeclared, plain, "{}");
CK_PREVIEW(BenchFFI, plain, "{}");
CK_PREVIEW(BenchWrapped, typical, "{\"title\": \"Row 7\", \"description\": \"twelve words of description wrapped at forty columns over the label's four lines\", \"words\": \"漢字 かな 🙂 한글\"}");
CK_PREVIEW(BenchWrapped, empty, "{}");
CK_PREVIEW(BenchWrapped, long, "{\"title\": \"A title far wider than its forty columns\", \"description\": \"twenty-eight words of description, more than the four lines of the label hold at forty columns, so the text is wrapped and the last line cut where the frame ends, as the longest rows of the benchmark are\", \"words\": \"漢字 かな カナ 🙂 🎉 한글 中文 文字 絵文字\"}");
CK_PREVIEW(BenchWrapped, rtl, "{\"title\": \"שורה 7\", \"description\": \"תיאור קצר בעברית שנכתב מימין לשמאל\", \"words\": \"مرحبا\"}");
CK_PREVIEW(BenchBrowse, typical, "{\"text\": \"Row 12\", \"detail\": \"its detail line\"}");
CK_PREVIEW(BenchBrowse, empty, "{}");
CK_PREVIEW(BenchBrowse, long, "{\"text\": \"A text longer than the sixty columns of its label, cut at the label's end\", \"detail\": \"and a detail line just as long, which is cut the same way at sixty\"}");
CK_PREVIEW(BenchBrowse, rtl, "{\"text\": \"שלום עולם\", \"detail\": \"مرحبا بالعالم\"}");
CK_PREVIEW(Columns, typical, "{\"t\": \"Title 3\", \"d\": \"a description wrapped at forty columns\", \"w\": \"漢字 🙂\"}");
CK_PREVIEW(Columns, empty, "{}");
CK_PREVIEW(Columns, long, "{\"t\": \"A title clipped at twelve columns\", \"d\": \"a description long enough to wrap past the five lines the row starts with, so that the row grows to fit it: self-sizing, as the same-work table's longest rows do, line after line after line after line\", \"w\": \"漢字 かな カナ 🙂 🎉 한글 中文 文字\"}");
CK_PREVIEW(Columns, rtl, "{\"t\": \"כותרת\", \"d\": \"תיאור בעברית מימין לשמאל\", \"w\": \"مرحبا\"}");
