/* A parameter of unknown type. */
#include "grainlab/plugin/abi.h"
static void* create(void) { return 0; }
static void destroy(void* p) { (void)p; }
static const GrainlabParameter parameters[] = {{"stiffness", "N/m", 99, 1.0, 0.0, 2.0, "bad type"}};
static const GrainlabPluginDescriptor descriptor = {GRAINLAB_PLUGIN_ABI_VERSION, GRAINLAB_KIND_CONTACT_MODEL, "bad-parameter", "1", "", parameters, 1, create, destroy};
GRAINLAB_PLUGIN_EXPORT const GrainlabPluginDescriptor* GRAINLAB_PLUGIN_ENTRY(void) { return &descriptor; }
