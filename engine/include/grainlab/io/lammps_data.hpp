#pragma once
// Reader for LAMMPS data files of atom style sphere (as written by write_data).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "grainlab/core/math.hpp"

namespace grainlab {

struct LammpsAtom {
    std::int64_t id = 0;
    int type = 1;
    double diameter = 1.0;
    double density = 1.0;
    Vec3 position = Vec3::Zero();
    std::array<int, 3> image{0, 0, 0};
    Vec3 velocity = Vec3::Zero();
    Vec3 angular_velocity = Vec3::Zero();
};

struct LammpsData {
    Vec3 box_min = Vec3::Zero(), box_max = Vec3::Ones();
    int atom_types = 1;
    std::vector<LammpsAtom> atoms;  // in file order
};

// Throws InputError naming the file and line for anything it cannot use.
LammpsData readLammpsData(const std::string& path);

}  // namespace grainlab
