// Hashes of bytes (hash.h): xxHash's XXH3 through its header alone.
// XXH_INLINE_ALL makes every xxHash function static to this file, so the
// library links nothing more (the static archive and the single-file build
// need only xxhash.h), exports no XXH_ symbol, and the compiler picks
// xxHash's vector code for the target it builds for; XXH3's value does not
// depend on that choice.
#include "hash.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

uint64_t ledge__hash(const void *data, size_t n, uint64_t seed) {
    return (uint64_t)XXH3_64bits_withSeed(data, n, (XXH64_hash_t)seed);
}
