#pragma once
// Named, typed, checksummed binary arrays behind a JSON table: the payload of checkpoint files.
// Each section is listed as {"name", "type", "count", "offset", "bytes", "fnv1a"}; the payload holds
// the arrays back to back, each starting at a multiple of 8 bytes, in little-endian order.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "grainlab/core/math.hpp"

namespace grainlab::sections {

template <class T> struct TypeName;
template <> struct TypeName<double> { static constexpr const char* value = "f64"; };
template <> struct TypeName<std::uint32_t> { static constexpr const char* value = "u32"; };
template <> struct TypeName<std::int64_t> { static constexpr const char* value = "i64"; };
template <> struct TypeName<std::int32_t> { static constexpr const char* value = "i32"; };
template <> struct TypeName<std::uint8_t> { static constexpr const char* value = "u8"; };

std::uint64_t fnv1a(std::string_view bytes);

class Writer {
public:
    template <class T>
    void add(const std::string& name, const std::vector<T>& values) {
        addBytes(name, TypeName<T>::value, values.size(),
                 std::string_view(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
    }
    void addVectors(const std::string& name, const std::vector<Vec3>& values);  // f64, 3 per vector
    const nlohmann::json& table() const { return table_; }
    const std::string& payload() const { return payload_; }

private:
    void addBytes(const std::string& name, const char* type, std::size_t count, std::string_view bytes);
    nlohmann::json table_ = nlohmann::json::array();
    std::string payload_;
};

// Checks the table against the payload on construction; get() checks type and (when given) count.
// Every failure throws InputError(file, section name, what is wrong).
class Reader {
public:
    Reader(const nlohmann::json& table, std::string_view payload, std::string file);
    bool has(const std::string& name) const;

    template <class T>
    std::vector<T> get(const std::string& name, std::int64_t expected_count = -1) const {
        const Entry& e = find(name, TypeName<T>::value, expected_count);
        std::vector<T> out(e.count);
        if (e.count) std::memcpy(out.data(), payload_.data() + e.offset, e.count * sizeof(T));
        return out;
    }
    std::vector<Vec3> vectors(const std::string& name, std::int64_t expected_vectors = -1) const;

private:
    struct Entry {
        std::string name, type;
        std::size_t count = 0, offset = 0;
    };
    const Entry& find(const std::string& name, const char* type, std::int64_t expected_count) const;
    std::vector<Entry> entries_;
    std::string_view payload_;
    std::string file_;
};

}  // namespace grainlab::sections
