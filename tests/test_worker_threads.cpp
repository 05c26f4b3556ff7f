// The engine's threads (core/parallel.hpp): every index of a region runs once, on the thread whose
// static range holds it or in a chunk of a range it owns or took, whether idle threads spin or
// sleep, and a simulation's contact forces keep momentum whichever way its threads wait.
#include <catch2/catch.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <vector>

#include "grainlab/core/adaptive_split.hpp"
#include "grainlab/core/parallel.hpp"
#include "support.hpp"

using namespace grainlab;

namespace {

// Runs fn on a new thread with OMP_WAIT_POLICY set as given: each thread that starts regions gets
// its own workers, which read the policy when they start.
template <class Fn>
void onThreadWithPolicy(const char* policy, Fn fn) {
    if (policy) setenv("OMP_WAIT_POLICY", policy, 1);
    else unsetenv("OMP_WAIT_POLICY");
    std::thread runner(fn);
    runner.join();
    unsetenv("OMP_WAIT_POLICY");
}

// Visits of every index over `regions` regions of n indices on `threads` threads, each checked to
// lie in the static range of the thread that visited it.
std::vector<int> visits(std::size_t n, int threads, int regions, std::atomic<int>& misplaced) {
    std::vector<std::atomic<int>> counts(n);
    for (int r = 0; r < regions; ++r) {
        parallelRanges(n, threads, [&](int t, std::size_t begin, std::size_t end) {
            const std::size_t expected_begin = n * static_cast<std::size_t>(t) / static_cast<std::size_t>(threads);
            if (begin != expected_begin) ++misplaced;
            for (std::size_t i = begin; i < end; ++i) ++counts[i];
        });
    }
    std::vector<int> result;
    for (const auto& c : counts) result.push_back(c.load());
    return result;
}

// Spheres on a cubic lattice 0.2% closer than touching, moving at random in a field-free space:
// every sphere presses on its neighbours, and the pair forces, equal and opposite, keep the total
// momentum (Newton's third law).
Scene squeezedLattice(int threads) {
    Scene scene = test::emptyScene();
    scene.threads = threads;
    scene.time_step = 1e-4;
    scene.gravity = Vec3::Zero();
    const int side = 12;
    std::uint32_t state = 12345;
    auto random = [&state] {
        state = state * 1664525u + 1013904223u;
        return static_cast<double>(state >> 8) / 16777216.0 - 0.5;
    };
    for (int k = 0; k < side * side * side; ++k) {
        const Vec3 x(0.998 * (k % side), 0.998 * ((k / side) % side), 0.998 * (k / (side * side)));
        scene.bodies.push_back(test::sphere(x, Vec3(random(), random(), random())));
        scene.bodies.back().id = k;
    }
    return scene;
}

}  // namespace

TEST_CASE("Every index of every region runs once, in its thread's static range", "[engine][threads]") {
    for (const char* policy : {"ACTIVE", "PASSIVE", static_cast<const char*>(nullptr)}) {
        for (int threads : {1, 2, 3, 5}) {  // more threads than this machine may have cores
            std::atomic<int> misplaced{0};
            std::vector<int> counts;
            onThreadWithPolicy(policy, [&] { counts = visits(1001, threads, 300, misplaced); });
            INFO("policy " << (policy ? policy : "adaptive") << ", " << threads << " threads");
            CHECK(misplaced == 0);
            CHECK(std::all_of(counts.begin(), counts.end(), [](int c) { return c == 300; }));
        }
    }
}

TEST_CASE("Owned chunks run once: each range's owner from its front, the others from its back", "[engine][threads]") {
    // Range 0 holds nine tenths of the indices; its owner waits at its first chunk until the second
    // thread, done with its own range, has taken one of range 0's from the back (or a second passed).
    const std::vector<std::size_t> bounds{0, 900, 1001};
    const std::size_t chunk = 16;  // 57 + 7 chunks
    const std::size_t chunks = chunkCount(bounds, chunk);
    REQUIRE(chunks == 64);
    for (const char* policy : {"ACTIVE", "PASSIVE"}) {
        std::vector<int> runs(chunks, 0);
        std::vector<std::vector<std::pair<std::size_t, std::size_t>>> taken(2);  // per thread: (range, index)
        std::atomic<bool> stolen{false};
        std::atomic<int> misplaced{0}, threads_seen{0};
        onThreadWithPolicy(policy, [&] {
            parallelOwnedChunks(bounds, chunk, [&](int t, std::size_t range, std::size_t index, std::size_t begin,
                                                   std::size_t end) {
                const std::size_t k = range == 0 ? index : index - 57;
                if (begin != bounds[range] + k * chunk || end != std::min(bounds[range + 1], begin + chunk)) ++misplaced;
                auto& mine = taken[static_cast<std::size_t>(t)];
                if (mine.empty()) ++threads_seen;
                mine.emplace_back(range, index);
                ++runs[index];
                if (range != static_cast<std::size_t>(t)) stolen = true;
                if (t == 0 && index == 0) {
                    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
                    while (!stolen && std::chrono::steady_clock::now() < until) std::this_thread::yield();
                }
            });
        });
        INFO("policy " << policy);
        CHECK(misplaced == 0);
        CHECK(std::all_of(runs.begin(), runs.end(), [](int r) { return r == 1; }));
        for (std::size_t t = 0; t < 2; ++t) {
            const auto& mine = taken[t];
            // Own chunks first and rising; another range's falling.
            std::size_t k = 0;
            for (; k < mine.size() && mine[k].first == t; ++k)
                if (k > 0 && mine[k].second != mine[k - 1].second + 1) ++misplaced;
            for (std::size_t m = k; m < mine.size(); ++m)
                if (mine[m].first == t || (m > k && mine[m].second >= mine[m - 1].second)) ++misplaced;
        }
        CHECK(misplaced == 0);
        if (threads_seen == 2) CHECK(stolen);
    }
}

TEST_CASE("A region with fewer threads than the last runs on that many", "[engine][threads]") {
    std::atomic<int> misplaced{0};
    onThreadWithPolicy("ACTIVE", [&] {
        for (int threads : {4, 2, 3, 1, 4}) {
            std::atomic<int> seen{0};
            parallelRanges(100, threads, [&](int t, std::size_t, std::size_t) {
                if (t >= threads) ++misplaced;
                ++seen;
            });
            if (seen != threads) ++misplaced;
        }
    });
    CHECK(misplaced == 0);
}

// A pool grows when a region asks for more threads than it has; the new workers must take part
// from the next region on, and every region must be complete when it returns.
TEST_CASE("Regions asking for more threads than before are complete when they return", "[engine][threads]") {
    int incomplete = 0;
    for (int repeat = 0; repeat < 50; ++repeat) {
        std::thread caller([&] {
            for (int threads : {2, 3, 4, 6}) {
                std::atomic<std::size_t> done{0};
                parallelRanges(600, threads, [&](int, std::size_t begin, std::size_t end) { done += end - begin; });
                if (done != 600) ++incomplete;
            }
        });
        caller.join();
    }
    CHECK(incomplete == 0);
}

TEST_CASE("An exception on any thread reaches the caller after all have finished", "[engine][threads]") {
    for (int thrower : {0, 1, 2}) {
        std::atomic<int> finished{0};
        bool caught = false, usable_after = false;
        onThreadWithPolicy(nullptr, [&] {
            try {
                parallelRanges(300, 3, [&](int t, std::size_t, std::size_t) {
                    if (t == thrower) throw std::runtime_error("range failed");
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                    ++finished;
                });
            } catch (const std::runtime_error&) {
                caught = true;
                // The others had finished when the exception arrived.
                caught = finished == 2;
            }
            std::atomic<int> after{0};
            parallelRanges(300, 3, [&](int, std::size_t begin, std::size_t end) { after += static_cast<int>(end - begin); });
            usable_after = after == 300;
        });
        INFO("thrown by thread " << thrower);
        CHECK(caught);
        CHECK(usable_after);
    }
}

TEST_CASE("A region started inside a region runs on the thread that started it", "[engine][threads]") {
    std::atomic<int> inner_threads{0}, inner_indices{0};
    parallelRanges(2, 2, [&](int, std::size_t, std::size_t) {
        parallelRanges(50, 4, [&](int t, std::size_t begin, std::size_t end) {
            if (t != 0) ++inner_threads;
            inner_indices += static_cast<int>(end - begin);
        });
    });
    CHECK(inner_threads == 0);
    CHECK(inner_indices == 100);
}

TEST_CASE("Two threads starting regions at once each get their own workers", "[engine][threads]") {
    std::atomic<int> misplaced{0};
    std::vector<int> a, b;
    std::thread first([&] { a = visits(777, 2, 500, misplaced); });
    std::thread second([&] { b = visits(555, 3, 500, misplaced); });
    first.join();
    second.join();
    CHECK(misplaced == 0);
    CHECK(std::all_of(a.begin(), a.end(), [](int c) { return c == 500; }));
    CHECK(std::all_of(b.begin(), b.end(), [](int c) { return c == 500; }));
}

// Conservation of momentum on two threads, and the same bits whether idle threads spin or sleep:
// the wait policy decides only when a thread starts its static range.
TEST_CASE("Spinning and sleeping threads give the same momentum-conserving run", "[engine][threads][physics]") {
    const Scene scene = squeezedLattice(2);
    std::vector<std::vector<Vec3>> positions;
    for (const char* policy : {"ACTIVE", "PASSIVE", static_cast<const char*>(nullptr)}) {
        onThreadWithPolicy(policy, [&] {
            Simulation sim(scene, test::builtPlugins());
            const Vec3 before = test::momentum(sim.bodies());
            for (int s = 0; s < 40; ++s) sim.step();
            const Vec3 after = test::momentum(sim.bodies());
            INFO("policy " << (policy ? policy : "adaptive"));
            CHECK(sim.state().contacts > 4000);  // of the lattice's 4,752 neighbour pairs
            CHECK((after - before).norm() < 1e-9);  // one contact's impulse a step is about 0.1
            positions.push_back(sim.bodies().position);
        });
    }
    CHECK(positions[0] == positions[1]);
    CHECK(positions[0] == positions[2]);
}

// Ranges that follow the threads' measured speed (core/adaptive_split.hpp, the pair loop's shares): a
// thread twice as slow a body ends with a third of them, in whole blocks, and the ranges still
// cover every body once, in thread order.
TEST_CASE("Per-body ranges settle where both threads take equal time", "[engine][threads]") {
    AdaptiveSplit split;
    const std::size_t n = 32000, block = 256;
    for (int step = 0; step < 60; ++step) {
        const std::vector<std::size_t>& b = split.bounds(n, 2);
        REQUIRE(b.size() == 3);
        REQUIRE(b.front() == 0);
        REQUIRE(b.back() == n);
        REQUIRE(b[1] <= n);
        split.record(0, 2e-9 * static_cast<double>(b[1] - b[0]), static_cast<double>(b[1] - b[0]));
        split.record(1, 1e-9 * static_cast<double>(b[2] - b[1]), static_cast<double>(b[2] - b[1]));
        split.update(block);
    }
    const std::vector<std::size_t>& b = split.bounds(n, 2);
    CHECK(b[1] % block == 0);
    CHECK(std::abs(static_cast<double>(b[1]) - n / 3.0) <= block);
    // A new thread count starts again from equal lengths.
    CHECK(split.bounds(n, 4) == std::vector<std::size_t>{0, 8000, 16000, 24000, 32000});
    // A thread that seems to stall for a while keeps a quarter of an equal share.
    AdaptiveSplit stalled;
    for (int step = 0; step < 60; ++step) {
        const std::vector<std::size_t>& s = stalled.bounds(n, 2);
        stalled.record(0, 1e-9 * static_cast<double>(s[1] - s[0]), static_cast<double>(s[1] - s[0]));
        stalled.record(1, 1e-6 * static_cast<double>(s[2] - s[1]), static_cast<double>(s[2] - s[1]));
        stalled.update(block);
    }
    CHECK(n - stalled.bounds(n, 2)[1] >= n / 8 - block);
}

// The same ranges when the threads take chunks of each other's: a region lasts until all its work
// is done, each thread working throughout, so each records the whole region's time with what it did
// (its own part and what it took). Two equally fast threads, one of them slowed for a single step,
// return to equal halves; per unit of its range instead of per unit done, the thread that took work
// would look slow, be given less and take more, down to the floor share.
TEST_CASE("Ranges return to equal halves after one thread is slowed once, with chunks taken", "[engine][threads]") {
    AdaptiveSplit split;
    const std::size_t n = 32000, block = 256;
    for (int step = 0; step < 80; ++step) {
        split.bounds(n, 2);
        const double speed[2] = {1e9, step == 3 ? 0.3e9 : 1e9};  // units a second
        const double region = static_cast<double>(n) / (speed[0] + speed[1]);
        for (int t = 0; t < 2; ++t) split.record(t, region, speed[t] * region);
        split.update(block);
        if (step == 3) CHECK(split.bounds(n, 2)[1] > n / 2 + block);  // the slowed thread was given less
    }
    CHECK(std::abs(static_cast<double>(split.bounds(n, 2)[1]) - n / 2.0) <= block);
}

// The pair loop's ranges hold given shares of the work (the engine's, from its threads' times):
// thread 0 takes 30% of a work that grows with the index, ending at a multiple of the granule, and
// the ranges still cover every index once. Without shares, or with shares for another thread
// count, the parts are equal.
TEST_CASE("Balanced ranges take the given shares of the work", "[engine][threads]") {
    const std::size_t n = 100000, granule = 256;
    const auto work_before = [](std::size_t i) { return static_cast<double>(i) * static_cast<double>(i); };
    const auto firstBound = [&](const std::vector<double>* shares) {
        std::vector<std::size_t> begins(2, n), ends(2, 0);
        std::vector<int> runs(n, 0);
        parallelBalancedRanges(n, 2, work_before, granule, [&](int t, std::size_t begin, std::size_t end) {
            begins[static_cast<std::size_t>(t)] = begin;
            ends[static_cast<std::size_t>(t)] = end;
            for (std::size_t i = begin; i < end; ++i) ++runs[i];
        }, shares);
        REQUIRE(std::all_of(runs.begin(), runs.end(), [](int r) { return r == 1; }));
        REQUIRE(ends[0] == begins[1]);
        return ends[0];
    };
    const std::vector<double> shares{0.0, 0.3, 1.0};
    const std::size_t b = firstBound(&shares);
    CHECK(b % granule == 0);
    // work_before(b) = 0.3 work_before(n): b = sqrt(0.3) n, within half a granule.
    CHECK(std::abs(static_cast<double>(b) - std::sqrt(0.3) * n) <= granule / 2.0);
    const double equal = std::sqrt(0.5) * n;
    CHECK(std::abs(static_cast<double>(firstBound(nullptr)) - equal) <= granule / 2.0);
    const std::vector<double> three{0.0, 0.2, 0.4, 1.0};
    CHECK(std::abs(static_cast<double>(firstBound(&three)) - equal) <= granule / 2.0);
}
