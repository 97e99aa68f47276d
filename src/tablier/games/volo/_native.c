/* The compiled core of Volo: the same rules as rules.py, on fixed-size bitboards.
 *
 * A bitboard is four 64-bit words holding exactly the bits of the Python ints the
 * pure engine uses (the padded layout of core/geometry.py: cell (q, r) is bit
 * (r + 1) * stride + q + 1, at most 195 on the standard board, and shifting by
 * one step in any direction stays below bit 256), so converting to and from the
 * ints of VoloMove tuples and VoloState fields is a copy of bytes.
 *
 * Every table (cells, neighbours, the windows of the local cut test, the arc
 * counts) comes from Python once per game, through the factory rules.py
 * registers with setup(); the context is cached on the game object.  Move
 * generation follows rules.generate step by step, so moves come out in the same
 * order; states and moves are built as the same Python classes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "_native_rng.h"

#define NW 4
#define NBITS (64 * NW)
#define CTX_NAME "tablier.games.volo._native.context"

typedef struct {
    uint64_t w[NW];
} bb;

/* -- bitboard operations ----------------------------------------------------------------- */

static inline bb bb_zero(void) {
    bb r = {{0, 0, 0, 0}};
    return r;
}
static inline bb bb_and(bb a, bb b) {
    for (int i = 0; i < NW; i++) a.w[i] &= b.w[i];
    return a;
}
static inline bb bb_or(bb a, bb b) {
    for (int i = 0; i < NW; i++) a.w[i] |= b.w[i];
    return a;
}
static inline bb bb_andn(bb a, bb b) { /* a & ~b */
    for (int i = 0; i < NW; i++) a.w[i] &= ~b.w[i];
    return a;
}
static inline bb bb_xor(bb a, bb b) {
    for (int i = 0; i < NW; i++) a.w[i] ^= b.w[i];
    return a;
}
static inline int bb_any(bb a) { return (a.w[0] | a.w[1] | a.w[2] | a.w[3]) != 0; }
static inline int bb_meets(bb a, bb b) {
    return ((a.w[0] & b.w[0]) | (a.w[1] & b.w[1]) | (a.w[2] & b.w[2]) | (a.w[3] & b.w[3])) != 0;
}
static inline int bb_eq(bb a, bb b) {
    return ((a.w[0] ^ b.w[0]) | (a.w[1] ^ b.w[1]) | (a.w[2] ^ b.w[2]) | (a.w[3] ^ b.w[3])) == 0;
}
static inline int bb_count(bb a) {
    return __builtin_popcountll(a.w[0]) + __builtin_popcountll(a.w[1]) +
           __builtin_popcountll(a.w[2]) + __builtin_popcountll(a.w[3]);
}
/* x & -x */
static inline bb bb_low(bb a) {
    bb r = bb_zero();
    for (int i = 0; i < NW; i++) {
        if (a.w[i]) {
            r.w[i] = a.w[i] & (~a.w[i] + 1);
            return r;
        }
    }
    return r;
}
/* index of the lowest set bit, -1 for 0 */
static inline int bb_index(bb a) {
    for (int i = 0; i < NW; i++)
        if (a.w[i]) return 64 * i + __builtin_ctzll(a.w[i]);
    return -1;
}
static inline bb bb_bit(int i) {
    bb r = bb_zero();
    r.w[i >> 6] = (uint64_t)1 << (i & 63);
    return r;
}
static inline int bb_test(bb a, int i) {
    return i >= 0 && i < NBITS && (a.w[i >> 6] >> (i & 63) & 1);
}
/* shifts by 1..63 bits; bits leaving the 256 bits are lost (none of a reachable state) */
static inline bb bb_shl(bb a, int s) {
    bb r;
    r.w[3] = (a.w[3] << s) | (a.w[2] >> (64 - s));
    r.w[2] = (a.w[2] << s) | (a.w[1] >> (64 - s));
    r.w[1] = (a.w[1] << s) | (a.w[0] >> (64 - s));
    r.w[0] = a.w[0] << s;
    return r;
}
static inline bb bb_shr(bb a, int s) {
    bb r;
    r.w[0] = (a.w[0] >> s) | (a.w[1] << (64 - s));
    r.w[1] = (a.w[1] >> s) | (a.w[2] << (64 - s));
    r.w[2] = (a.w[2] >> s) | (a.w[3] << (64 - s));
    r.w[3] = a.w[3] >> s;
    return r;
}
static inline bb bb_shift(bb a, int s) { return s > 0 ? bb_shl(a, s) : bb_shr(a, -s); }

/* -- the tables of one game -------------------------------------------------------------- */

enum { OC_FLOCK = 0, OC_CLEAR = 2, OC_PASS = 4, OC_COUNT = 6 };

typedef struct Work Work;

typedef struct {
    int stride;
    int shifts[6];
    int max_lines; /* lines of one flock, at most */
    bb all, safe_cut;
    bb neighbours[NBITS], window[NBITS];
    unsigned char arcs[64];
    int optional_pass;
    /* outcomes: flock won by 0/1, clearing by 0/1 (lost by the mover), double pass by 0/1 */
    PyObject *outcomes[OC_COUNT];
    int winner[OC_COUNT]; /* -1: draw */
    PyObject *board;      /* the VoloBoard, fourth item of every move */
    PyObject *bit_ints[NBITS];
    Work *work; /* reused buffers (NULL while in use) */
} Ctx;

/* -- module-wide: the classes, their slots, the knowledge weights --------------------------- */

static PyTypeObject *StateType = NULL, *MoveType = NULL;
static PyObject *factory = NULL;
static PyObject *str_ctx = NULL;
enum { S_GAME, S_B0, S_B1, S_P, S_S0, S_S1, S_PASSES, S_OUTCOME, S_MOVES, S_HASH, S_COUNT };
static const char *slot_names[S_COUNT] = {"game", "_b0",      "_b1",      "_p",     "_s0",
                                          "_s1",  "_passes",  "_outcome", "_moves", "_hash"};
static Py_ssize_t slot_off[S_COUNT];

static int weights_set = 0;
static double W_FLOCKS, W_GAPS, W_REGION;
static double P_PASS, P_FLY, P_FLY_DIVIDE, P_NEAR, P_FAR;

#define SLOT(obj, k) (*(PyObject **)((char *)(obj) + slot_off[k]))

/* -- geometry ---------------------------------------------------------------------------- */

static inline bb fill(const Ctx *c, bb seed, bb allowed) {
    const int w = c->stride;
    bb cur = bb_and(seed, allowed);
    for (;;) {
        bb y = bb_or(cur, bb_shl(cur, 1));
        bb z = bb_or(cur, bb_shr(cur, 1));
        bb nxt = bb_and(bb_or(bb_or(y, z), bb_or(bb_shl(y, w), bb_shr(z, w))), allowed);
        if (bb_eq(nxt, cur)) return cur;
        cur = nxt;
    }
}

static inline bb dilate_raw(const Ctx *c, bb x) {
    bb out = x;
    for (int k = 0; k < 6; k++) out = bb_or(out, bb_shift(x, c->shifts[k]));
    return out;
}

static int count_components(const Ctx *c, bb x) {
    int n = 0;
    while (bb_any(x)) {
        x = bb_andn(x, fill(c, bb_low(x), x));
        n++;
    }
    return n;
}

/* rules._may_divide */
static int may_divide(const Ctx *c, bb S, bb landed) {
    while (bb_any(landed)) {
        bb low = bb_low(landed);
        landed = bb_xor(landed, low);
        S = bb_andn(S, low);
        int cell = bb_index(low);
        int pattern = 0;
        for (int k = 0; k < 6; k++)
            if (bb_test(S, cell + c->shifts[k])) pattern |= 1 << k;
        if (c->arcs[pattern] > 1) {
            bb near = bb_and(S, c->neighbours[cell]);
            if (bb_any(bb_andn(near, fill(c, bb_low(near), bb_and(S, c->window[cell]))))) return 1;
        }
    }
    return 0;
}

/* -- positions and moves in C ------------------------------------------------------------ */

typedef struct {
    bb b[2];
    long s[2];
    int p;
    int passes;
    int outcome; /* -1, or an index of Ctx.outcomes */
} Pos;

typedef struct {
    bb src, dst;
    int keep;
} CMove;

struct Work {
    CMove *moves;
    Py_ssize_t n, cap;
    bb *lines;
    int lines_cap;
};

static Work *work_new(const Ctx *c) {
    Work *wk = PyMem_Calloc(1, sizeof(Work));
    if (!wk) return NULL;
    wk->cap = 256;
    wk->moves = PyMem_Malloc(wk->cap * sizeof(CMove));
    wk->lines_cap = c->max_lines;
    wk->lines = PyMem_Malloc(wk->lines_cap * sizeof(bb));
    if (!wk->moves || !wk->lines) {
        PyMem_Free(wk->moves);
        PyMem_Free(wk->lines);
        PyMem_Free(wk);
        return NULL;
    }
    return wk;
}

static void work_free(Work *wk) {
    if (!wk) return;
    PyMem_Free(wk->moves);
    PyMem_Free(wk->lines);
    PyMem_Free(wk);
}

/* the context's buffers when free, else fresh ones (a nested call during object building) */
static Work *work_take(Ctx *c) {
    Work *wk = c->work;
    if (wk) {
        c->work = NULL;
        return wk;
    }
    wk = work_new(c);
    if (!wk) PyErr_NoMemory();
    return wk;
}

static void work_give(Ctx *c, Work *wk) {
    if (!c->work)
        c->work = wk;
    else
        work_free(wk);
}

static int push(Work *wk, bb src, bb dst, int keep) {
    if (wk->n == wk->cap) {
        Py_ssize_t cap = wk->cap * 2;
        CMove *v = PyMem_Realloc(wk->moves, cap * sizeof(CMove));
        if (!v) return -1;
        wk->moves = v;
        wk->cap = cap;
    }
    CMove *m = &wk->moves[wk->n++];
    m->src = src;
    m->dst = dst;
    m->keep = keep;
    return 0;
}

/* rules._add_with_regions */
static int add_with_regions(const Ctx *c, Work *wk, bb src, bb dst, bb after, bb theirs) {
    bb open_after = bb_andn(c->all, after);
    int keeps[NBITS];
    int n = 0;
    bb x = theirs;
    while (bb_any(x)) {
        bb region = fill(c, bb_low(x), open_after);
        keeps[n++] = bb_index(bb_and(theirs, region));
        x = bb_andn(x, region);
        if (!bb_any(region)) break; /* not reachable: a bird off the board */
    }
    if (n < 2 || (bb_any(src) && bb_eq(fill(c, bb_low(after), after), after)))
        return push(wk, src, dst, -1);
    for (int i = 0; i < n; i++)
        if (push(wk, src, dst, keeps[i]) < 0) return -1;
    return 0;
}

/* rules.generate: fills wk->moves; -1 on memory error (exception set) */
static int generate_c(const Ctx *c, const Pos *s, Work *wk) {
    const int p = s->p;
    const bb mine = s->b[p], theirs = s->b[1 - p];
    const bb empty = bb_andn(c->all, bb_or(mine, theirs));
    bb placements = bb_zero();
    wk->n = 0;

    /* -- add a bird */
    if (s->s[p] > 0) {
        bb reach = fill(c, mine, bb_or(empty, mine));
        placements = bb_andn(bb_and(reach, empty), bb_and(dilate_raw(c, mine), c->all));
        bb x = placements;
        while (bb_any(x)) {
            bb low = bb_low(x);
            x = bb_xor(x, low);
            if (bb_meets(low, c->safe_cut)) {
                if (push(wk, bb_zero(), low, -1) < 0) goto nomem;
            } else if (add_with_regions(c, wk, bb_zero(), low, bb_or(mine, low), theirs) < 0) {
                goto nomem;
            }
        }
    }

    /* -- let the birds fly */
    long flights = 0;
    const bb open_theirs = bb_or(empty, theirs);
    bb todo = mine;
    while (bb_any(todo)) {
        const bb flock = fill(c, bb_low(todo), todo);
        todo = bb_andn(todo, flock);
        if (!bb_any(flock)) break; /* not reachable: a bird off the board */
        const bb others = bb_andn(mine, flock);
        if (!bb_any(others)) continue;
        const bb zone = dilate_raw(c, others);
        int nlines = 0;
        bb x = flock;
        while (bb_any(x)) {
            bb low = bb_low(x);
            x = bb_xor(x, low);
            if (nlines >= wk->lines_cap) goto toolong;
            wk->lines[nlines++] = low;
            for (int a = 0; a < 3; a++) {
                bb line = low;
                bb nxt = bb_shl(low, c->shifts[a]);
                while (bb_meets(nxt, flock)) {
                    line = bb_or(line, nxt);
                    if (nlines >= wk->lines_cap) goto toolong;
                    wk->lines[nlines++] = line;
                    nxt = bb_shl(nxt, c->shifts[a]);
                }
            }
        }
        for (int li = 0; li < nlines; li++) {
            const bb line = wk->lines[li];
            const bb rest = bb_andn(flock, line);
            const bb free = bb_or(empty, line);
            const bb base = bb_andn(mine, line);
            const int has_rest = bb_any(rest);
            int rest_known = 0;
            bb rest_near = bb_zero();
            const bb open_line = bb_or(open_theirs, line);
            for (int d = 0; d < 6; d++) {
                const int sh = c->shifts[d];
                bb cur = line;
                for (;;) {
                    cur = bb_shift(cur, sh);
                    if (bb_any(bb_andn(cur, free)) || !bb_any(cur)) break;
                    if (!bb_meets(cur, zone)) continue;
                    const bb after = bb_or(base, cur);
                    if (has_rest) {
                        if (!rest_known) {
                            rest_known = 1;
                            rest_near = may_divide(c, flock, line) ? bb_zero() : dilate_raw(c, rest);
                        }
                        if (!bb_meets(cur, rest_near) &&
                            bb_any(bb_andn(rest, fill(c, cur, after))))
                            continue;
                    }
                    flights++;
                    if (may_divide(c, open_line, cur)) {
                        if (add_with_regions(c, wk, line, cur, after, theirs) < 0) goto nomem;
                    } else if (push(wk, line, cur, -1) < 0) {
                        goto nomem;
                    }
                }
            }
        }
    }

    /* -- pass */
    if (wk->n == 0) {
        if (push(wk, bb_zero(), bb_zero(), -1) < 0) goto nomem;
    } else if (!flights && c->optional_pass) {
        bb theirs_reach = fill(c, theirs, open_theirs);
        if (!bb_meets(placements, theirs_reach))
            if (push(wk, bb_zero(), bb_zero(), -1) < 0) goto nomem;
    }
    return 0;
nomem:
    PyErr_NoMemory();
    return -1;
toolong:
    PyErr_SetString(PyExc_ValueError, "volo: more lines in a flock than the board holds");
    return -1;
}

/* VoloState.apply_unchecked on a C position */
static void apply_c(const Ctx *c, Pos *s, const CMove *m) {
    const int p = s->p;
    if (!bb_any(m->dst)) {
        s->passes++;
        if (s->passes >= 2) s->outcome = OC_PASS + p;
        s->p = 1 - p;
        return;
    }
    bb mine = s->b[p], theirs = s->b[1 - p];
    long s_theirs = s->s[1 - p];
    int outcome = -1;
    if (bb_any(m->src)) {
        mine = bb_or(bb_andn(mine, m->src), m->dst);
    } else {
        mine = bb_or(mine, m->dst);
        s->s[p]--;
    }
    if (bb_any(m->src) && bb_eq(fill(c, bb_low(mine), mine), mine)) {
        outcome = OC_FLOCK + p;
    } else if (m->keep >= 0) {
        bb region = fill(c, bb_bit(m->keep), bb_andn(c->all, mine));
        bb kept = bb_and(theirs, region);
        s_theirs += bb_count(theirs) - bb_count(kept);
        theirs = kept;
        if (bb_eq(fill(c, bb_low(theirs), theirs), theirs)) outcome = OC_CLEAR + p;
    }
    s->b[p] = mine;
    s->b[1 - p] = theirs;
    s->s[1 - p] = s_theirs;
    s->p = 1 - p;
    s->passes = 0;
    s->outcome = outcome;
}

/* ai.features */
static void features_c(const Ctx *c, const Pos *s, int player, int *flocks, int *gaps,
                       double *share) {
    bb mine = s->b[player], theirs = s->b[1 - player];
    *flocks = count_components(c, mine);
    bb grown = bb_andn(bb_and(dilate_raw(c, mine), c->all), theirs);
    *gaps = count_components(c, grown);
    bb free = bb_andn(c->all, theirs);
    bb reach = fill(c, mine, free);
    int nfree = bb_count(free);
    *share = (double)bb_count(reach) / (double)(nfree > 1 ? nfree : 1);
}

/* ai.evaluate */
static double evaluate_c(const Ctx *c, const Pos *s) {
    int f0, g0, f1, g1;
    double r0, r1;
    features_c(c, s, s->p, &f0, &g0, &r0);
    features_c(c, s, 1 - s->p, &f1, &g1, &r1);
    double x = W_FLOCKS * (double)(f1 - f0) + W_GAPS * (double)(g1 - g0) + W_REGION * (r0 - r1);
    return tanh(x);
}

static inline double prior_c(const CMove *m, bb near) {
    if (!bb_any(m->dst)) return P_PASS;
    if (bb_any(m->src)) return m->keep >= 0 ? P_FLY_DIVIDE : P_FLY;
    return bb_meets(m->dst, near) ? P_NEAR : P_FAR;
}

/* -- conversions between Python and C ------------------------------------------------------- */

/* Python 3.11 ints are read and written digit by digit (their layout is known); later
 * versions go through the byte-array functions. */
#if PY_VERSION_HEX < 0x030C0000
#define DIGITS_KNOWN 1
#else
#define DIGITS_KNOWN 0
#endif

static PyObject *bb_to_py(bb a) {
    if (!(a.w[1] | a.w[2] | a.w[3])) return PyLong_FromUnsignedLongLong(a.w[0]);
#if DIGITS_KNOWN
    int top = 0;
    for (int i = NW - 1; i >= 0; i--)
        if (a.w[i]) {
            top = 64 * i + 63 - __builtin_clzll(a.w[i]);
            break;
        }
    Py_ssize_t ndigits = top / PyLong_SHIFT + 1;
    PyLongObject *r = _PyLong_New(ndigits);
    if (!r) return NULL;
    for (Py_ssize_t i = 0; i < ndigits; i++) {
        int pos = (int)i * PyLong_SHIFT, word = pos >> 6, off = pos & 63;
        uint64_t v = a.w[word] >> off;
        if (off + PyLong_SHIFT > 64 && word + 1 < NW) v |= a.w[word + 1] << (64 - off);
        r->ob_digit[i] = (digit)(v & PyLong_MASK);
    }
    return (PyObject *)r;
#else
    unsigned char buf[8 * NW];
    for (int i = 0; i < NW; i++)
        for (int j = 0; j < 8; j++) buf[8 * i + j] = (unsigned char)(a.w[i] >> (8 * j));
    return _PyLong_FromByteArray(buf, sizeof buf, 1, 0);
#endif
}

/* a move's or a state's bitboard: the ints of the cells, cached for single cells */
static PyObject *bb_to_py_cached(const Ctx *c, bb a) {
    int i = bb_index(a);
    if (i >= 0 && bb_eq(a, bb_bit(i)) && c->bit_ints[i]) {
        Py_INCREF(c->bit_ints[i]);
        return c->bit_ints[i];
    }
    return bb_to_py(a);
}

static int bb_from_py(PyObject *o, bb *out, const char *what) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "volo: %s must be an int, not %.100s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    if (_PyLong_Sign(o) < 0) {
        PyErr_Format(PyExc_ValueError, "volo: %s must not be negative", what);
        return -1;
    }
#if DIGITS_KNOWN
    Py_ssize_t ndigits = Py_SIZE(o);
    const digit *d = ((PyLongObject *)o)->ob_digit;
    bb r = bb_zero();
    for (Py_ssize_t i = 0; i < ndigits; i++) {
        uint64_t v = d[i];
        Py_ssize_t pos = i * PyLong_SHIFT;
        if (pos >= NBITS || (pos + PyLong_SHIFT > NBITS && v >> (NBITS - pos))) {
            if (v) {
                PyErr_Format(PyExc_ValueError, "volo: %s has bits beyond the board", what);
                return -1;
            }
            continue;
        }
        int word = (int)(pos >> 6), off = (int)(pos & 63);
        r.w[word] |= v << off;
        if (off + PyLong_SHIFT > 64 && word + 1 < NW) r.w[word + 1] |= v >> (64 - off);
    }
    *out = r;
    return 0;
#else
    unsigned char buf[8 * NW];
#if PY_VERSION_HEX >= 0x030D0000
    if (_PyLong_AsByteArray((PyLongObject *)o, buf, sizeof buf, 1, 0, 1) < 0) {
#else
    if (_PyLong_AsByteArray((PyLongObject *)o, buf, sizeof buf, 1, 0) < 0) {
#endif
        PyErr_Format(PyExc_ValueError, "volo: %s has bits beyond the board", what);
        return -1;
    }
    for (int i = 0; i < NW; i++) {
        uint64_t v = 0;
        for (int j = 7; j >= 0; j--) v = v << 8 | buf[8 * i + j];
        out->w[i] = v;
    }
    return 0;
#endif
}

static int long_from_py(PyObject *o, long lo, long hi, long *out, const char *what) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "volo: %s must be an int, not %.100s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "volo: %s out of range", what);
        return -1;
    }
    *out = v;
    return 0;
}

/* The game's context, made by the factory rules.py registered and cached on the game.
 * Returns a new reference to the capsule; *ctx set. */
static PyObject *context_of(PyObject *game, Ctx **ctx) {
    if (!factory) {
        PyErr_SetString(PyExc_RuntimeError, "volo: the compiled core was not set up");
        return NULL;
    }
    PyObject *cap = PyObject_GetAttr(game, str_ctx);
    if (!cap) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return NULL;
        PyErr_Clear();
        cap = PyObject_CallOneArg(factory, game);
        if (!cap) return NULL;
        if (PyObject_SetAttr(game, str_ctx, cap) < 0) {
            Py_DECREF(cap);
            return NULL;
        }
    }
    *ctx = PyCapsule_GetPointer(cap, CTX_NAME);
    if (!*ctx) {
        Py_DECREF(cap);
        return NULL;
    }
    return cap;
}

/* Read a VoloState.  Returns a new reference to its game's context capsule. */
static PyObject *read_state(PyObject *state, Pos *s, Ctx **ctx) {
    if (!StateType) {
        PyErr_SetString(PyExc_RuntimeError, "volo: the compiled core was not set up");
        return NULL;
    }
    if (!PyObject_TypeCheck(state, StateType)) {
        PyErr_Format(PyExc_TypeError, "volo: expected a VoloState, not %.100s",
                     Py_TYPE(state)->tp_name);
        return NULL;
    }
    for (int k = 0; k <= S_OUTCOME; k++)
        if (!SLOT(state, k)) {
            PyErr_Format(PyExc_ValueError, "volo: state field %s is not set", slot_names[k]);
            return NULL;
        }
    PyObject *cap = context_of(SLOT(state, S_GAME), ctx);
    if (!cap) return NULL;
    long p, s0, s1, passes;
    if (bb_from_py(SLOT(state, S_B0), &s->b[0], "a bitboard") < 0 ||
        bb_from_py(SLOT(state, S_B1), &s->b[1], "a bitboard") < 0 ||
        long_from_py(SLOT(state, S_P), 0, 1, &p, "the side to move") < 0 ||
        long_from_py(SLOT(state, S_S0), -1000000, 1000000, &s0, "a supply") < 0 ||
        long_from_py(SLOT(state, S_S1), -1000000, 1000000, &s1, "a supply") < 0 ||
        long_from_py(SLOT(state, S_PASSES), 0, 1000000, &passes, "the pass count") < 0)
        goto fail;
    if (bb_any(bb_andn(bb_or(s->b[0], s->b[1]), (*ctx)->all))) {
        PyErr_SetString(PyExc_ValueError, "volo: a bird outside the board");
        goto fail;
    }
    s->p = (int)p;
    s->s[0] = s0;
    s->s[1] = s1;
    s->passes = (int)passes;
    s->outcome = SLOT(state, S_OUTCOME) == Py_None ? -1 : OC_COUNT; /* OC_COUNT: the state's own */
    return cap;
fail:
    Py_DECREF(cap);
    return NULL;
}

static PyObject *make_move(const Ctx *c, const CMove *m, PyObject *src, PyObject *dst) {
    PyObject *keep = PyLong_FromLong(m->keep);
    if (!keep) return NULL;
    PyObject *t = MoveType->tp_alloc(MoveType, 4);
    if (!t) {
        Py_DECREF(keep);
        return NULL;
    }
    Py_INCREF(src);
    Py_INCREF(dst);
    Py_INCREF(c->board);
    PyTuple_SET_ITEM(t, 0, src);
    PyTuple_SET_ITEM(t, 1, dst);
    PyTuple_SET_ITEM(t, 2, keep);
    PyTuple_SET_ITEM(t, 3, c->board);
    return t;
}

/* Python Move objects for moves[0:n]; consecutive moves often share a line or a target */
static PyObject *make_moves(const Ctx *c, const CMove *moves, Py_ssize_t n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    PyObject *src = NULL, *dst = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        const CMove *m = &moves[i];
        if (!src || !bb_eq(m->src, moves[i - 1].src)) {
            Py_XDECREF(src);
            src = bb_to_py_cached(c, m->src);
            if (!src) goto fail;
        }
        if (!dst || !bb_eq(m->dst, moves[i - 1].dst)) {
            Py_XDECREF(dst);
            dst = bb_to_py_cached(c, m->dst);
            if (!dst) goto fail;
        }
        PyObject *mv = make_move(c, m, src, dst);
        if (!mv) goto fail;
        PyList_SET_ITEM(list, i, mv);
    }
    Py_XDECREF(src);
    Py_XDECREF(dst);
    return list;
fail:
    Py_XDECREF(src);
    Py_XDECREF(dst);
    Py_DECREF(list);
    return NULL;
}

static int read_move(PyObject *move, CMove *m) {
    if (!PyTuple_Check(move) || PyTuple_GET_SIZE(move) < 3) {
        PyErr_Format(PyExc_TypeError, "volo: expected a VoloMove, not %.100s",
                     Py_TYPE(move)->tp_name);
        return -1;
    }
    long keep;
    if (bb_from_py(PyTuple_GET_ITEM(move, 0), &m->src, "a move's source") < 0 ||
        bb_from_py(PyTuple_GET_ITEM(move, 1), &m->dst, "a move's target") < 0 ||
        long_from_py(PyTuple_GET_ITEM(move, 2), -1, NBITS - 1, &keep, "a move's region") < 0)
        return -1;
    m->keep = (int)keep;
    return 0;
}

/* A new VoloState; old (may be NULL) lends the ints of unchanged fields. */
static PyObject *make_state(const Ctx *c, PyObject *game, const Pos *s, const Pos *prev,
                            PyObject *old) {
    PyObject *st = StateType->tp_alloc(StateType, 0);
    if (!st) return NULL;
    PyObject *v[S_COUNT] = {NULL};
    Py_INCREF(game);
    v[S_GAME] = game;
    for (int k = 0; k < 2; k++) {
        int slot = k ? S_B1 : S_B0;
        if (old && bb_eq(s->b[k], prev->b[k])) {
            v[slot] = SLOT(old, slot);
            Py_INCREF(v[slot]);
        } else {
            v[slot] = bb_to_py(s->b[k]);
        }
    }
    v[S_P] = PyLong_FromLong(s->p);
    v[S_S0] = PyLong_FromLong(s->s[0]);
    v[S_S1] = PyLong_FromLong(s->s[1]);
    v[S_PASSES] = PyLong_FromLong(s->passes);
    v[S_OUTCOME] = s->outcome < 0 ? Py_None : c->outcomes[s->outcome];
    Py_INCREF(v[S_OUTCOME]);
    v[S_MOVES] = Py_None;
    v[S_HASH] = Py_None;
    Py_INCREF(Py_None);
    Py_INCREF(Py_None);
    int failed = 0;
    for (int k = 0; k < S_COUNT; k++) {
        if (!v[k]) failed = 1;
        SLOT(st, k) = v[k];
    }
    if (failed) {
        Py_DECREF(st);
        return NULL;
    }
    return st;
}

/* -- the functions of the module ----------------------------------------------------------- */

static PyObject *py_setup(PyObject *self, PyObject *args) {
    PyObject *state_type, *move_type, *fact;
    if (!PyArg_ParseTuple(args, "O!O!O:setup", &PyType_Type, &state_type, &PyType_Type, &move_type,
                          &fact))
        return NULL;
    if (!PyType_IsSubtype((PyTypeObject *)move_type, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "volo: the move class must be a tuple");
        return NULL;
    }
    if (!PyCallable_Check(fact)) {
        PyErr_SetString(PyExc_TypeError, "volo: the context factory must be callable");
        return NULL;
    }
    PyObject *dict = ((PyTypeObject *)state_type)->tp_dict;
    for (int k = 0; k < S_COUNT; k++) {
        PyObject *d = PyDict_GetItemString(dict, slot_names[k]);
        if (!d || !Py_IS_TYPE(d, &PyMemberDescr_Type) ||
            ((PyMemberDescrObject *)d)->d_member->type != T_OBJECT_EX) {
            PyErr_Format(PyExc_TypeError, "volo: the state class has no slot %s", slot_names[k]);
            return NULL;
        }
        slot_off[k] = ((PyMemberDescrObject *)d)->d_member->offset;
    }
    Py_INCREF(state_type);
    Py_INCREF(move_type);
    Py_INCREF(fact);
    Py_XSETREF(StateType, (PyTypeObject *)state_type);
    Py_XSETREF(MoveType, (PyTypeObject *)move_type);
    Py_XSETREF(factory, fact);
    Py_RETURN_NONE;
}

static void ctx_free(PyObject *cap) {
    Ctx *c = PyCapsule_GetPointer(cap, CTX_NAME);
    if (!c) return;
    for (int k = 0; k < OC_COUNT; k++) Py_XDECREF(c->outcomes[k]);
    for (int i = 0; i < NBITS; i++) Py_XDECREF(c->bit_ints[i]);
    Py_XDECREF(c->board);
    work_free(c->work);
    PyMem_Free(c);
}

static int table_from_dict(PyObject *d, bb *table, const char *what) {
    if (!PyDict_Check(d)) {
        PyErr_Format(PyExc_TypeError, "volo: %s must be a dict", what);
        return -1;
    }
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(d, &pos, &key, &value)) {
        long i;
        if (long_from_py(key, 0, NBITS - 1, &i, "a cell index") < 0 ||
            bb_from_py(value, &table[i], what) < 0)
            return -1;
    }
    return 0;
}

/* context(board, stride, shifts, all, safe_cut, neighbours, window, arcs, optional_pass,
 *         outcomes) -> capsule */
static PyObject *py_context(PyObject *self, PyObject *args) {
    PyObject *board, *shifts, *all, *safe, *neighbours, *window, *arcs, *outcomes;
    int stride, optional_pass;
    if (!PyArg_ParseTuple(args, "OiO!OOOOO!pO!:context", &board, &stride, &PyTuple_Type, &shifts,
                          &all, &safe, &neighbours, &window, &PyTuple_Type, &arcs, &optional_pass,
                          &PyTuple_Type, &outcomes))
        return NULL;
    if (stride < 2 || stride > 62 || PyTuple_GET_SIZE(shifts) != 6 ||
        PyTuple_GET_SIZE(arcs) != 64 || PyTuple_GET_SIZE(outcomes) != OC_COUNT) {
        PyErr_SetString(PyExc_ValueError, "volo: bad board tables");
        return NULL;
    }
    Ctx *c = PyMem_Calloc(1, sizeof(Ctx));
    if (!c) return PyErr_NoMemory();
    PyObject *cap = PyCapsule_New(c, CTX_NAME, ctx_free);
    if (!cap) {
        PyMem_Free(c);
        return NULL;
    }
    c->stride = stride;
    c->optional_pass = optional_pass;
    Py_INCREF(board);
    c->board = board;
    for (int k = 0; k < 6; k++) {
        long v;
        if (long_from_py(PyTuple_GET_ITEM(shifts, k), -63, 63, &v, "a shift") < 0) goto fail;
        if (v == 0) {
            PyErr_SetString(PyExc_ValueError, "volo: a shift of 0");
            goto fail;
        }
        c->shifts[k] = (int)v;
    }
    for (int k = 0; k < 3; k++)
        if (c->shifts[k] <= 0) {
            PyErr_SetString(PyExc_ValueError, "volo: the three line axes must be positive shifts");
            goto fail;
        }
    for (int k = 0; k < 64; k++) {
        long v;
        if (long_from_py(PyTuple_GET_ITEM(arcs, k), 0, 6, &v, "an arc count") < 0) goto fail;
        c->arcs[k] = (unsigned char)v;
    }
    if (bb_from_py(all, &c->all, "the board") < 0 || bb_from_py(safe, &c->safe_cut, "safe_cut") < 0 ||
        table_from_dict(neighbours, c->neighbours, "a neighbour mask") < 0 ||
        table_from_dict(window, c->window, "a window") < 0)
        goto fail;
    /* the board and its neighbourhood must stay inside the 256 bits */
    int top = -1;
    for (int i = 0; i < NBITS; i++)
        if (bb_test(c->all, i)) top = i;
    if (top < 0 || top + 2 * (stride + 1) >= NBITS || bb_test(c->all, 0) ||
        bb_index(c->all) < stride + 1) {
        PyErr_SetString(PyExc_ValueError, "volo: the board does not fit the compiled core");
        goto fail;
    }
    int ncells = bb_count(c->all);
    c->max_lines = ncells * (1 + 3 * stride); /* a line is shorter than a row */
    for (int k = 0; k < OC_COUNT; k++) {
        PyObject *o = PyTuple_GET_ITEM(outcomes, k);
        PyObject *w = PyObject_GetAttrString(o, "winner");
        if (!w) goto fail;
        long v = -1;
        if (w != Py_None && long_from_py(w, 0, 1, &v, "a winner") < 0) {
            Py_DECREF(w);
            goto fail;
        }
        Py_DECREF(w);
        c->winner[k] = (int)v;
        Py_INCREF(o);
        c->outcomes[k] = o;
    }
    for (int i = 0; i < NBITS; i++)
        if (bb_test(c->all, i)) {
            c->bit_ints[i] = bb_to_py(bb_bit(i));
            if (!c->bit_ints[i]) goto fail;
        }
    return cap;
fail:
    Py_DECREF(cap);
    return NULL;
}

static PyObject *py_generate(PyObject *self, PyObject *state) {
    Pos s;
    Ctx *c;
    PyObject *cap = read_state(state, &s, &c);
    if (!cap) return NULL;
    PyObject *out = NULL;
    Work *wk = work_take(c);
    if (wk) {
        if (generate_c(c, &s, wk) == 0) out = make_moves(c, wk->moves, wk->n);
        work_give(c, wk);
    }
    Py_DECREF(cap);
    return out;
}

static PyObject *py_apply(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "volo: apply(state, move)");
        return NULL;
    }
    Pos s;
    Ctx *c;
    CMove m;
    PyObject *cap = read_state(args[0], &s, &c);
    if (!cap) return NULL;
    PyObject *out = NULL;
    if (read_move(args[1], &m) == 0) {
        Pos prev = s;
        s.outcome = -1;
        apply_c(c, &s, &m);
        out = make_state(c, SLOT(args[0], S_GAME), &s, &prev, args[0]);
    }
    Py_DECREF(cap);
    return out;
}

static int knowledge_ready(void) {
    if (!weights_set) {
        PyErr_SetString(PyExc_RuntimeError, "volo: the AI weights were not set");
        return 0;
    }
    return 1;
}

static PyObject *py_features(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "volo: features(state, player)");
        return NULL;
    }
    long player;
    if (long_from_py(args[1], 0, 1, &player, "the player") < 0) return NULL;
    Pos s;
    Ctx *c;
    PyObject *cap = read_state(args[0], &s, &c);
    if (!cap) return NULL;
    int f, g;
    double r;
    features_c(c, &s, (int)player, &f, &g, &r);
    Py_DECREF(cap);
    return Py_BuildValue("(iid)", f, g, r);
}

static PyObject *py_evaluate(PyObject *self, PyObject *state) {
    if (!knowledge_ready()) return NULL;
    Pos s;
    Ctx *c;
    PyObject *cap = read_state(state, &s, &c);
    if (!cap) return NULL;
    double v = evaluate_c(c, &s);
    Py_DECREF(cap);
    return PyFloat_FromDouble(v);
}

static PyObject *py_move_prior(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "volo: move_prior(state, moves)");
        return NULL;
    }
    if (!knowledge_ready()) return NULL;
    Pos s;
    Ctx *c;
    PyObject *cap = read_state(args[0], &s, &c);
    if (!cap) return NULL;
    PyObject *seq = PySequence_Fast(args[1], "volo: the moves must be a sequence");
    PyObject *out = NULL;
    if (seq) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        bb near = dilate_raw(c, dilate_raw(c, s.b[s.p]));
        out = PyList_New(n);
        for (Py_ssize_t i = 0; out && i < n; i++) {
            CMove m;
            PyObject *f = NULL;
            if (read_move(PySequence_Fast_GET_ITEM(seq, i), &m) == 0)
                f = PyFloat_FromDouble(prior_c(&m, near));
            if (!f) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(out, i, f);
        }
        Py_DECREF(seq);
    }
    Py_DECREF(cap);
    return out;
}

static PyObject *py_set_weights(PyObject *self, PyObject *args) {
    if (!PyArg_ParseTuple(args, "(ddd)(ddddd):set_weights", &W_FLOCKS, &W_GAPS, &W_REGION,
                          &P_PASS, &P_FLY, &P_FLY_DIVIDE, &P_NEAR, &P_FAR))
        return NULL;
    weights_set = 1;
    Py_RETURN_NONE;
}


typedef struct {
    int mover;
    CMove move;
} Played;

/* playout(state, seed, limit, weighted, cutoff) -> (reward for player 0, [(mover, move)]) */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    PyObject *state, *seed_obj;
    Py_ssize_t limit;
    int weighted, cutoff;
    if (!PyArg_ParseTuple(args, "OOnpp:playout", &state, &seed_obj, &limit, &weighted, &cutoff))
        return NULL;
    if (!PyLong_Check(seed_obj)) {
        PyErr_SetString(PyExc_TypeError, "volo: the seed must be an int");
        return NULL;
    }
    uint64_t seed = PyLong_AsUnsignedLongLong(seed_obj);
    if (seed == (uint64_t)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "volo: the seed must be from 0 to 2**64 - 1");
        return NULL;
    }
    if (limit < 0) {
        PyErr_SetString(PyExc_ValueError, "volo: the limit must not be negative");
        return NULL;
    }
    if ((weighted || cutoff) && !knowledge_ready()) return NULL;
    Pos s;
    Ctx *c;
    PyObject *cap = read_state(state, &s, &c);
    if (!cap) return NULL;
    PyObject *out = NULL, *played_list = NULL;
    Played *played = NULL;
    double *cum = NULL;
    Py_ssize_t nplayed = 0, cap_played = 0, cap_cum = 0;
    double reward;
    Work *wk = work_take(c);
    if (!wk) goto done;

    if (s.outcome >= 0) { /* the state's own outcome */
        PyObject *r = PyObject_CallMethod(SLOT(state, S_OUTCOME), "score", "i", 0);
        if (!r) goto done;
        reward = PyFloat_AsDouble(r);
        Py_DECREF(r);
        if (reward == -1.0 && PyErr_Occurred()) goto done;
    } else {
        Rng rng;
        rng_seed(&rng, seed);
        while (s.outcome < 0 && nplayed < limit) {
            if (generate_c(c, &s, wk) < 0) goto done;
            Py_ssize_t n = wk->n, pick = 0;
            if (n == 0) break; /* not reachable: a pass is always there */
            if (weighted) {
                if (n > cap_cum) {
                    cap_cum = n * 2;
                    PyMem_Free(cum);
                    cum = PyMem_Malloc(cap_cum * sizeof(double));
                    if (!cum) {
                        PyErr_NoMemory();
                        goto done;
                    }
                }
                bb near = dilate_raw(c, dilate_raw(c, s.b[s.p]));
                double total = 0.0;
                for (Py_ssize_t i = 0; i < n; i++) {
                    total += prior_c(&wk->moves[i], near);
                    cum[i] = total;
                }
                if (total > 0.0) {
                    double u = rng_unit(&rng) * total;
                    pick = n - 1;
                    for (Py_ssize_t i = 0; i < n; i++)
                        if (u < cum[i]) {
                            pick = i;
                            break;
                        }
                } else {
                    pick = (Py_ssize_t)rng_below(&rng, (uint32_t)n);
                }
            } else {
                pick = (Py_ssize_t)rng_below(&rng, (uint32_t)n);
            }
            if (nplayed == cap_played) {
                cap_played = cap_played ? 2 * cap_played : 128;
                Played *v = PyMem_Realloc(played, cap_played * sizeof(Played));
                if (!v) {
                    PyErr_NoMemory();
                    goto done;
                }
                played = v;
            }
            played[nplayed].mover = s.p;
            played[nplayed].move = wk->moves[pick];
            nplayed++;
            apply_c(c, &s, &wk->moves[pick]);
        }
        if (s.outcome >= 0) {
            int w = c->winner[s.outcome];
            reward = w < 0 ? 0.5 : (w == 0 ? 1.0 : 0.0);
        } else if (cutoff) {
            double v = evaluate_c(c, &s);
            v = v < -1.0 ? -1.0 : (v > 1.0 ? 1.0 : v);
            if (s.p != 0) v = -v;
            reward = (v + 1.0) / 2.0;
        } else {
            reward = 0.5;
        }
    }
    played_list = PyList_New(nplayed);
    if (!played_list) goto done;
    for (Py_ssize_t i = 0; i < nplayed; i++) {
        PyObject *src = bb_to_py_cached(c, played[i].move.src);
        PyObject *dst = src ? bb_to_py_cached(c, played[i].move.dst) : NULL;
        PyObject *mv = dst ? make_move(c, &played[i].move, src, dst) : NULL;
        Py_XDECREF(src);
        Py_XDECREF(dst);
        PyObject *pair = mv ? Py_BuildValue("(iN)", played[i].mover, mv) : NULL;
        if (!pair) goto done;
        PyList_SET_ITEM(played_list, i, pair);
    }
    out = Py_BuildValue("(dO)", reward, played_list);
done:
    if (wk) work_give(c, wk);
    Py_XDECREF(played_list);
    PyMem_Free(played);
    PyMem_Free(cum);
    Py_DECREF(cap);
    return out;
}

/* -- a proof search: does a player force a win within some decisions? ------------------------ */

/* The shared search of core/_native_proof.h on this core's positions. */
typedef const Ctx *PROOF_GAME;
typedef Pos PROOF_POS;
typedef CMove PROOF_MOVE;
typedef Work PROOF_BUF;

static inline int proof_over(const Ctx *c, const Pos *s, int *winner) {
    if (s->outcome < 0) return 0;
    *winner = c->winner[s->outcome];
    return 1;
}

static inline int proof_mover(const Pos *s) { return s->p; }

static inline CMove *proof_moves(const Ctx *c, const Pos *s, Work *wk, int *n) {
    if (generate_c(c, s, wk) < 0) return NULL;
    *n = (int)wk->n;
    return wk->moves;
}

static inline void proof_play(const Ctx *c, const Pos *s, const CMove *m, Pos *out) {
    *out = *s;
    apply_c(c, out, m);
}

static inline int proof_same(const CMove *a, const CMove *b) {
    return a->keep == b->keep && bb_eq(a->dst, b->dst) && bb_eq(a->src, b->src);
}

static inline Work *proof_buf_new(const Ctx *c) { return work_new(c); }

static inline void proof_buf_free(Work *wk) { work_free(wk); }

#include "_native_proof.h"

/* prove(state, attacker, depth, max_nodes, max_seconds) -> (True/False/None, nodes) */
static PyObject *py_prove(PyObject *self, PyObject *args) {
    ProofArgs a;
    if (proof_args(args, "volo", &a) < 0) return NULL;
    Pos s;
    Ctx *c;
    PyObject *cap = read_state(a.state, &s, &c);
    if (!cap) return NULL;
    PyObject *out = NULL;
    if (s.outcome >= 0)
        PyErr_SetString(PyExc_ValueError, "volo: the game is over");
    else
        out = proof_run(c, &s, &a);
    Py_DECREF(cap);
    return out;
}

/* may_divide(state, open_before, landed): rules._may_divide on the state's board (tests) */
static PyObject *py_may_divide(PyObject *self, PyObject *args) {
    PyObject *state, *a, *b;
    if (!PyArg_ParseTuple(args, "OOO:may_divide", &state, &a, &b)) return NULL;
    Pos s;
    Ctx *c;
    bb open_before, landed;
    PyObject *cap = read_state(state, &s, &c);
    if (!cap) return NULL;
    PyObject *out = NULL;
    if (bb_from_py(a, &open_before, "a bitboard") == 0 && bb_from_py(b, &landed, "a bitboard") == 0) {
        if (bb_any(bb_andn(landed, c->all)))
            PyErr_SetString(PyExc_ValueError, "volo: a cell outside the board");
        else
            out = PyBool_FromLong(may_divide(c, bb_and(open_before, c->all), landed));
    }
    Py_DECREF(cap);
    return out;
}

static PyMethodDef methods[] = {
    {"setup", py_setup, METH_VARARGS,
     "setup(state_class, move_class, context_factory): the classes to read and build."},
    {"context", py_context, METH_VARARGS, "context(...) -> capsule: one game's tables."},
    {"set_weights", py_set_weights, METH_VARARGS,
     "set_weights((flocks, gaps, region), (pass, fly, fly_divide, near, far)): ai.py's weights."},
    {"generate", py_generate, METH_O, "generate(state) -> list of moves (rules.generate)."},
    {"apply", (PyCFunction)(void (*)(void))py_apply, METH_FASTCALL,
     "apply(state, move) -> state (VoloState.apply_unchecked)."},
    {"features", (PyCFunction)(void (*)(void))py_features, METH_FASTCALL,
     "features(state, player) -> (flocks, gaps, share) (ai.features)."},
    {"evaluate", py_evaluate, METH_O, "evaluate(state) -> float (ai.evaluate)."},
    {"move_prior", (PyCFunction)(void (*)(void))py_move_prior, METH_FASTCALL,
     "move_prior(state, moves) -> list of floats (ai.move_prior)."},
    {"playout", py_playout, METH_VARARGS,
     "playout(state, seed, limit, weighted, cutoff) -> (reward for player 0, played)."},
    {"prove", py_prove, METH_VARARGS,
     "prove(state, attacker, depth, max_nodes, max_seconds) -> (True/False/None, nodes)."},
    {"may_divide", py_may_divide, METH_VARARGS,
     "may_divide(state, open_before, landed) -> bool (rules._may_divide)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "tablier.games.volo._native",
    .m_doc = "Volo's compiled core: move generation, moves, AI features and playouts.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__native(void) {
    str_ctx = PyUnicode_InternFromString("_native_context");
    if (!str_ctx) return NULL;
    PyObject *m = PyModule_Create(&native_module);
    if (m && PyModule_AddIntConstant(m, "PORTED", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
