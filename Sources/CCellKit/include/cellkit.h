/*
 * cellkit.h — the one header a CellKit cell plugin includes.
 *
 * A plugin is a shared library that exports C functions named after a cell
 * identifier. The host finds them in the library's ELF symbol table, so
 * `cellkit list` can show a plugin without running any of its code, and calls
 * them when a table needs a cell of that type. Plugins never link against the
 * host: everything they can do to a cell goes through `cell->host`, a
 * versioned, append-only table of functions (the pattern of SQLite's
 * sqlite3ext.h). Build a plugin with nothing but a C compiler:
 *
 *     cc -shared -fPIC -I <dir of cellkit.h> plugin.c -o libplugin.so
 *
 * or, after `cellkit sdk install` (which installs this header and cellkit.pc):
 *
 *     cc -shared -fPIC $(pkg-config --cflags cellkit) plugin.c -o libplugin.so
 *
 * C++ works too (g++ or clang++, C++11 or later): the declarations here have
 * C linkage, and CK_PLUGIN, CK_SIGNATURE and CK_EXPORT give a .cpp file's
 * descriptor, signatures and hooks C names and external linkage. Define each
 * hook with its macro ("Defining hooks" below) or mark it CK_EXPORT, and let no
 * C++ exception leave a hook: the host is C code and cannot unwind one.
 *
 * ---------------------------------------------------------------------------
 * THE NAMING RULE
 *
 * For a cell identifier <Id> a plugin may export, each optional but at least
 * one of the first two:
 *
 *     void   initCellFor<Id>(ck_cell *cell, ck_index_path indexPath);
 *            runs once, when a new cell of the type is made;
 *     void   customizeCellFor<Id>(ck_cell *cell, ck_index_path indexPath);
 *            runs every time a cell is handed out for a row;
 *     double heightForCellFor<Id>(ck_cell *cell, ck_index_path indexPath);
 *            returns the row's height in lines, after customize ran
 *            (1..CK_MAX_ROW_HEIGHT; CK_AUTOMATIC_DIMENSION (1.3) for as tall
 *            as the content; other values <= 0 for the cell's
 *            CK_CELL_ROW_HEIGHT, else the table's default);
 *     void   prepareCellForReuseFor<Id>(ck_cell *cell, ck_index_path indexPath);
 *            runs when a used cell goes back to the reuse pool;
 *     void   layoutSubviewsFor<Id>(ck_cell *cell, ck_index_path indexPath);
 *            (1.3) runs when a reused cell is shown at another width than it
 *            was laid out at, after customize and after its subviews'
 *            autoresizing masks moved them: place subviews against the
 *            content view's new frame here (UIKit's layoutSubviews).
 *
 * <Id> is an ASCII letter followed by ASCII letters, digits or underscores,
 * at most 64 characters. The host refuses any other identifier before it
 * builds a symbol name from it.
 *
 * A hook may take other parameters than (cell, indexPath). It then exports
 * a signature string beside itself, named cellkit_signature_<hook>:
 *
 *     CK_SIGNATURE(customizeCellForBar, "void (cell, section, row, data)");
 *
 * Parameters come from: cell (ck_cell *), indexPath (ck_index_path),
 * section and row (int64_t), data (const ck_data *), host (const ck_host *),
 * context (void *, what cellkit_plugin_init stored). The return type is void,
 * except for heightForCellFor<Id>, which returns double, float or int32_t.
 * The host calls a list of at most six argument words (indexPath takes two,
 * every other parameter one) through a typed pointer, the words in registers;
 * a longer list through libffi.
 *
 * Define a hook with the standard (cell, indexPath) list with its macro,
 * which makes a wrong signature a compile error (see "Defining hooks" below):
 *     CK_HEIGHT_FOR_CELL_FOR(Foo) { return 2.0; }
 *
 * Every plugin exports one descriptor, made with CK_PLUGIN(name, version,
 * description). Its ABI version is checked before any hook runs: the major
 * must equal the host's, the minor must not exceed it.
 *
 * A plugin may ship sample rows for its cell types, its previews: each a
 * JSON object, the row's data, exported as cellkit_preview_<Id>_<name>:
 *
 *     CK_PREVIEW(Bar, empty, "{}");
 *     CK_PREVIEW(Bar, long, "{\"text\": \"A text long enough to wrap ...\"}");
 *
 * <name> is an ASCII letter followed by ASCII letters or digits (no
 * underscore), at most 32 characters; the JSON text at most
 * CK_PREVIEW_MAX_BYTES bytes of UTF-8 with no control bytes (write \n or
 * \u001b inside a string); at most CK_PREVIEW_MAX_SAMPLES per identifier.
 * `cellkit inspect` shows them and `cellkit check` runs the hooks over them
 * as typical data; they are read from the file, never by running its code.
 * A plugin may instead (or as well) ship them in a YAML file beside itself,
 * libbar.so's in libbar.preview.yaml (for a library SwiftPM built into a
 * package's .build, also at the top of that package). Previews need no ABI
 * version: a host older than them ignores the symbols.
 * ---------------------------------------------------------------------------
 */
#ifndef CELLKIT_H
#define CELLKIT_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ABI 1.4 (1.1 added view_apply_style; 1.2 init_error, data_type, data_text,
 * view_apply_optional_style and CK_ACCESSORY_DETAIL_DISCLOSURE_BUTTON; 1.3
 * CK_VIEW_AUTORESIZING_MASK and the layoutSubviewsFor<Id> hook; 1.4 CK_CELL_LAYOUT_DIRECTION,
 * ck_cell_is_right_to_left, subviews with an autoresizing mask mirrored right to left, and
 * data_bool writing a bool: one byte). A new host
 * function or property raises the minor; the major changes only if an existing entry ever had to
 * change, which it must not. */
#define CK_ABI_MAJOR 1
#define CK_ABI_MINOR 4

/* CK_EXPORT: a hook or descriptor the host finds by name in the ELF symbol table. Under C++ it
 * also gives C linkage (no name mangling) and external linkage (a namespace-scope const is
 * otherwise internal in C++), so a .cpp plugin exports the same symbols as a .c one. */
#if defined(__GNUC__) || defined(__clang__)
#define CK_VISIBLE __attribute__((visibility("default"), used))
#else
#define CK_VISIBLE
#endif
#ifdef __cplusplus
#define CK_EXPORT extern "C" CK_VISIBLE
#else
#define CK_EXPORT CK_VISIBLE
#endif

/* A compile-time check: static_assert in C++ (11 or later), _Static_assert in C (11 or later). */
#ifdef __cplusplus
#define CK_STATIC_ASSERT(condition, message) static_assert(condition, message)
#else
#define CK_STATIC_ASSERT(condition, message) _Static_assert(condition, message)
#endif

/* ---- Values ------------------------------------------------------------ */

/** Where a row is: its section and its row within that section. */
typedef struct ck_index_path {
    int64_t section;
    int64_t row;
} ck_index_path;

/** A rectangle in character cells: x and width in columns, y and height in lines. */
typedef struct ck_rect {
    int32_t x, y, width, height;
} ck_rect;

/** A colour as 0xRRGGBBAA. CK_COLOR_NONE (0) means "not set: use the default". */
typedef uint32_t ck_color;
#define CK_COLOR_NONE 0x00000000u
#define CK_RGB(r, g, b) ((ck_color)(((uint32_t)(r) << 24) | ((uint32_t)(g) << 16) | ((uint32_t)(b) << 8) | 0xFFu))

/** Where the row stands in its section (seed 000 picks backgrounds by it). */
typedef struct ck_row_position {
    int64_t section;
    int64_t row;
    int64_t rows_in_section;
    int32_t is_first;
    int32_t is_last;
} ck_row_position;

/** Status returned by host functions. Anything but CK_OK leaves the target
 *  unchanged and records a message that host->last_error(cell) returns.
 *  (CK_ERR_WRONG_THREAD records none: see THREADS below.) */
typedef enum ck_status {
    CK_OK = 0,
    CK_ERR_INVALID_ARGUMENT = 1, /* a NULL handle, an out-of-range value */
    CK_ERR_TAG_ZERO = 2,         /* tag 0 is every view's default tag */
    CK_ERR_DUPLICATE_TAG = 3,    /* the cell already has a view with that tag */
    CK_ERR_NOT_FOUND = 4,        /* no view with that tag, no value at that key path */
    CK_ERR_WRONG_TYPE = 5,       /* the value exists but has another type */
    CK_ERR_UNKNOWN_PROPERTY = 6, /* the property is not one of this target's */
    CK_ERR_READ_ONLY = 7,        /* the property can be read, not set */
    CK_ERR_WRONG_THREAD = 8,     /* called from a thread that is not running the cell's hook (THREADS) */
    CK_ERR_LIMIT = 9,            /* a per-cell budget is spent, e.g. CK_MAX_SUBVIEWS (LIMITS) */
    CK_ERR_REFUSED = 10          /* 1.2: cellkit_plugin_init refuses to start (see init_error) */
} ck_status;

/* ---- Limits --------------------------------------------------------------
 *
 * The host keeps every value a plugin gives it within these ranges, so no
 * plugin can make a table stall, allocate without bound or crash. A value
 * outside its range is CLAMPED to the nearest end (the call returns CK_OK);
 * a double that is not finite (inf, NaN) is IGNORED (CK_ERR_INVALID_ARGUMENT,
 * the target unchanged). Either way the table's warnings say so, once per
 * hook and limit, naming the plugin file, the hook and the first row:
 *
 *     libbig.so: customizeCellForBig set a row height of 1e+19 at row 1.4
 *     (indexPath [0, 3]); clamped to 200 lines (rows are 1 to 200 lines tall)
 *
 * (rows counted from 1, as cellkit's options take them, then the index path
 * the hook was given, from 0.)
 *
 *   row height (CK_CELL_ROW_HEIGHT, a height hook's answer)  1 .. 200 lines;
 *              CK_AUTOMATIC_DIMENSION (1.3): as tall as the content;
 *              0 (or, from a height hook, anything else <= 0) means "the
 *              cell's CK_CELL_ROW_HEIGHT, else the table's default"; another
 *              negative CK_CELL_ROW_HEIGHT is ignored; a row as tall as its
 *              content is cut at 200 lines too. A plugin built against a 1.0
 *              to 1.2 header keeps the old meaning of -1 (ignored, warned)
 *   frames (add_subview, set_accessory_view, view_set_frame)
 *              x and y -10000 .. 10000, width and height 0 .. 10000; drawn
 *              clipped to the row
 *   indentation level 0 .. 10000; indentation width 0 .. 10000 columns
 *   font size 1 .. 1000 points
 *   number of lines 0 .. 200 (0: as many as fit)
 *   text (CK_VIEW_TEXT, and any string a hook sets) at most CK_MAX_TEXT_BYTES
 *              bytes: a longer one is cut at a UTF-8 character boundary
 *   subviews   at most CK_MAX_SUBVIEWS a cell: add_subview past it returns
 *              NULL, and last_error says why (status CK_ERR_LIMIT)
 * ------------------------------------------------------------------------- */
#define CK_MAX_ROW_HEIGHT 200
/* (1.3) A row as tall as its content, as UIKit's UITableViewAutomaticDimension:
 * from heightForCellFor<Id> or as CK_CELL_ROW_HEIGHT, over the table's rowHeight.
 * Labels whose number of lines is 0 grow to their text at their frame's width,
 * and the row grows to hold every subview. */
#define CK_AUTOMATIC_DIMENSION (-1.0)
#define CK_MAX_FRAME_EXTENT 10000
#define CK_MAX_INDENTATION 10000
#define CK_MAX_FONT_SIZE 1000
#define CK_MAX_NUMBER_OF_LINES 200
#define CK_MAX_TEXT_BYTES 65536
#define CK_MAX_SUBVIEWS 256

/* ---- Threads -------------------------------------------------------------
 *
 * A cell, its views and its row data may be used only by the thread running
 * one of the cell's hooks, while it runs. A plugin may start threads of its
 * own, but they must not call the host: a host call from any other thread is
 * refused with CK_ERR_WRONG_THREAD (NULL from cell_part, add_subview,
 * set_accessory_view and view_with_tag) and touches nothing, and
 * host->last_error(cell) from that thread returns a fixed message explaining
 * this rule. Hand results back to the hook's thread (join the worker inside
 * the hook) and make the host calls there.
 * ------------------------------------------------------------------------- */

typedef enum ck_cell_style {
    CK_STYLE_DEFAULT = 0,  /* image, text label */
    CK_STYLE_SUBTITLE = 1, /* image, text label above a smaller detail label */
    CK_STYLE_VALUE1 = 2,   /* text label left, detail label right-aligned */
    CK_STYLE_VALUE2 = 3    /* small right-aligned text label, detail label beside it */
} ck_cell_style;

typedef enum ck_selection_style {
    CK_SELECTION_NONE = 0,
    CK_SELECTION_BLUE = 1,   /* the tint behind white text and accessory (before iOS 7) */
    CK_SELECTION_GRAY = 2,   /* light grey; text and accessory keep their colours */
    CK_SELECTION_DEFAULT = 3 /* grey, as UIKit since iOS 7; what a selectable row's cell starts with */
} ck_selection_style;

typedef enum ck_accessory_type {
    CK_ACCESSORY_NONE = 0,
    CK_ACCESSORY_DISCLOSURE_INDICATOR = 1,
    CK_ACCESSORY_CHECKMARK = 2,
    CK_ACCESSORY_DETAIL_BUTTON = 3,
    CK_ACCESSORY_DETAIL_DISCLOSURE_BUTTON = 4 /* 1.2: the info button and the chevron */
} ck_accessory_type;

typedef enum ck_text_alignment {
    CK_ALIGN_NATURAL = 0,
    CK_ALIGN_LEFT = 1,
    CK_ALIGN_CENTER = 2,
    CK_ALIGN_RIGHT = 3
} ck_text_alignment;

typedef enum ck_line_break_mode {
    CK_BREAK_WORD_WRAP = 0,
    CK_BREAK_CHAR_WRAP = 1,
    CK_BREAK_CLIP = 2,
    CK_BREAK_TRUNCATE_HEAD = 3,
    CK_BREAK_TRUNCATE_TAIL = 4,
    CK_BREAK_TRUNCATE_MIDDLE = 5
} ck_line_break_mode;

typedef enum ck_font_weight {
    CK_WEIGHT_REGULAR = 0,
    CK_WEIGHT_LIGHT = 1,
    CK_WEIGHT_MEDIUM = 2,
    CK_WEIGHT_SEMIBOLD = 3,
    CK_WEIGHT_BOLD = 4
} ck_font_weight;

typedef enum ck_view_kind {
    CK_VIEW_PLAIN = 0,
    CK_VIEW_LABEL = 1,
    CK_VIEW_IMAGE = 2
} ck_view_kind;

/** The standard parts of a cell (seed 000: UITableViewCell's subviews). */
typedef enum ck_cell_part {
    CK_PART_TEXT_LABEL = 0,
    CK_PART_DETAIL_TEXT_LABEL = 1,
    CK_PART_IMAGE_VIEW = 2,
    CK_PART_CONTENT_VIEW = 3,        /* its frame: where subviews show (see below) */
    CK_PART_ACCESSORY_VIEW = 4 /* NULL until set_accessory_view made one */
} ck_cell_part;

/** Properties of a cell. The comment names the getter/setter pair to use. */
typedef enum ck_cell_property {
    CK_CELL_STYLE = 0,                   /* int: ck_cell_style */
    CK_CELL_SELECTION_STYLE = 1,         /* int: ck_selection_style */
    CK_CELL_ACCESSORY_TYPE = 2,          /* int: ck_accessory_type */
    CK_CELL_INDENTATION_LEVEL = 3,       /* int: 0 or more */
    CK_CELL_INDENTATION_WIDTH = 4,       /* int: columns per level, 0 or more */
    CK_CELL_ROW_HEIGHT = 5,              /* double: lines, 1..CK_MAX_ROW_HEIGHT; 0 = the table's default;
                                            CK_AUTOMATIC_DIMENSION = as tall as the content (1.3) */
    CK_CELL_BACKGROUND_COLOR = 6,        /* int: ck_color */
    CK_CELL_SELECTED_BACKGROUND_COLOR = 7, /* int: ck_color */
    CK_CELL_BACKGROUND_IMAGE = 8,        /* string: an image name */
    CK_CELL_SELECTED_BACKGROUND_IMAGE = 9, /* string: an image name */
    CK_CELL_REUSE_IDENTIFIER = 10,       /* string, read-only */
    CK_CELL_LAYOUT_DIRECTION = 11        /* int, read-only, 1.4: ck_layout_direction (see RIGHT TO LEFT) */
} ck_cell_property;

/** Properties of a view. Label properties apply to label views only. */
typedef enum ck_view_property {
    CK_VIEW_TAG = 0,                  /* int, read-only: set when the view is added */
    CK_VIEW_KIND = 1,                 /* int, read-only: ck_view_kind */
    CK_VIEW_HIDDEN = 2,               /* int: 0 or 1 */
    CK_VIEW_BACKGROUND_COLOR = 3,     /* int: ck_color */
    CK_VIEW_TEXT = 4,                 /* string, label: UTF-8 text */
    CK_VIEW_FONT_SIZE = 5,            /* double, label: points, 17 by default */
    CK_VIEW_FONT_WEIGHT = 6,          /* int, label: ck_font_weight */
    CK_VIEW_TEXT_COLOR = 7,           /* int, label: ck_color */
    CK_VIEW_HIGHLIGHTED_TEXT_COLOR = 8, /* int, label: ck_color when the row is selected */
    CK_VIEW_ALIGNMENT = 9,            /* int, label: ck_text_alignment */
    CK_VIEW_LINE_BREAK_MODE = 10,     /* int, label: ck_line_break_mode */
    CK_VIEW_NUMBER_OF_LINES = 11,     /* int, label: 0 = as many as fit */
    CK_VIEW_IMAGE_NAME = 12,          /* string, image: a name from the asset catalog */
    CK_VIEW_AUTORESIZING_MASK = 13    /* int, 1.3: ck_autoresizing flags, 0 (none) by default */
} ck_view_property;

/** 1.3: how a subview follows the content view's width when a reused cell is shown at another
 * width than it was laid out at (UIKit's autoresizing mask, its values). The change in width
 * goes to the flexible parts in proportion to their sizes: a right-aligned badge is
 * FLEXIBLE_LEFT_MARGIN, a label that spans the row FLEXIBLE_WIDTH. None: the frame stays. */
typedef enum ck_autoresizing {
    CK_AUTORESIZE_NONE = 0,
    CK_AUTORESIZE_FLEXIBLE_LEFT_MARGIN = 1,
    CK_AUTORESIZE_FLEXIBLE_WIDTH = 2,
    CK_AUTORESIZE_FLEXIBLE_RIGHT_MARGIN = 4
} ck_autoresizing;

/* ---- Right to left (1.4) ----------------------------------------------------
 *
 * A table or section with `direction: rtl` (or `auto`, for a row whose text label reads right to
 * left) mirrors its rows as UIKit mirrors a cell under a right-to-left layout: the image goes to
 * the right, the accessory to the left (the chevron pointing left), value1's detail left of its
 * text, indentation counted from the right. Hooks read the direction with
 * cell_get_int(cell, CK_CELL_LAYOUT_DIRECTION, &d), or ck_cell_is_right_to_left(cell); in an
 * `auto` section the answer follows the text label's text as it is when asked (set it first).
 *
 * The content view mirrors too: it starts past the accessory on the left. Subviews keep the frames
 * a hook gives them, in the content view's coordinates, with one difference:
 *   - a subview WITH an autoresizing mask (CK_VIEW_AUTORESIZING_MASK, any bits) is placed by its
 *     leading edge, as UIKit's leading and trailing constraints are: its x counts from the content
 *     view's right edge, so a badge placed against the right edge with a flexible left margin shows
 *     against the left edge (its flexible margin is then the right one);
 *   - a subview WITHOUT a mask stays where its frame says, from the content view's left edge.
 * So: give every subview of a row a mask (CK_AUTORESIZE_FLEXIBLE_RIGHT_MARGIN for one that stays
 * at the leading edge) and the row mirrors whole; or read the direction and place them yourself,
 * with no mask. Mixing the two in one row can make them overlap: `cellkit check` renders every
 * cell type right to left too and fails a subview that overlaps another, or is cut, only there.
 * ------------------------------------------------------------------------- */

/** 1.4: which way a cell's row reads (CK_CELL_LAYOUT_DIRECTION). */
typedef enum ck_layout_direction {
    CK_LAYOUT_LEFT_TO_RIGHT = 0,
    CK_LAYOUT_RIGHT_TO_LEFT = 1
} ck_layout_direction;

/* ---- Handles ------------------------------------------------------------ */

typedef struct ck_host ck_host;

/** A cell. The host owns it; a hook may use it only while it runs. */
typedef struct ck_cell {
    const ck_host *host; /* the function table: everything a hook can do */
    void *host_private;  /* the host's; never touch */
} ck_cell;

/** A view inside a cell (a part or a subview). Valid as long as its cell. */
typedef struct ck_view {
    const ck_host *host;
    void *host_private;
} ck_view;

/** The row's data: read it through host->data_*. */
typedef struct ck_data ck_data;

/** 1.2: what host->data_type says a value is. */
typedef enum ck_data_type {
    CK_DATA_NULL = 0,
    CK_DATA_BOOL = 1,
    CK_DATA_NUMBER = 2,
    CK_DATA_STRING = 3,
    CK_DATA_LIST = 4,
    CK_DATA_OBJECT = 5
} ck_data_type;

/** What host->data_bool writes its answer to: `bool` (one byte, false or true) from ABI 1.4 on,
 *  int32_t (0 or 1) before. The host goes by the minor version in the plugin's descriptor: to a
 *  plugin built against 1.0 to 1.3 it writes all four bytes of an int32_t, so an old plugin's
 *  variable reads right even if it was not zeroed; to one built against 1.4 or later it writes
 *  exactly one byte, so a `bool` beside other variables is never overrun. Declare the variable
 *  as ck_data_bool_out (or, from 1.4, bool) and either header builds the plugin right. */
#define CK_DATA_BOOL_BYTE_MINOR 4
#if CK_ABI_MINOR >= CK_DATA_BOOL_BYTE_MINOR
typedef bool ck_data_bool_out;
#else
typedef int32_t ck_data_bool_out;
#endif

/* The content view's frame, read with view_get_frame, is the part of the row subviews show in:
 * x 0 is the row's left edge, and the width is the cell's width less the right margin (1 column)
 * and the accessory as it is set when the frame is read (a standard accessory takes 1 column, an
 * accessory view its width, at most a third of the row). A subview placed at x = width - w ends
 * flush against the accessory, nothing cut. Set the accessory first, then read the frame. (Before 1.2 the width
 * was the whole cell's, so a flush subview lost 1 to 3 columns.) */

/* ---- The host's function table (append-only) ---------------------------- */

/**
 * Handed to every hook through cell->host (and view->host). Entries are only
 * ever added at the end, with a new minor version; `size` is the table's size
 * as the host built it, so a plugin compiled against a newer header can test
 * CK_HOST_HAS(host, entry) before using an entry the host may not have.
 */
struct ck_host {
    uint32_t abi_major;
    uint32_t abi_minor;
    uint32_t size;

    /* -- 1.0: cells -- */
    ck_status (*cell_set_int)(ck_cell *cell, ck_cell_property property, int64_t value);
    ck_status (*cell_get_int)(ck_cell *cell, ck_cell_property property, int64_t *out);
    ck_status (*cell_set_double)(ck_cell *cell, ck_cell_property property, double value);
    ck_status (*cell_get_double)(ck_cell *cell, ck_cell_property property, double *out);
    /* A string copied by the host. A string read back is valid until the hook returns. */
    ck_status (*cell_set_string)(ck_cell *cell, ck_cell_property property, const char *value);
    ck_status (*cell_get_string)(ck_cell *cell, ck_cell_property property, const char **out);
    ck_view *(*cell_part)(ck_cell *cell, ck_cell_part part);
    /** Makes the custom accessory view (replacing the accessory type's glyph). */
    ck_view *(*set_accessory_view)(ck_cell *cell, ck_view_kind kind, ck_rect frame);

    /* -- 1.0: the content view's subviews -- */
    /** Adds a subview with a tag >= 1; NULL on error (tag 0, a duplicate tag). */
    ck_view *(*add_subview)(ck_cell *cell, ck_view_kind kind, ck_rect frame, int32_t tag);
    /** The subview with this tag, or NULL. */
    ck_view *(*view_with_tag)(ck_cell *cell, int32_t tag);

    /* -- 1.0: views -- */
    ck_status (*view_set_int)(ck_view *view, ck_view_property property, int64_t value);
    ck_status (*view_get_int)(ck_view *view, ck_view_property property, int64_t *out);
    ck_status (*view_set_double)(ck_view *view, ck_view_property property, double value);
    ck_status (*view_get_double)(ck_view *view, ck_view_property property, double *out);
    ck_status (*view_set_string)(ck_view *view, ck_view_property property, const char *value);
    ck_status (*view_get_string)(ck_view *view, ck_view_property property, const char **out);
    ck_status (*view_set_frame)(ck_view *view, ck_rect frame);
    ck_status (*view_get_frame)(ck_view *view, ck_rect *out);

    /* -- 1.0: the row -- */
    const ck_data *(*row_data)(ck_cell *cell);
    ck_status (*row_position)(ck_cell *cell, ck_row_position *out);
    /* Key paths are dot-separated; a number indexes a list: "logos.0". "" is the row's data itself. */
    ck_status (*data_string)(const ck_data *data, const char *key_path, const char **out);
    ck_status (*data_number)(const ck_data *data, const char *key_path, double *out);
    /* data_bool writes a ck_data_bool_out: a bool (one byte) from 1.4, an int32_t before. */
    ck_status (*data_bool)(const ck_data *data, const char *key_path, ck_data_bool_out *out);
    ck_status (*data_count)(const ck_data *data, const char *key_path, int64_t *out);

    /* -- 1.0: errors -- */
    /** The message of the last failed call on this cell, or NULL. */
    const char *(*last_error)(ck_cell *cell);

    /* -- 1.1: stylesheets -- */
    /** Applies the table stylesheet's style `name` (frame, font, colour, line
     *  break, lines, alignment) to the view. CK_ERR_NOT_FOUND for an unknown
     *  style; the renderer also warns about it once. */
    ck_status (*view_apply_style)(ck_view *view, const char *name);

    /* -- 1.2: errors at load, typed data, optional styles -- */
    /** Called from cellkit_plugin_init only: records why the plugin refuses to start (at most
     *  512 bytes are kept). list, inspect, render and check show it in place of a bare status.
     *  Returns CK_ERR_REFUSED, so `return host->init_error(host, "…");` refuses in one line.
     *  Outside cellkit_plugin_init it records nothing and returns CK_ERR_WRONG_THREAD. */
    ck_status (*init_error)(const ck_host *host, const char *message);
    /** The type of the value at key_path (ck_data_type); CK_ERR_NOT_FOUND when there is none,
     *  which is an answer, not a failed call: it is not counted in the table's warnings. */
    ck_status (*data_type)(const ck_data *data, const char *key_path, int32_t *out);
    /** The value at key_path as text: a string as it is, a number as JSON writes it (42, 4.5,
     *  1e+21: integers without a fraction, others in the shortest form that reads back the same),
     *  a bool as true or false. null, a list or an object: CK_ERR_WRONG_TYPE. Valid until the
     *  hook returns. */
    ck_status (*data_text)(const ck_data *data, const char *key_path, const char **out);
    /** view_apply_style for a style the stylesheet may lack: CK_ERR_NOT_FOUND with no warning
     *  and no failed call counted when it has no such style (or the table has no stylesheet). */
    ck_status (*view_apply_optional_style)(ck_view *view, const char *name);
};

/** True if the host's table has `entry` (it may be older than this header). */
#define CK_HOST_HAS(host, entry) \
    ((host)->size >= offsetof(ck_host, entry) + sizeof(((ck_host *)0)->entry))

/* ---- What a plugin exports --------------------------------------------- */

/** The descriptor. Plain bytes, no pointers: the host reads it straight from the file. */
typedef struct ck_plugin_descriptor {
    char magic[8]; /* "CKPLUGIN" */
    uint32_t abi_major;
    uint32_t abi_minor;
    char name[64];
    char version[32];
    char description[160];
} ck_plugin_descriptor;

#define CK_DESCRIPTOR_SYMBOL "cellkit_plugin"
#define CK_SIGNATURE_PREFIX "cellkit_signature_"

/** Declares the plugin. Use once per plugin, at file scope. */
#define CK_PLUGIN(name, version, description)                                                   \
    CK_STATIC_ASSERT(sizeof(name) <= 64, "CK_PLUGIN: name longer than 63 bytes");                 \
    CK_STATIC_ASSERT(sizeof(version) <= 32, "CK_PLUGIN: version longer than 31 bytes");           \
    CK_STATIC_ASSERT(sizeof(description) <= 160, "CK_PLUGIN: description longer than 159 bytes"); \
    CK_EXPORT const ck_plugin_descriptor cellkit_plugin = {                                     \
        {'C', 'K', 'P', 'L', 'U', 'G', 'I', 'N'}, CK_ABI_MAJOR, CK_ABI_MINOR, name, version, description}

/** Declares the parameter list of `hook` (see THE NAMING RULE above). */
#define CK_SIGNATURE(hook, text) \
    CK_EXPORT const char cellkit_signature_##hook[] = text

#define CK_PREVIEW_PREFIX "cellkit_preview_"
/** The longest JSON text of one preview sample, in bytes without its NUL. */
#define CK_PREVIEW_MAX_BYTES 4096
/** The most preview samples read for one cell identifier; more are reported and left out. */
#define CK_PREVIEW_MAX_SAMPLES 32

/**
 * Declares a preview sample of cell type `Id` named `name`: `json`, a string literal holding a JSON
 * object, is the row's data (see THE NAMING RULE above). Use at file scope, once per sample.
 * After the text's NUL comes the sample's place among the file's samples (__COUNTER__, in
 * decimal): `cellkit preview` and `check` take the samples in the order they are declared,
 * which a compiler may not keep in the file (GCC at -O2 lays them out in reverse).
 */
#define CK_PREVIEW(Id, name, json)                                                                      \
    CK_STATIC_ASSERT(sizeof(json) <= CK_PREVIEW_MAX_BYTES + 1, "CK_PREVIEW: longer than CK_PREVIEW_MAX_BYTES"); \
    CK_EXPORT const char cellkit_preview_##Id##_##name[] = json "\0" CK_PREVIEW_PLACE_(__COUNTER__)
/** The sample's place, as a string literal: CK_PREVIEW's use. */
#define CK_PREVIEW_PLACE_(n) CK_PREVIEW_PLACE_TEXT_(n)
#define CK_PREVIEW_PLACE_TEXT_(n) #n

/**
 * Optional: runs once, right after the plugin is loaded and its ABI checked.
 * Whatever it stores in *context is passed to hooks that declare `context`.
 * Return CK_OK, or anything else to refuse loading; say why with
 * `return ck_init_fail(host, "libfoo.so.3 is missing: apt-get install libfoo3");`.
 */
typedef ck_status (*ck_plugin_init_fn)(const ck_host *host, void **context);
#define CK_INIT_SYMBOL "cellkit_plugin_init"

/* ---- Defining hooks ------------------------------------------------------
 *
 * One macro per hook of THE NAMING RULE, named after its prefix, defines the hook for a cell
 * identifier with its exact signature and C name, exported (CK_EXPORT: C linkage under C++,
 * default visibility). The parameters are `cell` and `indexPath`; either may go unused:
 *
 *     CK_INIT_CELL_FOR(Foo) { ck_set_alignment(ck_text_label(cell), CK_ALIGN_CENTER); }
 *     CK_CUSTOMIZE_CELL_FOR(Foo) { ck_set_text(ck_text_label(cell), "Foo"); }
 *     CK_HEIGHT_FOR_CELL_FOR(Foo) { return indexPath.row == 0 ? 2.0 : 1.0; }
 *     CK_PREPARE_CELL_FOR_REUSE_FOR(Foo) { ... }
 *     CK_LAYOUT_SUBVIEWS_FOR(Foo) { ... }
 *     CK_PLUGIN_INIT { *context = NULL; (void)host; return CK_OK; }  (host, context)
 *
 * Each first declares the hook, so a definition of the same name with another return or
 * parameter type is a compile error ("conflicting types for 'heightForCellForFoo'"), where a
 * hook written by hand as `int heightForCellForFoo(...)` would build, load and return garbage.
 * Followed by `;` instead of a body, a macro only declares the hook: put it before a hook
 * defined by hand to have that definition checked. A hook with another parameter list
 * (CK_SIGNATURE) is written by hand, with CK_EXPORT.
 * ------------------------------------------------------------------------- */
#if defined(__GNUC__) || defined(__clang__)
#define CK_MAYBE_UNUSED __attribute__((unused))
#else
#define CK_MAYBE_UNUSED
#endif
#define CK_DEFINE_HOOK_(result, name)                  \
    CK_EXPORT result name(ck_cell *, ck_index_path); \
    CK_EXPORT result name(ck_cell *cell CK_MAYBE_UNUSED, ck_index_path indexPath CK_MAYBE_UNUSED)
#define CK_INIT_CELL_FOR(Id) CK_DEFINE_HOOK_(void, initCellFor##Id)
#define CK_CUSTOMIZE_CELL_FOR(Id) CK_DEFINE_HOOK_(void, customizeCellFor##Id)
#define CK_HEIGHT_FOR_CELL_FOR(Id) CK_DEFINE_HOOK_(double, heightForCellFor##Id)
#define CK_PREPARE_CELL_FOR_REUSE_FOR(Id) CK_DEFINE_HOOK_(void, prepareCellForReuseFor##Id)
#define CK_LAYOUT_SUBVIEWS_FOR(Id) CK_DEFINE_HOOK_(void, layoutSubviewsFor##Id)
#define CK_PLUGIN_INIT                                                    \
    CK_EXPORT ck_status cellkit_plugin_init(const ck_host *, void **); \
    CK_EXPORT ck_status cellkit_plugin_init(const ck_host *host CK_MAYBE_UNUSED, void **context CK_MAYBE_UNUSED)

/* ---- Conveniences for C plugins ----------------------------------------- */

/* Each helper checks its handle first: a NULL view or cell (view_with_tag found no view,
 * cell_part was refused) returns CK_ERR_INVALID_ARGUMENT, or NULL for a helper that returns a
 * view, without calling the host, so last_error does not change. */
static inline ck_view *ck_text_label(ck_cell *c) { return c ? c->host->cell_part(c, CK_PART_TEXT_LABEL) : NULL; }
static inline ck_view *ck_detail_text_label(ck_cell *c) {
    return c ? c->host->cell_part(c, CK_PART_DETAIL_TEXT_LABEL) : NULL;
}
static inline ck_view *ck_image_view(ck_cell *c) { return c ? c->host->cell_part(c, CK_PART_IMAGE_VIEW) : NULL; }
static inline ck_status ck_set_text(ck_view *v, const char *s) {
    return v ? v->host->view_set_string(v, CK_VIEW_TEXT, s) : CK_ERR_INVALID_ARGUMENT;
}
static inline ck_status ck_set_image(ck_view *v, const char *n) {
    return v ? v->host->view_set_string(v, CK_VIEW_IMAGE_NAME, n) : CK_ERR_INVALID_ARGUMENT;
}
static inline ck_status ck_set_text_color(ck_view *v, ck_color c) {
    return v ? v->host->view_set_int(v, CK_VIEW_TEXT_COLOR, c) : CK_ERR_INVALID_ARGUMENT;
}
static inline ck_status ck_set_font(ck_view *v, double size, ck_font_weight w) {
    if (!v) return CK_ERR_INVALID_ARGUMENT;
    ck_status s = v->host->view_set_double(v, CK_VIEW_FONT_SIZE, size);
    return s != CK_OK ? s : v->host->view_set_int(v, CK_VIEW_FONT_WEIGHT, w);
}
static inline ck_status ck_set_alignment(ck_view *v, ck_text_alignment a) {
    return v ? v->host->view_set_int(v, CK_VIEW_ALIGNMENT, a) : CK_ERR_INVALID_ARGUMENT;
}
static inline ck_status ck_set_accessory(ck_cell *c, ck_accessory_type a) {
    return c ? c->host->cell_set_int(c, CK_CELL_ACCESSORY_TYPE, a) : CK_ERR_INVALID_ARGUMENT;
}
/* ABI 1.1; on an older host, says CK_ERR_UNKNOWN_PROPERTY instead of crashing. */
static inline ck_status ck_apply_style(ck_view *v, const char *name) {
    if (!v) return CK_ERR_INVALID_ARGUMENT;
    return CK_HOST_HAS(v->host, view_apply_style) ? v->host->view_apply_style(v, name) : CK_ERR_UNKNOWN_PROPERTY;
}

/* ABI 1.2 conveniences; on an older host they answer as it would have: a refusal without a
 * message, CK_ERR_UNKNOWN_PROPERTY, and the style applied with view_apply_style. */
static inline ck_status ck_init_fail(const ck_host *h, const char *message) {
    if (!h) return CK_ERR_REFUSED;
    return CK_HOST_HAS(h, init_error) ? h->init_error(h, message) : CK_ERR_REFUSED;
}
static inline ck_status ck_data_type_of(ck_cell *c, const char *key_path, ck_data_type *out) {
    int32_t type = 0;
    if (!c) return CK_ERR_INVALID_ARGUMENT;
    if (!CK_HOST_HAS(c->host, data_type)) return CK_ERR_UNKNOWN_PROPERTY;
    ck_status s = c->host->data_type(c->host->row_data(c), key_path, &type);
    if (s == CK_OK && out) *out = (ck_data_type)type;
    return s;
}
static inline ck_status ck_data_text(ck_cell *c, const char *key_path, const char **out) {
    if (!c) return CK_ERR_INVALID_ARGUMENT;
    if (!CK_HOST_HAS(c->host, data_text)) return CK_ERR_UNKNOWN_PROPERTY;
    return c->host->data_text(c->host->row_data(c), key_path, out);
}
static inline ck_status ck_apply_optional_style(ck_view *v, const char *name) {
    if (!v) return CK_ERR_INVALID_ARGUMENT;
    return CK_HOST_HAS(v->host, view_apply_optional_style) ? v->host->view_apply_optional_style(v, name)
                                                           : ck_apply_style(v, name);
}

/* ABI 1.4: 1 when the cell's row reads right to left (CK_CELL_LAYOUT_DIRECTION), else 0; 0 on an
 * older host, which asks nothing (it has no such property and would count a failed call). */
static inline int ck_cell_is_right_to_left(ck_cell *c) {
    int64_t direction = CK_LAYOUT_LEFT_TO_RIGHT;
    if (c == NULL || c->host->abi_major != 1 || c->host->abi_minor < 4) return 0;
    if (c->host->cell_get_int(c, CK_CELL_LAYOUT_DIRECTION, &direction) != CK_OK) return 0;
    return direction == CK_LAYOUT_RIGHT_TO_LEFT;
}

/* ---- A complete plugin ---------------------------------------------------
 *
 *  #include <stdio.h>
 *  #include "cellkit.h"
 *
 *  CK_PLUGIN("Foobar", "1.0.0", "Seed 004: centred blue rows");
 *
 *  // Once per new cell: the look shared by every Foobar row.
 *  CK_INIT_CELL_FOR(Foobar) {
 *      ck_view *label = ck_text_label(cell);
 *      ck_set_alignment(label, CK_ALIGN_CENTER);
 *      ck_set_text_color(label, CK_RGB(0, 0, 255));
 *      ck_set_font(label, 16, CK_WEIGHT_BOLD);
 *  }
 *
 *  // Every time a cell is handed out: this row's content.
 *  CK_CUSTOMIZE_CELL_FOR(Foobar) {
 *      char text[32];
 *      snprintf(text, sizeof text, "Row: %lld", (long long)indexPath.row);
 *      ck_set_text(ck_text_label(cell), text);
 *  }
 *
 *  // Another parameter list (one word: called with it in a register).
 *  CK_SIGNATURE(heightForCellForFoobar, "double (row)");
 *  CK_EXPORT double heightForCellForFoobar(int64_t row) { return row == 0 ? 2 : 1; }
 * ------------------------------------------------------------------------- */

#ifdef __cplusplus
}
#endif
#endif /* CELLKIT_H */
