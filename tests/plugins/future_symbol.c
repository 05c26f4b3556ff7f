/* Built for a later interface: only grainlab_plugin_entry_v14 exists. */
#include "grainlab/plugin/abi.h"
GRAINLAB_PLUGIN_EXPORT const void* grainlab_plugin_entry_v14(void) { return 0; }
