/* Seed 004's cells: "Foobar" rows show "Row: N" centred, blue and bold; "Bar"
 * rows are the plain, non-selectable section. Bar's hooks declare their own
 * parameter lists, so the host calls them through libffi. */
#include <stdio.h>
#include "cellkit.h"

CK_PLUGIN("FoobarCells", "1.0.0", "Seed 004: the generic cell-creation routine's Foobar and Bar cells");

/* Once per new Foobar cell: the look every Foobar row shares. */
CK_INIT_CELL_FOR(Foobar) {
    ck_view *label = ck_text_label(cell);
    ck_set_alignment(label, CK_ALIGN_CENTER);
    ck_set_text_color(label, CK_RGB(0, 0, 255));
    ck_set_font(label, 16, CK_WEIGHT_BOLD);
}

/* Every time a Foobar cell is handed out: this row's text. */
CK_CUSTOMIZE_CELL_FOR(Foobar) {
    char text[32];
    snprintf(text, sizeof text, "Row: %lld", (long long)indexPath.row);
    ck_set_text(ck_text_label(cell), text);
}

/* Bar: the row's "title" from its data, else a numbered default. */
CK_SIGNATURE(customizeCellForBar, "void (cell, section, row, data)");
CK_EXPORT void customizeCellForBar(ck_cell *cell, int64_t section, int64_t row, const ck_data *data) {
    const char *title = NULL;
    char fallback[48];
    if (cell->host->data_string(data, "title", &title) != CK_OK) {
        snprintf(fallback, sizeof fallback, "Bar %lld.%lld", (long long)section, (long long)row);
        title = fallback;
    }
    ck_set_text(ck_text_label(cell), title);
}

/* The first Bar row is two lines tall (seed 002's taller row, by row number). */
CK_SIGNATURE(heightForCellForBar, "int32_t (row)");
CK_EXPORT int32_t heightForCellForBar(int64_t row) { return row == 0 ? 2 : 1; }

/* Back to the pool: clear what customize set, so no stale text survives. */
CK_PREPARE_CELL_FOR_REUSE_FOR(Bar) {
    ck_set_text(ck_text_label(cell), NULL);
}

/* Previews: sample rows `cellkit inspect` lists and `cellkit check` runs as typical data.
 * Foobar reads no data (its text is its row number): one sample, empty. Bar shows "title". */
CK_PREVIEW(Foobar, plain, "{}");
CK_PREVIEW(Bar, title, "{\"title\": \"Bar\"}");
CK_PREVIEW(Bar, empty, "{}");
CK_PREVIEW(Bar, long, "{\"title\": \"A Bar title long enough to run past the width of any terminal it is drawn in, cut where the row ends\"}");
CK_PREVIEW(Bar, rtl, "{\"title\": \"עמודה בעברית, כתובה מימין לשמאל\"}");
CK_PREVIEW(Bar, cjk, "{\"title\": \"幅の広い文字 漢字 🍣\"}");
