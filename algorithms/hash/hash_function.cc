// Copyright 2026 The chbench Authors.
//
// Out-of-line hash policies (see hash_function.h). Only MD5 lives here: its
// OpenSSL headers and deprecation switches stay out of every other unit.

#include "algorithms/hash/hash_function.h"
#include "algorithms/hash/preset_hashes.h"

#include <cstddef>
#include <cstdint>

// MD5_Init/Update/Final are deprecated in OpenSSL 3.0 in favour of EVP, but
// EVP_Digest allocates a context per call and dispatches through a provider;
// the low-level functions run on a stack context with no allocation, which the
// lookup path requires. They remain in OpenSSL 3.x.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/md5.h>

namespace chbench {

std::array<unsigned char, 16> Md5Digest(const void* data, size_t len,
                                        uint64_t seed) {
  MD5_CTX ctx;
  MD5_Init(&ctx);
  if (seed != 0) {
    unsigned char prefix[8];
    for (int i = 0; i < 8; ++i) {
      prefix[i] = static_cast<unsigned char>(seed >> (8 * i));
    }
    MD5_Update(&ctx, prefix, sizeof(prefix));
  }
  if (len > 0) MD5_Update(&ctx, data, len);
  std::array<unsigned char, 16> digest;
  MD5_Final(digest.data(), &ctx);
  return digest;
}

uint64_t Md5::Hash(const void* data, size_t len, uint64_t seed) {
  const std::array<unsigned char, 16> digest = Md5Digest(data, len, seed);
  uint64_t h = 0;
  for (int i = 0; i < 8; ++i) h = (h << 8) | digest[i];
  return h;
}

}  // namespace chbench
