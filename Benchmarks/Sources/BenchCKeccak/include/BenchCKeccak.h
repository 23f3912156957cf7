// The reference Keccak-256 for the codec benchmarks: the project's own C transcription of FIPS 202's Keccak-f[1600]
// (25 lanes in locals, every step of a round written out, the 24 rounds in a loop of constant bound), compiled with
// the C compiler's optimiser. No third-party code: it is what "the same algorithm in plain C" costs on this machine.
#ifndef BENCH_C_KECCAK_H
#define BENCH_C_KECCAK_H

#include <stddef.h>
#include <stdint.h>

/// Keccak-256 (original padding 0x01 … 0x80, rate 136) of `length` bytes at `data`, 32 bytes to `out`.
void bench_keccak256(const uint8_t *data, size_t length, uint8_t *out);

#endif
