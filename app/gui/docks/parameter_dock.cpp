#include "parameter_dock.hpp"

#include <limits>

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

namespace grainlab::gui {
namespace {

double editorValue(QWidget* editor) {
    if (auto* box = qobject_cast<QDoubleSpinBox*>(editor)) return box->value();
    if (auto* box = qobject_cast<QSpinBox*>(editor)) return box->value();
    if (auto* box = qobject_cast<QCheckBox*>(editor)) return box->isChecked() ? 1.0 : 0.0;
    return 0.0;
}

int clampToInt(double v) {
    return static_cast<int>(std::clamp(v, double(std::numeric_limits<int>::min()), double(std::numeric_limits<int>::max())));
}

}  // namespace

ParameterDock::ParameterDock(QWidget* parent) : QDockWidget(tr("Parameters"), parent) {
    setObjectName("ParameterDock");
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    body_ = new QWidget;
    layout_ = new QVBoxLayout(body_);
    scroll->setWidget(body_);
    setWidget(scroll);
}

QWidget* ParameterDock::editorFor(const ParameterSpec& spec, double value) {
    QWidget* editor = nullptr;
    if (spec.type == GRAINLAB_PARAM_BOOLEAN) {
        auto* box = new QCheckBox;
        box->setChecked(value != 0.0);
        editor = box;
    } else if (spec.type == GRAINLAB_PARAM_INTEGER) {
        auto* box = new QSpinBox;
        box->setRange(clampToInt(spec.min_value), clampToInt(spec.max_value));
        box->setValue(clampToInt(value));
        if (!spec.unit.empty()) box->setSuffix(QString(" ") + spec.unit.c_str());
        editor = box;
    } else {
        auto* box = new QDoubleSpinBox;
        box->setDecimals(10);  // stiffnesses and damping span many decades
        box->setRange(spec.min_value, spec.max_value);
        box->setValue(value);
        box->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
        if (!spec.unit.empty()) box->setSuffix(QString(" ") + spec.unit.c_str());
        editor = box;
    }
    editor->setObjectName(spec.name.c_str());
    editor->setToolTip(QString("%1\nrange [%2, %3]").arg(spec.description.c_str()).arg(spec.min_value).arg(spec.max_value));
    return editor;
}

void ParameterDock::showPlugins(const std::vector<std::pair<const PluginInfo*, PluginChoice>>& plugins) {
    while (QLayoutItem* item = layout_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (const auto& [info, choice] : plugins) {
        if (!info) continue;
        auto* group = new QGroupBox(QString("%1: %2").arg(kindName(info->kind).c_str(), info->name.c_str()));
        group->setObjectName(info->name.c_str());
        auto* form = new QFormLayout(group);
        std::vector<std::pair<std::string, QWidget*>> editors;
        for (const ParameterSpec& spec : info->parameters) {
            const auto set = choice.parameters.find(spec.name);
            QWidget* editor = editorFor(spec, set != choice.parameters.end() ? set->second : spec.default_value);
            form->addRow(spec.name.c_str(), editor);
            editors.emplace_back(spec.name, editor);
        }
        if (info->parameters.empty()) form->addRow(new QLabel(tr("no parameters")));
        else {
            auto* apply = new QPushButton(tr("Apply"));
            apply->setObjectName("apply");
            const PluginKind kind = info->kind;
            const std::string name = info->name;
            connect(apply, &QPushButton::clicked, this, [this, kind, name, editors] {
                PluginChoice edited{name, {}};
                for (const auto& [parameter, editor] : editors) edited.parameters[parameter] = editorValue(editor);
                emit applied(kind, edited);
            });
            form->addRow(apply);
        }
        layout_->addWidget(group);
    }
    layout_->addStretch(1);
}

bool ParameterDock::setEditorValue(const QString& plugin, const QString& parameter, double value) {
    auto* group = body_->findChild<QGroupBox*>(plugin);
    if (!group) return false;
    auto* editor = group->findChild<QWidget*>(parameter);
    if (auto* real = qobject_cast<QDoubleSpinBox*>(editor)) real->setValue(value);
    else if (auto* integer = qobject_cast<QSpinBox*>(editor)) integer->setValue(clampToInt(value));
    else if (auto* flag = qobject_cast<QCheckBox*>(editor)) flag->setChecked(value != 0.0);
    else return false;
    return true;
}

}  // namespace grainlab::gui
