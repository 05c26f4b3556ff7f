#include "shape_import_dialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkUnsignedCharArray.h>

#include "grainlab/core/error.hpp"
#include "grainlab/geometry/polyhedron.hpp"
#include "view/vtk_mesh.hpp"

namespace grainlab::gui {
namespace {

QImage renderShape(const Polyhedron& p, int size) {
    vtkSmartPointer<vtkPolyData> mesh = toPolyData(p.features.vertices, p.features.triangles);
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(mesh);
    vtkNew<vtkActor> actor;
    actor->SetMapper(mapper);
    actor->GetProperty()->SetColor(0.85, 0.55, 0.3);
    actor->GetProperty()->EdgeVisibilityOn();
    actor->GetProperty()->SetEdgeColor(0.2, 0.2, 0.2);
    vtkNew<vtkRenderer> renderer;
    renderer->AddActor(actor);
    renderer->SetBackground(0.16, 0.17, 0.2);
    renderer->GetActiveCamera()->SetPosition(1.0, -1.6, 1.1);
    renderer->GetActiveCamera()->SetViewUp(0, 0, 1);
    renderer->ResetCamera();
    vtkNew<vtkRenderWindow> window;
    window->SetOffScreenRendering(1);
    window->AddRenderer(renderer);
    window->SetSize(size, size);
    window->Render();
    vtkNew<vtkUnsignedCharArray> pixels;
    window->GetRGBACharPixelData(0, 0, size - 1, size - 1, 0, pixels);
    return QImage(pixels->GetPointer(0), size, size, QImage::Format_RGBA8888).mirrored().copy();
}

// Where new copies go by default: a layer as deep as the current bodies' extent, above them.
Eigen::AlignedBox3d defaultRegion(const Scene& scene, const Frame& bodies) {
    Eigen::AlignedBox3d box;
    for (std::size_t i = 0; i < bodies.position.size(); ++i) box.extend(bodies.position[i]);
    if (box.isEmpty()) return Eigen::AlignedBox3d(scene.domain.min, scene.domain.max);
    const double depth = std::max(box.sizes().z(), 0.2 * box.sizes().head<2>().maxCoeff());
    return Eigen::AlignedBox3d(Vec3(box.min().x(), box.min().y(), box.max().z() + 0.1 * depth),
                               Vec3(box.max().x(), box.max().y(), box.max().z() + 1.1 * depth));
}

}  // namespace

ShapeImportDialog::ShapeImportDialog(const Scene& scene, Frame bodies, QWidget* parent)
    : QDialog(parent), scene_(scene), bodies_(std::move(bodies)) {
    setWindowTitle(tr("Import particle shape"));
    auto* choose = new QPushButton(tr("Choose file..."));
    file_label_ = new QLabel(tr("no file"));
    preview_ = new QLabel;
    preview_->setFixedSize(220, 220);
    preview_->setAlignment(Qt::AlignCenter);
    report_ = new QPlainTextEdit;
    report_->setReadOnly(true);
    report_->setMinimumWidth(420);
    scale_ = new QDoubleSpinBox;
    scale_->setDecimals(6);
    scale_->setRange(1e-6, 1e6);
    scale_->setValue(1.0);
    scale_->setToolTip(tr("Factor applied to the file's coordinates (read as metres)"));
    repair_ = new QCheckBox(tr("Repair orientation (turn flipped triangles)"));
    material_ = new QComboBox;
    for (const Material& m : scene_.materials) material_->addItem(m.name.c_str());
    count_ = new QSpinBox;
    count_->setRange(1, 1000000);
    count_->setValue(50);
    const Eigen::AlignedBox3d region = defaultRegion(scene_, bodies_);
    auto* region_grid = new QGridLayout;
    for (int k = 0; k < 6; ++k) {
        region_[k] = new QDoubleSpinBox;
        region_[k]->setDecimals(4);
        region_[k]->setRange(-1e6, 1e6);
        region_[k]->setValue(k < 3 ? region.min()[k] : region.max()[k - 3]);
        region_grid->addWidget(region_[k], k / 3, k % 3);
    }
    contact_note_ = new QLabel(
        tr("Polyhedral contact needs a contact model for polyhedra (polyhedral-barrier). Other models (in use: "
           "%1) treat these particles as their bounding spheres; the view always draws the mesh.")
            .arg(scene_.contact_model.name.c_str()));
    contact_note_->setWordWrap(true);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Add copies"));
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(false);

    auto* form = new QFormLayout;
    form->addRow(choose, file_label_);
    form->addRow(tr("Scale"), scale_);
    form->addRow(QString(), repair_);
    form->addRow(tr("Material"), material_);
    form->addRow(tr("Copies"), count_);
    form->addRow(tr("Region min / max [m]"), region_grid);
    auto* top = new QHBoxLayout;
    top->addWidget(preview_);
    top->addWidget(report_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(form);
    layout->addWidget(contact_note_);
    layout->addWidget(buttons_);

    connect(choose, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Particle shape"), QString(GRAINLAB_RESOURCE_DIR) + "/shapes",
                                                          tr("Meshes (*.stl *.obj *.ply)"));
        if (!path.isEmpty()) load(path);
    });
    connect(scale_, &QDoubleSpinBox::editingFinished, this, &ShapeImportDialog::reload);
    connect(repair_, &QCheckBox::toggled, this, &ShapeImportDialog::reload);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

bool ShapeImportDialog::load(const QString& path) {
    path_ = path;
    file_label_->setText(QFileInfo(path).fileName());
    reload();
    return shape_.has_value();
}

void ShapeImportDialog::reload() {
    if (path_.isEmpty()) return;
    shape_.reset();
    try {
        shape_ = importShape(path_.toStdString(), scale_->value(), repair_->isChecked(),
                             uniqueName(QFileInfo(path_).completeBaseName()).toStdString());
        report_->setPlainText(QString::fromStdString(shape_->summary));
        showPreview();
    } catch (const InputError& e) {
        report_->setPlainText(tr("Refused: %1").arg(e.what()));
        preview_->clear();
    }
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(shape_.has_value());
}

void ShapeImportDialog::showPreview() {
    preview_->setPixmap(QPixmap::fromImage(renderShape(*shape_->spec.polyhedron, preview_->width())));
}

QString ShapeImportDialog::uniqueName(const QString& base) const {
    QString name = base;
    for (int k = 2;; ++k) {
        bool taken = false;
        for (const ShapeSpec& s : scene_.shapes) taken = taken || s.name == name.toStdString();
        if (!taken) return name;
        name = QString("%1-%2").arg(base).arg(k);
    }
}

void ShapeImportDialog::setScale(double scale) {
    scale_->setValue(scale);
    reload();
}

void ShapeImportDialog::setCount(int count) { count_->setValue(count); }

void ShapeImportDialog::setRegion(const Vec3& min, const Vec3& max) {
    for (int k = 0; k < 3; ++k) {
        region_[k]->setValue(min[k]);
        region_[k + 3]->setValue(max[k]);
    }
}

QString ShapeImportDialog::report() const { return report_->toPlainText(); }

std::vector<BodySpec> ShapeImportDialog::generate() {
    if (!shape_) return {};
    BoxRegion region;
    for (int k = 0; k < 3; ++k) {
        region.min[k] = region_[k]->value();
        region.max[k] = region_[k + 3]->value();
    }
    try {
        return scatterCopies(scene_, bodies_, shape_->spec, material_->currentText().toStdString(), region,
                             count_->value(), static_cast<std::uint64_t>(bodies_.step) + 1);
    } catch (const InputError& e) {
        report_->appendPlainText(tr("\nCannot place the copies: %1").arg(e.what()));
        return {};
    }
}

}  // namespace grainlab::gui
