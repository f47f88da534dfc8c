/* A plugin that crashes on purpose: its Crashy cell type dereferences a null pointer
 * in its customize hook. Examples/run-examples.sh builds it with
 *     cc -shared -fPIC -I Sources/CCellKit/include Examples/Embedding/Crashy/crashy.c -o libcrashy.so
 * and renders crashy.yaml with embed: the table is drawn, the Crashy row as a placeholder. */
#include "cellkit.h"

CK_PLUGIN("Crashy", "1.0.0", "Crashes on purpose");

CK_CUSTOMIZE_CELL_FOR(Crashy) {
    volatile int *nowhere = 0;
    *nowhere = 1;
}
