// Copyright 2026 The chbench Authors.

#include "experiments/paths.h"

#include <filesystem>
#include <system_error>

#include "experiments/build_facts.h"

namespace chbench {

std::string SourceDir() { return ThisBuild().source_dir; }

std::string DefaultResultsDir() {
  std::error_code ec;
  if (std::filesystem::is_directory(SourceDir(), ec)) {
    return SourceDir() + "/results";
  }
  return "results";
}

std::string DefaultSpecDir() {
  return SourceDir() + "/experiments";
}

}  // namespace chbench
