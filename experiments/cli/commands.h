// Copyright 2026 The chbench Authors.
//
// The `chbench` subcommands. Each Add*Command registers a CLI11 subcommand
// on `app` with its own flags and --help; when the subcommand is selected,
// its callback runs and stores the process exit status in *exit_code:
// 0 on success, 2 on bad input (with a one-line error on stderr naming the
// bad value and the valid ones), 1 on an internal failure.

#ifndef CHBENCH_EXPERIMENTS_CLI_COMMANDS_H_
#define CHBENCH_EXPERIMENTS_CLI_COMMANDS_H_

#include "CLI/CLI.hpp"

namespace chbench {

void AddListCommand(CLI::App& app, int* exit_code);   // list_command.cc
void AddMapCommand(CLI::App& app, int* exit_code);    // map_command.cc
void AddRunCommand(CLI::App& app, int* exit_code);    // run_command.cc
void AddMergeCommand(CLI::App& app, int* exit_code);  // run_command.cc
void AddSummarizeCommand(CLI::App& app, int* exit_code);  // run_command.cc

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_CLI_COMMANDS_H_
