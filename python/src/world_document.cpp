// ubot._core._load_with_document: ubot.irsim's loader, which parses a world file once (the
// native loader's document, made Python values here: IR-SIM's env.config).
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>

#include "bindings.h"
#include "errors.h"
#include "ubot/config/yaml_document.h"
#include "ubot/core/error.h"

namespace py = pybind11;

namespace ubot::python {
namespace {

// The document's node `id` as Python values (PyYAML's safe_load of the same text): mappings as
// dicts, sequences as lists, null as None, a plain scalar through `plain` (PyYAML's YAML 1.1
// resolution and construction, called from Python: booleans, ints, floats, timestamps as PyYAML
// makes them), any other scalar a str. An aliased node is one Python object, as in PyYAML.
class DocumentValues {
 public:
  DocumentValues(const config::YamlDocument& doc, std::string file, py::function plain)
      : doc_(doc), file_(std::move(file)), plain_(std::move(plain)) {}

  py::object operator()(std::uint32_t id) {
    if (id == config::YamlDocument::kNone) return py::none();
    if (auto it = made_.find(id); it != made_.end()) return it->second;
    const config::YamlNode& n = doc_.node(id);
    py::object value;
    switch (n.kind) {
      case config::YamlKind::kNull:
        return py::none();
      case config::YamlKind::kScalar: {
        py::str text(std::string(doc_.scalar(id)));
        return n.plain ? plain_(text) : py::object(text);
      }
      case config::YamlKind::kSequence: {
        py::list items;
        made_.emplace(id, items);
        for (std::uint32_t i = 0; i < n.size; ++i) items.append((*this)(doc_.item(id, i)));
        return items;
      }
      case config::YamlKind::kMap: {
        py::dict entries;
        made_.emplace(id, entries);
        const auto pairs = doc_.pairs(id);
        for (std::size_t i = 0; i + 1 < pairs.size(); i += 2) {
          const config::YamlKind key = doc_.node(pairs[i]).kind;
          if (key == config::YamlKind::kSequence || key == config::YamlKind::kMap) {
            // PyYAML refuses these too (a list or dict is no dict key); say where, not
            // "unhashable type".
            const config::YamlMark at = doc_.mark(pairs[i]);
            throw WorldLoadError{Error(ErrorLocation(file_, at.line + 1, at.column + 1),
                                       "a mapping key is a list or a mapping, which "
                                       "IR-SIM's configuration (a Python dict) cannot hold")};
          }
          entries[(*this)(pairs[i])] = (*this)(pairs[i + 1]);
        }
        return entries;
      }
    }
    return py::none();
  }

 private:
  const config::YamlDocument& doc_;
  std::string file_;
  py::function plain_;
  std::unordered_map<std::uint32_t, py::object> made_;
};

// ubot.irsim's loader: the simulation of the world file at `path` (host_behaviors) and its
// document as Python values, from one parse of the file (IR-SIM's env.config is the document).
py::tuple load_with_document(const std::filesystem::path& path, std::optional<std::uint64_t> seed,
                             const std::optional<std::string>& step_mode, py::function plain) {
  py::object document = py::none();
  auto h =
      simulation_from_path(path, seed, 0, step_mode, true, [&](const config::YamlDocument& doc) {
        document = DocumentValues(doc, path.string(), plain)(doc.root());
      });
  return py::make_tuple(py::cast(h), document);
}

}  // namespace

void bind_world_document(py::module_& m) {
  m.def("_load_with_document", &load_with_document, py::arg("path"), py::arg("seed"),
        py::arg("step_mode"), py::arg("plain"),
        "ubot.irsim's loader: (Simulation with host_behaviors, the world document as PyYAML's "
        "safe_load gives it), from one parse; plain(text) makes a plain scalar's value.");
}

}  // namespace ubot::python
