#pragma once
// Finds, checks and instantiates plugin libraries.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "grainlab/plugin/abi.h"
#include "grainlab/plugin/parameters.hpp"

namespace grainlab {

class ContactModel;
class Integrator;
class Solver;
class PostStep;
struct PluginChoice;

enum class PluginKind { Integrator = GRAINLAB_KIND_INTEGRATOR, ContactModel = GRAINLAB_KIND_CONTACT_MODEL, Solver = GRAINLAB_KIND_SOLVER,
                        PostStep = GRAINLAB_KIND_POST_STEP };
std::string kindName(PluginKind kind);  // "integrator", "contact model", "solver", "post-step"

struct ParameterSpec {
    std::string name, unit, description;
    GrainlabParameterType type = GRAINLAB_PARAM_REAL;
    double default_value = 0.0, min_value = 0.0, max_value = 0.0;
};

class SharedLibrary;

struct PluginInfo {
    std::filesystem::path path;
    std::string name, version, description;
    PluginKind kind = PluginKind::Integrator;
    std::vector<ParameterSpec> parameters;
    std::shared_ptr<SharedLibrary> library;  // keeps the code loaded while objects live
    const GrainlabPluginDescriptor* descriptor = nullptr;
};

struct RefusedLibrary {
    std::filesystem::path path;
    std::string reason;
};

// A plugin object together with the library that must outlive it.
template <class Interface>
class PluginInstance {
public:
    PluginInstance() = default;
    PluginInstance(Interface* object, void (*destroy)(void*), std::shared_ptr<SharedLibrary> library,
                   std::string name)
        : object_(object, Deleter{destroy}), library_(std::move(library)), name_(std::move(name)) {}
    Interface* operator->() const { return object_.get(); }
    Interface& operator*() const { return *object_; }
    explicit operator bool() const { return static_cast<bool>(object_); }
    const std::string& name() const { return name_; }

private:
    struct Deleter {
        void (*destroy)(void*);
        void operator()(Interface* p) const { if (p) destroy(p); }
    };
    std::unique_ptr<Interface, Deleter> object_{nullptr, Deleter{nullptr}};
    std::shared_ptr<SharedLibrary> library_;  // declared after object_: destroyed after it
    std::string name_;
};

class PluginRegistry {
public:
    // `plugins/` next to the executable, then each folder in GRAINLAB_PLUGIN_PATH.
    static std::vector<std::filesystem::path> defaultSearchPath();

    // Loads every shared library in the folders; refused ones are kept with the reason.
    void scan(const std::vector<std::filesystem::path>& folders);
    // Loads one library; returns false and records the reason when it is refused.
    bool load(const std::filesystem::path& library);

    const std::vector<PluginInfo>& plugins() const { return plugins_; }
    const std::vector<RefusedLibrary>& refused() const { return refused_; }
    const PluginInfo* find(const std::string& name, PluginKind kind) const;

    // Fills defaults and checks names, types and ranges; throws InputError naming `where`.
    ParameterValues resolveParameters(const PluginInfo& plugin, const PluginChoice& choice,
                                      const std::string& file, const std::string& where) const;

    // Instantiates and configures; throws InputError (missing plugin with the list of available
    // ones, unknown or out-of-range parameter) naming `file` and the field path `where`.
    PluginInstance<ContactModel> createContactModel(const PluginChoice& choice, const std::string& file = "",
                                                    const std::string& where = "/plugins/contact_model") const;
    PluginInstance<Integrator> createIntegrator(const PluginChoice& choice, const std::string& file = "",
                                                const std::string& where = "/plugins/integrator") const;
    PluginInstance<Solver> createSolver(const PluginChoice& choice, const std::string& file = "",
                                        const std::string& where = "/plugins/solver") const;
    PluginInstance<PostStep> createPostStep(const PluginChoice& choice, const std::string& file = "",
                                            const std::string& where = "/plugins/post_step") const;

private:
    template <class Interface>
    PluginInstance<Interface> create(PluginKind kind, const PluginChoice& choice, const std::string& file,
                                     const std::string& where) const;
    std::vector<PluginInfo> plugins_;
    std::vector<RefusedLibrary> refused_;
};

}  // namespace grainlab
