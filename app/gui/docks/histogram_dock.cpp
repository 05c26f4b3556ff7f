#include "histogram_dock.hpp"

#include <algorithm>

#include <QCheckBox>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include "chart_style.hpp"
#include <QVBoxLayout>

namespace grainlab::gui {
namespace {

constexpr int kBins = 40;

// A histogram drawn as a step outline, so a logarithmic count axis shows it too.
void fillSteps(QLineSeries* series, const std::vector<int>& counts, double width, double floor) {
    QList<QPointF> points;
    for (std::size_t b = 0; b < counts.size(); ++b) {
        const double y = std::max<double>(counts[b], floor);
        points.append({b * width, y});
        points.append({(b + 1) * width, y});
    }
    series->replace(points);
}

}  // namespace

HistogramDock::HistogramDock(QWidget* parent) : QDockWidget(tr("Force histogram"), parent) {
    setObjectName("HistogramDock");
    chart_ = new QChart;
    chart_->legend()->setAlignment(Qt::AlignTop);
    normal_ = new QLineSeries;
    normal_->setName(tr("normal"));
    tangential_ = new QLineSeries;
    tangential_->setName(tr("tangential"));
    chart_->addSeries(normal_);
    chart_->addSeries(tangential_);
    force_axis_ = new QValueAxis;
    force_axis_->setTitleText(tr("force magnitude [N]"));
    force_axis_->setLabelFormat("%.3g");
    linear_counts_ = new QValueAxis;
    linear_counts_->setTitleText(tr("contacts"));
    linear_counts_->setLabelFormat("%d");
    log_counts_ = new QLogValueAxis;
    log_counts_->setTitleText(tr("contacts"));
    log_counts_->setLabelFormat("%g");

    chart_->addAxis(force_axis_, Qt::AlignBottom);
    chart_->addAxis(linear_counts_, Qt::AlignLeft);
    for (QLineSeries* s : {normal_, tangential_}) {
        s->attachAxis(force_axis_);
        s->attachAxis(linear_counts_);
    }
    compactChart(chart_);
    log_counts_->setLabelsFont(linear_counts_->labelsFont());
    log_counts_->setTitleFont(linear_counts_->titleFont());
    auto* view = new QChartView(chart_);
    view->setRenderHint(QPainter::Antialiasing);
    log_scale_ = new QCheckBox(tr("Logarithmic count axis"));
    connect(log_scale_, &QCheckBox::toggled, this, &HistogramDock::setLogScale);
    auto* body = new QWidget;
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(view);
    layout->addWidget(log_scale_);
    setWidget(body);
}

void HistogramDock::setLogScale(bool log) {
    if (log_scale_->isChecked() != log) log_scale_->setChecked(log);
    QAbstractAxis* from = log ? static_cast<QAbstractAxis*>(linear_counts_) : log_counts_;
    QAbstractAxis* to = log ? static_cast<QAbstractAxis*>(log_counts_) : linear_counts_;
    if (!chart_->axes(Qt::Vertical).contains(to)) {
        for (QLineSeries* s : {normal_, tangential_}) s->detachAxis(from);
        chart_->removeAxis(from);
        chart_->addAxis(to, Qt::AlignLeft);
        for (QLineSeries* s : {normal_, tangential_}) s->attachAxis(to);
    }
    redraw();
}

void HistogramDock::showSnapshot(const Snapshot& snapshot) {
    histogram_ = binForces(splitContactForces(snapshot.frame), kBins);
    redraw();
}

void HistogramDock::redraw() {
    const bool log = log_scale_->isChecked();
    const double floor = log ? 0.5 : 0.0;  // empty bins sit below 1 on a log axis
    fillSteps(normal_, histogram_.normal, histogram_.bin_width, floor);
    fillSteps(tangential_, histogram_.tangential, histogram_.bin_width, floor);
    int most = 1;
    for (int c : histogram_.normal) most = std::max(most, c);
    for (int c : histogram_.tangential) most = std::max(most, c);
    roundTicks(force_axis_, 0.0, histogram_.bin_width * kBins);  // 0, 1, 2, 3 rather than 0.812, 1.62
    roundAxis(linear_counts_, std::max(most, 5) * 1.05, 1.0);  // integer ticks even when nearly empty
    log_counts_->setRange(0.5, most * 2.0);
}

}  // namespace grainlab::gui
