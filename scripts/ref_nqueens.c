/* Reference counter for scripts/bench.py: a plain C bitmask backtracker with
 * the left-right mirror, the same search as parqueens' `--method mirror`
 * (row-0 queen in the left half, weight 2; odd n: middle column with the
 * row-1 queen in the left half).  Single-threaded.
 * Build: gcc -O3 -march=native -o ref_nqueens scripts/ref_nqueens.c
 * Usage: ref_nqueens N   -> prints the total on stdout.                    */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

static uint64_t full;

static uint64_t solve(uint64_t cols, uint64_t ld, uint64_t rd) {
    if (cols == full) return 1;
    uint64_t count = 0;
    uint64_t free = full & ~(cols | ld | rd);
    while (free) {
        uint64_t bit = free & -free;
        free ^= bit;
        count += solve(cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
    return count;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: ref_nqueens N\n"); return 2; }
    int n = atoi(argv[1]);
    if (n < 1 || n > 63) { fprintf(stderr, "N must be 1..63\n"); return 2; }
    full = (1ULL << n) - 1;
    if (n == 1) { printf("1\n"); return 0; }
    uint64_t total = 0;
    for (int c = 0; c < n / 2; c++) {
        uint64_t bit = 1ULL << c;
        total += 2 * solve(bit, bit << 1, bit >> 1);
    }
    if (n % 2) {
        uint64_t bit = 1ULL << (n / 2);
        for (int c = 0; c < n / 2; c++) {
            uint64_t b1 = 1ULL << c;
            if (b1 & (bit | bit << 1 | bit >> 1)) continue;
            total += 2 * solve(bit | b1, ((bit << 1) | b1) << 1, ((bit >> 1) | b1) >> 1);
        }
    }
    printf("%llu\n", (unsigned long long)total);
    return 0;
}
