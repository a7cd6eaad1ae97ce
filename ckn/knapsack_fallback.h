/* Exact 0/1 knapsack methods whose memory does not grow with the budget, and the exact wide
 * arithmetic they share with the reduction (included by knapsack.pyx; see docs/algorithms.md).
 *
 * - ckn_kp_value_select: dynamic programme over values, H_k(s) = least weight of a subset of
 *   items k..m-1 worth at least s, O(m * S) time for S = the items' value sum, one row of
 *   S + 1 cells and an m x (S + 1) keep-bitset.
 * - ckn_kp_bb_select: depth-first branch and bound in efficiency order with the Dantzig (LP)
 *   bound, then the tie-rule walk by feasibility queries; O(m) scratch, stops after a node
 *   allowance (it then reports that it gave up; it never returns a different answer).
 *
 * Both return the SPEC 8 choice: most value, then fewest weight, then the lexicographically
 * greatest indicator vector in index order. Items are elig[0..m) (ascending indices); weights
 * and values are int64 >= 0 with the values' sum <= INT64_MAX. No allocation, no Python.
 */
#ifndef CKN_KNAPSACK_FALLBACK_H
#define CKN_KNAPSACK_FALLBACK_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ exact wide arithmetic
 * With the compiler's unsigned __int128 where it has one; otherwise (or with CKN_KP_PORTABLE
 * defined, as tests/test_knapsack.py compiles it) 32-bit halves and a bitwise long division. */

typedef struct { uint64_t lo, hi; } ckn_kp_u128;

static inline ckn_kp_u128 ckn_kp_mul(uint64_t a, uint64_t b) {
    ckn_kp_u128 r;
#if defined(__SIZEOF_INT128__) && !defined(CKN_KP_PORTABLE)
    unsigned __int128 p = (unsigned __int128)a * b;
    r.lo = (uint64_t)p;
    r.hi = (uint64_t)(p >> 64);
#else
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    r.lo = (mid << 32) | (p00 & 0xffffffffu);
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
    return r;
}

/* -1, 0 or 1 as x <, =, > y */
static inline int ckn_kp_cmp128(ckn_kp_u128 x, ckn_kp_u128 y) {
    if (x.hi != y.hi) return x.hi < y.hi ? -1 : 1;
    if (x.lo != y.lo) return x.lo < y.lo ? -1 : 1;
    return 0;
}

/* Sign of a * b - c * d, exactly. */
static inline int ckn_kp_cmp_products(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
    if ((a | b | c | d) >> 32 == 0) {   /* the common case: both products fit in 64 bits */
        uint64_t x = a * b, y = c * d;
        return x < y ? -1 : x > y;
    }
    return ckn_kp_cmp128(ckn_kp_mul(a, b), ckn_kp_mul(c, d));
}

static inline ckn_kp_u128 ckn_kp_add64(ckn_kp_u128 x, uint64_t y) {
    x.lo += y;
    x.hi += x.lo < y;
    return x;
}

/* floor(a * b / c) for a < c (the quotient is then below b); *rem receives the remainder. */
static inline uint64_t ckn_kp_muldiv_rem(uint64_t a, uint64_t b, uint64_t c, uint64_t* rem) {
    if ((a | b) >> 32 == 0) {           /* the common case: the product fits in 64 bits */
        uint64_t p = a * b;
        *rem = p % c;
        return p / c;
    }
#if defined(__SIZEOF_INT128__) && !defined(CKN_KP_PORTABLE)
    unsigned __int128 p = (unsigned __int128)a * b;
    uint64_t q = (uint64_t)(p / c);
    *rem = (uint64_t)(p - (unsigned __int128)q * c);
    return q;
#else
    ckn_kp_u128 p = ckn_kp_mul(a, b);
    uint64_t q = 0, r = p.hi;   /* r < c because a * b < c * 2^64 */
    int i;
    for (i = 63; i >= 0; --i) {
        uint64_t carry = r >> 63;
        r = (r << 1) | ((p.lo >> i) & 1);
        q <<= 1;
        if (carry || r >= c) {
            r -= c;
            q |= 1;
        }
    }
    *rem = r;
    return q;
#endif
}

static inline uint64_t ckn_kp_muldiv(uint64_t a, uint64_t b, uint64_t c) {
    uint64_t rem;
    return ckn_kp_muldiv_rem(a, b, c, &rem);
}

/* Saturating a + b for unsigned 64-bit sums. */
static inline uint64_t ckn_kp_sat_add(uint64_t a, uint64_t b) {
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

/* Item i (position in elig) strictly before item j: higher efficiency v/w, then heavier, then
 * lower position (so that items of equal weight and value are adjacent). */
static inline int ckn_kp_before(const int64_t* w, const int64_t* v, const ptrdiff_t* elig,
                                ptrdiff_t i, ptrdiff_t j) {
    int s = ckn_kp_cmp_products((uint64_t)v[elig[i]], (uint64_t)w[elig[j]],
                                (uint64_t)v[elig[j]], (uint64_t)w[elig[i]]);
    if (s != 0) return s > 0;
    if (w[elig[i]] != w[elig[j]]) return w[elig[i]] > w[elig[j]];
    return i < j;
}

/* Bottom-up merge sort of a[0..p) (positions in elig), most efficient first; tmp: p entries. */
static void ckn_kp_sort_positions(const int64_t* w, const int64_t* v, const ptrdiff_t* elig,
                                  ptrdiff_t* a, ptrdiff_t* tmp, ptrdiff_t p) {
    ptrdiff_t width, lo, mid, hi, i, j, k;
    ptrdiff_t* src = a;
    ptrdiff_t* dst = tmp;
    ptrdiff_t* t;
    for (width = 1; width < p; width *= 2) {
        for (lo = 0; lo < p; lo = hi) {
            mid = lo + width < p ? lo + width : p;
            hi = lo + 2 * width < p ? lo + 2 * width : p;
            i = lo;
            j = mid;
            k = lo;
            while (i < mid && j < hi)
                dst[k++] = ckn_kp_before(w, v, elig, src[j], src[i]) ? src[j++] : src[i++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        t = src;
        src = dst;
        dst = t;
    }
    if (src != a) memcpy(a, src, (size_t)p * sizeof(ptrdiff_t));
}

/* ------------------------------------------------------------------ DP over values */

/* Bytes of ckn_kp_value_select's area for m items of value sum S (SIZE_MAX if it overflows). */
static size_t ckn_kp_value_bytes(ptrdiff_t m, uint64_t S) {
    uint64_t cells = S + 1, words = (cells + 63) / 64;
    if (S >= (uint64_t)1 << 58 || (m > 0 && words > (SIZE_MAX / 8 - cells) / (uint64_t)m))
        return SIZE_MAX;
    return (size_t)(8 * cells + 8 * words * (uint64_t)m);
}

/* The SPEC 8 choice among elig[0..m) within capacity cap by a DP over values (S = the items'
 * value sum). H_k(s) = least weight (<= cap, else "infinite") of a subset of items k..m-1 worth
 * at least s: H_k(s) = min(H_k+1(s), w_k + H_k+1(max(0, s - v_k))), one row updated in place
 * from the top, keep bit of (k, s) set when taking item k attains the minimum (ties take).
 * V* = the largest s with a finite H_0(s); walking items first to last from s = V* and taking
 * item k whenever its keep bit is set gives the same subset as the weight DP's walk: at every
 * step H_k(s) equals the capacity left, so "taking attains the minimum" is "some optimal,
 * fewest-weight completion takes k". area: ckn_kp_value_bytes(m, S) bytes, 8-byte aligned. */
static void ckn_kp_value_select(const int64_t* w, const int64_t* v, const ptrdiff_t* elig,
                                ptrdiff_t m, uint64_t cap, uint64_t S, void* area,
                                uint8_t* selected) {
    const uint64_t inf = UINT64_MAX;
    uint64_t cells = S + 1, words = (cells + 63) / 64, s, src, h, wk, vk, t;
    uint64_t* row = (uint64_t*)area;
    uint64_t* bits = row + cells;
    uint64_t* keep;
    ptrdiff_t k;
    row[0] = 0;
    for (s = 1; s < cells; ++s) row[s] = inf;
    for (k = m - 1; k >= 0; --k) {
        wk = (uint64_t)w[elig[k]];
        vk = (uint64_t)v[elig[k]];
        keep = bits + (uint64_t)k * words;
        memset(keep, 0, (size_t)words * 8);
        s = cells;
        while (s-- > 0) {
            src = s > vk ? s - vk : 0;
            h = row[src];
            if (h != inf && wk <= cap - h) {
                t = h + wk;
                if (t <= row[s]) {
                    row[s] = t;
                    keep[s >> 6] |= (uint64_t)1 << (s & 63);
                }
            }
        }
    }
    s = S;
    while (row[s] == inf) --s;  /* row[0] = 0 */
    for (k = 0; k < m; ++k) {
        keep = bits + (uint64_t)k * words;
        if ((keep[s >> 6] >> (s & 63)) & 1) {
            selected[elig[k]] = 1;
            vk = (uint64_t)v[elig[k]];
            s = s > vk ? s - vk : 0;
        }
    }
}

/* ------------------------------------------------------------------ branch and bound */

/* Bytes of ckn_kp_bb_select's scratch for m items. */
static size_t ckn_kp_bb_bytes(ptrdiff_t m) {
    uint64_t k = (uint64_t)m;
    if (k > SIZE_MAX / 64) return SIZE_MAX;
    return (size_t)(16 * (k + 1) + 8 * (k + 1) + 2 * sizeof(ptrdiff_t) * k + 3 * k);
}

/* Nodes ckn_kp_bb_select may visit in all before it gives up. */
#define CKN_KP_BB_NODES ((int64_t)1 << 26)

typedef struct {
    const int64_t* w;
    const int64_t* v;
    const ptrdiff_t* elig;
    ptrdiff_t* sub;     /* positions (into elig) of the searched items, most efficient first */
    ptrdiff_t p;        /* how many */
    ckn_kp_u128* W;     /* W[j], V[j]: weight and value sums of sub[0..j) */
    int64_t* V;
    uint8_t* x;         /* x[j]: the current path takes sub[j] */
    int64_t nodes;      /* nodes left */
} ckn_kp_bb;

#define CKN_KP_BB_W(s, j) ((uint64_t)(s)->w[(s)->elig[(s)->sub[j]]])
#define CKN_KP_BB_V(s, j) ((s)->v[(s)->elig[(s)->sub[j]]])

static void ckn_kp_bb_prefix(ckn_kp_bb* s) {
    ptrdiff_t j;
    s->W[0].lo = s->W[0].hi = 0;
    s->V[0] = 0;
    for (j = 0; j < s->p; ++j) {
        s->W[j + 1] = ckn_kp_add64(s->W[j], CKN_KP_BB_W(s, j));
        s->V[j + 1] = s->V[j] + CKN_KP_BB_V(s, j);
    }
}

/* The greedy completion from position j with capacity rem: sub[j..k) fit whole (returned k,
 * their sums in *gw, *gv) and *ub = *gv + floor((rem - *gw) * v_k / w_k), the LP bound. */
static ptrdiff_t ckn_kp_bb_bound(const ckn_kp_bb* s, ptrdiff_t j, uint64_t rem, uint64_t* gw,
                                 int64_t* gv, int64_t* ub) {
    ckn_kp_u128 lim = ckn_kp_add64(s->W[j], rem);
    ptrdiff_t lo = j, hi = s->p, mid;
    while (lo < hi) {               /* largest k in [j, p] with W[k] <= W[j] + rem */
        mid = hi - (hi - lo) / 2;
        if (ckn_kp_cmp128(s->W[mid], lim) <= 0) lo = mid;
        else hi = mid - 1;
    }
    *gw = s->W[lo].lo - s->W[j].lo;  /* exact: the difference is <= rem < 2^64 */
    *gv = s->V[lo] - s->V[j];
    *ub = *gv;
    if (lo < s->p)
        *ub += (int64_t)ckn_kp_muldiv(rem - *gw, (uint64_t)CKN_KP_BB_V(s, lo), CKN_KP_BB_W(s, lo));
    return lo;
}

/* Least weight (rounded up, saturating) of a fractional selection from sub[j..p) worth `need`
 * (> 0): a lower bound on the weight of any subset of them worth at least need; UINT64_MAX if
 * they are not worth need in all. */
static uint64_t ckn_kp_bb_min_weight(const ckn_kp_bb* s, ptrdiff_t j, int64_t need) {
    ptrdiff_t lo = j, hi = s->p, mid;
    uint64_t base, frac, rem;
    int64_t got;
    while (lo < hi) {               /* largest k with V[k] - V[j] <= need */
        mid = hi - (hi - lo) / 2;
        if (s->V[mid] - s->V[j] <= need) lo = mid;
        else hi = mid - 1;
    }
    got = s->V[lo] - s->V[j];
    if (s->W[lo].hi != s->W[j].hi + (s->W[lo].lo < s->W[j].lo)) return UINT64_MAX;
    base = s->W[lo].lo - s->W[j].lo;
    if (got == need) return base;
    if (lo == s->p) return UINT64_MAX;
    frac = ckn_kp_muldiv_rem((uint64_t)(need - got), CKN_KP_BB_W(s, lo),
                             (uint64_t)CKN_KP_BB_V(s, lo), &rem);
    return ckn_kp_sat_add(base, frac + (rem != 0));
}

/* Depth-first search over sub[0..p) (most efficient first) with capacity cap. need > 0: stop at the first subset
 * worth at least need (returns 1 with it in x, else 0). need < 0: find the most valuable
 * subset, then the lightest of those, into *bv, *bw and best. -1: the node allowance ran out. */
static int ckn_kp_bb_search(ckn_kp_bb* s, uint64_t cap, int64_t need, int64_t* bv,
                            uint64_t* bw, uint8_t* best) {
    ptrdiff_t j = 0, k, i;
    uint64_t cw = 0, gw, lw;
    int64_t cv = 0, gv, ub;
    int prune;
    for (;;) {
        if (s->nodes-- <= 0) return -1;
        k = ckn_kp_bb_bound(s, j, cap - cw, &gw, &gv, &ub);
        /* the greedy completion sub[j..k) is feasible */
        if (need >= 0) {
            if (cv + gv >= need) {
                memset(s->x + j, 0, (size_t)(s->p - j));
                for (i = j; i < k; ++i) s->x[i] = 1;
                return 1;
            }
            prune = cv + ub < need;
        } else {
            if (cv + gv > *bv || (cv + gv == *bv && cw + gw < *bw)) {
                *bv = cv + gv;
                *bw = cw + gw;
                memcpy(best, s->x, (size_t)j);
                memset(best + j, 0, (size_t)(s->p - j));
                for (i = j; i < k; ++i) best[i] = 1;
            }
            prune = cv + ub < *bv;
            if (!prune && cv + ub == *bv) {
                /* no more value below: only a lighter subset of value *bv would be better */
                lw = *bv > cv ? ckn_kp_bb_min_weight(s, j, *bv - cv) : 0;
                prune = cw >= *bw || lw >= *bw - cw;
            }
        }
        if (!prune && j < s->p) {
            /* Equal items (same weight and value) are adjacent: only a first run of them is
             * ever taken (another subset of them has the same sums), so one left out leaves
             * out those after it. */
            s->x[j] = CKN_KP_BB_W(s, j) <= cap - cw
                      && !(j > 0 && !s->x[j - 1] && CKN_KP_BB_W(s, j) == CKN_KP_BB_W(s, j - 1)
                           && CKN_KP_BB_V(s, j) == CKN_KP_BB_V(s, j - 1));
            if (s->x[j]) {
                cw += CKN_KP_BB_W(s, j);
                cv += CKN_KP_BB_V(s, j);
            }
            ++j;
            continue;
        }
        /* backtrack to the deepest taken item and try leaving it out */
        while (j > 0 && !s->x[j - 1]) --j;
        if (j == 0) return need >= 0 ? 0 : 1;
        --j;
        s->x[j] = 0;
        cw -= CKN_KP_BB_W(s, j);
        cv -= CKN_KP_BB_V(s, j);
        ++j;
    }
}

/* The SPEC 8 choice among elig[0..m) within capacity cap by branch and bound; items of
 * weight 0 are taken, items of value 0 (and positive weight) or heavier than cap are not.
 * 1. Search for the most valuable, then lightest subset: V*, W* and a witness subset.
 * 2. Walk the items in index order with the capacity c and value R still to place (initially
 *    W*, V*): an item in the current witness is taken; any other item k is taken iff some
 *    subset T of the items after k with w(T) <= c - w_k has v(T) >= R - v_k (a search with
 *    need = R - v_k; T becomes the witness). Any such T completes an optimal, fewest-weight
 *    subset, so this is the weight DP's walk: the lexicographically greatest such subset.
 * Returns 0, or -1 when the node allowance (CKN_KP_BB_NODES) runs out; selected is then
 * partly written. scratch: ckn_kp_bb_bytes(m) bytes, 8-byte aligned. */
static int ckn_kp_bb_select(const int64_t* w, const int64_t* v, const ptrdiff_t* elig,
                            ptrdiff_t m, uint64_t cap, void* scratch, uint8_t* selected,
                            int64_t nodes) {
    ckn_kp_bb s;
    ptrdiff_t* order;
    uint8_t* wit;
    ptrdiff_t t, j, p = 0;
    int64_t bv = -1, R;
    uint64_t bw = UINT64_MAX, c, wt;
    int found;
    s.w = w;
    s.v = v;
    s.elig = elig;
    s.W = (ckn_kp_u128*)scratch;
    s.V = (int64_t*)(s.W + (m + 1));
    order = (ptrdiff_t*)(s.V + (m + 1));
    s.sub = order + m;
    s.x = (uint8_t*)(s.sub + m);
    wit = s.x + m;
    s.nodes = nodes;
    for (t = 0; t < m; ++t) {
        if (w[elig[t]] == 0) selected[elig[t]] = 1;
        else if (v[elig[t]] > 0 && (uint64_t)w[elig[t]] <= cap) order[p++] = t;
    }
    if (p == 0) return 0;
    ckn_kp_sort_positions(w, v, elig, order, s.sub, p);
    memcpy(s.sub, order, (size_t)p * sizeof(ptrdiff_t));
    s.p = p;
    ckn_kp_bb_prefix(&s);
    if (ckn_kp_bb_search(&s, cap, -1, &bv, &bw, wit + m) < 0) return -1;
    /* wit[t] for positions t; the search's best (by sorted index) is at wit + m */
    memset(wit, 0, (size_t)m);
    for (j = 0; j < p; ++j)
        if (wit[m + j]) wit[order[j]] = 1;
    c = bw;
    R = bv;
    for (t = 0; t < m && R > 0; ++t) {
        wt = (uint64_t)w[elig[t]];
        if (wt == 0 || v[elig[t]] == 0) continue;
        if (!wit[t]) {
            if (wt > c) continue;
            found = 1;
            if (R - v[elig[t]] > 0) {
                s.p = 0;
                for (j = 0; j < p; ++j)
                    if (order[j] > t) s.sub[s.p++] = order[j];
                ckn_kp_bb_prefix(&s);
                found = ckn_kp_bb_search(&s, c - wt, R - v[elig[t]], NULL, NULL, NULL);
                if (found < 0) return -1;
            } else {
                s.p = 0;
            }
            if (!found) continue;
            memset(wit + t + 1, 0, (size_t)(m - t - 1));
            for (j = 0; j < s.p; ++j)
                if (s.x[j]) wit[s.sub[j]] = 1;
        }
        selected[elig[t]] = 1;
        c -= wt;
        R -= v[elig[t]];
    }
    return 0;
}

#endif /* CKN_KNAPSACK_FALLBACK_H */
