// The menus and the small dialogs they open.
#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSlider>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>

#include "dialogs/shape_import_dialog.hpp"
#include "docks/parameter_dock.hpp"
#include "main_window.hpp"
#include "view/scene_view.hpp"

namespace grainlab::gui {
namespace {

constexpr int kMaxRecent = 8;

QString describe(const PluginInfo& p) {
    QString text = QString("<h3>%1 <small>(%2, version %3)</small></h3><p>%4</p><p><i>%5</i></p>")
                       .arg(p.name.c_str(), kindName(p.kind).c_str(), p.version.c_str(), p.description.c_str(),
                            p.path.c_str());
    if (!p.parameters.empty()) {
        text += "<table border=1 cellpadding=3><tr><th>parameter</th><th>unit</th><th>default</th><th>range</th><th></th></tr>";
        for (const ParameterSpec& s : p.parameters)
            text += QString("<tr><td>%1</td><td>%2</td><td>%3</td><td>[%4, %5]</td><td>%6</td></tr>")
                        .arg(s.name.c_str(), s.unit.c_str())
                        .arg(s.default_value)
                        .arg(s.min_value)
                        .arg(s.max_value)
                        .arg(s.description.c_str());
        text += "</table>";
    }
    return text;
}

}  // namespace

void MainWindow::buildMenus() {
    buildFileMenu();
    buildSimulationMenu();
    integrator_menu_ = menuBar()->addMenu(tr("&Integrator"));
    contact_model_menu_ = menuBar()->addMenu(tr("&Contact model"));
    solver_menu_ = menuBar()->addMenu(tr("S&olver"));
    for (QMenu* menu : {integrator_menu_, contact_model_menu_, solver_menu_}) menu->setToolTipsVisible(true);
    buildViewMenu();
    buildHelpMenu();
}

void MainWindow::buildFileMenu() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, &MainWindow::newScene);
    file->addAction(tr("&Open scene..."), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open scene"), examplesFolder(), tr("Scenes (*.json)"));
        if (!path.isEmpty()) openScene(path);
    });
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] {
        if (scene_path_.isEmpty()) {
            const QString path = QFileDialog::getSaveFileName(this, tr("Save scene"), QString(), tr("Scenes (*.json)"));
            if (!path.isEmpty()) saveScene(path);
        } else {
            saveScene(scene_path_);
        }
    });
    file->addAction(tr("Save &as..."), QKeySequence::SaveAs, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save scene as"), scene_path_, tr("Scenes (*.json)"));
        if (!path.isEmpty()) saveScene(path);
    });
    file->addAction(tr("Save &checkpoint..."), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save checkpoint"), "checkpoint.glc", tr("Checkpoints (*.glc)"));
        if (!path.isEmpty()) saveCheckpoint(path);
    });
    file->addAction(tr("Resume from chec&kpoint..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Resume from checkpoint"), QString(), tr("Checkpoints (*.glc)"));
        if (!path.isEmpty()) openCheckpoint(path);
    });
    recent_menu_ = file->addMenu(tr("&Recent"));
    rebuildRecentMenu();
    QMenu* examples = file->addMenu(tr("E&xamples"));
    QDir folder(examplesFolder());
    QStringList scenes = folder.entryList({"*.json"}, QDir::Files, QDir::Name);
    for (const QString& sub : folder.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        for (const QString& inner : QDir(folder.filePath(sub)).entryList({"*.json"}, QDir::Files))
            scenes << sub + "/" + inner;
    for (const QString& scene : scenes) {
        const QString path = folder.filePath(scene);
        examples->addAction(scene, this, [this, path] { openScene(path); });
    }
    file->addAction(tr("&Import particle shape (STL/OBJ/PLY)..."), this, &MainWindow::importShape);
    file->addSeparator();
    file->addAction(tr("Export s&creenshot..."), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export screenshot"), "grainlab.png", tr("PNG images (*.png)"));
        if (path.isEmpty()) return;
        if (view_->renderImage().save(path)) message(0, tr("screenshot saved: %1").arg(path));
        else message(2, tr("cannot write %1").arg(path));
    });
    auto* frames = file->addAction(tr("Export &frames (VTK for ParaView)..."));
    frames->setCheckable(true);
    connect(frames, &QAction::triggered, this, [this, frames](bool on) {
        if (!on) {
            recordFrames(QString(), 0);
            return;
        }
        const QString directory = QFileDialog::getExistingDirectory(this, tr("Folder for the frame series"));
        bool ok = false;
        const int every = directory.isEmpty() ? 0 : QInputDialog::getInt(this, tr("Export frames"), tr("Write a frame every N steps:"), 100, 1, 100000000, 1, &ok);
        if (directory.isEmpty() || !ok) {
            frames->setChecked(false);
            return;
        }
        recordFrames(directory, every);
    });
    auto* movie = file->addAction(tr("Record &movie (PNG frames, MP4 with ffmpeg)..."));
    movie->setCheckable(true);
    connect(movie, &QAction::triggered, this, [this, movie](bool on) {
        if (!on) {
            recordMovie(QString());
            return;
        }
        const QString directory = QFileDialog::getExistingDirectory(this, tr("Folder for the movie frames"));
        if (directory.isEmpty()) movie->setChecked(false);
        else recordMovie(directory);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::buildSimulationMenu() {
    QMenu* sim = menuBar()->addMenu(tr("&Simulation"));
    QToolBar* bar = addToolBar(tr("Simulation"));
    bar->setObjectName("SimulationToolBar");
    QAction* run_action = sim->addAction(tr("&Run"), QKeySequence(Qt::Key_F5), this, &MainWindow::run);
    QAction* pause_action = sim->addAction(tr("&Pause"), QKeySequence(Qt::Key_F6), this, &MainWindow::pause);
    QAction* step_action = sim->addAction(tr("&Step"), QKeySequence(Qt::Key_F7), this, [this] { step(1); });
    QAction* reset_action = sim->addAction(tr("R&eset"), QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::reset);
    for (QAction* a : {run_action, pause_action, step_action, reset_action}) bar->addAction(a);
    sim->addAction(tr("Step &N..."), this, [this] {
        bool ok = false;
        const int n = QInputDialog::getInt(this, tr("Step"), tr("Number of steps:"), 100, 1, 1000000000, 1, &ok);
        if (ok) step(n);
    });
    sim->addAction(tr("Run &until time..."), this, [this] {
        bool ok = false;
        const double now = shown_ ? shown_->frame.time : 0.0;
        const double t = QInputDialog::getDouble(this, tr("Run until"), tr("Simulated time [s]:"), now + 0.1, 0.0, 1e12, 6, &ok);
        if (ok) runUntil(t);
    });
    QMenu* factor = sim->addMenu(tr("Real-time &factor"));
    auto* group = new QActionGroup(this);
    for (double f : {0.0, 0.01, 0.1, 0.5, 1.0}) {
        QAction* a = factor->addAction(f == 0.0 ? tr("As fast as possible") : tr("%1 x real time").arg(f));
        a->setCheckable(true);
        a->setChecked(f == 0.0);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, f] { setRealTimeFactor(f); });
    }
}

void MainWindow::buildViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QMenu* colour = view->addMenu(tr("&Colour by"));
    auto* group = new QActionGroup(this);
    const std::pair<QString, ColourMode> modes[] = {{tr("Speed"), ColourMode::Speed},
                                                    {tr("Contact force"), ColourMode::ContactForce},
                                                    {tr("Coordination number"), ColourMode::Coordination},
                                                    {tr("Body id"), ColourMode::BodyId}};
    for (const auto& [label, mode] : modes) {
        QAction* a = colour->addAction(label);
        a->setCheckable(true);
        a->setChecked(mode == ColourMode::Speed);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, m = mode] { setColourMode(m); });
    }
    QMenu* particles = view->addMenu(tr("&Particles"));
    auto* opacity_group = new QActionGroup(this);
    const std::pair<QString, double> opacities[] = {
        {tr("Opaque"), 1.0}, {tr("Translucent (slow in software OpenGL)"), SceneView::kTranslucent}, {tr("Hidden"), 0.0}};
    for (const auto& [label, opacity] : opacities) {
        QAction* a = particles->addAction(label);
        a->setCheckable(true);
        a->setChecked(opacity == 1.0);
        opacity_group->addAction(a);
        connect(a, &QAction::triggered, this, [this, o = opacity] { view_->setParticleOpacity(o); });
    }
    QAction* arrows = view->addAction(tr("Contact-force &arrows"));
    arrows->setCheckable(true);
    arrows->setChecked(true);
    connect(arrows, &QAction::toggled, view_, &SceneView::setArrowsVisible);
    QAction* bar = view->addAction(tr("&Scalar bar"));
    bar->setCheckable(true);
    bar->setChecked(true);
    connect(bar, &QAction::toggled, view_, &SceneView::setScalarBarVisible);
    QAction* axes = view->addAction(tr("A&xes"));
    axes->setCheckable(true);
    axes->setChecked(true);
    connect(axes, &QAction::toggled, view_, &SceneView::setAxesVisible);
    view->addAction(tr("&Reset camera"), this, [this] { view_->resetCamera(); });

    // Force-network threshold: arrows below this fraction of the largest force are hidden.
    QToolBar* tools = addToolBar(tr("Force network"));
    tools->setObjectName("ForceNetworkToolBar");
    tools->addWidget(new QLabel(tr(" Force-network threshold ")));
    threshold_ = new QSlider(Qt::Horizontal);
    threshold_->setRange(0, 100);
    threshold_->setMaximumWidth(180);
    threshold_->setToolTip(tr("Hide contact arrows weaker than this percentage of the largest force"));
    auto* percent = new QLabel(" 0 %");
    tools->addWidget(threshold_);
    tools->addWidget(percent);
    connect(threshold_, &QSlider::valueChanged, this, [this, percent](int v) {
        percent->setText(QString(" %1 %").arg(v));
        view_->setForceThreshold(v / 100.0);
    });
    view->addAction(tr("Force-network &threshold..."), this, [this] {
        bool ok = false;
        const int v = QInputDialog::getInt(this, tr("Force-network threshold"), tr("Percentage of the largest force:"), threshold_->value(), 0, 100, 5, &ok);
        if (ok) threshold_->setValue(v);
    });
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());
}

void MainWindow::buildHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Plugin information"), this, &MainWindow::showPluginInformation);
    help->addAction(tr("&About GrainLab"), this, [this] {
        QMessageBox::about(this, tr("About GrainLab"),
                           tr("<h3>GrainLab %1</h3><p>A granular-dynamics laboratory: soft-sphere DEM with LAMMPS-validated "
                              "contact laws, plugin integrators, contact models and solvers, live in 3D.</p>"
                              "<p>Qt %2, VTK rendering, Eigen.</p>").arg("0.1", qVersion()));
    });
}

void MainWindow::importShape() {
    if (!shown_) return;
    ShapeImportDialog dialog(scene_, shown_->frame, this);
    if (dialog.exec() != QDialog::Accepted || !dialog.shape()) return;
    const std::vector<BodySpec> copies = dialog.generate();
    if (copies.empty()) {
        message(2, tr("no copies added: %1").arg(dialog.report().section('\n', -1)));
        return;
    }
    addBodies(copies, {dialog.shape()->spec});
}

void MainWindow::showPluginInformation() {
    QString html;
    for (const PluginInfo& p : registry_.plugins()) html += describe(p);
    if (!registry_.refused().empty()) {
        html += "<h3>Libraries not loaded</h3><ul>";
        for (const RefusedLibrary& r : registry_.refused())
            html += QString("<li><b>%1</b>: %2</li>").arg(r.path.c_str(), r.reason.c_str()).toHtmlEscaped();
        html += "</ul>";
    }
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Plugins"));
    auto* browser = new QTextBrowser(dialog);
    browser->setHtml(html);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(browser);
    dialog->resize(760, 600);
    dialog->show();
}

QMenu* MainWindow::pluginMenu(PluginKind kind) const {
    return kind == PluginKind::Integrator ? integrator_menu_ : kind == PluginKind::ContactModel ? contact_model_menu_ : solver_menu_;
}

void MainWindow::rebuildPluginMenus() {
    for (PluginKind kind : {PluginKind::Integrator, PluginKind::ContactModel, PluginKind::Solver}) {
        QMenu* menu = pluginMenu(kind);
        menu->clear();
        auto* group = new QActionGroup(menu);
        const std::string current = kind == PluginKind::Integrator     ? scene_.integrator.name
                                    : kind == PluginKind::ContactModel ? scene_.contact_model.name
                                    : scene_.solver                    ? scene_.solver->name
                                                                       : std::string();
        if (kind == PluginKind::Solver) {
            QAction* none = menu->addAction(tr("None (soft contacts: contact model + integrator)"));
            none->setCheckable(true);
            none->setChecked(current.empty());
            group->addAction(none);
            connect(none, &QAction::triggered, this, &MainWindow::useSoftContacts);
        }
        for (const PluginInfo& p : registry_.plugins()) {
            if (p.kind != kind) continue;
            QAction* a = menu->addAction(p.name.c_str());
            a->setCheckable(true);
            a->setChecked(p.name == current);
            a->setToolTip(p.description.c_str());
            group->addAction(a);
            const std::string name = p.name;
            connect(a, &QAction::triggered, this, [this, kind, name] {
                // The same plugin keeps its edited parameters; another starts from its defaults.
                const PluginChoice now = kind == PluginKind::Integrator     ? scene_.integrator
                                         : kind == PluginKind::ContactModel ? scene_.contact_model
                                                                            : scene_.solver.value_or(PluginChoice{});
                swapPlugin(kind, now.name == name ? now : PluginChoice{name, {}});
            });
        }
        if (!registry_.refused().empty()) menu->addSection(tr("Failed to load"));
        for (const RefusedLibrary& r : registry_.refused()) {
            QAction* a = menu->addAction(QString::fromStdString(r.path.filename().string()));
            a->setEnabled(false);
            a->setToolTip(r.reason.c_str());
        }
    }
}

void MainWindow::showPluginsInDock() {
    std::vector<std::pair<const PluginInfo*, PluginChoice>> in_use{
        {registry_.find(scene_.integrator.name, PluginKind::Integrator), scene_.integrator},
        {registry_.find(scene_.contact_model.name, PluginKind::ContactModel), scene_.contact_model}};
    if (scene_.solver) in_use.emplace_back(registry_.find(scene_.solver->name, PluginKind::Solver), *scene_.solver);
    parameters_->showPlugins(in_use);
}

void MainWindow::rememberRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value("recent").toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue("recent", recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recent_menu_->clear();
    const QStringList recent = QSettings().value("recent").toStringList();
    for (const QString& path : recent) recent_menu_->addAction(path, this, [this, path] { openScene(path); });
    recent_menu_->setEnabled(!recent.isEmpty());
}

}  // namespace grainlab::gui
