#pragma once
// Triangle meshes (walls, particle shapes) as VTK polygon data.
#include <array>
#include <cstdint>
#include <vector>

#include <vtkCellArray.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

#include "grainlab/core/math.hpp"

namespace grainlab::gui {

inline vtkSmartPointer<vtkPolyData> toPolyData(const std::vector<Vec3>& vertices,
                                               const std::vector<std::array<std::uint32_t, 3>>& triangles) {
    auto points = vtkSmartPointer<vtkPoints>::New();
    points->SetDataTypeToDouble();
    for (const Vec3& v : vertices) points->InsertNextPoint(v.data());
    auto cells = vtkSmartPointer<vtkCellArray>::New();
    for (const auto& t : triangles) {
        const vtkIdType ids[3] = {t[0], t[1], t[2]};
        cells->InsertNextCell(3, ids);
    }
    auto poly = vtkSmartPointer<vtkPolyData>::New();
    poly->SetPoints(points);
    poly->SetPolys(cells);
    return poly;
}

}  // namespace grainlab::gui
