#include "grainlab/io/frame.hpp"

namespace grainlab {

FrameView viewOf(const Frame& f) {
    return {f.step, f.time, f.id, f.radius, f.material, f.shape, f.position, f.velocity, f.angular_velocity,
            f.force, f.orientation, f.contacts, f.polyhedra};
}

Frame copyOf(const FrameView& v) {
    Frame f;
    f.step = v.step;
    f.time = v.time;
    f.id.assign(v.id.begin(), v.id.end());
    f.radius.assign(v.radius.begin(), v.radius.end());
    f.material.assign(v.material.begin(), v.material.end());
    f.shape.assign(v.shape.begin(), v.shape.end());
    f.position.assign(v.position.begin(), v.position.end());
    f.velocity.assign(v.velocity.begin(), v.velocity.end());
    f.angular_velocity.assign(v.angular_velocity.begin(), v.angular_velocity.end());
    f.force.assign(v.force.begin(), v.force.end());
    f.orientation.assign(v.orientation.begin(), v.orientation.end());
    f.contacts.assign(v.contacts.begin(), v.contacts.end());
    f.polyhedra.assign(v.polyhedra.begin(), v.polyhedra.end());
    return f;
}

}  // namespace grainlab
