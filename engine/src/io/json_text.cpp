#include "json_text.hpp"

#include <set>
#include <vector>

#include "grainlab/core/error.hpp"
#include "json_fields.hpp"

namespace grainlab::json_text {
namespace {

// Follows the parser through the document so that a repeated key can be named by its pointer.
class DuplicateKeyWatch {
public:
    struct Found {
        std::string pointer, key;
    };

    bool operator()(int /*depth*/, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        using Event = nlohmann::json::parse_event_t;
        switch (event) {
            case Event::object_start:
                frames_.push_back({true, {}, {}, 0});
                break;
            case Event::array_start:
                frames_.push_back({false, {}, {}, 0});
                break;
            case Event::key: {
                Frame& top = frames_.back();
                const std::string key = parsed.get<std::string>();
                if (!top.keys.insert(key).second) throw Found{pointerTo(key), key};
                top.key = key;
                break;
            }
            case Event::object_end:
            case Event::array_end:
                frames_.pop_back();
                elementDone();
                break;
            case Event::value:
                elementDone();
                break;
        }
        return true;
    }

private:
    struct Frame {
        bool object;
        std::set<std::string> keys;
        std::string key;        // member being read (objects)
        std::size_t index = 0;  // element being read (arrays)
    };

    void elementDone() {
        if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    }

    std::string pointerTo(const std::string& key) const {
        std::string pointer;
        for (std::size_t k = 0; k + 1 < frames_.size(); ++k)
            pointer = frames_[k].object ? json_fields::child(pointer, frames_[k].key)
                                        : json_fields::child(pointer, frames_[k].index);
        return json_fields::child(pointer, key);
    }

    std::vector<Frame> frames_;
};

// nlohmann's what() is "[json.exception.parse_error.101] parse error at line 3, column 5: reason";
// keep only the reason, as the position is reported separately.
std::string reasonOf(const nlohmann::json::parse_error& error) {
    const std::string text = error.what();
    const std::size_t at = text.find("column");
    const std::size_t colon = at == std::string::npos ? text.find("] ") : text.find(": ", at);
    return colon == std::string::npos ? text : text.substr(colon + 2);
}

}  // namespace

Position positionOf(const std::string& text, std::size_t byte) {
    Position position;
    const std::size_t end = std::min(byte, text.size());
    for (std::size_t k = 0; k < end; ++k) {
        if (text[k] == '\n') {
            ++position.line;
            position.column = 1;
        } else {
            ++position.column;
        }
    }
    return position;
}

nlohmann::json parse(const std::string& text, const std::string& file) {
    DuplicateKeyWatch watch;
    try {
        return nlohmann::json::parse(text, std::ref(watch), /*allow_exceptions=*/true,
                                     /*ignore_comments=*/true);
    } catch (const nlohmann::json::parse_error& error) {
        // `byte` counts the characters read, the offending one included.
        const Position p = positionOf(text, error.byte > 0 ? error.byte - 1 : 0);
        throw InputError(file, "",
                         "malformed JSON at line " + std::to_string(p.line) + ", column " +
                             std::to_string(p.column) + ": " + reasonOf(error));
    } catch (const DuplicateKeyWatch::Found& found) {
        throw InputError(file, found.pointer,
                         "duplicate field '" + found.key + "': each field may be given only once");
    } catch (const nlohmann::json::exception& error) {
        // Such as a number beyond the range of a double (out_of_range.406), which has no position.
        std::string reason = error.what();
        const std::size_t tag_end = reason.find("] ");
        if (tag_end != std::string::npos) reason.erase(0, tag_end + 2);
        throw InputError(file, "", "malformed JSON: " + reason);
    }
}

}  // namespace grainlab::json_text
