// A cell plugin in C++: "Tally" rows show a name and its votes as a bar of stars, the
// total in the detail label. Built with g++ or clang++ exactly as a C plugin is with cc:
//
//     c++ -std=c++17 -shared -fPIC -I <dir of cellkit.h> TallyCells.cpp -o libTallyCells.so
//     cellkit render tally.yaml --plugin-path .
//
// CK_PLUGIN, CK_SIGNATURE, CK_EXPORT and the hook macros (CK_INIT_CELL_FOR) give the
// descriptor and hooks C names, so the host finds them by name as in a C plugin. No
// exception may leave a hook: each catches its own.
#include <algorithm>
#include <string>

#include "cellkit.h"

CK_PLUGIN("TallyCells", "1.0.0", "A C++ plugin: a name and its votes as a bar of stars");

namespace {

/// The row's number at `key`, or `fallback` when the row has none.
double number(ck_cell *cell, const ck_data *data, const char *key, double fallback) {
    double value = 0;
    return cell->host->data_number(data, key, &value) == CK_OK ? value : fallback;
}

/// "★★★☆☆": `votes` of `out_of` stars filled.
std::string stars(long votes, long out_of) {
    std::string bar;
    for (long i = 0; i < out_of; ++i) bar += i < votes ? "\u2605" : "\u2606";
    return bar;
}

}  // namespace

// Once per new cell: the look every Tally row shares.
CK_INIT_CELL_FOR(Tally) {
    cell->host->cell_set_int(cell, CK_CELL_STYLE, CK_STYLE_VALUE1);
    ck_set_text_color(ck_detail_text_label(cell), CK_RGB(200, 120, 0));
}

// Every time a cell is handed out: this row's name and votes (a declared parameter list).
CK_SIGNATURE(customizeCellForTally, "void (cell, row, data)");
CK_EXPORT void customizeCellForTally(ck_cell *cell, int64_t row, const ck_data *data) {
    try {
        const char *name = nullptr;
        std::string title = cell->host->data_string(data, "name", &name) == CK_OK
            ? std::string(name) : "Entry " + std::to_string(row);
        long votes = std::clamp(static_cast<long>(number(cell, data, "votes", 0)), 0L, 5L);
        ck_set_text(ck_text_label(cell), title.c_str());
        ck_set_text(ck_detail_text_label(cell), (stars(votes, 5) + " " + std::to_string(votes) + "/5").c_str());
    } catch (...) {
        ck_set_text(ck_text_label(cell), "(out of memory)");
    }
}

// A row with a note is two lines tall.
CK_SIGNATURE(heightForCellForTally, "double (cell, data)");
CK_EXPORT double heightForCellForTally(ck_cell *cell, const ck_data *data) {
    const char *note = nullptr;
    return cell->host->data_string(data, "note", &note) == CK_OK ? 2 : 1;
}

// Previews: sample rows `cellkit inspect` lists and `cellkit check` runs as typical data. Under
// C++, CK_PREVIEW gives each its C name and external linkage, as CK_SIGNATURE does.
CK_PREVIEW(Tally, typical, "{\"name\": \"Ada\", \"votes\": 5}");
CK_PREVIEW(Tally, empty, "{}");
CK_PREVIEW(Tally, note, "{\"name\": \"Grace\", \"votes\": 3, \"note\": \"two lines\"}");
CK_PREVIEW(Tally, long, "{\"name\": \"A name far longer than the row has room for beside its stars\", \"votes\": 9}");
CK_PREVIEW(Tally, rtl, "{\"name\": \"דוד\", \"votes\": 2}");
