#pragma once
// Static, deterministic work splitting: thread t of T always gets the same index range, so a run
// with a given thread count adds forces in the same order every time. parallelGivenRanges is the
// exception, for passes whose result does not depend on which thread takes an index, and
// parallelOwnedChunks, whose chunks a thread may take from another's range: its callers keep what
// a chunk makes apart and join it in chunk order.
#include <cstddef>
#include <functional>
#include <vector>

namespace grainlab {

// The cores this process may run on (its affinity mask: a container's or taskset's share).
int hardwareThreads();

// Threads used when a scene or command line says 0: one per kBodiesPerThread bodies, at most one per
// core. Where the threads sleep between regions (the window, a busy machine), each of a step's three
// regions costs a wake-up (about 85 us on a 2-core VM), which a few thousand bodies' share of the work
// does not repay: the 3,000-sphere hopper ran at 20.6 M particle-steps/s on one thread and 12.3 on two
// sleeping ones. Spinning threads (an idle machine) gain from about 1,000 bodies (the 900-sphere
// drum 14.2 against 9.3 on one); the count is chosen for the worse case (docs/performance.md).
constexpr std::size_t kBodiesPerThread = 5000;
int automaticThreads(std::size_t bodies);

// Between parallel regions idle threads spin while the machine has a free core for each and sleep
// otherwise (OMP_WAIT_POLICY=ACTIVE or PASSIVE fixes either). An application whose other threads
// need the cores at moments the load does not show (a window's rendering) asks for sleeping threads
// before its first region; the environment still decides where it is set.
void preferSleepingThreads();

// Calls fn(thread, begin, end) for `threads` contiguous ranges covering [0, n), in parallel.
void parallelRanges(std::size_t n, int threads,
                    const std::function<void(int thread, std::size_t begin, std::size_t end)>& fn);

// The same with ranges of equal work instead of equal length: work_before(i) is the work of the
// indices below i (non-decreasing, work_before(0) = 0). A thread that finishes early waits at the
// region's end for the others, so equal lengths of unequal work lose the difference. Ranges begin
// and end at multiples of `granule` (or at n). With `shares` (threads + 1 values from 0 to 1),
// thread t takes the work from shares[t] to shares[t + 1] of the total instead of an equal part.
void parallelBalancedRanges(std::size_t n, int threads, const std::function<double(std::size_t)>& work_before,
                            std::size_t granule,
                            const std::function<void(int thread, std::size_t begin, std::size_t end)>& fn,
                            const std::vector<double>* shares = nullptr);

// The same with the ranges given in thread order: thread t takes [bounds[t], bounds[t + 1]), with
// bounds.front() = 0 and bounds.back() = n (equal lengths where the pool runs fewer threads).
void parallelGivenRanges(const std::vector<std::size_t>& bounds,
                         const std::function<void(int thread, std::size_t begin, std::size_t end)>& fn);

// The bounds parallelBalancedRanges gives `threads` threads: thread t's range is [b[t], b[t + 1]).
std::vector<std::size_t> balancedBounds(std::size_t n, int threads, const std::function<double(std::size_t)>& work_before,
                                        std::size_t granule, const std::vector<double>* shares = nullptr);

// Ranges given in thread order (bounds as parallelGivenRanges), each cut into chunks of `chunk`
// indices from its start. Thread t takes its own range's chunks from the front, in order, then the
// other ranges' from their back while any are left: a thread the host slows for a while leaves the
// end of its range to the others, instead of making them wait. fn(thread, range, index, begin, end)
// for each chunk, once; `index` numbers the chunks of all ranges in order (chunkCount of them). For
// passes where which thread takes an index decides the order of sums: the owner's chunks run as one
// stretch in order, each taken one alone.
void parallelOwnedChunks(const std::vector<std::size_t>& bounds, std::size_t chunk,
                         const std::function<void(int thread, std::size_t range, std::size_t index, std::size_t begin,
                                                  std::size_t end)>& fn);
// How many chunks parallelOwnedChunks cuts `bounds` into.
std::size_t chunkCount(const std::vector<std::size_t>& bounds, std::size_t chunk);
// A chunk size for parallelOwnedChunks: whole blocks of `block` indices, some sixteen chunks a
// thread, at most 32 blocks.
std::size_t blockChunk(std::size_t n, int threads, std::size_t block);
// Equal ranges for parallelOwnedChunks, ending at multiples of `chunk` (or n): chunk k then holds
// the indices [k chunk, (k + 1) chunk).
std::vector<std::size_t> equalChunkedRanges(std::size_t n, int threads, std::size_t chunk);

}  // namespace grainlab
