// SPDX-License-Identifier: Apache-2.0
/// \file
/// The command table of the CLI: each subcommand is a `Command` defined in commands/<name>.cpp.
/// `--help` is generated from the table.
#pragma once

#include <functional>
#include <span>

namespace CLI {
class App;
}

namespace foresight::cli {

/// Exit statuses: 0 success, 1 bad input or failed prediction, 2 bad command line, 70 a defect.
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;
inline constexpr int kExitUsage = 2;
/// A defect or memory exhaustion: an exception reached main (never for bad input).
inline constexpr int kExitInternal = 70;

/// One subcommand.
struct Command {
  const char* name;
  const char* summary;
  /// Adds the command's options to `sub`; returns the function that runs it after parsing.
  std::function<int()> (*setup)(CLI::App& sub);
};

/// All subcommands, in help order.
[[nodiscard]] std::span<const Command> commands();

}  // namespace foresight::cli
