#pragma once
// One output frame: a copy of what a person or ParaView looks at, taken between steps.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "grainlab/core/math.hpp"

namespace grainlab {

struct Polyhedron;  // grainlab/geometry/polyhedron.hpp

struct FrameContact {
    std::int64_t body_a = 0, body_b = -1;  // body ids; body_b < 0: a wall (index -1 - body_b)
    Vec3 point_a = Vec3::Zero(), point_b = Vec3::Zero();  // ends of the line drawn (centres / wall point)
    Vec3 force = Vec3::Zero();             // force on body a
    double overlap = 0.0;
};

struct Frame {
    long step = 0;
    double time = 0.0;
    std::vector<std::int64_t> id;
    std::vector<double> radius;
    std::vector<std::uint32_t> material;
    std::vector<std::uint32_t> shape;      // index into the scene's shapes
    std::vector<Vec3> position, velocity, angular_velocity, force;
    std::vector<Quat> orientation;
    std::vector<FrameContact> contacts;
    // Per shape index: the body-frame mesh of a polyhedral shape, null for spheres. Empty: every
    // body is drawn as a sphere. Shared, so a frame stays valid after the simulation is gone.
    std::vector<std::shared_ptr<const Polyhedron>> polyhedra;
};

// The same fields borrowed: spans over arrays kept elsewhere (a simulation's, valid until it next
// changes). The frame writer reads these, so writing a frame copies no per-body array.
struct FrameView {
    long step = 0;
    double time = 0.0;
    std::span<const std::int64_t> id;
    std::span<const double> radius;
    std::span<const std::uint32_t> material;
    std::span<const std::uint32_t> shape;
    std::span<const Vec3> position, velocity, angular_velocity, force;
    std::span<const Quat> orientation;
    std::span<const FrameContact> contacts;
    std::span<const std::shared_ptr<const Polyhedron>> polyhedra;
};

FrameView viewOf(const Frame& frame);
Frame copyOf(const FrameView& view);

// One row of the time series written every step that output is due.
struct EnergyRecord {
    long step = 0;
    double time = 0.0;
    double kinetic = 0.0;          // sum 1/2 m v^2
    double rotational = 0.0;       // sum 1/2 w.I.w
    double gravitational = 0.0;    // sum -m g.x (relative to the origin)
    double elastic = 0.0;          // energy stored in contact springs
    double dissipated = 0.0;       // cumulative work dissipated by damping and friction
    double total() const { return kinetic + rotational + gravitational + elastic + dissipated; }
    std::size_t contacts = 0;
    int solver_iterations = 0;     // contact dynamics: iterations of the last step's solve (0: DEM)
    double solver_residual = 0.0;  // and its relative residual
};

}  // namespace grainlab
