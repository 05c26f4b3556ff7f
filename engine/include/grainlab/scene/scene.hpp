#pragma once
// The scene: what the user edits and saves. A Simulation materialises it into a State (what a step
// changes). Nothing here changes while a run goes on.
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "grainlab/core/math.hpp"
#include "grainlab/geometry/polyhedron.hpp"
#include "grainlab/geometry/triangle_mesh.hpp"
#include "grainlab/scene/material.hpp"

namespace grainlab {

inline constexpr int kSceneFormatVersion = 1;

// A particle shape. Spheres are the unit sphere scaled by each body's radius; polyhedra are closed
// meshes read from a file and scaled by `scale` (bodies of a polyhedral shape have no radius of
// their own: their bounding radius comes from the mesh).
struct ShapeSpec {
    enum class Kind { Sphere, Polyhedron };
    std::string name;
    Kind kind = Kind::Sphere;
    std::string file;                   // Polyhedron: resolved path
    double scale = 1.0;                 // Polyhedron: applied to the file's coordinates
    bool repair_orientation = false;    // Polyhedron: fix flipped or inside-out triangles
    std::shared_ptr<const Polyhedron> polyhedron;  // loaded by the Simulation
};

struct BodySpec {
    std::string shape = "sphere";
    std::string material;
    double radius = 0.5;
    Vec3 position = Vec3::Zero();
    Vec3 velocity = Vec3::Zero();
    Vec3 angular_velocity = Vec3::Zero();
    Quat orientation = Quat::Identity();
    bool frozen = false;
    std::int64_t id = -1;  // user id (LAMMPS atom id); -1: assigned in order
};

// Radius distribution of generated bodies.
struct SizeDistribution {
    enum class Kind { Constant, Uniform, Normal };
    Kind kind = Kind::Constant;
    double value = 0.5;                 // Constant
    double min = 0.5, max = 0.5;        // Uniform bounds; clip bounds for Normal
    double mean = 0.5, stddev = 0.0;    // Normal
    double largest() const { return kind == Kind::Constant ? value : max; }
};

struct BoxRegion {
    Vec3 min = Vec3::Zero(), max = Vec3::Ones();
};
struct CylinderRegion {
    Vec3 base_center = Vec3::Zero();
    Vec3 axis = Vec3::UnitZ();  // unit
    double radius = 1.0, height = 1.0;
};
using Region = std::variant<BoxRegion, CylinderRegion>;

// Random non-overlapping fill of a region with `count` bodies (seeded, reproducible).
struct RandomFill {
    std::string shape = "sphere";
    std::string material;
    Region region = BoxRegion{};
    int count = 0;
    SizeDistribution radius;
    std::uint64_t seed = 1;
    Vec3 velocity = Vec3::Zero();
    bool frozen = false;
    int source_index = -1;  // position in the file's "generators" array (messages, order); -1: none
};

// Regular lattice of equal spheres: counts[k] bodies along axis k, spacing between centres.
struct Lattice {
    enum class Kind { SimpleCubic, HexagonalClosePacked };
    std::string shape = "sphere";
    std::string material;
    Kind kind = Kind::SimpleCubic;
    Vec3 origin = Vec3::Zero();
    std::array<int, 3> counts{1, 1, 1};
    double radius = 0.5;
    double spacing = 1.0;
    Vec3 velocity = Vec3::Zero();
    bool frozen = false;
    int source_index = -1;  // position in the file's "generators" array (messages, order); -1: none
};

// Bodies read from a LAMMPS data file (atom style sphere).
struct LammpsDataSource {
    std::string file;                               // resolved path
    std::map<int, std::string> material_by_type;    // atom type -> material name
    std::vector<int> frozen_types;
};

// Prescribed wall motion: the geometry translates with `velocity` and rotates with
// `angular_velocity` about `center`; `surface_velocity` moves the surface material only (a belt).
struct WallMotion {
    Vec3 velocity = Vec3::Zero();
    Vec3 angular_velocity = Vec3::Zero();
    Vec3 center = Vec3::Zero();
    Vec3 surface_velocity = Vec3::Zero();
    bool moves() const { return !velocity.isZero(0) || !angular_velocity.isZero(0); }
};

struct PlaneWall {
    std::string name;
    Vec3 point = Vec3::Zero();
    Vec3 normal = Vec3::UnitZ();  // unit, pointing into the granular side
    std::string material;
    WallMotion motion;
    double remove_at = std::numeric_limits<double>::infinity();  // the wall is gone from this time on
};

struct MeshWall {
    std::string name;
    std::string file;  // resolved path
    double scale = 1.0;
    Vec3 translation = Vec3::Zero();
    std::string material;
    WallMotion motion;
    TriangleMesh mesh;  // loaded, scaled and translated
};

struct Domain {
    Vec3 min = Vec3::Constant(-1.0), max = Vec3::Constant(1.0);
    std::array<bool, 3> periodic{false, false, false};
    bool anyPeriodic() const { return periodic[0] || periodic[1] || periodic[2]; }
};

struct PluginChoice {
    std::string name;
    std::map<std::string, double> parameters;  // validated against the plugin's descriptor
};

struct OutputSettings {
    std::string directory = "output";
    long every_steps = 0;            // 0: only the final frame
    bool contacts = true;            // write contact lines in frames
};

struct RunSettings {
    long steps = 0;                  // 0: use `time`
    double time = 0.0;
};

// Bodies are renumbered in spatial order at every `every_builds`-th neighbour-list build (0: never)
// when the scene has at least `min_bodies` bodies, only spheres under penalty contacts and an
// explicit integrator. Below a few thousand bodies the arrays fit in cache and nothing is gained.
struct SpatialSortSettings {
    long every_builds = 20;
    long min_bodies = 4096;
};

struct Scene {
    std::string name;
    std::string description;
    std::string source_file;  // the file it was read from, for messages

    std::vector<Material> materials;
    std::vector<ShapeSpec> shapes{ShapeSpec{"sphere", ShapeSpec::Kind::Sphere, {}, 1.0, false, nullptr}};
    std::vector<BodySpec> bodies;
    std::vector<RandomFill> fills;
    std::vector<Lattice> lattices;
    std::optional<LammpsDataSource> lammps_data;
    std::vector<PlaneWall> planes;
    std::vector<MeshWall> meshes;

    Domain domain;
    Vec3 gravity = Vec3(0, 0, -9.81);
    PluginChoice integrator{"velocity-verlet", {}};
    PluginChoice contact_model{"hooke", {}};
    std::optional<PluginChoice> solver;
    std::optional<PluginChoice> post_step;  // after the solver (contact dynamics only)

    double time_step = 1e-5;
    double skin = 0.0;                 // Verlet skin; 0: 10% of the largest radius
    double max_initial_overlap = 0.1;  // largest allowed initial overlap / smaller radius
    int threads = 0;                   // 0: all cores
    SpatialSortSettings spatial_sort;
    // False: spheres keep the orientation they start with. A sphere's orientation never changes
    // its motion, and turning it costs a tenth to a sixth of a step on the chute (docs/performance.md);
    // LAMMPS's atom_style sphere has none.
    bool track_sphere_orientation = true;
    RunSettings run;
    OutputSettings output;

    int materialIndex(const std::string& material_name) const {
        for (std::size_t k = 0; k < materials.size(); ++k)
            if (materials[k].name == material_name) return static_cast<int>(k);
        return -1;
    }
};

}  // namespace grainlab
