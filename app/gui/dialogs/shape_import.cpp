#include "shape_import.hpp"

#include <cmath>
#include <memory>
#include <random>
#include <sstream>

#include "grainlab/geometry/polyhedron.hpp"
#include "grainlab/io/mesh_file.hpp"
#include "grainlab/scene/generators.hpp"

namespace grainlab::gui {

ImportedShape importShape(const std::string& path, double scale, bool repair_orientation, const std::string& name) {
    LoadedMesh loaded = loadMesh(path);
    const MeshReport report = loaded.report;
    auto polyhedron = std::make_shared<const Polyhedron>(makePolyhedron(std::move(loaded.mesh), scale, repair_orientation, path));
    ImportedShape out;
    out.spec.name = name;
    out.spec.kind = ShapeSpec::Kind::Polyhedron;
    out.spec.file = path;
    out.spec.scale = scale;
    out.spec.repair_orientation = repair_orientation;
    out.spec.polyhedron = polyhedron;
    const FeatureMesh& f = polyhedron->features;
    std::ostringstream text;
    text.precision(4);
    text << f.triangles.size() << " triangles, " << f.vertices.size() << " vertices: " << report.describe();
    if (report.welded_vertices) text << "; " << report.welded_vertices << " duplicate vertices welded";
    if (report.degenerate_triangles) text << "; " << report.degenerate_triangles << " zero-area triangles removed";
    text << "\nvolume " << polyhedron->volume << " m^3, bounding radius " << f.bounding_radius << " m"
         << "\nprincipal moments per unit density " << polyhedron->principal_inertia.x() << ", "
         << polyhedron->principal_inertia.y() << ", " << polyhedron->principal_inertia.z() << " m^5"
         << "\n" << f.edges.size() << " crease edges (flat edges between coplanar triangles excluded)";
    out.summary = text.str();
    return out;
}

std::vector<BodySpec> scatterCopies(const Scene& scene, const Frame& existing, const ShapeSpec& shape,
                                    const std::string& material, const BoxRegion& region, int count,
                                    std::uint64_t seed) {
    std::vector<BodySpec> present;
    present.reserve(existing.position.size());
    for (std::size_t i = 0; i < existing.position.size(); ++i) {
        BodySpec b;
        b.position = existing.position[i];
        b.radius = existing.radius[i];
        b.id = existing.id[i];
        present.push_back(b);
    }
    // The scene's own generators would run again: only this fill is asked for.
    Scene fill_scene = scene;
    fill_scene.fills.clear();
    fill_scene.lattices.clear();
    RandomFill fill;
    fill.shape = shape.name;
    fill.material = material;
    fill.region = region;
    fill.count = count;
    fill.radius.kind = SizeDistribution::Kind::Constant;
    fill.radius.value = shape.polyhedron->features.bounding_radius;
    fill.seed = seed;
    fill_scene.fills.push_back(fill);
    std::vector<BodySpec> copies = generateBodies(fill_scene, present);

    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (BodySpec& b : copies) {
        // Shoemake's uniform random rotation.
        const double u1 = uniform(random), u2 = 2.0 * kPi * uniform(random), u3 = 2.0 * kPi * uniform(random);
        b.orientation = Quat(std::sqrt(u1) * std::cos(u3), std::sqrt(1.0 - u1) * std::sin(u2),
                             std::sqrt(1.0 - u1) * std::cos(u2), std::sqrt(u1) * std::sin(u3));
        b.id = -1;  // assigned when added
    }
    return copies;
}

}  // namespace grainlab::gui
