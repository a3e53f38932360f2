// Copyright 2026 The chbench Authors.

#include "experiments/paths.h"

#include <filesystem>
#include <system_error>

namespace chbench {

std::string SourceDir() { return CHBENCH_SOURCE_DIR; }

std::string DefaultResultsDir() {
  std::error_code ec;
  if (std::filesystem::is_directory(CHBENCH_SOURCE_DIR, ec)) {
    return std::string(CHBENCH_SOURCE_DIR) + "/results";
  }
  return "results";
}

std::string DefaultSpecDir() {
  return std::string(CHBENCH_SOURCE_DIR) + "/experiments";
}

}  // namespace chbench
