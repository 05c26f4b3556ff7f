// grainlab: the desktop application. With --screenshot it runs a number of steps, saves the
// window and the 3D view as PNG images and exits (for people without a display and for tests).
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QTimer>

#include <cstdio>
#include <cstdlib>

#include "docks/messages_dock.hpp"
#include "grainlab/core/parallel.hpp"
#include "main_window.hpp"
#include "view/scene_view.hpp"

int main(int argc, char** argv) {
    // The engine's threads share the cores with the window's rendering (docs/gui-performance.md).
    grainlab::preferSleepingThreads();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("GrainLab");
    QApplication::setApplicationName("grainlab");
    QCommandLineParser parser;
    parser.setApplicationDescription("GrainLab granular-dynamics laboratory");
    parser.addHelpOption();
    parser.addPositionalArgument("scene", "scene file to open (default: the pile example)");
    QCommandLineOption screenshot("screenshot", "run, save the window to <png> and the view to <png>-view.png, exit", "png");
    QCommandLineOption steps("steps", "steps to run before the screenshot (default 200)", "n", "200");
    parser.addOptions({screenshot, steps});
    parser.process(app);

    grainlab::gui::MainWindow window;
    const QString scene = parser.positionalArguments().value(0, QString(GRAINLAB_RESOURCE_DIR) + "/scenes/pile.json");
    if (!window.openScene(scene) && parser.isSet(screenshot)) return 2;
    window.show();
    if (!parser.isSet(screenshot)) return app.exec();

    const long wanted = parser.value(steps).toLong();
    window.step(wanted);
    auto* poll = new QTimer(&window);
    QObject::connect(poll, &QTimer::timeout, [&] {
        window.refresh();
        auto shown = window.shownSnapshot();
        const bool failed = window.runner()->state() == grainlab::gui::RunState::Failed;
        if (!failed && (!shown || shown->frame.step < wanted)) return;
        poll->stop();
        // The charts take their new ranges' label widths at their next layout, a posted event: grabbed
        // before it, the axes showed the last layout's room with the new labels cut to "2...".
        QCoreApplication::processEvents();
        const QString path = parser.value(screenshot);
        const bool saved = window.grab().save(path) &&
                           window.view()->renderImage().save(QString(path).replace(".png", "") + "-view.png");
        if (failed || !saved)
            std::fprintf(stderr, "grainlab: %s\n%s\n", failed ? "the run stopped" : "the screenshot could not be written",
                         qPrintable(window.messagesDock()->text()));
        app.exit(saved && !failed ? 0 : 1);
    });
    poll->start(50);
    return app.exec();
}
