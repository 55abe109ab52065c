// Medium providers written in Python (docs/python.md, "Media"): an object with a method
// snapshot(time) returning this step's medium, asked once per step like every provider
// (include/ubot/media/provider.h). It returns None (no medium), an (n, 5) array of cells
// [x, y, z, radius, density] (world frame, m; density 0..1), or a dict with "cells" and optional
// "tint" (r, g, b in 0..1), "velocities" ((n, 3) m/s, what FMCW lidars see), "edge_factor"
// ((n,) 0..1) and "name". Snapshots of the simulation hold a deep copy (copy.deepcopy) of it;
// one that cannot be deep-copied makes snapshot() raise.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <cmath>

#include "bindings.h"
#include "errors.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/media/provider.h"

namespace py = pybind11;

namespace ubot::python {
namespace {

// An (n, columns) float64 array of finite values; ubot::Error naming `what` otherwise.
py::array_t<double> rows(const py::handle& value, py::ssize_t columns, py::ssize_t n,
                         const char* what) {
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
  if (!a || a.ndim() != 2 || a.shape(1) != columns || (n >= 0 && a.shape(0) != n)) {
    throw Error(fmt::format("medium provider: {} must be an array of shape ({}, {})", what,
                            n >= 0 ? std::to_string(n) : std::string("n"), columns));
  }
  for (py::ssize_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a.data()[i]))
      throw Error(fmt::format("medium provider: {} must be finite", what));
  }
  return a;
}

// A step's memory per cell of a provider, measured as peak RSS over steps of 10^6 and 3x10^6
// cells (175-182 B: the cells, the medium's index, the rays' lists; docs/hostile-input.md).
constexpr std::uint64_t kBytesPerProviderCell = 200;

// The array's row count, checked against the memory limit before it is copied or converted:
// 10^7 cells took 1.8 GB a step.
void check_cell_count(const py::handle& cells) {
  const auto a = py::reinterpret_borrow<py::object>(cells);
  if (!py::isinstance<py::array>(a)) return;  // a list: rows() converts it, and counts
  const auto array = py::reinterpret_borrow<py::array>(a);
  if (array.ndim() < 1) return;
  const auto n = static_cast<std::uint64_t>(array.shape(0));
  check_memory_for_items(n, kBytesPerProviderCell, fmt::format("medium provider: {} cells", n));
}

void read_cells(const py::handle& cells, media::MediumSnapshot& out) {
  check_cell_count(cells);
  const auto c = rows(cells, 5, -1, "cells [x, y, z, radius, density]");
  check_memory_for_items(static_cast<std::uint64_t>(c.shape(0)), kBytesPerProviderCell,
                         fmt::format("medium provider: {} cells", c.shape(0)));
  const auto r = c.unchecked<2>();
  out.cells.resize(static_cast<std::size_t>(c.shape(0)));
  for (py::ssize_t i = 0; i < c.shape(0); ++i) {
    media::MediumCell& cell = out.cells[static_cast<std::size_t>(i)];
    cell.position = {r(i, 0), r(i, 1), r(i, 2)};
    cell.radius = r(i, 3);
    cell.density = r(i, 4);
    if (cell.radius < 0 || cell.density < 0 || cell.density > 1) {
      throw Error("medium provider: a cell's radius must be >= 0 and its density in [0, 1]");
    }
  }
}

void read_dict(const py::dict& d, media::MediumSnapshot& out) {
  if (!d.contains("cells")) throw Error("medium provider: the dict has no \"cells\"");
  read_cells(d["cells"], out);
  const auto n = static_cast<py::ssize_t>(out.cells.size());
  if (d.contains("velocities")) {
    const auto v = rows(d["velocities"], 3, n, "velocities").unchecked<2>();
    for (py::ssize_t i = 0; i < n; ++i)
      out.cells[static_cast<std::size_t>(i)].velocity = {v(i, 0), v(i, 1), v(i, 2)};
  }
  if (d.contains("edge_factor")) {
    const auto e =
        rows(
            py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(d["edge_factor"])
                .reshape({n, py::ssize_t{1}}),
            1, n, "edge_factor")
            .unchecked<2>();
    for (py::ssize_t i = 0; i < n; ++i)
      out.cells[static_cast<std::size_t>(i)].edge_factor = e(i, 0);
  }
  if (d.contains("tint")) {
    const auto t =
        rows(py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(d["tint"])
                 .reshape({1, 3}),
             3, 1, "tint")
            .unchecked<2>();
    out.tint = {t(0, 0), t(0, 1), t(0, 2)};
  }
  if (d.contains("name")) {
    // Checked first: pybind11's cast of another type raises a RuntimeError (found by fuzz_python).
    if (!py::isinstance<py::str>(d["name"])) {
      throw py::type_error("medium provider: 'name' must be a str");
    }
    out.name = d["name"].cast<std::string>();
  }
}

class PythonMediumProvider final : public media::MediumProvider {
 public:
  explicit PythonMediumProvider(py::object provider) : provider_(std::move(provider)) {}
  ~PythonMediumProvider() override {
    py::gil_scoped_acquire gil;
    provider_ = py::object();
  }

  // Called during the step, whose GIL is released: takes it for the call. A Python exception
  // propagates (as pybind11's error_already_set) out of Simulation.step unchanged.
  bool snapshot(const media::MediumQuery& query, media::MediumSnapshot& out) override {
    py::gil_scoped_acquire gil;
    const py::object result = provider_.attr("snapshot")(nanos_to_seconds(query.time));
    if (result.is_none()) return false;
    if (py::isinstance<py::dict>(result)) {
      read_dict(py::reinterpret_borrow<py::dict>(result), out);
    } else {
      read_cells(result, out);
    }
    return true;
  }
  // A provider copy.deepcopy cannot copy cannot be snapshotted (Simulation.snapshot then
  // raises ubot.Error saying so).
  std::unique_ptr<MediumProvider> clone() const override {
    py::gil_scoped_acquire gil;
    try {
      return std::make_unique<PythonMediumProvider>(
          py::module_::import("copy").attr("deepcopy")(provider_));
    } catch (py::error_already_set&) {
      return nullptr;
    }
  }
  void copy_state_from(const MediumProvider& other) override {
    py::gil_scoped_acquire gil;
    const auto& o = static_cast<const PythonMediumProvider&>(other);  // same type: restore checks
    provider_ = py::module_::import("copy").attr("deepcopy")(o.provider_);
  }
  const py::object& provider() const { return provider_; }

 private:
  py::object provider_;
};

}  // namespace

void bind_media(py::class_<SimHandle, std::shared_ptr<SimHandle>>& c) {
  c.def(
      "add_medium_provider",
      [](SimHandle& h, const py::object& provider) {
        if (!py::hasattr(provider, "snapshot")) {
          throw py::type_error("add_medium_provider: the provider needs a method snapshot(time)");
        }
        // Counted first: the simulation no longer pickles (docs/python.md, "Snapshots, state
        // files and pickling"), also for the copy.deepcopy the add makes of the provider (one
        // holding the simulation would otherwise copy the simulation through its pickle).
        ++h.added_providers();
        try {
          h.sim().add_medium_provider(std::make_unique<PythonMediumProvider>(provider));
        } catch (...) {
          --h.added_providers();
          throw;
        }
      },
      py::arg("provider"),
      "Adds a Python medium provider: provider.snapshot(time_s) is asked every step (None, an "
      "(n, 5) array [x, y, z, radius, density] or a dict; docs/python.md).");
}

}  // namespace ubot::python
