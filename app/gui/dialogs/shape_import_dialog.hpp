#pragma once
// File > Import particle shape: pick an STL/OBJ/PLY file, see it and its mesh checks, choose scale
// and material, and fill a region with copies at random orientations.
#include <optional>

#include <QDialog>

#include "grainlab/io/frame.hpp"
#include "grainlab/scene/scene.hpp"
#include "shape_import.hpp"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QSpinBox;

namespace grainlab::gui {

class ShapeImportDialog : public QDialog {
    Q_OBJECT
public:
    ShapeImportDialog(const Scene& scene, Frame bodies, QWidget* parent = nullptr);

    // Loads the file with the current scale (what choosing a file does); false when refused.
    bool load(const QString& path);
    void setScale(double scale);  // reloads the shape at this scale
    void setCount(int count);
    void setRegion(const Vec3& min, const Vec3& max);
    // The copies to add (empty, with the reason shown, when they do not fit).
    std::vector<BodySpec> generate();
    const std::optional<ImportedShape>& shape() const { return shape_; }
    QString report() const;

private:
    void reload();
    void showPreview();
    QString uniqueName(const QString& base) const;

    const Scene& scene_;
    Frame bodies_;
    QString path_;
    std::optional<ImportedShape> shape_;
    QLabel* file_label_;
    QLabel* preview_;
    QPlainTextEdit* report_;
    QDoubleSpinBox* scale_;
    QCheckBox* repair_;
    QComboBox* material_;
    QSpinBox* count_;
    QDoubleSpinBox* region_[6];
    QLabel* contact_note_;
    QDialogButtonBox* buttons_;
};

}  // namespace grainlab::gui
