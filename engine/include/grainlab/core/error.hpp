#pragma once
// Errors the user can act on. Each names where the problem is: a file and the path of the field
// inside it (JSON pointer style, e.g. "/bodies/2/radius"), or a body and a step.
#include <stdexcept>
#include <string>

namespace grainlab {

// Bad input: a scene, mesh, data file or plugin that cannot be used as given.
class InputError : public std::runtime_error {
public:
    InputError(std::string file, std::string field, const std::string& message)
        : std::runtime_error(compose(file, field, message)), file_(std::move(file)),
          field_(std::move(field)) {}
    const std::string& file() const { return file_; }
    const std::string& field() const { return field_; }

private:
    static std::string compose(const std::string& file, const std::string& field,
                               const std::string& message) {
        std::string where = file;
        if (!field.empty()) where += where.empty() ? field : (": " + field);
        return where.empty() ? message : where + ": " + message;
    }
    std::string file_;
    std::string field_;
};

// A run that cannot go on: non-finite or runaway state, named by body and step.
class SimulationError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace grainlab
