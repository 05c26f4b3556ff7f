/* Exports the current symbol but its descriptor claims the next interface version. */
#include "grainlab/plugin/abi.h"
static void* create(void) { return 0; }
static void destroy(void* p) { (void)p; }
static const GrainlabPluginDescriptor descriptor = {GRAINLAB_PLUGIN_ABI_VERSION + 1u, GRAINLAB_KIND_INTEGRATOR, "wrong-version", "1", "", 0, 0, create, destroy};
GRAINLAB_PLUGIN_EXPORT const GrainlabPluginDescriptor* GRAINLAB_PLUGIN_ENTRY(void) { return &descriptor; }
