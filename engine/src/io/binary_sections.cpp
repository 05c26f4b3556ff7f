#include "binary_sections.hpp"

#include <bit>
#include <cstdio>
#include <cstring>

#include "grainlab/core/error.hpp"

namespace grainlab::sections {
namespace {

static_assert(std::endian::native == std::endian::little, "checkpoint sections are written little-endian");

std::size_t typeSize(const std::string& type) {
    if (type == "f64" || type == "i64") return 8;
    if (type == "u32" || type == "i32") return 4;
    if (type == "u8") return 1;
    return 0;
}

std::string hex(std::uint64_t v) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
    return text;
}

}  // namespace

std::uint64_t fnv1a(std::string_view bytes) {
    std::uint64_t h = 1469598103934665603ull;
    for (const char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    return h;
}

void Writer::addVectors(const std::string& name, const std::vector<Vec3>& values) {
    std::vector<double> flat;
    flat.reserve(3 * values.size());
    for (const Vec3& v : values) flat.insert(flat.end(), {v.x(), v.y(), v.z()});
    add(name, flat);
}

void Writer::addBytes(const std::string& name, const char* type, std::size_t count, std::string_view bytes) {
    payload_.resize((payload_.size() + 7) / 8 * 8, '\0');
    table_.push_back({{"name", name}, {"type", type}, {"count", count}, {"offset", payload_.size()},
                      {"bytes", bytes.size()}, {"fnv1a", hex(fnv1a(bytes))}});
    payload_.append(bytes);
}

Reader::Reader(const nlohmann::json& table, std::string_view payload, std::string file)
    : payload_(payload), file_(std::move(file)) {
    if (!table.is_array()) throw InputError(file_, "/sections", "expected an array of sections");
    for (std::size_t k = 0; k < table.size(); ++k) {
        const nlohmann::json& s = table[k];
        const std::string where = "/sections/" + std::to_string(k);
        auto text = [&](const char* key) {
            if (!s.is_object() || !s.contains(key) || !s[key].is_string())
                throw InputError(file_, where + "/" + key, "missing, or not a string");
            return s[key].get<std::string>();
        };
        auto size = [&](const char* key) {
            if (!s.is_object() || !s.contains(key) || !s[key].is_number_unsigned())
                throw InputError(file_, where + "/" + key, "missing, or not a non-negative integer");
            return s[key].get<std::uint64_t>();
        };
        Entry e;
        e.name = text("name");
        e.type = text("type");
        const std::uint64_t count = size("count"), offset = size("offset"), bytes = size("bytes");
        const std::string checksum = text("fnv1a");
        const std::size_t element = typeSize(e.type);
        if (element == 0) continue;  // a type this version does not know: a later addition, skipped
        if (count > payload.size() || bytes != count * element || offset > payload.size() || bytes > payload.size() - offset)
            throw InputError(file_, e.name, "section extends past the end of the file (truncated?)");
        e.count = static_cast<std::size_t>(count);
        e.offset = static_cast<std::size_t>(offset);
        if (hex(fnv1a(payload.substr(e.offset, static_cast<std::size_t>(bytes)))) != checksum)
            throw InputError(file_, e.name, "checksum mismatch: the file is damaged");
        entries_.push_back(std::move(e));
    }
}

bool Reader::has(const std::string& name) const {
    for (const Entry& e : entries_)
        if (e.name == name) return true;
    return false;
}

const Reader::Entry& Reader::find(const std::string& name, const char* type, std::int64_t expected_count) const {
    for (const Entry& e : entries_) {
        if (e.name != name) continue;
        if (e.type != type) throw InputError(file_, name, "expected type " + std::string(type) + ", found " + e.type);
        if (expected_count >= 0 && e.count != static_cast<std::size_t>(expected_count))
            throw InputError(file_, name, "expected " + std::to_string(expected_count) + " values, found " +
                                              std::to_string(e.count));
        return e;
    }
    throw InputError(file_, name, "required section missing");
}

std::vector<Vec3> Reader::vectors(const std::string& name, std::int64_t expected_vectors) const {
    const std::vector<double> flat = get<double>(name, expected_vectors < 0 ? -1 : 3 * expected_vectors);
    if (flat.size() % 3 != 0) throw InputError(file_, name, "expected 3 values per vector");
    std::vector<Vec3> out(flat.size() / 3);
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = Vec3(flat[3 * k], flat[3 * k + 1], flat[3 * k + 2]);
    return out;
}

}  // namespace grainlab::sections
