#pragma once
// Editors generated from the selected plugins' typed parameters (unit, range, description).
// Applying queues a swap to the same plugin with the new values; the run goes on.
#include <map>
#include <vector>

#include <QDockWidget>

#include "grainlab/plugin/loader.hpp"
#include "grainlab/scene/scene.hpp"

class QVBoxLayout;
class QWidget;

namespace grainlab::gui {

class ParameterDock : public QDockWidget {
    Q_OBJECT
public:
    explicit ParameterDock(QWidget* parent = nullptr);
    // The plugins in use, in menu order (integrator, contact model, solver); null entries skipped.
    void showPlugins(const std::vector<std::pair<const PluginInfo*, PluginChoice>>& plugins);
    // Sets a value in the editor as a person would (tests), without applying.
    bool setEditorValue(const QString& plugin, const QString& parameter, double value);

signals:
    void applied(grainlab::PluginKind kind, grainlab::PluginChoice choice);

private:
    QWidget* editorFor(const ParameterSpec& spec, double value);
    QVBoxLayout* layout_;
    QWidget* body_;
};

}  // namespace grainlab::gui
