#include "grainlab/io/vtp_format.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include "grainlab/geometry/polyhedron.hpp"

namespace grainlab {
namespace {

// Blocks are copied as the machine stores them, so the file declares the machine's byte order.
constexpr const char* kByteOrder =
    std::endian::native == std::endian::little ? "LittleEndian" : "BigEndian";

template <class T>
constexpr const char* vtkTypeName() {
    if constexpr (std::is_same_v<T, double>) return "Float64";
    else if constexpr (std::is_same_v<T, std::int64_t>) return "Int64";
    else if constexpr (std::is_same_v<T, std::uint32_t>) return "UInt32";
    else static_assert(sizeof(T) == 0, "no VTK name for this type");
}

std::string formatDouble(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

std::string xmlEscape(std::string_view text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

// Writes one PolyData file in two passes over the same encoding. The layout pass builds the XML
// header, each array's offset in the appended block advancing by its size; the data pass streams
// the array blocks (a UInt64 byte count, then the values) to the sink through a small buffer. A
// frame of 1e6 spheres is 176 MB: built whole in memory it was the run's peak.
class VtpBuilder {
public:
    explicit VtpBuilder(const ByteSink* sink) : sink_(sink) {
        if (sink_) buffer_.reserve(kBufferBytes);
    }

    void line(int indent, std::string_view text) {
        if (sink_) return;
        xml_.append(static_cast<std::size_t>(indent) * 2, ' ');
        xml_ += text;
        xml_ += '\n';
    }

    // An array of `tuples` entries; tuple(i) returns the std::array<T, C> of entry i.
    template <class T, std::size_t C, class Tuple>
    void array(int indent, std::string_view name, std::size_t tuples, Tuple tuple) {
        constexpr std::size_t tuple_bytes = C * sizeof(T);
        const std::uint64_t bytes = tuples * tuple_bytes;
        if (!sink_) {
            std::string tag = "<DataArray type=\"";
            tag += vtkTypeName<T>();
            tag += "\" Name=\"";
            tag += name;
            // NumberOfTuples matters for FieldData, which has no piece size to go by.
            tag += "\" NumberOfComponents=\"" + std::to_string(C) + "\" NumberOfTuples=\"" +
                   std::to_string(tuples) + "\" format=\"appended\" offset=\"" + std::to_string(offset_) + "\"/>";
            line(indent, tag);
            offset_ += sizeof bytes + bytes;
            return;
        }
        append(&bytes, sizeof bytes);
        for (std::size_t i = 0; i < tuples; ++i) {
            const std::array<T, C> values = tuple(i);
            append(values.data(), tuple_bytes);
        }
    }

    // After the layout pass: the header up to the appended data's first byte.
    std::string header() const { return xml_ + "  <AppendedData encoding=\"raw\">\n    _"; }
    static constexpr std::string_view trailer() { return "\n  </AppendedData>\n</VTKFile>\n"; }

    void flush() {
        if (!buffer_.empty()) (*sink_)(buffer_);
        buffer_.clear();
    }

private:
    static constexpr std::size_t kBufferBytes = 1 << 20;
    void append(const void* data, std::size_t size) {
        if (buffer_.size() + size > kBufferBytes) flush();
        buffer_.append(static_cast<const char*>(data), size);
    }
    const ByteSink* sink_;
    std::string xml_;
    std::string buffer_;
    std::uint64_t offset_ = 0;
};

// Runs `body(builder)` twice, once to lay out the header and once to stream the data.
template <class Body>
void writeVtp(const ByteSink& sink, Body body) {
    VtpBuilder layout(nullptr);
    body(layout);
    sink(layout.header());
    VtpBuilder data(&sink);
    body(data);
    data.flush();
    sink(VtpBuilder::trailer());
}

std::string collect(const std::function<void(const ByteSink&)>& write) {
    std::string out;
    write([&](std::string_view bytes) { out += bytes; });
    return out;
}

void beginPolyData(VtpBuilder& vtp, double time, std::size_t points, std::size_t verts,
                   std::size_t lines, std::size_t polys = 0) {
    vtp.line(0, "<?xml version=\"1.0\"?>");
    vtp.line(0, std::string("<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"") +
                    kByteOrder + "\" header_type=\"UInt64\">");
    vtp.line(1, "<PolyData>");
    // ParaView shows TimeValue as the time of a file opened on its own.
    vtp.line(2, "<FieldData>");
    vtp.array<double, 1>(3, "TimeValue", 1, [&](std::size_t) { return std::array{time}; });
    vtp.line(2, "</FieldData>");
    vtp.line(2, "<Piece NumberOfPoints=\"" + std::to_string(points) + "\" NumberOfVerts=\"" +
                    std::to_string(verts) + "\" NumberOfLines=\"" + std::to_string(lines) +
                    "\" NumberOfStrips=\"0\" NumberOfPolys=\"" + std::to_string(polys) + "\">");
}

void endPolyData(VtpBuilder& vtp) {
    vtp.line(2, "</Piece>");
    vtp.line(1, "</PolyData>");
}

// Cells of `points_per_cell` consecutive points each: connectivity 0..n-1, end offsets.
void cellArrays(VtpBuilder& vtp, std::size_t cells, std::size_t points_per_cell) {
    vtp.array<std::int64_t, 1>(4, "connectivity", cells * points_per_cell, [](std::size_t i) {
        return std::array{static_cast<std::int64_t>(i)};
    });
    vtp.array<std::int64_t, 1>(4, "offsets", cells, [&](std::size_t c) {
        return std::array{static_cast<std::int64_t>((c + 1) * points_per_cell)};
    });
}

std::array<double, 3> components(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

// A per-particle array must have one entry per particle; empty means "not recorded".
template <class T>
bool present(std::span<const T> values, std::size_t particles, const char* name) {
    if (values.size() == particles) return true;  // empty frames keep every array
    if (values.empty()) return false;
    throw std::invalid_argument(std::string("Frame ") + name + " has " +
                                std::to_string(values.size()) + " entries for " +
                                std::to_string(particles) + " particles");
}

// Which body each point belongs to and where it is: a sphere is its centre, a polyhedron its
// body-frame mesh turned by the body's orientation and moved to its position. Without polyhedra
// point p is particle p, and nothing is copied (frames of 1e6 particles are hundreds of MB).
class ParticlePoints {
public:
    explicit ParticlePoints(const FrameView& frame);
    std::size_t size() const { return one_per_body_ ? frame_.position.size() : owner_.size(); }
    std::size_t owner(std::size_t p) const { return one_per_body_ ? p : owner_[p]; }
    const Vec3& position(std::size_t p) const { return one_per_body_ ? frame_.position[p] : position_[p]; }
    // No shapes at all: the file has no shape array and no polygons.
    bool spheresOnly() const { return spheres_only_; }
    // Every body a sphere (with or without shapes): points are the bodies themselves, one vertex
    // cell each, and the per-point copies (40 bytes a body, the peak of a large run's frame) are
    // not made.
    bool onePointPerBody() const { return one_per_body_; }
    bool polyhedral(std::size_t body) const { return !spheres_only_ && frame_.polyhedra[frame_.shape[body]]; }
    std::vector<std::int64_t> vert_points, triangle_points;  // cell connectivity (with polyhedra)

private:
    const FrameView& frame_;
    bool spheres_only_;
    bool one_per_body_;
    std::vector<std::size_t> owner_;
    std::vector<Vec3> position_;
};

ParticlePoints::ParticlePoints(const FrameView& frame)
    : frame_(frame), spheres_only_(frame.polyhedra.empty()), one_per_body_(true) {
    if (spheres_only_) return;
    const std::size_t n = frame.position.size();
    if (frame.shape.size() != n || frame.orientation.size() != n)
        throw std::invalid_argument("Frame shape and orientation need one entry per particle to place polyhedra (" +
                                    std::to_string(n) + " particles)");
    for (std::size_t i = 0; i < n; ++i) {
        if (frame.shape[i] >= frame.polyhedra.size())
            throw std::invalid_argument("Frame shape " + std::to_string(frame.shape[i]) + " of particle " +
                                        std::to_string(i) + " has no entry in polyhedra");
        one_per_body_ = one_per_body_ && !frame.polyhedra[frame.shape[i]];
    }
    if (one_per_body_) return;
    for (std::size_t i = 0; i < n; ++i) {
        const auto first = static_cast<std::int64_t>(owner_.size());
        const Polyhedron* shape = frame.polyhedra[frame.shape[i]].get();
        if (!shape) {
            vert_points.push_back(first);
            owner_.push_back(i);
            position_.push_back(frame.position[i]);
            continue;
        }
        for (const Vec3& v : shape->features.vertices) {
            owner_.push_back(i);
            position_.push_back(frame.orientation[i] * v + frame.position[i]);
        }
        for (const auto& t : shape->features.triangles)
            for (const std::uint32_t v : t) triangle_points.push_back(first + v);
    }
}

void connectivity(VtpBuilder& vtp, const std::vector<std::int64_t>& points, std::size_t points_per_cell) {
    vtp.array<std::int64_t, 1>(4, "connectivity", points.size(), [&](std::size_t k) { return std::array{points[k]}; });
    vtp.array<std::int64_t, 1>(4, "offsets", points.size() / points_per_cell, [&](std::size_t c) {
        return std::array{static_cast<std::int64_t>((c + 1) * points_per_cell)};
    });
}

}  // namespace

void writeParticlesVtp(const FrameView& frame, const ByteSink& sink) {
    const std::size_t n = frame.position.size();
    const ParticlePoints pts(frame);
    const std::size_t m = pts.size();
    const std::size_t verts = pts.onePointPerBody() ? n : pts.vert_points.size();
    const std::size_t triangles = pts.triangle_points.size() / 3;
    writeVtp(sink, [&](VtpBuilder& vtp) {
        beginPolyData(vtp, frame.time, m, verts, 0, triangles);

        // Every point carries its body's values, so ParaView colours a polyhedron by its body's id or
        // speed; radius 0 marks surface points, so glyphs scaled by radius draw the spheres only.
        vtp.line(3, "<PointData>");
        auto per_point = [&](std::string_view name, const auto& values) {
            using T = typename std::decay_t<decltype(values)>::value_type;
            if constexpr (std::is_same_v<T, Vec3>)
                vtp.array<double, 3>(4, name, m, [&](std::size_t p) { return components(values[pts.owner(p)]); });
            else
                vtp.array<T, 1>(4, name, m, [&](std::size_t p) { return std::array{values[pts.owner(p)]}; });
        };
        if (present(frame.id, n, "id")) per_point("id", frame.id);
        if (present(frame.radius, n, "radius"))
            vtp.array<double, 1>(4, "radius", m, [&](std::size_t p) {
                const std::size_t i = pts.owner(p);
                return std::array{pts.polyhedral(i) ? 0.0 : frame.radius[i]};
            });
        if (present(frame.material, n, "material")) per_point("material", frame.material);
        if (!pts.spheresOnly()) per_point("shape", frame.shape);
        if (present(frame.velocity, n, "velocity")) {
            per_point("velocity", frame.velocity);
            vtp.array<double, 1>(4, "speed", m, [&](std::size_t p) { return std::array{frame.velocity[pts.owner(p)].norm()}; });
        }
        if (present(frame.angular_velocity, n, "angular_velocity")) per_point("angular_velocity", frame.angular_velocity);
        if (present(frame.force, n, "force")) per_point("force", frame.force);
        if (present(frame.orientation, n, "orientation")) {
            vtp.array<double, 4>(4, "orientation", m, [&](std::size_t p) {
                const Quat& q = frame.orientation[pts.owner(p)];
                return std::array{q.w(), q.x(), q.y(), q.z()};
            });
        }
        vtp.line(3, "</PointData>");

        vtp.line(3, "<Points>");
        vtp.array<double, 3>(4, "Points", m, [&](std::size_t p) { return components(pts.position(p)); });
        vtp.line(3, "</Points>");
        vtp.line(3, "<Verts>");
        if (pts.onePointPerBody()) cellArrays(vtp, n, 1);
        else connectivity(vtp, pts.vert_points, 1);
        vtp.line(3, "</Verts>");
        if (!pts.spheresOnly()) {
            vtp.line(3, "<Polys>");
            connectivity(vtp, pts.triangle_points, 3);
            vtp.line(3, "</Polys>");
        }
        endPolyData(vtp);
    });
}

std::string encodeParticlesVtp(const Frame& frame) {
    return collect([&](const ByteSink& sink) { writeParticlesVtp(viewOf(frame), sink); });
}

void writeContactsVtp(const FrameView& frame, const ByteSink& sink) {
    const std::span<const FrameContact> contacts = frame.contacts;
    const std::size_t n = contacts.size();
    writeVtp(sink, [&](VtpBuilder& vtp) {
        beginPolyData(vtp, frame.time, 2 * n, 0, n);

        vtp.line(3, "<CellData>");
        auto per_contact = [&](std::string_view name, auto value) {
            using T = decltype(value(contacts.front()));
            vtp.array<T, 1>(4, name, n, [&](std::size_t k) { return std::array{value(contacts[k])}; });
        };
        vtp.array<double, 3>(4, "force", n,
                             [&](std::size_t k) { return components(contacts[k].force); });
        per_contact("force_magnitude", [](const FrameContact& c) { return c.force.norm(); });
        per_contact("overlap", [](const FrameContact& c) { return c.overlap; });
        per_contact("body_a", [](const FrameContact& c) { return c.body_a; });
        per_contact("body_b", [](const FrameContact& c) { return c.body_b; });
        vtp.line(3, "</CellData>");

        vtp.line(3, "<Points>");  // point 2k is contact k's point_a, point 2k+1 its point_b
        vtp.array<double, 3>(4, "Points", 2 * n, [&](std::size_t p) {
            const FrameContact& c = contacts[p / 2];
            return components(p % 2 == 0 ? c.point_a : c.point_b);
        });
        vtp.line(3, "</Points>");
        vtp.line(3, "<Lines>");
        cellArrays(vtp, n, 2);
        vtp.line(3, "</Lines>");
        endPolyData(vtp);
    });
}

std::string encodeContactsVtp(const Frame& frame) {
    return collect([&](const ByteSink& sink) { writeContactsVtp(viewOf(frame), sink); });
}

std::string encodePvd(const std::vector<CollectionEntry>& entries) {
    std::string out = "<?xml version=\"1.0\"?>\n";
    out += std::string("<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"") +
           kByteOrder + "\">\n  <Collection>\n";
    for (const CollectionEntry& e : entries) {
        out += "    <DataSet timestep=\"" + formatDouble(e.time) +
               "\" group=\"\" part=\"0\" file=\"" + xmlEscape(e.file) + "\"/>\n";
    }
    out += "  </Collection>\n</VTKFile>\n";
    return out;
}

}  // namespace grainlab
