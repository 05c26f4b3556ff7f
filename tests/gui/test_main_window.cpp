// GUI tests: the real window, driven as a person would, under Xvfb. Each checks what the window
// shows against physics or against the engine's own record.
#include <QDir>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

#include "dialogs/shape_import_dialog.hpp"
#include "docks/histogram_dock.hpp"
#include "docks/inspector_dock.hpp"
#include "docks/messages_dock.hpp"
#include "docks/parameter_dock.hpp"
#include "docks/time_series_dock.hpp"
#include "grainlab/io/scene_file.hpp"
#include "gui_test_support.hpp"
#include "main_window.hpp"
#include "view/scene_view.hpp"

using namespace grainlab;
using namespace grainlab::gui;
using namespace grainlab::gui::testing;

namespace {

constexpr double kGlassDensity = 2500.0;  // resources/scenes/pile.json
constexpr double kG = 9.81;

double totalMass(const Frame& f) {
    double m = 0.0;
    for (double r : f.radius) m += 4.0 / 3.0 * kPi * r * r * r * kGlassDensity;
    return m;
}

// Before the first contact every bead falls freely: kinetic energy 1/2 M g^2 t^2 (analytic).
void checkFreeFall(const Snapshot& s) {
    const double expected = 0.5 * totalMass(s.frame) * kG * kG * s.energy.time * s.energy.time;
    QVERIFY2(s.energy.contacts == 0, "the beads must still be in free fall");
    QVERIFY2(std::abs(s.energy.kinetic - expected) <= 1e-9 * expected,
             qPrintable(QString("kinetic %1, free fall %2").arg(s.energy.kinetic, 0, 'g', 12).arg(expected, 0, 'g', 12)));
}

std::unique_ptr<MainWindow> openWindow(const QString& scene) {
    auto window = std::make_unique<MainWindow>();
    window->resize(1400, 900);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get())) return nullptr;
    if (!window->openScene(scene)) return nullptr;
    return window;
}

}  // namespace

class MainWindowTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // The time series follows free fall exactly; later every contact lands in the histogram.
    void freeFallThenHistogram() {
        auto window = openWindow(examplePath("pile.json"));
        QVERIFY(window);
        window->step(600);  // t = 0.03 s; the lowest bead reaches the floor at about 0.064 s
        QVERIFY(waitForStep(*window, 600));
        checkFreeFall(*window->shownSnapshot());
        // The time series follows the whole fall, sampled every few steps by the worker, not only
        // at the snapshots shown: every point is on the free-fall curve 1/2 M g^2 t^2.
        const auto fallen = window->shownSnapshot();
        const QList<QPointF> series = window->timeSeriesDock()->kineticEnergy();
        QVERIFY(series.size() >= 600 / SimulationRunner::kSampleEvery);
        QCOMPARE(series.last().x(), fallen->energy.time);
        const double dt = fallen->energy.time / fallen->energy.step;
        for (qsizetype i = 0; i < series.size(); ++i) {
            const double t = series[i].x(), expected = 0.5 * totalMass(fallen->frame) * kG * kG * t * t;
            QVERIFY(std::abs(series[i].y() - expected) <= 1e-9 * expected + 1e-15);
            if (i > 0) QVERIFY(t - series[i - 1].x() <= (SimulationRunner::kSampleEvery + 0.5) * dt);
        }

        window->step(5400);  // t = 0.3 s: the beads have landed
        QVERIFY(waitForStep(*window, 6000));
        const auto landed = window->shownSnapshot();
        QVERIFY(landed->energy.contacts > 1000);
        const Histogram& h = window->histogramDock()->histogram();
        long normal = 0, tangential = 0;
        for (int c : h.normal) normal += c;
        for (int c : h.tangential) tangential += c;
        // Every contact of the engine's force evaluation is counted once in each histogram.
        QCOMPARE(normal, static_cast<long>(landed->energy.contacts));
        QCOMPARE(tangential, static_cast<long>(landed->energy.contacts));
        QVERIFY(window->timeSeriesDock()->points() >= 2);
    }

    // A long run stays in view with a bounded number of points: samples of a free fall
    // (KE = 1/2 m g^2 t^2, analytic) fed three times past the limit leave at most kMaxPoints
    // points, from the first sample to the newest, each on the curve.
    void timeSeriesKeepsWholeRun() {
        TimeSeriesDock dock;
        const double mass = 2.0, dt = 1e-4;
        const long samples = 3 * TimeSeriesDock::kMaxPoints;
        for (long chunk = 0; chunk < samples; chunk += 500) {
            std::vector<EnergyRecord> records;
            for (long k = chunk; k < chunk + 500; ++k) {
                EnergyRecord e;
                e.step = k * SimulationRunner::kSampleEvery;
                e.time = e.step * dt;
                e.kinetic = 0.5 * mass * kG * kG * e.time * e.time;
                records.push_back(e);
            }
            dock.addSamples(records, false);
        }
        const QList<QPointF> series = dock.kineticEnergy();
        QVERIFY(series.size() <= TimeSeriesDock::kMaxPoints);
        QVERIFY(series.size() >= TimeSeriesDock::kMaxPoints / 2);
        QCOMPARE(series.first().x(), 0.0);
        QCOMPARE(series.last().x(), (samples - 1) * SimulationRunner::kSampleEvery * dt);
        for (const QPointF& p : series) QVERIFY(std::abs(p.y() - 0.5 * mass * kG * kG * p.x() * p.x()) <= 1e-12 * p.y());

        // A new run (time starts again) of a body 1e15 times lighter: the chart starts over on the
        // new scale (axes rescaled from kilojoules to femtojoules without a tick explosion).
        std::vector<EnergyRecord> small(3);
        for (std::size_t k = 0; k < small.size(); ++k) {
            small[k].step = static_cast<long>(k);
            small[k].time = k * dt;
            small[k].kinetic = 0.5 * mass * 1e-15 * kG * kG * small[k].time * small[k].time;
        }
        dock.addSamples(small, false);
        QCOMPARE(dock.kineticEnergy().size(), qsizetype(3));
        QCOMPARE(dock.kineticEnergy().last().y(), small.back().kinetic);
    }

    // Integrator, contact model and solver swapped back and forth while running: no state is lost,
    // so the free fall stays exact across every swap (each scheme updates v = v + g dt exactly).
    void swapPluginsWhileRunning() {
        auto window = openWindow(examplePath("pile.json"));
        QVERIFY(window);
        // 30 steps/s: the swaps land well inside the free fall (checked before step 1,200) even when
        // other processes slow this one (at 50 steps/s a 33 s test under a parallel build ran past it).
        window->setRealTimeFactor(0.0015);
        window->run();
        long seen = 0;
        for (int swap = 0; swap < 6; ++swap) {
            QVERIFY(waitForStep(*window, seen + 40));
            seen = window->shownSnapshot()->frame.step;
            QVERIFY(window->swapPlugin(PluginKind::Integrator, {swap % 2 ? "velocity-verlet" : "semi-implicit-euler", {}}));
            QVERIFY(window->swapPlugin(PluginKind::ContactModel, {swap % 2 ? "hertz-mindlin" : "hooke", {}}));
            if (seen > 900) break;
        }
        // Contact dynamics in free fall is v += g dt too; back to soft contacts afterwards.
        QVERIFY(window->swapPlugin(PluginKind::Solver, {"ccp-apgd", {}}));
        QVERIFY(waitForStep(*window, seen + 80));
        seen = window->shownSnapshot()->frame.step;
        QCOMPARE(window->shownSnapshot()->solver, std::string("ccp-apgd"));
        window->useSoftContacts();
        QVERIFY(waitForStep(*window, seen + 40));
        window->pause();
        QTest::qWait(200);
        window->refresh();
        const auto s = window->shownSnapshot();
        QVERIFY(s->frame.step < 1200);  // still before the first contact
        QCOMPARE(s->frame.id.size(), std::size_t(2000));
        checkFreeFall(*s);
        QVERIFY(window->messagesDock()->text().contains("integrator: semi-implicit-euler from step"));
        QVERIFY(window->messagesDock()->text().contains("contact model: hooke from step"));
        QVERIFY(window->messagesDock()->text().contains("solver: ccp-apgd from step"));
        QVERIFY(window->messagesDock()->text().contains("soft contacts (no solver) from step"));
    }

    // A click on the bead nearest the camera selects it: nothing can hide it.
    void pickParticle() {
        auto window = openWindow(examplePath("pile.json"));
        QVERIFY(window);
        window->step(10);
        QVERIFY(waitForStep(*window, 10));
        SceneView* view = window->view();
        view->renderImage();
        const Frame& f = window->shownSnapshot()->frame;
        const Vec3 eye = view->cameraPosition();
        std::size_t nearest = 0;
        for (std::size_t i = 0; i < f.position.size(); ++i)
            if ((f.position[i] - eye).norm() - f.radius[i] < (f.position[nearest] - eye).norm() - f.radius[nearest]) nearest = i;
        QTest::mouseClick(view, Qt::LeftButton, {}, view->widgetPosition(f.position[nearest]));
        QCOMPARE(window->inspectorDock()->inspected(), f.id[nearest]);
    }

    // Rotating the view while the engine runs: the drag orbits the camera (0.4 degree per pixel),
    // is drawn as a draft while it lasts, and a click afterwards still picks the bead nearest the
    // new eye (ray geometry, as above).
    void rotateThenPickWhileRunning() {
        auto window = openWindow(examplePath("pile.json"));
        QVERIFY(window);
        SceneView* view = window->view();
        view->setDraftAboveMilliseconds(0.0);  // draft even for this small scene
        window->step(10);
        QVERIFY(waitForStep(*window, 10));
        window->run();
        view->renderImage();
        const Vec3 eye_before = view->cameraPosition();
        const QPoint start(view->width() / 2, view->height() / 2);
        const auto send = [&](QEvent::Type type, QPoint at, Qt::MouseButtons buttons) {
            QMouseEvent event(type, QPointF(at), view->mapToGlobal(QPointF(at)), Qt::LeftButton, buttons, Qt::NoModifier);
            QCoreApplication::sendEvent(view, &event);
        };
        send(QEvent::MouseButtonPress, start, Qt::LeftButton);
        for (int dx = 10; dx <= 100; dx += 10) send(QEvent::MouseMove, start + QPoint(dx, 0), Qt::LeftButton);
        QVERIFY(view->drawingDraft());
        QTest::qWait(50);  // snapshots keep arriving mid-drag
        send(QEvent::MouseButtonRelease, start + QPoint(100, 0), Qt::NoButton);
        QVERIFY(!view->drawingDraft());
        window->pause();
        QVERIFY(waitForStep(*window, 11));
        // An orbit: the eye turned by a visible angle at the same distance from the focal point.
        const Vec3 eye_after = view->cameraPosition();
        const Vec3 focal = view->cameraFocalPoint();
        QVERIFY(std::abs((eye_after - focal).norm() - (eye_before - focal).norm()) < 1e-9 * (eye_before - focal).norm());
        QVERIFY((eye_after - focal).normalized().dot((eye_before - focal).normalized()) < std::cos(20.0 * kPi / 180.0));

        view->renderImage();
        const Frame& f = window->shownSnapshot()->frame;
        std::size_t nearest = 0;
        for (std::size_t i = 0; i < f.position.size(); ++i)
            if ((f.position[i] - eye_after).norm() - f.radius[i] < (f.position[nearest] - eye_after).norm() - f.radius[nearest])
                nearest = i;
        QTest::mouseClick(view, Qt::LeftButton, {}, view->widgetPosition(f.position[nearest]));
        QCOMPARE(window->inspectorDock()->inspected(), f.id[nearest]);
    }

    // A saved scene reopens as the same scene: the same run, step for step, to the last bit.
    void saveAndReopen() {
        QTemporaryDir folder;
        const QString saved = folder.filePath("pile-copy.json");
        auto window = openWindow(examplePath("pile.json"));
        QVERIFY(window);
        QVERIFY(window->swapPlugin(PluginKind::ContactModel, {"hertz-mindlin", {{"rolling_resistance", 0.0}}}));
        QVERIFY(window->saveScene(saved));
        window->reset();
        window->step(1500);
        QVERIFY(waitForStep(*window, 1500));
        const EnergyRecord original = window->shownSnapshot()->energy;

        QVERIFY(window->openScene(saved));
        QCOMPARE(window->scene().contact_model.parameters.at("rolling_resistance"), 0.0);
        window->step(1500);
        QVERIFY(waitForStep(*window, 1500));
        const EnergyRecord reopened = window->shownSnapshot()->energy;
        QVERIFY(original.contacts > 0);
        QCOMPARE(reopened.kinetic, original.kinetic);
        QCOMPARE(reopened.rotational, original.rotational);
        QCOMPARE(reopened.contacts, original.contacts);
    }

    // The generated editor changes the running model; a value out of the descriptor's range is
    // impossible to enter.
    void parameterEditorApplies() {
        auto window = openWindow(examplePath("pile.json"));
        QVERIFY(window);
        ParameterDock* dock = window->parameterDock();
        QVERIFY(dock->setEditorValue("hertz-mindlin", "rolling_resistance", 0.0));
        auto* group = dock->findChild<QWidget*>("hertz-mindlin");
        QVERIFY(group);
        auto* apply = group->findChild<QPushButton*>("apply");
        QVERIFY(apply);
        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(window->scene().contact_model.parameters.at("rolling_resistance"), 0.0);
        window->step(1);
        QVERIFY(waitForStep(*window, 1));
        QTest::qWait(100);
        window->refresh();
        QVERIFY(window->messagesDock()->text().contains("contact model: hertz-mindlin from step 0"));
    }

    // Closing mid-run stops the worker cleanly, and every frame the series lists is complete.
    void closeDuringRun() {
        QTemporaryDir folder;
        auto window = openWindow(examplePath("pile.json"));
        QVERIFY(window);
        window->recordFrames(folder.path(), 50);
        window->run();
        QVERIFY(waitForStep(*window, 400));
        window->close();
        window.reset();
        QFile pvd(folder.filePath("particles.pvd"));
        QVERIFY(pvd.open(QIODevice::ReadOnly));
        const QString index = pvd.readAll();
        const QStringList listed = index.split("file=\"").mid(1);
        QVERIFY(listed.size() >= 8);  // steps 0, 50, ..., 400 at least
        for (const QString& entry : listed) {
            QFile frame(folder.filePath(entry.section('"', 0, 0)));
            QVERIFY2(frame.open(QIODevice::ReadOnly), qPrintable(frame.fileName()));
            QVERIFY2(frame.readAll().trimmed().endsWith("</VTKFile>"), qPrintable(frame.fileName()));
        }
    }

    // Opening another scene while one runs replaces the run: the drum starts paused at step 0.
    void openDuringRun() {
        auto window = openWindow(examplePath("pile.json"));
        QVERIFY(window);
        window->run();
        QVERIFY(waitForStep(*window, 100));
        QVERIFY(window->openScene(examplePath("drum.json")));
        QTest::qWait(100);
        window->refresh();
        QCOMPARE(window->runner()->state(), RunState::Paused);
        QCOMPARE(window->shownSnapshot()->frame.step, 0L);
        QCOMPARE(window->shownSnapshot()->frame.id.size(), std::size_t(900));
        QCOMPARE(window->scene().meshes.size(), std::size_t(1));
    }

    // Beads added while the pile runs join it and fall: their speed after the pile's next steps is
    // g times the time they have been in the run (analytic free fall from rest).
    void addBodiesWhileRunning() {
        auto window = openWindow(examplePath("pile.json"));
        QVERIFY(window);
        window->step(100);
        QVERIFY(waitForStep(*window, 100));
        std::vector<BodySpec> added;
        for (int k = 0; k < 10; ++k) {
            BodySpec b;
            b.material = "glass";
            b.radius = 0.005;
            b.position = Vec3(-0.08 + 0.016 * k, 0.0, 0.45);
            b.id = 100000 + k;
            added.push_back(b);
        }
        window->addBodies(added);
        window->step(200);
        QVERIFY(waitForStep(*window, 300));
        const Frame& f = window->shownSnapshot()->frame;
        QCOMPARE(f.id.size(), std::size_t(2010));
        QCOMPARE(window->scene().bodies.size(), std::size_t(10));
        for (std::size_t i = 0; i < f.id.size(); ++i)
            if (f.id[i] >= 100000) QVERIFY(std::abs(f.velocity[i].z() + kG * 200 * 5e-5) < 1e-9);
    }

    // A checkpoint written from the window resumes the run exactly: the same state at step 600 as
    // the run that went on, to the last bit (restart equivalence, same thread count).
    void checkpointResumesExactly() {
        QTemporaryDir folder;
        const QString path = folder.filePath("pile.glc");
        auto window = openWindow(examplePath("pile.json"));
        QVERIFY(window);
        window->step(1500);
        QVERIFY(waitForStep(*window, 1500));
        window->saveCheckpoint(path);
        window->step(300);
        QVERIFY(waitForStep(*window, 1800));
        const EnergyRecord went_on = window->shownSnapshot()->energy;
        QVERIFY(QFileInfo::exists(path));
        QVERIFY(window->openCheckpoint(path));
        QCOMPARE(window->shownSnapshot()->frame.step, 1500L);
        window->step(300);
        QVERIFY(waitForStep(*window, 1800));
        const EnergyRecord resumed = window->shownSnapshot()->energy;
        QVERIFY(went_on.contacts > 0);
        QCOMPARE(resumed.kinetic, went_on.kinetic);
        QCOMPARE(resumed.rotational, went_on.rotational);
        QCOMPARE(resumed.contacts, went_on.contacts);
    }

    // A movie records one PNG per shown snapshot, each the size of the view.
    void recordMovie() {
        QTemporaryDir folder;
        auto window = openWindow(examplePath("pile.json"));
        QVERIFY(window);
        window->recordMovie(folder.path());
        window->step(200);
        QVERIFY(waitForStep(*window, 200));
        window->recordMovie(QString());
        const QStringList frames = QDir(folder.path()).entryList({"frame_*.png"}, QDir::Files, QDir::Name);
        QVERIFY(!frames.isEmpty());
        for (const QString& name : frames) {
            const QImage image(folder.filePath(name));
            QCOMPARE(image.size(), window->view()->size() * window->view()->devicePixelRatio());
        }
    }

    // An open mesh is refused with its defect named; a closed cube is imported and 20 copies at
    // random orientations join the run, drawn as cubes, and fall freely (v = g t, analytic).
    void importShape() {
        auto window = openWindow(examplePath("pile.json"));
        QVERIFY(window);
        window->step(10);
        QVERIFY(waitForStep(*window, 10));
        ShapeImportDialog dialog(window->scene(), window->shownSnapshot()->frame);
        QVERIFY(!dialog.load(QString(GRAINLAB_RESOURCE_DIR) + "/meshes/hopper.stl"));
        QVERIFY2(dialog.report().contains("open edges"), qPrintable(dialog.report()));
        QVERIFY(dialog.load(QString(GRAINLAB_RESOURCE_DIR) + "/shapes/cube.stl"));
        dialog.setScale(0.01);  // a 1 cm cube
        QVERIFY(dialog.shape());
        dialog.setCount(20);
        dialog.setRegion(Vec3(-0.08, -0.08, 0.35), Vec3(0.08, 0.08, 0.45));
        const std::vector<BodySpec> copies = dialog.generate();
        QVERIFY2(copies.size() == 20, qPrintable(dialog.report()));
        QDir().mkpath(GRAINLAB_TEST_OUTPUT_DIR);
        dialog.grab().save(QString(GRAINLAB_TEST_OUTPUT_DIR) + "/import-dialog.png");  // for a person to look at
        QVERIFY(copies[0].orientation.coeffs() != copies[1].orientation.coeffs());
        window->addBodies(copies, {dialog.shape()->spec});
        window->step(100);
        QVERIFY(waitForStep(*window, 110));
        const Frame& f = window->shownSnapshot()->frame;
        QCOMPARE(f.id.size(), std::size_t(2020));
        const auto cube_shape = static_cast<std::uint32_t>(window->scene().shapes.size() - 1);
        int cubes = 0;
        for (std::size_t i = 0; i < f.id.size(); ++i) {
            if (f.shape[i] != cube_shape) continue;
            ++cubes;
            QVERIFY(std::abs(f.velocity[i].z() + kG * 100 * 5e-5) < 1e-9);
        }
        QCOMPARE(cubes, 20);
    }
};

QTEST_MAIN(MainWindowTest)
#include "test_main_window.moc"
