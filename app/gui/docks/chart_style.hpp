#pragma once
// Small fonts and margins so charts stay readable in a narrow dock.
#include <cmath>

#include <QAbstractAxis>
#include <QValueAxis>
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

// An axis from 0 to at least `top`, ticked at a round step (1, 2 or 5 x 10^k, at least
// `least_step`) so labels read 0, 0.5, 1, ... instead of thirds.
inline void roundAxis(QValueAxis* axis, double top, double least_step = 0.0) {
    const double rough = std::max(top / 4.0, 1e-300);
    const double decade = std::pow(10.0, std::floor(std::log10(rough)));
    const double fraction = rough / decade;
    double step = (fraction <= 1.0 ? 1.0 : fraction <= 2.0 ? 2.0 : fraction <= 5.0 ? 5.0 : 10.0) * decade;
    step = std::max(step, least_step);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    axis->setTickInterval(step);
    axis->setRange(0.0, std::ceil(top / step - 1e-9) * step);
}

}  // namespace grainlab::gui
