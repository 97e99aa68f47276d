/* The compiled core of xobo: placeholder module until the engine is ported. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "tablier.games.xobo._native", "Compiled core (not yet ported).", -1, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    PyObject *m = PyModule_Create(&native_module);
    if (m && PyModule_AddIntConstant(m, "PORTED", 0) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
