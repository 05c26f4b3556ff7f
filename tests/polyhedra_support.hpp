#pragma once
// Scenes of polyhedral particles for the tests: shapes from resources/shapes, the polyhedral-barrier
// contact model, a ground plane, and helpers to read ground reactions.
#include <string>

#include "support.hpp"

namespace grainlab::test {

inline std::string shapePath(const std::string& name) {
    return std::string(GRAINLAB_SOURCE_DIR) + "/resources/shapes/" + name;
}

// The cube of the paper's examples 1-3 (side `side`, density `density`), gravity along -z, a ground
// plane at z = 0, and the barrier law with skin 1% of the side.
struct CubeSceneSettings {
    double side = 0.1;
    double density = 2500.0;
    double stiffness = 1e6;
    double damping_ratio = 0.0;
    double mu_s = 0.0, mu_d = 0.0;
    double tangential_stiffness = 1e6;
    double tangential_damping_ratio = 0.0;
    double dt = 1e-5;
};

inline Scene polyhedronScene(const std::string& shape_file, double scale, const CubeSceneSettings& s) {
    Scene scene = emptyScene("polyhedral-barrier");
    scene.materials[0].density = s.density;
    scene.materials[0].friction = s.mu_s;
    scene.gravity = Vec3(0, 0, -9.81);
    ShapeSpec shape;
    shape.name = "shape";
    shape.kind = ShapeSpec::Kind::Polyhedron;
    shape.file = shapePath(shape_file);
    shape.scale = scale;
    scene.shapes.push_back(shape);
    PlaneWall ground;
    ground.name = "ground";
    ground.material = "grain";
    scene.planes.push_back(ground);
    scene.domain.min = Vec3(-10, -10, -1);
    scene.domain.max = Vec3(10, 10, 10);
    scene.contact_model.parameters = {{"stiffness", s.stiffness},
                                      {"skin", 0.01 * s.side},
                                      {"damping_ratio", s.damping_ratio},
                                      {"tangential_stiffness", s.tangential_stiffness},
                                      {"tangential_damping_ratio", s.tangential_damping_ratio},
                                      {"static_friction", s.mu_s},
                                      {"dynamic_friction", s.mu_d}};
    scene.time_step = s.dt;
    return scene;
}

inline BodySpec polyhedralBody(const Vec3& position, const Quat& orientation = Quat::Identity()) {
    BodySpec b;
    b.shape = "shape";
    b.material = "grain";
    b.radius = 0.0;
    b.position = position;
    b.orientation = orientation;
    return b;
}

// Sum of the forces the contact model applies to bodies from walls (the ground reaction), read from
// the feature contacts of the last force evaluation (needs setRecordContacts(true)).
inline Vec3 wallReaction(const Simulation& sim) {
    Vec3 total = Vec3::Zero();
    for (const FrameContact& c : sim.frame().contacts)
        if (c.body_b < 0) total += c.force;
    return total;
}

}  // namespace grainlab::test
