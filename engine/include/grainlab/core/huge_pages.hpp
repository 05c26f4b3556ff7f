#pragma once
// Large arrays on 2 MiB pages where the kernel gives them on request (transparent huge pages in
// "madvise" mode, Debian's default). A step at 1,024,000 spheres streams some fifteen arrays of 4 to
// 86 MB; with 4 KiB pages the TLB's 2,048 entries cover 8 MB, and every stream walks page tables.
#include <cstddef>
#include <iterator>
#include <vector>

namespace grainlab {

// Asks for huge pages on the whole 2 MiB pages inside [data, data + bytes): only pages not yet
// touched get them. Does nothing below 4 MiB or where the system has no such request.
void adviseHugePages(const void* data, std::size_t bytes);

// Room for n elements in v, advised before anything is written to it; the elements are kept.
template <class T>
void reserveOnHugePages(std::vector<T>& v, std::size_t n) {
    if (v.capacity() >= n) return;
    std::vector<T> fresh;
    fresh.reserve(n);
    adviseHugePages(fresh.data(), n * sizeof(T));
    fresh.insert(fresh.end(), std::make_move_iterator(v.begin()), std::make_move_iterator(v.end()));
    v.swap(fresh);
}

}  // namespace grainlab
