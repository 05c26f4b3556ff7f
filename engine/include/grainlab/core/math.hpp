#pragma once
// Vector and rotation types used throughout the engine.
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace grainlab {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;

inline constexpr double kPi = 3.14159265358979323846;

}  // namespace grainlab
