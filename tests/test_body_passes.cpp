// Where the bodies are many, the sweep runs an integrator's kick and drift (kicks.hpp) in one loop
// with its own jobs (wrap, Verlet displacement check, forces started at the weight), and a closing
// kick in one loop with the runaway check (body_passes.hpp). Those loops must move every body
// exactly as the separate passes do, which the physics tests check at the sizes they run (the chute
// against LAMMPS at 32,000 spheres, the free falls, the Hertz impacts): the same operations in the
// same order per body, so the same bits. Checked here on bodies chosen to take every branch: bodies
// crossing the periodic faces, anisotropic and frozen ones, ones that keep their orientation and
// ones that turn, blocks with a remainder past the last four, runaways above and below the limit.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>

#include "../engine/src/sim/body_passes.hpp"
#include "grainlab/core/vector_isa.hpp"

using namespace grainlab;

namespace {

PeriodicBox chuteBox() {
    PeriodicBox box;
    box.min = Vec3(0.0, 0.0, 0.0);
    box.length = Vec3(8.0, 6.0, 40.0);
    box.periodic = {true, true, false};
    return box;
}

// 700 bodies in the box, some just inside a periodic face moving out through it; forces and torques
// as a contact pass leaves them.
Bodies mixedBodies() {
    std::mt19937 random(29);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    Bodies b;
    for (int k = 0; k < 700; ++k) {
        const bool anisotropic = k % 7 == 3;
        const bool frozen = k % 11 == 5;
        const Vec3 inertia = anisotropic ? Vec3(0.02, 0.05, 0.09) : Vec3::Constant(0.04);
        Vec3 x(8.0 * unit(random), 6.0 * unit(random), 1.0 + 38.0 * unit(random));
        Vec3 v(20.0 * unit(random) - 10.0, 20.0 * unit(random) - 10.0, 4.0 * unit(random) - 2.0);
        if (k % 5 == 0) {  // at a face, leaving through it
            x.x() = k % 10 == 0 ? 7.9999 : 1e-5;
            v.x() = k % 10 == 0 ? 30.0 : -30.0;
        }
        const Quat q = Quat(Eigen::AngleAxisd(6.0 * unit(random), Vec3(unit(random), unit(random), 1.0).normalized()));
        b.push(k, static_cast<std::uint32_t>(k % 2), 0, 0.2, 1.0 + unit(random), inertia, frozen, x, q, v,
               Vec3(unit(random) - 0.5, unit(random) - 0.5, unit(random) - 0.5) * 50.0);
    }
    b.shape_keeps_orientation = {1};  // shape 0 keeps it, shape 1 turns
    b.resizeDynamics();
    for (std::size_t i = 0; i < b.size(); ++i) {
        b.force[i] = Vec3(unit(random) - 0.5, unit(random) - 0.5, unit(random) - 0.5) * 100.0;
        b.torque[i] = Vec3(unit(random) - 0.5, unit(random) - 0.5, unit(random) - 0.5) * 3.0;
    }
    return b;
}

void requireSameBits(const Bodies& a, const Bodies& b) {
    for (std::size_t i = 0; i < a.size(); ++i) {
        CAPTURE(i);
        REQUIRE(a.position[i] == b.position[i]);
        REQUIRE(a.velocity[i] == b.velocity[i]);
        REQUIRE(a.angular_velocity[i] == b.angular_velocity[i]);
        REQUIRE(a.orientation[i].coeffs() == b.orientation[i].coeffs());
        REQUIRE(a.force[i] == b.force[i]);
        REQUIRE(a.torque[i] == b.torque[i]);
        REQUIRE(a.image[i] == b.image[i]);
    }
}

std::vector<bool> isas() {
    std::vector<bool> avx2 = {false};
    if (contactLoopIsa() == VectorIsa::Avx2) avx2.push_back(true);
    return avx2;
}

// The sweep's setting for a kick and drift: the box, weight, half step, step, (skin / 2)^2 for a
// skin of 0.1, and the bodies.
struct DriftSetting {
    PeriodicBox box = chuteBox();
    NearestImage image{box};
    Vec3 g{3.0, -1.0, -9.81};
    double h = 2.5e-4, dt = 5e-4, limit = 0.25 * 0.1 * 0.1;
    Bodies start = mixedBodies();
};

}  // namespace

TEST_CASE("The sweep's kick, drift and own jobs in one loop move bodies as the separate passes", "[engine][vector]") {
    const DriftSetting setting;
    const auto& [box, image, g, h, dt, limit, start] = setting;
    // Positions at the last build: near the current ones, one body in the second block far off.
    std::vector<Vec3> at_build = start.position;
    for (std::size_t i = 0; i < at_build.size(); ++i) at_build[i] += Vec3(0.01, -0.01, 0.005) * static_cast<double>(i % 3);
    at_build[300] += Vec3(0.0, 0.0, 0.2);
    const double unknown = std::numeric_limits<double>::infinity();
    for (const bool avx2 : isas()) {
        CAPTURE(avx2);
        Bodies separate = start, fused = start;
        const std::vector<Vec3> before = start.position;
        int far_blocks = 0;
        // Blocks as the sweep cuts them, and ones ending past a multiple of four.
        for (const auto& [begin, end] : std::vector<std::pair<std::size_t, std::size_t>>{{0, 256}, {256, 511}, {511, 700}}) {
            const KickDrift move_separate{&separate, h, dt, true, avx2};
            move_separate(begin, end);
            wrapInto(box, separate, begin, end, avx2);
            const bool far = movedFar(image, separate, at_build, limit, begin, end, avx2);
            startForces(separate, g, begin, end, avx2);
            const KickDrift move_fused{&fused, h, dt, true, avx2};
            double reach = -1.0;
            CHECK(kickDriftAndStart(move_fused, box, image, &at_build, limit, unknown, g, begin, end, avx2, reach) == far);
            far_blocks += far ? 1 : 0;
            // The block's reach is its largest drift: at least every body's move (across a face
            // by the nearest image), and no more than the fastest body's to rounding.
            double largest = 0.0;
            for (std::size_t i = begin; i < end; ++i)
                largest = std::max(largest, std::sqrt(image.squaredDistance(fused.position[i] - before[i])));
            CHECK(reach >= largest);
            CHECK(reach <= largest * (1.0 + 1e-9) + 1e-12);
        }
        requireSameBits(separate, fused);
        // Without positions at a build, no body is reported far.
        double reach = 0.0;
        CHECK_FALSE(kickDriftAndStart(KickDrift{&fused, h, dt, true, avx2}, box, image, nullptr, limit, unknown, g, 0, 700,
                                      avx2, reach));
        // The comparison means something only if bodies crossed the faces and both verdicts came.
        int crossings = 0;
        for (std::size_t i = 0; i < separate.size(); ++i) crossings += std::abs(separate.image[i][0]);
        CHECK(crossings >= 100);
        CHECK(far_blocks == 1);
    }
}

// The Verlet check reads the positions at the build only where the bound on how far the bodies
// have moved (before this drift, plus the drift's reach) could pass half the skin: its verdict is
// then the full check's. Bodies 0.005-0.01 from their places at the build drift up to 0.016 in this
// step (speeds to 32 m/s over dt), so every body lies within 0.026 of its place, short of the
// limit's 0.05: the bound settles every block; with the body at 300 placed 0.06 off and the bound
// saying so, the block that holds it is checked and found far.
TEST_CASE("The Verlet check's bound spares its reads only where the full check would pass", "[engine][vector]") {
    const DriftSetting setting;
    const auto& [box, image, g, h, dt, limit, start] = setting;
    const std::vector<std::pair<std::size_t, std::size_t>> blocks{{0, 256}, {256, 511}, {511, 700}};
    for (const bool far_body : {false, true}) {
        std::vector<Vec3> at_build = start.position;
        for (std::size_t i = 0; i < at_build.size(); ++i)
            at_build[i] += Vec3(0.005, -0.005, 0.005) * static_cast<double>(1 + i % 2) / std::sqrt(3.0);
        if (far_body) at_build[300] += Vec3(0.0, 0.0, 0.06);
        double moved_before = 0.0;  // the true largest move since the build
        for (std::size_t i = 0; i < at_build.size(); ++i)
            moved_before = std::max(moved_before, std::sqrt(image.squaredDistance(start.position[i] - at_build[i])));
        for (const bool avx2 : isas()) {
            CAPTURE(far_body, avx2);
            Bodies full = start, bounded = start;
            int far_blocks = 0;
            for (const auto& [begin, end] : blocks) {
                double reach = 0.0;
                const bool far = kickDriftAndStart(KickDrift{&full, h, dt, true, avx2}, box, image, &at_build, limit,
                                                   std::numeric_limits<double>::infinity(), g, begin, end, avx2, reach);
                CHECK(kickDriftAndStart(KickDrift{&bounded, h, dt, true, avx2}, box, image, &at_build, limit,
                                        moved_before, g, begin, end, avx2, reach) == far);
                far_blocks += far ? 1 : 0;
            }
            requireSameBits(full, bounded);
            CHECK(far_blocks == (far_body ? 1 : 0));
            // The bound is trusted where it settles the verdict: told that no body has moved (false
            // here), the check passes the far body's block unread.
            if (far_body) {
                Bodies trusting = start;
                double reach = 0.0;
                CHECK_FALSE(kickDriftAndStart(KickDrift{&trusting, h, dt, true, avx2}, box, image, &at_build, limit,
                                              0.0, g, 256, 511, avx2, reach));
            }
        }
    }
}

TEST_CASE("The sweep's closing kick and runaway check in one loop find the runaway the separate passes find", "[engine][vector]") {
    const double h = 2.5e-4, dt = 5e-4;
    Bodies start = mixedBodies();
    // A runaway moves more than its radius (0.2) in a step of dt: 1000 m/s moves 0.5.
    for (const std::size_t k : {130u, 301u, 302u, 650u}) start.velocity[k] = Vec3(0.0, 1000.0, 0.0);
    for (const bool avx2 : isas()) {
        // Limits below which the first runaway is sought: none, inside the four that hold one,
        // between runaways, past a block's end.
        for (const std::size_t check_below : {0u, 131u, 302u, 303u, 400u, 700u}) {
            CAPTURE(avx2, check_below);
            Bodies separate = start, fused = start;
            std::vector<std::size_t> found;
            for (const auto& [begin, end] : std::vector<std::pair<std::size_t, std::size_t>>{{0, 256}, {256, 511}, {511, 700}}) {
                KickDrift{&separate, h, 0.0, false, avx2}(begin, end);
                const std::size_t below = std::clamp(check_below, begin, end);
                const std::size_t first = firstRunaway(separate, dt, begin, below, avx2);
                const std::size_t expected = first < below ? first : end;
                const std::size_t i = kickAndFindRunaway(KickDrift{&fused, h, 0.0, false, avx2}, dt, begin, end, check_below, avx2);
                CHECK(i == expected);
                if (i < end) found.push_back(i);
            }
            requireSameBits(separate, fused);
            // Each block's first runaway below the limit.
            std::vector<std::size_t> planted;
            for (const std::size_t k : {130u, 301u, 650u})
                if (k < check_below) planted.push_back(k);
            CHECK(found == planted);
        }
    }
}

// A kick changes each body's angular momentum by h T (Euler's law over the step, the inertia
// rotated into the world frame), whether it reads a sphere's inverse inertia from the one-value
// array four bodies at a time or every body's three moments one by one.
TEST_CASE("A kick turns each body by its torque through its own inertia, in lanes or one by one", "[engine][vector]") {
    const double h = 2.5e-4;
    const Bodies start = mixedBodies();
    // Without the one-value array the kicks read the three moments (in lanes where AVX2 runs).
    Bodies by_moments = start;
    by_moments.isotropic_inv_inertia.clear();
    KickDrift{&by_moments, h, 0.0, false, isas().back()}(0, start.size());
    int isotropic = 0, anisotropic = 0;
    for (const bool avx2 : isas()) {
        CAPTURE(avx2);
        Bodies kicked = start;
        KickDrift{&kicked, h, 0.0, false, avx2}(0, start.size());
        requireSameBits(by_moments, kicked);
        for (std::size_t i = 0; i < start.size(); ++i) {
            CAPTURE(i);
            const Vec3 turn = kicked.angular_velocity[i] - start.angular_velocity[i];
            if (start.frozen[i] != 0) {
                CHECK(turn == Vec3::Zero());
                continue;
            }
            const Mat3 rotation = start.orientation[i].toRotationMatrix();
            const Vec3& moments = start.inertia[i];
            const bool sphere = moments[0] == moments[1] && moments[1] == moments[2];
            (sphere ? isotropic : anisotropic) += 1;
            const Vec3 impulse = sphere ? Vec3(moments[0] * turn)
                                        : Vec3(rotation * moments.asDiagonal() * rotation.transpose() * turn);
            // The turn is a difference of spins some 10^4 times its size: their rounding bounds it.
            const double rounding = 1e-14 * moments.maxCoeff() * start.angular_velocity[i].norm();
            CHECK((impulse - h * start.torque[i]).norm() <= 1e-12 * (h * start.torque[i]).norm() + rounding);
        }
    }
    CHECK(isotropic > 400);
    CHECK(anisotropic > 50);
}

// Where every shape keeps its orientation the sweep skips the orientations: the drift must then
// move every body exactly as the pass that reads each body's shape (and turns none).
TEST_CASE("The sweep's drift skips the orientations only where no shape turns", "[engine][vector]") {
    DriftSetting setting;
    Bodies& start = setting.start;
    CHECK_FALSE(start.everyShapeKeepsOrientation(2));  // shape 1 is past the flags' end: it turns
    start.shape_keeps_orientation = {1, 1};
    REQUIRE(start.everyShapeKeepsOrientation(2));
    CHECK_FALSE(start.everyShapeKeepsOrientation(3));
    const double unknown = std::numeric_limits<double>::infinity();
    for (const bool avx2 : isas()) {
        CAPTURE(avx2);
        Bodies each = start, skipping = start;
        double reach_each = 0.0, reach_skipping = 0.0;
        const bool far = kickDriftAndStart(KickDrift{&each, setting.h, setting.dt, true, avx2}, setting.box,
                                           setting.image, nullptr, setting.limit, unknown, setting.g, 0, 700, avx2,
                                           reach_each, false);
        CHECK(kickDriftAndStart(KickDrift{&skipping, setting.h, setting.dt, true, avx2}, setting.box, setting.image,
                                nullptr, setting.limit, unknown, setting.g, 0, 700, avx2, reach_skipping, true) == far);
        requireSameBits(each, skipping);
        CHECK(reach_each == reach_skipping);
        for (std::size_t i = 0; i < start.size(); ++i) REQUIRE(skipping.orientation[i].coeffs() == start.orientation[i].coeffs());
    }
}
