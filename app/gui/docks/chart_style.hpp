#pragma once
// Small fonts and margins so charts stay readable in a narrow dock.
#include <QAbstractAxis>
#include <QChart>
#include <QGraphicsLayout>

namespace grainlab::gui {

inline void compactChart(QChart* chart) {
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    QFont small = chart->legend()->font();
    small.setPointSizeF(8.0);
    chart->legend()->setFont(small);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsFont(small);
        axis->setTitleFont(small);
    }
}

}  // namespace grainlab::gui
