#include "grainlab/plugin/loader.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "grainlab/core/error.hpp"
#include "grainlab/plugin/contact_model.hpp"
#include "grainlab/plugin/integrator.hpp"
#include "grainlab/plugin/post_step.hpp"
#include "grainlab/plugin/solver.hpp"
#include "grainlab/scene/scene.hpp"
#include "shared_library.hpp"

namespace grainlab {
namespace fs = std::filesystem;

std::string kindName(PluginKind kind) {
    switch (kind) {
        case PluginKind::Integrator: return "integrator";
        case PluginKind::ContactModel: return "contact model";
        case PluginKind::Solver: return "solver";
        case PluginKind::PostStep: return "post-step";
    }
    return "unknown";
}

namespace {

bool isSharedLibrary(const fs::path& p) {
    const std::string name = p.filename().string();
    return p.extension() == ".so" || name.find(".so.") != std::string::npos;
}

std::string text(const char* s) { return s ? s : ""; }

// Checks the descriptor and returns an empty string, or the reason it is refused.
std::string checkDescriptor(const GrainlabPluginDescriptor& d) {
    if (d.abi_version != GRAINLAB_PLUGIN_ABI_VERSION)
        return "its descriptor says plugin interface version " + std::to_string(d.abi_version) +
               ", but this GrainLab loads version " + std::to_string(GRAINLAB_PLUGIN_ABI_VERSION) +
               "; rebuild the plugin against this GrainLab's headers";
    if (d.kind != GRAINLAB_KIND_INTEGRATOR && d.kind != GRAINLAB_KIND_CONTACT_MODEL && d.kind != GRAINLAB_KIND_SOLVER &&
        d.kind != GRAINLAB_KIND_POST_STEP)
        return "its kind " + std::to_string(d.kind) +
               " is none of integrator (1), contact model (2), solver (3) or post-step (4)";
    if (text(d.name).empty()) return "its descriptor has no name";
    if (!d.create || !d.destroy) return "its descriptor has no create or destroy function";
    if (d.parameter_count > 0 && !d.parameters) return "its descriptor declares parameters but lists none";
    for (std::uint32_t k = 0; k < d.parameter_count; ++k) {
        const GrainlabParameter& p = d.parameters[k];
        const std::string pname = text(p.name);
        if (pname.empty()) return "parameter " + std::to_string(k) + " has no name";
        if (p.type != GRAINLAB_PARAM_REAL && p.type != GRAINLAB_PARAM_INTEGER && p.type != GRAINLAB_PARAM_BOOLEAN)
            return "parameter '" + pname + "' has unknown type " + std::to_string(p.type);
        if (!(p.min_value <= p.max_value) || !(p.default_value >= p.min_value && p.default_value <= p.max_value))
            return "parameter '" + pname + "' has a default outside its range";
        for (std::uint32_t m = 0; m < k; ++m)
            if (text(d.parameters[m].name) == pname) return "parameter '" + pname + "' is declared twice";
    }
    return {};
}

// Explains a library without our entry point: another interface version, or not a plugin at all.
std::string missingEntryReason(const SharedLibrary& lib) {
    for (int version = 0; version < 100; ++version) {
        if (version == static_cast<int>(GRAINLAB_PLUGIN_ABI_VERSION)) continue;
        const std::string symbol = GRAINLAB_PLUGIN_ENTRY_PREFIX + std::to_string(version);
        if (lib.symbol(symbol.c_str()))
            return "it exports " + symbol + ", built for plugin interface version " + std::to_string(version) +
                   ", but this GrainLab loads version " + std::to_string(GRAINLAB_PLUGIN_ABI_VERSION);
    }
    return std::string("it has no entry point ") + GRAINLAB_PLUGIN_ENTRY_NAME + ": not a GrainLab plugin";
}

std::string formatNumber(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

}  // namespace

std::vector<fs::path> PluginRegistry::defaultSearchPath() {
    std::vector<fs::path> folders;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) folders.push_back(exe.parent_path() / "plugins");
    if (const char* env = std::getenv("GRAINLAB_PLUGIN_PATH")) {
        std::stringstream ss(env);
        std::string item;
        while (std::getline(ss, item, ':'))
            if (!item.empty()) folders.emplace_back(item);
    }
    return folders;
}

void PluginRegistry::scan(const std::vector<fs::path>& folders) {
    for (const fs::path& folder : folders) {
        std::error_code ec;
        if (!fs::is_directory(folder, ec)) continue;
        std::vector<fs::path> libraries;
        for (const auto& entry : fs::directory_iterator(folder, ec))
            if (entry.is_regular_file() && isSharedLibrary(entry.path())) libraries.push_back(entry.path());
        std::sort(libraries.begin(), libraries.end());  // load order independent of the file system
        for (const fs::path& lib : libraries) load(lib);
    }
}

bool PluginRegistry::load(const fs::path& path) {
    auto refuse = [&](const std::string& reason) {
        refused_.push_back({path, reason});
        return false;
    };
    auto library = std::make_shared<SharedLibrary>(path);
    if (!library->loaded()) return refuse("cannot be loaded: " + library->error());
    auto entry = reinterpret_cast<GrainlabPluginEntry>(library->symbol(GRAINLAB_PLUGIN_ENTRY_NAME));
    if (!entry) return refuse(missingEntryReason(*library));
    const GrainlabPluginDescriptor* d = entry();
    if (!d) return refuse(std::string(GRAINLAB_PLUGIN_ENTRY_NAME) + " returned no descriptor");
    if (std::string reason = checkDescriptor(*d); !reason.empty()) return refuse(reason);

    PluginInfo info;
    info.path = path;
    info.name = d->name;
    info.version = text(d->version);
    info.description = text(d->description);
    info.kind = static_cast<PluginKind>(d->kind);
    for (std::uint32_t k = 0; k < d->parameter_count; ++k) {
        const GrainlabParameter& p = d->parameters[k];
        info.parameters.push_back({p.name, text(p.unit), text(p.description),
                                   static_cast<GrainlabParameterType>(p.type), p.default_value, p.min_value,
                                   p.max_value});
    }
    if (const PluginInfo* other = find(info.name, info.kind))
        return refuse("a " + kindName(info.kind) + " named '" + info.name + "' is already loaded from " +
                      other->path.string());
    info.library = std::move(library);
    info.descriptor = d;
    plugins_.push_back(std::move(info));
    return true;
}

const PluginInfo* PluginRegistry::find(const std::string& name, PluginKind kind) const {
    for (const PluginInfo& p : plugins_)
        if (p.name == name && p.kind == kind) return &p;
    return nullptr;
}

ParameterValues PluginRegistry::resolveParameters(const PluginInfo& plugin, const PluginChoice& choice,
                                                  const std::string& file, const std::string& where) const {
    ParameterValues values;
    for (const ParameterSpec& spec : plugin.parameters) values.set(spec.name, spec.default_value);
    for (const auto& [name, value] : choice.parameters) {
        const std::string& key = name;  // clang 14 cannot capture a structured binding
        const auto spec = std::find_if(plugin.parameters.begin(), plugin.parameters.end(),
                                       [&](const ParameterSpec& s) { return s.name == key; });
        const std::string field = where + "/parameters/" + name;
        if (spec == plugin.parameters.end()) {
            std::string known;
            for (const ParameterSpec& s : plugin.parameters) known += (known.empty() ? "" : ", ") + s.name;
            throw InputError(file, field,
                             kindName(plugin.kind) + " '" + plugin.name + "' has no parameter '" + name +
                                 "'; its parameters are: " + (known.empty() ? "none" : known));
        }
        if (!std::isfinite(value) || value < spec->min_value || value > spec->max_value)
            throw InputError(file, field,
                             formatNumber(value) + " is outside the range [" + formatNumber(spec->min_value) +
                                 ", " + formatNumber(spec->max_value) + "] of '" + name + "'" +
                                 (spec->unit.empty() ? "" : " (" + spec->unit + ")"));
        if (spec->type != GRAINLAB_PARAM_REAL && value != std::floor(value))
            throw InputError(file, field, "'" + name + "' takes a whole number, not " + formatNumber(value));
        values.set(name, value);
    }
    return values;
}

template <class Interface>
PluginInstance<Interface> PluginRegistry::create(PluginKind kind, const PluginChoice& choice,
                                                 const std::string& file, const std::string& where) const {
    const PluginInfo* plugin = find(choice.name, kind);
    if (!plugin) {
        std::string available;
        for (const PluginInfo& p : plugins_)
            if (p.kind == kind) available += (available.empty() ? "" : ", ") + p.name;
        std::string message = "no " + kindName(kind) + " plugin named '" + choice.name + "'; available: " +
                              (available.empty() ? "none" : available);
        for (const PluginInfo& p : plugins_)
            if (p.name == choice.name) message += " ('" + p.name + "' is " + (p.kind == PluginKind::Integrator ? "an " : "a ") + kindName(p.kind) + ")";
        for (const RefusedLibrary& r : refused_)
            if (r.path.filename().string().find(choice.name) != std::string::npos)
                message += "; " + r.path.string() + " was refused: " + r.reason;
        throw InputError(file, where + "/name", message);
    }
    ParameterValues values = resolveParameters(*plugin, choice, file, where);
    auto* object = static_cast<Interface*>(plugin->descriptor->create());
    if (!object) throw InputError(file, where, "plugin '" + plugin->name + "' failed to create an instance");
    PluginInstance<Interface> instance(object, plugin->descriptor->destroy, plugin->library, plugin->name);
    try {
        instance->configure(values);
    } catch (const std::exception& e) {
        throw InputError(file, where + "/parameters", e.what());
    }
    return instance;
}

PluginInstance<ContactModel> PluginRegistry::createContactModel(const PluginChoice& choice, const std::string& file,
                                                                const std::string& where) const {
    return create<ContactModel>(PluginKind::ContactModel, choice, file, where);
}
PluginInstance<Integrator> PluginRegistry::createIntegrator(const PluginChoice& choice, const std::string& file,
                                                            const std::string& where) const {
    return create<Integrator>(PluginKind::Integrator, choice, file, where);
}
PluginInstance<Solver> PluginRegistry::createSolver(const PluginChoice& choice, const std::string& file,
                                                    const std::string& where) const {
    return create<Solver>(PluginKind::Solver, choice, file, where);
}
PluginInstance<PostStep> PluginRegistry::createPostStep(const PluginChoice& choice, const std::string& file,
                                                        const std::string& where) const {
    return create<PostStep>(PluginKind::PostStep, choice, file, where);
}

}  // namespace grainlab
