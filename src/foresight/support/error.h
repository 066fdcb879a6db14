// SPDX-License-Identifier: Apache-2.0
/// \file
/// The one error type of the library, and `Expected<T>`, the value-or-error every fallible
/// library function returns. The library never prints or exits; the CLI turns an Error into one
/// message on stderr and a non-zero exit status.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace foresight {

/// A diagnosable failure: what went wrong, and where in which input file when that is known.
struct Error {
  std::string message;  ///< One sentence, no trailing newline; may end with "; did you mean 'x'?".
  std::string file;     ///< Input file the error is about; empty when none applies.
  int line = 0;         ///< 1-based line in `file`; 0 when unknown.
  int column = 0;       ///< 1-based column in `file`; 0 when unknown.

  /// "file:line:col: error: message", omitting the location parts that are unknown (a line
  /// without a file is not printed).
  [[nodiscard]] std::string format() const;
};

/// Builds an Error without a location.
[[nodiscard]] Error makeError(std::string message);
/// Builds an Error located at file:line[:column].
[[nodiscard]] Error makeError(std::string message, std::string file, int line, int column = 0);

/// Either a value of type T or an Error. Modelled on std::expected (C++23), kept minimal.
template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Expected(Error error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  /// True when a value is held.
  [[nodiscard]] bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  /// The value; must only be called when ok().
  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  /// The error; must only be called when !ok().
  [[nodiscard]] const Error& error() const { return std::get<1>(state_); }
  [[nodiscard]] Error takeError() && { return std::get<1>(std::move(state_)); }

 private:
  std::variant<T, Error> state_;
};

/// Expected<void>: success or an Error.
template <>
class [[nodiscard]] Expected<void> {
 public:
  Expected() = default;
  Expected(Error error) : error_(std::move(error)) {}  // NOLINT: implicit by design
  [[nodiscard]] bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  [[nodiscard]] const Error& error() const { return *error_; }
  [[nodiscard]] Error takeError() && { return std::move(*error_); }

 private:
  std::optional<Error> error_;
};

}  // namespace foresight
