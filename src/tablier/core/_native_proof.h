/* A compiled proof search, shared by the games' cores: does a player force a win within
 * some decisions?
 *
 * The AND/OR search of tablier.ai.solver.Solver.wins on a core's own positions: where
 * the attacker decides, a cheap pass for an immediate win, then some move must win; where
 * the defender decides, a cheap pass for a move that does not lose at once, then every
 * move must still lose.  It answers as the generic solver (the same tree, no table): 1 a
 * forced win, 0 none, -1 the node or time limit was reached.  The moves come in the
 * core's generation order, but for one: the last move that settled a position at the
 * same depth (a win for the attacker, a refutation for the defender) is tried first where
 * it is legal (the killer heuristic: the attacker's winning reply to one defence often
 * wins against the next, and one defence often refutes the next attack).
 *
 * A core includes this file once, after defining the types
 *   PROOF_GAME  what its functions need beside a position (a context, the rule options),
 *   PROOF_POS   a position,
 *   PROOF_MOVE  a move,
 *   PROOF_BUF   one depth's move buffer,
 * and these functions (static, usually inline):
 *   int proof_over(PROOF_GAME g, const PROOF_POS *s, int *winner)
 *       1 when the game is over in *s (*winner: the winner, -1 for a draw), else 0;
 *   int proof_mover(const PROOF_POS *s)                 the player who decides in *s;
 *   PROOF_MOVE *proof_moves(PROOF_GAME g, const PROOF_POS *s, PROOF_BUF *buf, int *n)
 *       the legal moves of *s (not over) in buf, *n of them; NULL with MemoryError set;
 *   void proof_play(PROOF_GAME g, const PROOF_POS *s, const PROOF_MOVE *m, PROOF_POS *out)
 *   int proof_same(const PROOF_MOVE *a, const PROOF_MOVE *b)
 *   PROOF_BUF *proof_buf_new(PROOF_GAME g)   NULL when out of memory;
 *   void proof_buf_free(PROOF_BUF *buf)       (NULL allowed).
 * Its prove() entry point then reads its arguments with proof_args(), its state itself,
 * and answers with proof_run().
 */
#ifndef TABLIER_NATIVE_PROOF_H
#define TABLIER_NATIVE_PROOF_H

#include <Python.h>
#include <string.h>
#include <time.h>

#define PROOF_MAX_DEPTH 15

typedef struct {
    PROOF_GAME game;
    PROOF_BUF *buf[PROOF_MAX_DEPTH + 1];
    PROOF_MOVE killer[PROOF_MAX_DEPTH + 1];
    int has_killer[PROOF_MAX_DEPTH + 1];
    int attacker;
    long long nodes, max_nodes;
    double deadline; /* CPU seconds of the process; < 0: none */
    int stopped;     /* 1: past a limit; -1: out of memory (exception set) */
} Proof;

/* The arguments of prove(state, attacker, depth, max_nodes, max_seconds). */
typedef struct {
    PyObject *state;
    int attacker, depth;
    long long max_nodes;
    double max_seconds;
} ProofArgs;

static double proof_cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int proof_won(const Proof *pf, const PROOF_POS *s) {
    int winner;
    return proof_over(pf->game, s, &winner) && winner == pf->attacker;
}

static int proof_wins(Proof *pf, const PROOF_POS *s, int depth) {
    int winner;
    if (proof_over(pf->game, s, &winner)) return winner == pf->attacker;
    if (depth <= 0) return 0;
    pf->nodes++;
    if (pf->nodes > pf->max_nodes ||
        (pf->deadline >= 0 && (pf->nodes & 255) == 0 && proof_cpu_seconds() > pf->deadline)) {
        pf->stopped = 1;
        return -1;
    }
    int n;
    PROOF_MOVE *moves = proof_moves(pf->game, s, pf->buf[depth], &n);
    if (!moves) {
        pf->stopped = -1;
        return -1;
    }
    const int attacking = proof_mover(s) == pf->attacker;
    if (pf->has_killer[depth]) {
        for (int i = 1; i < n; i++)
            if (proof_same(&moves[i], &pf->killer[depth])) {
                PROOF_MOVE first = moves[0];
                moves[0] = moves[i];
                moves[i] = first;
                break;
            }
    }
    /* the cheap pass: an immediate win (attacker), a move that does not lose at once
     * (defender) */
    int found = 0;
    for (int i = 0; i < n; i++) {
        PROOF_POS t;
        proof_play(pf->game, s, &moves[i], &t);
        int won = proof_won(pf, &t);
        if (attacking ? won : !won) {
            found = 1;
            if (attacking) {
                pf->killer[depth] = moves[i];
                pf->has_killer[depth] = 1;
            }
            break;
        }
    }
    if (attacking && found) return 1;
    if (!attacking && !found) return 1;
    if (depth == 1) return 0;
    for (int i = 0; i < n; i++) {
        PROOF_POS t;
        proof_play(pf->game, s, &moves[i], &t);
        int r = proof_wins(pf, &t, depth - 1);
        if (r < 0) return -1;
        if (attacking == r) { /* a win for the attacker, a refutation for the defender */
            pf->killer[depth] = moves[i];
            pf->has_killer[depth] = 1;
            return r;
        }
    }
    return attacking ? 0 : 1;
}

/* Read prove()'s arguments into *a; -1 with TypeError or ValueError (naming the game). */
static int proof_args(PyObject *args, const char *game, ProofArgs *a) {
    if (!PyArg_ParseTuple(args, "OiiLd:prove", &a->state, &a->attacker, &a->depth,
                          &a->max_nodes, &a->max_seconds))
        return -1;
    if (a->attacker != 0 && a->attacker != 1) {
        PyErr_Format(PyExc_ValueError, "%s: the attacker must be 0 or 1", game);
        return -1;
    }
    if (a->depth < 0 || a->depth > PROOF_MAX_DEPTH) {
        PyErr_Format(PyExc_ValueError, "%s: the proof depth must be from 0 to %d", game,
                     PROOF_MAX_DEPTH);
        return -1;
    }
    return 0;
}

/* The search from *root (a game that goes on): (True/False/None, positions expanded), or
 * NULL with an exception. */
static PyObject *proof_run(PROOF_GAME game, const PROOF_POS *root, const ProofArgs *a) {
    Proof pf;
    memset(&pf, 0, sizeof pf);
    pf.game = game;
    pf.attacker = a->attacker;
    pf.max_nodes = a->max_nodes < 0 ? 0 : a->max_nodes;
    pf.deadline = a->max_seconds < 0 ? -1.0 : proof_cpu_seconds() + a->max_seconds;
    PyObject *out = NULL;
    int ok = 1;
    for (int d = 1; d <= a->depth; d++)
        if (!(pf.buf[d] = proof_buf_new(game))) {
            PyErr_NoMemory();
            ok = 0;
            break;
        }
    if (ok) {
        int r = proof_wins(&pf, root, a->depth);
        if (pf.stopped < 0)
            out = NULL;
        else if (r < 0)
            out = Py_BuildValue("(OL)", Py_None, pf.nodes);
        else
            out = Py_BuildValue("(OL)", r ? Py_True : Py_False, pf.nodes);
    }
    for (int d = 1; d <= a->depth; d++) proof_buf_free(pf.buf[d]);
    return out;
}

#endif /* TABLIER_NATIVE_PROOF_H */
