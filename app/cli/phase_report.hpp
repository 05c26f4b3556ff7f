#pragma once
// The end-of-run lines that say where the run's time went (grainlab/sim/phase_seconds.hpp).
#include <ostream>

#include "grainlab/sim/phase_seconds.hpp"

namespace grainlab::cli {

// Seconds and share of `wall_seconds` per phase; with several threads, each one's pair loop.
void printPhaseSeconds(std::ostream& out, const PhaseSeconds& phases, double wall_seconds);

}  // namespace grainlab::cli
