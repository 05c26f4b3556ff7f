#include "phase_report.hpp"

#include <cstdio>
#include <string>

namespace grainlab::cli {
namespace {

std::string part(const char* name, double seconds, double wall_seconds) {
    char text[96];
    std::snprintf(text, sizeof text, "%s %.3f s (%.1f%%)", name, seconds,
                  wall_seconds > 0.0 ? 100.0 * seconds / wall_seconds : 0.0);
    return text;
}

}  // namespace

void printPhaseSeconds(std::ostream& out, const PhaseSeconds& p, double wall_seconds) {
    out << "  time: " << part("forces", p.forces, wall_seconds) << ", " << part("neighbours", p.neighbours, wall_seconds)
        << ", " << part("integration", p.integration, wall_seconds) << ", "
        << part("output and other", wall_seconds - p.total(), wall_seconds) << "\n";
    if (p.pair_loop_per_thread.size() < 2) return;
    out << "  pair loop per thread:";
    char seconds[32];
    for (const double s : p.pair_loop_per_thread) {
        std::snprintf(seconds, sizeof seconds, " %.3f", s);
        out << seconds;
    }
    out << " s\n";
}

}  // namespace grainlab::cli
