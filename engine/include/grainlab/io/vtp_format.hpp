#pragma once
// Encoders for the VTK XML files ParaView reads: PolyData (.vtp) with raw binary appended data
// (UInt64 block headers, Float64 values) and collection files (.pvd) that list time steps.
// The write* functions stream a file's bytes to a sink (FrameSeriesWriter's goes to disk); the
// encode* ones collect them in a string.
#include <functional>
#include <string>
#include <vector>

#include "grainlab/io/byte_sink.hpp"

#include "grainlab/io/frame.hpp"

namespace grainlab {

// Spheres: one point and one vertex cell each. Polyhedra (frame.polyhedra set): their mesh
// turned by the body's orientation and moved to its position, one triangle cell (Polys) per mesh
// triangle. Point data, each point carrying its body's values: id, radius (0 on polyhedra, so
// glyphs scaled by radius draw the spheres only), material, shape (with polyhedra), velocity,
// speed, angular_velocity, force, orientation (w x y z). Per-particle arrays left empty in the
// frame are omitted; any other size than position.size() throws std::invalid_argument.
// Throws before the first byte reaches the sink.
void writeParticlesVtp(const FrameView& frame, const ByteSink& sink);
std::string encodeParticlesVtp(const Frame& frame);

// One line cell per contact, from point_a to point_b. Cell data: force, force_magnitude,
// overlap, body_a, body_b.
void writeContactsVtp(const FrameView& frame, const ByteSink& sink);
std::string encodeContactsVtp(const Frame& frame);

struct CollectionEntry {
    double time = 0.0;
    std::string file;  // relative to the folder holding the .pvd
};

// A ParaView collection (.pvd) listing `entries` in the given order.
std::string encodePvd(const std::vector<CollectionEntry>& entries);

}  // namespace grainlab
