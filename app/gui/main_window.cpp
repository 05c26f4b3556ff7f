#include "main_window.hpp"

#include <QCloseEvent>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>

#include "docks/histogram_dock.hpp"
#include "docks/inspector_dock.hpp"
#include "docks/messages_dock.hpp"
#include "docks/parameter_dock.hpp"
#include "docks/scene_tree_dock.hpp"
#include "docks/time_series_dock.hpp"
#include "grainlab/core/error.hpp"
#include "grainlab/io/checkpoint.hpp"
#include "grainlab/io/scene_file.hpp"
#include "grainlab/io/output_error.hpp"
#include "view/scene_view.hpp"

namespace grainlab::gui {
namespace {
// Time between frames while a run publishes, in multiples of a frame's cost (see refresh()).
constexpr double kIntervalPerFrameCost = 8.0;
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle("GrainLab");
    resize(1400, 900);
    registry_.scan(PluginRegistry::defaultSearchPath());

    view_ = new SceneView;
    setCentralWidget(view_);
    histogram_ = new HistogramDock(this);
    time_series_ = new TimeSeriesDock(this);
    inspector_ = new InspectorDock(this);
    parameters_ = new ParameterDock(this);
    scene_tree_ = new SceneTreeDock(this);
    messages_ = new MessagesDock(this);
    addDockWidget(Qt::LeftDockWidgetArea, scene_tree_);
    addDockWidget(Qt::LeftDockWidgetArea, parameters_);
    addDockWidget(Qt::RightDockWidgetArea, histogram_);
    addDockWidget(Qt::RightDockWidgetArea, time_series_);
    addDockWidget(Qt::LeftDockWidgetArea, inspector_);
    addDockWidget(Qt::BottomDockWidgetArea, messages_);
    tabifyDockWidget(scene_tree_, parameters_);
    tabifyDockWidget(parameters_, inspector_);
    scene_tree_->raise();
    resizeDocks({scene_tree_, histogram_}, {330, 430}, Qt::Horizontal);
    resizeDocks({messages_}, {110}, Qt::Vertical);

    // One label for the figures: separate permanent labels squeeze into each other when narrow.
    status_label_ = new QLabel;
    status_label_->setContentsMargins(6, 0, 6, 0);
    statusBar()->addPermanentWidget(status_label_);

    buildMenus();
    connect(view_, &SceneView::bodyPicked, this, &MainWindow::inspect);
    connect(parameters_, &ParameterDock::applied, this,
            [this](PluginKind kind, const PluginChoice& choice) { swapPlugin(kind, choice); });

    // Display rate: the worker publishes about as often; nothing here waits for a step.
    refresh_timer_ = new QTimer(this);
    connect(refresh_timer_, &QTimer::timeout, this, &MainWindow::refresh);
    refresh_timer_->start(33);

    for (const RefusedLibrary& r : registry_.refused())
        message(1, tr("plugin library %1 was not loaded: %2").arg(r.path.c_str(), r.reason.c_str()));
}

MainWindow::~MainWindow() {
    refresh_timer_->stop();
    runner_.reset();  // the worker finishes its step before the window's parts go
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!movie_directory_.isEmpty()) finishMovie();
    runner_.reset();
    QSettings().setValue("window/state", saveState());
    event->accept();
}

void MainWindow::message(int level, const QString& text) {
    messages_->add(static_cast<MessagesDock::Level>(level), text);
    if (level == 2) {
        statusBar()->showMessage(text, 10000);
        messages_->raise();
    }
}

bool MainWindow::openScene(const QString& path) {
    try {
        Scene scene = readSceneFile(path.toStdString());
        start(std::make_unique<Simulation>(std::move(scene), registry_), path);
        rememberRecent(QFileInfo(path).absoluteFilePath());
        message(0, tr("opened %1").arg(path));
        return true;
    } catch (const InputError& e) {
        message(2, tr("cannot open the scene: %1").arg(e.what()));
        return false;
    }
}

void MainWindow::saveCheckpoint(const QString& path) {
    if (runner_) runner_->post(WriteCheckpointCommand{path.toStdString()});
}

bool MainWindow::openCheckpoint(const QString& path) {
    try {
        Checkpoint checkpoint = readCheckpoint(path.toStdString());
        const QString scene_file = checkpoint.scene_file.c_str();
        start(std::make_unique<Simulation>(Simulation::fromCheckpoint(std::move(checkpoint), registry_)), scene_file);
        message(0, tr("resumed from %1 at step %2").arg(path).arg(runner_->latest()->frame.step));
        return true;
    } catch (const InputError& e) {
        message(2, tr("cannot open the checkpoint: %1").arg(e.what()));
        return false;
    }
}

void MainWindow::newScene() {
    // An empty box with a floor, ready for imported shapes and generated particles.
    Scene scene;
    scene.name = "new scene";
    scene.materials.push_back(Material{"grain", 2500.0, 1e7, 0.3, 0.5, 0.5, 0.0});
    scene.domain.min = Vec3(-0.1, -0.1, 0.0);
    scene.domain.max = Vec3(0.1, 0.1, 0.3);
    scene.planes.push_back(PlaneWall{"floor", Vec3::Zero(), Vec3::UnitZ(), "grain", {}});
    scene.contact_model = {"hertz-mindlin", {}};
    scene.time_step = 1e-5;
    try {
        start(std::make_unique<Simulation>(std::move(scene), registry_), QString());
        message(0, tr("new scene: add particles with File > Import particle shape"));
    } catch (const InputError& e) {
        message(2, e.what());
    }
}

void MainWindow::reset() {
    try {
        Scene scene = scene_;
        start(std::make_unique<Simulation>(std::move(scene), registry_), scene_path_);
        message(0, tr("reset to t = 0"));
    } catch (const InputError& e) {
        message(2, tr("cannot reset: %1").arg(e.what()));
    }
}

bool MainWindow::saveScene(const QString& path) {
    try {
        writeSceneFile(scene_, path.toStdString());
        scene_path_ = path;
        rememberRecent(QFileInfo(path).absoluteFilePath());
        setWindowTitle(QString("GrainLab - %1").arg(QFileInfo(path).fileName()));
        message(0, tr("saved %1").arg(path));
        return true;
    } catch (const OutputError& e) {
        message(2, tr("cannot save: %1").arg(e.what()));
    } catch (const InputError& e) {
        message(2, tr("cannot save: %1").arg(e.what()));
    }
    return false;
}

void MainWindow::start(std::unique_ptr<Simulation> simulation, const QString& path) {
    runner_.reset();  // the old run stops after its current step
    scene_ = simulation->scene();
    scene_path_ = path;
    const std::size_t bodies = simulation->bodies().size();
    view_->setScene(scene_);
    runner_ = std::make_unique<SimulationRunner>(std::move(simulation));
    shown_.reset();
    time_series_->clear();
    inspector_->inspect(-1);
    view_->highlight(-1);
    scene_tree_->showScene(scene_, bodies);
    rebuildPluginMenus();
    showPluginsInDock();
    setWindowTitle(path.isEmpty() ? QString("GrainLab - new scene") : QString("GrainLab - %1").arg(QFileInfo(path).fileName()));
    refresh();
}

void MainWindow::run() { if (runner_) runner_->post(RunCommand{}); }
void MainWindow::pause() { if (runner_) runner_->post(PauseCommand{}); }
void MainWindow::step(long steps) { if (runner_) runner_->post(StepCommand{steps}); }
void MainWindow::runUntil(double time) { if (runner_) runner_->post(RunUntilCommand{time}); }
void MainWindow::setRealTimeFactor(double factor) { if (runner_) runner_->post(RealTimeFactorCommand{factor}); }

bool MainWindow::swapPlugin(PluginKind kind, const PluginChoice& choice) {
    if (!runner_) return false;
    const PluginInfo* info = registry_.find(choice.name, kind);
    if (!info) {
        message(2, tr("no %1 plugin named %2").arg(kindName(kind).c_str(), choice.name.c_str()));
        return false;
    }
    try {
        registry_.resolveParameters(*info, choice, "", "/plugins");  // refuse bad values here, not in the worker
    } catch (const InputError& e) {
        message(2, e.what());
        return false;
    }
    if (kind == PluginKind::ContactModel) {
        runner_->post(SwapContactModelCommand{choice});
        scene_.contact_model = choice;
    } else if (kind == PluginKind::Integrator) {
        runner_->post(SwapIntegratorCommand{choice});
        scene_.integrator = choice;
    } else {
        runner_->post(SwapSolverCommand{choice});
        scene_.solver = choice;
    }
    rebuildPluginMenus();
    showPluginsInDock();
    scene_tree_->showScene(scene_, shown_ ? shown_->frame.id.size() : 0);
    return true;
}

void MainWindow::useSoftContacts() {
    if (!runner_) return;
    runner_->post(SwapSolverCommand{std::nullopt});
    scene_.solver.reset();
    scene_.post_step.reset();
    rebuildPluginMenus();
    showPluginsInDock();
    scene_tree_->showScene(scene_, shown_ ? shown_->frame.id.size() : 0);
}

void MainWindow::addBodies(const std::vector<BodySpec>& bodies, const std::vector<ShapeSpec>& new_shapes) {
    if (!runner_) return;
    runner_->post(AddBodiesCommand{bodies, new_shapes});
    scene_.bodies.insert(scene_.bodies.end(), bodies.begin(), bodies.end());
    if (new_shapes.empty()) return;
    scene_.shapes.insert(scene_.shapes.end(), new_shapes.begin(), new_shapes.end());
    view_->setShapes(scene_.shapes);
    scene_tree_->showScene(scene_, (shown_ ? shown_->frame.id.size() : 0) + bodies.size());
}

void MainWindow::setColourMode(ColourMode mode) { view_->setColourMode(mode); }

void MainWindow::inspect(std::int64_t body_id) {
    inspector_->inspect(body_id);
    view_->highlight(body_id);
    if (shown_) inspector_->showSnapshot(*shown_);
    if (body_id >= 0) inspector_->raise();
}

void MainWindow::recordFrames(const QString& directory, long every_steps) {
    if (runner_) runner_->post(RecordFramesCommand{directory.toStdString(), every_steps});
}

void MainWindow::recordMovie(const QString& directory) {
    if (directory.isEmpty()) {
        finishMovie();
        return;
    }
    if (!QDir().mkpath(directory)) {
        message(2, tr("cannot create %1").arg(directory));
        return;
    }
    movie_directory_ = directory;
    movie_frames_ = 0;
    message(0, tr("recording the view to %1 as PNG frames").arg(directory));
}

void MainWindow::saveMovieFrame() {
    const QString file = QDir(movie_directory_).filePath(QString("frame_%1.png").arg(movie_frames_, 6, 10, QChar('0')));
    if (!view_->renderImage().save(file)) {
        message(2, tr("cannot write %1; movie recording stopped").arg(file));
        movie_directory_.clear();
        return;
    }
    ++movie_frames_;
}

void MainWindow::finishMovie() {
    if (movie_directory_.isEmpty()) return;
    const QString directory = std::exchange(movie_directory_, QString());
    message(0, tr("%1 movie frames in %2").arg(movie_frames_).arg(directory));
    const QString ffmpeg = QStandardPaths::findExecutable("ffmpeg");
    if (ffmpeg.isEmpty() || movie_frames_ == 0) {
        if (movie_frames_ > 0) message(0, tr("no ffmpeg found: the PNG sequence is the movie (apt-get install ffmpeg to get MP4)"));
        return;
    }
    // Encoded in the background; the window carries on.
    auto* encoder = new QProcess(this);
    encoder->setWorkingDirectory(directory);
    connect(encoder, &QProcess::finished, this, [this, encoder, directory](int code) {
        message(code == 0 ? 0 : 2, code == 0 ? tr("movie written: %1/movie.mp4").arg(directory)
                                             : tr("ffmpeg failed: %1").arg(QString(encoder->readAllStandardError()).right(300)));
        encoder->deleteLater();
    });
    encoder->start(ffmpeg, {"-y", "-loglevel", "error", "-framerate", "30", "-i", "frame_%06d.png", "-vf",
                            "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p", "movie.mp4"});
}

void MainWindow::drainMessages() {
    if (!runner_) return;
    for (const RunnerMessage& m : runner_->takeMessages()) message(static_cast<int>(m.level), m.text.c_str());
}

void MainWindow::refresh() {
    drainMessages();
    if (!runner_) return;
    const RunState state = runner_->state();
    state_text_ = state == RunState::Running ? tr("running") : state == RunState::Paused ? tr("paused") : tr("stopped by an error");
    status_label_->setText(statusText());
    auto snapshot = runner_->latest();
    if (!snapshot || (shown_ && snapshot->serial == shown_->serial)) return;
    // Frame pacing: the window's work per frame (docks, layers, rendering) takes at most an eighth
    // of the time, so the engine keeps the cores and input is answered between frames. A frame
    // stalls every engine thread, not just the one whose core it takes (they meet at each step's
    // barriers): with a quarter the engine lost 12% of its speed on two cores. The cost counted is
    // a full redraw's: drafts drawn while the camera moves must not speed up the pace.
    const double busy_ms = display_ms_ + view_->lastFullRenderMilliseconds();
    const double interval_ms = std::max(33.0, kIntervalPerFrameCost * busy_ms);
    if (shown_ && since_display_.isValid() && since_display_.elapsed() < interval_ms) return;
    runner_->setPublishInterval(std::chrono::milliseconds(static_cast<long>(interval_ms)));
    since_display_.restart();
    QElapsedTimer clock;
    clock.start();
    shown_ = snapshot;
    view_->showSnapshot(snapshot);
    histogram_->showSnapshot(*snapshot);
    time_series_->addSamples(runner_->takeSamples(), !snapshot->solver.empty());
    if (inspector_->inspected() >= 0) inspector_->showSnapshot(*snapshot);
    const EnergyRecord& e = snapshot->energy;
    time_text_ = tr("t = %1 s, step %2").arg(e.time, 0, 'f', 4).arg(e.step);
    rate_text_ = tr("%1 steps/s").arg(snapshot->steps_per_second, 0, 'f', 0);
    count_text_ = tr("%1 particles, %2 contacts").arg(snapshot->frame.id.size()).arg(e.contacts);
    factor_text_ = tr("%1 x real time").arg(snapshot->real_time_factor, 0, 'g', 3);
    status_label_->setText(statusText());
    status_label_->setMinimumWidth(status_label_->sizeHint().width());  // grow, never clip the figures
    display_ms_ = clock.nsecsElapsed() * 1e-6;
    if (!movie_directory_.isEmpty()) saveMovieFrame();
}

QString MainWindow::statusText() const {
    return QStringList{state_text_, time_text_, rate_text_, count_text_,
                       factor_text_}.join("  |  ");
}

QString MainWindow::examplesFolder() const {
    // Next to the executable when installed, else the source tree it was built from.
    const QString installed = QCoreApplication::applicationDirPath() + "/../share/grainlab/scenes";
    return QDir(installed).exists() ? installed : QString(GRAINLAB_RESOURCE_DIR) + "/scenes";
}

}  // namespace grainlab::gui
