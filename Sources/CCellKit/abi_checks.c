/* Compile-time checks that the plugin ABI in cellkit.h stays frozen: a change
 * to any of these sizes or offsets breaks every plugin already built. */
#include "cellkit.h"

_Static_assert(sizeof(ck_index_path) == 16, "ck_index_path is part of the ABI");
_Static_assert(sizeof(ck_rect) == 16, "ck_rect is part of the ABI");
_Static_assert(sizeof(ck_row_position) == 32, "ck_row_position is part of the ABI");
_Static_assert(sizeof(ck_plugin_descriptor) == 272, "ck_plugin_descriptor is read from files");
_Static_assert(offsetof(ck_plugin_descriptor, name) == 16, "descriptor layout is read from files");
_Static_assert(offsetof(ck_host, cell_set_int) == 16, "ck_host grows at the end only");
_Static_assert(offsetof(ck_host, last_error) == 208, "the last 1.0 entry stays where 1.0 plugins look");
_Static_assert(offsetof(ck_host, view_apply_style) == 216, "1.1 appends after 1.0");
_Static_assert(offsetof(ck_host, init_error) == 224, "1.2 appends after 1.1");
_Static_assert(sizeof(ck_host) == 256, "1.2 ends with view_apply_optional_style");
_Static_assert(sizeof(ck_status) == 4, "enums are passed as 32-bit ints");
