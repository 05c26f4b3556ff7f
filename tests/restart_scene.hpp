#pragma once
// The scene the restart tests run: 150 spheres thrown down into a rotating STL drum, so a short
// run has grain-grain and grain-wall contacts with tangential history, frequent neighbour-list
// rebuilds and moving mesh candidates: everything a checkpoint must carry.
#include <string>

#include <nlohmann/json.hpp>

namespace grainlab::test {

inline nlohmann::json restartSceneJson(const std::string& integrator = "velocity-verlet",
                                       const std::string& contact_model = "hertz-mindlin",
                                       int threads = 2) {
    using nlohmann::json;
    const json material = {{"density", 2500}, {"youngs_modulus", 5e6}, {"poisson_ratio", 0.3},
                           {"restitution", 0.5}, {"friction", 0.5}, {"rolling_friction", 0.05}};
    json grain = material, drum = material;
    grain["name"] = "grain";
    drum["name"] = "drum";
    json model_parameters = json::object();
    if (contact_model == "hertz-mindlin") model_parameters["rolling_resistance"] = 1;
    if (contact_model == "hooke") model_parameters["kn"] = 2e3;
    return {{"format", "grainlab-scene"},
            {"version", 1},
            {"name", "restart test"},
            {"materials", {grain, drum}},
            {"generators",
             {{{"type", "random_fill"}, {"material", "grain"}, {"count", 150}, {"seed", 5}, {"radius", 0.004},
               {"velocity", {0.1, 0, -1.0}},
               {"region", {{"box", {{"min", {-0.03, -0.04, -0.09}}, {"max", {0.03, 0.04, -0.05}}}}}}}}},
            {"walls",
             {{{"type", "mesh"}, {"name", "drum"}, {"file", std::string(GRAINLAB_SOURCE_DIR) + "/resources/meshes/drum.stl"},
               {"material", "drum"}, {"motion", {{"angular_velocity", {0, 2, 0}}, {"center", {0, 0, 0}}}}}}},
            {"gravity", {0, 0, -9.81}},
            {"plugins", {{"integrator", {{"name", integrator}, {"parameters", json::object()}}},
                         {"contact_model", {{"name", contact_model}, {"parameters", model_parameters}}}}},
            {"time_step", 5e-5},
            {"threads", threads},
            {"run", {{"steps", 800}}},
            {"output", {{"directory", "output/restart"}, {"every_steps", 100}, {"contacts", true}}}};
}

}  // namespace grainlab::test
