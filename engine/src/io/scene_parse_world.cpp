// What surrounds and seeds the bodies: LAMMPS data, walls, the domain box.
#include <algorithm>
#include <limits>
#include <unordered_map>

#include "grainlab/io/scene_file.hpp"
#include "scene_parse.hpp"

namespace grainlab::scene_parse {

using json_fields::Range;

void parseLammpsData(const Object& top, Context& context) {
    if (!top.has("lammps_data")) return;
    const Object fields = top.object("lammps_data", {"file", "material_by_type", "frozen_types"});
    LammpsDataSource data;
    data.file = context.resolvePath(fields.at("file"), fields.name("file"), true);

    // The keys are atom types, so they are checked as numbers rather than against a list of names.
    const Json& types = fields.required("material_by_type");
    if (!types.is_object())
        json_fields::failType(context.file, fields.at("material_by_type"),
                              "an object {\"type\": \"material\"}", types);
    for (const auto& member : types.items()) {
        const std::string at = json_fields::child(fields.at("material_by_type"), member.key());
        const std::string& key = member.key();
        const bool digits =
            !key.empty() && key.size() <= 9 &&
            std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!digits || std::stoi(key) < 1)
            json_fields::fail(
                context.file, at,
                "expected an atom type (a whole number of at least 1) as the key, found '" + key +
                    "'");
        const std::string material = json_fields::asName(context.file, at, member.value());
        context.requireMaterial(at, material);
        data.material_by_type[std::stoi(key)] = material;
    }

    if (const Json* frozen = fields.find("frozen_types")) {
        json_fields::asArray(context.file, fields.at("frozen_types"), *frozen);
        for (std::size_t k = 0; k < frozen->size(); ++k) {
            const std::string at = json_fields::child(fields.at("frozen_types"), k);
            const long long type =
                json_fields::asInteger(context.file, at, (*frozen)[k], Range::atLeast(1));
            if (type > std::numeric_limits<int>::max() ||
                !data.material_by_type.count(static_cast<int>(type)))
                json_fields::fail(context.file, at,
                                  "atom type " + std::to_string(type) + " has no material in " +
                                      fields.at("material_by_type"));
            data.frozen_types.push_back(static_cast<int>(type));
        }
    }
    context.scene.lammps_data = data;
}

namespace {

WallMotion parseMotion(const Object& wall) {
    WallMotion motion;
    if (!wall.has("motion")) return motion;
    const Object fields =
        wall.object("motion", {"velocity", "angular_velocity", "center", "surface_velocity"});
    motion.velocity = fields.vec3("velocity", motion.velocity);
    motion.angular_velocity = fields.vec3("angular_velocity", motion.angular_velocity);
    motion.center = fields.vec3("center", motion.center);
    motion.surface_velocity = fields.vec3("surface_velocity", motion.surface_velocity);
    return motion;
}

}  // namespace

void parseWalls(const Object& top, Context& context) {
    const Json* list = top.find("walls");
    if (!list) return;
    const std::string pointer = top.at("walls");
    json_fields::asArray(context.file, pointer, *list);
    std::unordered_map<std::string, std::size_t> names;
    for (std::size_t k = 0; k < list->size(); ++k) {
        const std::string at = json_fields::child(pointer, k);
        const Json& value = (*list)[k];
        if (!value.is_object()) json_fields::failType(context.file, at, "an object", value);
        auto type_it = value.find("type");
        const std::string type_at = json_fields::child(at, "type");
        if (type_it == value.end())
            json_fields::fail(context.file, type_at,
                              "missing required field 'type'; expected one of: plane, mesh");
        const std::string type = json_fields::asString(context.file, type_at, *type_it);
        if (type != "plane" && type != "mesh")
            json_fields::fail(context.file, type_at,
                              "unknown wall type '" + type + "'; expected one of: plane, mesh");

        const Object fields =
            type == "plane"
                ? Object(context.file, at, value,
                         {"type", "name", "point", "normal", "material", "motion", "remove_at"})
                : Object(context.file, at, value,
                         {"type", "name", "file", "scale", "translation", "material", "motion"});
        const std::string name =
            fields.has("name") ? fields.name("name") : "wall-" + std::to_string(k);
        if (auto [it, fresh] = names.emplace(name, k); !fresh)
            fields.fail("name", "duplicate wall name '" + name + "' (also used at " +
                                    json_fields::child(pointer, it->second) + ")");
        const std::string material = fields.name("material");
        context.requireMaterial(fields.at("material"), material);

        if (type == "plane") {
            PlaneWall wall;
            wall.name = name;
            wall.material = material;
            wall.point = fields.vec3("point");
            wall.normal = fields.direction("normal");
            wall.motion = parseMotion(fields);
            wall.remove_at = fields.number("remove_at", wall.remove_at, Range::atLeast(0));
            context.scene.planes.push_back(wall);
        } else {
            MeshWall wall;
            wall.name = name;
            wall.material = material;
            wall.file = context.resolvePath(fields.at("file"), fields.name("file"), true);
            wall.scale = fields.number("scale", wall.scale, Range::above(0));
            wall.translation = fields.vec3("translation", wall.translation);
            wall.motion = parseMotion(fields);
            context.scene.meshes.push_back(wall);
        }
    }
}

void parseDomain(const Object& top, Context& context) {
    Domain& domain = context.scene.domain;
    if (!top.has("domain")) {
        domain.min = Vec3::Constant(-kDefaultDomainHalfWidth);
        domain.max = Vec3::Constant(kDefaultDomainHalfWidth);
        return;
    }
    const Object fields = top.object("domain", {"min", "max", "periodic"});
    domain.min = fields.vec3("min");
    domain.max = fields.vec3("max");
    for (int k = 0; k < 3; ++k)
        if (!(domain.max[k] > domain.min[k]))
            fields.fail("max", "expected max greater than min on every axis; on " +
                                   std::string(1, "xyz"[k]) + " max is " +
                                   json_fields::formatNumber(domain.max[k]) + " and min is " +
                                   json_fields::formatNumber(domain.min[k]));
    if (const Json* periodic = fields.find("periodic")) {
        if (!periodic->is_array() || periodic->size() != 3)
            json_fields::failType(context.file, fields.at("periodic"),
                                  "an array of 3 booleans [x, y, z]", *periodic);
        for (std::size_t k = 0; k < 3; ++k)
            domain.periodic[k] = json_fields::asBool(
                context.file, json_fields::child(fields.at("periodic"), k), (*periodic)[k]);
    }
}

}  // namespace grainlab::scene_parse
