// Keccak-256 sponge over XKCP's unrolled Keccak-f[1600] (see include/BenchCKeccak.h).
#include <string.h>
#include "BenchCKeccak.h"
#include "xkcp/KeccakP-1600-SnP.h"

void bench_keccak256(const uint8_t *data, size_t length, uint8_t *out) {
    KeccakP1600_state state;
    KeccakP1600_Initialize(&state);
    size_t absorbed = length >= 136 ? KeccakF1600_FastLoop_Absorb(&state, 17, data, length) : 0;
    size_t remaining = length - absorbed;
    KeccakP1600_AddBytes(&state, data + absorbed, 0, (unsigned int)remaining);
    KeccakP1600_AddByte(&state, 0x01, (unsigned int)remaining);
    KeccakP1600_AddByte(&state, 0x80, 135);
    KeccakP1600_Permute_24rounds(&state);
    KeccakP1600_ExtractBytes(&state, out, 0, 32);
}
