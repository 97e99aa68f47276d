/* The compiled core of XoBo: the rules of rules.py and the hot knowledge of ai.py in C.
 *
 * rules.py stays the reference; this module computes the same things on the same
 * objects.  The board tables (edges, rays, room, the shared move objects) and the
 * classes it builds (XoBoState, XoBoMove) are handed over once by rules.py through
 * init_board(); nothing about the board is written here by hand beyond the bitboard
 * layout (a position fits in 128 bits: unsigned __int128).
 *
 * Python entry points (see _native.pyi): analyse, legal_moves, apply, threat_cells,
 * evaluate, move_prior, policy_answers, playout and prove.  Each checks its arguments and
 * raises TypeError or ValueError on bad input.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "_native_rng.h"

typedef unsigned __int128 u128;

#define NCELL 128     /* bit indices of the padded board */
#define NH 16         /* heights are 4-bit fields */
#define MAXMOVES 8192 /* bound on one position's moves, checked by init_board */
#define MAXLAYERS 130

enum { PLACE = 0, STACK = 1, DISTRIBUTE = 2 };
enum { FL_THREE = 1, FL_CUBES = 2, FL_VPLACE = 4 };
/* outcome reasons, in the order of the table handed over by rules.py */
enum { R_NONE = 0, R_BLOCUS, R_CONNECTION, R_NO_CUBE_TURN, R_NO_CUBE_MOVER, R_NO_MOVE };

/* -- the tables, set once by init_board ---------------------------------------------------- */

static int ready = 0;
static u128 BOARD, EDGE[2][2];
static int STRIDE, LSHIFT[4];
static u128 RAY[NCELL][8][NH];
static int ROOM[NCELL];
static PyObject *PLACE_OBJ[NCELL];
static PyObject *STACK_OBJ[NCELL][NCELL]; /* every straight run (far, onto) of 3+ cells */
static uint8_t STACK_LEN[NCELL][NCELL];   /* its length, 0 when there is none */
static uint8_t STACK_OK[NCELL][NCELL];    /* 1 when the stack fits (rules._STACK) */
static PyObject *DIST_OBJ[NCELL][8];
static uint8_t DIST_TO[NCELL][8];
static PyTypeObject *STATE_T, *MOVE_T;
static PyObject *OUTCOMES[6][2]; /* [reason][player to move] */
static Py_ssize_t OFF_GAME, OFF_ONES, OFF_STACKS, OFF_HEIGHTS, OFF_COMMON, OFF_RESERVES,
    OFF_TURN, OFF_SILENT, OFF_INFO;

/* -- bitboards ------------------------------------------------------------------------------ */

static inline int ctz128(u128 x) {
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

static inline int pop128(u128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

#define BIT(i) ((u128)1 << (i))

static inline u128 fill(u128 seed, u128 allowed) {
    u128 cur = seed & allowed;
    for (;;) {
        u128 x = cur | cur << 1 | cur >> 1;
        x = (x | x << STRIDE | x >> STRIDE) & allowed;
        if (x == cur) return cur;
        cur = x;
    }
}

static inline u128 dilate(u128 x) {
    x = x | x << 1 | x >> 1;
    return (x | x << STRIDE | x >> STRIDE) & BOARD;
}

/* -- positions ------------------------------------------------------------------------------ */

typedef struct {
    u128 ones, stacks;
    long common, res[2];
    int turn, silent;
    uint8_t h[NCELL];
} XS;

typedef struct {
    uint8_t kind, a, b, x; /* x: the length of a stacking, the direction of a distribution */
} MV;

typedef struct {
    int reason; /* R_NONE while the game goes on */
    int winner;
    int voyna;
} Info;

static u128 threat_cells(u128 ones, u128 stacks, int p) {
    u128 a = EDGE[p][0], b = EDGE[p][1];
    u128 fa = fill(ones & a, ones), fb = fill(ones & b, ones);
    u128 empty = BOARD & ~(ones | stacks);
    u128 cand = empty & (dilate(fa) | a) & (dilate(fb) | b);
    if (cand) {
        u128 c = EDGE[1 - p][0], d = EDGE[1 - p][1];
        u128 fc = fill(ones & c, ones), fd = fill(ones & d, ones);
        cand &= ~((dilate(fc) | c) & (dilate(fd) | d));
    }
    return cand;
}

static inline int has_cube(const XS *s, int p) { return s->common != 0 || s->res[p] != 0; }

static inline int threatens(const XS *s, int p) {
    return has_cube(s, p) && threat_cells(s->ones, s->stacks, p) != 0;
}

static int gen_stacks(u128 ones, int three, MV *out) {
    int n = 0;
    for (int k = 0; k < 4; k++) {
        int s = LSHIFT[k];
        u128 starts = ones & ones >> s & ones >> (2 * s);
        while (starts) {
            int i = ctz128(starts);
            starts &= starts - 1;
            int j = i + 2 * s;
            for (;;) {
                if (j >= NCELL) break;
                if (STACK_OK[i][j]) out[n++] = (MV){STACK, (uint8_t)i, (uint8_t)j, STACK_LEN[i][j]};
                if (STACK_OK[j][i]) out[n++] = (MV){STACK, (uint8_t)j, (uint8_t)i, STACK_LEN[j][i]};
                if (three) break;
                j += s;
                if (j >= NCELL || !((ones >> j) & 1)) break;
            }
        }
    }
    return n;
}

static int gen_dists(const XS *s, MV *out) {
    int n = 0;
    u128 st = s->stacks, ones = s->ones, stacks = s->stacks;
    while (st) {
        int i = ctz128(st);
        st &= st - 1;
        int h = s->h[i] & 15;
        for (int d = 0; d < 8; d++) {
            u128 r = RAY[i][d][h];
            if (r && (r & ones)) {
                u128 grown = r & stacks;
                int ok = 1;
                while (grown) {
                    int c = ctz128(grown);
                    grown &= grown - 1;
                    if ((s->h[c] & 15) + 1 > ROOM[c]) {
                        ok = 0;
                        break;
                    }
                }
                if (ok && DIST_OBJ[i][d]) out[n++] = (MV){DISTRIBUTE, (uint8_t)i, DIST_TO[i][d], (uint8_t)d};
            }
        }
    }
    return n;
}

static Info analyse(const XS *s, int flags) {
    Info info = {R_NONE, -1, 0};
    u128 ones = s->ones;
    int t = s->turn, m = 1 - t;
    if (fill(ones & EDGE[t][0], ones) & EDGE[t][1]) {
        info.reason = R_BLOCUS;
        info.winner = t;
        return info;
    }
    u128 a = EDGE[m][0], b = EDGE[m][1];
    u128 fa = fill(ones & a, ones);
    if (fa & b) {
        info.reason = R_CONNECTION;
        info.winner = m;
        return info;
    }
    int voyna = 0;
    if ((s->common || s->res[m]) && !s->silent) {
        u128 fb = fill(ones & b, ones);
        u128 empty = BOARD & ~(ones | s->stacks);
        u128 cand = empty & (dilate(fa) | a) & (dilate(fb) | b);
        if (cand) {
            u128 c = EDGE[t][0], d = EDGE[t][1];
            u128 fc = fill(ones & c, ones), fd = fill(ones & d, ones);
            cand &= ~((dilate(fc) | c) & (dilate(fd) | d));
            voyna = cand != 0;
        }
    }
    if (!s->common) {
        if (flags & FL_CUBES) {
            if (!s->res[t]) {
                info.reason = R_NO_CUBE_TURN;
                info.winner = m;
            } else if (!s->res[m]) {
                info.reason = R_NO_CUBE_MOVER;
                info.winner = t;
            }
        } else if (!s->res[t]) {
            MV buf[MAXMOVES];
            int n = 0;
            if (voyna) n = gen_stacks(ones, flags & FL_THREE, buf);
            if (!n && s->stacks) n = gen_dists(s, buf);
            if (!n) {
                info.reason = R_NO_MOVE;
                info.winner = m;
            }
        }
    }
    info.voyna = voyna && info.reason == R_NONE;
    return info;
}

/* Legal moves in the pure engine's order: placements, stackings, distributions. */
static int gen_moves(const XS *s, const Info *info, int flags, MV *out) {
    if (info->reason != R_NONE) return 0;
    int n = 0;
    if (has_cube(s, s->turn)) {
        u128 empty = BOARD & ~(s->ones | s->stacks);
        while (empty) {
            int i = ctz128(empty);
            empty &= empty - 1;
            out[n++] = (MV){PLACE, (uint8_t)i, (uint8_t)i, 0};
        }
    }
    if (info->voyna) n += gen_stacks(s->ones, flags & FL_THREE, out + n);
    if (s->stacks) n += gen_dists(s, out + n);
    return n;
}

static u128 stack_mask(int far, int onto, int len) {
    int step = (onto - far) / (len - 1);
    u128 m = 0;
    for (int k = 0; k < len; k++) m |= BIT(far + k * step);
    return m;
}

/* The pure engine's apply_unchecked on a move known to be a real one (mask: its run). */
static void xs_apply(const XS *s, MV mv, u128 mask, int flags, XS *o) {
    *o = *s;
    int turn = s->turn;
    o->turn = 1 - turn;
    o->silent = 0;
    if (mv.kind == PLACE) {
        o->ones = s->ones | BIT(mv.a);
        if (s->common)
            o->common = s->common - 1;
        else
            o->res[turn] = s->res[turn] - 1;
        return;
    }
    if (mv.kind == STACK) {
        o->ones = s->ones & ~mask;
        o->stacks = s->stacks | BIT(mv.b);
        o->h[mv.b] = (uint8_t)((s->h[mv.b] | mv.x) & 15);
    } else {
        int a = mv.a;
        u128 ones = s->ones, stacks = s->stacks;
        u128 ray = RAY[a][mv.x & 7][s->h[a] & 15];
        u128 captured = ray & ones;
        u128 grown = ray & stacks;
        while (grown) {
            int c = ctz128(grown);
            grown &= grown - 1;
            o->h[c] = (uint8_t)((o->h[c] + 1) & 15);
        }
        o->h[a] = 0;
        o->ones = (ones & ~captured) | (ray & ~ones & ~stacks);
        o->stacks = stacks & ~BIT(a);
        o->res[turn] = s->res[turn] + 2 * pop128(captured);
    }
    if (flags & FL_VPLACE) o->silent = threatens(o, turn);
}

static inline void xs_play(const XS *s, MV mv, int flags, XS *o) {
    xs_apply(s, mv, mv.kind == STACK ? stack_mask(mv.a, mv.b, mv.x) : 0, flags, o);
}

/* -- the knowledge (ai.py) ------------------------------------------------------------------ */

#define BLOCKED 40

static int distance_layers(u128 ones, u128 stacks, int p, int start, u128 *layers) {
    u128 a = EDGE[p][start], b = EDGE[p][1 - start];
    u128 empty = BOARD & ~(ones | stacks);
    u128 reached = fill(ones & a, ones);
    int n = 0;
    layers[n++] = reached;
    while (!(reached & b)) {
        u128 grown = reached | ((dilate(reached) | a) & empty);
        if (grown == reached) break;
        reached = fill(grown, grown | ones);
        if (n < MAXLAYERS) layers[n++] = reached;
    }
    return n;
}

static int connection_distance(u128 ones, u128 stacks, int p) {
    u128 layers[MAXLAYERS];
    int n = distance_layers(ones, stacks, p, 0, layers);
    if (!(layers[n - 1] & EDGE[p][1])) return BLOCKED;
    return n - 1;
}

static int path_cells(u128 ones, u128 stacks, int p, u128 *cells_out) {
    u128 fwd[MAXLAYERS], back[MAXLAYERS];
    int nf = distance_layers(ones, stacks, p, 0, fwd);
    *cells_out = 0;
    if (!(fwd[nf - 1] & EDGE[p][1])) return BLOCKED;
    int dist = nf - 1;
    if (dist == 0) return 0;
    int nb = distance_layers(ones, stacks, p, 1, back);
    u128 cells = 0;
    for (int k = 1; k <= dist; k++) {
        int j = dist + 1 - k;
        if (j < nb) cells |= fwd[k] & back[j];
    }
    *cells_out = cells & BOARD & ~(ones | stacks);
    return dist;
}

static inline u128 winning_cells(const XS *s) {
    if (!has_cube(s, s->turn)) return 0;
    return threat_cells(s->ones, s->stacks, s->turn);
}

static double evaluate_xs(const XS *s, const Info *info) {
    int p = s->turn;
    if (winning_cells(s)) return 0.95;
    int mine = connection_distance(s->ones, s->stacks, p);
    int theirs = connection_distance(s->ones, s->stacks, 1 - p);
    double material = 0.0;
    if (s->common < 12) {
        double weight = 0.06 * (double)(12 - s->common) / 12;
        material = weight * (double)(s->res[p] - s->res[1 - p]);
    }
    double x = 0.45 * ((double)(theirs - mine) + 0.5) + material;
    if (info->voyna)
        x -= 0.35;
    else if (s->silent)
        x -= 0.6;
    return tanh(x);
}

static inline int imin9(int v) { return v < 9 ? v : 9; }

/* move_prior: one weight per move; masks[i] is the run of a stacking. */
static void prior_xs(const XS *s, const Info *info, int flags, const MV *moves, const u128 *masks,
                     int n, double *out) {
    int p = s->turn, q = 1 - p;
    u128 win = winning_cells(s);
    int under = info->voyna || s->silent;
    u128 mine, theirs;
    int d_me = path_cells(s->ones, s->stacks, p, &mine);
    int d_opp = path_cells(s->ones, s->stacks, q, &theirs);
    double base = 0.8 * (double)(imin9(d_opp) - imin9(d_me));
    for (int k = 0; k < n; k++) {
        MV mv = moves[k];
        if (mv.kind == PLACE) {
            u128 bit = BIT(mv.a);
            if (bit & win) {
                out[k] = 50.0;
                continue;
            }
            double value = base + ((bit & mine) ? 0.8 : 0.0) - ((bit & theirs) ? 0.8 : 0.0);
            double w = exp(0.9 * value - base * 0.9);
            if (under) w *= 0.02;
            out[k] = w;
            continue;
        }
        XS after;
        xs_apply(s, mv, masks ? masks[k] : (mv.kind == STACK ? stack_mask(mv.a, mv.b, mv.x) : 0),
                 flags, &after);
        Info ai = analyse(&after, flags);
        if (ai.reason != R_NONE) {
            out[k] = ai.winner == p ? 50.0 : 1e-4;
            continue;
        }
        int dm = connection_distance(after.ones, after.stacks, p);
        int dq = connection_distance(after.ones, after.stacks, q);
        double gain = (double)(after.res[p] - s->res[p]) * 0.5;
        double value = 0.8 * (double)(imin9(dq) - imin9(dm)) + 0.1 * gain;
        double w = exp(0.9 * value - base * 0.9);
        if (threatens(&after, q))
            w *= 0.02;
        else if (under)
            w *= 8.0;
        else if (ai.voyna)
            w *= 3.0;
        else if (after.silent)
            w *= 5.0;
        out[k] = w;
    }
}

/* playout_policy: 1 and *out set when it chooses (a win in one), 2 with the answers to a
 * threat in out[0..*n), 0 when it falls back. */
static int policy_xs(const XS *s, const Info *info, int flags, MV *out, int *n) {
    u128 win = winning_cells(s);
    if (win) {
        int c = ctz128(win);
        out[0] = (MV){PLACE, (uint8_t)c, (uint8_t)c, 0};
        *n = 1;
        return 1;
    }
    if (!(info->voyna || s->silent)) return 0;
    int q = 1 - s->turn;
    MV moves[MAXMOVES];
    int total = gen_moves(s, info, flags, moves);
    int k = 0;
    for (int i = 0; i < total; i++) {
        if (moves[i].kind == PLACE) continue;
        XS after;
        xs_play(s, moves[i], flags, &after);
        if (!threatens(&after, q)) out[k++] = moves[i];
    }
    *n = k;
    return k ? 2 : 0;
}


/* -- reading and building Python objects --------------------------------------------------- */

#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

static int int_to_bytes(PyObject *v, unsigned char *buf, size_t n, const char *what) {
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int", what);
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    int rc = _PyLong_AsByteArray((PyLongObject *)v, buf, n, 1, 0, 1);
#else
    int rc = _PyLong_AsByteArray((PyLongObject *)v, buf, n, 1, 0);
#endif
    if (rc < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s is out of range", what);
        return -1;
    }
    return 0;
}

static int read_u128(PyObject *v, u128 *out, const char *what) {
    unsigned char buf[16];
    if (int_to_bytes(v, buf, 16, what) < 0) return -1;
    u128 x = 0;
    for (int i = 15; i >= 0; i--) x = x << 8 | buf[i];
    *out = x;
    return 0;
}

static PyObject *u128_to_int(u128 x) {
    if (!(x >> 64)) return PyLong_FromUnsignedLongLong((unsigned long long)x);
    unsigned char buf[16];
    for (int i = 0; i < 16; i++) buf[i] = (unsigned char)(x >> (8 * i));
    return _PyLong_FromByteArray(buf, 16, 1, 0);
}

static PyObject *heights_to_int(const uint8_t *h) {
    unsigned char buf[NCELL / 2];
    int top = -1;
    for (int i = 0; i < NCELL / 2; i++) {
        buf[i] = (unsigned char)((h[2 * i] & 15) | (h[2 * i + 1] & 15) << 4);
        if (buf[i]) top = i;
    }
    if (top < 0) return PyLong_FromLong(0);
    return _PyLong_FromByteArray(buf, (size_t)top + 1, 1, 0);
}

static int read_long(PyObject *v, long *out, const char *what) {
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int", what);
        return -1;
    }
    int overflow = 0;
    long x = PyLong_AsLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (overflow || x < -1000000 || x > 1000000) {
        PyErr_Format(PyExc_ValueError, "%s is out of range", what);
        return -1;
    }
    *out = x;
    return 0;
}

typedef struct {
    PyObject *game;
    int flags;
} GameFlags;

static GameFlags game_cache[8];
static int game_cache_next = 0;

static int game_flags(PyObject *game) {
    for (int i = 0; i < 8; i++)
        if (game_cache[i].game == game) return game_cache[i].flags;
    static const char *names[3] = {"stack_three", "exhaustion_cubes", "voyna_placement"};
    static const int bits[3] = {FL_THREE, FL_CUBES, FL_VPLACE};
    int flags = 0;
    for (int k = 0; k < 3; k++) {
        PyObject *v = PyObject_GetAttrString(game, names[k]);
        if (!v) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "the state's game is not a XoBo game");
            return -1;
        }
        int truth = PyObject_IsTrue(v);
        Py_DECREF(v);
        if (truth < 0) return -1;
        if (truth) flags |= bits[k];
    }
    GameFlags *slot = &game_cache[game_cache_next];
    game_cache_next = (game_cache_next + 1) % 8;
    Py_INCREF(game);
    Py_XSETREF(slot->game, game);
    slot->flags = flags;
    return flags;
}

static int check_ready(void) {
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "xobo._native: init_board() was not called");
        return -1;
    }
    return 0;
}

/* Read a XoBoState into *s; *flags gets the game's options. */
static int read_state(PyObject *st, XS *s, int *flags) {
    if (check_ready() < 0) return -1;
    if (!PyObject_TypeCheck(st, STATE_T)) {
        PyErr_Format(PyExc_TypeError, "expected a XoBoState, not %.100s", Py_TYPE(st)->tp_name);
        return -1;
    }
    PyObject *game = SLOT(st, OFF_GAME), *ones = SLOT(st, OFF_ONES), *stacks = SLOT(st, OFF_STACKS),
             *heights = SLOT(st, OFF_HEIGHTS), *common = SLOT(st, OFF_COMMON),
             *reserves = SLOT(st, OFF_RESERVES), *turn = SLOT(st, OFF_TURN),
             *silent = SLOT(st, OFF_SILENT);
    if (!game || !ones || !stacks || !heights || !common || !reserves || !turn || !silent) {
        PyErr_SetString(PyExc_ValueError, "incomplete XoBoState");
        return -1;
    }
    if ((*flags = game_flags(game)) < 0) return -1;
    if (read_u128(ones, &s->ones, "ones") < 0 || read_u128(stacks, &s->stacks, "stacks") < 0)
        return -1;
    if ((s->ones | s->stacks) & ~BOARD || s->ones & s->stacks) {
        PyErr_SetString(PyExc_ValueError, "ones and stacks must be disjoint sets of board cells");
        return -1;
    }
    unsigned char hb[NCELL / 2];
    if (int_to_bytes(heights, hb, sizeof hb, "heights") < 0) return -1;
    for (int i = 0; i < NCELL / 2; i++) {
        s->h[2 * i] = hb[i] & 15;
        s->h[2 * i + 1] = hb[i] >> 4;
    }
    if (read_long(common, &s->common, "common") < 0) return -1;
    if (!PyTuple_Check(reserves) || PyTuple_GET_SIZE(reserves) != 2) {
        PyErr_SetString(PyExc_TypeError, "reserves must be a tuple of two ints");
        return -1;
    }
    if (read_long(PyTuple_GET_ITEM(reserves, 0), &s->res[0], "reserves") < 0 ||
        read_long(PyTuple_GET_ITEM(reserves, 1), &s->res[1], "reserves") < 0)
        return -1;
    long t;
    if (read_long(turn, &t, "turn") < 0) return -1;
    if (t != 0 && t != 1) {
        PyErr_SetString(PyExc_ValueError, "turn must be 0 or 1");
        return -1;
    }
    s->turn = (int)t;
    int sil = PyObject_IsTrue(silent);
    if (sil < 0) return -1;
    s->silent = sil;
    return 0;
}

static PyObject *info_tuple(const Info *info, int turn) {
    PyObject *outcome = info->reason == R_NONE ? Py_None : OUTCOMES[info->reason][turn];
    return PyTuple_Pack(2, outcome, info->voyna ? Py_True : Py_False);
}

/* The state's (outcome, voyna), from its cache or worked out and cached. */
static int state_info(PyObject *st, const XS *s, int flags, Info *info) {
    PyObject *cached = SLOT(st, OFF_INFO);
    if (cached && cached != Py_None) {
        if (!PyTuple_Check(cached) || PyTuple_GET_SIZE(cached) != 2) {
            PyErr_SetString(PyExc_ValueError, "bad cached analysis on the state");
            return -1;
        }
        PyObject *outcome = PyTuple_GET_ITEM(cached, 0);
        int v = PyObject_IsTrue(PyTuple_GET_ITEM(cached, 1));
        if (v < 0) return -1;
        if (outcome == Py_None) {
            info->reason = R_NONE;
            info->winner = -1;
            info->voyna = v;
            return 0;
        }
        /* a finished game: the winner is all the knowledge reads */
        *info = analyse(s, flags);
        return 0;
    }
    *info = analyse(s, flags);
    PyObject *tup = info_tuple(info, s->turn);
    if (!tup) return -1;
    PyObject *old = SLOT(st, OFF_INFO);
    SLOT(st, OFF_INFO) = tup;
    Py_XDECREF(old);
    return 0;
}

static PyObject *move_obj(MV mv) {
    switch (mv.kind) {
    case PLACE: return PLACE_OBJ[mv.a];
    case STACK: return STACK_OBJ[mv.a][mv.b];
    default: return DIST_OBJ[mv.a][mv.x & 7];
    }
}

/* A XoBoMove read into *mv (and the run of a stacking into *mask); ValueError if it is
 * not one of the board's moves. */
static int read_move(PyObject *o, MV *mv, u128 *mask) {
    if (!PyObject_TypeCheck(o, MOVE_T) || !PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 5) {
        PyErr_Format(PyExc_TypeError, "expected a XoBoMove, not %.100s", Py_TYPE(o)->tp_name);
        return -1;
    }
    long f[5];
    for (int i = 0; i < 5; i++) {
        PyObject *v = PyTuple_GET_ITEM(o, i);
        if (i == 3) continue; /* the mask of a stacking may not fit a long */
        if (read_long(v, &f[i], "move field") < 0) return -1;
    }
    long kind = f[0], a = f[1], b = f[2];
    if (a < 0 || a >= NCELL || b < 0 || b >= NCELL) goto bad;
    *mask = 0;
    if (kind == PLACE) {
        if (a != b || !PLACE_OBJ[a]) goto bad;
        *mv = (MV){PLACE, (uint8_t)a, (uint8_t)a, 0};
        return 0;
    }
    if (kind == STACK) {
        int len = STACK_LEN[a][b];
        if (!len || f[4] != len) goto bad;
        *mask = stack_mask((int)a, (int)b, len);
        if (o != STACK_OBJ[a][b]) {
            u128 m;
            if (read_u128(PyTuple_GET_ITEM(o, 3), &m, "move field") < 0) return -1;
            if (m != *mask) goto bad;
        }
        *mv = (MV){STACK, (uint8_t)a, (uint8_t)b, (uint8_t)len};
        return 0;
    }
    if (kind == DISTRIBUTE) {
        long d;
        if (read_long(PyTuple_GET_ITEM(o, 3), &d, "move field") < 0) return -1;
        if (d < 0 || d > 7 || !DIST_OBJ[a][d] || DIST_TO[a][d] != b) goto bad;
        *mv = (MV){DISTRIBUTE, (uint8_t)a, (uint8_t)b, (uint8_t)d};
        return 0;
    }
bad:
    PyErr_SetString(PyExc_ValueError, "not a move of the XoBo board");
    return -1;
}

static PyObject *reserves_tuple(const XS *s) {
    PyObject *a = PyLong_FromLong(s->res[0]), *b = a ? PyLong_FromLong(s->res[1]) : NULL;
    PyObject *t = b ? PyTuple_Pack(2, a, b) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    return t;
}

/* A new XoBoState for *s; fields equal to the old state's reuse its objects. */
static PyObject *build_state(PyObject *old, const XS *prev, const XS *s) {
    PyObject *st = STATE_T->tp_alloc(STATE_T, 0);
    if (!st) return NULL;
#define SET(off, value)                                                                            \
    do {                                                                                           \
        PyObject *v_ = (value);                                                                    \
        if (!v_) goto fail;                                                                        \
        SLOT(st, off) = v_;                                                                        \
    } while (0)
#define KEEP(off) (Py_NewRef(SLOT(old, off)))
    SET(OFF_GAME, KEEP(OFF_GAME));
    SET(OFF_ONES, prev->ones == s->ones ? KEEP(OFF_ONES) : u128_to_int(s->ones));
    SET(OFF_STACKS, prev->stacks == s->stacks ? KEEP(OFF_STACKS) : u128_to_int(s->stacks));
    SET(OFF_HEIGHTS,
        memcmp(prev->h, s->h, NCELL) == 0 ? KEEP(OFF_HEIGHTS) : heights_to_int(s->h));
    SET(OFF_COMMON, prev->common == s->common ? KEEP(OFF_COMMON) : PyLong_FromLong(s->common));
    SET(OFF_RESERVES, prev->res[0] == s->res[0] && prev->res[1] == s->res[1] ? KEEP(OFF_RESERVES)
                                                                            : reserves_tuple(s));
    SET(OFF_TURN, PyLong_FromLong(s->turn));
    SET(OFF_SILENT, Py_NewRef(s->silent ? Py_True : Py_False));
    SET(OFF_INFO, Py_NewRef(Py_None));
#undef SET
#undef KEEP
    return st;
fail:
    Py_DECREF(st);
    return NULL;
}

/* -- the Python entry points ---------------------------------------------------------------- */

static PyObject *py_analyse(PyObject *self, PyObject *st) {
    XS s;
    int flags;
    if (read_state(st, &s, &flags) < 0) return NULL;
    Info info = analyse(&s, flags);
    PyObject *tup = info_tuple(&info, s.turn);
    if (!tup) return NULL;
    PyObject *old = SLOT(st, OFF_INFO);
    SLOT(st, OFF_INFO) = Py_NewRef(tup);
    Py_XDECREF(old);
    return tup;
}

static PyObject *moves_list(const MV *buf, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, Py_NewRef(move_obj(buf[i])));
    return list;
}

static PyObject *py_legal_moves(PyObject *self, PyObject *st) {
    XS s;
    int flags;
    Info info;
    if (read_state(st, &s, &flags) < 0 || state_info(st, &s, flags, &info) < 0) return NULL;
    MV buf[MAXMOVES];
    return moves_list(buf, gen_moves(&s, &info, flags, buf));
}

static PyObject *py_apply(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "apply(state, move) takes 2 arguments");
        return NULL;
    }
    XS s, o;
    int flags;
    MV mv;
    u128 mask;
    if (read_state(args[0], &s, &flags) < 0 || read_move(args[1], &mv, &mask) < 0) return NULL;
    xs_apply(&s, mv, mask, flags, &o);
    return build_state(args[0], &s, &o);
}

static PyObject *py_threat_cells(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (check_ready() < 0) return NULL;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "threat_cells(ones, stacks, player) takes 3 arguments");
        return NULL;
    }
    u128 ones, stacks;
    long p;
    if (read_u128(args[0], &ones, "ones") < 0 || read_u128(args[1], &stacks, "stacks") < 0 ||
        read_long(args[2], &p, "player") < 0)
        return NULL;
    if (p != 0 && p != 1) {
        PyErr_SetString(PyExc_ValueError, "player must be 0 or 1");
        return NULL;
    }
    return u128_to_int(threat_cells(ones & BOARD, stacks & BOARD, (int)p));
}

static PyObject *py_evaluate(PyObject *self, PyObject *st) {
    XS s;
    int flags;
    Info info;
    if (read_state(st, &s, &flags) < 0 || state_info(st, &s, flags, &info) < 0) return NULL;
    return PyFloat_FromDouble(evaluate_xs(&s, &info));
}

static PyObject *py_move_prior(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "move_prior(state, moves) takes 2 arguments");
        return NULL;
    }
    XS s;
    int flags;
    Info info;
    if (read_state(args[0], &s, &flags) < 0 || state_info(args[0], &s, flags, &info) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(args[1], "moves must be a sequence of XoBoMove");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *result = NULL;
    MV *moves = PyMem_Malloc(sizeof(MV) * (size_t)(n ? n : 1));
    u128 *masks = PyMem_Malloc(sizeof(u128) * (size_t)(n ? n : 1));
    double *w = PyMem_Malloc(sizeof(double) * (size_t)(n ? n : 1));
    if (!moves || !masks || !w) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++)
        if (read_move(items[i], &moves[i], &masks[i]) < 0) goto done;
    prior_xs(&s, &info, flags, moves, masks, (int)n, w);
    result = PyList_New(n);
    if (!result) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *f = PyFloat_FromDouble(w[i]);
        if (!f) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, i, f);
    }
done:
    PyMem_Free(moves);
    PyMem_Free(masks);
    PyMem_Free(w);
    Py_DECREF(seq);
    return result;
}

/* What playout_policy decides before its random draw: the winning placement, the list of
 * moves that answer a threat (the caller draws one), or None (fall back). */
static PyObject *py_policy_answers(PyObject *self, PyObject *st) {
    XS s;
    int flags;
    Info info;
    if (read_state(st, &s, &flags) < 0 || state_info(st, &s, flags, &info) < 0) return NULL;
    MV buf[MAXMOVES];
    int n = 0;
    int kind = policy_xs(&s, &info, flags, buf, &n);
    if (kind == 0) Py_RETURN_NONE;
    if (kind == 1) return Py_NewRef(move_obj(buf[0]));
    return moves_list(buf, n);
}

static int read_flag(PyObject *v, const char *what) {
    int t = PyObject_IsTrue(v);
    if (t < 0) return -1;
    return t;
}

static PyObject *py_playout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 5 || nargs > 6) {
        PyErr_SetString(PyExc_TypeError,
                        "playout(state, seed, limit, weighted, cutoff[, policy]) takes 5 or 6 "
                        "arguments");
        return NULL;
    }
    XS s;
    int flags;
    if (read_state(args[0], &s, &flags) < 0) return NULL;
    if (!PyLong_Check(args[1]) || !PyLong_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "seed and limit must be ints");
        return NULL;
    }
    unsigned long long seed = PyLong_AsUnsignedLongLong(args[1]);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "seed must be in 0 .. 2**64 - 1");
        return NULL;
    }
    int overflow = 0;
    long long limit = PyLong_AsLongLongAndOverflow(args[2], &overflow);
    if (limit == -1 && PyErr_Occurred()) return NULL;
    if (overflow > 0) limit = LLONG_MAX;
    if (overflow < 0 || limit < 0) {
        PyErr_SetString(PyExc_ValueError, "limit must be >= 0");
        return NULL;
    }
    int weighted = read_flag(args[3], "weighted"), cutoff = read_flag(args[4], "cutoff");
    int policy = nargs == 6 ? read_flag(args[5], "policy") : 1;
    if (weighted < 0 || cutoff < 0 || policy < 0) return NULL;

    PyObject *played = PyList_New(0);
    if (!played) return NULL;
    Rng rng;
    rng_seed(&rng, seed);
    MV *buf = PyMem_Malloc(sizeof(MV) * MAXMOVES);
    double *cum = weighted ? PyMem_Malloc(sizeof(double) * MAXMOVES) : NULL;
    if (!buf || (weighted && !cum)) {
        PyErr_NoMemory();
        goto fail;
    }
    Info info = analyse(&s, flags);
    long long plies = 0;
    while (info.reason == R_NONE && plies < limit) {
        MV mv;
        int n = 0, chosen = 0;
        if (policy) {
            int kind = policy_xs(&s, &info, flags, buf, &n);
            if (kind == 1) {
                mv = buf[0];
                chosen = 1;
            } else if (kind == 2) {
                mv = buf[rng_below(&rng, (uint32_t)n)];
                chosen = 1;
            }
        }
        if (!chosen) {
            n = gen_moves(&s, &info, flags, buf);
            if (n <= 0) break; /* cannot happen: a game that goes on has a move */
            int idx;
            if (weighted) {
                prior_xs(&s, &info, flags, buf, NULL, n, cum);
                double total = 0.0;
                for (int i = 0; i < n; i++) cum[i] = total += cum[i];
                if (total > 0) {
                    double u = rng_unit(&rng) * total;
                    int lo = 0, hi = n - 1; /* bisect_right(cum, u, 0, n - 1) */
                    while (lo < hi) {
                        int mid = (lo + hi) / 2;
                        if (u < cum[mid])
                            hi = mid;
                        else
                            lo = mid + 1;
                    }
                    idx = lo;
                } else {
                    idx = (int)rng_below(&rng, (uint32_t)n);
                }
            } else {
                idx = (int)rng_below(&rng, (uint32_t)n);
            }
            mv = buf[idx];
        }
        PyObject *pair = Py_BuildValue("(iO)", s.turn, move_obj(mv));
        if (!pair || PyList_Append(played, pair) < 0) {
            Py_XDECREF(pair);
            goto fail;
        }
        Py_DECREF(pair);
        XS next;
        xs_play(&s, mv, flags, &next);
        s = next;
        info = analyse(&s, flags);
        plies++;
    }
    double reward;
    if (info.reason != R_NONE)
        reward = info.winner == 0 ? 1.0 : 0.0;
    else if (cutoff) {
        double v = evaluate_xs(&s, &info);
        v = v < -1.0 ? -1.0 : (v > 1.0 ? 1.0 : v);
        if (s.turn != 0) v = -v;
        reward = (v + 1.0) / 2.0;
    } else
        reward = 0.5;
    PyMem_Free(buf);
    PyMem_Free(cum);
    PyObject *out = Py_BuildValue("(dN)", reward, played);
    return out;
fail:
    PyMem_Free(buf);
    PyMem_Free(cum);
    Py_DECREF(played);
    return NULL;
}

/* -- a proof search: does a player force a win within some decisions? ------------------------ */

/* The shared search of core/_native_proof.h on this core's positions, each with its
 * analysis (outcome and voyna), worked out once when it is played. */
typedef struct {
    XS s;
    Info info;
} XP;

typedef int PROOF_GAME; /* the rule options (FL_*) */
typedef XP PROOF_POS;
typedef MV PROOF_MOVE;
typedef MV PROOF_BUF; /* MAXMOVES of them */

static inline int proof_over(int flags, const XP *p, int *winner) {
    if (p->info.reason == R_NONE) return 0;
    *winner = p->info.winner;
    return 1;
}

static inline int proof_mover(const XP *p) { return p->s.turn; }

static inline MV *proof_moves(int flags, const XP *p, MV *buf, int *n) {
    *n = gen_moves(&p->s, &p->info, flags, buf);
    return buf;
}

static inline void proof_play(int flags, const XP *p, const MV *m, XP *out) {
    xs_play(&p->s, *m, flags, &out->s);
    out->info = analyse(&out->s, flags);
}

static inline int proof_same(const MV *a, const MV *b) {
    return a->kind == b->kind && a->a == b->a && a->b == b->b && a->x == b->x;
}

static inline MV *proof_buf_new(int flags) { return PyMem_Malloc(sizeof(MV) * MAXMOVES); }

static inline void proof_buf_free(MV *buf) { PyMem_Free(buf); }

#include "_native_proof.h"

/* prove(state, attacker, depth, max_nodes, max_seconds) -> (True/False/None, nodes) */
static PyObject *py_prove(PyObject *self, PyObject *args) {
    ProofArgs a;
    if (proof_args(args, "xobo", &a) < 0) return NULL;
    XP root;
    int flags;
    if (read_state(a.state, &root.s, &flags) < 0) return NULL;
    root.info = analyse(&root.s, flags);
    if (root.info.reason != R_NONE) {
        PyErr_SetString(PyExc_ValueError, "xobo: the game is over");
        return NULL;
    }
    return proof_run(flags, &root, &a);
}

/* -- init_board ----------------------------------------------------------------------------- */

static int slot_offset(PyTypeObject *cls, const char *name, Py_ssize_t *off) {
    PyObject *d = PyDict_GetItemString(cls->tp_dict, name);
    if (!d || !PyObject_TypeCheck(d, &PyMemberDescr_Type)) {
        PyErr_Format(PyExc_TypeError, "state class has no slot %s", name);
        return -1;
    }
    PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
    if (m->type != T_OBJECT_EX || m->offset <= 0) {
        PyErr_Format(PyExc_TypeError, "slot %s is not an object slot", name);
        return -1;
    }
    *off = m->offset;
    return 0;
}

static int cell_arg(PyObject *v, long *out) {
    if (read_long(v, out, "cell") < 0) return -1;
    if (*out < 0 || *out >= NCELL) {
        PyErr_SetString(PyExc_ValueError, "cell out of range");
        return -1;
    }
    return 0;
}

/* init_board(state_cls, move_cls, board, edges, stride, line_shifts, room, ray_mask,
 *            moves, stack_ok, outcomes)
 * moves: every XoBoMove of the board (placements, every stacking, distributions);
 * stack_ok: those stackings that fit (rules._STACK); outcomes[reason - 1][turn]. */
static PyObject *py_init_board(PyObject *self, PyObject *args) {
    PyObject *state_cls, *move_cls, *board, *edges, *lshifts, *room, *ray_mask, *moves, *stack_ok,
        *outcomes;
    int stride;
    if (!PyArg_ParseTuple(args, "O!O!OOiOOOOOO", &PyType_Type, &state_cls, &PyType_Type, &move_cls,
                          &board, &edges, &stride, &lshifts, &room, &ray_mask, &moves, &stack_ok,
                          &outcomes))
        return NULL;
    if (ready) {
        PyErr_SetString(PyExc_RuntimeError, "init_board() was already called");
        return NULL;
    }
    STATE_T = (PyTypeObject *)state_cls;
    MOVE_T = (PyTypeObject *)move_cls;
    if (slot_offset(STATE_T, "game", &OFF_GAME) < 0 || slot_offset(STATE_T, "ones", &OFF_ONES) < 0 ||
        slot_offset(STATE_T, "stacks", &OFF_STACKS) < 0 ||
        slot_offset(STATE_T, "heights", &OFF_HEIGHTS) < 0 ||
        slot_offset(STATE_T, "common", &OFF_COMMON) < 0 ||
        slot_offset(STATE_T, "reserves", &OFF_RESERVES) < 0 ||
        slot_offset(STATE_T, "turn", &OFF_TURN) < 0 ||
        slot_offset(STATE_T, "silent", &OFF_SILENT) < 0 ||
        slot_offset(STATE_T, "_info", &OFF_INFO) < 0)
        return NULL;
    if (stride < 1 || stride > 16) {
        PyErr_SetString(PyExc_ValueError, "bad stride");
        return NULL;
    }
    STRIDE = stride;
    if (read_u128(board, &BOARD, "board") < 0) return NULL;
    if (!PyTuple_Check(edges) || PyTuple_GET_SIZE(edges) != 2) goto bad;
    for (int p = 0; p < 2; p++) {
        PyObject *e = PyTuple_GET_ITEM(edges, p);
        if (!PyTuple_Check(e) || PyTuple_GET_SIZE(e) != 2) goto bad;
        for (int k = 0; k < 2; k++)
            if (read_u128(PyTuple_GET_ITEM(e, k), &EDGE[p][k], "edge") < 0) return NULL;
    }
    if (!PyTuple_Check(lshifts) || PyTuple_GET_SIZE(lshifts) != 4) goto bad;
    for (int k = 0; k < 4; k++) {
        long v;
        if (read_long(PyTuple_GET_ITEM(lshifts, k), &v, "line shift") < 0) return NULL;
        if (v < 1 || v > 2 * stride) goto bad;
        LSHIFT[k] = (int)v;
    }
    if (!PyList_Check(room) || PyList_GET_SIZE(room) > NCELL) goto bad;
    if (!PyList_Check(ray_mask) || PyList_GET_SIZE(ray_mask) != PyList_GET_SIZE(room)) goto bad;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(room); i++) {
        long v;
        if (read_long(PyList_GET_ITEM(room, i), &v, "room") < 0) return NULL;
        ROOM[i] = (int)v;
        PyObject *rays = PyList_GET_ITEM(ray_mask, i);
        if (!PyTuple_Check(rays)) goto bad;
        if (PyTuple_GET_SIZE(rays) == 0) continue;
        if (PyTuple_GET_SIZE(rays) != 8) goto bad;
        for (int d = 0; d < 8; d++) {
            PyObject *hs = PyTuple_GET_ITEM(rays, d);
            if (!PyTuple_Check(hs) || PyTuple_GET_SIZE(hs) > NH) goto bad;
            for (Py_ssize_t h = 0; h < PyTuple_GET_SIZE(hs); h++)
                if (read_u128(PyTuple_GET_ITEM(hs, h), &RAY[i][d][h], "ray") < 0) return NULL;
        }
    }
    PyObject *seq = PySequence_Fast(moves, "moves must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t nplace = 0, nstack = 0, ndist = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        PyObject *m = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyObject_TypeCheck(m, MOVE_T) || PyTuple_GET_SIZE(m) != 5) {
            Py_DECREF(seq);
            goto bad;
        }
        long kind, a, b, len;
        if (read_long(PyTuple_GET_ITEM(m, 0), &kind, "kind") < 0 ||
            cell_arg(PyTuple_GET_ITEM(m, 1), &a) < 0 || cell_arg(PyTuple_GET_ITEM(m, 2), &b) < 0 ||
            read_long(PyTuple_GET_ITEM(m, 4), &len, "length") < 0) {
            Py_DECREF(seq);
            return NULL;
        }
        if (kind == PLACE) {
            Py_XSETREF(PLACE_OBJ[a], Py_NewRef(m));
            nplace++;
        } else if (kind == STACK) {
            u128 mask;
            if (len < 3 || len >= NH || read_u128(PyTuple_GET_ITEM(m, 3), &mask, "mask") < 0 ||
                pop128(mask) != len || stack_mask((int)a, (int)b, (int)len) != mask) {
                Py_DECREF(seq);
                if (!PyErr_Occurred()) goto bad;
                return NULL;
            }
            Py_XSETREF(STACK_OBJ[a][b], Py_NewRef(m));
            STACK_LEN[a][b] = (uint8_t)len;
        } else if (kind == DISTRIBUTE) {
            long d;
            if (read_long(PyTuple_GET_ITEM(m, 3), &d, "direction") < 0) {
                Py_DECREF(seq);
                return NULL;
            }
            if (d < 0 || d > 7) {
                Py_DECREF(seq);
                goto bad;
            }
            Py_XSETREF(DIST_OBJ[a][d], Py_NewRef(m));
            DIST_TO[a][d] = (uint8_t)b;
            ndist++;
        }
    }
    Py_DECREF(seq);
    seq = PySequence_Fast(stack_ok, "stack_ok must be a sequence");
    if (!seq) return NULL;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        PyObject *m = PySequence_Fast_GET_ITEM(seq, i);
        long a, b;
        if (!PyObject_TypeCheck(m, MOVE_T) || PyTuple_GET_SIZE(m) != 5 ||
            cell_arg(PyTuple_GET_ITEM(m, 1), &a) < 0 || cell_arg(PyTuple_GET_ITEM(m, 2), &b) < 0 ||
            STACK_OBJ[a][b] != m) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) goto bad;
            return NULL;
        }
        STACK_OK[a][b] = 1;
        nstack++;
    }
    Py_DECREF(seq);
    if (nplace + nstack + ndist > MAXMOVES) goto bad;
    if (!PyTuple_Check(outcomes) || PyTuple_GET_SIZE(outcomes) != 5) goto bad;
    for (int r = 0; r < 5; r++) {
        PyObject *pair = PyTuple_GET_ITEM(outcomes, r);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) goto bad;
        for (int t = 0; t < 2; t++) {
            PyObject *o = PyTuple_GET_ITEM(pair, t);
            Py_XSETREF(OUTCOMES[r + 1][t], Py_NewRef(o));
        }
    }
    Py_INCREF(STATE_T);
    Py_INCREF(MOVE_T);
    ready = 1;
    Py_RETURN_NONE;
bad:
    PyErr_SetString(PyExc_ValueError, "init_board: malformed board tables");
    return NULL;
}

static PyMethodDef methods[] = {
    {"init_board", py_init_board, METH_VARARGS, "Hand over the board tables and classes (once)."},
    {"analyse", py_analyse, METH_O, "(outcome, voyna) of a state, cached on it (rules._analyse)."},
    {"legal_moves", py_legal_moves, METH_O, "XoBoState.legal_moves()."},
    {"apply", (PyCFunction)(void (*)(void))py_apply, METH_FASTCALL,
     "XoBoState.apply_unchecked(move)."},
    {"threat_cells", (PyCFunction)(void (*)(void))py_threat_cells, METH_FASTCALL,
     "rules._threat_cells(ones, stacks, player)."},
    {"evaluate", py_evaluate, METH_O, "ai.evaluate(state)."},
    {"move_prior", (PyCFunction)(void (*)(void))py_move_prior, METH_FASTCALL,
     "ai.move_prior(state, moves)."},
    {"policy_answers", py_policy_answers, METH_O,
     "playout_policy before its draw: a winning move, the answers to a threat, or None."},
    {"playout", (PyCFunction)(void (*)(void))py_playout, METH_FASTCALL,
     "playout(state, seed, limit, weighted, cutoff[, policy]) -> (reward, played)."},
    {"prove", py_prove, METH_VARARGS,
     "prove(state, attacker, depth, max_nodes, max_seconds) -> (True/False/None, nodes)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "tablier.games.xobo._native", "XoBo's compiled core.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    PyObject *m = PyModule_Create(&native_module);
    if (m && PyModule_AddIntConstant(m, "PORTED", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
