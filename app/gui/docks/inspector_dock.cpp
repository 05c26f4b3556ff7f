#include "inspector_dock.hpp"

#include <QHeaderView>
#include <QTreeWidget>

#include "format.hpp"

namespace grainlab::gui {
namespace {

QTreeWidgetItem* row(QTreeWidgetItem* parent, const QString& name, const QString& value) {
    auto* item = new QTreeWidgetItem(parent, {name, value});
    return item;
}

}  // namespace

InspectorDock::InspectorDock(QWidget* parent) : QDockWidget(tr("Inspector"), parent) {
    setObjectName("InspectorDock");
    tree_ = new QTreeWidget;
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("quantity"), tr("value")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    setWidget(tree_);
}

void InspectorDock::showSnapshot(const Snapshot& snapshot) {
    const Frame& f = snapshot.frame;
    tree_->clear();
    contact_rows_ = 0;
    std::size_t i = f.id.size();
    for (std::size_t k = 0; k < f.id.size(); ++k)
        if (f.id[k] == body_) i = k;
    if (i == f.id.size()) {
        row(tree_->invisibleRootItem(), tr("no particle"), tr("click a particle in the view"));
        return;
    }
    QTreeWidgetItem* root = tree_->invisibleRootItem();
    row(root, tr("body id"), QString::number(body_));
    row(root, tr("radius [m]"), QString::number(f.radius[i], 'g', 5));
    row(root, tr("material"), QString::number(f.material[i]));
    row(root, tr("position [m]"), formatVector(f.position[i]));
    row(root, tr("velocity [m/s]"), formatVector(f.velocity[i]));
    row(root, tr("speed [m/s]"), QString::number(f.velocity[i].norm(), 'g', 5));
    row(root, tr("angular velocity [1/s]"), formatVector(f.angular_velocity[i]));
    row(root, tr("net force [N]"), formatVector(f.force[i]));
    auto* contacts = row(root, tr("contacts"), "");
    for (const FrameContact& c : f.contacts) {
        if (c.body_a != body_ && c.body_b != body_) continue;
        // Forces are stored on body a; the partner's view is the reaction.
        const bool is_a = c.body_a == body_;
        const Vec3 force = is_a ? c.force : Vec3(-c.force);
        const std::int64_t other = is_a ? c.body_b : c.body_a;
        const QString partner = other >= 0 ? tr("body %1").arg(other) : tr("wall %1").arg(-1 - other);
        auto* item = row(contacts, partner, tr("|F| = %1 N").arg(force.norm(), 0, 'g', 5));
        row(item, tr("force on this body [N]"), formatVector(force));
        row(item, tr("overlap [m]"), QString::number(c.overlap, 'g', 5));
        ++contact_rows_;
    }
    contacts->setText(1, QString::number(contact_rows_));
    tree_->expandAll();
}

}  // namespace grainlab::gui
