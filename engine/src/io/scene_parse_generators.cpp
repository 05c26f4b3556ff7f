// Generators: random fills of a region and regular lattices.
#include "scene_parse.hpp"

namespace grainlab::scene_parse {

using json_fields::Range;

namespace {

// Far more than a run can handle; the limit only keeps counts from overflowing.
constexpr long long kMaxGeneratedBodies = 100'000'000;

// Fails unless `choice` (the value of `key`, at `at`) is one of `choices`.
std::string checkChoice(const std::string& file, const std::string& at, const std::string& key,
                        const std::string& choice, const std::vector<std::string>& choices) {
    for (const auto& c : choices)
        if (c == choice) return choice;
    std::string message = "unknown " + key + " '" + choice + "'";
    if (auto guess = json_fields::closestName(choice, choices))
        message += " (did you mean '" + *guess + "'?)";
    json_fields::fail(file, at, message + "; expected one of: " + json_fields::joinNames(choices));
}

// A field whose value picks which other fields are allowed ("type", "distribution"): read it
// before the object is checked against a list of allowed names.
std::string selector(const std::string& file, const std::string& pointer, const Json& value,
                     const std::string& key, const std::vector<std::string>& choices) {
    if (!value.is_object()) json_fields::failType(file, pointer, "an object", value);
    const std::string at = json_fields::child(pointer, key);
    auto it = value.find(key);
    if (it == value.end())
        json_fields::fail(file, at,
                          "missing required field '" + key +
                              "'; expected one of: " + json_fields::joinNames(choices));
    return checkChoice(file, at, key, json_fields::asString(file, at, *it), choices);
}

SizeDistribution parseRadius(const Object& fields) {
    const Json& value = fields.required("radius");
    const std::string pointer = fields.at("radius");
    SizeDistribution size;
    if (value.is_number()) {
        size.kind = SizeDistribution::Kind::Constant;
        size.value = json_fields::asNumber(fields.file(), pointer, value, Range::above(0));
        size.min = size.max = size.mean = size.value;
        return size;
    }
    if (!value.is_object())
        json_fields::failType(fields.file(), pointer,
                              "a number or an object with a \"distribution\"", value);
    const std::string kind =
        selector(fields.file(), pointer, value, "distribution", {"uniform", "normal"});
    if (kind == "uniform") {
        const Object d(fields.file(), pointer, value, {"distribution", "min", "max"});
        size.kind = SizeDistribution::Kind::Uniform;
        size.min = d.number("min", Range::above(0));
        size.max = d.number("max", Range::atLeast(size.min));
        size.mean = 0.5 * (size.min + size.max);
    } else {
        const Object d(fields.file(), pointer, value,
                       {"distribution", "mean", "stddev", "min", "max"});
        size.kind = SizeDistribution::Kind::Normal;
        size.mean = d.number("mean", Range::above(0));
        size.stddev = d.number("stddev", Range::atLeast(0));
        size.min = d.number("min", Range::closed(0, size.mean));
        if (!(size.min > 0)) d.fail("min", "expected a number greater than 0, found 0");
        size.max = d.number("max", Range::atLeast(size.mean));
    }
    size.value = size.mean;
    return size;
}

Region parseRegion(const Object& fields) {
    const Object region = fields.object("region", {"box", "cylinder"});
    if (region.has("box") == region.has("cylinder"))
        json_fields::fail(fields.file(), region.pointer(),
                          "expected exactly one of \"box\" or \"cylinder\"");
    if (region.has("box")) {
        const Object box = region.object("box", {"min", "max"});
        BoxRegion out;
        out.min = box.vec3("min");
        out.max = box.vec3("max");
        for (int k = 0; k < 3; ++k)
            if (!(out.max[k] > out.min[k]))
                box.fail("max", "expected max greater than min on every axis; on " +
                                    std::string(1, "xyz"[k]) + " max is " +
                                    json_fields::formatNumber(out.max[k]) + " and min is " +
                                    json_fields::formatNumber(out.min[k]));
        return out;
    }
    const Object cylinder = region.object("cylinder", {"base_center", "axis", "radius", "height"});
    CylinderRegion out;
    out.base_center = cylinder.vec3("base_center");
    out.axis = cylinder.direction("axis", out.axis);
    out.radius = cylinder.number("radius", Range::above(0));
    out.height = cylinder.number("height", Range::above(0));
    return out;
}

void commonFields(const Object& fields, Context& context, std::string& shape, std::string& material,
                  Vec3& velocity, bool& frozen) {
    shape = fields.string("shape", shape);
    context.requireShape(fields.at("shape"), shape);
    material = fields.name("material");
    context.requireMaterial(fields.at("material"), material);
    velocity = fields.vec3("velocity", velocity);
    frozen = fields.boolean("frozen", frozen);
}

void parseRandomFill(const Object& fields, int index, Context& context) {
    RandomFill fill;
    fill.source_index = index;
    commonFields(fields, context, fill.shape, fill.material, fill.velocity, fill.frozen);
    const long long count = fields.integer("count", Range::atLeast(1));
    if (count > kMaxGeneratedBodies)
        fields.fail("count", "expected at most " + std::to_string(kMaxGeneratedBodies) +
                                 " bodies per generator, found " + std::to_string(count));
    fill.count = static_cast<int>(count);
    fill.seed = fields.has("seed") ? json_fields::asUnsigned(fields.file(), fields.at("seed"),
                                                             fields.required("seed"))
                                   : fill.seed;
    fill.radius = parseRadius(fields);
    fill.region = parseRegion(fields);
    context.scene.fills.push_back(fill);
}

void parseLattice(const Object& fields, int index, Context& context) {
    Lattice lattice;
    lattice.source_index = index;
    commonFields(fields, context, lattice.shape, lattice.material, lattice.velocity,
                 lattice.frozen);
    const std::string kind = checkChoice(fields.file(), fields.at("kind"), "kind",
                                         fields.string("kind"), {"simple_cubic", "hcp"});
    lattice.kind = kind == "hcp" ? Lattice::Kind::HexagonalClosePacked : Lattice::Kind::SimpleCubic;
    lattice.origin = fields.vec3("origin", lattice.origin);
    const Json& counts = fields.required("counts");
    if (!counts.is_array() || counts.size() != 3)
        json_fields::failType(fields.file(), fields.at("counts"),
                              "an array of 3 whole numbers [nx, ny, nz]", counts);
    long long total = 1;
    for (std::size_t k = 0; k < 3; ++k) {
        const long long n =
            json_fields::asInteger(fields.file(), json_fields::child(fields.at("counts"), k),
                                   counts[k], Range::atLeast(1));
        total = n > kMaxGeneratedBodies ? kMaxGeneratedBodies + 1 : total * n;
        if (total > kMaxGeneratedBodies)
            fields.fail("counts", "expected at most " + std::to_string(kMaxGeneratedBodies) +
                                      " bodies per generator; these counts give more");
        lattice.counts[k] = static_cast<int>(n);
    }
    lattice.radius = fields.number("radius", Range::above(0));
    lattice.spacing = fields.number("spacing", Range::above(0));
    if (lattice.spacing < 2.0 * lattice.radius)
        fields.fail("spacing", "expected a spacing of at least the diameter " +
                                   json_fields::formatNumber(2.0 * lattice.radius) + ", found " +
                                   json_fields::formatNumber(lattice.spacing) +
                                   ": neighbours would overlap");
    context.scene.lattices.push_back(lattice);
}

}  // namespace

void parseGenerators(const Object& top, Context& context) {
    const Json* list = top.find("generators");
    if (!list) return;
    const std::string pointer = top.at("generators");
    json_fields::asArray(context.file, pointer, *list);
    for (std::size_t k = 0; k < list->size(); ++k) {
        const std::string at = json_fields::child(pointer, k);
        const Json& value = (*list)[k];
        const std::string type =
            selector(context.file, at, value, "type", {"random_fill", "lattice"});
        if (type == "random_fill") {
            parseRandomFill(Object(context.file, at, value,
                                   {"type", "shape", "material", "count", "seed", "radius",
                                    "region", "velocity", "frozen"}),
                            static_cast<int>(k), context);
        } else {
            parseLattice(Object(context.file, at, value,
                                {"type", "kind", "shape", "material", "origin", "counts", "radius",
                                 "spacing", "velocity", "frozen"}),
                         static_cast<int>(k), context);
        }
    }
}

}  // namespace grainlab::scene_parse
