// Mesh loading (STL, OBJ, PLY through Assimp), topology report, orientation repair, and the
// closest-point query walls are built on. Test meshes are written to a temp directory at run time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "grainlab/core/error.hpp"
#include "grainlab/geometry/closest_point.hpp"
#include "grainlab/geometry/mesh_check.hpp"
#include "grainlab/io/mesh_file.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using namespace grainlab;

namespace {

using test::TempDir;

constexpr double kSide = 1.5;
const Vec3 kOffset(0.25, -1.0, 3.0);  // every coordinate exact in float, as STL stores them

// Closed cube, counter-clockwise seen from outside. Vertex i has coordinates from its bits.
TriangleMesh cube() {
    TriangleMesh m;
    for (int i = 0; i < 8; ++i)
        m.vertices.push_back(kOffset + kSide * Vec3(i & 1, (i >> 1) & 1, (i >> 2) & 1));
    const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                             {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& q : quads) {
        m.triangles.push_back({std::uint32_t(q[0]), std::uint32_t(q[1]), std::uint32_t(q[2])});
        m.triangles.push_back({std::uint32_t(q[0]), std::uint32_t(q[2]), std::uint32_t(q[3])});
    }
    return m;
}
constexpr double kCubeVolume = kSide * kSide * kSide;

// Divergence theorem: positive for a closed, outward-oriented surface.
double signedVolume(const TriangleMesh& m) {
    double v = 0.0;
    for (const auto& t : m.triangles)
        v += m.vertices[t[0]].dot(m.vertices[t[1]].cross(m.vertices[t[2]])) / 6.0;
    return v;
}

void writeAsciiStl(const std::string& path, const TriangleMesh& m) {
    std::ofstream f(path);
    f.precision(17);
    f << "solid test\n";
    for (const auto& t : m.triangles) {
        f << " facet normal 0 0 0\n  outer loop\n";
        for (auto i : t) {
            const Vec3& v = m.vertices[i];
            f << "   vertex " << v.x() << " " << v.y() << " " << v.z() << "\n";
        }
        f << "  endloop\n endfacet\n";
    }
    f << "endsolid test\n";
}

void writeBinaryStl(const std::string& path, const TriangleMesh& m) {
    std::ofstream f(path, std::ios::binary);
    char header[80] = "grainlab test binary stl";
    f.write(header, sizeof header);
    const auto count = static_cast<std::uint32_t>(m.triangles.size());
    f.write(reinterpret_cast<const char*>(&count), 4);  // little-endian host assumed
    for (const auto& t : m.triangles) {
        float record[12] = {};
        for (int k = 0; k < 3; ++k)
            for (int c = 0; c < 3; ++c)
                record[3 + 3 * k + c] = static_cast<float>(m.vertices[t[k]][c]);
        f.write(reinterpret_cast<const char*>(record), sizeof record);
        const std::uint16_t attributes = 0;
        f.write(reinterpret_cast<const char*>(&attributes), 2);
    }
}

void writeObj(const std::string& path, const TriangleMesh& m) {
    std::ofstream f(path);
    f.precision(17);
    for (const Vec3& v : m.vertices) f << "v " << v.x() << " " << v.y() << " " << v.z() << "\n";
    for (const auto& t : m.triangles)
        f << "f " << t[0] + 1 << " " << t[1] + 1 << " " << t[2] + 1 << "\n";
}

void writePly(const std::string& path, const TriangleMesh& m) {
    std::ofstream f(path);
    f.precision(17);
    f << "ply\nformat ascii 1.0\nelement vertex " << m.vertices.size()
      << "\nproperty float x\nproperty float y\nproperty float z\nelement face "
      << m.triangles.size() << "\nproperty list uchar int vertex_indices\nend_header\n";
    for (const Vec3& v : m.vertices) f << v.x() << " " << v.y() << " " << v.z() << "\n";
    for (const auto& t : m.triangles) f << "3 " << t[0] << " " << t[1] << " " << t[2] << "\n";
}

void writeBinaryPly(const std::string& path, const TriangleMesh& m) {
    std::ofstream f(path, std::ios::binary);
    f << "ply\nformat binary_little_endian 1.0\ncomment written by GrainLab tests\nelement vertex "
      << m.vertices.size() << "\nproperty double x\nproperty double y\nproperty double z\n"
      << "element face " << m.triangles.size()
      << "\nproperty list uint8 uint32 vertex_indices\nend_header\n";
    for (const Vec3& v : m.vertices) f.write(reinterpret_cast<const char*>(v.data()), 24);
    for (const auto& t : m.triangles) {
        const std::uint8_t three = 3;
        f.write(reinterpret_cast<const char*>(&three), 1);
        f.write(reinterpret_cast<const char*>(t.data()), 12);
    }
}

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string readBytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

std::string randomBytes(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(rng() & 0xFF);
    return s;
}

// Loading must fail with an InputError that names the file; returns the message.
std::string loadError(const std::string& path) {
    try {
        loadMesh(path);
    } catch (const InputError& e) {
        CHECK(e.file() == path);
        CHECK_THAT(e.what(), Catch::Contains(fs::path(path).filename().string()));
        return e.what();
    }
    FAIL("loading " << path << " did not throw InputError");
    return {};
}

fs::path repositoryRoot() {
#ifdef GRAINLAB_SOURCE_DIR
    if (fs::exists(fs::path(GRAINLAB_SOURCE_DIR) / "resources/meshes")) return GRAINLAB_SOURCE_DIR;
#endif
    const fs::path here = fs::path(__FILE__).parent_path().parent_path();
    if (fs::exists(here / "resources/meshes")) return here;
    for (fs::path dir = fs::current_path(); !dir.empty(); dir = dir.parent_path()) {
        if (fs::exists(dir / "resources/meshes")) return dir;
        if (dir == dir.parent_path()) break;
    }
    FAIL("cannot find resources/meshes from " << __FILE__ << " or " << fs::current_path());
    return {};
}

// Exact volume of a prism over a regular n-gon of radius r.
double polygonPrismVolume(int n, double r, double length) {
    return 0.5 * n * r * r * std::sin(2.0 * kPi / n) * length;
}

}  // namespace

TEST_CASE("closed cube loads from every format, welded and oriented", "[mesh]") {
    TempDir dir;
    using Writer = void (*)(const std::string&, const TriangleMesh&);
    const std::pair<const char*, Writer> formats[] = {{"cube_ascii.stl", writeAsciiStl},
                                                      {"cube_binary.stl", writeBinaryStl},
                                                      {"cube.obj", writeObj},
                                                      {"cube.ply", writePly},
                                                      {"cube_binary.ply", writeBinaryPly}};
    for (const auto& [name, write] : formats) {
        SECTION(name) {
            const std::string path = dir.file(name);
            write(path, cube());
            const LoadedMesh loaded = loadMesh(path);
            CHECK(loaded.mesh.vertices.size() == 8);
            CHECK(loaded.mesh.triangles.size() == 12);
            CHECK(loaded.report.closed());
            CHECK(loaded.report.consistentlyOriented());
            CHECK(loaded.report.degenerate_triangles == 0);
            CHECK(loaded.report.describe() == "closed, consistently oriented");
            CHECK(signedVolume(loaded.mesh) == Approx(kCubeVolume).epsilon(1e-12));
        }
    }
}

TEST_CASE("STL corners are welded into shared vertices", "[mesh]") {
    TempDir dir;
    writeBinaryStl(dir.file("cube.stl"), cube());
    const LoadedMesh loaded = loadMesh(dir.file("cube.stl"));
    CHECK(loaded.report.welded_vertices == 36 - 8);  // STL repeats each corner per triangle
}

TEST_CASE("welding merges points within tolerance only", "[mesh]") {
    TriangleMesh m = cube();
    const double diagonal = std::sqrt(3.0) * kSide;
    m.vertices.push_back(m.vertices[0] + Vec3(0.1, 0.2, 0.0) * diagonal * 1e-9);  // close: weld
    m.vertices.push_back(m.vertices[1] + Vec3(1e-6, 0.0, 0.0));                  // far: keep
    m.triangles[0][0] = 8;
    m.triangles[2][1] = 9;
    CHECK(weldVertices(m) == 1);
    CHECK(m.vertices.size() == 9);
    CHECK(m.triangles[0][0] == 0);
}

TEST_CASE("cube with one face missing has 4 open edges", "[mesh]") {
    TempDir dir;
    TriangleMesh m = cube();
    m.triangles.resize(10);  // drop the two triangles of the last face
    writeAsciiStl(dir.file("open.stl"), m);
    const LoadedMesh loaded = loadMesh(dir.file("open.stl"));
    CHECK(loaded.report.open_edges == 4);
    CHECK(loaded.report.non_manifold_edges == 0);
    CHECK_FALSE(loaded.report.closed());
    CHECK(loaded.report.consistentlyOriented());
    CHECK(loaded.report.describe() == "4 open edges");
}

TEST_CASE("one flipped triangle is reported and repaired", "[mesh]") {
    TempDir dir;
    TriangleMesh m = cube();
    std::swap(m.triangles[5][1], m.triangles[5][2]);
    writeObj(dir.file("flipped.obj"), m);
    LoadedMesh loaded = loadMesh(dir.file("flipped.obj"));
    CHECK(loaded.report.flipped_faces == 1);
    CHECK(loaded.report.closed());
    CHECK_FALSE(loaded.report.consistentlyOriented());
    CHECK(loaded.report.describe() == "1 flipped face");
    CHECK(signedVolume(loaded.mesh) < kCubeVolume - 0.1);

    orientConsistently(loaded.mesh);
    const MeshReport repaired = checkMesh(loaded.mesh);
    CHECK(repaired.flipped_faces == 0);
    CHECK(repaired.consistentlyOriented());
    CHECK(signedVolume(loaded.mesh) == Approx(kCubeVolume).epsilon(1e-12));
}

TEST_CASE("orientConsistently follows the majority, inward or not", "[mesh]") {
    TriangleMesh m = cube();
    for (auto& t : m.triangles) std::swap(t[1], t[2]);  // all inward: consistent, negative
    std::swap(m.triangles[3][1], m.triangles[3][2]);     // one outward: the minority
    CHECK(checkMesh(m).flipped_faces == 1);
    orientConsistently(m);
    CHECK(checkMesh(m).consistentlyOriented());
    CHECK(signedVolume(m) == Approx(-kCubeVolume).epsilon(1e-12));
    const TriangleMesh before = m;
    orientConsistently(m);  // idempotent
    CHECK(m.triangles == before.triangles);
}

TEST_CASE("flip count is per connected component", "[mesh]") {
    TriangleMesh a = cube();
    TriangleMesh m = a;
    for (const Vec3& v : a.vertices) m.vertices.push_back(v + Vec3(5, 0, 0));
    for (auto t : a.triangles) {
        for (auto& i : t) i += 8;
        m.triangles.push_back(t);
    }
    std::swap(m.triangles[0][1], m.triangles[0][2]);    // one in the first cube
    std::swap(m.triangles[13][1], m.triangles[13][2]);  // one in the second
    std::swap(m.triangles[20][1], m.triangles[20][2]);  // and another there
    CHECK(checkMesh(m).flipped_faces == 3);
}

TEST_CASE("a Moebius strip is reported as non-orientable", "[mesh]") {
    // Strip of n quads whose far end joins the start with a half twist.
    const int n = 8;
    TriangleMesh m;
    for (int i = 0; i < n; ++i) {
        const double phi = 2.0 * kPi * i / n;
        const Vec3 centre(std::cos(phi), std::sin(phi), 0.0);
        const Vec3 across = std::cos(phi / 2) * centre * 0.3 + std::sin(phi / 2) * Vec3(0, 0, 0.3);
        m.vertices.push_back(centre - across);
        m.vertices.push_back(centre + across);
    }
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t lo = 2 * i, hi = 2 * i + 1;
        std::uint32_t nlo = 2 * ((i + 1) % n), nhi = nlo + 1;
        if (i == n - 1) std::swap(nlo, nhi);  // the half twist
        m.triangles.push_back({lo, nlo, nhi});
        m.triangles.push_back({lo, nhi, hi});
    }
    const MeshReport r = checkMesh(m);
    CHECK(r.non_orientable_components == 1);
    CHECK_FALSE(r.consistentlyOriented());
    CHECK(r.non_manifold_edges == 0);
    CHECK(r.open_edges == 2 * n);  // the single boundary loop
}

TEST_CASE("three triangles on one edge make one non-manifold edge", "[mesh]") {
    TriangleMesh m;
    m.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.5, 1, 0), Vec3(0.5, -1, 0.2),
                  Vec3(0.5, 0.1, 1)};
    m.triangles = {{0, 1, 2}, {1, 0, 3}, {0, 1, 4}};
    const MeshReport direct = checkMesh(m);
    CHECK(direct.non_manifold_edges == 1);
    CHECK(direct.open_edges == 6);
    CHECK_FALSE(direct.closed());

    TempDir dir;
    writePly(dir.file("fin.ply"), m);
    const LoadedMesh loaded = loadMesh(dir.file("fin.ply"));
    CHECK(loaded.report.non_manifold_edges == 1);
    CHECK(loaded.report.open_edges == 6);
    CHECK_THAT(loaded.report.describe(), Catch::Contains("1 non-manifold edge"));
}

TEST_CASE("zero-area triangles are counted and removed", "[mesh]") {
    TempDir dir;
    TriangleMesh m = cube();
    m.vertices.push_back(0.5 * (m.vertices[0] + m.vertices[1]));  // on the edge 0-1
    m.triangles.push_back({0, 1, 8});                              // collinear: zero area
    m.vertices.push_back(m.vertices[2]);                           // a duplicate of corner 2
    m.triangles.push_back({2, 9, 5});                              // collapses when welded
    writeAsciiStl(dir.file("slivers.stl"), m);
    const LoadedMesh loaded = loadMesh(dir.file("slivers.stl"));
    CHECK(loaded.report.degenerate_triangles == 2);
    CHECK(loaded.mesh.triangles.size() == 12);
    CHECK(loaded.mesh.vertices.size() == 8);  // the midpoint is no longer used
    CHECK(loaded.report.closed());
    CHECK(loaded.report.describe() == "2 zero-area triangles");
    CHECK(signedVolume(loaded.mesh) == Approx(kCubeVolume).epsilon(1e-12));
}

TEST_CASE("checkMesh counts near-zero-area triangles without removing them", "[mesh]") {
    TriangleMesh m = cube();
    m.vertices.push_back(0.5 * (m.vertices[0] + m.vertices[1]) + Vec3(0, 0, 1e-13));
    m.triangles.push_back({0, 1, 8});
    CHECK(checkMesh(m).degenerate_triangles == 1);
    CHECK(m.triangles.size() == 13);
    CHECK(removeDegenerateTriangles(m) == 1);
    CHECK(removeUnusedVertices(m) == 1);
    CHECK(checkMesh(m).describe() == "closed, consistently oriented");
}

TEST_CASE("a file whose triangles all have zero area is rejected", "[mesh][errors]") {
    TempDir dir;
    TriangleMesh m;
    m.vertices = {Vec3(0, 0, 0), Vec3(1, 1, 1), Vec3(2, 2, 2)};
    m.triangles = {{0, 1, 2}};
    writeAsciiStl(dir.file("line.stl"), m);
    CHECK_THAT(loadError(dir.file("line.stl")), Catch::Contains("zero area"));
}

TEST_CASE("unusable files throw InputError naming the file", "[mesh][errors]") {
    TempDir dir;

    SECTION("missing file") {
        CHECK_THAT(loadError(dir.file("nowhere.stl")), Catch::Contains("no such file"));
    }
    SECTION("directory") {
        fs::create_directory(dir.file("folder.stl"));
        CHECK_THAT(loadError(dir.file("folder.stl")), Catch::Contains("directory"));
    }
    SECTION("unsupported extension") {
        writeAsciiStl(dir.file("cube.xyz"), cube());
        CHECK_THAT(loadError(dir.file("cube.xyz")), Catch::Contains(".xyz"));
        writeAsciiStl(dir.file("cube"), cube());
        CHECK_THAT(loadError(dir.file("cube")), Catch::Contains("no file extension"));
    }
    SECTION("empty files") {
        for (const char* name : {"empty.stl", "empty.obj", "empty.ply"}) {
            writeBytes(dir.file(name), "");
            CHECK_THAT(loadError(dir.file(name)), Catch::Contains("empty"));
        }
    }
    SECTION("random bytes") {
        for (const char* ext : {".stl", ".obj", ".ply"})
            for (unsigned seed = 1; seed <= 20; ++seed) {
                const std::string path = dir.file("noise" + std::to_string(seed) + ext);
                writeBytes(path, randomBytes(seed * 97, seed));
                loadError(path);
            }
    }
    SECTION("plausible headers followed by garbage") {
        const std::string noise = randomBytes(3000, 7);
        writeBytes(dir.file("g1.stl"), "solid x\n facet normal 0 0 1\n outer loop\n" + noise);
        writeBytes(dir.file("g2.ply"),
                   "ply\nformat binary_little_endian 1.0\nelement vertex 4000000000\n"
                   "property float x\nproperty float y\nproperty float z\nelement face 5\n"
                   "property list uchar int vertex_indices\nend_header\n" + noise);
        writeBytes(dir.file("g3.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99\n");
        writeBytes(dir.file("g4.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\n");
        writeBytes(dir.file("g5.ply"), "ply\nformat ascii 1.0\nelement vertex 3\nend_header\n");
        for (const char* name : {"g1.stl", "g2.ply", "g3.obj", "g4.obj", "g5.ply"})
            loadError(dir.file(name));
        CHECK_THAT(loadError(dir.file("g2.ply")), Catch::Contains("declares 4000000000"));
    }
    SECTION("malformed PLY headers (some make Assimp 5.2 loop forever)") {
        writePly(dir.file("cube.ply"), cube());
        const std::string good = readBytes(dir.file("cube.ply"));
        const std::size_t cut = good.find("property float z");
        writeBytes(dir.file("h1.ply"), good.substr(0, cut + 10));  // header cut short
        CHECK_THAT(loadError(dir.file("h1.ply")), Catch::Contains("no end_header"));
        std::string unknown = good;
        unknown.replace(cut, 8, "proferty");
        writeBytes(dir.file("h2.ply"), unknown);
        CHECK_THAT(loadError(dir.file("h2.ply")), Catch::Contains("unknown keyword 'proferty'"));
        std::string joined = good;
        joined.replace(joined.find("\nend_header"), 1, " ");  // end_header not on its own line
        writeBytes(dir.file("h3.ply"), joined);
        loadError(dir.file("h3.ply"));
        std::string two_formats = good;  // fuzzing: Assimp read the first (ascii), it looped on the body
        two_formats.insert(good.find("element face"), "format binary_little_endian 1.0\n");
        writeBytes(dir.file("h4.ply"), two_formats);
        CHECK_THAT(loadError(dir.file("h4.ply")), Catch::Contains("a second 'format' line"));
    }
    SECTION("ASCII PLY bodies that disagree with the header (Assimp 5.2 looped on them)") {
        // The body must hold each declared element on a line of its own with exactly the values its
        // properties take; the first file is the one fuzzing found: its body ends before the faces.
        const std::string header = "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\n"
                                   "property float z\nelement face 4\nproperty list uchar int vertex_indices\nend_header\n";
        writeBytes(dir.file("b1.ply"), header + "0 0 0\n1 0 0\n1 3\n318446744073709551616 0 3 2");
        CHECK_THAT(loadError(dir.file("b1.ply")), Catch::Contains("vertex 2 (counting from 0): its line ends after 2 values"));
        const std::string vertices = "0 0 0\n1 0 0\n0 1 0\n0 0 1\n";
        writeBytes(dir.file("b2.ply"), header + vertices + "3 0 2 1\n3 0 1 3\n");
        CHECK_THAT(loadError(dir.file("b2.ply")), Catch::Contains("ends after 2 of the 4 'face' elements"));
        writeBytes(dir.file("b3.ply"), header + vertices + "3 0 2 1\n3 0 1 3\n3 0 3 2 7\n3 1 2 3\n");
        CHECK_THAT(loadError(dir.file("b3.ply")), Catch::Contains("face 2 (counting from 0): its line holds 5 values"));
        writeBytes(dir.file("b4.ply"), header + vertices + "3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n");
        CHECK(loadMesh(dir.file("b4.ply")).mesh.triangles.size() == 4);  // the same tetrahedron, whole
    }
    SECTION("ASCII STL facets that are not triangles, or with a coordinate that is not a number") {
        // writeAsciiStl: line 1 "solid", then 7 lines a facet (facet, outer loop, 3 vertices,
        // endloop, endfacet), so facet k starts at line 2 + 7k and its vertices are its lines 3-5.
        writeAsciiStl(dir.file("whole.stl"), cube());
        std::vector<std::string> lines;
        std::istringstream whole(readBytes(dir.file("whole.stl")));
        for (std::string line; std::getline(whole, line);) lines.push_back(line);
        REQUIRE(lines.size() == 2 + 7 * 12);
        const auto joined = [](const std::vector<std::string>& from) {
            std::string text;
            for (const std::string& line : from) text += line + "\n";
            return text;
        };
        std::vector<std::string> two = lines;
        two.erase(two.begin() + 25);  // line 26, facet 3's second vertex
        writeBytes(dir.file("two.stl"), joined(two));
        CHECK_THAT(loadError(dir.file("two.stl")),
                   Catch::Contains("two.stl") && Catch::Contains("ASCII STL facet 3 (counting from 0, from line 23): 2 vertices"));
        // Four then two: six vertices, which Assimp read as two triangles.
        std::vector<std::string> four = lines;
        four.insert(four.begin() + 31, four[38]);  // facet 5's first vertex, also in facet 4
        four.erase(four.begin() + 39);
        writeBytes(dir.file("four.stl"), joined(four));
        CHECK_THAT(loadError(dir.file("four.stl")), Catch::Contains("facet 4 (counting from 0, from line 30): 4 vertices"));
        std::vector<std::string> comma = lines;
        comma[24] = "   vertex 1,5 0 0";
        writeBytes(dir.file("comma.stl"), joined(comma));
        CHECK_THAT(loadError(dir.file("comma.stl")), Catch::Contains("line 25: vertex coordinate 1 '1,5' is not a number"));
        std::vector<std::string> short_line = lines;
        short_line[24] = "   vertex 1 0";
        writeBytes(dir.file("short.stl"), joined(short_line));
        CHECK_THAT(loadError(dir.file("short.stl")), Catch::Contains("vertex coordinate 3 is missing"));
        // Signs written out are numbers too (strtod reads them, as Assimp does).
        std::vector<std::string> signs = lines;
        for (std::string& line : signs) {
            const std::size_t at = line.find("vertex ");
            if (at == std::string::npos) continue;
            std::istringstream values(line.substr(at + 7));
            double x = 0, y = 0, z = 0;
            values >> x >> y >> z;
            std::ostringstream signed_line;
            signed_line << std::showpos << "   vertex " << x << " " << y << " " << z;
            line = signed_line.str();
        }
        writeBytes(dir.file("signs.stl"), joined(signs));
        CHECK(loadMesh(dir.file("signs.stl")).mesh.triangles.size() == 12);
    }
    SECTION("a binary STL whose header starts with 'solid' is read as binary") {
        writeBinaryStl(dir.file("solid_binary.stl"), cube());
        std::string bytes = readBytes(dir.file("solid_binary.stl"));
        bytes.replace(0, 12, "solid binary");
        writeBytes(dir.file("solid_binary.stl"), bytes);
        const LoadedMesh loaded = loadMesh(dir.file("solid_binary.stl"));
        CHECK(loaded.mesh.triangles.size() == 12);
        CHECK(loaded.mesh.vertices.size() == 8);
    }
    SECTION("truncated binary STL") {
        writeBinaryStl(dir.file("whole.stl"), cube());
        const std::string whole = readBytes(dir.file("whole.stl"));
        REQUIRE(whole.size() == 84 + 12 * 50);
        const std::vector<std::size_t> lengths{10, 80, 83, 84 + 5 * 50 + 17, whole.size() - 1};
        for (const std::size_t keep : lengths) {
            const std::string path = dir.file("cut" + std::to_string(keep) + ".stl");
            writeBytes(path, whole.substr(0, keep));
            CHECK_THAT(loadError(path), Catch::Contains(keep < 84 ? "too short" : "truncated"));
        }
    }
    SECTION("binary STL claiming more triangles than it holds") {
        writeBinaryStl(dir.file("liar.stl"), cube());
        std::string bytes = readBytes(dir.file("liar.stl"));
        const std::uint32_t claimed = 0xFFFFFFFFu;
        std::memcpy(bytes.data() + 80, &claimed, 4);
        writeBytes(dir.file("liar.stl"), bytes);
        CHECK_THAT(loadError(dir.file("liar.stl")), Catch::Contains("4294967295 triangles"));
    }
}

TEST_CASE("a truncated ASCII STL never crashes", "[mesh][errors]") {
    TempDir dir;
    writeAsciiStl(dir.file("whole.stl"), cube());
    const std::string whole = readBytes(dir.file("whole.stl"));
    for (std::size_t keep = 1; keep < whole.size(); keep += 37) {
        const std::string path = dir.file("cut.stl");
        writeBytes(path, whole.substr(0, keep));
        try {
            const LoadedMesh partial = loadMesh(path);  // Assimp may accept the facets it got
            CHECK(partial.mesh.triangles.size() <= 12);
            CHECK_FALSE(partial.mesh.triangles.empty());
        } catch (const InputError& e) {
            CHECK_THAT(e.what(), Catch::Contains("cut.stl"));
        }
    }
}

TEST_CASE("closestPointOnTriangle finds the point and feature of each Voronoi region",
          "[geometry]") {
    const Vec3 a(0, 0, 0), b(2, 0, 0), c(0, 2, 0);
    struct Case {
        Vec3 p, expected;
        TriangleFeature feature;
    };
    const Case cases[] = {
        {Vec3(0.5, 0.5, 1.0), Vec3(0.5, 0.5, 0), TriangleFeature::Face},
        {Vec3(0.4, 0.3, -2.0), Vec3(0.4, 0.3, 0), TriangleFeature::Face},
        {Vec3(-1, -1, 0.5), a, TriangleFeature::Vertex0},
        {Vec3(3, -0.5, -1), b, TriangleFeature::Vertex1},
        {Vec3(-0.5, 3, 2), c, TriangleFeature::Vertex2},
        {Vec3(1, -1, 0.3), Vec3(1, 0, 0), TriangleFeature::Edge01},
        {Vec3(2, 2, -1), Vec3(1, 1, 0), TriangleFeature::Edge12},
        {Vec3(-1, 1.5, 0), Vec3(0, 1.5, 0), TriangleFeature::Edge20},
    };
    for (const Case& k : cases) {
        TriangleFeature feature{};
        const Vec3 q = closestPointOnTriangle(k.p, a, b, c, feature);
        INFO("p = " << k.p.transpose());
        CHECK((q - k.expected).norm() < 1e-14);
        CHECK(feature == k.feature);
    }
}

TEST_CASE("closestPointOnTriangle agrees with a plane-or-edges reference", "[geometry]") {
    // Independent reference: the plane projection if it lies inside, else the nearest edge point.
    const auto reference = [](const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
        const Vec3 n = (b - a).cross(c - a).normalized();
        const Vec3 q = p - n * n.dot(p - a);
        const bool inside = (b - a).cross(q - a).dot(n) >= 0 && (c - b).cross(q - b).dot(n) >= 0 &&
                            (a - c).cross(q - c).dot(n) >= 0;
        if (inside) return q;
        Vec3 best = a;
        for (const auto& [s, e] : {std::pair{a, b}, std::pair{b, c}, std::pair{c, a}}) {
            const double t = std::clamp((p - s).dot(e - s) / (e - s).squaredNorm(), 0.0, 1.0);
            const Vec3 x = s + t * (e - s);
            if ((p - x).norm() < (p - best).norm()) best = x;
        }
        return best;
    };
    std::mt19937 rng(2024);
    std::uniform_real_distribution<double> u(-2.0, 2.0);
    const auto randomVec = [&] { return Vec3(u(rng), u(rng), u(rng)); };
    for (int i = 0; i < 2000; ++i) {
        const Vec3 a = randomVec(), b = randomVec(), c = randomVec(), p = randomVec();
        TriangleFeature feature{};
        const Vec3 q = closestPointOnTriangle(p, a, b, c, feature);
        CHECK((p - q).norm() == Approx((p - reference(p, a, b, c)).norm()).margin(1e-12));
    }
}

TEST_CASE("closestPointOnTriangle survives degenerate triangles", "[geometry]") {
    const Vec3 p(1.0, 1.0, 0.5);
    TriangleFeature feature{};

    SECTION("collinear corners act as their hull segment") {
        const Vec3 q = closestPointOnTriangle(p, Vec3(0, 0, 0), Vec3(3, 0, 0), Vec3(1.5, 0, 0),
                                              feature);
        CHECK(q.allFinite());
        CHECK((q - Vec3(1, 0, 0)).norm() < 1e-14);
        CHECK((feature == TriangleFeature::Edge01 || feature == TriangleFeature::Edge20 ||
               feature == TriangleFeature::Edge12));
    }
    SECTION("two coincident corners") {
        const Vec3 q = closestPointOnTriangle(p, Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(2, 0, 0),
                                              feature);
        CHECK(q.allFinite());
        CHECK((q - Vec3(1, 0, 0)).norm() < 1e-14);
    }
    SECTION("all corners at one point") {
        const Vec3 point(0.3, -0.2, 0.1);
        const Vec3 q = closestPointOnTriangle(p, point, point, point, feature);
        CHECK(q == point);
        CHECK(feature == TriangleFeature::Vertex0);
    }
    SECTION("nearly collinear sliver") {
        const Vec3 q = closestPointOnTriangle(p, Vec3(0, 0, 0), Vec3(3, 0, 0),
                                              Vec3(1.5, 1e-170, 0), feature);
        CHECK(q.allFinite());
        CHECK((q - Vec3(1, 0, 0)).norm() < 1e-12);
    }
}

TEST_CASE("generated wall meshes load with the expected topology", "[mesh][resources]") {
    const fs::path meshes = repositoryRoot() / "resources/meshes";

    SECTION("drum.stl: closed cylinder, 48 segments") {
        const LoadedMesh drum = loadMesh((meshes / "drum.stl").string());
        CHECK(drum.report.closed());
        CHECK(drum.report.consistentlyOriented());
        CHECK(drum.report.degenerate_triangles == 0);
        CHECK(drum.mesh.vertices.size() == 2 * 48 + 2);
        CHECK(drum.mesh.triangles.size() == 4 * 48);
        // STL stores floats, so compare to the exact 48-gon prism, not to pi r^2 L.
        CHECK(signedVolume(drum.mesh) == Approx(polygonPrismVolume(48, 0.1, 0.1)).margin(1e-9));
        for (const Vec3& v : drum.mesh.vertices) CHECK(std::abs(std::abs(v.y()) - 0.05) < 1e-8);
    }
    SECTION("hopper.stl: funnel open at both ends") {
        const LoadedMesh hopper = loadMesh((meshes / "hopper.stl").string());
        CHECK(hopper.report.open_edges == 2 * 48);
        CHECK(hopper.report.non_manifold_edges == 0);
        CHECK(hopper.report.consistentlyOriented());
        CHECK(hopper.mesh.vertices.size() == 3 * 48);
        CHECK(hopper.mesh.triangles.size() == 4 * 48);
        // Normals point away from the axis.
        for (std::size_t t = 0; t < hopper.mesh.triangles.size(); ++t) {
            const auto& tri = hopper.mesh.triangles[t];
            const Vec3 centre = (hopper.mesh.vertices[tri[0]] + hopper.mesh.vertices[tri[1]] +
                                 hopper.mesh.vertices[tri[2]]) / 3.0;
            CHECK(hopper.mesh.normal(t).dot(Vec3(centre.x(), centre.y(), 0.0)) > 0.0);
        }
    }
    SECTION("box.obj: open-top box") {
        const LoadedMesh box = loadMesh((meshes / "box.obj").string());
        CHECK(box.mesh.vertices.size() == 8);
        CHECK(box.mesh.triangles.size() == 10);
        CHECK(box.report.open_edges == 4);
        CHECK(box.report.non_manifold_edges == 0);
        CHECK(box.report.consistentlyOriented());
    }
}
