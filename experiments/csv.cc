// Copyright 2026 The chbench Authors.

#include "experiments/csv.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"

namespace chbench {

std::string FormatNumber(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == 0) return "0";  // also -0
  // Integers below 2^53 print as integers (no "1e+06").
  if (std::fabs(v) < 9007199254740992.0 && v == std::trunc(v)) {
    return std::to_string(static_cast<int64_t>(v));
  }
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, end);
}

std::string FormatOptional(const std::optional<double>& v) {
  return v.has_value() ? FormatNumber(*v) : std::string();
}

std::string FormatOptional(const std::optional<uint64_t>& v) {
  return v.has_value() ? std::to_string(*v) : std::string();
}

std::string CsvField(std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    return std::string(field);
  }
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string FormatFields(const std::vector<std::string>& fields) {
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    out += CsvField(fields[i]);
  }
  out += '\n';
  return out;
}

std::string CsvHeader() {
  std::vector<std::string> fields(kColumns.begin(), kColumns.end());
  return FormatFields(fields);
}

std::string FormatRow(const ResultRow& r) {
  return FormatFields({r.run_id, r.experiment, r.algorithm, r.hash, r.keyset,
                       FormatOptional(r.nodes), FormatOptional(r.vnodes),
                       FormatOptional(r.table_size),
                       FormatOptional(r.load_factor),
                       FormatOptional(r.capacity), FormatOptional(r.probes),
                       FormatOptional(r.keys),
                       FormatOptional(r.placed_keys), FormatOptional(r.seed),
                       FormatOptional(r.repetition), r.scenario, r.removal,
                       FormatOptional(r.removed), FormatOptional(r.threads), FormatOptional(r.node),
                       FormatOptional(r.weight), r.mode, FormatOptional(r.zipf),
                       FormatOptional(r.requests),
                       FormatOptional(r.cache_items),
                       FormatOptional(r.stale_fraction),
                       FormatOptional(r.utilization), FormatOptional(r.bucket),
                       FormatOptional(r.replicas), r.topology,
                       FormatOptional(r.batch), FormatOptional(r.step), r.metric,
                       FormatOptional(r.value), r.unit, r.note,
                       r.noisy ? "1" : "0", FormatOptional(r.n_eff)});
}

absl::StatusOr<std::vector<std::vector<std::string>>> ParseCsv(
    std::string_view text) {
  std::vector<std::vector<std::string>> records;
  if (text.empty()) return records;
  if (text.back() != '\n') {
    return absl::DataLossError("CSV text does not end with a newline");
  }
  std::vector<std::string> record;
  std::string field;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      ++i;
      for (;;) {
        if (i >= text.size()) {
          return absl::DataLossError("CSV text has an unterminated quote");
        }
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += text[i++];
      }
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
      ++i;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      ++i;
      record.push_back(std::move(field));
      field.clear();
      records.push_back(std::move(record));
      record.clear();
    } else {
      field += c;
      ++i;
    }
  }
  return records;
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

absl::Status WriteFileAtomic(const std::string& path, std::string_view data) {
  static std::atomic<uint64_t> counter{0};
  const std::string tmp =
      absl::StrCat(path, ".tmp.", getpid(), ".", counter.fetch_add(1));
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    return absl::InternalError(
        absl::StrCat("cannot create ", tmp, ": ", std::strerror(errno)));
  }
  size_t off = 0;
  while (off < data.size()) {
    const ssize_t n = ::write(fd, data.data() + off, data.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return absl::InternalError(
          absl::StrCat("cannot write ", tmp, ": ", std::strerror(err)));
    }
    off += static_cast<size_t>(n);
  }
  if (::close(fd) != 0 || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return absl::InternalError(absl::StrCat("cannot rename ", tmp, " to ",
                                            path, ": ", std::strerror(err)));
  }
  return absl::OkStatus();
}

}  // namespace chbench
