// Materials, particle shapes and explicitly listed bodies.
#include <cmath>
#include <limits>
#include <unordered_map>

#include "scene_parse.hpp"

namespace grainlab::scene_parse {

using json_fields::Range;

void parseMaterials(const Object& top, Context& context) {
    const Json* list = top.find("materials");
    if (!list) return;
    const std::string pointer = top.at("materials");
    json_fields::asArray(context.file, pointer, *list);
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t k = 0; k < list->size(); ++k) {
        const Object fields(context.file, json_fields::child(pointer, k), (*list)[k],
                            {"name", "density", "youngs_modulus", "poisson_ratio", "restitution",
                             "friction", "rolling_friction"});
        Material m;
        m.name = fields.name("name");
        if (auto [it, fresh] = seen.emplace(m.name, k); !fresh)
            fields.fail("name", "duplicate material name '" + m.name + "' (also defined at " +
                                    json_fields::child(pointer, it->second) + ")");
        m.density = fields.number("density", Range::above(0));
        m.youngs_modulus = fields.number("youngs_modulus", m.youngs_modulus, Range::above(0));
        m.poisson_ratio = fields.number("poisson_ratio", m.poisson_ratio, Range::open(-1, 0.5));
        m.restitution = fields.number("restitution", m.restitution, Range::openClosed(0, 1));
        m.friction = fields.number("friction", m.friction, Range::atLeast(0));
        m.rolling_friction =
            fields.number("rolling_friction", m.rolling_friction, Range::atLeast(0));
        context.scene.materials.push_back(m);
    }
}

void parseShapes(const Object& top, Context& context) {
    const Json* list = top.find("shapes");
    if (!list) return;
    const std::string pointer = top.at("shapes");
    json_fields::asArray(context.file, pointer, *list);
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t k = 0; k < list->size(); ++k) {
        const Object fields(context.file, json_fields::child(pointer, k), (*list)[k],
                            {"name", "kind", "file", "scale", "repair_orientation"});
        ShapeSpec shape;
        shape.name = fields.name("name");
        if (auto [it, fresh] = seen.emplace(shape.name, k); !fresh)
            fields.fail("name", "duplicate shape name '" + shape.name + "' (also defined at " +
                                    json_fields::child(pointer, it->second) + ")");
        const std::string kind = fields.string("kind");
        if (kind == "sphere") {
            shape.kind = ShapeSpec::Kind::Sphere;
            for (const char* key : {"file", "scale", "repair_orientation"})
                if (fields.has(key))
                    fields.fail(key, std::string("'") + key + "' applies to polyhedron shapes only");
        } else if (kind == "polyhedron") {
            shape.kind = ShapeSpec::Kind::Polyhedron;
            shape.file = context.resolvePath(fields.at("file"), fields.name("file"), true);
            shape.scale = fields.number("scale", shape.scale, Range::above(0));
            shape.repair_orientation = fields.boolean("repair_orientation", false);
        } else {
            fields.fail("kind", "unknown shape kind '" + kind + "'; supported kinds: sphere, polyhedron");
        }
        // The built-in "sphere" may be listed for clarity; it is not a second definition.
        bool builtin = false;
        for (const auto& existing : context.scene.shapes)
            if (existing.name == shape.name && existing.kind == shape.kind) builtin = true;
        if (builtin) continue;
        for (const auto& existing : context.scene.shapes)
            if (existing.name == shape.name)
                fields.fail("name",
                            "shape name '" + shape.name + "' is built in with another kind");
        context.scene.shapes.push_back(shape);
    }
}

namespace {

// [w, x, y, z]; a non-unit quaternion is normalised, a zero one is an error.
Quat parseOrientation(const Object& fields) {
    const Json* value = fields.find("orientation");
    if (!value) return Quat::Identity();
    const std::string pointer = fields.at("orientation");
    if (!value->is_array() || value->size() != 4)
        json_fields::failType(fields.file(), pointer, "an array of 4 numbers [w, x, y, z]", *value);
    double c[4];
    for (std::size_t k = 0; k < 4; ++k)
        c[k] = json_fields::asNumber(fields.file(), json_fields::child(pointer, k), (*value)[k]);
    Quat q(c[0], c[1], c[2], c[3]);
    const double n2 = q.squaredNorm();
    if (!(n2 > 0.0))
        fields.fail("orientation",
                    "expected a non-zero quaternion [w, x, y, z], found [0, 0, 0, 0]");
    if (std::fabs(n2 - 1.0) > 4.0 * std::numeric_limits<double>::epsilon()) q.normalize();
    return q;
}

}  // namespace

void parseBodies(const Object& top, Context& context) {
    const Json* list = top.find("bodies");
    if (!list) return;
    const std::string pointer = top.at("bodies");
    json_fields::asArray(context.file, pointer, *list);
    std::unordered_map<std::int64_t, std::size_t> ids;
    context.scene.bodies.reserve(list->size());
    for (std::size_t k = 0; k < list->size(); ++k) {
        const Object fields(context.file, json_fields::child(pointer, k), (*list)[k],
                            {"shape", "material", "radius", "position", "velocity",
                             "angular_velocity", "orientation", "frozen", "id"});
        BodySpec body;
        body.shape = fields.string("shape", body.shape);
        context.requireShape(fields.at("shape"), body.shape);
        body.material = fields.name("material");
        context.requireMaterial(fields.at("material"), body.material);
        // A polyhedron's size comes from its mesh and scale; a sphere needs its radius.
        if (context.shapeIsPolyhedron(body.shape)) {
            if (fields.has("radius"))
                fields.fail("radius", "shape '" + body.shape +
                                          "' is a polyhedron: its size comes from the mesh and the shape's scale");
            body.radius = 0.0;
        } else {
            body.radius = fields.number("radius", Range::above(0));
        }
        body.position = fields.vec3("position");
        body.velocity = fields.vec3("velocity", body.velocity);
        body.angular_velocity = fields.vec3("angular_velocity", body.angular_velocity);
        body.orientation = parseOrientation(fields);
        body.frozen = fields.boolean("frozen", body.frozen);
        if (fields.has("id")) {
            body.id = fields.integer("id", Range::atLeast(1));
            if (auto [it, fresh] = ids.emplace(body.id, k); !fresh)
                fields.fail("id", "duplicate body id " + std::to_string(body.id) +
                                      " (also used at " + json_fields::child(pointer, it->second) +
                                      "/id)");
        }
        context.scene.bodies.push_back(body);
    }
}

}  // namespace grainlab::scene_parse
