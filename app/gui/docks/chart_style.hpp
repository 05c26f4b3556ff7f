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

// A round step near `rough`: 1, 2 or 5 x 10^k.
inline double roundStep(double rough) {
    rough = std::max(rough, 1e-300);
    const double decade = std::pow(10.0, std::floor(std::log10(rough)));
    const double fraction = rough / decade;
    return (fraction <= 1.0 ? 1.0 : fraction <= 2.0 ? 2.0 : fraction <= 5.0 ? 5.0 : 10.0) * decade;
}

// Range [min, max] with ticks every `step` from a round value. Qt Charts lays an axis out at every
// change with the settings it has then, and dynamic ticks walk the range by the interval: an old
// tiny interval over a new wide range would make billions of ticks. So the change is made with
// fixed ticks and the interval set before dynamic ticks come back.
inline void setRoundTicks(QValueAxis* axis, double min, double max, double step) {
    axis->setTickType(QValueAxis::TicksFixed);
    axis->setRange(min, max);
    axis->setTickAnchor(std::floor(min / step) * step);
    axis->setTickInterval(step);
    axis->setTickType(QValueAxis::TicksDynamic);
}

// About four round ticks over [min, max] (labels 0, 0.05, 0.1 instead of thirds).
inline void roundTicks(QValueAxis* axis, double min, double max) {
    setRoundTicks(axis, min, max, roundStep((max - min) / 4.0));
}

// An axis from 0 to at least `top`, ending on a round tick.
inline void roundAxis(QValueAxis* axis, double top, double least_step = 0.0) {
    const double step = std::max(roundStep(top / 4.0), least_step);
    setRoundTicks(axis, 0.0, std::ceil(top / step - 1e-9) * step, step);
}

}  // namespace grainlab::gui
