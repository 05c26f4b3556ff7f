// Plugin choices and the run settings: gravity, time step, neighbour skin, run length, output.
#include "scene_parse.hpp"

namespace grainlab::scene_parse {

using json_fields::Range;

namespace {

// Parameter values are only checked to be numbers here (booleans become 0/1); the plugin loader
// checks names and ranges against the plugin's own descriptor.
PluginChoice parsePluginChoice(const Object& plugins, const std::string& key,
                               const PluginChoice& fallback) {
    if (!plugins.has(key)) return fallback;
    const Object fields = plugins.object(key, {"name", "parameters"});
    PluginChoice choice;
    choice.name = fields.name("name");
    if (const Json* parameters = fields.find("parameters")) {
        const std::string at = fields.at("parameters");
        if (!parameters->is_object())
            json_fields::failType(fields.file(), at, "an object {\"name\": number}", *parameters);
        for (const auto& member : parameters->items()) {
            const std::string parameter_at = json_fields::child(at, member.key());
            const Json& value = member.value();
            if (value.is_boolean())
                choice.parameters[member.key()] = value.get<bool>() ? 1.0 : 0.0;
            else if (value.is_number())
                choice.parameters[member.key()] =
                    json_fields::asNumber(fields.file(), parameter_at, value);
            else
                json_fields::failType(fields.file(), parameter_at, "a number or true/false", value);
        }
    }
    return choice;
}

}  // namespace

void parsePlugins(const Object& top, Context& context) {
    if (!top.has("plugins")) return;
    const Object plugins = top.object("plugins", {"integrator", "contact_model", "solver", "post_step"});
    Scene& scene = context.scene;
    scene.integrator = parsePluginChoice(plugins, "integrator", scene.integrator);
    scene.contact_model = parsePluginChoice(plugins, "contact_model", scene.contact_model);
    const Json* solver = plugins.find("solver");
    if (solver && !solver->is_null())
        scene.solver = parsePluginChoice(plugins, "solver", PluginChoice{});
    const Json* post_step = plugins.find("post_step");
    if (post_step && !post_step->is_null())
        scene.post_step = parsePluginChoice(plugins, "post_step", PluginChoice{});
}

void parseSettings(const Object& top, Context& context) {
    Scene& scene = context.scene;
    scene.gravity = top.vec3("gravity", scene.gravity);
    scene.time_step = top.number("time_step", scene.time_step, Range::above(0));
    scene.skin = top.number("skin", scene.skin, Range::atLeast(0));
    scene.max_initial_overlap =
        top.number("max_initial_overlap", scene.max_initial_overlap, Range::closedOpen(0, 1));
    const long long threads = top.integer("threads", scene.threads, Range::atLeast(0));
    if (threads > 65536)
        top.fail("threads", "expected at most 65536 threads, found " + std::to_string(threads));
    scene.threads = static_cast<int>(threads);
    if (top.has("spatial_sort")) {
        const Object sort = top.object("spatial_sort", {"every_builds", "min_bodies"});
        scene.spatial_sort.every_builds = static_cast<long>(
            sort.integer("every_builds", scene.spatial_sort.every_builds, Range::atLeast(0)));
        scene.spatial_sort.min_bodies = static_cast<long>(
            sort.integer("min_bodies", scene.spatial_sort.min_bodies, Range::atLeast(0)));
    }
    scene.track_sphere_orientation = top.boolean("track_sphere_orientation", scene.track_sphere_orientation);

    if (top.has("run")) {
        const Object run = top.object("run", {"steps", "time"});
        if (run.has("steps") == run.has("time"))
            json_fields::fail(context.file, run.pointer(),
                              "expected exactly one of \"steps\" or \"time\"");
        if (run.has("steps"))
            scene.run.steps = static_cast<long>(run.integer("steps", Range::atLeast(1)));
        else
            scene.run.time = run.number("time", Range::above(0));
    }

    // The output folder, like every path in the file, is relative to the scene file's folder.
    std::string directory = scene.output.directory;
    if (top.has("output")) {
        const Object output = top.object("output", {"directory", "every_steps", "contacts"});
        if (output.has("directory")) directory = output.name("directory");
        scene.output.every_steps = static_cast<long>(
            output.integer("every_steps", scene.output.every_steps, Range::atLeast(0)));
        scene.output.contacts = output.boolean("contacts", scene.output.contacts);
    }
    scene.output.directory = context.resolvePath("/output/directory", directory, false);
}

}  // namespace grainlab::scene_parse
