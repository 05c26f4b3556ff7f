#include "random_fill.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <unordered_map>

#include "grainlab/core/error.hpp"
#include "seeded_random.hpp"

namespace grainlab::detail {
namespace {

// Tries per body before the fill gives up: enough for fills well below the jamming fraction of
// random sequential addition (about 38% for equal spheres), bounded so a hopeless fill ends fast.
constexpr int kAttemptsPerBody = 5000;
// No packing of equal spheres is denser than this (Kepler); above it a fill cannot succeed.
constexpr double kDensestPacking = 0.7405;

// Samples centres that keep a sphere of a given radius fully inside the region.
class RegionSampler {
public:
    explicit RegionSampler(const Region& region) : region_(region) {
        if (const auto* box = std::get_if<BoxRegion>(&region_)) {
            lo_ = box->min, hi_ = box->max;
            volume_ = (box->max - box->min).prod();
            return;
        }
        const auto& c = std::get<CylinderRegion>(region_);
        // Perpendicular unit vectors spanning the cross-section.
        const Vec3 helper = std::fabs(c.axis.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
        e1_ = c.axis.cross(helper).normalized();
        e2_ = c.axis.cross(e1_);
        const Vec3 top = c.base_center + c.height * c.axis;
        for (int k = 0; k < 3; ++k) {
            const double reach = c.radius * std::sqrt(std::max(0.0, 1.0 - c.axis[k] * c.axis[k]));
            lo_[k] = std::min(c.base_center[k], top[k]) - reach;
            hi_[k] = std::max(c.base_center[k], top[k]) + reach;
        }
        volume_ = kPi * c.radius * c.radius * c.height;
    }

    double volume() const { return volume_; }
    const Vec3& lower() const { return lo_; }
    const Vec3& upper() const { return hi_; }

    bool fits(double r) const {
        if (const auto* box = std::get_if<BoxRegion>(&region_))
            return ((box->max - box->min).array() >= 2 * r).all();
        const auto& c = std::get<CylinderRegion>(region_);
        return c.radius >= r && c.height >= 2 * r;
    }

    // Call only when fits(r).
    Vec3 sample(SeededRandom& random, double r) const {
        if (const auto* box = std::get_if<BoxRegion>(&region_)) {
            Vec3 p;
            for (int k = 0; k < 3; ++k) p[k] = random.uniform(box->min[k] + r, box->max[k] - r);
            return p;
        }
        const auto& c = std::get<CylinderRegion>(region_);
        const double along = random.uniform(r, c.height - r);
        const auto [x, y] = random.inUnitDisk();
        return c.base_center + along * c.axis + (c.radius - r) * (x * e1_ + y * e2_);
    }

private:
    Region region_;
    Vec3 lo_ = Vec3::Zero(), hi_ = Vec3::Zero(), e1_ = Vec3::UnitX(), e2_ = Vec3::UnitY();
    double volume_ = 0.0;
};

double sampleRadius(const SizeDistribution& size, SeededRandom& random) {
    switch (size.kind) {
        case SizeDistribution::Kind::Uniform:
            return random.uniform(size.min, size.max);
        case SizeDistribution::Kind::Normal:
            // Truncated normal by rejection; the parser guarantees min <= mean <= max, so the
            // fallback (the mean) is only reached for extremely narrow windows.
            for (int attempt = 0; attempt < 1000; ++attempt) {
                const double r = size.mean + size.stddev * random.normal();
                if (r >= size.min && r <= size.max) return r;
            }
            return std::clamp(size.mean, size.min, size.max);
        case SizeDistribution::Kind::Constant:
            break;
    }
    return size.value;
}

// Spheres no larger than the fill's largest, hashed into cubes of one largest diameter: a
// candidate can only touch spheres in its own and the 26 neighbouring cells. Larger obstacles
// (rare: a few big bodies already in the scene) are checked one by one.
class OverlapGrid {
public:
    explicit OverlapGrid(double largest_radius)
        : cell_(2.0 * largest_radius), largest_(largest_radius) {}

    void add(const Sphere& s) {
        if (s.radius > largest_)
            large_.push_back(s);
        else
            cells_[keyOf(cellOf(s.center))].push_back(s);
    }

    bool overlaps(const Vec3& center, double radius) const {
        for (const auto& s : large_)
            if (touches(s, center, radius)) return true;
        const Cell c = cellOf(center);
        for (long dx = -1; dx <= 1; ++dx)
            for (long dy = -1; dy <= 1; ++dy)
                for (long dz = -1; dz <= 1; ++dz) {
                    auto it = cells_.find(keyOf({c[0] + dx, c[1] + dy, c[2] + dz}));
                    if (it == cells_.end()) continue;
                    for (const auto& s : it->second)
                        if (touches(s, center, radius)) return true;
                }
        return false;
    }

private:
    using Cell = std::array<long, 3>;
    static bool touches(const Sphere& s, const Vec3& center, double radius) {
        const double reach = s.radius + radius;
        return (s.center - center).squaredNorm() < reach * reach;
    }
    Cell cellOf(const Vec3& p) const {
        return {static_cast<long>(std::floor(p.x() / cell_)),
                static_cast<long>(std::floor(p.y() / cell_)),
                static_cast<long>(std::floor(p.z() / cell_))};
    }
    static std::uint64_t keyOf(const Cell& c) {
        // Mixes the three indices; distinct cells may share a key, which only costs extra checks.
        std::uint64_t h = 1469598103934665603ull;
        for (long v : c) h = (h ^ static_cast<std::uint64_t>(v)) * 1099511628211ull;
        return h;
    }

    double cell_, largest_;
    std::unordered_map<std::uint64_t, std::vector<Sphere>> cells_;
    std::vector<Sphere> large_;
};

std::string percent(double fraction) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f%%", 100.0 * fraction);
    return buffer;
}

std::string number(double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", x);
    return buffer;
}

double sphereVolume(double r) {
    return 4.0 / 3.0 * kPi * r * r * r;
}

}  // namespace

std::vector<BodySpec> randomFill(const RandomFill& fill, const std::vector<Sphere>& obstacles,
                                 const std::string& file, const std::string& pointer) {
    const std::string advice = "; enlarge the region or lower the count or the radius";
    const RegionSampler region(fill.region);
    SeededRandom random(fill.seed);

    // Radii first, largest placed first: small bodies then fill the gaps between large ones.
    std::vector<double> radii(static_cast<std::size_t>(std::max(fill.count, 0)));
    for (double& r : radii) r = sampleRadius(fill.radius, random);
    std::stable_sort(radii.begin(), radii.end(), std::greater<>());
    if (radii.empty()) return {};

    double total = 0.0;
    for (double r : radii) total += sphereVolume(r);
    if (total > kDensestPacking * region.volume())
        throw InputError(file, pointer,
                         "cannot place " + std::to_string(fill.count) +
                             " bodies: they would fill " + percent(total / region.volume()) +
                             " of the region, and spheres cannot fill more than " +
                             percent(kDensestPacking) + advice);
    if (!region.fits(radii.front()))
        throw InputError(
            file, pointer,
            "a body of radius " + number(radii.front()) + " does not fit in the region" + advice);

    OverlapGrid grid(radii.front());
    const double margin = 2.0 * radii.front();
    for (const auto& s : obstacles) {
        // Only obstacles that can reach into the region matter.
        const Vec3 nearest = s.center.cwiseMax(region.lower()).cwiseMin(region.upper());
        if ((nearest - s.center).norm() < s.radius + margin) grid.add(s);
    }

    std::vector<BodySpec> bodies;
    bodies.reserve(radii.size());
    double placed_volume = 0.0;
    for (double r : radii) {
        bool placed = false;
        for (int attempt = 0; attempt < kAttemptsPerBody && !placed; ++attempt) {
            const Vec3 p = region.sample(random, r);
            if (grid.overlaps(p, r)) continue;
            grid.add({p, r});
            BodySpec body;
            body.shape = fill.shape;
            body.material = fill.material;
            body.radius = r;
            body.position = p;
            body.velocity = fill.velocity;
            body.frozen = fill.frozen;
            bodies.push_back(body);
            placed_volume += sphereVolume(r);
            placed = true;
        }
        if (!placed)
            throw InputError(
                file, pointer,
                "placed only " + std::to_string(bodies.size()) + " of " +
                    std::to_string(fill.count) + " bodies: no free spot for one of radius " +
                    number(r) + " in " + std::to_string(kAttemptsPerBody) +
                    " tries (the placed bodies fill " + percent(placed_volume / region.volume()) +
                    " of the region; random filling rarely exceeds 35%)" + advice);
    }
    return bodies;
}

}  // namespace grainlab::detail
