/* CPU checks that pick the SIMD kernels of ckn.minhash and ckn._dedup at import (x86-64
   with GCC or Clang; 0 elsewhere). Internal: not part of the C API. */
#ifndef CKN_MINHASH_CPU_H
#define CKN_MINHASH_CPU_H
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
static int ckn_mh_have_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}
static int ckn_mh_have_avx512(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") ? 1 : 0;
}
static int ckn_mh_have_avx512bw(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512bw") ? 1 : 0;
}
/* AMD's AVX-512 cores (Zen 4, Zen 5) run vpmullq as one operation, Intel's as three on
   one port: the fixed-point kernel is chosen on AMD, the fold kernel elsewhere. */
static int ckn_mh_is_amd(void) {
    __builtin_cpu_init();
    return __builtin_cpu_is("amd") ? 1 : 0;
}
#else
static int ckn_mh_have_avx2(void) { return 0; }
static int ckn_mh_is_amd(void) { return 0; }
static int ckn_mh_have_avx512(void) { return 0; }
static int ckn_mh_have_avx512bw(void) { return 0; }
#endif
#endif /* CKN_MINHASH_CPU_H */
