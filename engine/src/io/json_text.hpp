#pragma once
// Parsing JSON text into a document with messages a user can act on. Internal to io.
#include <string>

#include <nlohmann/json.hpp>

namespace grainlab::json_text {

// Parses `text` (comments allowed). Throws InputError(file, "", "malformed JSON at line L,
// column C: ...") for a syntax error, and InputError(file, pointer, "duplicate field ...") for an
// object member given twice, which nlohmann would otherwise silently resolve to the last value.
nlohmann::json parse(const std::string& text, const std::string& file);

// Line and column (both from 1) of the character at byte offset `byte` (from 0) of `text`.
struct Position {
    std::size_t line = 1, column = 1;
};
Position positionOf(const std::string& text, std::size_t byte);

}  // namespace grainlab::json_text
