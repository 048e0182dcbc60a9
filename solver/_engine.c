/* The search loop of solver/engine.py, compiled: walks a plan (solver/plan.py) depth first with an explicit
 * stack, so a search can stop after a budget of placements and go on where it stopped (progress, Ctrl-C,
 * timeouts are the caller's). Counts, nodes and the order solutions are found in are those of the Python twin
 * (engine.PySearch); tests/test_solver_engines.py checks that they agree. Layout constants: plan.py. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { ENTRY_TILE = 0, ENTRY_SHOWN = 2, ENTRY_NEED = 6, ENTRY_STRIDE = 10 };
enum { STEP_BUCKETS = 0, STEP_KEY_A, STEP_SIDE_A, STEP_KEY_B, STEP_SIDE_B, STEP_EXTRAS, STEP_EXTRA, STEP_STRIDE = 13 };
enum { RUNNING = 0, DONE = 1, FOUND_FIRST = 2 };

typedef struct {
    PyObject_HEAD
    int32_t *entries, *steps, *buckets;
    int32_t *pos, *end, *placed;
    uint8_t *used;
    int tiles, nsteps, colours, base, depth, first, state;
    long long nodes, found, deepest;
    int32_t *kept;            /* nsteps entries per kept solution */
    Py_ssize_t nkept, cap, keep_limit;
} Search;

static int32_t *copy_ints(PyObject *buffer, Py_ssize_t *count) {
    Py_buffer view;
    if (PyObject_GetBuffer(buffer, &view, PyBUF_SIMPLE) < 0) return NULL;
    int32_t *out = malloc(view.len ? view.len : 1);
    if (out) memcpy(out, view.buf, view.len);
    *count = view.len / 4;
    PyBuffer_Release(&view);
    if (!out) PyErr_NoMemory();
    return out;
}

static void enter(Search *s, int d) {
    const int32_t *st = s->steps + (Py_ssize_t)d * STEP_STRIDE;
    int key = 0;
    if (st[STEP_KEY_A] >= 0) {
        key = s->entries[(Py_ssize_t)s->placed[st[STEP_KEY_A]] * ENTRY_STRIDE + ENTRY_NEED + st[STEP_SIDE_A]];
        if (st[STEP_KEY_B] >= 0)
            key = key * s->colours
                + s->entries[(Py_ssize_t)s->placed[st[STEP_KEY_B]] * ENTRY_STRIDE + ENTRY_NEED + st[STEP_SIDE_B]];
    }
    s->pos[d] = s->buckets[st[STEP_BUCKETS] + key];
    s->end[d] = s->buckets[st[STEP_BUCKETS] + key + 1];
}

static int keep(Search *s) {
    if (s->nkept >= s->keep_limit) return 0;
    if (s->nkept == s->cap) {
        Py_ssize_t cap = s->cap ? 2 * s->cap : 64;
        int32_t *grown = realloc(s->kept, (size_t)cap * s->nsteps * sizeof(int32_t));
        if (!grown) { PyErr_NoMemory(); return -1; }
        s->kept = grown;
        s->cap = cap;
    }
    memcpy(s->kept + s->nkept * s->nsteps, s->placed, s->nsteps * sizeof(int32_t));
    s->nkept++;
    return 0;
}

/* Place up to `budget` more tiles (at least the next one), then return the state. */
static int advance(Search *s, long long budget) {
    const int32_t *entries = s->entries, *steps = s->steps, *buckets = s->buckets;
    int32_t *pos = s->pos, *end = s->end, *placed = s->placed;
    uint8_t *used = s->used;
    int d = s->depth, last = s->nsteps - 1, base = s->base, colours = s->colours;
    long long nodes = s->nodes, limit = nodes + budget, deepest = s->deepest;
    int state = RUNNING;
    const int32_t *st = steps + (Py_ssize_t)d * STEP_STRIDE;  /* this depth's step, kept as d moves */
    for (;;) {
        int32_t p = pos[d];
        if (p < end[d]) {
            pos[d] = p + 1;
            const int32_t *e = entries + (Py_ssize_t)p * ENTRY_STRIDE;
            if (used[e[ENTRY_TILE]]) continue;
            if (st[STEP_EXTRAS]) {
                int fits = 1;
                for (int x = 0; x < st[STEP_EXTRAS]; x++) {
                    const int32_t *c = st + STEP_EXTRA + 3 * x;
                    if (entries[(Py_ssize_t)placed[c[0]] * ENTRY_STRIDE + ENTRY_NEED + c[1]] != e[ENTRY_SHOWN + c[2]]) {
                        fits = 0;
                        break;
                    }
                }
                if (!fits) continue;
            }
            nodes++;
            placed[d] = p;
            if (d == last) {
                s->found++;
                if (keep(s) < 0) { state = -1; break; }
                if (s->first) { state = FOUND_FIRST; break; }
                continue;
            }
            used[e[ENTRY_TILE]] = 1;
            d++;
            st += STEP_STRIDE;
            if (d > deepest) deepest = d;
            /* The next cell's candidates: the bucket of the colours its placed neighbours need. */
            int key = 0;
            if (st[STEP_KEY_A] >= 0) {
                key = entries[(Py_ssize_t)placed[st[STEP_KEY_A]] * ENTRY_STRIDE + ENTRY_NEED + st[STEP_SIDE_A]];
                if (st[STEP_KEY_B] >= 0)
                    key = key * colours
                        + entries[(Py_ssize_t)placed[st[STEP_KEY_B]] * ENTRY_STRIDE + ENTRY_NEED + st[STEP_SIDE_B]];
            }
            pos[d] = buckets[st[STEP_BUCKETS] + key];
            end[d] = buckets[st[STEP_BUCKETS] + key + 1];
            if (nodes >= limit) break;
        } else {
            d--;
            if (d < base) { state = DONE; d = base; break; }
            st -= STEP_STRIDE;
            used[entries[(Py_ssize_t)placed[d] * ENTRY_STRIDE + ENTRY_TILE]] = 0;
        }
    }
    s->depth = d;
    s->nodes = nodes;
    s->deepest = deepest;
    s->state = state;
    return state;
}

static int Search_init(Search *s, PyObject *args, PyObject *kwds) {
    static char *names[] = {"entries", "steps", "buckets", "tiles", "colours", "prefix", "keep", "first", NULL};
    PyObject *entries, *steps, *buckets, *prefix;
    Py_ssize_t n_entries, n_steps, n_buckets, n_prefix, keep_limit;
    int tiles, colours, first;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOiiOnp", names, &entries, &steps, &buckets, &tiles,
                                     &colours, &prefix, &keep_limit, &first))
        return -1;
    if (!(s->entries = copy_ints(entries, &n_entries)) || !(s->steps = copy_ints(steps, &n_steps))
        || !(s->buckets = copy_ints(buckets, &n_buckets)))
        return -1;
    int32_t *given = copy_ints(prefix, &n_prefix);
    if (!given) return -1;
    s->nsteps = (int)(n_steps / STEP_STRIDE);
    s->tiles = tiles;
    s->colours = colours;
    s->keep_limit = keep_limit;
    s->first = first;
    int size = s->nsteps > 0 ? s->nsteps : 1;
    s->pos = calloc(size + 1, sizeof(int32_t));
    s->end = calloc(size + 1, sizeof(int32_t));
    s->placed = calloc(size, sizeof(int32_t));
    s->used = calloc(tiles > 0 ? tiles : 1, 1);
    if (!s->pos || !s->end || !s->placed || !s->used) { free(given); PyErr_NoMemory(); return -1; }
    if (n_prefix > s->nsteps || s->nsteps == 0) {
        free(given);
        PyErr_SetString(PyExc_ValueError, "the prefix is longer than the plan");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n_prefix; i++) {
        if (given[i] < 0 || given[i] >= n_entries / ENTRY_STRIDE) {
            free(given);
            PyErr_SetString(PyExc_ValueError, "prefix entry out of range");
            return -1;
        }
        s->placed[i] = given[i];
        s->used[s->entries[(Py_ssize_t)given[i] * ENTRY_STRIDE + ENTRY_TILE]] = 1;
    }
    free(given);
    s->base = (int)n_prefix;
    s->depth = s->base;
    s->deepest = s->base;
    if (s->base == s->nsteps) {  /* the prefix is a whole board: one solution, nothing to search */
        s->found = 1;
        if (keep(s) < 0) return -1;
        s->state = DONE;
        return 0;
    }
    enter(s, s->base);
    return 0;
}

static void Search_dealloc(Search *s) {
    free(s->entries); free(s->steps); free(s->buckets);
    free(s->pos); free(s->end); free(s->placed); free(s->used); free(s->kept);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *Search_run(Search *s, PyObject *arg) {
    long long budget = PyLong_AsLongLong(arg);
    if (budget == -1 && PyErr_Occurred()) return NULL;
    if (s->state != RUNNING) return PyLong_FromLong(s->state);
    int state;
    Py_BEGIN_ALLOW_THREADS
    state = advance(s, budget > 0 ? budget : 1);
    Py_END_ALLOW_THREADS
    if (state < 0) { PyErr_NoMemory(); return NULL; }
    return PyLong_FromLong(state);
}

static PyObject *Search_kept(Search *s, PyObject *unused) {
    PyObject *out = PyList_New(s->nkept);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < s->nkept; i++) {
        PyObject *row = PyTuple_New(s->nsteps);
        if (!row) { Py_DECREF(out); return NULL; }
        for (int j = 0; j < s->nsteps; j++)
            PyTuple_SET_ITEM(row, j, PyLong_FromLong(s->kept[i * s->nsteps + j]));
        PyList_SET_ITEM(out, i, row);
    }
    return out;
}

static PyObject *get_nodes(Search *s, void *c) { return PyLong_FromLongLong(s->nodes); }
static PyObject *get_found(Search *s, void *c) { return PyLong_FromLongLong(s->found); }
static PyObject *get_deepest(Search *s, void *c) { return PyLong_FromLongLong(s->deepest); }
static PyObject *get_state(Search *s, void *c) { return PyLong_FromLong(s->state); }

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)get_nodes, NULL, "placements tried so far", NULL},
    {"found", (getter)get_found, NULL, "whole boards found so far", NULL},
    {"deepest", (getter)get_deepest, NULL, "most steps filled at once", NULL},
    {"state", (getter)get_state, NULL, "0 running, 1 done, 2 stopped at the first solution", NULL},
    {NULL},
};

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)Search_run, METH_O, "Place up to `budget` more tiles; return the state."},
    {"kept", (PyCFunction)Search_kept, METH_NOARGS, "The solutions kept, as tuples of candidate numbers per step."},
    {NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "photosolve.solver._engine.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A depth-first walk of a search plan that can stop and go on.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_engine", "The solver's compiled search loop.", -1, NULL};

PyMODINIT_FUNC PyInit__engine(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
