/* The tree search's loops over a node's children, compiled.
 *
 * tablier.ai.mcts keeps its tree as Python objects of one slotted class; these
 * functions read the children's statistics straight from the slots (the offsets
 * of the slot descriptors, taken once by bind()), and compute exactly what the
 * Python loops of mcts.py compute, in the same order of floating-point operations,
 * so that a search gives the same tree for a seed with or without them.  Nothing
 * here knows which game is played.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>

enum { F_N, F_W, F_AN, F_AW, F_PRIOR, F_PROVEN, F_COUNT };
static const char *const FIELD_NAMES[F_COUNT] = {"n", "w", "an", "aw", "prior", "proven"};

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
             "Use the slots n, w, an, aw, prior and proven of the class ``cls``.");

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
             "select(children, parent_mean, log_n, exploration, bias, rave, rave_k)\n--\n\n"
             "The child to follow: a proven win at once, never a proven loss, else the best\n"
             "score ``q + exploration * sqrt(log_n / (n + 1)) + bias * prior / (n + 1)``, with\n"
             "``q`` blended with the all-moves-as-first mean when ``rave``; the first child\n"
             "when every one is a proven loss.");

static PyObject *select_child(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_Format(PyExc_TypeError, "select() takes 7 arguments (%zd given)", nargs);
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
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_ssize_t size = PyList_GET_SIZE(children);
    if (size == 0) {
        PyErr_SetString(PyExc_ValueError, "select() needs at least one child");
        return NULL;
    }
    PyObject *best = NULL;
    double best_score = -INFINITY;
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *child = PyList_GET_ITEM(children, i);
        int known;
        double proven;
        if (proven_value(child, &known, &proven) < 0) {
            return NULL;
        }
        if (known) {
            if (proven == WIN) {
                return Py_NewRef(child);
            }
            if (proven == LOSS) {
                continue;
            }
        }
        double n, w, prior;
        if (number(child, F_N, &n) < 0 || number(child, F_W, &w) < 0 ||
            number(child, F_PRIOR, &prior) < 0) {
            return NULL;
        }
        double q = n != 0.0 ? w / n : parent_mean;
        if (rave) {
            double an;
            if (number(child, F_AN, &an) < 0) {
                return NULL;
            }
            if (an != 0.0) {
                double aw;
                if (number(child, F_AW, &aw) < 0) {
                    return NULL;
                }
                double amaf = aw / an;
                /* Python: an / (an + n + n * an / k), the sums exact on ints */
                double beta = an / ((an + n) + (n * an) / k);
                q = (1.0 - beta) * q + beta * amaf;
            }
        }
        double score = q + c * sqrt(log_n / (n + 1.0)) + bias * prior / (n + 1.0);
        if (score > best_score) {
            best_score = score;
            best = child;
        }
    }
    if (best == NULL) {
        best = PyList_GET_ITEM(children, 0);
    }
    return Py_NewRef(best);
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

PyDoc_STRVAR(untrack_doc,
             "untrack(nodes)\n--\n\n"
             "Take these nodes out of the cyclic garbage collector's watch.  Only for nodes\n"
             "that can never be part of a reference cycle (a tree without parent links): they\n"
             "are then still freed by reference counting, and the collector's passes, which\n"
             "otherwise walk every node of a large tree again and again, skip them.");

static PyObject *untrack(PyObject *module, PyObject *nodes) {
    if (check_children(nodes) < 0) {
        return NULL;
    }
    Py_ssize_t size = PyList_GET_SIZE(nodes);
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *node = PyList_GET_ITEM(nodes, i);
        if (PyObject_GC_IsTracked(node)) {
            PyObject_GC_UnTrack(node);
        }
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"bind", bind, METH_O, bind_doc},
    {"select", (PyCFunction)(void (*)(void))select_child, METH_FASTCALL, select_doc},
    {"proof", proof, METH_O, proof_doc},
    {"untrack", untrack, METH_O, untrack_doc},
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

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&native_module); }
