#pragma once
// Bodies as a structure of arrays: what the force loop streams through.
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "grainlab/core/math.hpp"

namespace grainlab {

struct Bodies {
    // Constant per body while it exists.
    std::vector<std::int64_t> id;        // user-visible id
    std::vector<std::uint32_t> shape;    // index into Scene::shapes
    std::vector<std::uint32_t> material; // index into Scene::materials
    std::vector<double> radius;          // sphere radius / bounding radius
    std::vector<double> mass, inv_mass;  // inv_mass = 0 for frozen bodies
    std::vector<Vec3> inertia, inv_inertia;  // principal moments in the body frame
    // inv_inertia's common value where its three are equal (spheres), NaN where not: all a kick
    // reads of a sphere's inertia, 8 bytes a body instead of 24 (docs/performance.md). Derived:
    // push, the spatial sort and a checkpoint's restore keep it; whatever else sets inv_inertia
    // calls deriveIsotropicInertia (a kick falls back to the moments only where the sizes differ).
    std::vector<double> isotropic_inv_inertia;
    std::vector<std::uint8_t> frozen;

    // Changed by every step.
    std::vector<Vec3> position;
    std::vector<Quat> orientation;
    std::vector<Vec3> velocity;
    std::vector<Vec3> angular_velocity;  // world frame
    std::vector<Vec3> force;
    std::vector<Vec3> torque;
    std::vector<std::array<int, 3>> image;  // periodic box crossings, for unwrapped positions

    // Per shape: 1 where bodies of that shape keep their orientation (spheres, when the scene does
    // not track theirs). Shapes past its end turn; empty when every body turns.
    std::vector<std::uint8_t> shape_keeps_orientation;
    bool keepsOrientation(std::size_t i) const {
        if (shape_keeps_orientation.empty()) return false;
        const std::uint32_t s = shape[i];
        return s < shape_keeps_orientation.size() && shape_keeps_orientation[s] != 0;
    }
    // True where the shapes [0, shapes), all the bodies have, keep their orientation: a drift need
    // not read the bodies' shapes (4 bytes a body) to find none turns.
    bool everyShapeKeepsOrientation(std::size_t shapes) const {
        if (shape_keeps_orientation.empty() || shape_keeps_orientation.size() < shapes) return false;
        for (std::size_t s = 0; s < shapes; ++s)
            if (shape_keeps_orientation[s] == 0) return false;
        return true;
    }

    // The common value of three principal moments where they are equal, NaN where not: what
    // isotropic_inv_inertia holds per body, and what a kick finds where that array is missing.
    static double isotropicValue(const Vec3& moments) {
        return moments[0] == moments[1] && moments[1] == moments[2] ? moments[0]
                                                                    : std::numeric_limits<double>::quiet_NaN();
    }

    std::size_t size() const { return position.size(); }
    void reserve(std::size_t n);
    void resizeDynamics();  // sizes force/torque to match positions, zeroed
    void deriveIsotropicInertia();  // isotropic_inv_inertia from inv_inertia
    void push(std::int64_t body_id, std::uint32_t shape_index, std::uint32_t material_index,
              double body_radius, double body_mass, const Vec3& principal_inertia, bool is_frozen,
              const Vec3& x, const Quat& q, const Vec3& v, const Vec3& w);
};

}  // namespace grainlab
