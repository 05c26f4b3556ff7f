#include "json_fields.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include "grainlab/core/error.hpp"

namespace grainlab::json_fields {

bool Range::contains(double x) const {
    if (lo && (lo_open ? !(x > *lo) : !(x >= *lo))) return false;
    if (hi && (hi_open ? !(x < *hi) : !(x <= *hi))) return false;
    return true;
}

std::string Range::describe() const {
    if (lo && hi)
        return std::string("in ") + (lo_open ? "(" : "[") + formatNumber(*lo) + ", " +
               formatNumber(*hi) + (hi_open ? ")" : "]");
    if (lo) return (lo_open ? "greater than " : "at least ") + formatNumber(*lo);
    if (hi) return (hi_open ? "less than " : "at most ") + formatNumber(*hi);
    return "";
}

std::string child(const std::string& pointer, std::string_view key) {
    std::string out = pointer + "/";
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string child(const std::string& pointer, std::size_t index) {
    return pointer + "/" + std::to_string(index);
}

std::string formatNumber(double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.10g", x);
    return buffer;
}

std::string describe(const Json& value) {
    switch (value.type()) {
        case Json::value_t::null:
            return "null";
        case Json::value_t::boolean:
            return value.get<bool>() ? "true" : "false";
        case Json::value_t::number_integer:
        case Json::value_t::number_unsigned:
            return "the number " + value.dump();
        case Json::value_t::number_float:
            return "the number " + formatNumber(value.get<double>());
        case Json::value_t::string: {
            std::string text = value.get<std::string>();
            if (text.size() > 40) text = text.substr(0, 37) + "...";
            return "a string \"" + text + "\"";
        }
        case Json::value_t::array:
            return value.empty() ? "an empty array"
                                 : "an array of " + std::to_string(value.size()) +
                                       (value.size() == 1 ? " element" : " elements");
        case Json::value_t::object:
            return "an object";
        default:
            return "an unsupported value";
    }
}

std::string joinNames(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
    return out;
}

namespace {

std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                              std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

bool isWhole(double x) {
    return std::isfinite(x) && std::floor(x) == x;
}

}  // namespace

std::optional<std::string> closestName(std::string_view name,
                                       const std::vector<std::string>& candidates) {
    std::optional<std::string> best;
    std::size_t best_distance = std::numeric_limits<std::size_t>::max();
    for (const auto& candidate : candidates) {
        const std::size_t d = editDistance(name, candidate);
        if (d < best_distance) best_distance = d, best = candidate;
    }
    // A typo changes a few letters; beyond that a suggestion misleads more than it helps.
    const std::size_t limit = std::max<std::size_t>(2, name.size() / 3);
    if (!best || best_distance > limit) return std::nullopt;
    return best;
}

void fail(const std::string& file, const std::string& pointer, const std::string& message) {
    throw InputError(file, pointer, message);
}

void failType(const std::string& file, const std::string& pointer, std::string_view expected,
              const Json& found) {
    fail(file, pointer, "expected " + std::string(expected) + ", found " + describe(found));
}

double asNumber(const std::string& file, const std::string& pointer, const Json& value,
                const Range& range) {
    if (!value.is_number()) failType(file, pointer, "a number", value);
    const double x = value.get<double>();
    if (!std::isfinite(x))
        fail(file, pointer, "expected a finite number, found " + formatNumber(x));
    if (!range.contains(x))
        fail(file, pointer, "expected a number " + range.describe() + ", found " + formatNumber(x));
    return x;
}

long long asInteger(const std::string& file, const std::string& pointer, const Json& value,
                    const Range& range) {
    if (!value.is_number()) failType(file, pointer, "a whole number", value);
    long long n = 0;
    if (value.is_number_unsigned()) {
        if (value.get<std::uint64_t>() >
            static_cast<std::uint64_t>(std::numeric_limits<long long>::max()))
            fail(file, pointer,
                 "expected a whole number, found " + value.dump() + ", which is too large");
        n = static_cast<long long>(value.get<std::uint64_t>());
    } else if (value.is_number_integer()) {
        n = value.get<long long>();
    } else {
        const double x = value.get<double>();
        if (!isWhole(x) || std::fabs(x) > 9.0e15)
            fail(file, pointer, "expected a whole number, found " + formatNumber(x));
        n = static_cast<long long>(x);
    }
    if (!range.contains(static_cast<double>(n)))
        fail(file, pointer,
             "expected a whole number " + range.describe() + ", found " + std::to_string(n));
    return n;
}

std::uint64_t asUnsigned(const std::string& file, const std::string& pointer, const Json& value) {
    if (value.is_number_unsigned()) return value.get<std::uint64_t>();
    return static_cast<std::uint64_t>(asInteger(file, pointer, value, Range::atLeast(0)));
}

std::string asString(const std::string& file, const std::string& pointer, const Json& value) {
    if (!value.is_string()) failType(file, pointer, "a string", value);
    return value.get<std::string>();
}

std::string asName(const std::string& file, const std::string& pointer, const Json& value) {
    std::string text = asString(file, pointer, value);
    if (text.empty()) fail(file, pointer, "expected a non-empty name, found an empty string");
    return text;
}

bool asBool(const std::string& file, const std::string& pointer, const Json& value) {
    if (!value.is_boolean()) failType(file, pointer, "true or false", value);
    return value.get<bool>();
}

Vec3 asVec3(const std::string& file, const std::string& pointer, const Json& value) {
    if (!value.is_array() || value.size() != 3)
        failType(file, pointer, "an array of 3 numbers [x, y, z]", value);
    Vec3 v;
    for (std::size_t k = 0; k < 3; ++k)
        v[static_cast<Eigen::Index>(k)] = asNumber(file, child(pointer, k), value[k]);
    return v;
}

Vec3 unitLength(const Vec3& v) {
    const double n2 = v.squaredNorm();
    return std::fabs(n2 - 1.0) <= 4.0 * std::numeric_limits<double>::epsilon()
               ? v
               : Vec3(v / std::sqrt(n2));
}

Vec3 asDirection(const std::string& file, const std::string& pointer, const Json& value) {
    const Vec3 v = asVec3(file, pointer, value);
    if (!(v.norm() > 0.0)) fail(file, pointer, "expected a non-zero direction, found [0, 0, 0]");
    return unitLength(v);
}

const Json& asArray(const std::string& file, const std::string& pointer, const Json& value) {
    if (!value.is_array()) failType(file, pointer, "an array", value);
    return value;
}

void requireDefined(const std::string& file, const std::string& pointer, const std::string& name,
                    std::string_view what, const std::vector<std::string>& defined) {
    if (std::find(defined.begin(), defined.end(), name) != defined.end()) return;
    std::string message = "unknown " + std::string(what) + " '" + name + "'";
    if (defined.empty()) {
        message += "; no " + std::string(what) + "s are defined";
    } else {
        if (auto guess = closestName(name, defined)) message += " (did you mean '" + *guess + "'?)";
        message += "; defined " + std::string(what) + "s: " + joinNames(defined);
    }
    fail(file, pointer, message);
}

Object::Object(std::string file, std::string pointer, const Json& value,
               std::initializer_list<std::string_view> allowed)
    : file_(std::move(file)), pointer_(std::move(pointer)), value_(&value) {
    if (!value.is_object()) failType(file_, pointer_, "an object", value);
    for (const auto& member : value.items()) {
        const std::string& key = member.key();
        if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
        std::vector<std::string> names(allowed.begin(), allowed.end());
        std::string message = "unknown field '" + key + "'";
        if (auto guess = closestName(key, names)) message += " (did you mean '" + *guess + "'?)";
        message += "; allowed: " + joinNames(names);
        json_fields::fail(file_, child(pointer_, key), message);
    }
}

bool Object::has(std::string_view key) const {
    return find(key) != nullptr;
}

const Json* Object::find(std::string_view key) const {
    auto it = value_->find(std::string(key));
    return it == value_->end() ? nullptr : &*it;
}

const Json& Object::required(std::string_view key) const {
    if (const Json* v = find(key)) return *v;
    json_fields::fail(file_, at(key), "missing required field '" + std::string(key) + "'");
}

void Object::fail(std::string_view key, const std::string& message) const {
    json_fields::fail(file_, at(key), message);
}

double Object::number(std::string_view key, const Range& range) const {
    return asNumber(file_, at(key), required(key), range);
}
double Object::number(std::string_view key, double fallback, const Range& range) const {
    const Json* v = find(key);
    return v ? asNumber(file_, at(key), *v, range) : fallback;
}
long long Object::integer(std::string_view key, const Range& range) const {
    return asInteger(file_, at(key), required(key), range);
}
long long Object::integer(std::string_view key, long long fallback, const Range& range) const {
    const Json* v = find(key);
    return v ? asInteger(file_, at(key), *v, range) : fallback;
}
std::string Object::string(std::string_view key) const {
    return asString(file_, at(key), required(key));
}
std::string Object::string(std::string_view key, const std::string& fallback) const {
    const Json* v = find(key);
    return v ? asString(file_, at(key), *v) : fallback;
}
std::string Object::name(std::string_view key) const {
    return asName(file_, at(key), required(key));
}
bool Object::boolean(std::string_view key, bool fallback) const {
    const Json* v = find(key);
    return v ? asBool(file_, at(key), *v) : fallback;
}
Vec3 Object::vec3(std::string_view key) const {
    return asVec3(file_, at(key), required(key));
}
Vec3 Object::vec3(std::string_view key, const Vec3& fallback) const {
    const Json* v = find(key);
    return v ? asVec3(file_, at(key), *v) : fallback;
}
Vec3 Object::direction(std::string_view key) const {
    return asDirection(file_, at(key), required(key));
}
Vec3 Object::direction(std::string_view key, const Vec3& fallback) const {
    const Json* v = find(key);
    return v ? asDirection(file_, at(key), *v) : fallback;
}
const Json& Object::array(std::string_view key) const {
    return asArray(file_, at(key), required(key));
}
Object Object::object(std::string_view key, std::initializer_list<std::string_view> allowed) const {
    return Object(file_, at(key), required(key), allowed);
}

}  // namespace grainlab::json_fields
