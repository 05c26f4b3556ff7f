#include "grainlab/sim/build_bodies.hpp"

#include <algorithm>

#include "grainlab/core/error.hpp"
#include "grainlab/geometry/polyhedron.hpp"
#include "grainlab/io/lammps_data.hpp"
#include "grainlab/scene/generators.hpp"

namespace grainlab {
namespace {

double sphereMass(double radius, double density) { return 4.0 / 3.0 * kPi * radius * radius * radius * density; }

void pushSphere(Bodies& bodies, const BodySpec& spec, std::uint32_t material, double density) {
    const double mass = sphereMass(spec.radius, density);
    bodies.push(spec.id >= 0 ? spec.id : static_cast<std::int64_t>(bodies.size()) + 1, 0, material, spec.radius, mass,
                Vec3::Constant(0.4 * mass * spec.radius * spec.radius), spec.frozen, spec.position,
                spec.orientation.normalized(), spec.velocity, spec.angular_velocity);
}

}  // namespace

void loadShapes(Scene& scene) {
    for (std::size_t k = 0; k < scene.shapes.size(); ++k) {
        ShapeSpec& shape = scene.shapes[k];
        if (shape.kind != ShapeSpec::Kind::Polyhedron || shape.polyhedron) continue;
        try {
            shape.polyhedron = std::make_shared<const Polyhedron>(
                loadPolyhedron(shape.file, shape.scale, shape.repair_orientation));
        } catch (const InputError& e) {
            throw InputError(scene.source_file, "/shapes (shape '" + shape.name + "')/file", e.what());
        }
    }
}

namespace {

int shapeIndex(const Scene& scene, const std::string& name) {
    for (std::size_t k = 0; k < scene.shapes.size(); ++k)
        if (scene.shapes[k].name == name) return static_cast<int>(k);
    return -1;
}

// The body frame of a polyhedron is its principal frame at the centre of mass: the spec's
// orientation turns the mesh as the file gives it, and its position places the centre of mass.
void pushBody(Bodies& bodies, const Scene& scene, const BodySpec& spec, std::uint32_t material, double density,
              const std::string& field) {
    const int s = shapeIndex(scene, spec.shape);
    if (s < 0) throw InputError(scene.source_file, field, "unknown shape '" + spec.shape + "'");
    const ShapeSpec& shape = scene.shapes[static_cast<std::size_t>(s)];
    if (shape.kind == ShapeSpec::Kind::Sphere) {
        pushSphere(bodies, spec, material, density);
        bodies.shape.back() = static_cast<std::uint32_t>(s);
        return;
    }
    const Polyhedron& p = *shape.polyhedron;
    const double mass = density * p.volume;
    bodies.push(spec.id >= 0 ? spec.id : static_cast<std::int64_t>(bodies.size()) + 1, static_cast<std::uint32_t>(s),
                material, p.features.bounding_radius, mass, density * p.principal_inertia, spec.frozen, spec.position,
                (spec.orientation.normalized() * p.body_to_mesh).normalized(), spec.velocity, spec.angular_velocity);
}

std::uint32_t materialOf(const Scene& scene, const std::string& name, const std::string& field) {
    const int index = scene.materialIndex(name);
    if (index < 0) throw InputError(scene.source_file, field, "unknown material '" + name + "'");
    return static_cast<std::uint32_t>(index);
}

}  // namespace

Bodies buildBodies(Scene& scene) {
    Bodies bodies;
    loadShapes(scene);
    std::vector<BodySpec> placed = scene.bodies;
    for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
        const std::string field = "/bodies/" + std::to_string(k);
        const std::uint32_t m = materialOf(scene, scene.bodies[k].material, field + "/material");
        pushBody(bodies, scene, scene.bodies[k], m, scene.materials[m].density, field + "/shape");
        placed[k].radius = bodies.radius.back();  // generators keep clear of the bounding sphere
    }

    if (scene.lammps_data) {
        const LammpsDataSource& source = *scene.lammps_data;
        const LammpsData data = readLammpsData(source.file);
        scene.domain.min = data.box_min;
        scene.domain.max = data.box_max;
        // Sized once: growing a million bodies' arrays by doubling held old and new copies together.
        bodies.reserve(bodies.size() + data.atoms.size());
        // Generators keep clear of the bodies placed before them and number theirs after them;
        // without generators the atoms need no second copy (a BodySpec is about 300 bytes).
        const bool keep_placed = !scene.fills.empty() || !scene.lattices.empty();
        for (const LammpsAtom& atom : data.atoms) {
            const auto material = source.material_by_type.find(atom.type);
            if (material == source.material_by_type.end())
                throw InputError(scene.source_file, "/lammps_data/material_by_type",
                                 "atom type " + std::to_string(atom.type) + " of " + source.file + " has no material");
            const std::uint32_t m = materialOf(scene, material->second, "/lammps_data/material_by_type/" + std::to_string(atom.type));
            BodySpec spec;
            spec.material = material->second;
            spec.radius = 0.5 * atom.diameter;
            spec.position = atom.position;
            spec.velocity = atom.velocity;
            spec.angular_velocity = atom.angular_velocity;
            spec.frozen = std::find(source.frozen_types.begin(), source.frozen_types.end(), atom.type) != source.frozen_types.end();
            spec.id = atom.id;
            pushSphere(bodies, spec, m, atom.density);  // LAMMPS gives density per atom
            bodies.image.back() = atom.image;
            if (keep_placed) placed.push_back(spec);
        }
    }

    const std::vector<BodySpec> generated = generateBodies(scene, placed);
    for (const BodySpec& spec : generated) {
        const std::uint32_t m = materialOf(scene, spec.material, "/generators");
        pushBody(bodies, scene, spec, m, scene.materials[m].density, "/generators");
        // Generators place bounding spheres of the radius they were given: it must hold the shape.
        if (bodies.radius.back() > spec.radius * (1.0 + 1e-9))
            throw InputError(scene.source_file, "/generators",
                             "shape '" + spec.shape + "' has bounding radius " + std::to_string(bodies.radius.back()) +
                                 "; a generator of this shape needs a radius at least that large (it has " +
                                 std::to_string(spec.radius) + ")");
    }
    bodies.resizeDynamics();
    return bodies;
}

void appendBodies(const Scene& scene, const std::vector<BodySpec>& specs, Bodies& bodies, const std::string& field) {
    std::int64_t next_id = static_cast<std::int64_t>(bodies.size());
    for (std::int64_t id : bodies.id) next_id = std::max(next_id, id);
    for (std::size_t k = 0; k < specs.size(); ++k) {
        BodySpec spec = specs[k];
        if (spec.id < 0) spec.id = ++next_id;
        const std::string where = field + "/" + std::to_string(k);
        const std::uint32_t m = materialOf(scene, spec.material, where + "/material");
        pushBody(bodies, scene, spec, m, scene.materials[m].density, where + "/shape");
    }
    bodies.resizeDynamics();
}

void markKeptOrientations(const Scene& scene, Bodies& bodies) {
    bodies.shape_keeps_orientation.clear();
    if (scene.track_sphere_orientation) return;
    bodies.shape_keeps_orientation.assign(scene.shapes.size(), 0);
    for (std::size_t s = 0; s < scene.shapes.size(); ++s)
        bodies.shape_keeps_orientation[s] = scene.shapes[s].kind == ShapeSpec::Kind::Sphere;
}

}  // namespace grainlab
