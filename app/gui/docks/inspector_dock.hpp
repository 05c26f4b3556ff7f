#pragma once
// The picked particle: its state and its contacts with their forces, refreshed with each snapshot.
#include <cstdint>

#include <QDockWidget>

#include "runner/snapshot.hpp"

class QTreeWidget;

namespace grainlab::gui {

class InspectorDock : public QDockWidget {
    Q_OBJECT
public:
    explicit InspectorDock(QWidget* parent = nullptr);
    void inspect(std::int64_t body_id) { body_ = body_id; }
    std::int64_t inspected() const { return body_; }
    void showSnapshot(const Snapshot& snapshot);
    int contactRows() const { return contact_rows_; }

private:
    QTreeWidget* tree_;
    std::int64_t body_ = -1;
    int contact_rows_ = 0;
};

}  // namespace grainlab::gui
