#include "grainlab/sim/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include "grainlab/core/error.hpp"
#include "grainlab/core/parallel.hpp"
#include "grainlab/core/vector_isa.hpp"
#include "grainlab/geometry/polyhedron.hpp"
#include "grainlab/io/mesh_file.hpp"
#include "grainlab/sim/build_bodies.hpp"
#include "grainlab/sim/material_pairs.hpp"
#include "grainlab/sim/rigid_contacts.hpp"
#include "grainlab/sim/spatial_sort.hpp"
#include "body_passes.hpp"

namespace grainlab {
namespace {

std::string number(double v) {
    std::ostringstream os;
    os.precision(4);
    os << v;
    return os.str();
}

void loadMeshes(Scene& scene) {
    for (std::size_t k = 0; k < scene.meshes.size(); ++k) {
        MeshWall& wall = scene.meshes[k];
        if (!wall.mesh.empty()) continue;
        try {
            wall.mesh = loadMesh(wall.file).mesh;
        } catch (const InputError& e) {
            throw InputError(scene.source_file, "/walls (mesh '" + wall.name + "')/file", e.what());
        }
        for (Vec3& v : wall.mesh.vertices) v = v * wall.scale + wall.translation;
    }
}

// Refuses initial overlaps deeper than the scene allows, naming the worst pair.
void checkOverlaps(const Scene& scene, const Bodies& bodies, const NeighborList& list, const PeriodicBox& box) {
    // Bounding spheres of polyhedra may overlap freely; their surfaces are checked by gap.
    auto polyhedral = [&](std::size_t i) { return scene.shapes[bodies.shape[i]].kind == ShapeSpec::Kind::Polyhedron; };
    double worst = 0.0, worst_depth = 0.0;
    std::size_t wi = 0, wj = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i)
        for (std::uint32_t k = list.row_start[i]; k < list.row_start[i + 1]; ++k) {
            const std::uint32_t j = list.partner[k];
            if (polyhedral(i) || polyhedral(j)) continue;
            const double depth = bodies.radius[i] + bodies.radius[j] -
                                 box.nearestImage(bodies.position[i] - bodies.position[j]).norm();
            const double relative = depth / std::min(bodies.radius[i], bodies.radius[j]);
            if (relative > worst) { worst = relative; worst_depth = depth; wi = i; wj = j; }
        }
    if (worst > scene.max_initial_overlap)
        throw InputError(scene.source_file, "/bodies",
                         "bodies " + std::to_string(bodies.id[wi]) + " and " + std::to_string(bodies.id[wj]) +
                             " overlap by " + number(worst_depth) + " (" + number(100.0 * worst) +
                             "% of the smaller radius), the largest initial overlap; the scene allows " +
                             number(100.0 * scene.max_initial_overlap) + "% (max_initial_overlap)");
}

// An integrator that cannot use the contact model (e.g. an implicit one that needs a differentiable
// law) refuses it here, naming the scene field.
void checkIntegratorFits(const Integrator& integrator, const std::string& integrator_name, const ContactModel& model,
                         const std::string& model_name, const MaterialPairTable& materials, const std::string& file) {
    if (const auto refusal = integrator.refuse(model, materials))
        throw InputError(file, refusal->field,
                         "integrator '" + integrator_name + "' cannot run with contact model '" + model_name + "': " +
                             refusal->message);
}

// Saved feature contacts must fit the restored run: its contact model's history size and range,
// and walls that exist (bodies and materials were checked when the file was read).
void checkSavedFeatureContacts(const PolyhedralContactList& saved, const PolyhedralContactList& now, std::size_t bodies,
                               std::size_t walls, const std::string& file) {
    if (now.range <= 0.0 && !saved.contacts.empty())
        throw InputError(file, "polyhedral/contact_ids",
                         "the checkpoint holds feature contacts, but its contact model does not use them");
    if (saved.history_size != now.history_size || saved.history.size() != saved.contacts.size() * now.history_size)
        throw InputError(file, "polyhedral/history",
                         "the saved feature-contact history has " + std::to_string(saved.history_size) +
                             " values per contact, the contact model uses " + std::to_string(now.history_size));
    for (const PolyhedralContact& c : saved.contacts)
        if (c.body_a >= bodies || (c.wall() ? static_cast<std::size_t>(-1 - c.body_b) >= walls
                                            : static_cast<std::size_t>(c.body_b) >= bodies))
            throw InputError(file, "polyhedral/contact_ids", "a feature contact names a body or wall that does not exist");
}

}  // namespace

Simulation::Simulation(Scene scene, const PluginRegistry& registry) : scene_(std::move(scene)), registry_(registry) {
    if (scene_.materials.empty()) throw InputError(scene_.source_file, "/materials", "the scene defines no material");
    loadMeshes(scene_);
    state_.bodies = buildBodies(scene_);
    markKeptOrientations(scene_, state_.bodies);
    setUpPlugins();
    setUpDomain();
    Bodies& bodies = state_.bodies;
    for (std::size_t i = 0; i < bodies.size(); ++i) box_.wrap(bodies.position[i]);

    state_.polyhedral.range = contact_model_->featureContactRange();
    if (sortDue()) sortBodies();
    buildNeighborList(state_.pairs, bodies, box_, listReach(), contact_model_->historySize(), threads_);
    checkOverlaps(scene_, bodies, state_.pairs, box_);

    if (scene_.solver) setupSolver(*scene_.solver);
    if (scene_.post_step) setupPostStep(*scene_.post_step);
    const TimeStepLimit limit = timeStepLimit();
    if (!(scene_.time_step > 0.0) || (!solver_ && scene_.time_step > limit.limit))
        throw InputError(scene_.source_file, "/time_step",
                         "time step " + number(scene_.time_step) + " is above the stability limit " + number(limit.limit) +
                             " of contact model '" + contact_model_.name() + "' (" + limit.how + "); recommended: " +
                             number(limit.recommended));
    walls_.setup(scene_);
    walls_.refreshCandidates(bodies, skin_, threads_);
    setupFeatureContacts();
}

void Simulation::setupFeatureContacts() {
    const Bodies& bodies = state_.bodies;
    std::size_t polyhedra = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i)
        polyhedra += scene_.shapes[bodies.shape[i]].kind == ShapeSpec::Kind::Polyhedron ? 1 : 0;
    if (state_.polyhedral.range <= 0.0) {
        if (polyhedra > 0)
            throw InputError(scene_.source_file, "/contact_model",
                             "contact model '" + contact_model_.name() + "' handles spheres only, but the scene has " +
                                 std::to_string(polyhedra) + " polyhedral bodies; use a model for polyhedra "
                                 "(polyhedral-barrier)");
        return;
    }
    if (scene_.domain.anyPeriodic())
        throw InputError(scene_.source_file, "/domain",
                         "contact model '" + contact_model_.name() + "' does not support periodic domains yet");
    state_.polyhedral.history_size = contact_model_->historySize();
    feature_phase_.setup(scene_, bodies);
    feature_phase_.find(bodies, state_.pairs, walls_, threads_, state_.polyhedral);
    // The barrier law needs a positive gap: bodies must start apart.
    std::uint32_t a = 0, b = 0;
    if (feature_phase_.firstInterpenetration(bodies, state_.pairs, a, b))
        throw InputError(scene_.source_file, "/bodies",
                         "body " + std::to_string(bodies.id[a]) + " and body " + std::to_string(bodies.id[b]) +
                             " interpenetrate; polyhedral contacts need every body to start apart");
    for (const PolyhedralContact& c : state_.polyhedral.contacts) {
        if (c.geometry.gap > 0.0) continue;
        const std::string other = c.wall() ? "wall " + std::to_string(-1 - c.body_b)
                                           : "body " + std::to_string(bodies.id[static_cast<std::size_t>(c.body_b)]);
        throw InputError(scene_.source_file, "/bodies",
                         "body " + std::to_string(bodies.id[c.body_a]) + " and " + other + " interpenetrate (gap " +
                             number(c.geometry.gap) + "); polyhedral contacts need every body to start apart");
    }
}

// The set-up checks (overlaps, time step) are not repeated: they held when the run began, and the
// time step limit depends on the current speeds, which may legitimately be higher now.
Simulation::Simulation(Scene scene, const PluginRegistry& registry, State state, RestartExtras extras,
                       const std::string& checkpoint_file)
    : scene_(std::move(scene)), registry_(registry), state_(std::move(state)) {
    if (scene_.materials.empty()) throw InputError(checkpoint_file, "/scene/materials", "the scene defines no material");
    loadMeshes(scene_);
    // Polyhedral shapes come from their files, as when the run began (bodies reference them by index).
    try {
        loadShapes(scene_);
    } catch (const InputError& e) {
        throw InputError(checkpoint_file, "/scene" + e.field(), e.what());
    }
    markKeptOrientations(scene_, state_.bodies);
    setUpPlugins();
    setUpDomain();
    const std::size_t n = state_.bodies.size();
    const std::size_t h = contact_model_->historySize();
    // Contact dynamics keeps wall contacts without tangential history: only penalty runs must match.
    const bool wall_history_fits = scene_.solver || state_.wall_history.size() == state_.wall_contacts.size() * h;
    if (state_.pairs.history.size != h || !wall_history_fits)
        throw InputError(checkpoint_file, "neighbors/history",
                         "the saved contact history has " + std::to_string(state_.pairs.history.size) +
                             " values per contact, contact model '" + contact_model_.name() + "' now uses " +
                             std::to_string(h));
    for (const WallContact& c : state_.wall_contacts)
        if (c.body >= n) throw InputError(checkpoint_file, "walls/contact_ids", "a wall contact names a body that does not exist");
    orientPairRows(state_.pairs, *contact_model_);  // a file from before the rows' order changed
    walls_.setup(scene_);
    if (!walls_.restoreCandidates(std::move(extras.wall_candidates), n))
        throw InputError(checkpoint_file, "walls/candidates", "the saved wall candidates do not fit the scene's meshes");
    for (const WallContact& c : state_.wall_contacts)
        if (c.wall >= walls_.count()) throw InputError(checkpoint_file, "walls/contact_ids", "a wall contact names a wall that does not exist");
    if (scene_.solver) setupSolver(*scene_.solver);
    if (scene_.post_step) setupPostStep(*scene_.post_step);
    if (!contact_dynamics_.restoreWarmStart(std::move(extras.warm_start_keys), std::move(extras.warm_start_impulses)))
        throw InputError(checkpoint_file, "solver/keys", "the saved warm start is not sorted by contact or its sizes differ");
    // Feature contacts (polyhedra): the set-up search checks the bodies, then the saved list
    // replaces what it found, so the next step carries the same tangential history and sees the
    // same previous normals. Files from before they were saved resume with the contacts found again.
    PolyhedralContactList saved = std::move(state_.polyhedral);
    state_.polyhedral = {};
    state_.polyhedral.range = contact_model_->featureContactRange();
    setupFeatureContacts();
    if (extras.feature_contacts_saved) {
        checkSavedFeatureContacts(saved, state_.polyhedral, n, walls_.count(), checkpoint_file);
        state_.polyhedral.contacts = std::move(saved.contacts);
        state_.polyhedral.history = std::move(saved.history);
        state_.polyhedral.flipped = saved.flipped;
    }
    forces_current_ = extras.forces_current;
}

void Simulation::setUpPlugins() {
    contact_model_ = registry_.createContactModel(scene_.contact_model, scene_.source_file);
    integrator_ = registry_.createIntegrator(scene_.integrator, scene_.source_file);
    material_pairs_ = mixMaterials(scene_.materials);
    checkIntegratorFits(*integrator_, integrator_.name(), *contact_model_, contact_model_.name(), material_pairs_,
                        scene_.source_file);
    setThreads(scene_.threads);
    step_dt_ = scene_.time_step;
}

void Simulation::setUpDomain() {
    const Bodies& bodies = state_.bodies;
    const double max_radius = bodies.size() ? *std::max_element(bodies.radius.begin(), bodies.radius.end()) : 0.0;
    skin_ = scene_.skin > 0.0 ? scene_.skin : 0.5 * std::max(max_radius, 1e-12);
    box_.min = scene_.domain.min;
    box_.length = scene_.domain.max - scene_.domain.min;
    box_.periodic = scene_.domain.periodic;
    const double range = 2.0 * max_radius + skin_;
    for (int k = 0; k < 3; ++k) {
        if (!box_.periodic[k]) continue;
        if (box_.length[k] < 2.0 * range)
            throw InputError(scene_.source_file, "/domain",
                             std::string("the periodic length along ") + "xyz"[k] + " (" + number(box_.length[k]) +
                                 ") must be at least twice the interaction range 2 r_max + skin = " + number(range));
    }
}

TimeStepLimit Simulation::timeStepLimit() const {
    StabilityInput input;
    const Bodies& b = state_.bodies;
    bool any = false;
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (b.frozen[i]) continue;
        if (!any) { input.min_mass = b.mass[i]; input.min_radius = b.radius[i]; any = true; }
        input.min_mass = std::min(input.min_mass, b.mass[i]);
        input.min_radius = std::min(input.min_radius, b.radius[i]);
        input.max_speed = std::max(input.max_speed, b.velocity[i].norm());
    }
    input.gravity = scene_.gravity.norm();
    input.min_density = scene_.materials.front().density;
    input.max_youngs = 0.0;
    for (const Material& m : scene_.materials) {
        input.min_density = std::min(input.min_density, m.density);
        if (m.youngs_modulus > input.max_youngs) {
            input.max_youngs = m.youngs_modulus;
            input.poisson_at_max_youngs = m.poisson_ratio;
        }
        input.max_shear_modulus = std::max(input.max_shear_modulus, m.youngs_modulus / (2.0 * (1.0 + m.poisson_ratio)));
    }
    return contact_model_->timeStepLimit(input, material_pairs_);
}

void Simulation::setThreads(int threads) {
    settle();
    threads_ = threads > 0 ? threads : automaticThreads(state_.bodies.size());
    if (accumulators_.size() == static_cast<std::size_t>(threads_)) return;
    accumulators_.assign(static_cast<std::size_t>(threads_), ThreadAccumulator{});
    thread_buffers_.assign(threads_ > 1 ? static_cast<std::size_t>(2 * threads_) : 0, {});
}

void Simulation::setContactModel(const PluginChoice& choice) {
    settle();
    auto model = registry_.createContactModel(choice);
    checkIntegratorFits(*integrator_, integrator_.name(), *model, model.name(), material_pairs_, scene_.source_file);
    if (model->historySize() != contact_model_->historySize()) {
        state_.pairs.history = PairHistory{};
        state_.pairs.history.size = model->historySize();
        state_.wall_history.clear();
    }
    const double old_range = state_.polyhedral.range;
    contact_model_ = std::move(model);
    scene_.contact_model = choice;
    state_.polyhedral.range = contact_model_->featureContactRange();
    if (state_.polyhedral.range != old_range || state_.polyhedral.history_size != contact_model_->historySize()) {
        state_.polyhedral.contacts.clear();
        state_.polyhedral.history.clear();
        buildNeighborList(state_.pairs, state_.bodies, box_, listReach(), contact_model_->historySize(), threads_);
        setupFeatureContacts();
    }
    reevaluateForces();
}

void Simulation::setIntegrator(const PluginChoice& choice) {
    settle();
    auto integrator = registry_.createIntegrator(choice);
    checkIntegratorFits(*integrator, integrator.name(), *contact_model_, contact_model_.name(), material_pairs_,
                        scene_.source_file);
    integrator_ = std::move(integrator);
    scene_.integrator = choice;
}

void Simulation::addBodies(const std::vector<BodySpec>& specs) {
    settle();
    const Bodies before = state_.bodies;
    appendBodies(scene_, specs, state_.bodies, "/bodies (added)");
    Bodies& bodies = state_.bodies;
    for (std::size_t i = before.size(); i < bodies.size(); ++i) box_.wrap(bodies.position[i]);
    // Existing bodies keep their indices, so the rebuild keeps every pair's history.
    try {
        buildNeighborList(state_.pairs, bodies, box_, skin_, contact_model_->historySize(), threads_);
        checkOverlaps(scene_, bodies, state_.pairs, box_);
    } catch (const InputError&) {
        state_.bodies = before;
        buildNeighborList(state_.pairs, state_.bodies, box_, skin_, contact_model_->historySize(), threads_);
        throw;
    }
    scene_.bodies.insert(scene_.bodies.end(), specs.begin(), specs.end());
    setThreads(scene_.threads);  // an automatic count follows the bodies
    walls_.refreshCandidates(bodies, skin_, threads_);
    reevaluateForces();
}

void Simulation::addShape(ShapeSpec shape) {
    settle();
    for (const ShapeSpec& existing : scene_.shapes)
        if (existing.name == shape.name)
            throw InputError(scene_.source_file, "/shapes", "a shape named '" + shape.name + "' exists already");
    if (shape.kind == ShapeSpec::Kind::Polyhedron && !shape.polyhedron)
        shape.polyhedron = std::make_shared<const Polyhedron>(loadPolyhedron(shape.file, shape.scale, shape.repair_orientation));
    scene_.shapes.push_back(std::move(shape));
    markKeptOrientations(scene_, state_.bodies);  // a sphere shape added here keeps orientations too
}

void Simulation::reevaluateForces() {
    settle();
    // Forces the integrator left current already advanced the contact history for this
    // configuration: evaluate again without time passing. Otherwise the next step does it.
    // Contact dynamics computes its own impulses each step.
    if (forces_current_ && !solver_) evaluateForces(0.0);
}

void Simulation::carryWallHistory(const std::vector<WallContact>& previous, const std::vector<double>& previous_history) {
    // A contact keeps the history of the previous step's contact of the same body and wall whose
    // normal is closest, so a sphere rolling across triangle edges keeps its tangential spring.
    const std::size_t h = contact_model_->historySize();
    state_.wall_history.assign(state_.wall_contacts.size() * h, 0.0);
    if (h == 0 || previous_history.size() != previous.size() * h) return;
    std::size_t first = 0;
    for (std::size_t c = 0; c < state_.wall_contacts.size(); ++c) {
        const WallContact& now = state_.wall_contacts[c];
        while (first < previous.size() && previous[first].body < now.body) ++first;
        double best = 0.9;
        std::size_t match = previous.size();
        for (std::size_t p = first; p < previous.size() && previous[p].body == now.body; ++p) {
            const double alignment = previous[p].normal.dot(now.normal);
            if (previous[p].wall == now.wall && alignment > best) { best = alignment; match = p; }
        }
        if (match < previous.size())
            std::copy_n(previous_history.data() + match * h, h, state_.wall_history.data() + c * h);
    }
}

void Simulation::setupSolver(const PluginChoice& choice) {
    const std::string where = "/plugins/solver";
    solver_ = registry_.createSolver(choice, scene_.source_file, where);
    const PluginInfo* info = registry_.find(choice.name, PluginKind::Solver);
    const ParameterValues values = registry_.resolveParameters(*info, choice, scene_.source_file, where);
    const Bodies& b = state_.bodies;
    const double min_radius = b.size() ? *std::min_element(b.radius.begin(), b.radius.end()) : 1.0;
    contact_dynamics_.settings = ContactDynamicsSettings::from(values, 0.05 * min_radius);
    // Wall and pair candidates reach `skin` beyond contact: contacts in the envelope must be among them.
    if (contact_dynamics_.settings.envelope >= 0.5 * skin_)
        throw InputError(scene_.source_file, where + "/parameters/envelope",
                         "envelope " + number(contact_dynamics_.settings.envelope) +
                             " must be below half the neighbour skin (" + number(0.5 * skin_) + "); raise \"skin\"");
}

void Simulation::setSolver(const std::optional<PluginChoice>& choice) {
    settle();
    if (choice) {
        PluginInstance<Solver> previous = std::move(solver_);
        const ContactDynamicsSettings previous_settings = contact_dynamics_.settings;
        try {
            setupSolver(*choice);
        } catch (const InputError&) {
            solver_ = std::move(previous);
            contact_dynamics_.settings = previous_settings;
            throw;
        }
        scene_.solver = choice;
        return;
    }
    const TimeStepLimit limit = timeStepLimit();
    if (scene_.time_step > limit.limit)
        throw InputError(scene_.source_file, "/plugins/solver",
                         "without a solver, contact model '" + contact_model_.name() + "' needs a time step below " +
                             number(limit.limit) + " (" + limit.how + "); this scene's is " + number(scene_.time_step));
    solver_ = {};
    post_step_ = {};
    scene_.solver.reset();
    scene_.post_step.reset();
    forces_current_ = false;
}

void Simulation::setupPostStep(const PluginChoice& choice) {
    const std::string where = "/plugins/post_step";
    if (!solver_)
        throw InputError(scene_.source_file, where,
                         "post-step '" + choice.name + "' runs after a contact-dynamics solver, but the scene names "
                         "no solver (\"plugins\": {\"solver\": ...})");
    post_step_ = registry_.createPostStep(choice, scene_.source_file, where);
    double max_friction = 0.0;
    for (const PairProperties& p : material_pairs_.table) max_friction = std::max(max_friction, p.friction);
    const std::string why = post_step_->unsupported(max_friction);
    if (!why.empty()) throw InputError(scene_.source_file, where, "post-step '" + choice.name + "': " + why);
}

void Simulation::stepContactDynamics() {
    Bodies& bodies = state_.bodies;
    refreshNeighbours(false);
    const PhaseTimer timer(phases_.forces);
    const double envelope = contact_dynamics_.settings.envelope;
    if (state_.polyhedral.range > 0.0) {
        // Polyhedra: the feature narrow phase finds every contact, as for the penalty model.
        feature_phase_.find(bodies, state_.pairs, walls_, threads_, state_.polyhedral);
        findFeatureContacts(bodies, state_.polyhedral, material_pairs_, envelope, rigid_contacts_);
    } else {
        walls_.findContacts(bodies, threads_, state_.wall_contacts, envelope);
        findSphereContacts(bodies, state_.pairs, box_, state_.wall_contacts, material_pairs_, envelope, rigid_contacts_);
    }
    const ContactDynamicsResult result =
        contact_dynamics_.step(bodies, rigid_contacts_, *solver_, scene_.gravity, scene_.time_step, threads_,
                               post_step_ ? &*post_step_ : nullptr);
    solver_report_ = result.report;
    post_step_report_ = result.post_step;
    state_.dissipated += result.dissipated;
    state_.elastic = 0.0;
    state_.contacts = 0;
    records_.clear();
    const Eigen::VectorXd& impulses = contact_dynamics_.impulses();
    for (std::size_t i = 0; i < rigid_contacts_.size(); ++i) {
        const Vec3 impulse = impulses.segment<3>(static_cast<Eigen::Index>(3 * i));
        if (!(impulse[0] > 0.0)) continue;
        ++state_.contacts;
        if (!record_contacts_) continue;
        const RigidContact& c = rigid_contacts_[i];
        records_.push_back({c.key.a, c.key.b, c.point, c.normal,
                            contact_dynamics_.system().frame(i) * impulse / scene_.time_step, -c.gap});
    }
    forces_current_ = true;
}

// Sorting renumbers bodies: only where nothing else holds body indices across a force evaluation
// (no feature contacts, no solver's warm start, no implicit integrator's per-step arrays) and the
// contact model can turn a pair's history round.
bool Simulation::sortDue() const {
    const SpatialSortSettings& s = scene_.spatial_sort;
    return s.every_builds > 0 && state_.pairs.builds % s.every_builds == 0 &&
           static_cast<long>(state_.bodies.size()) >= s.min_bodies && !scene_.solver &&
           state_.polyhedral.range <= 0.0 && !integrator_->needsFrozenContacts() && contact_model_->swapsHistoryRoles();
}

void Simulation::sortBodies() {
    const std::vector<double>& r = state_.bodies.radius;
    const double max_radius = r.empty() ? 1.0 : *std::max_element(r.begin(), r.end());
    // Cells of half the neighbour range, as LAMMPS's default sort bins.
    reorderState(state_, spatialOrder(state_.bodies, box_, 0.5 * (2.0 * max_radius + listReach())), *contact_model_,
                 threads_);
    contact_dynamics_.restoreWarmStart({}, {});  // keyed by the old numbers
}

void Simulation::checkMotion() const {
    const Bodies& b = state_.bodies;
    // Each thread finds the first offending body of its range; the lowest is reported (the same
    // body whatever the thread count). Exceptions must not leave a parallel region.
    std::vector<std::size_t> first(static_cast<std::size_t>(std::max(1, threads_)), b.size());
    const bool avx2 = contactLoopIsa() == VectorIsa::Avx2;
    parallelRanges(b.size(), threads_, [&](int t, std::size_t begin, std::size_t end) {
        const std::size_t i = firstRunaway(b, step_dt_, begin, end, avx2);
        if (i < end) first[static_cast<std::size_t>(t)] = i;
    });
    const std::size_t i = *std::min_element(first.begin(), first.end());
    if (i < b.size()) throwRunaway(i);
}

void Simulation::throwRunaway(std::size_t i) const {
    const Bodies& b = state_.bodies;
    const double dt = step_dt_;
    const bool finite = b.position[i].allFinite() && b.velocity[i].allFinite() && b.angular_velocity[i].allFinite();
    const double travel = b.velocity[i].norm() * dt;
    std::string what = finite ? "moved " + number(travel / b.radius[i]) + " radii in one step (speed " +
                                    number(b.velocity[i].norm()) + "): a runaway velocity"
                              : "has a non-finite position or velocity";
    throw SimulationError("body " + std::to_string(b.id[i]) + " " + what + " at step " + std::to_string(state_.step) +
                          " (t = " + number(state_.time) + "); the run stopped. Check the time step, the contact"
                          " stiffness and initial overlaps.");
}

void Simulation::step(bool another_follows) {
    // What the step's phases did not time is the integrator's (its own passes, the motion check).
    const auto start = std::chrono::steady_clock::now();
    const double timed = phases_.total();
    takeStep(another_follows);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    phases_.integration += elapsed - (phases_.total() - timed);
}

void Simulation::takeStep(bool another_follows) {
    may_defer_close_ = false;
    if (solver_ || state_.polyhedral.range > 0.0) settle();  // these steps have no sweep to run it in
    if (solver_) {
        step_dt_ = scene_.time_step;
        stepContactDynamics();
        state_.time += scene_.time_step;
        ++state_.step;
        checkMotion();
        return;
    }
    if (state_.polyhedral.range > 0.0) {
        adaptiveStep();
        return;
    }
    step_dt_ = scene_.time_step;
    // An external load must see the step's whole forces before the closing update.
    may_defer_close_ = another_follows && !external_load_;
    fixedStep();
    may_defer_close_ = false;
}

void Simulation::fixedStep() {
    // The first evaluation is the set-up one (no time passes); later ones belong to their step.
    if (state_.step == 0) updateForces();
    else if (!forces_current_) computeForces();
    // Implicit integrators see the contact set frozen at the start of the step; walls within half the
    // skin are included, as the Verlet list guarantees pairs within it.
    const bool frozen = integrator_->needsFrozenContacts();
    const double wall_margin = 0.5 * skin_;
    if (frozen) {
        walls_.moveTo(state_.time);
        walls_.findContacts(state_.bodies, threads_, frozen_wall_contacts_, wall_margin);
    }
    const FrozenContacts contacts{state_.pairs, frozen_wall_contacts_, box_, material_pairs_, *contact_model_,
                                  scene_.gravity, wall_margin};
    StepContext ctx{state_.bodies, step_dt_, threads_, [this] { computeForces(); }, frozen ? &contacts : nullptr,
                    [this](const BodyRangeUpdate& before, const BodyRangeUpdate& after) {
                        const AroundForces around{before, after};
                        evaluateForces(step_dt_, &around);
                    }};
    motion_checked_ = false;
    integrator_->step(ctx);
    forces_current_ = integrator_->leavesForcesCurrent();
    state_.time += step_dt_;
    ++state_.step;
    if (!motion_checked_) checkMotion();
    else if (runaway_ < state_.bodies.size()) throwRunaway(runaway_);
}

// Feature contacts (seed 003, note 8/10): the step is the scene's, or less where the contact model
// says a contact would close or stiffen too fast; a step after which a persistent contact's normal
// turned over (a gap passed through zero) is undone and retried with half the step.
void Simulation::adaptiveStep() {
    if (state_.step == 0) updateForces();
    ForceContext ctx{state_.bodies, state_.pairs, state_.wall_contacts, state_.wall_history, material_pairs_, box_,
                     accumulators_, step_dt_, threads_, record_contacts_, &state_.polyhedral};
    const double limit = contact_model_->adaptiveStepLimit(ctx);
    step_dt_ = limit > 0.0 ? std::min(scene_.time_step, limit) : scene_.time_step;
    const State before = state_;
    const bool forces_were_current = forces_current_;
    for (int attempt = 0;; ++attempt) {
        fixedStep();
        if (state_.polyhedral.flipped == 0 || attempt == kMaxStepHalvings) return;
        state_ = before;
        forces_current_ = forces_were_current;
        step_dt_ *= 0.5;
    }
}

EnergyRecord Simulation::energy() const {
    const Bodies& b = state_.bodies;
    EnergyRecord e;
    e.step = state_.step;
    e.time = state_.time;
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (b.frozen[i]) continue;
        e.kinetic += 0.5 * b.mass[i] * b.velocity[i].squaredNorm();
        // I w.w with the principal moments in the body frame.
        const Vec3 w_body = b.orientation[i].conjugate() * b.angular_velocity[i];
        e.rotational += 0.5 * w_body.dot(b.inertia[i].cwiseProduct(w_body));
        Vec3 unwrapped = b.position[i];
        for (int k = 0; k < 3; ++k) unwrapped[k] += b.image[i][k] * box_.length[k];
        e.gravitational -= b.mass[i] * scene_.gravity.dot(unwrapped);
    }
    e.elastic = state_.elastic;
    e.dissipated = state_.dissipated;
    e.contacts = state_.contacts;
    e.solver_iterations = solver_report_.iterations;
    e.solver_residual = solver_report_.residual;
    return e;
}

FrameView Simulation::frameView() const {
    const Bodies& b = state_.bodies;
    frame_polyhedra_.clear();
    for (const ShapeSpec& shape : scene_.shapes)
        frame_polyhedra_.push_back(shape.kind == ShapeSpec::Kind::Polyhedron ? shape.polyhedron : nullptr);
    frame_contacts_.clear();
    frame_contacts_.reserve(records_.size());
    for (const ContactRecord& r : records_) {
        FrameContact c;
        c.body_a = b.id[r.body_a];
        c.point_a = b.position[r.body_a];
        if (r.body_b >= 0) {
            const auto j = static_cast<std::size_t>(r.body_b);
            c.body_b = b.id[j];
            // The image of b nearest to a, so periodic contacts draw as short lines.
            c.point_b = c.point_a - r.normal * (b.radius[r.body_a] + b.radius[j] - r.overlap);
        } else {
            c.body_b = r.body_b;
            c.point_b = r.point;
        }
        c.force = r.force;
        c.overlap = r.overlap;
        frame_contacts_.push_back(c);
    }
    return {state_.step, state_.time, b.id, b.radius, b.material, b.shape, b.position, b.velocity,
            b.angular_velocity, b.force, b.orientation, frame_contacts_, frame_polyhedra_};
}

Frame Simulation::frame() const { return copyOf(frameView()); }

}  // namespace grainlab
