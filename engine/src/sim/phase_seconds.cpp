#include "grainlab/sim/phase_seconds.hpp"

#include <algorithm>

namespace grainlab {

PhaseSeconds PhaseSeconds::since(const PhaseSeconds& earlier) const {
    PhaseSeconds d{integration - earlier.integration, neighbours - earlier.neighbours, forces - earlier.forces,
                   pair_loop_per_thread};
    for (std::size_t t = 0; t < std::min(d.pair_loop_per_thread.size(), earlier.pair_loop_per_thread.size()); ++t)
        d.pair_loop_per_thread[t] -= earlier.pair_loop_per_thread[t];
    return d;
}

}  // namespace grainlab
