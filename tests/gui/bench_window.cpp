// Window benchmark: engine throughput with the window open and refreshing against the same scene
// headless, and how fast the window answers input meanwhile. Not a test: scripts/bench-window.sh
// runs it under Xvfb and prints the figures for docs/gui-performance.md.
#include <QApplication>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <memory>
#include <optional>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "grainlab/core/parallel.hpp"
#include "grainlab/io/scene_file.hpp"
#include "gui_test_support.hpp"
#include "main_window.hpp"
#include "view/scene_view.hpp"

using namespace grainlab;
using namespace grainlab::gui;

namespace {

double headlessStepsPerSecond(const Scene& scene, const PluginRegistry& registry, long warmup, long steps) {
    Simulation simulation(scene, registry);
    for (long k = 0; k < warmup; ++k) simulation.step();
    QElapsedTimer clock;
    clock.start();
    for (long k = 0; k < steps; ++k) simulation.step();
    return steps / (clock.nsecsElapsed() * 1e-9);
}

// A person dragging the view with the left button: times from posting each move to its delivery
// (the window was busy meanwhile) and to the end of the repaint it causes.
class InputProbe : public QObject {
public:
    explicit InputProbe(SceneView* view) : view_(view) {
        view_->installEventFilter(this);
        post(QEvent::MouseButtonPress, Qt::LeftButton);
    }
    ~InputProbe() override { post(QEvent::MouseButtonRelease, Qt::NoButton); }
    void post(QEvent::Type type, Qt::MouseButtons buttons) {
        const QPointF at(view_->width() / 2.0, view_->height() / 2.0);
        QCoreApplication::postEvent(view_, new QMouseEvent(type, at, view_->mapToGlobal(at), Qt::LeftButton, buttons,
                                                           Qt::NoModifier));
    }
    void poke() {
        posted_.restart();
        waiting_paint_ = true;
        const QPointF at(view_->width() / 2.0 + (++pokes_ % 2 ? 3 : -3), view_->height() / 2.0);
        QCoreApplication::postEvent(view_, new QMouseEvent(QEvent::MouseMove, at, view_->mapToGlobal(at), Qt::NoButton,
                                                           Qt::LeftButton, Qt::NoModifier));
    }
    std::vector<double> delivered_ms, repainted_ms;

protected:
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() == QEvent::MouseMove && waiting_paint_) delivered_ms.push_back(posted_.nsecsElapsed() * 1e-6);
        if (event->type() == QEvent::Paint && waiting_paint_ && delivered_ms.size() > repainted_ms.size()) {
            view_->removeEventFilter(this);  // time the paint itself
            QCoreApplication::sendEvent(view_, event);
            view_->installEventFilter(this);
            repainted_ms.push_back(posted_.nsecsElapsed() * 1e-6);
            waiting_paint_ = false;
            return true;
        }
        return false;
    }

private:
    SceneView* view_;
    QElapsedTimer posted_;
    bool waiting_paint_ = false;
    int pokes_ = 0;
};

// Milliseconds per redraw of the view as it is, averaged over a few.
double renderMilliseconds(SceneView* view) {
    view->renderImage();
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < 3; ++i) view->renderImage();
    return clock.nsecsElapsed() * 1e-6 / 3;
}

// The redraw cost at rest and while the camera moves (the first snapshot after the warm-up).
void printRenderCost(MainWindow& window) {
    SceneView* view = window.view();
    const double full = renderMilliseconds(view);
    const QPointF at(view->width() / 2.0, view->height() / 2.0);
    const auto send = [&](QEvent::Type type, QPointF where, Qt::MouseButtons buttons) {
        QMouseEvent event(type, where, view->mapToGlobal(where), Qt::LeftButton, buttons, Qt::NoModifier);
        QCoreApplication::sendEvent(view, &event);
    };
    send(QEvent::MouseButtonPress, at, Qt::LeftButton);
    send(QEvent::MouseMove, at + QPointF(5, 0), Qt::LeftButton);
    const double moving = renderMilliseconds(view);
    const bool draft = view->drawingDraft();
    send(QEvent::MouseMove, at, Qt::LeftButton);
    send(QEvent::MouseButtonRelease, at, Qt::NoButton);
    std::printf("view %dx%d: full redraw %.1f ms, while the camera moves %.1f ms (%s)\n", view->width(), view->height(),
                full, moving, draft ? "draft" : "full");
}

struct WindowRun {
    double steps_per_second = 0.0;
    std::unique_ptr<InputProbe> probe;  // when dragging
};

// Steps/s of the scene in the window (refresh timer live, steps counted from the snapshots shown),
// optionally while a person drags the view.
std::optional<WindowRun> windowStepsPerSecond(MainWindow& window, const QString& scene_path, long warmup, long steps,
                                              bool drag) {
    if (!window.openScene(scene_path)) return std::nullopt;
    window.step(warmup);
    if (!testing::waitForStep(window, warmup, 600000)) return std::nullopt;
    WindowRun result;
    QTimer poker;
    if (drag) {
        result.probe = std::make_unique<InputProbe>(window.view());
        QObject::connect(&poker, &QTimer::timeout, [&] { result.probe->poke(); });
    }
    window.run();
    QElapsedTimer clock;
    clock.start();
    long start_step = -1, end_step = -1;
    double start_s = 0, end_s = 0;
    if (drag) poker.start(100);  // one move every 100 ms
    while (end_step < 0) {
        QTest::qWait(5);
        const auto shown = window.shownSnapshot();
        if (!shown) continue;
        const long step = shown->frame.step;
        if (start_step < 0 && step > warmup) {
            start_step = step;
            start_s = clock.nsecsElapsed() * 1e-9;
        } else if (start_step >= 0 && step >= start_step + steps) {
            end_step = step;
            end_s = clock.nsecsElapsed() * 1e-9;
        }
    }
    poker.stop();
    window.pause();
    result.steps_per_second = (end_step - start_step) / (end_s - start_s);
    return result;
}

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * (v.size() - 1) + 0.5))];
}

}  // namespace

int main(int argc, char** argv) {
    grainlab::preferSleepingThreads();  // as the application does
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const QString scene_path = argc > 1 ? argv[1] : testing::examplePath("bench/column-50k.json");
    const long warmup = argc > 2 ? std::atol(argv[2]) : 20;
    const long steps = argc > 3 ? std::atol(argv[3]) : 200;
    const int rounds = argc > 4 ? std::atoi(argv[4]) : 3;

    MainWindow window;
    window.resize(1400, 900);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) return 1;
    const Scene scene = readSceneFile(scene_path.toStdString());
    std::printf("scene %s, %ld warm-up steps, %ld measured steps, %d rounds\n", qPrintable(scene_path), warmup, steps, rounds);
    if (!window.openScene(scene_path)) return 1;
    window.step(warmup);
    if (!testing::waitForStep(window, warmup, 600000)) return 1;
    printRenderCost(window);
    std::printf("round  headless steps/s  window steps/s (ratio)  while dragging (ratio)  drag delivered p50/p95/max ms  "
                "view repainted p50/p95/max ms\n");
    for (int round = 0; round < rounds; ++round) {
        const double headless = headlessStepsPerSecond(scene, window.registry(), warmup, steps);
        const auto refreshing = windowStepsPerSecond(window, scene_path, warmup, steps, false);
        const auto dragging = windowStepsPerSecond(window, scene_path, warmup, steps, true);
        if (!refreshing || !dragging) return 1;
        const InputProbe& probe = *dragging->probe;
        std::printf("%5d  %16.1f  %14.1f (%5.3f)  %14.1f (%5.3f)  %8.1f / %5.1f / %5.1f          %8.1f / %5.1f / %5.1f\n",
                    round + 1, headless, refreshing->steps_per_second, refreshing->steps_per_second / headless,
                    dragging->steps_per_second, dragging->steps_per_second / headless, percentile(probe.delivered_ms, 0.5),
                    percentile(probe.delivered_ms, 0.95), percentile(probe.delivered_ms, 1.0),
                    percentile(probe.repainted_ms, 0.5), percentile(probe.repainted_ms, 0.95),
                    percentile(probe.repainted_ms, 1.0));
        std::fflush(stdout);
    }
    return 0;
}
