#pragma once
// Normal and tangential contact-force magnitudes of a frame, binned for the histogram dock.
#include <vector>

#include "grainlab/io/frame.hpp"

namespace grainlab::gui {

struct ForceComponents {
    std::vector<double> normal, tangential;  // one entry per contact
};

// The normal is the line from the contact's second point to the first (centres, or wall point to
// centre), so a force splits into |F.n| and |F - (F.n) n|.
ForceComponents splitContactForces(const Frame& frame);

struct Histogram {
    double bin_width = 1.0;          // bins start at 0
    std::vector<int> normal, tangential;
    double largest = 0.0;
};

Histogram binForces(const ForceComponents& forces, int bins);

}  // namespace grainlab::gui
