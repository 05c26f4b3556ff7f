#pragma once
// The scene as a tree: materials, groups of bodies (explicit, generated, LAMMPS data), walls,
// plugins and settings.
#include <QDockWidget>

#include "grainlab/scene/scene.hpp"

class QTreeWidget;

namespace grainlab::gui {

class SceneTreeDock : public QDockWidget {
    Q_OBJECT
public:
    explicit SceneTreeDock(QWidget* parent = nullptr);
    void showScene(const Scene& scene, std::size_t body_count);

private:
    QTreeWidget* tree_;
};

}  // namespace grainlab::gui
