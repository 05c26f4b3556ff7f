// grainlab: the desktop application. With --screenshot it runs a number of steps, saves the
// window and the 3D view as PNG images and exits (for people without a display and for tests).
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
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

    bool whole = false;
    const long wanted = parser.value(steps).toLong(&whole);
    if (!whole || wanted < 0) {
        std::fprintf(stderr, "grainlab: --steps %s: give a whole number of steps, 0 or more\n", qPrintable(parser.value(steps)));
        return 2;
    }
    // The view's image goes next to the window's: shot.png and shot-view.png.
    const QString window_png = parser.value(screenshot);
    const QString view_png = (window_png.endsWith(".png") ? window_png.chopped(4) : window_png) + "-view.png";
    if (parser.isSet(screenshot) && !QDir().mkpath(QFileInfo(window_png).absolutePath())) {
        std::fprintf(stderr, "grainlab: --screenshot %s: cannot make the folder %s\n", qPrintable(window_png),
                     qPrintable(QFileInfo(window_png).absolutePath()));
        return 2;
    }

    grainlab::gui::MainWindow window;
    const QString scene = parser.positionalArguments().value(0, QString(GRAINLAB_RESOURCE_DIR) + "/scenes/pile.json");
    if (!window.openScene(scene) && parser.isSet(screenshot)) return 2;
    window.show();
    if (!parser.isSet(screenshot)) return app.exec();

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
        const bool window_saved = window.grab().save(window_png);
        const bool saved = window_saved && window.view()->renderImage().save(view_png);
        if (failed)
            std::fprintf(stderr, "grainlab: the run stopped\n%s\n", qPrintable(window.messagesDock()->text()));
        else if (!saved)
            std::fprintf(stderr, "grainlab: could not write %s (a PNG file name in a folder open for writing)\n",
                         qPrintable(window_saved ? view_png : window_png));
        app.exit(saved && !failed ? 0 : 1);
    });
    poll->start(50);
    return app.exec();
}
