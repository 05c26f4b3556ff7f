#pragma once
// The neighbour build's innermost loop: of one body's candidate partners (the bodies of the cells
// around its own), those the list keeps.
#include <cstddef>
#include <cstdint>

#include "grainlab/core/math.hpp"
#include "grainlab/sim/periodic_box.hpp"

namespace grainlab {

struct CandidateBodies {
    const Vec3* position;
    const double* radius;
    const std::uint8_t* frozen;
    NearestImage image;
    double skin;
    bool avx2;  // the vector loop may run: the processor has AVX2 (contactLoopIsa) and i, j < 2^31
};

// Candidates are padded with room for kCandidatePadding more, which the vector loop reads.
constexpr std::size_t kCandidatePadding = 3;

// Writes to `kept` the candidates j of body i with j < i, not both frozen, whose nearest-image
// gap is under the skin ((r_i + r_j) + skin against the distance, as every distance test of the
// engine rounds it); returns how many. `candidates` holds `count` indices followed by
// kCandidatePadding copies of i; `kept` has room for count + 4. The kept ones are in candidate
// order; with or without AVX2, the same ones.
std::size_t keepNearCandidates(const CandidateBodies& bodies, std::uint32_t i, const std::uint32_t* candidates,
                               std::size_t count, std::uint32_t* kept);

}  // namespace grainlab
