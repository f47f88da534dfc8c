/* Seed 003's projects table: an icon, a title, a grey description wrapped and
 * cut at its frame, and two logos: five subviews added once in initCellFor,
 * positioned by the table's stylesheet (teacup's cell_sheet), and found again
 * by tag in customizeCellFor. Tags start at 1: 0 is every view's default. */
#include "cellkit.h"

CK_PLUGIN("ProjectCells", "1.0.0", "Seed 003: project rows with tagged subviews styled by a stylesheet");

enum { ICON_TAG = 1, TITLE_TAG = 2, DESCRIPTION_TAG = 3, LOGO1_TAG = 4, LOGO2_TAG = 5 };

static const ck_rect NO_FRAME = {0, 0, 0, 0}; /* the stylesheet gives every frame */

/* Adds one subview and styles it; a missing style is reported by the host and
 * leaves the view at NO_FRAME, so the row still draws. */
static void add(ck_cell *cell, ck_view_kind kind, int32_t tag, const char *style) {
    ck_view *view = cell->host->add_subview(cell, kind, NO_FRAME, tag);
    if (view) ck_apply_style(view, style);
}

CK_INIT_CELL_FOR(Project) {
    add(cell, CK_VIEW_IMAGE, ICON_TAG, "icon");
    add(cell, CK_VIEW_LABEL, TITLE_TAG, "title");
    add(cell, CK_VIEW_LABEL, DESCRIPTION_TAG, "description");
    add(cell, CK_VIEW_IMAGE, LOGO1_TAG, "logo1");
    add(cell, CK_VIEW_IMAGE, LOGO2_TAG, "logo2");
}

/* Sets a view's string property from the row's data at `key`, or clears it:
 * a reused cell must not keep the previous project's text (seed 003's warning). */
static void fill(ck_cell *cell, int32_t tag, ck_view_property property, const char *key) {
    const char *value = NULL;
    ck_view *view = cell->host->view_with_tag(cell, tag);
    if (!view) return;
    if (cell->host->data_string(cell->host->row_data(cell), key, &value) != CK_OK) value = NULL;
    view->host->view_set_string(view, property, value);
}

CK_CUSTOMIZE_CELL_FOR(Project) {
    fill(cell, ICON_TAG, CK_VIEW_IMAGE_NAME, "icon");
    fill(cell, TITLE_TAG, CK_VIEW_TEXT, "project");
    fill(cell, DESCRIPTION_TAG, CK_VIEW_TEXT, "description");
    fill(cell, LOGO1_TAG, CK_VIEW_IMAGE_NAME, "logos.0");
    fill(cell, LOGO2_TAG, CK_VIEW_IMAGE_NAME, "logos.1");
}

/* Previews: sample rows `cellkit inspect` lists and `cellkit check` runs as typical data. */
CK_PREVIEW(Project, typical, "{\"project\": \"NiftyWow\", \"description\": \"Oh you just can't imagine.\", \"icon\": \"niftywow\", \"logos\": [\"apple\", \"github\"]}");
CK_PREVIEW(Project, empty, "{}");
CK_PREVIEW(Project, long, "{\"project\": \"A project whose name alone is wider than the title's frame\", \"description\": \"A description long enough to wrap over every line its frame has and still go on, so that the last visible line is cut where the frame ends rather than spilling into the row below it.\", \"icon\": \"niftywow\", \"logos\": [\"apple\"]}");
CK_PREVIEW(Project, rtl, "{\"project\": \"مشروع رائع\", \"description\": \"وصف قصير للمشروع يكتب من اليمين إلى اليسار\", \"icon\": \"niftywow\", \"logos\": [\"github\"]}");
