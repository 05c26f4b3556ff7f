#pragma once
// Where a wall with prescribed motion is at time t: the rigid map x -> R(t)(x - c) + c + v t.
#include <Eigen/Geometry>

#include "grainlab/scene/scene.hpp"

namespace grainlab {

inline Eigen::Isometry3d wallPlacement(const WallMotion& m, double t) {
    Eigen::Isometry3d placement = Eigen::Isometry3d::Identity();
    const double angle = m.angular_velocity.norm() * t;
    if (angle != 0.0) placement.linear() = Eigen::AngleAxisd(angle, m.angular_velocity.normalized()).toRotationMatrix();
    placement.translation() = m.center - placement.linear() * m.center + m.velocity * t;
    return placement;
}

}  // namespace grainlab
