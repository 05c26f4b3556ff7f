#pragma once
// Number formatting shared by the docks.
#include <QString>

#include "grainlab/core/math.hpp"

namespace grainlab::gui {

inline QString formatVector(const Vec3& v, int digits = 5) {
    return QString("(%1, %2, %3)").arg(v.x(), 0, 'g', digits).arg(v.y(), 0, 'g', digits).arg(v.z(), 0, 'g', digits);
}

}  // namespace grainlab::gui
