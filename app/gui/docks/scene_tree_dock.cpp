#include "scene_tree_dock.hpp"

#include <QHeaderView>
#include <QTreeWidget>

#include "format.hpp"

namespace grainlab::gui {
namespace {

QTreeWidgetItem* node(QTreeWidgetItem* parent, const QString& name, const QString& detail = {}) {
    return new QTreeWidgetItem(parent, {name, detail});
}

QString regionText(const Region& region) {
    if (const auto* box = std::get_if<BoxRegion>(&region)) return QObject::tr("box %1 to %2").arg(formatVector(box->min), formatVector(box->max));
    const auto& c = std::get<CylinderRegion>(region);
    return QObject::tr("cylinder r %1, h %2 at %3").arg(c.radius).arg(c.height).arg(formatVector(c.base_center));
}

QString pluginText(const PluginChoice& choice) {
    QStringList parts;
    for (const auto& [name, value] : choice.parameters) parts << QString("%1 = %2").arg(name.c_str()).arg(value);
    return parts.isEmpty() ? QString(choice.name.c_str()) : QString("%1 (%2)").arg(choice.name.c_str(), parts.join(", "));
}

}  // namespace

SceneTreeDock::SceneTreeDock(QWidget* parent) : QDockWidget(tr("Scene"), parent) {
    setObjectName("SceneTreeDock");
    tree_ = new QTreeWidget;
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("item"), tr("details")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    setWidget(tree_);
}

void SceneTreeDock::showScene(const Scene& scene, std::size_t body_count) {
    tree_->clear();
    QTreeWidgetItem* root = tree_->invisibleRootItem();
    node(root, tr("scene"), scene.name.empty() ? tr("(unnamed)") : QString(scene.name.c_str()));

    auto* materials = node(root, tr("materials"), QString::number(scene.materials.size()));
    for (const Material& m : scene.materials)
        node(materials, m.name.c_str(),
             tr("density %1, E %2, nu %3, e %4, mu %5").arg(m.density).arg(m.youngs_modulus).arg(m.poisson_ratio)
                 .arg(m.restitution).arg(m.friction));

    auto* bodies = node(root, tr("bodies"), tr("%1 in the simulation").arg(body_count));
    if (!scene.bodies.empty()) node(bodies, tr("listed bodies"), QString::number(scene.bodies.size()));
    for (const RandomFill& fill : scene.fills)
        node(bodies, tr("random fill"), tr("%1 %2 of %3 in %4").arg(fill.count).arg(fill.shape.c_str(), fill.material.c_str(),
                                                                           regionText(fill.region)));
    for (const Lattice& lattice : scene.lattices)
        node(bodies, tr("lattice"), tr("%1 x %2 x %3 spheres of radius %4, %5")
                                        .arg(lattice.counts[0]).arg(lattice.counts[1]).arg(lattice.counts[2])
                                        .arg(lattice.radius).arg(lattice.material.c_str()));
    if (scene.lammps_data) node(bodies, tr("LAMMPS data"), scene.lammps_data->file.c_str());

    auto* walls = node(root, tr("walls"), QString::number(scene.planes.size() + scene.meshes.size()));
    for (const PlaneWall& p : scene.planes)
        node(walls, p.name.empty() ? tr("plane") : QString(p.name.c_str()),
             tr("through %1, normal %2, %3").arg(formatVector(p.point), formatVector(p.normal), p.material.c_str()));
    for (const MeshWall& m : scene.meshes)
        node(walls, m.name.empty() ? tr("mesh") : QString(m.name.c_str()),
             tr("%1 triangles from %2%3").arg(m.mesh.triangles.size()).arg(m.file.c_str(),
                                                                           m.motion.moves() ? tr(", moving") : QString()));

    auto* plugins = node(root, tr("plugins"));
    node(plugins, tr("integrator"), pluginText(scene.integrator));
    node(plugins, tr("contact model"), pluginText(scene.contact_model));
    node(plugins, tr("solver"), scene.solver ? pluginText(*scene.solver) : tr("none (soft contacts)"));

    auto* settings = node(root, tr("settings"));
    node(settings, tr("time step [s]"), QString::number(scene.time_step, 'g', 6));
    node(settings, tr("gravity [m/s²]"), formatVector(scene.gravity));
    node(settings, tr("domain"), tr("%1 to %2").arg(formatVector(scene.domain.min), formatVector(scene.domain.max)));
    node(settings, tr("neighbour skin [m]"),
         scene.skin > 0.0 ? QString::number(scene.skin, 'g', 6) : tr("automatic (10% of the largest radius)"));
    node(settings, tr("threads"), scene.threads > 0 ? QString::number(scene.threads) : tr("automatic"));
    node(settings, tr("sphere orientations"),
         scene.track_sphere_orientation ? tr("tracked") : tr("kept as they start"));
    tree_->expandAll();
}

}  // namespace grainlab::gui
