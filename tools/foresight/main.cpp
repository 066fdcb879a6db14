// SPDX-License-Identifier: Apache-2.0
/// \file
/// The foresight CLI: parse the command line, run the chosen subcommand, return its status.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <new>

#include "command.h"
#include "foresight/support/heap.h"

int main(int argc, char** argv) {
  foresight::tuneHeapForAnalysis();
  using namespace foresight::cli;
  CLI::App app{"Foresight: predict, explain and improve GPU kernel performance without a GPU"};
  app.set_version_flag("--version", "foresight 0.1.0");
  app.require_subcommand(1);
  std::function<int()> run;
  for (const Command& command : commands()) {
    CLI::App* sub = app.add_subcommand(command.name, command.summary);
    std::function<int()> runner = command.setup(*sub);
    sub->final_callback([&run, runner] { run = runner; });
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e);
    return status == 0 ? kExitOk : kExitUsage;
  }
  if (!run) return kExitUsage;
  // The library reports every input problem as an Error; an exception reaching here is a defect
  // (or memory exhaustion), answered with one line and a distinct status instead of an abort.
  try {
    return run();
  } catch (const std::bad_alloc&) {
    std::fputs("foresight: error: out of memory (the input asks for more than this machine has)\n", stderr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "foresight: internal error: %s (please report this input)\n", e.what());
  }
  return kExitInternal;
}
