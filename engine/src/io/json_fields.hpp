#pragma once
// Typed, checked access to the fields of a JSON document. Every failure throws
// InputError(file, pointer, message) where the message says what was expected and what was found,
// so each reader of a JSON format gets the same precise messages for free. Internal to io.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "grainlab/core/math.hpp"

namespace grainlab::json_fields {

using Json = nlohmann::json;

// An allowed interval for a number; describe() gives e.g. "greater than 0" or "in (0, 1]".
struct Range {
    std::optional<double> lo, hi;
    bool lo_open = false, hi_open = false;

    bool contains(double x) const;
    std::string describe() const;

    static Range any() { return {}; }
    static Range above(double x) { return {x, std::nullopt, true, false}; }
    static Range atLeast(double x) { return {x, std::nullopt, false, false}; }
    static Range open(double a, double b) { return {a, b, true, true}; }
    static Range closed(double a, double b) { return {a, b, false, false}; }
    static Range openClosed(double a, double b) { return {a, b, true, false}; }
    static Range closedOpen(double a, double b) { return {a, b, false, true}; }
};

// Pointer to a member / element, with JSON-pointer escaping of '~' and '/'.
std::string child(const std::string& pointer, std::string_view key);
std::string child(const std::string& pointer, std::size_t index);

// "a string \"abc\"", "the number 3", "an array", ... for messages.
std::string describe(const Json& value);
std::string formatNumber(double x);
// "a, b, c"
std::string joinNames(const std::vector<std::string>& names);
// The entry of `candidates` nearest to `name` by edit distance, if close enough to be a likely
// typo.
std::optional<std::string> closestName(std::string_view name,
                                       const std::vector<std::string>& candidates);

[[noreturn]] void fail(const std::string& file, const std::string& pointer,
                       const std::string& message);
[[noreturn]] void failType(const std::string& file, const std::string& pointer,
                           std::string_view expected, const Json& found);

// Checks of a single value at `pointer`.
double asNumber(const std::string& file, const std::string& pointer, const Json& value,
                const Range& range = Range::any());
long long asInteger(const std::string& file, const std::string& pointer, const Json& value,
                    const Range& range = Range::any());
std::uint64_t asUnsigned(const std::string& file, const std::string& pointer, const Json& value);
std::string asString(const std::string& file, const std::string& pointer, const Json& value);
std::string asName(const std::string& file, const std::string& pointer,
                   const Json& value);  // non-empty
bool asBool(const std::string& file, const std::string& pointer, const Json& value);
Vec3 asVec3(const std::string& file, const std::string& pointer, const Json& value);
// A direction: any non-zero 3-vector, returned with unit length.
Vec3 asDirection(const std::string& file, const std::string& pointer, const Json& value);
const Json& asArray(const std::string& file, const std::string& pointer, const Json& value);

// Scales `v` to unit length unless it is unit already to within rounding, so writing a unit vector
// and reading it back gives exactly the same numbers.
Vec3 unitLength(const Vec3& v);

// Fails unless `name` is one of `defined`; `what` is e.g. "material". The message lists the
// defined names and suggests the closest.
void requireDefined(const std::string& file, const std::string& pointer, const std::string& name,
                    std::string_view what, const std::vector<std::string>& defined);

// A JSON object whose members are read by name. Construction checks that the value is an object
// and that every member is one of `allowed` (suggesting the closest name for a typo).
class Object {
public:
    Object(std::string file, std::string pointer, const Json& value,
           std::initializer_list<std::string_view> allowed);

    const std::string& file() const { return file_; }
    const std::string& pointer() const { return pointer_; }
    std::string at(std::string_view key) const { return child(pointer_, key); }

    bool has(std::string_view key) const;
    const Json* find(std::string_view key) const;  // nullptr if absent
    const Json& required(std::string_view key) const;

    double number(std::string_view key, const Range& range = Range::any()) const;
    double number(std::string_view key, double fallback, const Range& range = Range::any()) const;
    long long integer(std::string_view key, const Range& range = Range::any()) const;
    long long integer(std::string_view key, long long fallback,
                      const Range& range = Range::any()) const;
    std::string string(std::string_view key) const;
    std::string string(std::string_view key, const std::string& fallback) const;
    std::string name(std::string_view key) const;  // required, non-empty string
    bool boolean(std::string_view key, bool fallback) const;
    Vec3 vec3(std::string_view key) const;
    Vec3 vec3(std::string_view key, const Vec3& fallback) const;
    Vec3 direction(std::string_view key) const;
    Vec3 direction(std::string_view key, const Vec3& fallback) const;
    const Json& array(std::string_view key) const;  // required
    Object object(std::string_view key, std::initializer_list<std::string_view> allowed) const;

    [[noreturn]] void fail(std::string_view key, const std::string& message) const;

private:
    std::string file_;
    std::string pointer_;
    const Json* value_;
};

}  // namespace grainlab::json_fields
