/* The descriptor of the GreetingCells plugin: plain C data that the host reads
 * straight from the library file, before any of the plugin's code runs. */
#include "cellkit.h"

CK_PLUGIN("GreetingCells", "1.0.0", "An example Swift plugin: Greeting and Badge cells");
