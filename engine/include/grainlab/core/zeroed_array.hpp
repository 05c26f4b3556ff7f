#pragma once
// A zero-filled array from calloc: large blocks come straight from the system as zero pages, which
// stay unmapped until written. A thread's force array for the bodies it does not own is mostly
// never written, so this way it costs memory only where it is (96 bytes a sphere on two threads as
// std::vector, which writes every element).
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>

namespace grainlab {

template <class T>
class ZeroedArray {
public:
    ZeroedArray() = default;
    ZeroedArray(const ZeroedArray& other) { resize(other.size_); }  // contents are not carried: zero
    ZeroedArray& operator=(const ZeroedArray& other) {
        if (this != &other) resize(other.size_);
        return *this;
    }
    ZeroedArray(ZeroedArray&& other) noexcept : data_(std::move(other.data_)), size_(std::exchange(other.size_, 0)) {}
    ZeroedArray& operator=(ZeroedArray&& other) noexcept {
        data_ = std::move(other.data_);
        size_ = std::exchange(other.size_, 0);
        return *this;
    }

    // n zero elements (the old contents are dropped).
    void resize(std::size_t n) {
        data_.reset();
        size_ = 0;
        if (n == 0) return;
        void* p = std::calloc(n, sizeof(T));
        if (!p) throw std::bad_alloc();
        // T must be all-zero bytes when zero and have a default constructor that writes nothing (as
        // Eigen's fixed-size vectors): the objects begin here without touching the pages.
        data_.reset(std::uninitialized_default_construct_n(static_cast<T*>(p), n) - n);
        size_ = n;
    }
    std::size_t size() const { return size_; }
    T* data() { return data_.get(); }

private:
    struct Free {
        void operator()(T* p) const { std::free(p); }
    };
    std::unique_ptr<T, Free> data_;
    std::size_t size_ = 0;
};

}  // namespace grainlab
