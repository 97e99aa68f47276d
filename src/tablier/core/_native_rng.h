/* The random numbers of the compiled cores' playouts: xoshiro256** seeded by splitmix64.
 *
 * Shared by every game's _native.c (included; each module gets its own static copy).  A
 * playout is deterministic for its 64-bit seed; the streams are not Python's Mersenne
 * Twister, so a compiled playout draws other moves than the pure one with the same seed
 * (docs/performance.md).
 */
#ifndef TABLIER_NATIVE_RNG_H
#define TABLIER_NATIVE_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} Rng;

static inline uint64_t rng_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline void rng_seed(Rng *r, uint64_t seed) {
    for (int i = 0; i < 4; i++) r->s[i] = rng_splitmix64(&seed);
}

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(Rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n) for 0 < n < 2**32, unbiased (Lemire's multiply and reject). */
static inline uint32_t rng_below(Rng *r, uint32_t n) {
    uint64_t m = (uint64_t)(uint32_t)rng_next(r) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)rng_next(r) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double rng_unit(Rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

#endif
