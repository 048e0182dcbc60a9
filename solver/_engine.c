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

/* The fast walk (advance_fast): for plans of at most 64 tiles whose every step has at most the two keyed
 * neighbours (row and column orders), each candidate packed in 8 bytes, the tiles in use one 64-bit mask, and
 * each bucket's tiles masks, so a cell's free candidates are one AND and tiles in use are never visited. */
typedef struct { uint8_t bit, need[4], pad[3]; } Packed;

typedef struct {
    PyObject_HEAD
    int32_t *entries, *steps, *buckets;
    int32_t *pos, *end, *placed;
    uint8_t *used;
    int tiles, nsteps, colours, base, depth, first, state;
    long long nodes, found, deepest;
    int32_t *kept;            /* nsteps entries per kept solution */
    int32_t *origin;          /* with a seed: each shuffled candidate's number in the plan, else NULL */
    Py_ssize_t nkept, cap, keep_limit;
    Packed *packed;           /* the fast walk's tables (NULL: the plain loop); bit = the tile's place in the order */
    uint64_t *masks;          /* 4 per bucket: bit set where the bucket holds a 1st, 2nd, 3rd, 4th turn of that tile */
    uint64_t *avail, in_use;  /* per depth: tiles still to try; tiles on the board */
    int32_t *bucket_at;       /* per depth: its bucket */
    uint8_t *more;            /* per depth: further turns of the current tile still to try */
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

/* A step's candidates: the bucket of the colours its placed neighbours need (at most two make the key). */
static inline void enter(const int32_t *entries, const int32_t *buckets, const int32_t *st, const int32_t *placed,
                         int colours, int32_t *pos, int32_t *end) {
    int key = 0;
    if (st[STEP_KEY_A] >= 0) {
        key = entries[(Py_ssize_t)placed[st[STEP_KEY_A]] * ENTRY_STRIDE + ENTRY_NEED + st[STEP_SIDE_A]];
        if (st[STEP_KEY_B] >= 0)
            key = key * colours
                + entries[(Py_ssize_t)placed[st[STEP_KEY_B]] * ENTRY_STRIDE + ENTRY_NEED + st[STEP_SIDE_B]];
    }
    *pos = buckets[st[STEP_BUCKETS] + key];
    *end = buckets[st[STEP_BUCKETS] + key + 1];
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
            enter(entries, buckets, st, placed, colours, pos + d, end + d);
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


/* advance() for packed plans: the same placements in the same order (tiles ascending by bit, each tile's turns
 * in a row, as the plan's buckets hold them; Search_init checks it), counted the same. */
static inline void enter_fast(Search *s, const int32_t *st, int d, uint64_t in_use) {
    int key = 0;
    if (st[STEP_KEY_A] >= 0) {
        key = s->packed[s->placed[st[STEP_KEY_A]]].need[st[STEP_SIDE_A]];
        if (st[STEP_KEY_B] >= 0) key = key * s->colours + s->packed[s->placed[st[STEP_KEY_B]]].need[st[STEP_SIDE_B]];
    }
    int32_t b = st[STEP_BUCKETS] + key;
    s->bucket_at[d] = b;
    s->avail[d] = s->masks[4 * (Py_ssize_t)b] & ~in_use;
    s->more[d] = 0;
}

/* x86-64 without -mpopcnt counts bits in a library call: a copy with the instruction is chosen at load time
 * where the processor has it (GCC and Clang on glibc). */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__)
__attribute__((target_clones("popcnt", "default")))
#endif
static int advance_fast(Search *s, long long budget) {
    const Packed *packed = s->packed;
    const uint64_t *masks = s->masks;
    const int32_t *buckets = s->buckets;
    int32_t *placed = s->placed, *bucket_at = s->bucket_at;
    uint64_t *avail = s->avail, in_use = s->in_use;
    uint8_t *more = s->more;
    int d = s->depth, last = s->nsteps - 1, base = s->base;
    long long nodes = s->nodes, limit = nodes + budget, deepest = s->deepest;
    int state = RUNNING;
    const int32_t *st = s->steps + (Py_ssize_t)d * STEP_STRIDE;
    for (;;) {
        int32_t p;
        if (more[d]) {  /* the same tile's next turn in this bucket */
            more[d]--;
            p = placed[d] + 1;
        } else {
            uint64_t a = avail[d];
            if (!a) {
                d--;
                if (d < base) { state = DONE; d = base; break; }
                st -= STEP_STRIDE;
                in_use &= ~(1ULL << packed[placed[d]].bit);
                continue;
            }
            avail[d] = a & (a - 1);
            int bit = __builtin_ctzll(a);
            uint64_t below = (1ULL << bit) - 1;
            const uint64_t *m = masks + 4 * (Py_ssize_t)bucket_at[d];
            p = buckets[bucket_at[d]] + __builtin_popcountll(m[0] & below);
            if (m[1]) {  /* a tile shown alike in two or more turns: its entries come one after another */
                p += __builtin_popcountll(m[1] & below) + __builtin_popcountll(m[2] & below)
                     + __builtin_popcountll(m[3] & below);
                more[d] = (uint8_t)(((m[1] >> bit) & 1) + ((m[2] >> bit) & 1) + ((m[3] >> bit) & 1));
            }
        }
        nodes++;
        placed[d] = p;
        if (d == last) {
            s->found++;
            if (keep(s) < 0) { state = -1; break; }
            if (s->first) { state = FOUND_FIRST; break; }
            continue;
        }
        in_use |= 1ULL << packed[p].bit;
        d++;
        st += STEP_STRIDE;
        if (d > deepest) deepest = d;
        enter_fast(s, st, d, in_use);
        if (nodes >= limit) break;
    }
    s->in_use = in_use;
    s->depth = d;
    s->nodes = nodes;
    s->deepest = deepest;
    s->state = state;
    return state;
}

/* The packed tables, when the plan allows them: every step keyed by at most two neighbours, at most 64 tiles
 * and 256 colours, each bucket's entries in ascending order of their tiles' bits. Returns 0 when it does not
 * apply (the plain loop runs), 1 when built, -1 on error. */
static int build_fast(Search *s, Py_ssize_t n_entries, Py_ssize_t n_buckets, const int32_t *bit_of) {
    Py_ssize_t count = n_entries / ENTRY_STRIDE;
    if (s->tiles > 64 || s->colours > 256 || count == 0) return 0;
    for (int i = 0; i < s->nsteps; i++)
        if (s->steps[(Py_ssize_t)i * STEP_STRIDE + STEP_EXTRAS]) return 0;
    for (Py_ssize_t b = 0; b + 1 < n_buckets; b++)
        for (int32_t i = s->buckets[b] + 1; i < s->buckets[b + 1]; i++) {
            int prev = s->entries[(Py_ssize_t)(i - 1) * ENTRY_STRIDE + ENTRY_TILE];
            int tile = s->entries[(Py_ssize_t)i * ENTRY_STRIDE + ENTRY_TILE];
            if (bit_of[prev] > bit_of[tile]) return 0;
        }
    s->packed = malloc(count * sizeof(Packed));
    s->masks = calloc(4 * (size_t)(n_buckets > 0 ? n_buckets : 1), sizeof(uint64_t));
    s->avail = calloc((size_t)s->nsteps + 1, sizeof(uint64_t));
    s->bucket_at = calloc((size_t)s->nsteps + 1, sizeof(int32_t));
    s->more = calloc((size_t)s->nsteps + 1, 1);
    if (!s->packed || !s->masks || !s->avail || !s->bucket_at || !s->more) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < count; i++) {
        const int32_t *e = s->entries + i * ENTRY_STRIDE;
        Packed *q = s->packed + i;
        memset(q, 0, sizeof *q);
        q->bit = (uint8_t)bit_of[e[ENTRY_TILE]];
        for (int k = 0; k < 4; k++) q->need[k] = (uint8_t)e[ENTRY_NEED + k];
    }
    for (Py_ssize_t b = 0; b + 1 < n_buckets; b++) {
        int turn = 0;
        for (int32_t i = s->buckets[b]; i < s->buckets[b + 1]; i++) {
            int bit = s->packed[i].bit;
            turn = (i > s->buckets[b] && s->packed[i - 1].bit == bit) ? turn + 1 : 0;
            if (turn > 3) return 0;  /* not a plan's bucket: the plain loop will do */
            s->masks[4 * b + turn] |= 1ULL << bit;
        }
    }
    return 1;
}

/* The random generator both engines share (engine.py's shuffle_buckets), so a seeded search is the same in each. */
static uint64_t next_random(uint64_t *state) {
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

/* A seed's order of the tiles (Fisher-Yates): bit_of[tile] is its place. Every bucket's candidates are then
 * taken in that order (each tile's turns as before), remembering where each came from: a restarted search with
 * another seed walks the same tree in another order. */
static void tile_order(int tiles, unsigned long long seed, int32_t *bit_of) {
    int32_t *order = bit_of + tiles;  /* scratch: the caller gives 2 * tiles ints */
    for (int i = 0; i < tiles; i++) order[i] = i;
    uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (int i = tiles - 1; i > 0; i--) {
        int j = (int)(next_random(&state) % (uint64_t)(i + 1));
        int32_t t = order[i]; order[i] = order[j]; order[j] = t;
    }
    for (int i = 0; i < tiles; i++) bit_of[order[i]] = i;
}

static int sort_buckets(Search *s, Py_ssize_t n_entries, Py_ssize_t n_buckets, const int32_t *bit_of) {
    Py_ssize_t count = n_entries / ENTRY_STRIDE;
    s->origin = malloc((count ? count : 1) * sizeof(int32_t));
    int32_t *copy = malloc((n_entries ? n_entries : 1) * sizeof(int32_t));
    if (!s->origin || !copy) { free(copy); PyErr_NoMemory(); return -1; }
    memcpy(copy, s->entries, n_entries * sizeof(int32_t));
    for (Py_ssize_t b = 0; b + 1 < n_buckets; b++) {  /* insertion sort, stable: buckets are short */
        int32_t lo = s->buckets[b], hi = s->buckets[b + 1];
        for (int32_t i = lo; i < hi; i++) {
            int32_t j = i, rank = bit_of[copy[(Py_ssize_t)i * ENTRY_STRIDE + ENTRY_TILE]];
            while (j > lo && bit_of[copy[(Py_ssize_t)s->origin[j - 1] * ENTRY_STRIDE + ENTRY_TILE]] > rank) {
                s->origin[j] = s->origin[j - 1];
                j--;
            }
            s->origin[j] = i;
        }
    }
    for (Py_ssize_t i = 0; i < count; i++)
        memcpy(s->entries + i * ENTRY_STRIDE, copy + (Py_ssize_t)s->origin[i] * ENTRY_STRIDE, ENTRY_STRIDE * sizeof(int32_t));
    free(copy);
    return 0;
}

static int Search_init(Search *s, PyObject *args, PyObject *kwds) {
    static char *names[] = {"entries", "steps", "buckets", "tiles", "colours", "prefix", "keep", "first", "seed", NULL};
    PyObject *entries, *steps, *buckets, *prefix;
    Py_ssize_t n_entries, n_steps, n_buckets, n_prefix, keep_limit;
    int tiles, colours, first;
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOiiOnp|K", names, &entries, &steps, &buckets, &tiles,
                                     &colours, &prefix, &keep_limit, &first, &seed))
        return -1;
    if (!(s->entries = copy_ints(entries, &n_entries)) || !(s->steps = copy_ints(steps, &n_steps))
        || !(s->buckets = copy_ints(buckets, &n_buckets)))
        return -1;
    int32_t *given = copy_ints(prefix, &n_prefix);
    if (!given) return -1;
    if (seed && n_prefix) {
        free(given);
        PyErr_SetString(PyExc_ValueError, "a seeded (shuffled) search starts from the empty board");
        return -1;
    }
    s->nsteps = (int)(n_steps / STEP_STRIDE);
    s->tiles = tiles;
    s->colours = colours;
    int32_t *bit_of = malloc(2 * (size_t)(tiles > 0 ? tiles : 1) * sizeof(int32_t));
    if (!bit_of) { free(given); PyErr_NoMemory(); return -1; }
    if (seed) tile_order(tiles, seed, bit_of);
    else for (int i = 0; i < tiles; i++) bit_of[i] = i;
    int fast = 0;
    if ((seed && sort_buckets(s, n_entries, n_buckets, bit_of) < 0)
        || (fast = build_fast(s, n_entries, n_buckets, bit_of)) < 0) {
        free(bit_of); free(given); return -1;
    }
    free(bit_of);
    if (!fast) {  /* the plain loop */
        free(s->packed); free(s->masks); s->packed = NULL; s->masks = NULL;
    }
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
        if (s->packed) s->in_use |= 1ULL << s->packed[given[i]].bit;
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
    if (s->packed)
        enter_fast(s, s->steps + (Py_ssize_t)s->base * STEP_STRIDE, s->base, s->in_use);
    else
        enter(s->entries, s->buckets, s->steps + (Py_ssize_t)s->base * STEP_STRIDE, s->placed, s->colours,
              s->pos + s->base, s->end + s->base);
    return 0;
}

static void Search_dealloc(Search *s) {
    free(s->entries); free(s->steps); free(s->buckets);
    free(s->pos); free(s->end); free(s->placed); free(s->used); free(s->kept); free(s->origin);
    free(s->packed); free(s->masks); free(s->avail); free(s->bucket_at); free(s->more);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *Search_run(Search *s, PyObject *arg) {
    long long budget = PyLong_AsLongLong(arg);
    if (budget == -1 && PyErr_Occurred()) return NULL;
    if (s->state != RUNNING) return PyLong_FromLong(s->state);
    int state;
    Py_BEGIN_ALLOW_THREADS
    state = s->packed ? advance_fast(s, budget > 0 ? budget : 1) : advance(s, budget > 0 ? budget : 1);
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
        for (int j = 0; j < s->nsteps; j++) {
            int32_t entry = s->kept[i * s->nsteps + j];
            PyTuple_SET_ITEM(row, j, PyLong_FromLong(s->origin ? s->origin[entry] : entry));
        }
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
