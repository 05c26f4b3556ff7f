#pragma once
// Parameter values handed to a plugin: every parameter its descriptor declares, defaults filled in,
// already checked against type and range by the loader.
#include <map>
#include <stdexcept>
#include <string>

namespace grainlab {

class ParameterValues {
public:
    void set(const std::string& name, double value) { values_[name] = value; }
    double get(const std::string& name) const {
        auto it = values_.find(name);
        if (it == values_.end()) throw std::logic_error("parameter '" + name + "' was not declared");
        return it->second;
    }
    bool flag(const std::string& name) const { return get(name) != 0.0; }
    const std::map<std::string, double>& all() const { return values_; }

private:
    std::map<std::string, double> values_;
};

}  // namespace grainlab
