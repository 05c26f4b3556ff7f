// Writing a scene file. Fields keep the documented order; values equal to their defaults are left
// out for bodies (scenes may list many), written out everywhere else so a file shows its settings.
#include <algorithm>
#include <cmath>
#include <system_error>
#include <utility>
#include <vector>

#include "grainlab/io/atomic_file.hpp"
#include "grainlab/io/scene_file.hpp"

namespace grainlab {
namespace {

namespace fs = std::filesystem;
using OJson = nlohmann::ordered_json;

OJson vec(const Vec3& v) {
    return OJson::array({v.x(), v.y(), v.z()});
}

// Paths are stored absolute; files carry them relative to their own folder so a project folder
// can be moved as a whole.
std::string relativePath(const std::string& stored, const fs::path& base_dir) {
    const fs::path path(stored);
    if (!path.is_absolute()) return path.generic_string();
    const fs::path relative = path.lexically_relative(base_dir);
    return relative.empty() ? path.generic_string() : relative.generic_string();
}

OJson materialJson(const Material& m) {
    return {{"name", m.name},
            {"density", m.density},
            {"youngs_modulus", m.youngs_modulus},
            {"poisson_ratio", m.poisson_ratio},
            {"restitution", m.restitution},
            {"friction", m.friction},
            {"rolling_friction", m.rolling_friction}};
}

OJson bodyJson(const BodySpec& b) {
    OJson out = OJson::object();
    if (b.shape != "sphere") out["shape"] = b.shape;
    out["material"] = b.material;
    if (b.shape == "sphere" || b.radius > 0.0) out["radius"] = b.radius;
    out["position"] = vec(b.position);
    if (!b.velocity.isZero(0)) out["velocity"] = vec(b.velocity);
    if (!b.angular_velocity.isZero(0)) out["angular_velocity"] = vec(b.angular_velocity);
    const Quat& q = b.orientation;
    if (q.coeffs() != Quat::Identity().coeffs())
        out["orientation"] = OJson::array({q.w(), q.x(), q.y(), q.z()});
    if (b.frozen) out["frozen"] = true;
    if (b.id >= 0) out["id"] = b.id;
    return out;
}

OJson radiusJson(const SizeDistribution& size) {
    switch (size.kind) {
        case SizeDistribution::Kind::Uniform:
            return {{"distribution", "uniform"}, {"min", size.min}, {"max", size.max}};
        case SizeDistribution::Kind::Normal:
            return {{"distribution", "normal"},
                    {"mean", size.mean},
                    {"stddev", size.stddev},
                    {"min", size.min},
                    {"max", size.max}};
        case SizeDistribution::Kind::Constant:
            break;
    }
    return size.value;
}

OJson regionJson(const Region& region) {
    if (const auto* box = std::get_if<BoxRegion>(&region))
        return {{"box", {{"min", vec(box->min)}, {"max", vec(box->max)}}}};
    const auto& c = std::get<CylinderRegion>(region);
    return {{"cylinder",
             {{"base_center", vec(c.base_center)},
              {"axis", vec(c.axis)},
              {"radius", c.radius},
              {"height", c.height}}}};
}

OJson fillJson(const RandomFill& f) {
    return {{"type", "random_fill"},
            {"shape", f.shape},
            {"material", f.material},
            {"count", f.count},
            {"seed", f.seed},
            {"radius", radiusJson(f.radius)},
            {"region", regionJson(f.region)},
            {"velocity", vec(f.velocity)},
            {"frozen", f.frozen}};
}

OJson latticeJson(const Lattice& l) {
    return {{"type", "lattice"},
            {"kind", l.kind == Lattice::Kind::HexagonalClosePacked ? "hcp" : "simple_cubic"},
            {"shape", l.shape},
            {"material", l.material},
            {"origin", vec(l.origin)},
            {"counts", {l.counts[0], l.counts[1], l.counts[2]}},
            {"radius", l.radius},
            {"spacing", l.spacing},
            {"velocity", vec(l.velocity)},
            {"frozen", l.frozen}};
}

// Generators in the order the file they came from had them; ones made in code follow, fills first.
OJson generatorsJson(const Scene& scene) {
    std::vector<std::pair<long, OJson>> ordered;
    long made = 0;
    auto key = [&](int source_index) {
        return source_index >= 0 ? long{source_index} : (1L << 40) + made++;
    };
    for (const auto& f : scene.fills) ordered.emplace_back(key(f.source_index), fillJson(f));
    for (const auto& l : scene.lattices) ordered.emplace_back(key(l.source_index), latticeJson(l));
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    OJson out = OJson::array();
    for (auto& entry : ordered) out.push_back(std::move(entry.second));
    return out;
}

OJson motionJson(const WallMotion& m) {
    return {{"velocity", vec(m.velocity)},
            {"angular_velocity", vec(m.angular_velocity)},
            {"center", vec(m.center)},
            {"surface_velocity", vec(m.surface_velocity)}};
}

OJson wallsJson(const Scene& scene, const fs::path& base_dir) {
    OJson out = OJson::array();
    for (const auto& p : scene.planes) {
        out.push_back({{"type", "plane"},
                       {"name", p.name},
                       {"point", vec(p.point)},
                       {"normal", vec(p.normal)},
                       {"material", p.material},
                       {"motion", motionJson(p.motion)}});
        if (std::isfinite(p.remove_at)) out.back()["remove_at"] = p.remove_at;
    }
    for (const auto& m : scene.meshes)
        out.push_back({{"type", "mesh"},
                       {"name", m.name},
                       {"file", relativePath(m.file, base_dir)},
                       {"scale", m.scale},
                       {"translation", vec(m.translation)},
                       {"material", m.material},
                       {"motion", motionJson(m.motion)}});
    return out;
}

OJson pluginJson(const PluginChoice& choice) {
    OJson parameters = OJson::object();
    for (const auto& [name, value] : choice.parameters) parameters[name] = value;
    return {{"name", choice.name}, {"parameters", parameters}};
}

}  // namespace

nlohmann::ordered_json sceneToJson(const Scene& scene, const fs::path& base_dir) {
    OJson doc = OJson::object();
    doc["format"] = kSceneFormatName;
    doc["version"] = kSceneFormatVersion;
    doc["name"] = scene.name;
    doc["description"] = scene.description;

    doc["materials"] = OJson::array();
    for (const auto& m : scene.materials) doc["materials"].push_back(materialJson(m));
    OJson shapes = OJson::array();
    for (const auto& s : scene.shapes) {
        if (s.name == "sphere") continue;
        if (s.kind == ShapeSpec::Kind::Sphere) {
            shapes.push_back({{"name", s.name}, {"kind", "sphere"}});
            continue;
        }
        OJson shape = {{"name", s.name}, {"kind", "polyhedron"}, {"file", relativePath(s.file, base_dir)}, {"scale", s.scale}};
        if (s.repair_orientation) shape["repair_orientation"] = true;
        shapes.push_back(shape);
    }
    if (!shapes.empty()) doc["shapes"] = shapes;
    doc["bodies"] = OJson::array();
    for (const auto& b : scene.bodies) doc["bodies"].push_back(bodyJson(b));
    doc["generators"] = generatorsJson(scene);

    if (scene.lammps_data) {
        const LammpsDataSource& data = *scene.lammps_data;
        OJson types = OJson::object();
        for (const auto& [type, material] : data.material_by_type)
            types[std::to_string(type)] = material;
        doc["lammps_data"] = {{"file", relativePath(data.file, base_dir)},
                              {"material_by_type", types},
                              {"frozen_types", data.frozen_types}};
    }
    doc["walls"] = wallsJson(scene, base_dir);
    doc["domain"] = {
        {"min", vec(scene.domain.min)},
        {"max", vec(scene.domain.max)},
        {"periodic",
         {scene.domain.periodic[0], scene.domain.periodic[1], scene.domain.periodic[2]}}};
    doc["gravity"] = vec(scene.gravity);
    doc["plugins"] = {{"integrator", pluginJson(scene.integrator)},
                      {"contact_model", pluginJson(scene.contact_model)},
                      {"solver", scene.solver ? pluginJson(*scene.solver) : OJson(nullptr)}};
    if (scene.post_step) doc["plugins"]["post_step"] = pluginJson(*scene.post_step);
    doc["time_step"] = scene.time_step;
    doc["skin"] = scene.skin;
    doc["max_initial_overlap"] = scene.max_initial_overlap;
    doc["threads"] = scene.threads;
    doc["spatial_sort"] = {{"every_builds", scene.spatial_sort.every_builds},
                           {"min_bodies", scene.spatial_sort.min_bodies}};
    doc["track_sphere_orientation"] = scene.track_sphere_orientation;
    if (scene.run.steps > 0)
        doc["run"] = {{"steps", scene.run.steps}};
    else if (scene.run.time > 0)
        doc["run"] = {{"time", scene.run.time}};
    doc["output"] = {{"directory", relativePath(scene.output.directory, base_dir)},
                     {"every_steps", scene.output.every_steps},
                     {"contacts", scene.output.contacts}};
    return doc;
}

void writeSceneFile(const Scene& scene, const std::string& path) {
    std::error_code ec;
    fs::path folder = fs::absolute(fs::path(path), ec).parent_path();
    const fs::path canonical = fs::weakly_canonical(folder, ec);
    if (!ec) folder = canonical;
    writeFileAtomically(path, sceneToJson(scene, folder).dump(2) + "\n");
}

}  // namespace grainlab
