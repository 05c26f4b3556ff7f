#pragma once
// Contact forces as arrows from the contact into body a, length and colour by magnitude. A
// threshold (fraction of the largest force) leaves only the strong network.
#include <vtkNew.h>

#include "runner/snapshot.hpp"

class vtkActor;
class vtkArrowSource;
class vtkGlyph3DMapper;
class vtkLookupTable;
class vtkPolyData;
class vtkRenderer;

namespace grainlab::gui {

class ContactLayer {
public:
    static constexpr std::size_t kMaxArrows = 20000;
    explicit ContactLayer(vtkRenderer* renderer);
    ~ContactLayer();
    void update(const Snapshot& snapshot);
    void setVisible(bool visible);
    void setThreshold(double fraction) { threshold_ = fraction; }
    std::size_t arrowsShown() const { return shown_; }

private:
    double threshold_ = 0.0;
    std::size_t shown_ = 0;
    vtkNew<vtkPolyData> arrows_;
    vtkNew<vtkArrowSource> arrow_;
    vtkNew<vtkGlyph3DMapper> mapper_;
    vtkNew<vtkActor> actor_;
    vtkNew<vtkLookupTable> lut_;
};

}  // namespace grainlab::gui
