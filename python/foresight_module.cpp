// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight._foresight`: the library's JSON requests (api/requests.h) for Python (pybind11).
/// A result is exactly the CLI's `--json` object; `python/foresight/__init__.py` turns keyword
/// arguments into a request and the result into a dict. Library errors raise `foresight.Error`
/// with the message after its file and line when known. The GIL is released while the library
/// works, so Python threads can predict in parallel.
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

#include "foresight/api/requests.h"

namespace py = pybind11;

namespace {

/// A library Error, raised in Python as foresight.Error.
struct ForesightError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Calls a request without the GIL; its Error becomes a ForesightError.
template <class F>
std::string call(F&& request) {
  foresight::Expected<std::string> r = [&] {
    py::gil_scoped_release unlocked;
    return request();
  }();
  if (!r) throw ForesightError(r.error().file.empty() ? r.error().message : r.error().format());
  return *r;
}

}  // namespace

PYBIND11_MODULE(_foresight, m) {
  m.doc() = "Foresight's library: predict, explain and explore GPU kernels without a GPU (JSON in, JSON out).";
  py::register_exception<ForesightError>(m, "Error", PyExc_RuntimeError);
  m.def("gpus", [] { return call([] { return foresight::gpusRequest(); }); },
        "The GPU presets as JSON (the CLI's `gpus --json`).");
  m.def("predict", [](const std::string& r) { return call([&] { return foresight::predictRequest(r); }); },
        py::arg("request"), "Predicts one launch; request and result are JSON text.");
  m.def("explain", [](const std::string& r) { return call([&] { return foresight::explainRequest(r); }); },
        py::arg("request"), "Explains one launch; request and result are JSON text.");
  m.def("explore", [](const std::string& r) { return call([&] { return foresight::exploreRequest(r); }); },
        py::arg("request"), "Searches a space of macros and launches; JSON text.");
  m.attr("__version__") = "0.1.0";
}
