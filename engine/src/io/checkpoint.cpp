// Checkpoint files: a JSON header (scene, scalars, output progress, section table) and binary
// sections holding every array the next step reads.
#include "grainlab/io/checkpoint.hpp"

#include <fstream>
#include <sstream>

#include <limits>

#include "binary_sections.hpp"
#include "grainlab/core/error.hpp"
#include "grainlab/io/atomic_file.hpp"
#include "grainlab/io/scene_file.hpp"

namespace grainlab {
namespace {

using nlohmann::json;
constexpr std::string_view kMagic = "GRAINLAB-CHECKPOINT\n";
const std::filesystem::path kRoot = "/";  // scene paths are stored absolute

// The scene without its body sources: the bodies are in the sections, and a restart must not
// depend on the LAMMPS data file or re-run generators.
Scene sceneForCheckpoint(const Scene& scene) {
    Scene copy = scene;
    copy.bodies.clear();
    copy.fills.clear();
    copy.lattices.clear();
    copy.lammps_data.reset();
    for (MeshWall& m : copy.meshes) m.mesh = {};
    return copy;
}

template <class T, std::size_t N, class Get>
std::vector<T> flatten(std::size_t n, Get get) {
    std::vector<T> out;
    out.reserve(N * n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::array<T, N> a = get(i);
        out.insert(out.end(), a.begin(), a.end());
    }
    return out;
}

json progressJson(const OutputProgress& p) {
    return {{"directory", p.directory.string()}, {"end_step", p.end_step}, {"frame_every", p.frame_every},
            {"row_every", p.row_every}, {"checkpoint_every", p.checkpoint_every}, {"contacts", p.contacts}};
}

// Frame lists as two sections (times; file names joined by newlines): a JSON object per frame made
// every checkpoint of a long run cost memory in proportion to its frame count (seen in the soak).
void addFrames(sections::Writer& w, const std::string& name, const std::vector<CollectionEntry>& frames) {
    std::vector<double> times;
    std::vector<std::uint8_t> files;
    for (const CollectionEntry& e : frames) {
        times.push_back(e.time);
        files.insert(files.end(), e.file.begin(), e.file.end());
        files.push_back('\n');
    }
    w.add("output/" + name + "_times", times);
    w.add("output/" + name + "_files", files);
}

std::vector<CollectionEntry> readFrames(const sections::Reader& r, const std::string& name, const std::string& file) {
    const std::vector<double> times = r.get<double>("output/" + name + "_times");
    const std::vector<std::uint8_t> files = r.get<std::uint8_t>("output/" + name + "_files");
    std::vector<CollectionEntry> out;
    std::string current;
    for (const std::uint8_t c : files) {
        if (c != '\n') { current += static_cast<char>(c); continue; }
        if (out.size() == times.size() || current.empty())
            throw InputError(file, "output/" + name + "_files", "expected one file name per frame time");
        out.push_back({times[out.size()], std::move(current)});
        current.clear();
    }
    if (out.size() != times.size() || !current.empty())
        throw InputError(file, "output/" + name + "_files", "expected one file name per frame time");
    return out;
}

// Header fields by JSON pointer, each failure naming the field.
class Header {
public:
    Header(const json& doc, std::string file) : doc_(doc), file_(std::move(file)) {}
    const json& at(const std::string& pointer) const {
        const json::json_pointer p(pointer);
        if (!doc_.contains(p)) throw InputError(file_, pointer, "missing");
        return doc_.at(p);
    }
    long integer(const std::string& pointer, long min = 0) const {
        const json& v = at(pointer);
        if (!v.is_number_integer() || v.get<long>() < min)
            throw InputError(file_, pointer, "expected an integer of at least " + std::to_string(min));
        return v.get<long>();
    }
    bool boolean(const std::string& pointer) const {
        const json& v = at(pointer);
        if (!v.is_boolean()) throw InputError(file_, pointer, "expected true or false");
        return v.get<bool>();
    }
    std::string text(const std::string& pointer) const {
        const json& v = at(pointer);
        if (!v.is_string()) throw InputError(file_, pointer, "expected a string");
        return v.get<std::string>();
    }

private:
    const json& doc_;
    std::string file_;
};

OutputProgress readProgress(const Header& h, const sections::Reader& r, const std::string& file) {
    OutputProgress p;
    p.directory = h.text("/output/directory");
    p.end_step = h.integer("/output/end_step");
    p.frame_every = h.integer("/output/frame_every", 1);
    p.row_every = h.integer("/output/row_every", 1);
    p.checkpoint_every = h.integer("/output/checkpoint_every");
    p.contacts = h.boolean("/output/contacts");
    p.particle_frames = readFrames(r, "particle_frames", file);
    p.contact_frames = readFrames(r, "contact_frames", file);
    return p;
}

Bodies readBodies(const sections::Reader& r, std::size_t n, const Scene& scene, const std::string& file) {
    Bodies b;
    const auto count = static_cast<std::int64_t>(n);
    b.id = r.get<std::int64_t>("bodies/id", count);
    b.shape = r.get<std::uint32_t>("bodies/shape", count);
    b.material = r.get<std::uint32_t>("bodies/material", count);
    b.radius = r.get<double>("bodies/radius", count);
    b.mass = r.get<double>("bodies/mass", count);
    b.inv_mass = r.get<double>("bodies/inv_mass", count);
    b.inertia = r.vectors("bodies/inertia", count);
    b.inv_inertia = r.vectors("bodies/inv_inertia", count);
    b.deriveIsotropicInertia();
    b.frozen = r.get<std::uint8_t>("bodies/frozen", count);
    b.position = r.vectors("bodies/position", count);
    const std::vector<double> q = r.get<double>("bodies/orientation", 4 * count);
    b.velocity = r.vectors("bodies/velocity", count);
    b.angular_velocity = r.vectors("bodies/angular_velocity", count);
    b.force = r.vectors("bodies/force", count);
    b.torque = r.vectors("bodies/torque", count);
    const std::vector<std::int32_t> image = r.get<std::int32_t>("bodies/image", 3 * count);
    b.orientation.resize(n);
    b.image.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        b.orientation[i] = Quat(q[4 * i + 3], q[4 * i], q[4 * i + 1], q[4 * i + 2]);
        b.image[i] = {image[3 * i], image[3 * i + 1], image[3 * i + 2]};
        if (b.shape[i] >= scene.shapes.size()) throw InputError(file, "bodies/shape", "a body names a shape that does not exist");
        if (b.material[i] >= scene.materials.size())
            throw InputError(file, "bodies/material", "a body names a material that does not exist");
        if (!(b.radius[i] > 0.0)) throw InputError(file, "bodies/radius", "a body has a radius that is not positive");
    }
    return b;
}

NeighborList readNeighbors(const sections::Reader& r, const Header& h, std::size_t n, const std::string& file) {
    NeighborList list;
    const auto history_size = static_cast<std::size_t>(h.integer("/neighbors/history_size"));
    list.builds = h.integer("/neighbors/builds");
    list.row_start = r.get<std::uint32_t>("neighbors/row_start", static_cast<std::int64_t>(n + 1));
    list.partner = r.get<std::uint32_t>("neighbors/partner");
    list.history = PairHistory::fromDense(
        r.get<double>("neighbors/history", static_cast<std::int64_t>(list.partner.size() * history_size)), history_size);
    list.position_at_build = r.vectors("neighbors/position_at_build", static_cast<std::int64_t>(n));
    if (list.row_start.front() != 0 || list.row_start.back() != list.partner.size())
        throw InputError(file, "neighbors/row_start", "rows do not cover the partner list");
    for (std::size_t i = 0; i < n; ++i)
        if (list.row_start[i] > list.row_start[i + 1]) throw InputError(file, "neighbors/row_start", "rows out of order");
    for (const std::uint32_t j : list.partner)
        if (j >= n) throw InputError(file, "neighbors/partner", "a pair names a body that does not exist");
    return list;
}

void readWallContacts(const sections::Reader& r, State& state, const Scene& scene, const std::string& file) {
    const std::vector<std::uint32_t> ids = r.get<std::uint32_t>("walls/contact_ids");
    if (ids.size() % 4 != 0) throw InputError(file, "walls/contact_ids", "expected 4 values per contact");
    const std::size_t m = ids.size() / 4;
    const std::vector<double> g = r.get<double>("walls/contact_geometry", static_cast<std::int64_t>(10 * m));
    state.wall_history = r.get<double>("walls/history");
    state.wall_contacts.resize(m);
    for (std::size_t c = 0; c < m; ++c) {
        WallContact& w = state.wall_contacts[c];
        w.body = ids[4 * c];
        w.wall = ids[4 * c + 1];
        w.feature = ids[4 * c + 2];
        w.material = ids[4 * c + 3];
        if (w.material >= scene.materials.size())
            throw InputError(file, "walls/contact_ids", "a wall contact names a material that does not exist");
        const double* x = g.data() + 10 * c;
        w.normal = Vec3(x[0], x[1], x[2]);
        w.overlap = x[3];
        w.point = Vec3(x[4], x[5], x[6]);
        w.wall_velocity = Vec3(x[7], x[8], x[9]);
    }
}

WallCandidates readWallCandidates(const sections::Reader& r, std::size_t meshes, const std::string& file) {
    WallCandidates c;
    c.start = r.get<std::uint32_t>("walls/candidate_start");
    const std::vector<std::uint32_t> flat = r.get<std::uint32_t>("walls/candidates");
    if (flat.size() % 2 != 0) throw InputError(file, "walls/candidates", "expected 2 values per candidate");
    for (std::size_t k = 0; k < flat.size(); k += 2) c.entries.push_back({flat[k], flat[k + 1]});
    for (std::size_t m = 0; m < meshes; ++m) c.mesh_vertices.push_back(r.vectors("walls/candidate_vertices/" + std::to_string(m)));
    return c;
}

void readMeshes(const sections::Reader& r, Scene& scene, const std::string& file) {
    for (std::size_t k = 0; k < scene.meshes.size(); ++k) {
        const std::string prefix = "meshes/" + std::to_string(k);
        TriangleMesh& mesh = scene.meshes[k].mesh;
        mesh.vertices = r.vectors(prefix + "/vertices");
        const std::vector<std::uint32_t> t = r.get<std::uint32_t>(prefix + "/triangles");
        if (t.size() % 3 != 0 || t.empty()) throw InputError(file, prefix + "/triangles", "expected 3 vertex indices per triangle");
        for (std::size_t k3 = 0; k3 < t.size(); k3 += 3) {
            mesh.triangles.push_back({t[k3], t[k3 + 1], t[k3 + 2]});
            for (int v = 0; v < 3; ++v)
                if (t[k3 + static_cast<std::size_t>(v)] >= mesh.vertices.size())
                    throw InputError(file, prefix + "/triangles", "a triangle names a vertex that does not exist");
        }
    }
}

// Feature contacts (State::polyhedral): ids as i64 sextuples (body a, body b or -1 - wall, b's
// material, pair type, feature a, feature b), geometry as 13 doubles (point a, point b, normal,
// gap, wall velocity), and the contact model's history per contact.
constexpr std::size_t kFeatureIds = 6, kFeatureGeometry = 13;

void addFeatureContacts(sections::Writer& w, const PolyhedralContactList& list) {
    const auto& pc = list.contacts;
    w.add("polyhedral/contact_ids", flatten<std::int64_t, kFeatureIds>(pc.size(), [&](std::size_t c) {
              const FeatureContact& g = pc[c].geometry;
              return std::array<std::int64_t, kFeatureIds>{pc[c].body_a, pc[c].body_b, pc[c].material_b,
                                                           static_cast<std::int64_t>(g.type), g.feature_a, g.feature_b};
          }));
    w.add("polyhedral/contact_geometry", flatten<double, kFeatureGeometry>(pc.size(), [&](std::size_t c) {
              const FeatureContact& g = pc[c].geometry;
              const Vec3& v = pc[c].wall_velocity;
              return std::array<double, kFeatureGeometry>{g.point_a.x(), g.point_a.y(), g.point_a.z(), g.point_b.x(),
                                                          g.point_b.y(), g.point_b.z(), g.normal.x(),  g.normal.y(),
                                                          g.normal.z(),  g.gap,         v.x(),         v.y(), v.z()};
          }));
    w.add("polyhedral/history", list.history);
}

PolyhedralContactList readFeatureContacts(const sections::Reader& r, const Header& h, std::size_t bodies,
                                          std::size_t materials, const std::string& file) {
    PolyhedralContactList list;
    list.history_size = static_cast<std::size_t>(h.integer("/polyhedral/history_size"));
    list.flipped = static_cast<std::size_t>(h.integer("/polyhedral/flipped"));
    const std::vector<std::int64_t> ids = r.get<std::int64_t>("polyhedral/contact_ids");
    if (ids.size() % kFeatureIds != 0)
        throw InputError(file, "polyhedral/contact_ids", "expected " + std::to_string(kFeatureIds) + " values per contact");
    const std::size_t m = ids.size() / kFeatureIds;
    if (list.history_size > 1024) throw InputError(file, "/polyhedral/history_size", "implausibly large (over 1024)");
    const std::vector<double> g = r.get<double>("polyhedral/contact_geometry", static_cast<std::int64_t>(kFeatureGeometry * m));
    list.history = r.get<double>("polyhedral/history", static_cast<std::int64_t>(list.history_size * m));
    const auto n = static_cast<std::int64_t>(bodies);
    constexpr std::int64_t kFeatureLimit = std::numeric_limits<std::uint32_t>::max();
    list.contacts.resize(m);
    for (std::size_t c = 0; c < m; ++c) {
        const std::int64_t* id = ids.data() + kFeatureIds * c;
        if (id[0] < 0 || id[0] >= n || id[1] >= n || id[1] < -kFeatureLimit)
            throw InputError(file, "polyhedral/contact_ids", "a feature contact names a body that does not exist");
        if (id[2] < 0 || id[2] >= static_cast<std::int64_t>(materials))
            throw InputError(file, "polyhedral/contact_ids", "a feature contact names a material that does not exist");
        if (id[3] < 0 || id[3] > static_cast<std::int64_t>(FeaturePair::VertexVertex) || id[4] < 0 || id[4] > kFeatureLimit ||
            id[5] < 0 || id[5] > kFeatureLimit)
            throw InputError(file, "polyhedral/contact_ids", "a feature contact has an unknown pair type or feature");
        PolyhedralContact& pc = list.contacts[c];
        pc.body_a = static_cast<std::uint32_t>(id[0]);
        pc.body_b = id[1];
        pc.material_b = static_cast<std::uint32_t>(id[2]);
        pc.geometry.type = static_cast<FeaturePair>(id[3]);
        pc.geometry.feature_a = static_cast<std::uint32_t>(id[4]);
        pc.geometry.feature_b = static_cast<std::uint32_t>(id[5]);
        const double* x = g.data() + kFeatureGeometry * c;
        pc.geometry.point_a = Vec3(x[0], x[1], x[2]);
        pc.geometry.point_b = Vec3(x[3], x[4], x[5]);
        pc.geometry.normal = Vec3(x[6], x[7], x[8]);
        pc.geometry.gap = x[9];
        pc.wall_velocity = Vec3(x[10], x[11], x[12]);
    }
    return list;
}

}  // namespace

void writeCheckpoint(const Simulation& sim, const std::filesystem::path& path, const OutputProgress& output) {
    const State& s = sim.state();
    const Bodies& b = s.bodies;
    const std::size_t n = b.size();
    sections::Writer w;
    w.add("bodies/id", b.id);
    w.add("bodies/shape", b.shape);
    w.add("bodies/material", b.material);
    w.add("bodies/radius", b.radius);
    w.add("bodies/mass", b.mass);
    w.add("bodies/inv_mass", b.inv_mass);
    w.addVectors("bodies/inertia", b.inertia);
    w.addVectors("bodies/inv_inertia", b.inv_inertia);
    w.add("bodies/frozen", b.frozen);
    w.addVectors("bodies/position", b.position);
    w.add("bodies/orientation", flatten<double, 4>(n, [&](std::size_t i) {
              const Quat& q = b.orientation[i];
              return std::array<double, 4>{q.x(), q.y(), q.z(), q.w()};
          }));
    w.addVectors("bodies/velocity", b.velocity);
    w.addVectors("bodies/angular_velocity", b.angular_velocity);
    w.addVectors("bodies/force", b.force);
    w.addVectors("bodies/torque", b.torque);
    w.add("bodies/image", flatten<std::int32_t, 3>(n, [&](std::size_t i) { return b.image[i]; }));

    w.add("neighbors/row_start", s.pairs.row_start);
    w.add("neighbors/partner", s.pairs.partner);
    w.add("neighbors/history", s.pairs.history.dense(s.pairs.entries()));
    w.addVectors("neighbors/position_at_build", s.pairs.position_at_build);

    const auto& wc = s.wall_contacts;
    w.add("walls/contact_ids", flatten<std::uint32_t, 4>(wc.size(), [&](std::size_t c) {
              return std::array<std::uint32_t, 4>{wc[c].body, wc[c].wall, wc[c].feature, wc[c].material};
          }));
    w.add("walls/contact_geometry", flatten<double, 10>(wc.size(), [&](std::size_t c) {
              const WallContact& x = wc[c];
              return std::array<double, 10>{x.normal.x(), x.normal.y(), x.normal.z(), x.overlap, x.point.x(), x.point.y(),
                                            x.point.z(), x.wall_velocity.x(), x.wall_velocity.y(), x.wall_velocity.z()};
          }));
    w.add("walls/history", s.wall_history);
    const RestartExtras extras = sim.restartExtras();
    const WallCandidates& cand = extras.wall_candidates;
    w.add("walls/candidate_start", cand.start);
    w.add("walls/candidates", flatten<std::uint32_t, 2>(cand.entries.size(), [&](std::size_t k) {
              return std::array<std::uint32_t, 2>{cand.entries[k].first, cand.entries[k].second};
          }));
    for (std::size_t m = 0; m < cand.mesh_vertices.size(); ++m)
        w.addVectors("walls/candidate_vertices/" + std::to_string(m), cand.mesh_vertices[m]);
    const Scene& scene = sim.scene();
    for (std::size_t k = 0; k < scene.meshes.size(); ++k) {
        const TriangleMesh& mesh = scene.meshes[k].mesh;
        w.addVectors("meshes/" + std::to_string(k) + "/vertices", mesh.vertices);
        w.add("meshes/" + std::to_string(k) + "/triangles",
              flatten<std::uint32_t, 3>(mesh.triangles.size(), [&](std::size_t t) { return mesh.triangles[t]; }));
    }
    w.add("solver/keys", flatten<std::int64_t, 3>(extras.warm_start_keys.size(), [&](std::size_t k) {
              const ContactKey& key = extras.warm_start_keys[k];
              return std::array<std::int64_t, 3>{key.a, key.b, key.feature};
          }));
    w.addVectors("solver/impulses", extras.warm_start_impulses);
    addFeatureContacts(w, s.polyhedral);
    // Doubles go in binary so the restart starts from exactly the same bits.
    w.add("state/scalars", std::vector<double>{s.time, s.dissipated, s.elastic});
    addFrames(w, "particle_frames", output.particle_frames);
    addFrames(w, "contact_frames", output.contact_frames);

    // Ordered, so a person reading the file sees the format and version first.
    nlohmann::ordered_json header = {{"format", kCheckpointFormatName},
                   {"version", kCheckpointFormatVersion},
                   {"byte_order", "little"},
                   {"scene_file", scene.source_file},
                   {"scene", sceneToJson(sceneForCheckpoint(scene), kRoot)},
                   {"bodies", n},
                   {"step", s.step},
                   {"contacts", s.contacts},
                   {"threads", sim.threads()},
                   {"forces_current", extras.forces_current},
                   {"neighbors", {{"history_size", s.pairs.history.size}, {"builds", s.pairs.builds}}},
                   {"polyhedral", {{"history_size", s.polyhedral.history_size}, {"flipped", s.polyhedral.flipped}}},
                   {"output", nlohmann::ordered_json(progressJson(output))},
                   {"sections", nlohmann::ordered_json(w.table())}};
    const std::string text = header.dump(1, ' ', false, json::error_handler_t::replace);
    std::string bytes(kMagic);
    bytes += std::to_string(text.size()) + "\n" + text;
    bytes += w.payload();
    writeFileAtomically(path, bytes);
}

bool isCheckpointFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::string first(kMagic.size(), '\0');
    in.read(first.data(), static_cast<std::streamsize>(first.size()));
    return in && first == kMagic;
}

Checkpoint parseCheckpoint(const std::string& bytes, const std::string& file) {
    if (bytes.compare(0, kMagic.size(), kMagic) != 0)
        throw InputError(file, "", "not a GrainLab checkpoint (the first line is not GRAINLAB-CHECKPOINT)");
    const std::size_t line_end = bytes.find('\n', kMagic.size());
    const std::string length_text = bytes.substr(kMagic.size(), line_end == std::string::npos ? 0 : line_end - kMagic.size());
    if (line_end == std::string::npos || length_text.empty() || length_text.size() > 12 ||
        length_text.find_first_not_of("0123456789") != std::string::npos)
        throw InputError(file, "", "the second line must give the header length (truncated file?)");
    const std::size_t header_length = std::stoull(length_text);
    if (header_length > bytes.size() - line_end - 1) throw InputError(file, "", "the header extends past the end of the file (truncated?)");
    json doc;
    try {
        doc = json::parse(bytes.begin() + static_cast<std::ptrdiff_t>(line_end + 1),
                          bytes.begin() + static_cast<std::ptrdiff_t>(line_end + 1 + header_length));
    } catch (const json::exception& e) {
        throw InputError(file, "", std::string("the header is not valid JSON: ") + e.what());
    }
    if (!doc.is_object()) throw InputError(file, "", "the header is not a JSON object");
    const Header h(doc, file);
    if (h.text("/format") != kCheckpointFormatName) throw InputError(file, "/format", "expected \"grainlab-checkpoint\"");
    const long version = h.integer("/version", 1);
    if (version > kCheckpointFormatVersion)
        throw InputError(file, "/version", "version " + std::to_string(version) + " is newer than this program reads (" +
                                               std::to_string(kCheckpointFormatVersion) + ")");
    if (h.text("/byte_order") != "little") throw InputError(file, "/byte_order", "only little-endian checkpoints are supported");

    Checkpoint c;
    c.file = file;
    c.scene_file = h.text("/scene_file");
    try {
        c.scene = parseScene(h.at("/scene"), file, kRoot);
    } catch (const InputError& e) {
        // Name the checkpoint and the field's place in it; what() starts with "file: field: ".
        const std::string prefix = e.file() + ": " + (e.field().empty() ? "" : e.field() + ": ");
        const std::string what = e.what();
        throw InputError(file, "/scene" + e.field(), what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what);
    }
    c.scene.source_file = c.scene_file;
    const sections::Reader r(h.at("/sections"), std::string_view(bytes).substr(line_end + 1 + header_length), file);
    readMeshes(r, c.scene, file);
    const long bodies = h.integer("/bodies");
    const auto n = static_cast<std::size_t>(bodies);
    c.state.bodies = readBodies(r, n, c.scene, file);
    c.state.pairs = readNeighbors(r, h, n, file);
    readWallContacts(r, c.state, c.scene, file);
    const std::vector<double> scalars = r.get<double>("state/scalars", 3);
    c.state.time = scalars[0];
    c.state.dissipated = scalars[1];
    c.state.elastic = scalars[2];
    c.state.step = h.integer("/step");
    c.state.contacts = static_cast<std::size_t>(h.integer("/contacts"));
    c.threads = static_cast<int>(h.integer("/threads", 1));
    c.extras.forces_current = h.boolean("/forces_current");
    c.extras.wall_candidates = readWallCandidates(r, c.scene.meshes.size(), file);
    // Contact-dynamics warm start; files from before solvers have none.
    if (r.has("solver/keys")) {
        const std::vector<std::int64_t> keys = r.get<std::int64_t>("solver/keys");
        if (keys.size() % 3 != 0) throw InputError(file, "solver/keys", "not a whole number of contact keys");
        for (std::size_t k = 0; k < keys.size(); k += 3) {
            if (keys[k] < 0 || keys[k] >= static_cast<std::int64_t>(c.state.bodies.size()) ||
                keys[k + 1] >= static_cast<std::int64_t>(c.state.bodies.size()) || keys[k + 2] < 0 ||
                keys[k + 2] > std::numeric_limits<std::uint32_t>::max())
                throw InputError(file, "solver/keys", "a contact key names a body that does not exist");
            c.extras.warm_start_keys.push_back({static_cast<std::uint32_t>(keys[k]), keys[k + 1],
                                                static_cast<std::uint32_t>(keys[k + 2])});
        }
        c.extras.warm_start_impulses =
            r.vectors("solver/impulses", static_cast<std::int64_t>(c.extras.warm_start_keys.size()));
    }
    // Feature contacts of polyhedra: required from version 2; version 1 files resume without them.
    if (version >= 2) {
        c.state.polyhedral = readFeatureContacts(r, h, c.state.bodies.size(), c.scene.materials.size(), file);
        c.extras.feature_contacts_saved = true;
    }
    c.output = readProgress(h, r, file);
    return c;
}

Checkpoint readCheckpoint(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path.string(), "", "cannot open the checkpoint file");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw InputError(path.string(), "", "cannot read the checkpoint file");
    return parseCheckpoint(text.str(), path.string());
}

}  // namespace grainlab
