#pragma once
// RAII handle on a dlopen'ed library.
#include <dlfcn.h>

#include <filesystem>
#include <string>

namespace grainlab {

class SharedLibrary {
public:
    explicit SharedLibrary(const std::filesystem::path& path) {
        handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle_) {
            const char* message = dlerror();
            error_ = message ? message : "dlopen failed";
        }
    }
    ~SharedLibrary() {
        if (handle_) dlclose(handle_);
    }
    SharedLibrary(const SharedLibrary&) = delete;
    SharedLibrary& operator=(const SharedLibrary&) = delete;

    bool loaded() const { return handle_ != nullptr; }
    const std::string& error() const { return error_; }
    void* symbol(const char* name) const { return handle_ ? dlsym(handle_, name) : nullptr; }

private:
    void* handle_ = nullptr;
    std::string error_;
};

}  // namespace grainlab
