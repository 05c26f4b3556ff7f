#include "grainlab/io/lammps_data.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "grainlab/core/error.hpp"

namespace grainlab {
namespace {

std::string stripComment(const std::string& line) {
    const auto hash = line.find('#');
    return hash == std::string::npos ? line : line.substr(0, hash);
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t\r") == std::string::npos; }

// Whole-word numbers: false for text that is not one, or out of range.
bool parseInteger(const std::string& text, long& out) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    return error == std::errc() && end == text.data() + text.size();
}

bool parseReal(const std::string& text, double& out) {
    char* end = nullptr;
    errno = 0;
    out = std::strtod(text.c_str(), &end);
    return !text.empty() && end == text.c_str() + text.size() && errno == 0 && std::isfinite(out);
}

// Memory reserved up front for a header's atom count; larger files grow as atoms are read, so a
// header that lies about its count cannot exhaust memory.
constexpr long kReserveAtMost = 1 << 20;

}  // namespace

LammpsData readLammpsData(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError(path, "", "cannot open the LAMMPS data file (missing or unreadable)");
    LammpsData data;
    std::string line;
    long line_number = 1;
    std::getline(in, line);  // the first line is a title
    long atom_count = -1;
    auto fail = [&](const std::string& message) {
        throw InputError(path, "line " + std::to_string(line_number), message);
    };

    // Header: counts and box until the first section keyword.
    std::string section;
    while (std::getline(in, line)) {
        ++line_number;
        const std::string body = stripComment(line);
        if (blank(body)) continue;
        std::istringstream ss(body);
        std::string a, b, c, d;
        ss >> a >> b >> c >> d;
        if (b == "atoms") {
            if (!parseInteger(a, atom_count) || atom_count < 0) fail("expected 'N atoms' with N a whole number, found '" + a + "'");
        } else if (b == "atom" && c == "types") {
            long types = 0;
            if (!parseInteger(a, types) || types < 1 || types > 1000000) fail("expected 'N atom types' with N in 1..1000000, found '" + a + "'");
            data.atom_types = static_cast<int>(types);
        } else if (c == "xlo" || c == "ylo" || c == "zlo") {
            const int k = c[0] - 'x';
            if (!parseReal(a, data.box_min[k]) || !parseReal(b, data.box_max[k]) || !(data.box_max[k] > data.box_min[k]))
                fail("expected '" + c + " " + c.substr(0, 1) + "hi' bounds as two finite numbers, low below high");
        } else if (std::isalpha(static_cast<unsigned char>(a[0]))) { section = a; break; }
    }
    if (atom_count < 0) fail("no 'N atoms' line in the header");
    if (section != "Atoms") fail("expected the Atoms section, found '" + section + "'");
    if (line.find("sphere") == std::string::npos && line.find('#') != std::string::npos)
        fail("the Atoms section is not of atom style sphere: '" + line + "'");

    std::unordered_map<std::int64_t, std::size_t> index_of;
    data.atoms.reserve(static_cast<std::size_t>(std::min(atom_count, kReserveAtMost)));
    while (section == "Atoms" && std::getline(in, line)) {
        ++line_number;
        const std::string body = stripComment(line);
        if (blank(body)) {
            if (static_cast<long>(data.atoms.size()) == atom_count) break;
            continue;
        }
        std::istringstream ss(body);
        LammpsAtom atom;
        if (!(ss >> atom.id >> atom.type >> atom.diameter >> atom.density >> atom.position[0] >> atom.position[1] >>
              atom.position[2]))
            fail("expected 'id type diameter density x y z [ix iy iz]' (atom style sphere)");
        ss >> atom.image[0] >> atom.image[1] >> atom.image[2];
        if (atom.type < 1 || atom.type > data.atom_types) fail("atom type " + std::to_string(atom.type) + " is not in 1.." + std::to_string(data.atom_types));
        if (!(atom.diameter > 0.0) || !(atom.density > 0.0)) fail("atom " + std::to_string(atom.id) + " has a non-positive diameter or density");
        if (!atom.position.allFinite()) fail("atom " + std::to_string(atom.id) + " has a non-finite position");
        if (!index_of.emplace(atom.id, data.atoms.size()).second) fail("atom id " + std::to_string(atom.id) + " appears twice");
        data.atoms.push_back(atom);
    }
    if (static_cast<long>(data.atoms.size()) != atom_count)
        fail("the header announces " + std::to_string(atom_count) + " atoms, the Atoms section has " +
             std::to_string(data.atoms.size()));

    // Optional Velocities section: id vx vy vz wx wy wz.
    while (std::getline(in, line)) {
        ++line_number;
        const std::string body = stripComment(line);
        if (blank(body)) continue;
        std::istringstream ss(body);
        std::string first;
        ss >> first;
        if (std::isalpha(static_cast<unsigned char>(first[0]))) {
            section = first;
            continue;
        }
        if (section != "Velocities") continue;
        std::istringstream vs(body);
        std::int64_t id = 0;
        Vec3 v, w;
        if (!(vs >> id >> v[0] >> v[1] >> v[2] >> w[0] >> w[1] >> w[2]))
            fail("expected 'id vx vy vz wx wy wz' in the Velocities section");
        const auto it = index_of.find(id);
        if (it == index_of.end()) fail("velocity for unknown atom id " + std::to_string(id));
        data.atoms[it->second].velocity = v;
        data.atoms[it->second].angular_velocity = w;
    }
    return data;
}

}  // namespace grainlab
