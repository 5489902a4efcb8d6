// Hashes of bytes (hash.c): XXH3, 64 bits, from xxHash (Debian's
// libxxhash-dev), used header-only. The snapshot's checksum and the
// world's replay hash are made of it; its value is defined over bytes, the
// same on every target (SSE2, AVX2 or none, native or WebAssembly).
#ifndef LEDGE_HASH_H
#define LEDGE_HASH_H

#include <stddef.h>
#include <stdint.h>

/// XXH3_64bits_withSeed(data, n, seed); with seed 0, XXH3_64bits(data, n).
uint64_t ledge__hash(const void *data, size_t n, uint64_t seed);

#endif // LEDGE_HASH_H
