#pragma once
// Shared by the GUI tests: waiting for the worker without blocking the event loop.
#include <QTest>

#include "main_window.hpp"

namespace grainlab::gui::testing {

// Lets the window refresh until its shown snapshot reaches `step` (or the run fails).
inline bool waitForStep(MainWindow& window, long step, int timeout_ms = 120000) {
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeout_ms) {
        window.refresh();
        const auto shown = window.shownSnapshot();
        if (shown && shown->frame.step >= step) return true;
        if (window.runner() && window.runner()->state() == RunState::Failed) return false;
        QTest::qWait(20);
    }
    return false;
}

inline QString examplePath(const char* name) { return QString(GRAINLAB_RESOURCE_DIR) + "/scenes/" + name; }

}  // namespace grainlab::gui::testing
