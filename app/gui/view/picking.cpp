#include "picking.hpp"

#include <cmath>
#include <limits>

namespace grainlab::gui {

std::optional<std::size_t> pickSphere(const Vec3& origin, const Vec3& direction, const std::vector<Vec3>& centres,
                                      const std::vector<double>& radii) {
    const Vec3 d = direction.normalized();
    double nearest = std::numeric_limits<double>::infinity();
    std::optional<std::size_t> hit;
    for (std::size_t i = 0; i < centres.size(); ++i) {
        // |origin + s d - c|^2 = r^2  ->  s = b -+ sqrt(b^2 - |oc|^2 + r^2), b = d.(c - origin)
        const Vec3 oc = centres[i] - origin;
        const double b = d.dot(oc);
        const double disc = b * b - oc.squaredNorm() + radii[i] * radii[i];
        if (disc < 0.0) continue;
        const double root = std::sqrt(disc);
        const double s = b - root > 0.0 ? b - root : b + root;
        if (s > 0.0 && s < nearest) {
            nearest = s;
            hit = i;
        }
    }
    return hit;
}

}  // namespace grainlab::gui
