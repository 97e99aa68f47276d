/* The compiled core of Voldetour: the engine of rules.py and the AI hot paths of ai.py in C.
 *
 * The pure-Python engine (rules.py, ai.py) is the reference; this file follows it step by
 * step and the tests compare both on many positions.  A piece set's tables (orientations,
 * anchors, board mask, the premade put moves) are handed over once per piece set by
 * init(), which returns a capsule; every other entry point takes that capsule and a VState.
 *
 * Squares are the bit indices of the Python BitGrid; masks are 128-bit integers, so a
 * piece set is supported when every square of its board has an index below 128 (both
 * shipped sets do); init() returns None otherwise and the pure engine is used.
 *
 * States are read from the VState slots directly (their offsets come from the class's
 * member descriptors) and new states are written the same way, as rules._make does.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "_native_rng.h"

typedef unsigned __int128 u128;

#define MAXH 9
#define MAXK 32
#define MAXO 192
#define MAXS 20
#define MAXOFF 32
#define NSQ 128
#define RING 16

#define BLOCK 1
#define STAIR 2
#define FROM_RESERVE 4

#define STEP 1
#define LEVEL 1
#define SLOPE 2
#define BLOCKED 200

static const u128 ONE = 1;
static const u128 ALL = ~(u128)0;

static inline u128 bit(int i) { return ONE << i; }
static inline int test(u128 m, int i) { return (int)((m >> i) & 1); }
static inline u128 shift(u128 x, int s) { return s > 0 ? x << s : x >> (-s); }
static inline int ctz128(u128 m) {
    uint64_t lo = (uint64_t)m;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(m >> 64));
}
static inline int popcount128(u128 m) {
    return __builtin_popcountll((uint64_t)m) + __builtin_popcountll((uint64_t)(m >> 64));
}

/* ------------------------------------------------------------------------------------ */
/* Piece set                                                                              */

typedef struct {
    int kind, dz, noff;
    int off[MAXOFF];
    u128 base, anchors;
} Orient;

typedef struct {
    char tag; /* 'T', 'P', 'L', 'E', 'X' */
    char pc;  /* 'B' or 'S' for takes and puts */
    int8_t none, z, d, i, plen;
    int16_t k, oid, a, dst;
    int16_t path[4];
} CMove;

enum { SL_GAME, SL_BLOCKS, SL_STAIRS, SL_LORDS, SL_TURN, SL_DONE, SL_HAND, SL_PASSES,
       SL_HISTORY, SL_BOARD, SL_MOVES, SL_INDEX, SL_OUTCOME, SL_HASH, NSLOTS };
static const char *SLOT_NAMES[NSLOTS] = {"game", "blocks", "stairs", "lords", "turn", "done",
                                         "hand", "passes", "history", "_board", "_moves",
                                         "_index", "_outcome", "_hash"};

typedef struct {
    int stride, TH, nb, no, nstairs, nsq;
    int towers[2], shifts[4];
    u128 board, towermask, offb[4];
    Orient o[MAXO];
    int kfirst[MAXK], kcount[MAXK], tall[MAXK];
    PyTypeObject *vstate, *move_cls;
    PyObject *unset;
    Py_ssize_t slot[NSLOTS];
    PyObject **pb;  /* [oid][z][a] put-block moves (owned refs or NULL) */
    PyObject **pst; /* [z][d][i][a] put-stair moves */
    PyObject *tb[MAXK], *ts_none, *m_end, *m_pass;
    PyObject *s_T, *s_S, *s_L, *s_B;
    CMove *buf;
    int bufcap;
} PS;

static const char *CAPSULE = "tablier.games.voldetour._native.PieceSet";

static void ps_free(PS *ps) {
    if (!ps) return;
    if (ps->pb) {
        for (int i = 0; i < ps->no * ps->TH * NSQ; i++) Py_XDECREF(ps->pb[i]);
        PyMem_Free(ps->pb);
    }
    if (ps->pst) {
        for (int i = 0; i < ps->TH * 8 * NSQ; i++) Py_XDECREF(ps->pst[i]);
        PyMem_Free(ps->pst);
    }
    for (int k = 0; k < MAXK; k++) Py_XDECREF(ps->tb[k]);
    Py_XDECREF(ps->ts_none);
    Py_XDECREF(ps->m_end);
    Py_XDECREF(ps->m_pass);
    Py_XDECREF(ps->s_T);
    Py_XDECREF(ps->s_S);
    Py_XDECREF(ps->s_L);
    Py_XDECREF(ps->s_B);
    Py_XDECREF((PyObject *)ps->vstate);
    Py_XDECREF((PyObject *)ps->move_cls);
    Py_XDECREF(ps->unset);
    PyMem_Free(ps->buf);
    PyMem_Free(ps);
}

static void capsule_destructor(PyObject *cap) {
    ps_free((PS *)PyCapsule_GetPointer(cap, CAPSULE));
}

static PS *get_ps(PyObject *cap) {
    if (!PyCapsule_IsValid(cap, CAPSULE)) {
        PyErr_SetString(PyExc_TypeError, "expected a Voldetour piece-set capsule from init()");
        return NULL;
    }
    return (PS *)PyCapsule_GetPointer(cap, CAPSULE);
}

/* A Python int (0 <= value < 2**128) as a mask (public API only: read 64 bits at a time). */
static int to_mask(PyObject *v, u128 *out) {
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a mask must be an int");
        return -1;
    }
    PyObject *sixty_four = PyLong_FromLong(64), *hi = NULL, *rest = NULL;
    int ok = -1;
    if (!sixty_four) return -1;
    hi = PyLong_FromLong(0);
    if (!hi) goto done;
    int negative = PyObject_RichCompareBool(v, hi, Py_LT);
    Py_CLEAR(hi);
    if (negative < 0) goto done;
    if (negative) goto range;
    hi = PyNumber_Rshift(v, sixty_four);
    if (!hi) goto done;
    rest = PyNumber_Rshift(hi, sixty_four);
    if (!rest) goto done;
    if (PyObject_IsTrue(rest)) goto range;
    {
        unsigned long long lo = PyLong_AsUnsignedLongLongMask(v);
        unsigned long long h = PyLong_AsUnsignedLongLongMask(hi);
        if (PyErr_Occurred()) goto done;
        *out = ((u128)h << 64) | lo;
        ok = 0;
        goto done;
    }
range:
    PyErr_SetString(PyExc_ValueError, "mask out of range");
done:
    Py_DECREF(sixty_four);
    Py_XDECREF(hi);
    Py_XDECREF(rest);
    return ok;
}

static int get_int(PyObject *v, long lo, long hi, long *out, const char *what) {
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int", what);
        return -1;
    }
    int overflow = 0;
    long x = PyLong_AsLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (overflow || x < lo || x > hi) {
        PyErr_Format(PyExc_ValueError, "%s out of range", what);
        return -1;
    }
    *out = x;
    return 0;
}

/* A count that may be any size: at least lo; values beyond 2**62 read as 2**62 (only
 * compared with turn numbers, which are below that here). */
#define HUGE_COUNT ((long long)1 << 62)
static int get_count(PyObject *v, long long lo, long long *out, const char *what) {
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int", what);
        return -1;
    }
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (overflow < 0 || (!overflow && x < lo)) {
        PyErr_Format(PyExc_ValueError, "%s out of range", what);
        return -1;
    }
    *out = overflow > 0 || x > HUGE_COUNT ? HUGE_COUNT : x;
    return 0;
}

static inline int onboard(const PS *ps, int t) { return t >= 0 && t < NSQ && test(ps->board, t); }

/* init(vstate_type, unset, move_cls, stride, board, towers, tower_height, stairs,
 *      kinds, orientations, put_blocks, put_stairs, take_blocks, take_stair, end, pass)
 * kinds: [(first_oid, count, tall)]; orientations: [(kind, dz, base, offsets, anchors)];
 * put_blocks[oid][z][a], put_stairs[z][d][inv][a]: rules.put_tables. */
static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *vtype, *unset, *mcls, *boardo, *towers, *kinds, *orients, *tpb, *tps, *tbl,
        *tsn, *mend, *mpass;
    long stride, th, nst;
    if (!PyArg_ParseTuple(args, "O!OO!lOOllOOOOOOOO", &PyType_Type, &vtype, &unset,
                          &PyType_Type, &mcls, &stride, &boardo, &towers, &th, &nst, &kinds,
                          &orients, &tpb, &tps, &tbl, &tsn, &mend, &mpass))
        return NULL;
    if (!PyType_IsSubtype((PyTypeObject *)mcls, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "the move class must be a tuple subclass");
        return NULL;
    }
    u128 board;
    if (to_mask(boardo, &board) < 0) return NULL;
    if (!PyList_Check(kinds) || !PyList_Check(orients) || !PyTuple_Check(towers) ||
        PyTuple_GET_SIZE(towers) != 2 || !PyList_Check(tbl)) {
        PyErr_SetString(PyExc_TypeError, "bad piece-set tables");
        return NULL;
    }
    Py_ssize_t nb = PyList_GET_SIZE(kinds), no = PyList_GET_SIZE(orients);
    /* unsupported shapes: the pure engine plays them */
    if (stride < 2 || stride > 64 || th < 1 || th > MAXH || nst < 0 || nst > MAXS || nb < 1 ||
        nb > MAXK || no < 1 || no > MAXO || PyList_GET_SIZE(tbl) != nb)
        Py_RETURN_NONE;
    PS *ps = PyMem_Calloc(1, sizeof(PS));
    if (!ps) return PyErr_NoMemory();
    ps->stride = (int)stride;
    ps->TH = (int)th;
    ps->nstairs = (int)nst;
    ps->nb = (int)nb;
    ps->no = (int)no;
    ps->board = board;
    ps->nsq = popcount128(board);
    ps->shifts[0] = (int)stride;
    ps->shifts[1] = 1;
    ps->shifts[2] = -(int)stride;
    ps->shifts[3] = -1;
    /* shifting the lowest square down must stay at or above bit 0 */
    if (board & (bit((int)stride) - 1)) goto unsupported;
    for (int e = 0; e < 4; e++) {
        u128 m = board, off = 0;
        while (m) {
            int q = ctz128(m);
            m &= m - 1;
            if (!onboard(ps, q + ps->shifts[e])) off |= bit(q);
        }
        ps->offb[e] = off;
    }
    for (int p = 0; p < 2; p++) {
        long t;
        if (get_int(PyTuple_GET_ITEM(towers, p), 0, NSQ - 1, &t, "tower") < 0) goto fail;
        if (!test(board, (int)t)) goto unsupported;
        ps->towers[p] = (int)t;
        ps->towermask |= bit((int)t);
    }
    for (Py_ssize_t k = 0; k < nb; k++) {
        PyObject *it = PyList_GET_ITEM(kinds, k);
        long first, count, tall;
        if (!PyArg_ParseTuple(it, "lll", &first, &count, &tall)) goto fail;
        if (first < 0 || count < 1 || first + count > no) goto unsupported;
        ps->kfirst[k] = (int)first;
        ps->kcount[k] = (int)count;
        ps->tall[k] = tall != 0;
    }
    for (Py_ssize_t i = 0; i < no; i++) {
        PyObject *it = PyList_GET_ITEM(orients, i), *baseo, *offs, *anco;
        long kind, dz;
        if (!PyArg_ParseTuple(it, "llOOO", &kind, &dz, &baseo, &offs, &anco)) goto fail;
        Orient *o = &ps->o[i];
        if (kind < 0 || kind >= nb || dz < 1 || dz > th || !PyTuple_Check(offs) ||
            PyTuple_GET_SIZE(offs) > MAXOFF || PyTuple_GET_SIZE(offs) < 1)
            goto unsupported;
        o->kind = (int)kind;
        o->dz = (int)dz;
        o->noff = (int)PyTuple_GET_SIZE(offs);
        for (int j = 0; j < o->noff; j++) {
            long v;
            if (get_int(PyTuple_GET_ITEM(offs, j), 0, NSQ - 1, &v, "offset") < 0) goto fail;
            o->off[j] = (int)v;
        }
        if (to_mask(baseo, &o->base) < 0 || to_mask(anco, &o->anchors) < 0) goto fail;
        if (o->anchors & ~board) goto unsupported;
    }
    /* premade moves */
    ps->pb = PyMem_Calloc((size_t)no * th * NSQ, sizeof(PyObject *));
    ps->pst = PyMem_Calloc((size_t)th * 8 * NSQ, sizeof(PyObject *));
    if (!ps->pb || !ps->pst) {
        PyErr_NoMemory();
        goto fail;
    }
    if (!PyList_Check(tpb) || PyList_GET_SIZE(tpb) != no || !PyList_Check(tps) ||
        PyList_GET_SIZE(tps) != th) {
        PyErr_SetString(PyExc_TypeError, "bad put tables");
        goto fail;
    }
    for (int oid = 0; oid < no; oid++) {
        PyObject *lev = PyList_GET_ITEM(tpb, oid);
        if (!PyList_Check(lev) || PyList_GET_SIZE(lev) != th) goto badtab;
        for (int z = 0; z < th; z++) {
            PyObject *row = PyList_GET_ITEM(lev, z);
            if (!PyList_Check(row)) goto badtab;
            Py_ssize_t n = PyList_GET_SIZE(row);
            for (int a = 0; a < n && a < NSQ; a++) {
                PyObject *m = PyList_GET_ITEM(row, a);
                if (m != Py_None) ps->pb[(oid * th + z) * NSQ + a] = Py_NewRef(m);
            }
            /* every anchor must have its premade move */
            u128 an = ps->o[oid].anchors;
            while (an) {
                int a = ctz128(an);
                an &= an - 1;
                if (!ps->pb[(oid * th + z) * NSQ + a]) goto badtab;
            }
        }
    }
    for (int z = 0; z < th; z++) {
        PyObject *lev = PyList_GET_ITEM(tps, z);
        if (!PyList_Check(lev) || PyList_GET_SIZE(lev) < 4) goto badtab;
        for (int d = 0; d < 4; d++) {
            PyObject *pair = PyList_GET_ITEM(lev, d);
            if (!PyList_Check(pair) || PyList_GET_SIZE(pair) != 2) goto badtab;
            for (int i = 0; i < 2; i++) {
                PyObject *row = PyList_GET_ITEM(pair, i);
                if (!PyList_Check(row)) goto badtab;
                Py_ssize_t n = PyList_GET_SIZE(row);
                for (int a = 0; a < n && a < NSQ; a++)
                    ps->pst[((z * 4 + d) * 2 + i) * NSQ + a] = Py_NewRef(PyList_GET_ITEM(row, a));
                u128 m = board;
                while (m) {
                    int a = ctz128(m);
                    m &= m - 1;
                    if (!ps->pst[((z * 4 + d) * 2 + i) * NSQ + a]) goto badtab;
                }
            }
        }
    }
    for (int k = 0; k < nb; k++) ps->tb[k] = Py_NewRef(PyList_GET_ITEM(tbl, k));
    ps->ts_none = Py_NewRef(tsn);
    ps->m_end = Py_NewRef(mend);
    ps->m_pass = Py_NewRef(mpass);
    ps->vstate = (PyTypeObject *)Py_NewRef(vtype);
    ps->move_cls = (PyTypeObject *)Py_NewRef(mcls);
    ps->unset = Py_NewRef(unset);
    ps->s_T = PyUnicode_InternFromString("T");
    ps->s_S = PyUnicode_InternFromString("S");
    ps->s_L = PyUnicode_InternFromString("L");
    ps->s_B = PyUnicode_InternFromString("B");
    if (!ps->s_T || !ps->s_S || !ps->s_L || !ps->s_B) goto fail;
    /* slot offsets of VState */
    PyObject *dict = ((PyTypeObject *)vtype)->tp_dict;
    for (int i = 0; i < NSLOTS; i++) {
        PyObject *descr = PyDict_GetItemString(dict, SLOT_NAMES[i]);
        if (!descr || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
            PyErr_Format(PyExc_TypeError, "VState has no slot %s", SLOT_NAMES[i]);
            goto fail;
        }
        PyMemberDef *md = ((PyMemberDescrObject *)descr)->d_member;
        if (md->type != T_OBJECT_EX) {
            PyErr_Format(PyExc_TypeError, "VState slot %s is not an object slot", SLOT_NAMES[i]);
            goto fail;
        }
        ps->slot[i] = md->offset;
    }
    /* the largest decision list */
    {
        int most = 0;
        for (int k = 0; k < nb; k++) {
            int c = 0;
            for (int oid = ps->kfirst[k]; oid < ps->kfirst[k] + ps->kcount[k]; oid++)
                c += (ps->TH - ps->o[oid].dz + 1) * popcount128(ps->o[oid].anchors);
            if (c > most) most = c;
        }
        int stairs = ps->TH * ps->nsq * 8;
        if (stairs > most) most = stairs;
        int other = ps->nb + 1 + MAXS + ps->nsq + 2;
        if (other > most) most = other;
        ps->bufcap = most + 8;
        ps->buf = PyMem_Calloc((size_t)ps->bufcap, sizeof(CMove));
        if (!ps->buf) {
            PyErr_NoMemory();
            goto fail;
        }
    }
    {
        PyObject *cap = PyCapsule_New(ps, CAPSULE, capsule_destructor);
        if (!cap) goto fail;
        return cap;
    }
badtab:
    PyErr_SetString(PyExc_ValueError, "the put tables do not match the piece set");
fail:
    ps_free(ps);
    return NULL;
unsupported:
    ps_free(ps);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------------------ */
/* States                                                                                 */

typedef struct {
    int16_t oid, a, z; /* oid < 0: not on the board */
} BPl;

typedef struct {
    int16_t a;
    int8_t z, d, i;
} SPl;

typedef struct {
    BPl blk[2 * MAXK];
    int ns[2];
    SPl st[2][MAXS];
    int lords[2];
    long long turn;
    int done, passes;
    int htype; /* 0 none, 1 block, 2 stair */
    int hk, hprev;
    BPl hb;
    SPl hs;
    uint64_t *hist;
    Py_ssize_t nhist, histcap;
} St;

static inline int to_move(const St *s) { return (int)((s->turn - 1) & 1); }
static inline long long turns_completed(const St *s, int p) {
    return p == 0 ? s->turn / 2 : (s->turn - 1) / 2;
}

static inline PyObject *slot_get(const PS *ps, PyObject *obj, int i) {
    return *(PyObject **)((char *)obj + ps->slot[i]);
}

static inline void slot_set(const PS *ps, PyObject *obj, int i, PyObject *v) {
    PyObject **p = (PyObject **)((char *)obj + ps->slot[i]);
    PyObject *old = *p;
    *p = v; /* steals */
    Py_XDECREF(old);
}

/* items[0..2] = (oid, anchor, level) */
static int parse_bpl_items(const PS *ps, PyObject *const *items, BPl *out) {
    long oid, a, z;
    if (get_int(items[0], 0, ps->no - 1, &oid, "orientation") < 0 ||
        get_int(items[1], 0, NSQ - 1, &a, "anchor") < 0 ||
        get_int(items[2], 0, ps->TH - 1, &z, "level") < 0)
        return -1;
    if (!test(ps->o[oid].anchors, (int)a) || z + ps->o[oid].dz > ps->TH) {
        PyErr_SetString(PyExc_ValueError, "a block placement off the board or too high");
        return -1;
    }
    out->oid = (int16_t)oid;
    out->a = (int16_t)a;
    out->z = (int16_t)z;
    return 0;
}

static int parse_bpl(const PS *ps, PyObject *v, BPl *out) {
    if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != 3) {
        PyErr_SetString(PyExc_TypeError, "a block placement is a tuple (oid, anchor, level)");
        return -1;
    }
    return parse_bpl_items(ps, &PyTuple_GET_ITEM(v, 0), out);
}

/* items[0..3] = (square, level, direction, upside_down) */
static int parse_spl_items(const PS *ps, PyObject *const *items, SPl *out) {
    long a, z, d, i;
    if (get_int(items[0], 0, NSQ - 1, &a, "square") < 0 ||
        get_int(items[1], 0, ps->TH - 1, &z, "level") < 0 ||
        get_int(items[2], 0, 3, &d, "direction") < 0 ||
        get_int(items[3], 0, 1, &i, "upside_down") < 0)
        return -1;
    if (!test(ps->board, (int)a)) {
        PyErr_SetString(PyExc_ValueError, "a stair off the board");
        return -1;
    }
    out->a = (int16_t)a;
    out->z = (int8_t)z;
    out->d = (int8_t)d;
    out->i = (int8_t)i;
    return 0;
}

static int parse_spl(const PS *ps, PyObject *v, SPl *out) {
    if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != 4) {
        PyErr_SetString(PyExc_TypeError, "a stair placement is a tuple (square, level, dir, inv)");
        return -1;
    }
    return parse_spl_items(ps, &PyTuple_GET_ITEM(v, 0), out);
}

#define PARSE_OUTCOME 2 /* only what the outcome reads: Lords, turn, passes, history */

/* Read a VState into s.  With history (1 or PARSE_OUTCOME), s->hist is allocated (PyMem)
 * and must be freed. */
static int parse_state(const PS *ps, PyObject *state, St *s, int with_history) {
    if (!PyObject_TypeCheck(state, ps->vstate)) {
        PyErr_SetString(PyExc_TypeError, "expected a VState");
        return -1;
    }
    memset(s, 0, sizeof(St));
    PyObject *blocks = slot_get(ps, state, SL_BLOCKS), *stairs = slot_get(ps, state, SL_STAIRS);
    PyObject *lords = slot_get(ps, state, SL_LORDS), *turn = slot_get(ps, state, SL_TURN);
    PyObject *done = slot_get(ps, state, SL_DONE), *hand = slot_get(ps, state, SL_HAND);
    PyObject *passes = slot_get(ps, state, SL_PASSES);
    if (!blocks || !stairs || !lords || !turn || !done || !hand || !passes) {
        PyErr_SetString(PyExc_TypeError, "an incomplete VState");
        return -1;
    }
    int nb = ps->nb;
    if (with_history == PARSE_OUTCOME) goto lords;
    if (!PyTuple_Check(blocks) || PyTuple_GET_SIZE(blocks) != 2 * nb) {
        PyErr_SetString(PyExc_ValueError, "blocks must be a tuple with a place per block");
        return -1;
    }
    for (int j = 0; j < 2 * nb; j++) {
        PyObject *v = PyTuple_GET_ITEM(blocks, j);
        if (v == Py_None)
            s->blk[j].oid = -1;
        else if (parse_bpl(ps, v, &s->blk[j]) < 0)
            return -1;
    }
    if (!PyTuple_Check(stairs) || PyTuple_GET_SIZE(stairs) != 2) {
        PyErr_SetString(PyExc_ValueError, "stairs must be a pair of tuples");
        return -1;
    }
    for (int p = 0; p < 2; p++) {
        PyObject *side = PyTuple_GET_ITEM(stairs, p);
        if (!PyTuple_Check(side) || PyTuple_GET_SIZE(side) > MAXS) {
            PyErr_SetString(PyExc_ValueError, "too many stairs");
            return -1;
        }
        s->ns[p] = (int)PyTuple_GET_SIZE(side);
        for (int j = 0; j < s->ns[p]; j++)
            if (parse_spl(ps, PyTuple_GET_ITEM(side, j), &s->st[p][j]) < 0) return -1;
    }
lords:
    if (!PyTuple_Check(lords) || PyTuple_GET_SIZE(lords) != 2) {
        PyErr_SetString(PyExc_ValueError, "lords must be a pair of squares");
        return -1;
    }
    for (int p = 0; p < 2; p++) {
        long q;
        if (get_int(PyTuple_GET_ITEM(lords, p), 0, NSQ - 1, &q, "lord") < 0) return -1;
        if (!test(ps->board, (int)q)) {
            PyErr_SetString(PyExc_ValueError, "a Lord off the board");
            return -1;
        }
        s->lords[p] = (int)q;
    }
    long long t, pa;
    long dn;
    if (get_count(turn, 1, &t, "turn") < 0 || get_int(done, 0, 7, &dn, "done") < 0 ||
        get_count(passes, 0, &pa, "passes") < 0)
        return -1;
    if (t >= HUGE_COUNT) {
        PyErr_SetString(PyExc_OverflowError, "a turn number beyond the compiled core's range");
        return -1;
    }
    s->turn = t;
    s->done = (int)dn;
    s->passes = (int)(pa > 1000 ? 1000 : pa);
    if (hand != Py_None && with_history != PARSE_OUTCOME) {
        if (!PyTuple_Check(hand) || PyTuple_GET_SIZE(hand) < 2) goto badhand;
        PyObject *tag = PyTuple_GET_ITEM(hand, 0);
        if (!PyUnicode_Check(tag)) goto badhand;
        if (PyUnicode_CompareWithASCIIString(tag, "B") == 0 && PyTuple_GET_SIZE(hand) == 3) {
            long k;
            if (get_int(PyTuple_GET_ITEM(hand, 1), 0, nb - 1, &k, "block kind") < 0) return -1;
            s->htype = 1;
            s->hk = (int)k;
            PyObject *pv = PyTuple_GET_ITEM(hand, 2);
            if (pv != Py_None) {
                if (parse_bpl(ps, pv, &s->hb) < 0) return -1;
                s->hprev = 1;
            }
        } else if (PyUnicode_CompareWithASCIIString(tag, "S") == 0 && PyTuple_GET_SIZE(hand) == 2) {
            s->htype = 2;
            PyObject *pv = PyTuple_GET_ITEM(hand, 1);
            if (pv != Py_None) {
                if (parse_spl(ps, pv, &s->hs) < 0) return -1;
                s->hprev = 1;
            }
        } else
            goto badhand;
    }
    if (with_history) {
        PyObject *hist = slot_get(ps, state, SL_HISTORY);
        if (!hist || !PyTuple_Check(hist)) {
            PyErr_SetString(PyExc_ValueError, "history must be a tuple");
            return -1;
        }
        Py_ssize_t n = PyTuple_GET_SIZE(hist);
        s->histcap = n + 8;
        s->hist = PyMem_Malloc((size_t)s->histcap * sizeof(uint64_t));
        if (!s->hist) {
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t j = 0; j < n; j++) {
            PyObject *v = PyTuple_GET_ITEM(hist, j);
            if (!PyLong_Check(v)) {
                PyErr_SetString(PyExc_TypeError, "history keys are ints");
                goto histfail;
            }
            uint64_t x = PyLong_AsUnsignedLongLong(v);
            if (x == (uint64_t)-1 && PyErr_Occurred()) {
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError, "history key out of range");
                goto histfail;
            }
            s->hist[j] = x;
        }
        s->nhist = n;
    }
    return 0;
histfail:
    PyMem_Free(s->hist);
    s->hist = NULL;
    return -1;
badhand:
    PyErr_SetString(PyExc_ValueError, "bad hand");
    return -1;
}

/* ------------------------------------------------------------------------------------ */
/* Board                                                                                  */

typedef struct {
    u128 blk[MAXH], up[MAXH][4], inv[MAXH], occ[MAXH], full[MAXH];
    u128 flat[MAXH + 1], lflat[MAXH + 1], place[MAXH], slope[MAXH][4], lordmask;
} Bd;

static void derive(const PS *ps, Bd *b, int l0, int l1) {
    int H = ps->TH;
    for (int z = 0; z < H; z++) {
        b->occ[z] = b->blk[z] | b->up[z][0] | b->up[z][1] | b->up[z][2] | b->up[z][3];
        b->full[z] = b->blk[z] | b->inv[z];
    }
    b->flat[0] = ps->board & ~b->occ[0] & ~ps->towermask;
    for (int h = 1; h < H; h++) b->flat[h] = b->full[h - 1] & ~b->occ[h];
    b->flat[H] = b->full[H - 1];
    b->lordmask = bit(l0) | bit(l1);
    for (int h = 0; h < H; h++) b->lflat[h] = b->flat[h];
    b->lflat[H] = b->flat[H] | ps->towermask;
    for (int z = 0; z < H; z++) {
        b->place[z] = b->flat[z] & ~b->lordmask;
        for (int d = 0; d < 4; d++) b->slope[z][d] = b->up[z][d] & ~b->inv[z];
    }
}

/* The board of s, leaving out block index skip_b and stair (skip_p, skip_j) (-1: none). */
static void build_board(const PS *ps, const St *s, Bd *b, int skip_b, int skip_p, int skip_j) {
    int H = ps->TH;
    for (int z = 0; z < H; z++) {
        b->blk[z] = b->inv[z] = 0;
        b->up[z][0] = b->up[z][1] = b->up[z][2] = b->up[z][3] = 0;
    }
    for (int j = 0; j < 2 * ps->nb; j++) {
        const BPl *pl = &s->blk[j];
        if (pl->oid < 0 || j == skip_b) continue;
        const Orient *o = &ps->o[pl->oid];
        u128 fp = o->base << pl->a;
        for (int lev = pl->z; lev < pl->z + o->dz; lev++) b->blk[lev] |= fp;
    }
    for (int p = 0; p < 2; p++)
        for (int j = 0; j < s->ns[p]; j++) {
            if (p == skip_p && j == skip_j) continue;
            const SPl *st = &s->st[p][j];
            if (st->i)
                b->inv[st->z] |= bit(st->a);
            else
                b->up[st->z][st->d] |= bit(st->a);
        }
    derive(ps, b, s->lords[0], s->lords[1]);
}

static int height(const PS *ps, const Bd *b, int a) {
    for (int h = 0; h <= ps->TH; h++)
        if (test(b->lflat[h], a)) return h;
    return -1;
}

static inline u128 anchors_of(u128 place, const Orient *o) {
    u128 m = place & o->anchors;
    for (int j = 0; j < o->noff; j++) {
        if (!m) return 0;
        m &= place >> o->off[j];
    }
    return m;
}

static int block_fits(const PS *ps, const Bd *b, int k, const BPl *prev, u128 avoid) {
    for (int oid = ps->kfirst[k]; oid < ps->kfirst[k] + ps->kcount[k]; oid++) {
        const Orient *o = &ps->o[oid];
        u128 bad = 0;
        if (avoid)
            for (int j = 0; j < o->noff; j++) bad |= avoid >> o->off[j];
        for (int z = 0; z < ps->TH - o->dz + 1; z++) {
            u128 m = anchors_of(b->place[z], o) & ~bad;
            if (prev && prev->oid == oid && prev->z == z) m &= ~bit(prev->a);
            if (m) return 1;
        }
    }
    return 0;
}

static int stair_fits(const PS *ps, const Bd *b, const SPl *prev, u128 keep) {
    for (int z = 0; z < ps->TH; z++) {
        if (b->place[z] & keep) return 1;
        for (int d = 0; d < 4; d++) {
            u128 m = b->slope[z][d] & keep;
            if (prev && prev->z == z && prev->d == d && prev->i) m &= ~bit(prev->a);
            if (m) return 1;
        }
    }
    return 0;
}

static int block_blocked(const PS *ps, const Bd *b, const BPl *pl) {
    const Orient *o = &ps->o[pl->oid];
    u128 fp = o->base << pl->a;
    int z = pl->z, zt = z + o->dz;
    if ((fp & b->lordmask) || (zt < ps->TH && (b->occ[zt] & fp))) return 1;
    for (int e = 0; e < 4; e++) {
        if (fp & ps->offb[e]) return 0;
        u128 n = shift(fp, ps->shifts[e]);
        u128 ring = n & ~fp;
        int opp = (e + 2) & 3;
        for (int lev = z; lev < zt; lev++)
            if (ring & ~(b->full[lev] | b->up[lev][opp])) return 0;
    }
    return 1;
}

static int stair_blocked(const PS *ps, const Bd *b, const SPl *st) {
    int a = st->a, z = st->z, d = st->d;
    u128 bt = bit(a), full = b->full[z];
    const u128 *up = b->up[z];
    int fe[3];
    u128 hide[3];
    if (st->i) {
        if ((bt & b->lordmask) || (z + 1 < ps->TH && (b->occ[z + 1] & bt))) return 1;
        fe[0] = (d + 2) & 3;
        hide[0] = full | up[d];
        for (int j = 1; j < 3; j++) {
            int e = (d + (j == 1 ? 1 : 3)) & 3;
            fe[j] = e;
            hide[j] = full | up[(e + 2) & 3];
        }
    } else {
        if (b->inv[z] & bt) return 1;
        fe[0] = d;
        hide[0] = full | up[(d + 2) & 3];
        for (int j = 1; j < 3; j++) {
            int e = (d + (j == 1 ? 1 : 3)) & 3;
            fe[j] = e;
            hide[j] = full | up[(e + 2) & 3] | up[d];
        }
    }
    for (int j = 0; j < 3; j++) {
        u128 n = shift(bt, ps->shifts[fe[j]]);
        if (!(n & ps->board & hide[j])) return 0;
    }
    return 1;
}

/* One Lord step from q (flat at h) towards e: 1 and (*t, *th) where it lands, else 0. */
static int lord_step(const PS *ps, const Bd *b, int q, int h, int e, int *t_out, int *h_out) {
    int s = ps->shifts[e];
    int t = q + s;
    if (!onboard(ps, t)) return 0;
    if (test(b->lflat[h], t)) {
        *t_out = t;
        *h_out = h;
        return 1;
    }
    int cur = h, H = ps->TH, back = (e + 2) & 3;
    for (;;) {
        if (cur < H && test(b->slope[cur][e], t))
            cur++;
        else if (cur > 0 && test(b->slope[cur - 1][back], t))
            cur--;
        else
            return 0;
        t += s;
        if (!onboard(ps, t)) return 0;
        if (test(b->lflat[cur], t)) {
            *t_out = t;
            *h_out = cur;
            return 1;
        }
    }
}

static int lord_paths(const PS *ps, const St *s, const Bd *b, CMove *out) {
    int p = to_move(s), src = s->lords[p], other = s->lords[1 - p];
    int h0 = height(ps, b, src);
    if (h0 < 0) return 0;
    int parent[NSQ];
    for (int i = 0; i < NSQ; i++) parent[i] = -2;
    parent[src] = -1;
    int fq[NSQ], fh[NSQ], nq[NSQ], nh[NSQ], nf = 1;
    fq[0] = src;
    fh[0] = h0;
    for (int step = 0; step < 3; step++) {
        int nn = 0;
        for (int j = 0; j < nf; j++)
            for (int e = 0; e < 4; e++) {
                int t, th;
                if (!lord_step(ps, b, fq[j], fh[j], e, &t, &th)) continue;
                if (t == other || parent[t] != -2) continue;
                parent[t] = fq[j];
                nq[nn] = t;
                nh[nn] = th;
                nn++;
            }
        memcpy(fq, nq, sizeof(int) * nn);
        memcpy(fh, nh, sizeof(int) * nn);
        nf = nn;
    }
    int n = 0, own = ps->towers[p];
    for (int t = 0; t < NSQ; t++) {
        if (parent[t] == -2 || t == src || t == own) continue;
        int rev[4], len = 0, q = t;
        while (q != -1 && len < 4) {
            rev[len++] = q;
            q = parent[q];
        }
        CMove *m = &out[n++];
        memset(m, 0, sizeof(CMove));
        m->tag = 'L';
        m->plen = (int8_t)len;
        for (int j = 0; j < len; j++) m->path[j] = (int16_t)rev[len - 1 - j];
        m->dst = (int16_t)t;
    }
    return n;
}

static inline CMove *new_move(CMove *out, int *n, char tag, char pc) {
    CMove *m = &out[(*n)++];
    memset(m, 0, sizeof(CMove));
    m->tag = tag;
    m->pc = pc;
    return m;
}

static int puts_gen(const PS *ps, const St *s, const Bd *b, CMove *out) {
    int n = 0, H = ps->TH;
    if (s->htype == 1) {
        int k = s->hk;
        for (int oid = ps->kfirst[k]; oid < ps->kfirst[k] + ps->kcount[k]; oid++) {
            const Orient *o = &ps->o[oid];
            for (int z = 0; z < H - o->dz + 1; z++) {
                u128 m = anchors_of(b->place[z], o);
                if (s->hprev && s->hb.oid == oid && s->hb.z == z) m &= ~bit(s->hb.a);
                while (m) {
                    int a = ctz128(m);
                    m &= m - 1;
                    CMove *mv = new_move(out, &n, 'P', 'B');
                    mv->k = (int16_t)k;
                    mv->oid = (int16_t)oid;
                    mv->a = (int16_t)a;
                    mv->z = (int8_t)z;
                }
            }
        }
        return n;
    }
    for (int z = 0; z < H; z++) {
        u128 m = b->place[z];
        while (m) {
            int a = ctz128(m);
            m &= m - 1;
            for (int d = 0; d < 4; d++) {
                CMove *mv = new_move(out, &n, 'P', 'S');
                mv->a = (int16_t)a;
                mv->z = (int8_t)z;
                mv->d = (int8_t)d;
            }
        }
        for (int d = 0; d < 4; d++) {
            m = b->slope[z][d];
            while (m) {
                int a = ctz128(m);
                m &= m - 1;
                CMove *mv = new_move(out, &n, 'P', 'S');
                mv->a = (int16_t)a;
                mv->z = (int8_t)z;
                mv->d = (int8_t)d;
                mv->i = 1;
            }
        }
    }
    if (s->hprev) {
        const SPl *pv = &s->hs;
        for (int j = 0; j < n; j++) {
            CMove *mv = &out[j];
            if (mv->a == pv->a && mv->z == pv->z && mv->d == pv->d && mv->i == pv->i) {
                memmove(mv, mv + 1, sizeof(CMove) * (size_t)(n - j - 1));
                n--;
                break;
            }
        }
    }
    return n;
}

static int generate(const PS *ps, const St *s, const Bd *b, CMove *out) {
    if (s->htype) return puts_gen(ps, s, b, out);
    int n = 0, p = to_move(s), nb = ps->nb;
    if (!(s->done & BLOCK)) {
        for (int k = 0; k < nb; k++) {
            const BPl *pl = &s->blk[p * nb + k];
            if (pl->oid < 0) {
                if (block_fits(ps, b, k, NULL, 0)) new_move(out, &n, 'T', 'B')->k = (int16_t)k;
            } else if (!block_blocked(ps, b, pl)) {
                u128 fp = ps->o[pl->oid].base << pl->a;
                if (block_fits(ps, b, k, NULL, fp)) {
                    new_move(out, &n, 'T', 'B')->k = (int16_t)k;
                    continue;
                }
                Bd b2;
                build_board(ps, s, &b2, p * nb + k, -1, -1);
                if (block_fits(ps, &b2, k, pl, 0)) new_move(out, &n, 'T', 'B')->k = (int16_t)k;
            }
        }
    }
    if (!(s->done & STAIR)) {
        if (ps->nstairs - s->ns[p] > 0 && stair_fits(ps, b, NULL, ALL))
            new_move(out, &n, 'T', 'S')->none = 1;
        for (int j = 0; j < s->ns[p]; j++) {
            const SPl *st = &s->st[p][j];
            if (stair_blocked(ps, b, st)) continue;
            int ok = stair_fits(ps, b, NULL, ~bit(st->a));
            if (!ok) {
                Bd b2;
                build_board(ps, s, &b2, -1, p, j);
                ok = stair_fits(ps, &b2, st, ALL);
            }
            if (ok) {
                CMove *mv = new_move(out, &n, 'T', 'S');
                mv->a = st->a;
                mv->z = st->z;
                mv->d = st->d;
                mv->i = st->i;
            }
        }
    }
    n += lord_paths(ps, s, b, out + n);
    if (s->done)
        new_move(out, &n, 'E', 0);
    else if (!n)
        new_move(out, &n, 'X', 0);
    return n;
}

/* ------------------------------------------------------------------------------------ */
/* Applying, repetition keys, outcome                                                     */

/* Python's tuple hash (3.8+) of small ints, as _repetition_key computes it. */
#define XXPRIME_1 ((uint64_t)11400714785074694791ULL)
#define XXPRIME_2 ((uint64_t)14029467366897019727ULL)
#define XXPRIME_5 ((uint64_t)2870177450012600261ULL)

typedef struct {
    uint64_t acc;
    uint64_t len;
} TH_;

static inline void th_add(TH_ *h, long v) {
    uint64_t lane = (uint64_t)(int64_t)(v == -1 ? -2 : v);
    h->acc += lane * XXPRIME_2;
    h->acc = (h->acc << 31) | (h->acc >> 33);
    h->acc *= XXPRIME_1;
    h->len++;
}

static inline uint64_t th_end(TH_ *h) {
    uint64_t acc = h->acc + (h->len ^ (XXPRIME_5 ^ 3527539UL));
    if (acc == (uint64_t)-1) return 1546275796;
    return acc;
}

static uint64_t rep_key(const PS *ps, const St *s, int tm) {
    TH_ h = {XXPRIME_5, 0};
    th_add(&h, tm);
    th_add(&h, s->lords[0]);
    th_add(&h, s->lords[1]);
    for (int j = 0; j < 2 * ps->nb; j++) {
        const BPl *pl = &s->blk[j];
        if (pl->oid < 0) {
            th_add(&h, -1);
            th_add(&h, -1);
            th_add(&h, -1);
        } else {
            th_add(&h, pl->oid);
            th_add(&h, pl->a);
            th_add(&h, pl->z);
        }
    }
    for (int p = 0; p < 2; p++) {
        th_add(&h, -2);
        for (int j = 0; j < s->ns[p]; j++) {
            const SPl *st = &s->st[p][j];
            th_add(&h, st->a);
            th_add(&h, st->z);
            th_add(&h, st->d);
            th_add(&h, st->i);
        }
    }
    return th_end(&h);
}

static inline int spl_cmp(const SPl *x, const SPl *y) {
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    if (x->z != y->z) return x->z < y->z ? -1 : 1;
    if (x->d != y->d) return x->d < y->d ? -1 : 1;
    if (x->i != y->i) return x->i < y->i ? -1 : 1;
    return 0;
}

static int hist_push(St *s, uint64_t key, int reset) {
    if (reset) s->nhist = 0;
    if (s->nhist >= s->histcap) {
        Py_ssize_t cap = s->histcap * 2 + 16;
        uint64_t *h = PyMem_Realloc(s->hist, (size_t)cap * sizeof(uint64_t));
        if (!h) {
            PyErr_NoMemory();
            return -1;
        }
        s->hist = h;
        s->histcap = cap;
    }
    s->hist[s->nhist++] = key;
    return 0;
}

/* Apply a decision (checked for shape, not legality).  -1 with an exception set on error. */
static int apply_move(const PS *ps, St *s, const CMove *m, int repetition) {
    int p = to_move(s), nb = ps->nb;
    if (m->tag == 'T') {
        if (m->pc == 'B') {
            BPl *pl = &s->blk[p * nb + m->k];
            s->htype = 1;
            s->hk = m->k;
            s->hprev = pl->oid >= 0;
            s->hb = *pl;
            pl->oid = -1;
        } else {
            s->htype = 2;
            s->hprev = !m->none;
            if (!m->none) {
                SPl st = {m->a, m->z, m->d, m->i};
                s->hs = st;
                int w = 0;
                for (int j = 0; j < s->ns[p]; j++)
                    if (spl_cmp(&s->st[p][j], &st) != 0) s->st[p][w++] = s->st[p][j];
                s->ns[p] = w;
            }
        }
        return 0;
    }
    if (m->tag == 'P') {
        if (!s->htype) {
            PyErr_SetString(PyExc_ValueError, "a put with no piece in hand");
            return -1;
        }
        if (m->pc == 'B') {
            BPl *pl = &s->blk[p * nb + m->k];
            pl->oid = m->oid;
            pl->a = m->a;
            pl->z = m->z;
            int from_reserve = s->htype == 1 && !s->hprev;
            s->done |= BLOCK | (from_reserve ? FROM_RESERVE : 0);
        } else {
            if (s->ns[p] >= MAXS) {
                PyErr_SetString(PyExc_ValueError, "too many stairs");
                return -1;
            }
            SPl st = {m->a, m->z, m->d, m->i};
            int j = s->ns[p];
            while (j > 0 && spl_cmp(&s->st[p][j - 1], &st) > 0) {
                s->st[p][j] = s->st[p][j - 1];
                j--;
            }
            s->st[p][j] = st;
            s->ns[p]++;
            int from_reserve = s->htype == 2 && !s->hprev;
            s->done |= STAIR | (from_reserve ? FROM_RESERVE : 0);
        }
        s->htype = 0;
        s->hprev = 0;
        return 0;
    }
    int passes = 0;
    if (m->tag == 'L')
        s->lords[p] = m->dst;
    else if (m->tag == 'X')
        passes = s->passes + 1 > 1000 ? 1000 : s->passes + 1;
    s->passes = passes;
    if (repetition) {
        uint64_t key = rep_key(ps, s, (int)(s->turn & 1));
        if (hist_push(s, key, s->done & FROM_RESERVE) < 0) return -1;
    } else
        s->nhist = 0;
    s->turn++;
    s->done = 0;
    s->htype = 0;
    s->hprev = 0;
    return 0;
}

/* 0: not over; 1/2: Black/White on the enemy tower; 3/4: Black/White stayed on its tower
 * (the other wins); 5: no action; 6: repetition; 7: move limit. */
static int outcome_code(const PS *ps, const St *s, long long max_turns) {
    for (int p = 0; p < 2; p++)
        if (s->lords[p] == ps->towers[1 - p]) return 1 + p;
    for (int p = 0; p < 2; p++)
        if (s->lords[p] == ps->towers[p] && turns_completed(s, p) >= 3) return 3 + p;
    if (s->passes >= 2) return 5;
    if (s->nhist) {
        uint64_t last = s->hist[s->nhist - 1];
        int c = 0;
        for (Py_ssize_t j = 0; j < s->nhist; j++) c += s->hist[j] == last;
        if (c >= 3) return 6;
    }
    if (max_turns > 0 && s->turn > max_turns) return 7;
    return 0;
}

static double score0(int code) {
    switch (code) {
    case 1: return 1.0;
    case 2: return 0.0;
    case 3: return 0.0;
    case 4: return 1.0;
    default: return 0.5;
    }
}

/* ------------------------------------------------------------------------------------ */
/* Knowledge: path distance, evaluation, move prior                                       */

static inline int manhattan(const PS *ps, int a, int b) {
    int ca = a % ps->stride, ra = a / ps->stride, cb = b % ps->stride, rb = b / ps->stride;
    return abs(ca - cb) + abs(ra - rb);
}

static int nearest(const PS *ps, u128 foot, int target) {
    int best = 1 << 30;
    while (foot) {
        int q = ctz128(foot);
        foot &= foot - 1;
        int d = manhattan(ps, q, target);
        if (d < best) best = d;
    }
    return best;
}

/* ai._PILLAR: what raising a square to the towers' height adds to a step there, at most
   (a pillar stood up is one put; ai._set_pillar); negative: LEVEL per level, as below */
static double pillar_cost = -1.0;

/* ai._path_distance_pure; walls: squares the path may neither cross nor end on (0 in play) */
static int path_distance(const PS *ps, const St *s, const Bd *b, int player, u128 walls) {
    int H = ps->TH, target = ps->towers[1 - player], start = s->lords[player];
    u128 tbit = bit(target), board = ps->board;
    int h0 = height(ps, b, start);
    if (h0 < 0) return BLOCKED;
    u128 buildable[MAXH + 1];
    for (int k = 0; k <= H; k++) buildable[k] = b->flat[k] & ~ps->towermask;
    u128 slopes = 0;
    for (int z = 0; z < H; z++)
        for (int d = 0; d < 4; d++) slopes |= b->slope[z][d];
    u128 near_slope = 0;
    if (slopes) {
        near_slope = slopes;
        for (int e = 0; e < 4; e++) near_slope |= shift(slopes, ps->shifts[e]);
        near_slope &= board;
    }
    /* the virtual steps per height: (height reached, added cost, squares) */
    int vh[MAXH + 1][3 * (MAXH + 2)], vc[MAXH + 1][3 * (MAXH + 2)], nv[MAXH + 1];
    u128 vs[MAXH + 1][3 * (MAXH + 2)];
    for (int h = 0; h <= H; h++) {
        nv[h] = 0;
        for (int h2 = h - 1; h2 <= h + 1; h2++) {
            if (h2 < 0 || h2 > H) continue;
            int climb = h2 != h ? SLOPE : 0;
            for (int k = 0; k <= h2; k++) {
                if (buildable[k] && (climb || k < h2)) {
                    int raise = LEVEL * (h2 - k);
                    /* ai._PILLAR: at the towers' height, a square raised to it in one put */
                    if (h == H && h2 == H && pillar_cost >= 0 && raise > pillar_cost)
                        raise = (int)pillar_cost;
                    vh[h][nv[h]] = h2;
                    vc[h][nv[h]] = STEP + climb + raise;
                    vs[h][nv[h]] = buildable[k];
                    nv[h]++;
                }
            }
        }
    }
    u128 seen[MAXH + 1], ring[RING][MAXH + 1];
    int present[RING], live = 1;
    walls &= ~bit(start);
    for (int h = 0; h <= MAXH; h++) seen[h] = walls;
    memset(ring, 0, sizeof(ring));
    memset(present, 0, sizeof(present));
    ring[0][h0] = bit(start);
    present[0] = 1;
#define PUSH(c, hh, mask)                                                                    \
    do {                                                                                     \
        int sl_ = (c) & (RING - 1);                                                          \
        if (!present[sl_]) {                                                                 \
            present[sl_] = 1;                                                                \
            live++;                                                                          \
        }                                                                                    \
        ring[sl_][hh] |= (mask);                                                             \
    } while (0)
    for (int cost = 0; live > 0; cost++) {
        int slot = cost & (RING - 1);
        if (!present[slot]) continue;
        u128 cur[MAXH + 1];
        memcpy(cur, ring[slot], sizeof(u128) * (H + 1));
        memset(ring[slot], 0, sizeof(u128) * (H + 1));
        present[slot] = 0;
        live--;
        for (int h = 0; h <= H; h++) {
            u128 nw = cur[h] & ~seen[h];
            if (!nw) continue;
            seen[h] |= nw;
            if (h == H && (nw & tbit)) return cost;
            u128 nb = 0;
            for (int e = 0; e < 4; e++) nb |= shift(nw, ps->shifts[e]);
            nb &= board;
            u128 real = nb & b->lflat[h] & ~seen[h];
            if (real) PUSH(cost + STEP, h, real);
            u128 qb = nw & near_slope;
            while (qb) {
                int q = ctz128(qb);
                qb &= qb - 1;
                for (int e = 0; e < 4; e++) {
                    int t, th;
                    if (lord_step(ps, b, q, h, e, &t, &th)) PUSH(cost + STEP, th, bit(t));
                }
            }
            for (int j = 0; j < nv[h]; j++) {
                u128 cells = nb & vs[h][j] & ~seen[vh[h][j]];
                if (cells) PUSH(cost + vc[h][j], vh[h][j], cells);
            }
            if (h == H - 1 && (nb & tbit)) PUSH(cost + STEP + SLOPE, H, tbit);
        }
    }
#undef PUSH
    return BLOCKED;
}

/* ai._stuck: leaving the tower is urgent; a Lord idling next to it pays HOME */
static double stuck(const PS *ps, const St *s, int player) {
    if (s->lords[player] != ps->towers[player])
        return manhattan(ps, s->lords[player], ps->towers[player]) == 1 ? 0.1 : 0.0;
    return 0.6 * (double)(1 + turns_completed(s, player)) / 3;
}

/* ai._LORD: ai.py sets it when it loads this core (and ai._set_lord_weight, for the
   benchmarks that compare weights) */
static double lord_weight = 2.0;

/* ai._TEMPO: the side to move's lead in the race for its turn under way (ai._set_tempo) */
static double tempo = 0.0;

/* ai._PIN: what a Lord at the towers' height with none of its pillars free costs in the race
   (ai._set_pin) */
static double pin_weight = 0.0;

/* ai._pinned: the player's Lord at the towers' height, and each of its pillars (the block
   kinds as tall as the tower) placed and blocked (under a Lord, covered or enclosed) */
static int pinned(const PS *ps, const St *s, const Bd *b, int player) {
    if (height(ps, b, s->lords[player]) != ps->TH) return 0;
    int nb = ps->nb;
    for (int k = 0; k < nb; k++) {
        if (!ps->tall[k]) continue;
        const BPl *pl = &s->blk[player * nb + k];
        if (pl->oid < 0 || !block_blocked(ps, b, pl)) return 0;
    }
    return 1;
}

/* ai._near: a path distance on a scale where a step near the goal counts more */
static double near_scale(int d) {
    return sqrt(40.0 * (d < 40 ? d : 40));
}

static double evaluate(const PS *ps, const St *s, const Bd *b) {
    int p = to_move(s);
    int d1 = path_distance(ps, s, b, 1 - p, 0), d0 = path_distance(ps, s, b, p, 0);
    double race = near_scale(d1) - near_scale(d0);
    /* ai._LORD: the Lords' own squares to the enemy tower count beside the path distances */
    race += lord_weight * (manhattan(ps, s->lords[1 - p], ps->towers[p]) -
                           manhattan(ps, s->lords[p], ps->towers[1 - p]));
    race += tempo;
    if (pin_weight != 0.0) race += pin_weight * (pinned(ps, s, b, 1 - p) - pinned(ps, s, b, p));
    double st = stuck(ps, s, 1 - p) - stuck(ps, s, p);
    double value = 0.5 * tanh(0.2 * race + st) + 0.5 * race / 40 + 0.5 * st;
    return value < -1.0 ? -1.0 : value > 1.0 ? 1.0 : value;
}

typedef struct {
    int p, lord, target, before, on_tower, lord_height;
    u128 near;
} PriorCtx;

static void prior_ctx(const PS *ps, const St *s, const Bd *b, PriorCtx *c) {
    c->p = to_move(s);
    c->lord = s->lords[c->p];
    c->target = ps->towers[1 - c->p];
    c->before = manhattan(ps, c->lord, c->target);
    c->on_tower = c->lord == ps->towers[c->p];
    c->lord_height = height(ps, b, c->lord);
    u128 near = 0;
    for (int e = 0; e < 4; e++) near |= shift(bit(c->lord), ps->shifts[e]);
    c->near = near & ps->board;
}

static double prior_of(const PS *ps, const St *s, const PriorCtx *c, const CMove *m) {
    if (m->tag == 'L') {
        int gain = c->before - manhattan(ps, m->dst, c->target);
        double v = (c->on_tower ? 2.0 : 1.0) + 0.5 * gain;
        return v > 0.1 ? v : 0.1;
    }
    if (m->tag == 'P' && m->pc == 'B') {
        const Orient *o = &ps->o[m->oid];
        u128 foot = o->base << m->a;
        if (c->lord_height >= 0 && m->z + o->dz == c->lord_height && (foot & c->near))
            return nearest(ps, foot, c->target) < c->before ? 4.0 : 1.5;
        return 0.5;
    }
    if (m->tag == 'T' && m->pc == 'B') {
        const BPl *pl = &s->blk[c->p * ps->nb + m->k];
        if (pl->oid < 0) return ps->tall[m->k] ? 1.5 : 0.6;
        u128 foot = ps->o[pl->oid].base << pl->a;
        return nearest(ps, foot, c->target) >= c->before ? 1.5 : 0.3;
    }
    if (m->tag == 'T' || m->tag == 'P') return 0.6;
    if (m->tag == 'E') return 0.3;
    return 0.1;
}

/* ------------------------------------------------------------------------------------ */
/* Moves between C and Python                                                             */

static PyObject *new_tuple_of(PyTypeObject *cls, Py_ssize_t n, PyObject **items) {
    /* steals the items (all non-NULL) */
    PyObject *t = cls == &PyTuple_Type ? PyTuple_New(n) : cls->tp_alloc(cls, n);
    if (!t) {
        for (Py_ssize_t i = 0; i < n; i++) Py_DECREF(items[i]);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, items[i]);
    return t;
}

static PyObject *ints_tuple(int n, const long *v) {
    PyObject *items[8];
    for (int i = 0; i < n; i++) {
        items[i] = PyLong_FromLong(v[i]);
        if (!items[i]) {
            for (int j = 0; j < i; j++) Py_DECREF(items[j]);
            return NULL;
        }
    }
    return new_tuple_of(&PyTuple_Type, n, items);
}

static PyObject *spl_tuple(const SPl *st) {
    long v[4] = {st->a, st->z, st->d, st->i};
    return ints_tuple(4, v);
}

static PyObject *to_py(const PS *ps, const CMove *m) {
    PyObject *items[3];
    switch (m->tag) {
    case 'T':
        if (m->pc == 'B') return Py_NewRef(ps->tb[m->k]);
        if (m->none) return Py_NewRef(ps->ts_none);
        {
            SPl st = {m->a, m->z, m->d, m->i};
            items[2] = spl_tuple(&st);
            if (!items[2]) return NULL;
            items[0] = Py_NewRef(ps->s_T);
            items[1] = Py_NewRef(ps->s_S);
            return new_tuple_of(ps->move_cls, 3, items);
        }
    case 'P':
        if (m->pc == 'B') return Py_NewRef(ps->pb[(m->oid * ps->TH + m->z) * NSQ + m->a]);
        return Py_NewRef(ps->pst[((m->z * 4 + m->d) * 2 + m->i) * NSQ + m->a]);
    case 'L': {
        long v[4];
        for (int j = 0; j < m->plen; j++) v[j] = m->path[j];
        items[1] = ints_tuple(m->plen, v);
        if (!items[1]) return NULL;
        items[0] = Py_NewRef(ps->s_L);
        return new_tuple_of(ps->move_cls, 2, items);
    }
    case 'E':
        return Py_NewRef(ps->m_end);
    default:
        return Py_NewRef(ps->m_pass);
    }
}

static PyObject *moves_list(const PS *ps, const CMove *buf, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int j = 0; j < n; j++) {
        PyObject *m = to_py(ps, &buf[j]);
        if (!m) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, j, m);
    }
    return list;
}

static int tag_of(PyObject *v, const char *allowed) {
    if (!PyUnicode_Check(v) || PyUnicode_GET_LENGTH(v) != 1) return 0;
    Py_UCS4 c = PyUnicode_READ_CHAR(v, 0);
    for (const char *p = allowed; *p; p++)
        if ((Py_UCS4)*p == c) return (int)c;
    return 0;
}

/* A decision key (tuple) as a CMove, checked for shape and ranges. */
static int parse_move(const PS *ps, PyObject *mv, CMove *m) {
    memset(m, 0, sizeof(CMove));
    if (!PyTuple_Check(mv) || PyTuple_GET_SIZE(mv) < 1) {
        PyErr_SetString(PyExc_TypeError, "a move is a tuple key");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(mv);
    int tag = tag_of(PyTuple_GET_ITEM(mv, 0), "TPLEX");
    if (!tag) goto bad;
    m->tag = (char)tag;
    long v;
    if (tag == 'T' || tag == 'P') {
        if (n < 3) goto bad;
        int pc = tag_of(PyTuple_GET_ITEM(mv, 1), "BS");
        if (!pc) goto bad;
        m->pc = (char)pc;
        if (tag == 'T' && pc == 'B') {
            if (n != 3 || get_int(PyTuple_GET_ITEM(mv, 2), 0, ps->nb - 1, &v, "block kind") < 0)
                goto badv;
            m->k = (int16_t)v;
        } else if (tag == 'T') {
            if (n != 3) goto bad;
            PyObject *st = PyTuple_GET_ITEM(mv, 2);
            if (st == Py_None)
                m->none = 1;
            else {
                SPl sp;
                if (parse_spl(ps, st, &sp) < 0) return -1;
                m->a = sp.a;
                m->z = sp.z;
                m->d = sp.d;
                m->i = sp.i;
            }
        } else if (pc == 'B') {
            if (n != 6) goto bad;
            long k;
            if (get_int(PyTuple_GET_ITEM(mv, 2), 0, ps->nb - 1, &k, "block kind") < 0) return -1;
            BPl b;
            if (parse_bpl_items(ps, &PyTuple_GET_ITEM(mv, 3), &b) < 0) return -1;
            if (ps->o[b.oid].kind != k) {
                PyErr_SetString(PyExc_ValueError, "the orientation is not of that block");
                return -1;
            }
            m->k = (int16_t)k;
            m->oid = b.oid;
            m->a = b.a;
            m->z = (int8_t)b.z;
        } else {
            if (n != 6) goto bad;
            SPl sp;
            if (parse_spl_items(ps, &PyTuple_GET_ITEM(mv, 2), &sp) < 0) return -1;
            m->a = sp.a;
            m->z = sp.z;
            m->d = sp.d;
            m->i = sp.i;
        }
        return 0;
    }
    if (tag == 'L') {
        if (n != 2) goto bad;
        PyObject *path = PyTuple_GET_ITEM(mv, 1);
        if (!PyTuple_Check(path) || PyTuple_GET_SIZE(path) < 1) goto bad;
        Py_ssize_t len = PyTuple_GET_SIZE(path);
        for (Py_ssize_t j = 0; j < len; j++) {
            if (get_int(PyTuple_GET_ITEM(path, j), 0, NSQ - 1, &v, "square") < 0) return -1;
            if (!test(ps->board, (int)v)) {
                PyErr_SetString(PyExc_ValueError, "a square off the board");
                return -1;
            }
            if (j < 4) m->path[j] = (int16_t)v;
        }
        m->plen = (int8_t)(len < 4 ? len : 4);
        m->dst = (int16_t)v;
        return 0;
    }
    if (n != 1) goto bad;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "not a Voldetour decision key");
    return -1;
badv:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "not a Voldetour decision key");
    return -1;
}

/* ------------------------------------------------------------------------------------ */
/* Entry points                                                                           */

static PyObject *py_generate(PyObject *self, PyObject *args) {
    PyObject *cap, *state;
    if (!PyArg_ParseTuple(args, "OO", &cap, &state)) return NULL;
    PS *ps = get_ps(cap);
    if (!ps) return NULL;
    St s;
    Bd b;
    if (parse_state(ps, state, &s, 0) < 0) return NULL;
    build_board(ps, &s, &b, -1, -1, -1);
    int n = generate(ps, &s, &b, ps->buf);
    return moves_list(ps, ps->buf, n);
}

static PyObject *py_outcome(PyObject *self, PyObject *args) {
    PyObject *cap, *state;
    PyObject *mt;
    long long max_turns;
    if (!PyArg_ParseTuple(args, "OOO", &cap, &state, &mt)) return NULL;
    if (get_count(mt, 0, &max_turns, "max_turns") < 0) return NULL;
    PS *ps = get_ps(cap);
    if (!ps) return NULL;
    St s;
    if (parse_state(ps, state, &s, PARSE_OUTCOME) < 0) return NULL;
    int code = outcome_code(ps, &s, max_turns);
    PyMem_Free(s.hist);
    return PyLong_FromLong(code);
}

static PyObject *py_repetition_key(PyObject *self, PyObject *args) {
    PyObject *cap, *state;
    if (!PyArg_ParseTuple(args, "OO", &cap, &state)) return NULL;
    PS *ps = get_ps(cap);
    if (!ps) return NULL;
    St s;
    if (parse_state(ps, state, &s, 0) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(rep_key(ps, &s, to_move(&s)));
}

/* A new VState from its fields (references stolen; NULL fields: error already set). */
static PyObject *make_state(const PS *ps, PyObject *game, PyObject *blocks, PyObject *stairs,
                            PyObject *lords, PyObject *turn, PyObject *done, PyObject *hand,
                            PyObject *passes, PyObject *history) {
    PyObject *f[9] = {game, blocks, stairs, lords, turn, done, hand, passes, history};
    PyObject *st = NULL;
    for (int i = 0; i < 9; i++)
        if (!f[i]) goto fail;
    st = ps->vstate->tp_alloc(ps->vstate, 0);
    if (!st) goto fail;
    for (int i = 0; i < 9; i++) slot_set(ps, st, SL_GAME + i, f[i]);
    slot_set(ps, st, SL_BOARD, Py_NewRef(Py_None));
    slot_set(ps, st, SL_MOVES, Py_NewRef(Py_None));
    slot_set(ps, st, SL_INDEX, Py_NewRef(Py_None));
    slot_set(ps, st, SL_OUTCOME, Py_NewRef(ps->unset));
    slot_set(ps, st, SL_HASH, Py_NewRef(Py_None));
    return st;
fail:
    for (int i = 0; i < 9; i++) Py_XDECREF(f[i]);
    return NULL;
}

static PyObject *tuple_replace(PyObject *t, Py_ssize_t j, PyObject *v) {
    /* a copy of tuple t with item j replaced by v (stolen) */
    if (!v) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    PyObject *r = PyTuple_New(n);
    if (!r) {
        Py_DECREF(v);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        PyTuple_SET_ITEM(r, i, i == j ? v : Py_NewRef(PyTuple_GET_ITEM(t, i)));
    return r;
}

static PyObject *py_apply(PyObject *self, PyObject *args) {
    PyObject *cap, *state, *mv;
    int repetition;
    PyObject *mt;
    long long max_turns;
    if (!PyArg_ParseTuple(args, "OOOpO", &cap, &state, &mv, &repetition, &mt)) return NULL;
    if (get_count(mt, 0, &max_turns, "max_turns") < 0) return NULL;
    PS *ps = get_ps(cap);
    if (!ps) return NULL;
    St s;
    CMove m;
    if (parse_state(ps, state, &s, 1) < 0) return NULL;
    if (parse_move(ps, mv, &m) < 0) goto fail;
    int p = to_move(&s), nb = ps->nb, old_done = s.done;
    if (apply_move(ps, &s, &m, repetition) < 0) goto fail;
    int over = outcome_code(ps, &s, max_turns) != 0;
    PyObject *blocks = slot_get(ps, state, SL_BLOCKS), *stairs = slot_get(ps, state, SL_STAIRS);
    PyObject *lords = slot_get(ps, state, SL_LORDS), *hist = slot_get(ps, state, SL_HISTORY);
    PyObject *nblocks, *nstairs, *nlords, *nhand, *nhist;
    /* blocks */
    if (m.pc == 'B' && m.tag == 'T' && s.hprev)
        nblocks = tuple_replace(blocks, p * nb + m.k, Py_NewRef(Py_None));
    else if (m.pc == 'B' && m.tag == 'P') {
        long v[3] = {m.oid, m.a, m.z};
        nblocks = tuple_replace(blocks, p * nb + m.k, ints_tuple(3, v));
    } else
        nblocks = Py_NewRef(blocks);
    /* stairs */
    if (m.pc == 'S' && ((m.tag == 'T' && !m.none) || m.tag == 'P')) {
        PyObject *side = PyTuple_New(s.ns[p]);
        if (side) {
            PyObject *old = PyTuple_GET_ITEM(stairs, p);
            Py_ssize_t on = PyTuple_GET_SIZE(old), oi = 0;
            for (int j = 0; j < s.ns[p]; j++) {
                /* reuse the old tuples; the new stair (a put) is built */
                PyObject *it = NULL;
                while (oi < on) {
                    SPl x;
                    parse_spl(ps, PyTuple_GET_ITEM(old, oi), &x); /* checked before */
                    if (spl_cmp(&x, &s.st[p][j]) == 0) {
                        it = Py_NewRef(PyTuple_GET_ITEM(old, oi++));
                        break;
                    }
                    if (m.tag == 'T') {
                        oi++;
                        continue;
                    }
                    break;
                }
                if (!it) it = spl_tuple(&s.st[p][j]);
                if (!it) {
                    Py_CLEAR(side);
                    break;
                }
                PyTuple_SET_ITEM(side, j, it);
            }
        }
        nstairs = tuple_replace(stairs, p, side);
    } else
        nstairs = Py_NewRef(stairs);
    /* lords */
    if (m.tag == 'L')
        nlords = tuple_replace(lords, p, PyLong_FromLong(m.dst));
    else
        nlords = Py_NewRef(lords);
    /* hand */
    if (m.tag == 'T' && m.pc == 'B') {
        PyObject *items[3] = {Py_NewRef(ps->s_B), PyLong_FromLong(m.k),
                              Py_NewRef(PyTuple_GET_ITEM(blocks, p * nb + m.k))};
        if (!items[1]) {
            Py_DECREF(items[0]);
            Py_DECREF(items[2]);
            nhand = NULL;
        } else
            nhand = new_tuple_of(&PyTuple_Type, 3, items);
    } else if (m.tag == 'T') {
        PyObject *items[2] = {Py_NewRef(ps->s_S), Py_NewRef(PyTuple_GET_ITEM(mv, 2))};
        nhand = new_tuple_of(&PyTuple_Type, 2, items);
    } else
        nhand = Py_NewRef(Py_None);
    /* history */
    if (m.tag == 'T' || m.tag == 'P')
        nhist = Py_NewRef(hist);
    else if (!repetition)
        nhist = PyTuple_New(0);
    else {
        PyObject *key = PyLong_FromUnsignedLongLong(s.hist[s.nhist - 1]);
        if (!key)
            nhist = NULL;
        else if (old_done & FROM_RESERVE)
            nhist = PyTuple_Pack(1, key);
        else {
            Py_ssize_t n = PyTuple_GET_SIZE(hist);
            nhist = PyTuple_New(n + 1);
            if (nhist) {
                for (Py_ssize_t j = 0; j < n; j++)
                    PyTuple_SET_ITEM(nhist, j, Py_NewRef(PyTuple_GET_ITEM(hist, j)));
                PyTuple_SET_ITEM(nhist, n, Py_NewRef(key));
            }
        }
        Py_XDECREF(key);
    }
    PyMem_Free(s.hist);
    PyObject *turn, *done, *passes;
    if (m.tag == 'T' || m.tag == 'P') {
        turn = Py_NewRef(slot_get(ps, state, SL_TURN));
        passes = Py_NewRef(slot_get(ps, state, SL_PASSES));
    } else {
        turn = PyLong_FromLongLong(s.turn);
        passes = PyLong_FromLong(s.passes);
    }
    done = PyLong_FromLong(s.done);
    PyObject *next = make_state(ps, Py_NewRef(slot_get(ps, state, SL_GAME)), nblocks, nstairs,
                                nlords, turn, done, nhand, passes, nhist);
    /* a game that goes on has its outcome known now; an end is worded by rules.py */
    if (next && !over) slot_set(ps, next, SL_OUTCOME, Py_NewRef(Py_None));
    return next;
fail:
    PyMem_Free(s.hist);
    return NULL;
}

static PyObject *py_move_prior(PyObject *self, PyObject *args) {
    PyObject *cap, *state, *moves;
    if (!PyArg_ParseTuple(args, "OOO", &cap, &state, &moves)) return NULL;
    PS *ps = get_ps(cap);
    if (!ps) return NULL;
    St s;
    Bd b;
    if (parse_state(ps, state, &s, 0) < 0) return NULL;
    PyObject *seq = PySequence_Fast(moves, "moves must be a sequence");
    if (!seq) return NULL;
    build_board(ps, &s, &b, -1, -1, -1);
    PriorCtx c;
    prior_ctx(ps, &s, &b, &c);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(n);
    if (!out) goto fail;
    for (Py_ssize_t j = 0; j < n; j++) {
        CMove m;
        if (parse_move(ps, PySequence_Fast_GET_ITEM(seq, j), &m) < 0) goto fail;
        PyObject *f = PyFloat_FromDouble(prior_of(ps, &s, &c, &m));
        if (!f) goto fail;
        PyList_SET_ITEM(out, j, f);
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_XDECREF(out);
    Py_DECREF(seq);
    return NULL;
}

static PyObject *py_evaluate(PyObject *self, PyObject *args) {
    PyObject *cap, *state;
    if (!PyArg_ParseTuple(args, "OO", &cap, &state)) return NULL;
    PS *ps = get_ps(cap);
    if (!ps) return NULL;
    St s;
    Bd b;
    if (parse_state(ps, state, &s, 0) < 0) return NULL;
    build_board(ps, &s, &b, -1, -1, -1);
    return PyFloat_FromDouble(evaluate(ps, &s, &b));
}

static PyObject *py_path_distance(PyObject *self, PyObject *args) {
    PyObject *cap, *state, *wallso = NULL;
    int player;
    if (!PyArg_ParseTuple(args, "OOi|O", &cap, &state, &player, &wallso)) return NULL;
    PS *ps = get_ps(cap);
    if (!ps) return NULL;
    if (player != 0 && player != 1) {
        PyErr_SetString(PyExc_ValueError, "player must be 0 or 1");
        return NULL;
    }
    u128 walls = 0;
    if (wallso && to_mask(wallso, &walls) < 0) return NULL;
    St s;
    Bd b;
    if (parse_state(ps, state, &s, 0) < 0) return NULL;
    build_board(ps, &s, &b, -1, -1, -1);
    return PyLong_FromLong(path_distance(ps, &s, &b, player, walls & ps->board));
}

/* ------------------------------------------------------------------------------------ */
/* Proof search (core/_native_proof.h), with the repetition history when the option is on */

/* The keys of the turns ended on the line from the root, a stack shared by the
 * depth-first search: a position's own key (when its last decision ended a turn) sits at
 * its parent's top, above its ancestors'; at most one a decision. */
#define VPATH 16

typedef struct {
    const PS *ps;
    long long max_turns;
    int repetition;
    const uint64_t *root; /* the root's history, sorted */
    Py_ssize_t nroot;
    uint64_t *path; /* VPATH keys */
} VProof;

typedef struct {
    St s;          /* s.hist stays NULL: the history is the root's + path[base..top) */
    int base, top; /* an irreversible turn (a piece from a reserve) starts it again */
    int root_on;   /* 0 once such a turn ended on the line: the root's history is gone */
    int rep_draw;  /* the last key came a third time: a draw by repetition */
} VPos;

typedef const VProof *PROOF_GAME;
typedef VPos PROOF_POS;
typedef CMove PROOF_MOVE;
typedef CMove PROOF_BUF; /* ps->bufcap of them */

/* How many times key is in the sorted keys[0..n). */
static Py_ssize_t sorted_count(const uint64_t *keys, Py_ssize_t n, uint64_t key) {
    Py_ssize_t lo = 0, hi = n;
    while (lo < hi) { /* the first >= key */
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    Py_ssize_t c = 0;
    while (lo + c < n && keys[lo + c] == key) c++;
    return c;
}

static inline int proof_over(const VProof *g, const VPos *p, int *winner) {
    switch (outcome_code(g->ps, &p->s, g->max_turns)) { /* (s.nhist 0: no repetition) */
    case 0:
        if (!p->rep_draw) return 0;
        *winner = -1; /* the third time a position starts a turn: a draw */
        return 1;
    case 1: /* Black on the enemy tower */
    case 4: /* White stayed on its own */
        *winner = 0;
        return 1;
    case 2:
    case 3:
        *winner = 1;
        return 1;
    default: /* no action, turn limit: draws */
        *winner = -1;
        return 1;
    }
}

static inline int proof_mover(const VPos *p) { return to_move(&p->s); }

static inline CMove *proof_moves(const VProof *g, const VPos *p, CMove *buf, int *n) {
    Bd b;
    build_board(g->ps, &p->s, &b, -1, -1, -1);
    *n = generate(g->ps, &p->s, &b, buf);
    return buf;
}

static inline void proof_play(const VProof *g, const VPos *p, const CMove *m, VPos *out) {
    *out = *p;
    /* Without a history nothing is allocated, and a generated decision always applies. */
    (void)apply_move(g->ps, &out->s, m, 0);
    if (!g->repetition || out->s.turn == p->s.turn) return; /* the turn goes on */
    /* the turn ended: its key joins the history (alone after an irreversible turn) */
    uint64_t key = rep_key(g->ps, &out->s, to_move(&out->s));
    if (p->s.done & FROM_RESERVE) {
        out->base = p->top;
        out->root_on = 0;
    }
    g->path[out->top++] = key;
    Py_ssize_t c = out->root_on ? sorted_count(g->root, g->nroot, key) : 0;
    for (int j = out->base; j < out->top; j++) c += g->path[j] == key;
    out->rep_draw = c >= 3;
}

static inline int proof_same(const CMove *a, const CMove *b) {
    return memcmp(a, b, sizeof(CMove)) == 0; /* generated moves are zeroed first */
}

static inline CMove *proof_buf_new(const VProof *g) {
    return PyMem_Malloc(sizeof(CMove) * (size_t)g->ps->bufcap);
}

static inline void proof_buf_free(CMove *buf) { PyMem_Free(buf); }

#include "_native_proof.h"

_Static_assert(PROOF_MAX_DEPTH < VPATH, "a path key for every decision");

static int key_order(const void *x, const void *y) {
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* prove(cap, max_turns, repetition, state, attacker, depth, max_nodes, max_seconds) */
static PyObject *py_prove(PyObject *self, PyObject *args) {
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n != 8) {
        PyErr_Format(PyExc_TypeError, "prove() takes 8 arguments (%zd given)", n);
        return NULL;
    }
    PyObject *cap = PyTuple_GET_ITEM(args, 0), *mt = PyTuple_GET_ITEM(args, 1);
    long long max_turns;
    if (get_count(mt, 0, &max_turns, "max_turns") < 0) return NULL;
    int repetition = PyObject_IsTrue(PyTuple_GET_ITEM(args, 2));
    if (repetition < 0) return NULL;
    PS *ps = get_ps(cap);
    if (!ps) return NULL;
    PyObject *rest = PyTuple_GetSlice(args, 3, 8);
    if (!rest) return NULL;
    ProofArgs a;
    int ok = proof_args(rest, "voldetour", &a);
    if (ok < 0) {
        Py_DECREF(rest);
        return NULL;
    }
    VPos root;
    memset(&root, 0, sizeof root);
    if (parse_state(ps, a.state, &root.s, repetition) < 0) {
        Py_DECREF(rest);
        return NULL;
    }
    uint64_t path[VPATH];
    VProof g = {ps, max_turns, repetition, root.s.hist, root.s.nhist, path};
    if (root.s.nhist) {
        uint64_t last = root.s.hist[root.s.nhist - 1];
        Py_ssize_t c = 0;
        for (Py_ssize_t j = 0; j < root.s.nhist; j++) c += root.s.hist[j] == last;
        root.rep_draw = c >= 3;
        qsort(root.s.hist, (size_t)root.s.nhist, sizeof(uint64_t), key_order);
    }
    root.root_on = 1;
    root.s.hist = NULL; /* (g.root keeps it) */
    root.s.nhist = root.s.histcap = 0;
    PyObject *out = proof_run(&g, &root, &a);
    PyMem_Free((void *)g.root);
    Py_DECREF(rest);
    return out;
}

typedef struct {
    int mover;
    CMove m;
} Played;

/* ai.PLAYOUT_POWER: ai.py sets it when it loads this core.  A weighted playout draws each
   decision with a chance in proportion to its prior to this power. */
static double playout_power = 1.0;
/* The same power when it is a whole number (1 to 16), else 0: then the weight is a few
   multiplications instead of a call to pow(), about 4% of a hard search's time at power 3. */
static int playout_power_whole = 1;

static inline double playout_weight(double w) {
    if (playout_power_whole == 1) return w;
    if (playout_power_whole > 1) {
        double r = w;
        for (int k = 1; k < playout_power_whole; k++) r *= w;
        return r;
    }
    return pow(w, playout_power);
}

/* playout(cap, state, seed, limit, weighted, cutoff, repetition, max_turns) */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    PyObject *cap, *state, *seedo;
    PyObject *limito, *mt;
    long long limit, max_turns;
    int weighted, cutoff, repetition;
    if (!PyArg_ParseTuple(args, "OOO!OpppO", &cap, &state, &PyLong_Type, &seedo, &limito,
                          &weighted, &cutoff, &repetition, &mt))
        return NULL;
    if (get_count(limito, 0, &limit, "limit") < 0 || get_count(mt, 0, &max_turns, "max_turns") < 0)
        return NULL;
    PS *ps = get_ps(cap);
    if (!ps) return NULL;
    uint64_t seed = PyLong_AsUnsignedLongLong(seedo);
    if (seed == (uint64_t)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "seed must be 0 <= seed < 2**64");
        return NULL;
    }
    St s;
    if (parse_state(ps, state, &s, 1) < 0) return NULL;
    Rng rng;
    rng_seed(&rng, seed);
    CMove *buf = PyMem_Malloc(sizeof(CMove) * (size_t)ps->bufcap);
    double *cum = PyMem_Malloc(sizeof(double) * (size_t)ps->bufcap);
    Played *played = NULL;
    Py_ssize_t nplayed = 0, capplayed = 0;
    PyObject *list = NULL, *result = NULL;
    if (!buf || !cum) {
        PyErr_NoMemory();
        goto done;
    }
    Bd b;
    long long plies = 0;
    int code;
    while ((code = outcome_code(ps, &s, max_turns)) == 0 && plies < limit) {
        build_board(ps, &s, &b, -1, -1, -1);
        int n = generate(ps, &s, &b, buf);
        int pick = 0;
        if (weighted) {
            PriorCtx c;
            prior_ctx(ps, &s, &b, &c);
            double total = 0.0;
            for (int j = 0; j < n; j++) {
                double w = prior_of(ps, &s, &c, &buf[j]);
                total += playout_weight(w);
                cum[j] = total;
            }
            if (total > 0) {
                double u = rng_unit(&rng) * total;
                int lo = 0, hi = n - 1;
                while (lo < hi) { /* first cum > u */
                    int mid = (lo + hi) / 2;
                    if (cum[mid] > u)
                        hi = mid;
                    else
                        lo = mid + 1;
                }
                pick = lo;
            } else
                pick = (int)rng_below(&rng, (uint32_t)n);
        } else
            pick = (int)rng_below(&rng, (uint32_t)n);
        if (nplayed >= capplayed) {
            Py_ssize_t nc = capplayed * 2 + 64;
            Played *np = PyMem_Realloc(played, sizeof(Played) * (size_t)nc);
            if (!np) {
                PyErr_NoMemory();
                goto done;
            }
            played = np;
            capplayed = nc;
        }
        played[nplayed].mover = to_move(&s);
        played[nplayed].m = buf[pick];
        nplayed++;
        if (apply_move(ps, &s, &buf[pick], repetition) < 0) goto done;
        plies++;
    }
    double reward;
    if (code)
        reward = score0(code);
    else if (cutoff) {
        build_board(ps, &s, &b, -1, -1, -1);
        double v = evaluate(ps, &s, &b);
        if (to_move(&s) != 0) v = -v;
        reward = (v + 1.0) / 2.0;
    } else
        reward = 0.5;
    list = PyList_New(nplayed);
    if (!list) goto done;
    for (Py_ssize_t j = 0; j < nplayed; j++) {
        PyObject *mv = to_py(ps, &played[j].m);
        if (!mv) goto done;
        PyObject *pair = Py_BuildValue("(iN)", played[j].mover, mv);
        if (!pair) goto done;
        PyList_SET_ITEM(list, j, pair);
    }
    result = Py_BuildValue("(dO)", reward, list);
done:
    Py_XDECREF(list);
    PyMem_Free(buf);
    PyMem_Free(cum);
    PyMem_Free(played);
    PyMem_Free(s.hist);
    return result;
}

/* set one of the evaluation's knobs from the call's one float; the previous value */
static PyObject *set_knob(double *knob, PyObject *args) {
    double value;
    if (!PyArg_ParseTuple(args, "d", &value)) return NULL;
    double previous = *knob;
    *knob = value;
    return PyFloat_FromDouble(previous);
}

static PyObject *py_set_lord_weight(PyObject *self, PyObject *args) {
    return set_knob(&lord_weight, args);
}

static PyObject *py_set_tempo(PyObject *self, PyObject *args) {
    return set_knob(&tempo, args);
}

static PyObject *py_set_pillar(PyObject *self, PyObject *args) {
    return set_knob(&pillar_cost, args);
}

static PyObject *py_set_pin(PyObject *self, PyObject *args) {
    return set_knob(&pin_weight, args);
}

static PyObject *py_set_playout_power(PyObject *self, PyObject *args) {
    double p;
    if (!PyArg_ParseTuple(args, "d", &p)) return NULL;
    if (!(p > 0.0 && p <= 16.0)) {
        PyErr_SetString(PyExc_ValueError, "the playout power must be within 0 and 16");
        return NULL;
    }
    double previous = playout_power;
    playout_power = p;
    playout_power_whole = p == (double)(int)p ? (int)p : 0;
    return PyFloat_FromDouble(previous);
}

static PyMethodDef methods[] = {
    {"set_lord_weight", py_set_lord_weight, METH_VARARGS,
     "set_lord_weight(weight) -> float: set the evaluation's Lord weight (ai._LORD); the\n"
     "previous one."},
    {"set_tempo", py_set_tempo, METH_VARARGS,
     "set_tempo(tempo) -> float: set the evaluation's lead of the side to move (ai._TEMPO);\n"
     "the previous one."},
    {"set_pillar", py_set_pillar, METH_VARARGS,
     "set_pillar(cost) -> float: set the most a square raised to the towers' height adds to a\n"
     "step there (ai._PILLAR, whole; negative: no bound); the previous one."},
    {"set_pin", py_set_pin, METH_VARARGS,
     "set_pin(weight) -> float: set what a Lord with no free pillar costs the race (ai._PIN);\n"
     "the previous one."},
    {"set_playout_power", py_set_playout_power, METH_VARARGS,
     "set_playout_power(power) -> float: set the power of the weighted playouts' priors\n"
     "(ai.PLAYOUT_POWER, 0 < power <= 16); the previous one."},
    {"init", py_init, METH_VARARGS,
     "init(vstate_type, unset, move_cls, stride, board, towers, tower_height, stairs, kinds,\n"
     "orientations, put_blocks, put_stairs, take_blocks, take_stair, end, pass_)\n"
     "-> capsule | None: the tables of one piece set (None: not supported, play pure)."},
    {"generate", py_generate, METH_VARARGS,
     "generate(cap, state) -> list[VMove]: the decisions of a state not over."},
    {"apply", py_apply, METH_VARARGS,
     "apply(cap, state, move, repetition, max_turns) -> VState: the state after a decision\n"
     "(its outcome already set when the game goes on)."},
    {"outcome", py_outcome, METH_VARARGS,
     "outcome(cap, state, max_turns) -> int: 0 not over, 1/2 tower reached by Black/White,\n"
     "3/4 Black/White stayed on its tower, 5 no action, 6 repetition, 7 move limit."},
    {"repetition_key", py_repetition_key, METH_VARARGS,
     "repetition_key(cap, state) -> int: VState.repetition_key()."},
    {"move_prior", py_move_prior, METH_VARARGS,
     "move_prior(cap, state, moves) -> list[float]: ai.move_prior."},
    {"evaluate", py_evaluate, METH_VARARGS, "evaluate(cap, state) -> float: ai.evaluate."},
    {"path_distance", py_path_distance, METH_VARARGS,
     "path_distance(cap, state, player, walls=0) -> int: ai.path_distance."},
    {"prove", py_prove, METH_VARARGS,
     "prove(cap, max_turns, repetition, state, attacker, depth, max_nodes, max_seconds)\n"
     "-> (True/False/None, positions): does attacker force a win within depth decisions?\n"
     "(None: past a limit; max_seconds of CPU time, < 0 for none; with repetition, the\n"
     "state's history and the turns ended on the way draw by a third repetition)."},
    {"playout", py_playout, METH_VARARGS,
     "playout(cap, state, seed, limit, weighted, cutoff, repetition, max_turns)\n"
     "-> (reward for Black, [(mover, move)]): a playout played in C."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "tablier.games.voldetour._native",
    .m_doc = "The compiled core of Voldetour (see rules.py and ai.py).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__native(void) {
    PyObject *m = PyModule_Create(&native_module);
    if (m && PyModule_AddIntConstant(m, "PORTED", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
