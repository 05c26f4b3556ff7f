#pragma once
// The descriptor (abi.h) that a C++ plugin's exported entry returns, built from the class that
// implements the plugin's interface, so that each plugin names only what is its own:
//
//   extern "C" GRAINLAB_PLUGIN_EXPORT const GrainlabPluginDescriptor* GRAINLAB_PLUGIN_ENTRY(void) {
//       return grainlab::pluginDescriptor<grainlab::ContactModel, Hooke>("hooke", "1.0.0", "...", kParameters);
//   }
#include <cstddef>
#include <cstdint>

#include "grainlab/plugin/abi.h"

namespace grainlab {

class Integrator;
class ContactModel;
class Solver;
class PostStep;

// The plugin kind that each interface stands for.
template <class Interface>
constexpr int kPluginKind = 0;
template <>
constexpr int kPluginKind<Integrator> = GRAINLAB_KIND_INTEGRATOR;
template <>
constexpr int kPluginKind<ContactModel> = GRAINLAB_KIND_CONTACT_MODEL;
template <>
constexpr int kPluginKind<Solver> = GRAINLAB_KIND_SOLVER;
template <>
constexpr int kPluginKind<PostStep> = GRAINLAB_KIND_POST_STEP;

// `Plugin` implements `Interface` (one of the four above); `parameters` holds `count` entries, or
// is null with `count` 0.
template <class Interface, class Plugin>
const GrainlabPluginDescriptor* pluginDescriptor(const char* name, const char* version, const char* description,
                                                 const GrainlabParameter* parameters, std::size_t count) {
    static_assert(kPluginKind<Interface> != 0, "the interface of an integrator, contact model, solver or post-step");
    static const GrainlabPluginDescriptor descriptor = {
        GRAINLAB_PLUGIN_ABI_VERSION, kPluginKind<Interface>, name, version, description, parameters,
        static_cast<std::uint32_t>(count), []() -> void* { return static_cast<Interface*>(new Plugin()); },
        [](void* p) { delete static_cast<Interface*>(p); }};
    return &descriptor;
}

template <class Interface, class Plugin, std::size_t N>
const GrainlabPluginDescriptor* pluginDescriptor(const char* name, const char* version, const char* description,
                                                 const GrainlabParameter (&parameters)[N]) {
    return pluginDescriptor<Interface, Plugin>(name, version, description, parameters, N);
}

template <class Interface, class Plugin>
const GrainlabPluginDescriptor* pluginDescriptor(const char* name, const char* version, const char* description) {
    return pluginDescriptor<Interface, Plugin>(name, version, description, nullptr, 0);
}

}  // namespace grainlab
