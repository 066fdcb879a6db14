// SPDX-License-Identifier: Apache-2.0
/// \file
/// Kernel selection by name (kernel_name.h).
#include "foresight/frontend/kernel_name.h"

#include <algorithm>
#include <cctype>

#include "foresight/support/edit_distance.h"

namespace foresight {

namespace {

std::string withoutSpaces(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  }
  return out;
}

/// Whether `name` is `request` or ends with "::" + `request` (both without whitespace).
bool namesEqual(const std::string& name, const std::string& request) {
  if (request.empty()) return false;
  if (name == request) return true;
  return name.size() > request.size() + 2 && name.compare(name.size() - request.size(), request.size(), request) == 0 &&
         name.compare(name.size() - request.size() - 2, 2, "::") == 0;
}

std::string joined(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

}  // namespace

std::string bareKernelName(const std::string& name) {
  std::string s = withoutSpaces(name);
  // The parameter list: the parentheses that close the name ("k(float*)").
  if (!s.empty() && s.back() == ')') {
    int depth = 0;
    for (size_t i = s.size(); i-- > 0;) {
      if (s[i] == ')') ++depth;
      if (s[i] == '(' && --depth == 0) {
        s.erase(i);
        break;
      }
    }
  }
  // The template arguments of the last component (after the last top-level "::").
  size_t last = 0;
  int angle = 0;
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] == '<') ++angle;
    if (s[i] == '>') --angle;
    if (angle == 0 && s[i] == ':' && s[i + 1] == ':') last = i + 2;
  }
  if (const size_t lt = s.find('<', last); lt != std::string::npos) s.erase(lt);
  return s;
}

Expected<std::size_t> chooseKernel(const std::vector<KernelName>& kernels, const std::string& request,
                                   const std::string& file) {
  std::vector<std::string> names;
  for (const KernelName& k : kernels) names.push_back(k.name);
  if (request.empty()) {
    if (kernels.size() == 1) return std::size_t{0};
    return makeError("the input has " + std::to_string(kernels.size()) + " kernels; choose one with --kernel (" +
                         joined(names) + ")",
                     file, 0);
  }
  const std::string wanted = withoutSpaces(request);
  std::vector<std::size_t> exact, bare;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    if (request == kernels[i].symbol || namesEqual(withoutSpaces(kernels[i].name), wanted)) exact.push_back(i);
    if (namesEqual(bareKernelName(kernels[i].name), wanted)) bare.push_back(i);
  }
  const std::vector<std::size_t>& found = exact.empty() ? bare : exact;
  if (found.size() == 1) return found.front();
  if (found.size() > 1) {
    std::vector<std::string> list;
    bool overloads = false;
    for (std::size_t i : found) {
      list.push_back(kernels[i].name);
      overloads = overloads || kernels[i].name.find('(') != std::string::npos;
    }
    if (!exact.empty()) {
      return makeError("kernel '" + request + "' names " + std::to_string(found.size()) + " kernels: " + joined(list) +
                           "; choose one with --kernel",
                       file, 0);
    }
    return makeError("kernel '" + request + "' has " + std::to_string(found.size()) +
                         (overloads ? " overloads: " : " instantiations: ") + joined(list) + "; choose one with --kernel",
                     file, 0);
  }
  // Suggest from the names and the bare names, so that a typo in either finds its kernel.
  std::vector<std::string> candidates = names;
  for (const std::string& n : names) {
    const std::string b = bareKernelName(n);
    if (std::find(candidates.begin(), candidates.end(), b) == candidates.end()) candidates.push_back(b);
  }
  return makeError("kernel '" + request + "' not found" + didYouMean(request, candidates), file, 0);
}

}  // namespace foresight
