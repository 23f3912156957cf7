// Keccak-256 in plain C, written for this benchmark from FIPS 202 (sections 3.2 and 3.3): the state's 25 lanes live
// in local variables through the whole absorb, each round's theta, rho-pi, chi and iota written out lane by lane.
#include <string.h>
#include "BenchCKeccak.h"

#define ROL(a, n) (((a) << (n)) | ((a) >> (64 - (n))))

static const uint64_t round_constants[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL, 0x8000000080008000ULL,
    0x000000000000808BULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008AULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL,
    0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800AULL, 0x800000008000000AULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

static inline uint64_t load64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);  // little-endian hosts only (x86-64, arm64), as the benchmark machines are
    return v;
}

// Lane (x, y) is a[x + 5y]; rho offsets per lane and pi's move (x, y) -> (y, 2x + 3y) written out below.
static void permute(uint64_t s[25]) {
    uint64_t a00 = s[0], a01 = s[1], a02 = s[2], a03 = s[3], a04 = s[4];
    uint64_t a05 = s[5], a06 = s[6], a07 = s[7], a08 = s[8], a09 = s[9];
    uint64_t a10 = s[10], a11 = s[11], a12 = s[12], a13 = s[13], a14 = s[14];
    uint64_t a15 = s[15], a16 = s[16], a17 = s[17], a18 = s[18], a19 = s[19];
    uint64_t a20 = s[20], a21 = s[21], a22 = s[22], a23 = s[23], a24 = s[24];
    for (int round = 0; round < 24; round++) {
        // theta
        uint64_t c0 = a00 ^ a05 ^ a10 ^ a15 ^ a20, c1 = a01 ^ a06 ^ a11 ^ a16 ^ a21;
        uint64_t c2 = a02 ^ a07 ^ a12 ^ a17 ^ a22, c3 = a03 ^ a08 ^ a13 ^ a18 ^ a23;
        uint64_t c4 = a04 ^ a09 ^ a14 ^ a19 ^ a24;
        uint64_t d0 = c4 ^ ROL(c1, 1), d1 = c0 ^ ROL(c2, 1), d2 = c1 ^ ROL(c3, 1);
        uint64_t d3 = c2 ^ ROL(c4, 1), d4 = c3 ^ ROL(c0, 1);
        a00 ^= d0; a05 ^= d0; a10 ^= d0; a15 ^= d0; a20 ^= d0;
        a01 ^= d1; a06 ^= d1; a11 ^= d1; a16 ^= d1; a21 ^= d1;
        a02 ^= d2; a07 ^= d2; a12 ^= d2; a17 ^= d2; a22 ^= d2;
        a03 ^= d3; a08 ^= d3; a13 ^= d3; a18 ^= d3; a23 ^= d3;
        a04 ^= d4; a09 ^= d4; a14 ^= d4; a19 ^= d4; a24 ^= d4;
        // rho and pi: b[y + 5((2x + 3y) mod 5)] = rot(a[x + 5y], r[x][y])
        uint64_t b00 = a00;
        uint64_t b10 = ROL(a01, 1), b20 = ROL(a02, 62), b05 = ROL(a03, 28), b15 = ROL(a04, 27);
        uint64_t b16 = ROL(a05, 36), b01 = ROL(a06, 44), b11 = ROL(a07, 6), b21 = ROL(a08, 55), b06 = ROL(a09, 20);
        uint64_t b07 = ROL(a10, 3), b17 = ROL(a11, 10), b02 = ROL(a12, 43), b12 = ROL(a13, 25), b22 = ROL(a14, 39);
        uint64_t b23 = ROL(a15, 41), b08 = ROL(a16, 45), b18 = ROL(a17, 15), b03 = ROL(a18, 21), b13 = ROL(a19, 8);
        uint64_t b14 = ROL(a20, 18), b24 = ROL(a21, 2), b09 = ROL(a22, 61), b19 = ROL(a23, 56), b04 = ROL(a24, 14);
        // chi, row by row, and iota
        a00 = b00 ^ (~b01 & b02); a01 = b01 ^ (~b02 & b03); a02 = b02 ^ (~b03 & b04);
        a03 = b03 ^ (~b04 & b00); a04 = b04 ^ (~b00 & b01);
        a05 = b05 ^ (~b06 & b07); a06 = b06 ^ (~b07 & b08); a07 = b07 ^ (~b08 & b09);
        a08 = b08 ^ (~b09 & b05); a09 = b09 ^ (~b05 & b06);
        a10 = b10 ^ (~b11 & b12); a11 = b11 ^ (~b12 & b13); a12 = b12 ^ (~b13 & b14);
        a13 = b13 ^ (~b14 & b10); a14 = b14 ^ (~b10 & b11);
        a15 = b15 ^ (~b16 & b17); a16 = b16 ^ (~b17 & b18); a17 = b17 ^ (~b18 & b19);
        a18 = b18 ^ (~b19 & b15); a19 = b19 ^ (~b15 & b16);
        a20 = b20 ^ (~b21 & b22); a21 = b21 ^ (~b22 & b23); a22 = b22 ^ (~b23 & b24);
        a23 = b23 ^ (~b24 & b20); a24 = b24 ^ (~b20 & b21);
        a00 ^= round_constants[round];
    }
    s[0] = a00; s[1] = a01; s[2] = a02; s[3] = a03; s[4] = a04;
    s[5] = a05; s[6] = a06; s[7] = a07; s[8] = a08; s[9] = a09;
    s[10] = a10; s[11] = a11; s[12] = a12; s[13] = a13; s[14] = a14;
    s[15] = a15; s[16] = a16; s[17] = a17; s[18] = a18; s[19] = a19;
    s[20] = a20; s[21] = a21; s[22] = a22; s[23] = a23; s[24] = a24;
}

void bench_keccak256(const uint8_t *data, size_t length, uint8_t *out) {
    uint64_t state[25] = {0};
    while (length >= 136) {
        for (int i = 0; i < 17; i++) state[i] ^= load64(data + 8 * i);
        permute(state);
        data += 136;
        length -= 136;
    }
    uint8_t block[136] = {0};
    memcpy(block, data, length);
    block[length] ^= 0x01;
    block[135] ^= 0x80;
    for (int i = 0; i < 17; i++) state[i] ^= load64(block + 8 * i);
    permute(state);
    memcpy(out, state, 32);
}
