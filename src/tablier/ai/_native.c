/* The tree search's loops over a node's children, compiled.
 *
 * tablier.ai.mcts keeps its tree as Python objects of one slotted class; these
 * functions read and write the nodes' slots directly (at the offsets of the slot
 * descriptors, taken once by bind()), and compute exactly what the Python loops of
 * mcts.py compute, in the same order of floating-point operations, so that a search
 * gives the same tree for a seed with or without them.  Nothing here knows which
 * game is played: the game is reached through its states' apply_unchecked and
 * outcome, and its moves' hash and equality.
 *
 * The nodes made here are not tracked by the cyclic garbage collector: a tree has
 * no reference cycle (no parent links), so reference counting frees it, and the
 * collector's passes need not walk its nodes again and again.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>

enum {
    F_N, F_W, F_AN, F_AW, F_PRIOR, F_PROVEN, F_MOVE, F_STATE, F_MOVER, F_CHILDREN, F_INDEX,
    F_RANKED, F_COUNT
};
static const char *const FIELD_NAMES[F_COUNT] = {
    "n", "w", "an", "aw", "prior", "proven", "move", "state", "mover", "children", "index",
    "ranked",
};
static PyObject *str_apply_unchecked, *str_outcome, *str_score, *str_to_move;

static PyTypeObject *node_type = NULL;  /* the class given to bind() */
static Py_ssize_t offsets[F_COUNT];

static const double WIN = 1.0;
static const double LOSS = 0.0;

/* The slot value of `node` (borrowed), or NULL with AttributeError when unset. */
static PyObject *slot(PyObject *node, int field) {
    PyObject *value = *(PyObject **)((char *)node + offsets[field]);
    if (value == NULL) {
        PyErr_Format(PyExc_AttributeError, "node has no value for '%s'", FIELD_NAMES[field]);
    }
    return value;
}

/* Set a slot to `value` (a new reference, stolen); the old value is released. */
static void set_slot(PyObject *node, int field, PyObject *value) {
    PyObject **where = (PyObject **)((char *)node + offsets[field]);
    PyObject *old = *where;
    *where = value;
    Py_XDECREF(old);
}

/* A number slot as a double (an int or a float only); -1 with an exception on error. */
static int number(PyObject *node, int field, double *out) {
    PyObject *value = slot(node, field);
    if (value == NULL) {
        return -1;
    }
    if (PyFloat_CheckExact(value)) {
        *out = PyFloat_AS_DOUBLE(value);
        return 0;
    }
    if (PyLong_CheckExact(value)) {
        *out = PyLong_AsDouble(value);
        return (*out == -1.0 && PyErr_Occurred()) ? -1 : 0;
    }
    PyErr_Format(PyExc_TypeError, "node field '%s' must be an int or a float, not %.100s",
                 FIELD_NAMES[field], Py_TYPE(value)->tp_name);
    return -1;
}

/* The proven value of `node`: 0 with *known = 0 when None. */
static int proven_value(PyObject *node, int *known, double *out) {
    PyObject *value = slot(node, F_PROVEN);
    if (value == NULL) {
        return -1;
    }
    if (value == Py_None) {
        *known = 0;
        return 0;
    }
    *known = 1;
    return number(node, F_PROVEN, out);
}

static int check_children(PyObject *children) {
    if (node_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "bind() the node class first");
        return -1;
    }
    if (!PyList_CheckExact(children)) {
        PyErr_Format(PyExc_TypeError, "children must be a list, not %.100s",
                     Py_TYPE(children)->tp_name);
        return -1;
    }
    Py_ssize_t size = PyList_GET_SIZE(children);
    for (Py_ssize_t i = 0; i < size; i++) {
        if (Py_TYPE(PyList_GET_ITEM(children, i)) != node_type) {
            PyErr_Format(PyExc_TypeError, "children[%zd] is a %.100s, not a %.100s", i,
                         Py_TYPE(PyList_GET_ITEM(children, i))->tp_name, node_type->tp_name);
            return -1;
        }
    }
    return 0;
}

PyDoc_STRVAR(bind_doc,
             "bind(cls)\n--\n\n"
             "Use the slots of the node class ``cls``: n, w, an, aw, prior, proven, move,\n"
             "state, mover, children, index and ranked.");

static PyObject *bind(PyObject *module, PyObject *cls) {
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "bind() needs a class");
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)cls;
    Py_ssize_t found[F_COUNT];
    for (int i = 0; i < F_COUNT; i++) {
        PyObject *descr = PyDict_GetItemString(type->tp_dict, FIELD_NAMES[i]);
        if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
            PyErr_Format(PyExc_TypeError, "%.100s has no slot '%s'", type->tp_name,
                         FIELD_NAMES[i]);
            return NULL;
        }
        PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
        if (member->type != T_OBJECT_EX) {
            PyErr_Format(PyExc_TypeError, "%.100s.%s is not a plain slot", type->tp_name,
                         FIELD_NAMES[i]);
            return NULL;
        }
        found[i] = member->offset;
    }
    memcpy(offsets, found, sizeof offsets);
    Py_INCREF(cls);
    Py_XSETREF(node_type, type);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(select_doc,
             "select(children, parent_mean, log_n, exploration, bias, rave, rave_k, normalize)\n--\n\n"
             "The child to follow: a proven win at once, never a proven loss, else the best\n"
             "score ``q + exploration * sqrt(log_n / (n + 1)) + bias * prior / (n + 1)``, with\n"
             "``q`` blended with the all-moves-as-first mean when ``rave`` and, with\n"
             "``normalize``, the children's ``q`` stretched to [0, 1] where they differ; the\n"
             "first child when every one is a proven loss.");

static PyObject *best_child(PyObject *children, double parent_mean, double log_n, double c,
                            double bias, int rave, double k, int normalize);

static PyObject *select_child(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8) {
        PyErr_Format(PyExc_TypeError, "select() takes 8 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *children = args[0];
    if (check_children(children) < 0) {
        return NULL;
    }
    double parent_mean = PyFloat_AsDouble(args[1]);
    double log_n = PyFloat_AsDouble(args[2]);
    double c = PyFloat_AsDouble(args[3]);
    double bias = PyFloat_AsDouble(args[4]);
    int rave = PyObject_IsTrue(args[5]);
    double k = PyFloat_AsDouble(args[6]);
    int normalize = PyObject_IsTrue(args[7]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    return best_child(children, parent_mean, log_n, c, bias, rave, k, normalize);
}

/* What best_child() reads of a child: its mean (NAN for a proven loss), visits, prior. */
typedef struct {
    double q, n, prior;
} Seen;

/* mcts._FLAT: means closer than this are not stretched */
static const double FLAT = 1e-9;

/* The loop of select(): `children` is a checked list of nodes. */
static PyObject *best_child(PyObject *children, double parent_mean, double log_n, double c,
                            double bias, int rave, double k, int normalize) {
    Py_ssize_t size = PyList_GET_SIZE(children);
    if (size == 0) {
        PyErr_SetString(PyExc_ValueError, "select() needs at least one child");
        return NULL;
    }
    Seen few[256];
    Seen *seen = size <= 256 ? few : PyMem_Malloc((size_t)size * sizeof(Seen));
    if (seen == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    double lo = INFINITY, hi = -INFINITY;
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *child = PyList_GET_ITEM(children, i);
        int known;
        double proven;
        if (proven_value(child, &known, &proven) < 0) {
            goto done;
        }
        if (known) {
            if (proven == WIN) {
                result = Py_NewRef(child);
                goto done;
            }
            if (proven == LOSS) {
                seen[i].q = NAN;
                continue;
            }
        }
        double n, w = 0.0, prior;  /* w is read only for a visited child */
        if (number(child, F_N, &n) < 0 || (n != 0.0 && number(child, F_W, &w) < 0) ||
            number(child, F_PRIOR, &prior) < 0) {
            goto done;
        }
        double q = n != 0.0 ? w / n : parent_mean;
        if (rave) {
            double an;
            if (number(child, F_AN, &an) < 0) {
                goto done;
            }
            if (an != 0.0) {
                double aw;
                if (number(child, F_AW, &aw) < 0) {
                    goto done;
                }
                double amaf = aw / an;
                /* Python: an / (an + n + n * an / k), the sums exact on ints */
                double beta = an / ((an + n) + (n * an) / k);
                q = (1.0 - beta) * q + beta * amaf;
            }
        }
        seen[i] = (Seen){q, n, prior};
        if (q < lo) lo = q;
        if (q > hi) hi = q;
    }
    double base = 0.0, span = 1.0;
    if (normalize && hi - lo > FLAT) {
        base = lo;
        span = hi - lo;
    }
    double best_score = -INFINITY;
    for (Py_ssize_t i = 0; i < size; i++) {
        if (isnan(seen[i].q)) {
            continue;
        }
        double n = seen[i].n;
        double score = (seen[i].q - base) / span + c * sqrt(log_n / (n + 1.0)) +
                       bias * seen[i].prior / (n + 1.0);
        if (score > best_score) {
            best_score = score;
            result = PyList_GET_ITEM(children, i);
        }
    }
    if (result == NULL) {
        result = PyList_GET_ITEM(children, 0);
    }
    Py_INCREF(result);
done:
    if (seen != few) {
        PyMem_Free(seen);
    }
    return result;
}

PyDoc_STRVAR(proof_doc,
             "proof(children)\n--\n\n"
             "What the children's proofs prove for the player choosing among them: 1.0 when\n"
             "one is a proven win, else the best value when every one is proven, else None.");

static PyObject *proof(PyObject *module, PyObject *children) {
    if (check_children(children) < 0) {
        return NULL;
    }
    Py_ssize_t size = PyList_GET_SIZE(children);
    int any = 0, unknown = 0;
    double best = 0.0;
    for (Py_ssize_t i = 0; i < size; i++) {
        int known;
        double value;
        if (proven_value(PyList_GET_ITEM(children, i), &known, &value) < 0) {
            return NULL;
        }
        if (!known) {
            unknown = 1;
            continue;
        }
        if (value == WIN) {
            return PyFloat_FromDouble(WIN);
        }
        if (!any || value > best) {
            best = value;
        }
        any = 1;
    }
    if (!any || unknown) {
        Py_RETURN_NONE;
    }
    return PyFloat_FromDouble(best);
}

PyDoc_STRVAR(descend_doc,
             "descend(node, children, exploration, bias, rave, rave_k, normalize)\n--\n\n"
             "select() among ``children`` (None: all of ``node``'s), with the parent's mean\n"
             "and ``log(n + 1)`` taken from ``node``: its mean for the player deciding there\n"
             "(0.5 at the root or before any visit).");

static PyObject *descend(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_Format(PyExc_TypeError, "descend() takes 7 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *node = args[0], *children = args[1];
    double c = PyFloat_AsDouble(args[2]);
    double bias = PyFloat_AsDouble(args[3]);
    int rave = PyObject_IsTrue(args[4]);
    double k = PyFloat_AsDouble(args[5]);
    int normalize = PyObject_IsTrue(args[6]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (node_type == NULL || Py_TYPE(node) != node_type) {
        PyErr_SetString(PyExc_TypeError, "descend() needs a node (of the bound class)");
        return NULL;
    }
    PyObject *own = slot(node, F_CHILDREN);
    if (own == NULL) {
        return NULL;
    }
    if (children == Py_None) {
        children = own;
    }
    if (check_children(own) < 0 || check_children(children) < 0) {
        return NULL;
    }
    if (PyList_GET_SIZE(own) == 0 || PyList_GET_SIZE(children) == 0) {
        PyErr_SetString(PyExc_ValueError, "descend() needs at least one child");
        return NULL;
    }
    double n, w;
    PyObject *mover = slot(node, F_MOVER);
    if (mover == NULL || number(node, F_N, &n) < 0 || number(node, F_W, &w) < 0) {
        return NULL;
    }
    /* the player deciding at `node` made every child's move */
    PyObject *player = slot(PyList_GET_ITEM(own, 0), F_MOVER);
    if (player == NULL) {
        return NULL;
    }
    double parent_mean = 0.5;
    Py_INCREF(children);  /* held: the comparison below may run Python code */
    if (mover != Py_None && n != 0.0) {
        Py_INCREF(mover);
        Py_INCREF(player);
        int same = PyObject_RichCompareBool(mover, player, Py_EQ);
        Py_DECREF(player);
        Py_DECREF(mover);
        if (same < 0) {
            Py_DECREF(children);
            return NULL;
        }
        parent_mean = same ? w / n : 1.0 - w / n;
    }
    PyObject *best =
        best_child(children, parent_mean, log(n + 1.0), c, bias, rave, k, normalize);
    Py_DECREF(children);
    return best;
}

/* A new node, untracked by the garbage collector, with every slot set. */
static PyObject *new_node(PyObject *move, PyObject *state, PyObject *mover, PyObject *prior,
                          PyObject *zero, PyObject *zero_float) {
    PyObject *node = node_type->tp_alloc(node_type, 0);
    if (node == NULL) {
        return NULL;
    }
    PyObject_GC_UnTrack(node);
    set_slot(node, F_MOVE, Py_NewRef(move));
    set_slot(node, F_STATE, Py_NewRef(state));
    set_slot(node, F_MOVER, Py_NewRef(mover));
    set_slot(node, F_PRIOR, Py_NewRef(prior));
    set_slot(node, F_N, Py_NewRef(zero));
    set_slot(node, F_W, Py_NewRef(zero_float));
    set_slot(node, F_AN, Py_NewRef(zero));
    set_slot(node, F_AW, Py_NewRef(zero_float));
    set_slot(node, F_CHILDREN, Py_NewRef(Py_None));
    set_slot(node, F_INDEX, Py_NewRef(Py_None));
    set_slot(node, F_PROVEN, Py_NewRef(Py_None));
    set_slot(node, F_RANKED, Py_NewRef(zero));
    return node;
}

PyDoc_STRVAR(children_doc,
             "children(state, moves, priors, player, decisive, solver)\n--\n\n"
             "The child nodes of ``state`` for ``moves`` (priors: a list, or None for 1.0\n"
             "each), made by ``player``.  With ``decisive`` each child state is computed;\n"
             "a child keeps it only when the game is over there, and is then proven (with\n"
             "``solver``) by the outcome's score for ``player``.");

static PyObject *children(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_Format(PyExc_TypeError, "children() takes 6 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *state = args[0], *moves = args[1], *priors = args[2], *player = args[3];
    int decisive = PyObject_IsTrue(args[4]);
    int solver = PyObject_IsTrue(args[5]);
    if (decisive < 0 || solver < 0) {
        return NULL;
    }
    if (node_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "bind() the node class first");
        return NULL;
    }
    if (!PyList_CheckExact(moves)) {
        PyErr_Format(PyExc_TypeError, "moves must be a list, not %.100s", Py_TYPE(moves)->tp_name);
        return NULL;
    }
    if (priors != Py_None &&
        (!PyList_CheckExact(priors) || PyList_GET_SIZE(priors) != PyList_GET_SIZE(moves))) {
        PyErr_SetString(PyExc_ValueError, "priors must be None or a list as long as moves");
        return NULL;
    }
    PyObject *zero = PyLong_FromLong(0);
    PyObject *zero_float = PyFloat_FromDouble(0.0);
    PyObject *one = PyFloat_FromDouble(1.0);
    PyObject *result = PyList_New(0);
    if (zero == NULL || zero_float == NULL || one == NULL || result == NULL) {
        goto error;
    }
    /* the list is read again at each step: the game's code runs in between */
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(moves); i++) {
        PyObject *move = Py_NewRef(PyList_GET_ITEM(moves, i));
        PyObject *prior;
        if (priors == Py_None) {
            prior = Py_NewRef(one);
        } else if (i < PyList_GET_SIZE(priors)) {
            prior = Py_NewRef(PyList_GET_ITEM(priors, i));
        } else {
            Py_DECREF(move);
            PyErr_SetString(PyExc_ValueError, "priors changed size");
            goto error;
        }
        PyObject *after = NULL, *outcome = NULL, *proven = NULL;
        if (decisive) {
            after = PyObject_CallMethodOneArg(state, str_apply_unchecked, move);
            if (after != NULL) {
                outcome = PyObject_GetAttr(after, str_outcome);
            }
            if (outcome != NULL && outcome != Py_None && solver) {
                proven = PyObject_CallMethodOneArg(outcome, str_score, player);
            }
            if (after == NULL || outcome == NULL ||
                (outcome != Py_None && solver && proven == NULL)) {
                Py_XDECREF(after);
                Py_XDECREF(outcome);
                Py_DECREF(move);
                Py_DECREF(prior);
                goto error;
            }
        }
        int over = outcome != NULL && outcome != Py_None;
        PyObject *node = new_node(move, over ? after : Py_None, player, prior, zero, zero_float);
        Py_XDECREF(after);
        Py_XDECREF(outcome);
        Py_DECREF(move);
        Py_DECREF(prior);
        if (node == NULL) {
            Py_XDECREF(proven);
            goto error;
        }
        if (proven != NULL) {
            set_slot(node, F_PROVEN, proven);
        }
        int failed = PyList_Append(result, node);
        Py_DECREF(node);
        if (failed) {
            goto error;
        }
    }
    Py_DECREF(zero);
    Py_DECREF(zero_float);
    Py_DECREF(one);
    return result;
error:
    Py_XDECREF(zero);
    Py_XDECREF(zero_float);
    Py_XDECREF(one);
    Py_XDECREF(result);
    return NULL;
}

/* Add 1 to the int slot `field` of `node`. */
static int increment(PyObject *node, int field) {
    PyObject *value = slot(node, field);
    if (value == NULL) {
        return -1;
    }
    if (!PyLong_CheckExact(value)) {
        PyErr_Format(PyExc_TypeError, "node field '%s' must be an int", FIELD_NAMES[field]);
        return -1;
    }
    Py_ssize_t n = PyLong_AsSsize_t(value);
    if (n == -1 && PyErr_Occurred()) {
        return -1;
    }
    PyObject *more = PyLong_FromSsize_t(n + 1);
    if (more == NULL) {
        return -1;
    }
    set_slot(node, field, more);
    return 0;
}

/* Add `amount` to the number slot `field` of `node` (the sum is a float). */
static int add(PyObject *node, int field, double amount) {
    double value;
    if (number(node, field, &value) < 0) {
        return -1;
    }
    PyObject *sum = PyFloat_FromDouble(value + amount);
    if (sum == NULL) {
        return -1;
    }
    set_slot(node, field, sum);
    return 0;
}

/* A player number (0 or 1) from an int object; -1 with ValueError otherwise. */
static int player_number(PyObject *value) {
    long player = PyLong_Check(value) ? PyLong_AsLong(value) : -1;
    if (player != 0 && player != 1) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_ValueError, "a player must be 0 or 1, not %R", value);
        }
        return -1;
    }
    return (int)player;
}

/* Credit `child` with an all-moves-as-first result `r`. */
static int credit(PyObject *child, double r) {
    return (increment(child, F_AN) < 0 || add(child, F_AW, r) < 0) ? -1 : 0;
}

/* RAVE for `node` at `depth`: its children whose move its player made from there on. */
static int amaf(PyObject *node, Py_ssize_t depth, PyObject *first[2], const double rewards[2]) {
    PyObject *children = slot(node, F_CHILDREN);
    if (children == NULL) {
        return -1;
    }
    if (children == Py_None) {
        return 0;
    }
    if (!PyList_CheckExact(children)) {
        PyErr_SetString(PyExc_TypeError, "node children must be a list or None");
        return -1;
    }
    if (PyList_GET_SIZE(children) == 0) {
        return 0;
    }
    PyObject *state = slot(node, F_STATE);
    if (state == NULL) {
        return -1;
    }
    Py_INCREF(state);
    PyObject *to_move = PyObject_GetAttr(state, str_to_move);
    Py_DECREF(state);
    if (to_move == NULL) {
        return -1;
    }
    int player = player_number(to_move);
    Py_DECREF(to_move);
    if (player < 0) {
        return -1;
    }
    double r = rewards[player];
    PyObject *seen_by = first[player];  /* move -> where its player first made it */
    int status = 0;
    Py_INCREF(children);
    if (PyList_GET_SIZE(children) <= PyDict_GET_SIZE(seen_by)) {
        for (Py_ssize_t i = 0; status == 0 && i < PyList_GET_SIZE(children); i++) {
            PyObject *child = Py_NewRef(PyList_GET_ITEM(children, i));
            PyObject *move = Py_TYPE(child) == node_type ? slot(child, F_MOVE) : NULL;
            if (move == NULL) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_TypeError, "a child is not a node");
                }
                status = -1;
            } else {
                Py_INCREF(move);  /* its hash and equality are Python code */
                PyObject *seen = PyDict_GetItemWithError(seen_by, move);
                Py_DECREF(move);
                if (seen == NULL) {
                    status = PyErr_Occurred() ? -1 : 0;
                } else if (PyLong_AsSsize_t(seen) >= depth) {
                    status = credit(child, r);
                }
            }
            Py_DECREF(child);
        }
        Py_DECREF(children);
        return status;
    }
    /* fewer moves played than children: look the played ones up instead (same result) */
    PyObject *index = slot(node, F_INDEX);
    if (index == NULL) {
        Py_DECREF(children);
        return -1;
    }
    if (index == Py_None) {
        index = PyDict_New();
        for (Py_ssize_t i = PyList_GET_SIZE(children) - 1; index != NULL && i >= 0; i--) {
            if (i >= PyList_GET_SIZE(children)) {
                continue;
            }
            PyObject *child = Py_NewRef(PyList_GET_ITEM(children, i));
            PyObject *move = Py_TYPE(child) == node_type ? slot(child, F_MOVE) : NULL;
            Py_XINCREF(move);
            if (move == NULL || PyDict_SetItem(index, move, child) < 0) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_TypeError, "a child is not a node");
                }
                Py_CLEAR(index);
            }
            Py_XDECREF(move);
            Py_DECREF(child);
        }
        if (index == NULL) {
            Py_DECREF(children);
            return -1;
        }
        set_slot(node, F_INDEX, index);  /* the node holds it now */
    }
    if (!PyDict_CheckExact(index)) {
        PyErr_SetString(PyExc_TypeError, "node index must be a dict or None");
        Py_DECREF(children);
        return -1;
    }
    Py_INCREF(index);
    Py_ssize_t pos = 0;
    PyObject *move, *seen;
    while (status == 0 && PyDict_Next(seen_by, &pos, &move, &seen)) {
        if (PyLong_AsSsize_t(seen) < depth) {
            continue;
        }
        Py_INCREF(move);
        PyObject *found = PyDict_GetItemWithError(index, move);
        Py_DECREF(move);
        if (found == NULL) {
            status = PyErr_Occurred() ? -1 : 0;
        } else if (Py_TYPE(found) != node_type) {
            PyErr_SetString(PyExc_TypeError, "node index holds something else than nodes");
            status = -1;
        } else {
            Py_INCREF(found);
            status = credit(found, r);
            Py_DECREF(found);
        }
    }
    Py_DECREF(index);
    Py_DECREF(children);
    return status;
}

PyDoc_STRVAR(backup_doc,
             "backup(path, played, reward0, rave)\n--\n\n"
             "Back a simulation up the ``path`` of nodes it followed: one more visit each,\n"
             "the reward of each node's mover (``reward0`` for player 0, its complement for\n"
             "player 1), and with ``rave`` the all-moves-as-first results of every child\n"
             "whose move its player made later in the simulation (``played``: the\n"
             "``(mover, move)`` pairs, tree moves then playout moves).");

static PyObject *backup(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "backup() takes 4 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *path = args[0], *played = args[1];
    double reward0 = PyFloat_AsDouble(args[2]);
    int rave = PyObject_IsTrue(args[3]);
    if ((reward0 == -1.0 && PyErr_Occurred()) || rave < 0) {
        return NULL;
    }
    if (check_children(path) < 0) {
        return NULL;
    }
    if (!PyList_CheckExact(played)) {
        PyErr_Format(PyExc_TypeError, "played must be a list, not %.100s",
                     Py_TYPE(played)->tp_name);
        return NULL;
    }
    const double rewards[2] = {reward0, 1.0 - reward0};
    PyObject *first[2] = {NULL, NULL};
    if (rave) {
        first[0] = PyDict_New();
        first[1] = PyDict_New();
        if (first[0] == NULL || first[1] == NULL) {
            goto error;
        }
        for (Py_ssize_t i = PyList_GET_SIZE(played) - 1; i >= 0; i--) {
            if (i >= PyList_GET_SIZE(played)) {
                continue;
            }
            PyObject *pair = PyList_GET_ITEM(played, i);
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
                PyErr_SetString(PyExc_TypeError, "played holds (mover, move) pairs");
                goto error;
            }
            Py_INCREF(pair);
            int mover = player_number(PyTuple_GET_ITEM(pair, 0));
            PyObject *where = mover < 0 ? NULL : PyLong_FromSsize_t(i);
            int failed = where == NULL ||
                         PyDict_SetItem(first[mover], PyTuple_GET_ITEM(pair, 1), where) < 0;
            Py_XDECREF(where);
            Py_DECREF(pair);
            if (failed) {
                goto error;
            }
        }
    }
    Py_INCREF(path);
    for (Py_ssize_t depth = 0; depth < PyList_GET_SIZE(path); depth++) {
        PyObject *node = Py_NewRef(PyList_GET_ITEM(path, depth));
        int failed = Py_TYPE(node) != node_type || increment(node, F_N) < 0;
        PyObject *mover = failed ? NULL : slot(node, F_MOVER);
        failed = failed || mover == NULL;
        if (!failed && mover != Py_None) {
            int who = player_number(mover);
            failed = who < 0 || add(node, F_W, rewards[who]) < 0;
        }
        if (!failed && rave) {
            failed = amaf(node, depth, first, rewards) < 0;
        }
        Py_DECREF(node);
        if (failed) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError, "path holds something else than nodes");
            }
            Py_DECREF(path);
            goto error;
        }
    }
    Py_DECREF(path);
    Py_XDECREF(first[0]);
    Py_XDECREF(first[1]);
    Py_RETURN_NONE;
error:
    Py_XDECREF(first[0]);
    Py_XDECREF(first[1]);
    return NULL;
}

PyDoc_STRVAR(scaled_doc,
             "scaled(weights)\n--\n\n"
             "The weights as floats, negative ones (and NaN) as 0, divided by the largest;\n"
             "None when the largest is not above 0 (see Knowledge.priors).");

static PyObject *scaled(PyObject *module, PyObject *weights) {
    PyObject *seq = PySequence_Fast(weights, "weights must be a sequence");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t size = PySequence_Fast_GET_SIZE(seq);
    if (size == 0) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "no weights to scale");
        return NULL;
    }
    double *values = PyMem_Malloc((size_t)size * sizeof(double));
    if (values == NULL) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    double top = 0.0;
    for (Py_ssize_t i = 0; i < size; i++) {
        if (i >= PySequence_Fast_GET_SIZE(seq)) {  /* a float() changed the list */
            PyErr_SetString(PyExc_RuntimeError, "the weights changed size");
            goto done;
        }
        PyObject *item = Py_NewRef(PySequence_Fast_GET_ITEM(seq, i));
        double v;
        if (PyFloat_CheckExact(item)) {
            v = PyFloat_AS_DOUBLE(item);
        } else {
            PyObject *as_float = PyNumber_Float(item);  /* float(w) */
            if (as_float == NULL) {
                Py_DECREF(item);
                goto done;
            }
            v = PyFloat_AS_DOUBLE(as_float);
            Py_DECREF(as_float);
        }
        Py_DECREF(item);
        v = v > 0.0 ? v : 0.0;
        values[i] = v;
        if (i == 0 || v > top) {
            top = v;
        }
    }
    if (!(top > 0.0)) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    result = PyList_New(size);
    for (Py_ssize_t i = 0; result != NULL && i < size; i++) {
        PyObject *value = PyFloat_FromDouble(values[i] / top);
        if (value == NULL) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, i, value);
    }
done:
    PyMem_Free(values);
    Py_DECREF(seq);
    return result;
}

static PyMethodDef methods[] = {
    {"bind", bind, METH_O, bind_doc},
    {"select", (PyCFunction)(void (*)(void))select_child, METH_FASTCALL, select_doc},
    {"proof", proof, METH_O, proof_doc},
    {"scaled", scaled, METH_O, scaled_doc},
    {"descend", (PyCFunction)(void (*)(void))descend, METH_FASTCALL, descend_doc},
    {"children", (PyCFunction)(void (*)(void))children, METH_FASTCALL, children_doc},
    {"backup", (PyCFunction)(void (*)(void))backup, METH_FASTCALL, backup_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    "tablier.ai._native",
    "The tree search's loops over a node's children, compiled (see tablier.ai.mcts).",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    str_apply_unchecked = PyUnicode_InternFromString("apply_unchecked");
    str_outcome = PyUnicode_InternFromString("outcome");
    str_score = PyUnicode_InternFromString("score");
    str_to_move = PyUnicode_InternFromString("to_move");
    if (!str_apply_unchecked || !str_outcome || !str_score || !str_to_move) {
        return NULL;
    }
    return PyModule_Create(&native_module);
}
