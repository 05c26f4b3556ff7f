// Result writers: VTK series, CSV time series, summary and the atomic file primitive.
// The .vtp files are read back with a small reader below (XML header + raw appended blocks).
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "grainlab/io/atomic_file.hpp"
#include "grainlab/io/output_error.hpp"
#include "grainlab/io/summary.hpp"
#include "grainlab/io/time_series.hpp"
#include "grainlab/io/vtk_series.hpp"
#include "grainlab/io/vtp_format.hpp"
#include "temp_dir.hpp"
#include "vtp_reader.hpp"

namespace fs = std::filesystem;
using namespace grainlab;
using namespace grainlab::test;

namespace {

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::vector<std::string> filesIn(const fs::path& directory) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(directory))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

bool hasTemporary(const fs::path& directory) {
    for (const std::string& name : filesIn(directory))
        if (name.find(".tmp.") != std::string::npos) return true;
    return false;
}

bool bitEqual(double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

void checkVectors(const std::vector<double>& flat, const std::vector<Vec3>& expected) {
    REQUIRE(flat.size() == expected.size() * 3);
    for (std::size_t i = 0; i < expected.size(); ++i)
        for (int c = 0; c < 3; ++c) CHECK(bitEqual(flat[3 * i + c], expected[i][c]));
}

// Values chosen to catch any text round trip or float conversion: thirds, extremes, -0.
Frame sampleFrame() {
    Frame f;
    f.step = 1234;
    f.time = 1.0 / 3.0;
    const double tricky[] = {1.0 / 3.0, -0.0, 1e-310, 1.7976931348623157e308, -2.5e-7,
                             std::nextafter(1.0, 2.0), 6.02214076e23};
    const std::size_t n = 7;
    for (std::size_t i = 0; i < n; ++i) {
        const double t = tricky[i];
        f.id.push_back(static_cast<std::int64_t>(i) * 1000000007LL - 3);
        f.radius.push_back(0.001 + t * 1e-12);
        f.material.push_back(static_cast<std::uint32_t>(i * 7 + 4000000000u));
        f.position.emplace_back(t, -t, t / 7.0);
        f.velocity.emplace_back(t * 3.0, 0.1 * static_cast<double>(i), -t);
        f.angular_velocity.emplace_back(-0.0, t, 2.0 * static_cast<double>(i));
        f.force.emplace_back(t / 9.0, 1e-300, -9.81 * static_cast<double>(i));
        f.orientation.push_back(
            Quat(Eigen::AngleAxisd(0.3 * static_cast<double>(i), Vec3(1, 2, 3).normalized())));
    }
    for (std::size_t k = 0; k < 4; ++k) {
        FrameContact c;
        c.body_a = static_cast<std::int64_t>(k);
        c.body_b = k == 3 ? -2 : static_cast<std::int64_t>(k + 1);
        c.point_a = f.position[k];
        c.point_b = f.position[k + 1] + Vec3(tricky[k], 0.0, 1.0 / 7.0);
        c.force = Vec3(tricky[k + 1], -1.0 / 3.0, 12.5);
        c.overlap = 1e-6 / 3.0 * static_cast<double>(k + 1);
        f.contacts.push_back(c);
    }
    return f;
}

// Makes writes past `bytes` fail with EFBIG, as a full disk would, even when run as root.
struct FileSizeLimit {
    rlimit old{};
    struct sigaction old_action {};
    explicit FileSizeLimit(rlim_t bytes) {
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        sigaction(SIGXFSZ, &ignore, &old_action);
        getrlimit(RLIMIT_FSIZE, &old);
        rlimit limited = old;
        limited.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limited);
    }
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &old);
        sigaction(SIGXFSZ, &old_action, nullptr);
    }
};

}  // namespace

TEST_CASE("particle files round-trip every array bit for bit", "[output]") {
    const Frame frame = sampleFrame();
    const VtpFile file = parseVtp(encodeParticlesVtp(frame));
    const std::size_t n = frame.position.size();

    REQUIRE(file.count("NumberOfPoints") == n);
    REQUIRE(file.count("NumberOfVerts") == n);
    REQUIRE(file.count("NumberOfLines") == 0);
    checkLayout(file);

    CHECK(file.values<std::int64_t>("PointData", "id") == frame.id);
    CHECK(file.values<std::uint32_t>("PointData", "material") == frame.material);
    const auto radius = file.values<double>("PointData", "radius");
    REQUIRE(radius.size() == n);
    for (std::size_t i = 0; i < n; ++i) CHECK(bitEqual(radius[i], frame.radius[i]));

    checkVectors(file.values<double>("Points", "Points"), frame.position);
    checkVectors(file.values<double>("PointData", "velocity"), frame.velocity);
    checkVectors(file.values<double>("PointData", "angular_velocity"), frame.angular_velocity);
    checkVectors(file.values<double>("PointData", "force"), frame.force);

    const auto speed = file.values<double>("PointData", "speed");
    const auto orientation = file.values<double>("PointData", "orientation");
    REQUIRE(speed.size() == n);
    REQUIRE(orientation.size() == 4 * n);
    CHECK(file.array("PointData", "orientation").components == 4);
    for (std::size_t i = 0; i < n; ++i) {
        CHECK(bitEqual(speed[i], frame.velocity[i].norm()));
        const Quat& q = frame.orientation[i];
        CHECK(bitEqual(orientation[4 * i + 0], q.w()));
        CHECK(bitEqual(orientation[4 * i + 1], q.x()));
        CHECK(bitEqual(orientation[4 * i + 2], q.y()));
        CHECK(bitEqual(orientation[4 * i + 3], q.z()));
    }

    const auto connectivity = file.values<std::int64_t>("Verts", "connectivity");
    const auto offsets = file.values<std::int64_t>("Verts", "offsets");
    REQUIRE(connectivity.size() == n);
    REQUIRE(offsets.size() == n);
    for (std::size_t i = 0; i < n; ++i) {
        CHECK(connectivity[i] == static_cast<std::int64_t>(i));
        CHECK(offsets[i] == static_cast<std::int64_t>(i + 1));
    }
    CHECK(bitEqual(file.values<double>("FieldData", "TimeValue").at(0), frame.time));
}

TEST_CASE("contact files hold one line per contact with its force", "[output]") {
    const Frame frame = sampleFrame();
    const VtpFile file = parseVtp(encodeContactsVtp(frame));
    const std::size_t n = frame.contacts.size();

    REQUIRE(file.count("NumberOfLines") == n);
    REQUIRE(file.count("NumberOfPoints") == 2 * n);
    REQUIRE(file.count("NumberOfVerts") == 0);
    checkLayout(file);

    const auto points = file.values<double>("Points", "Points");
    const auto force = file.values<double>("CellData", "force");
    const auto magnitude = file.values<double>("CellData", "force_magnitude");
    const auto overlap = file.values<double>("CellData", "overlap");
    const auto body_a = file.values<std::int64_t>("CellData", "body_a");
    const auto body_b = file.values<std::int64_t>("CellData", "body_b");
    const auto connectivity = file.values<std::int64_t>("Lines", "connectivity");
    const auto offsets = file.values<std::int64_t>("Lines", "offsets");
    REQUIRE(points.size() == 6 * n);
    REQUIRE(connectivity.size() == 2 * n);
    REQUIRE(offsets.size() == n);
    for (std::size_t k = 0; k < n; ++k) {
        const FrameContact& c = frame.contacts[k];
        for (int i = 0; i < 3; ++i) {
            CHECK(bitEqual(points[6 * k + i], c.point_a[i]));
            CHECK(bitEqual(points[6 * k + 3 + i], c.point_b[i]));
            CHECK(bitEqual(force[3 * k + i], c.force[i]));
        }
        CHECK(bitEqual(magnitude[k], c.force.norm()));
        CHECK(bitEqual(overlap[k], c.overlap));
        CHECK(body_a[k] == c.body_a);
        CHECK(body_b[k] == c.body_b);
        CHECK(connectivity[2 * k] == static_cast<std::int64_t>(2 * k));
        CHECK(connectivity[2 * k + 1] == static_cast<std::int64_t>(2 * k + 1));
        CHECK(offsets[k] == static_cast<std::int64_t>(2 * k + 2));
    }
}

TEST_CASE("empty frames still make valid files", "[output]") {
    Frame empty;
    empty.step = 5;
    empty.time = 0.5;

    const VtpFile particles = parseVtp(encodeParticlesVtp(empty));
    CHECK(particles.count("NumberOfPoints") == 0);
    CHECK(particles.count("NumberOfVerts") == 0);
    checkLayout(particles);
    CHECK(particles.values<double>("Points", "Points").empty());
    CHECK(particles.has("PointData", "velocity"));  // arrays present, with no values
    CHECK(particles.values<std::int64_t>("Verts", "offsets").empty());

    const VtpFile contacts = parseVtp(encodeContactsVtp(empty));
    CHECK(contacts.count("NumberOfLines") == 0);
    CHECK(contacts.count("NumberOfPoints") == 0);
    checkLayout(contacts);
    CHECK(contacts.values<double>("CellData", "force").empty());
}

TEST_CASE("particle arrays left empty are omitted, wrong sizes refused", "[output]") {
    Frame frame = sampleFrame();
    frame.angular_velocity.clear();
    frame.orientation.clear();
    const VtpFile file = parseVtp(encodeParticlesVtp(frame));
    checkLayout(file);
    CHECK_FALSE(file.has("PointData", "angular_velocity"));
    CHECK_FALSE(file.has("PointData", "orientation"));
    CHECK(file.has("PointData", "velocity"));

    frame.radius.pop_back();
    CHECK_THROWS_AS(encodeParticlesVtp(frame), std::invalid_argument);
}

TEST_CASE("the series lists exactly the frames written, with their times", "[output]") {
    TempDir dir;
    const fs::path out = dir.path / "frames";
    FrameSeriesWriter writer(out, true);
    CHECK(writer.framesWritten() == 0);

    auto listed = [&](const char* pvd) {
        const std::string text = readFile(out / pvd);
        REQUIRE(text.rfind("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\"", 0) == 0);
        REQUIRE(text.find("</Collection>\n</VTKFile>\n") != std::string::npos);
        static const std::regex dataset(R"(<DataSet [^>]*/>)");
        std::vector<std::pair<double, std::string>> entries;
        for (std::sregex_iterator it(text.begin(), text.end(), dataset), end; it != end; ++it) {
            const auto a = attributes(it->str());
            entries.emplace_back(std::stod(a.at("timestep")), a.at("file"));
        }
        return entries;
    };
    CHECK(listed("particles.pvd").empty());  // written at once, so no stale list survives
    CHECK(listed("contacts.pvd").empty());

    Frame frame = sampleFrame();
    const long steps[] = {0, 10, 20};
    const double times[] = {0.0, 1.0 / 3.0, 2.0 / 3.0};
    for (int k = 0; k < 3; ++k) {
        frame.step = steps[k];
        frame.time = times[k];
        if (k == 1) frame.contacts.clear();  // a frame with no contacts still gets its file
        writer.write(frame);
        CHECK(writer.framesWritten() == static_cast<std::size_t>(k + 1));

        const auto particles = listed("particles.pvd");
        const auto contacts = listed("contacts.pvd");
        REQUIRE(particles.size() == static_cast<std::size_t>(k + 1));
        REQUIRE(contacts.size() == static_cast<std::size_t>(k + 1));
        for (int j = 0; j <= k; ++j) {
            CHECK(bitEqual(particles[j].first, times[j]));  // %.17g text reads back exactly
            CHECK(particles[j].second == FrameSeriesWriter::particlesFileName(steps[j]));
            CHECK(contacts[j].second == FrameSeriesWriter::contactsFileName(steps[j]));
            CHECK(fs::exists(out / particles[j].second));
            CHECK(fs::exists(out / contacts[j].second));
        }
    }
    CHECK(FrameSeriesWriter::particlesFileName(10) == "particles_00000010.vtp");
    CHECK(FrameSeriesWriter::contactsFileName(10) == "contacts_00000010.vtp");

    // The files on disk are what the encoders produce; the contact-free frame is valid.
    CHECK(readFile(out / "particles_00000020.vtp") == encodeParticlesVtp(frame));
    const VtpFile no_contacts = parseVtp(readFile(out / "contacts_00000010.vtp"));
    CHECK(no_contacts.count("NumberOfLines") == 0);
    checkLayout(no_contacts);

    // Writing a step again replaces its entry instead of listing it twice.
    frame.time = 0.75;
    writer.write(frame);
    const auto particles = listed("particles.pvd");
    REQUIRE(particles.size() == 3);
    CHECK(particles.back().first == 0.75);

    CHECK_FALSE(hasTemporary(out));
    CHECK(filesIn(out) == std::vector<std::string>{
                              "contacts.pvd", "contacts_00000000.vtp", "contacts_00000010.vtp",
                              "contacts_00000020.vtp", "particles.pvd", "particles_00000000.vtp",
                              "particles_00000010.vtp", "particles_00000020.vtp"});
}

TEST_CASE("a series without contacts writes no contact files", "[output]") {
    TempDir dir;
    FrameSeriesWriter writer(dir.path, false);
    writer.write(sampleFrame());
    CHECK(filesIn(dir.path) ==
          std::vector<std::string>{"particles.pvd", "particles_00001234.vtp"});
}

TEST_CASE("the time series has complete rows whose total is the sum of its parts", "[output]") {
    TempDir dir;
    const fs::path csv = dir.path / "sub" / "energy.csv";
    std::vector<EnergyRecord> records;
    for (int i = 0; i < 5; ++i) {
        EnergyRecord r;
        r.step = 100L * i;
        r.time = 0.1 * i;
        r.kinetic = 1.0 / (3.0 + i);
        r.rotational = 1e-17 * i;
        r.gravitational = -9.81 / 7.0 * i;
        r.elastic = 2.0 / 3.0;
        r.dissipated = 1e10 + 1.0 / 3.0;
        r.contacts = static_cast<std::size_t>(i * 11);
        r.solver_iterations = 3 * i;
        r.solver_residual = 1e-3 / (i + 1.0);
        records.push_back(r);
    }
    {
        TimeSeriesWriter writer(csv);
        CHECK(readFile(csv) ==
              "step,time,kinetic,rotational,gravitational,elastic,dissipated,total,contacts,solver_iterations,"
              "solver_residual\n");
        for (const EnergyRecord& r : records) writer.append(r);
        // Rows are on disk before the writer is closed, as they would be for a killed run.
        const std::string text = readFile(csv);
        CHECK(std::count(text.begin(), text.end(), '\n') == 6);
        writer.sync();
    }

    const std::string text = readFile(csv);
    REQUIRE(!text.empty());
    CHECK(text.back() == '\n');
    std::istringstream lines(text);
    std::string line;
    std::getline(lines, line);
    std::size_t row = 0;
    while (std::getline(lines, line)) {
        REQUIRE(row < records.size());
        std::vector<std::string> fields;
        std::stringstream parts(line);
        for (std::string field; std::getline(parts, field, ',');) fields.push_back(field);
        REQUIRE(fields.size() == 11);
        const EnergyRecord& r = records[row];
        CHECK(std::stol(fields[0]) == r.step);
        double v[7];
        for (int i = 0; i < 7; ++i) v[i] = std::strtod(fields[1 + i].c_str(), nullptr);
        CHECK(bitEqual(v[0], r.time));
        CHECK(bitEqual(v[1], r.kinetic));
        CHECK(bitEqual(v[2], r.rotational));
        CHECK(bitEqual(v[3], r.gravitational));
        CHECK(bitEqual(v[4], r.elastic));
        CHECK(bitEqual(v[5], r.dissipated));
        CHECK(bitEqual(v[6], v[1] + v[2] + v[3] + v[4] + v[5]));
        CHECK(std::stoul(fields[8]) == r.contacts);
        CHECK(std::stoi(fields[9]) == r.solver_iterations);
        CHECK(bitEqual(std::strtod(fields[10].c_str(), nullptr), r.solver_residual));
        ++row;
    }
    CHECK(row == records.size());
    CHECK_FALSE(hasTemporary(csv.parent_path()));
}

TEST_CASE("a time series row that does not fit is cut off again", "[output]") {
    TempDir dir;
    const fs::path csv = dir.path / "energy.csv";
    TimeSeriesWriter writer(csv);
    EnergyRecord r;
    r.kinetic = 1.0 / 3.0;
    writer.append(r);
    const std::string before = readFile(csv);
    {
        FileSizeLimit limit(before.size() + 10);  // room for a few bytes of the next row only
        CHECK_THROWS_AS(writer.append(r), OutputError);
    }
    CHECK(readFile(csv) == before);
    writer.append(r);  // and the writer goes on once there is room again
    CHECK(readFile(csv).size() > before.size());
}

TEST_CASE("writeFileAtomically replaces the file and leaves no temporary", "[output]") {
    TempDir dir;
    const fs::path target = dir.path / "a" / "b" / "result.txt";
    writeFileAtomically(target, "first");
    CHECK(readFile(target) == "first");
    writeFileAtomically(target, std::string("second\0with nul", 15));
    CHECK(readFile(target) == std::string("second\0with nul", 15));
    writeFileAtomically(target, "");
    CHECK(readFile(target).empty());
    CHECK(filesIn(target.parent_path()) == std::vector<std::string>{"result.txt"});
}

TEST_CASE("failing writes throw OutputError naming the path and keep the old file", "[output]") {
    SECTION("folder that cannot be created") {
        const fs::path target = "/proc/grainlab_no_such_folder/out.vtp";
        try {
            writeFileAtomically(target, "data");
            FAIL("no error");
        } catch (const OutputError& e) {
            CHECK(std::string(e.what()).find("/proc/grainlab_no_such_folder") != std::string::npos);
        }
        CHECK_THROWS_AS(ensureDirectory("/proc/grainlab_no_such_folder"), OutputError);
        CHECK_THROWS_AS(FrameSeriesWriter("/proc/grainlab_no_such_folder", true), OutputError);
        CHECK_THROWS_AS(TimeSeriesWriter("/proc/grainlab_no_such_folder/e.csv"), OutputError);
    }
    SECTION("a file where a folder should be") {
        TempDir dir;
        writeFileAtomically(dir.path / "plain", "x");
        try {
            ensureDirectory(dir.path / "plain");
            FAIL("no error");
        } catch (const OutputError& e) {
            CHECK(e.path() == dir.path / "plain");
        }
        CHECK_THROWS_AS(writeFileAtomically(dir.path / "plain" / "out.txt", "y"), OutputError);
        CHECK(readFile(dir.path / "plain") == "x");
    }
    SECTION("disk full while writing") {
        TempDir dir;
        const fs::path target = dir.path / "summary.json";
        writeFileAtomically(target, "old contents");
        const std::string big(1 << 20, 'z');
        {
            FileSizeLimit limit(64 * 1024);
            try {
                writeFileAtomically(target, big);
                FAIL("no error");
            } catch (const OutputError& e) {
                const std::string message = e.what();
                CHECK(message.find(target.string()) != std::string::npos);
                CHECK(message.find(std::strerror(EFBIG)) != std::string::npos);
            }
        }
        CHECK(readFile(target) == "old contents");
        CHECK_FALSE(hasTemporary(dir.path));
    }
}

TEST_CASE("the summary is JSON with every field", "[output]") {
    TempDir dir;
    RunSummary s;
    s.scene = "scenes/hopper.json";
    s.steps = 200000;
    s.simulated_time = 2.0 / 3.0;
    s.final_energy.step = 200000;
    s.final_energy.kinetic = 1.5;
    s.final_energy.gravitational = -0.25;
    s.final_energy.contacts = 42;
    s.bodies = 1000;
    s.contacts = 42;
    s.wall_seconds = 12.5;
    s.particle_steps_per_second = std::numeric_limits<double>::quiet_NaN();
    s.threads = 2;
    s.integrator = "velocity-verlet";
    s.contact_model = "hertz-mindlin";
    s.status = "stopped: user request";
    writeSummary(dir.path / "summary.json", s);

    const auto json = nlohmann::json::parse(readFile(dir.path / "summary.json"));
    CHECK(json.at("scene") == s.scene);
    CHECK(json.at("steps") == s.steps);
    CHECK(json.at("simulated_time").get<double>() == s.simulated_time);
    CHECK(json.at("bodies") == 1000);
    CHECK(json.at("contacts") == 42);
    CHECK(json.at("wall_seconds") == 12.5);
    CHECK(json.at("particle_steps_per_second").is_null());
    CHECK(json.at("threads") == 2);
    CHECK(json.at("integrator") == "velocity-verlet");
    CHECK(json.at("contact_model") == "hertz-mindlin");
    CHECK(json.at("status") == "stopped: user request");
    CHECK(json.at("final_energy").at("total") == 1.25);
    CHECK(json.at("final_energy").at("contacts") == 42);
    CHECK(json.at("final_energy").at("step") == 200000);
    CHECK(filesIn(dir.path) == std::vector<std::string>{"summary.json"});
}
