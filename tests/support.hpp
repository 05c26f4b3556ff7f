#pragma once
// Shared set-up for the engine tests: the built plugins and small hand-made scenes.
#include <string>

#include "grainlab/plugin/loader.hpp"
#include "grainlab/scene/scene.hpp"
#include "grainlab/sim/simulation.hpp"

namespace grainlab::test {

// The plugins built next to the test executable (bin/plugins).
inline const PluginRegistry& builtPlugins() {
    static PluginRegistry registry = [] {
        PluginRegistry r;
        r.scan(PluginRegistry::defaultSearchPath());
        return r;
    }();
    return registry;
}

// One material, no gravity, no bodies; tests add what they need.
inline Scene emptyScene(const std::string& contact_model = "hooke") {
    Scene scene;
    scene.source_file = "test-scene";
    Material m;
    m.name = "grain";
    m.density = 1.0;
    scene.materials.push_back(m);
    scene.gravity = Vec3::Zero();
    scene.contact_model.name = contact_model;
    scene.threads = 1;
    return scene;
}

inline BodySpec sphere(const Vec3& position, const Vec3& velocity, double radius = 0.5) {
    BodySpec b;
    b.material = "grain";
    b.radius = radius;
    b.position = position;
    b.velocity = velocity;
    return b;
}

// The total linear momentum of the bodies.
inline Vec3 momentum(const Bodies& b) {
    Vec3 p = Vec3::Zero();
    for (std::size_t i = 0; i < b.size(); ++i) p += b.mass[i] * b.velocity[i];
    return p;
}

inline double sphereMass(double radius, double density) { return 4.0 / 3.0 * kPi * radius * radius * radius * density; }

}  // namespace grainlab::test
