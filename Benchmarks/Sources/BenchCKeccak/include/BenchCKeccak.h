// The reference Keccak-256 for the codec benchmarks: XKCP's generic 64-bit implementation with all 24 rounds
// unrolled (KeccakP-1600-opt64.c, CC0), vendored from swift-crypto's copy of XKCP (heads/master-0-g11297f5).
#ifndef BENCH_C_KECCAK_H
#define BENCH_C_KECCAK_H

#include <stddef.h>
#include <stdint.h>

/// Keccak-256 (original padding 0x01 … 0x80, rate 136) of `length` bytes at `data`, 32 bytes to `out`.
void bench_keccak256(const uint8_t *data, size_t length, uint8_t *out);

#endif
