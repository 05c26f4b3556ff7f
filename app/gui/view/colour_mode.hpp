#pragma once
// What the particles' colours show, and the per-body values behind each choice.
#include <string>
#include <vector>

#include "runner/snapshot.hpp"

namespace grainlab::gui {

enum class ColourMode { Speed, ContactForce, Coordination, BodyId };

std::string colourModeTitle(ColourMode mode);  // scalar bar title, with unit

// One value per body of the snapshot. Contact force is the sum of the magnitudes of the contact
// forces on a body (net force is near zero in a resting pile, where force chains matter most);
// coordination is its number of contacts. Both come from the contacts of the publishing step.
std::vector<double> bodyValues(const Snapshot& snapshot, ColourMode mode);

}  // namespace grainlab::gui
