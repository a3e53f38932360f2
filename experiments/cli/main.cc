// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: cli/main.cc
// -----------------------------------------------------------------------------
//
// `chbench`: the user's door to the suite.
//
//   chbench list                      algorithms, hash functions, key sets
//   chbench map --algorithm ring ...  key -> owner for keys on stdin
//   chbench run ...                   run experiments (experiments/*.toml)
//
// Exit status: 0 on success (also for --help and --version), 2 on a usage
// error (one line on stderr naming the bad value and the valid ones), 1 on an
// internal failure (e.g. a write error on stdout, out of memory). No usage
// error aborts or dumps core: every CLI11 error is caught here and every
// subcommand reports through its exit code.

#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "CLI/CLI.hpp"
#include "algorithms/rendezvous/rendezvous.h"
#include "experiments/build_facts.h"
#include "experiments/cli/commands.h"

namespace {

// Build information for --version. The binary carries no git revision (the
// run metadata records it at run time); what it knows is how it was compiled.
std::string VersionText() {
  std::string text = "chbench 0.1.0\n";
  text += "build type: ";
  text += chbench::ThisBuild().build_type;
  text += "\n";
#if defined(__clang__)
  text += "compiler: clang " __clang_version__ "\n";
#elif defined(__GNUC__)
  text += "compiler: g++ " __VERSION__ "\n";
#endif
  text += "flags: ";
  text += chbench::ThisBuild().cxx_flags;
  text += "\n";
  text += "run-time dispatch: rendezvous (xxh64) ";
  text += chbench::RendezvousKernelName(
      chbench::Rendezvous<chbench::Xxh64>::BestKernel());
  text += "\n";
  text += "built: " __DATE__ " " __TIME__;
  return text;
}

// The chain of selected subcommands, e.g. "chbench map", for error prefixes.
std::string CommandPath(const CLI::App& app) {
  std::string path = app.get_name();
  const CLI::App* current = &app;
  while (true) {
    const std::vector<const CLI::App*> subs =
        current->get_subcommands([](const CLI::App*) { return true; });
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : subs) {
      if (sub->parsed()) {
        next = sub;
        break;
      }
    }
    if (next == nullptr) return path;
    path += " " + next->get_name();
    current = next;
  }
}

// Collapses a possibly multi-line CLI11 message to one line.
std::string OneLine(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
    text.pop_back();
  }
  for (char& c : text) {
    if (c == '\n') c = ' ';
  }
  return text;
}

int Run(int argc, char** argv) {
  CLI::App app(
      "chbench: a research suite comparing consistent-hashing algorithms "
      "(ring, rendezvous, jump, maglev, bounded-load, modulo).",
      "chbench");
  // At most one subcommand; "none" is reported below rather than by CLI11,
  // so that an unknown word ("chbench frob") is named in the error.
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", VersionText(),
                       "Print build information and exit");
  app.footer(
      "Exit status: 0 success, 2 usage error, 1 internal failure.\n"
      "Run 'chbench <subcommand> --help' for the options of each "
      "subcommand.");

  int exit_code = 0;
  chbench::AddListCommand(app, &exit_code);
  chbench::AddMapCommand(app, &exit_code);
  chbench::AddRunCommand(app, &exit_code);
  chbench::AddMergeCommand(app, &exit_code);
  chbench::AddSummarizeCommand(app, &exit_code);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      // --help, --help-all, --version: CLI11 prints the text to stdout.
      return app.exit(e);
    }
    const std::string path = CommandPath(app);
    std::cerr << path << ": " << OneLine(e.what()) << " (see '" << path
              << " --help')" << std::endl;
    return 2;
  }
  if (app.get_subcommands().empty()) {
    std::string names;
    for (const CLI::App* sub :
         app.get_subcommands([](const CLI::App*) { return true; })) {
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    std::cerr << "chbench: a subcommand is required: " << names
              << " (see 'chbench --help')" << std::endl;
    return 2;
  }
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return Run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs("chbench: out of memory\n", stderr);
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "chbench: internal error: %s\n", e.what());
    return 1;
  }
}
