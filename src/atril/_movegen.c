/* atril._movegen: the move generator's entry points (read atril/movegen.py first); the
 * algorithm itself (Gordon's GADDAG walk, shadow bounds) is in atril_movegen.h, which the
 * endgame and simulation modules share. Moves come back as packed 32-byte records, sorted in C.
 *
 *   configure(values: bytes[29], counts: bytes[29], letter_mult: bytes[225],
 *             word_mult: bytes[225], bingo_bonus: int) -> None
 *   excess(board: bytes[225], rack: bytes[29]) -> int   a code with more tiles than the game
 *             has (board and rack together; a designated blank is a blank), or -1
 *   generate(board: bytes[225], rack: bytes[29], nodes: buffer, masks: buffer, bag: int) -> bytes
 *   best(board, rack, nodes, masks, bag, n, leaves: (nodes, counts, values) | None) -> bytes
 *   leave_counts(nodes: buffer) -> bytes       words under each node (uint32 per node)
 *
 * masks is Kwg.child_masks (the tiles of each node's list from it on: a child in one step).
 * rack is a count per tile code (0 = blank). bag < 0 means "no exchanges"; otherwise every
 * distinct exchange of at most `bag` tiles and the pass are added. Record layout: Rec, in
 * atril_engine.h (exported as RECORD_* module attributes, with KIND_* and NEW_BIT).
 *
 * The KWG must have passed atril._kwg.check (atril.kwg.Kwg does it before handing its nodes
 * and masks over): arcs, lists and masks are then read without bounds checks.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atril_movegen.h"

/* The buffers every call reads: board, rack counts, KWG nodes and child masks. */
typedef struct { Buf board, rack, nodes, masks; } Inputs;

static void release_inputs(Inputs *in) {
    release(&in->board);
    release(&in->rack);
    release(&in->nodes);
    release(&in->masks);
}

/* Take the inputs' buffers (release_inputs gives them back, also after a failure), check
 * them and set the generator up for them. */
static int setup_gen(Gen *g, Inputs *in, PyObject *ob, PyObject *orack, PyObject *onodes,
                     PyObject *omasks) {
    if (get_buf(ob, &in->board, "tablero") < 0 || get_buf(orack, &in->rack, "atril") < 0 ||
        get_buf(onodes, &in->nodes, "kwg") < 0 || get_buf(omasks, &in->masks, "kwg") < 0)
        return -1;
    Buf *board = &in->board, *rack = &in->rack, *nodes = &in->nodes, *masks = &in->masks;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "atril._movegen sin configurar");
        return -1;
    }
    if (board->buf.len != NSQ || rack->buf.len != NCODES) {
        PyErr_SetString(PyExc_ValueError, "tablero de 225 casillas y atril de 29 cuentas");
        return -1;
    }
    memset(g, 0, sizeof *g);
    memcpy(g->board, board->buf.buf, NSQ);
    memcpy(g->rack, rack->buf.buf, NCODES);
    for (int c = 0, n = 0; c < NCODES; c++) {
        n += g->rack[c];
        if (n > RACK_SIZE) {
            PyErr_SetString(PyExc_ValueError, "más de 7 fichas en el atril");
            return -1;
        }
    }
    if (!board_valid(g->board) || read_kwg(nodes, masks, &g->k) < 0) return -1;
    set_radix(g);
    return 0;
}

static PyObject *finish(Gen *g) {
    PyObject *out = NULL;
    if (g->failed) PyErr_NoMemory();
    else out = PyBytes_FromStringAndSize((const char *)g->recs, (Py_ssize_t)(g->nrecs * sizeof(Rec)));
    free(g->recs);
    g->recs = NULL;
    return out;
}

static PyObject *py_excess(PyObject *self, PyObject *args) {
    Py_buffer b, r;
    if (!PyArg_ParseTuple(args, "y*y*", &b, &r)) return NULL;
    long found = -1;
    if (b.len == NSQ && r.len == NCODES) {
        int n[256] = {0};
        const uint8_t *sq = b.buf, *rack = r.buf;
        for (int i = 0; i < NSQ; i++)
            if (sq[i]) n[sq[i] & BLANK_BIT ? 0 : sq[i]]++;
        for (int c = 0; c < NCODES && found < 0; c++)
            if (n[c] + rack[c] > COUNT[c]) found = c;
    }
    int ok = b.len == NSQ && r.len == NCODES;
    PyBuffer_Release(&b);
    PyBuffer_Release(&r);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "tablero de 225 casillas y atril de 29 cuentas");
        return NULL;
    }
    return PyLong_FromLong(found);
}

static PyObject *py_generate(PyObject *self, PyObject *args) {
    PyObject *ob, *orack, *onodes, *omasks;
    int bag;
    if (!PyArg_ParseTuple(args, "OOOOi", &ob, &orack, &onodes, &omasks, &bag)) return NULL;
    Inputs in = {0};
    PyObject *out = NULL;
    Gen *g = calloc(1, sizeof *g);
    if (!g) return PyErr_NoMemory();
    if (setup_gen(g, &in, ob, orack, onodes, omasks) < 0) goto done;
    Py_BEGIN_ALLOW_THREADS
    compute_cross(g);
    compute_anchors(g);
    gen_all_plays(g);
    if (bag >= 0 && !g->failed) gen_exchanges(g, bag);
    if (!g->failed && sort_recs(g) < 0) g->failed = 1;
    Py_END_ALLOW_THREADS
    out = finish(g);
done:
    release_inputs(&in);
    free(g);
    return out;
}

static PyObject *py_best(PyObject *self, PyObject *args) {
    PyObject *ob, *orack, *onodes, *omasks, *obingos, *oleaves;
    int bag, n;
    if (!PyArg_ParseTuple(args, "OOOOOiiO", &ob, &orack, &onodes, &omasks, &obingos, &bag, &n,
                          &oleaves))
        return NULL;
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "n debe ser al menos 1");
        return NULL;
    }
    Inputs in = {0};
    Buf bingos = {0}, lnodes = {0}, lcounts = {0}, lvalues = {0};
    PyObject *out = NULL;
    Gen *g = calloc(1, sizeof *g);
    if (!g) return PyErr_NoMemory();
    if (setup_gen(g, &in, ob, orack, onodes, omasks) < 0 ||
        get_buf(obingos, &bingos, "bingos") < 0)
        goto done;
    size_t slots = (size_t)bingos.buf.len / 4;
    if (bingos.buf.len % 4 || slots < 2 || (slots & (slots - 1))) {
        PyErr_SetString(PyExc_ValueError, "bingos: una tabla de 2^k casillas de 4 bytes");
        goto done;
    }
    g->bingos.slot = bingos.buf.buf;
    g->bingos.mask = (uint32_t)(slots - 1);
    g->topn = n;
    g->recs = malloc((size_t)n * sizeof(Rec));
    if (!g->recs) {
        PyErr_NoMemory();
        goto done;
    }
    g->cap = (size_t)n;
    if (oleaves != Py_None) {
        PyObject *a, *b, *c;
        if (!PyArg_ParseTuple(oleaves, "OOO", &a, &b, &c) || get_buf(a, &lnodes, "hojas") < 0 ||
            get_buf(b, &lcounts, "hojas") < 0 || get_buf(c, &lvalues, "hojas") < 0)
            goto done;
        Nodes lk = {lnodes.buf.buf, NULL, (uint32_t)(lnodes.buf.len / 4)};
        if (lcounts.buf.len != lnodes.buf.len) {
            PyErr_SetString(PyExc_ValueError, "hojas: una cuenta por nodo");
            goto done;
        }
        fill_leaves(g, &lk, lcounts.buf.buf, lvalues.buf.buf, lvalues.buf.len / 4);
        g->has_leaves = 1;
    }
    Py_BEGIN_ALLOW_THREADS
    compute_cross(g);
    compute_anchors(g);
    if (bag >= 0) gen_exchanges(g, bag);
    if (gen_best_plays(g) < 0) g->failed = 1;
    Py_END_ALLOW_THREADS
    out = finish(g);
done:
    release_inputs(&in);
    release(&bingos);
    release(&lnodes);
    release(&lcounts);
    release(&lvalues);
    free(g->recs); /* left only when a check failed before the search */
    free(g);
    return out;
}

/* counts[i] = words accepted at node i or below it (the rank table of a DAWG of leaves). */
static uint32_t count_node(const Nodes *k, uint32_t *counts, uint8_t *done, uint32_t i,
                           int depth) {
    if (done[i]) return counts[i];
    uint32_t c = accepts(k, i) ? 1 : 0, arc = arc_of(k, i);
    if (arc && depth < 64)
        for (uint32_t j = arc; j < k->n; j++) {
            c += count_node(k, counts, done, j, depth + 1);
            if (k->v[j] & IS_END_BIT) break;
        }
    counts[i] = c;
    done[i] = 1;
    return c;
}

static PyObject *py_leave_counts(PyObject *self, PyObject *arg) {
    Buf nodes = {0};
    if (get_buf(arg, &nodes, "hojas") < 0) return NULL;
    Nodes k = {nodes.buf.buf, NULL, (uint32_t)(nodes.buf.len / 4)};
    PyObject *out = NULL;
    uint32_t *counts = calloc(k.n ? k.n : 1, sizeof *counts);
    uint8_t *done = calloc(k.n ? k.n : 1, 1);
    if (!counts || !done) {
        PyErr_NoMemory();
    } else {
        for (uint32_t i = 0; i < k.n; i++) {
            if (arc_of(&k, i) >= k.n) {
                PyErr_SetString(PyExc_ValueError, "hojas: KWG dañado");
                break;
            }
        }
        if (!PyErr_Occurred()) {
            for (uint32_t i = 1; i < k.n; i++) count_node(&k, counts, done, i, 0);
            out = PyBytes_FromStringAndSize((const char *)counts, (Py_ssize_t)k.n * 4);
        }
    }
    free(counts);
    free(done);
    release(&nodes);
    return out;
}

/* ---- the bingo table ----------------------------------------------------------------- */

typedef struct { uint64_t *v; size_t n, cap; int failed; } Keys;

/* Keys of the DAWG words of 7 to 15 tiles below the list at `arc`, `depth` tiles in. */
static void collect_keys(const Nodes *k, uint32_t arc, int depth, uint64_t key, Keys *out) {
    for (uint32_t j = arc; j && j < k->n && !out->failed; j++) {
        uint32_t node = k->v[j];
        uint64_t kk = key + TILE_KEY[node >> TILE_SHIFT];
        if ((node & ACCEPTS_BIT) && depth + 1 >= RACK_SIZE) {
            if (out->n == out->cap) {
                size_t cap = out->cap ? 2 * out->cap : 4096;
                uint64_t *v = realloc(out->v, cap * sizeof *v);
                if (!v) { out->failed = 1; return; }
                out->v = v;
                out->cap = cap;
            }
            out->v[out->n++] = kk;
        }
        if (depth + 1 < SIZE) collect_keys(k, node & ARC_MASK, depth + 1, kk, out);
        if (node & IS_END_BIT) break;
    }
}

static PyObject *py_bingo_table(PyObject *self, PyObject *arg) {
    Buf nodes = {0};
    if (get_buf(arg, &nodes, "kwg") < 0) return NULL;
    Nodes k = {nodes.buf.buf, NULL, (uint32_t)(nodes.buf.len / 4)};
    Keys keys = {0};
    PyObject *out = NULL;
    Py_BEGIN_ALLOW_THREADS
    if (k.n) collect_keys(&k, arc_of(&k, 0), 0, 0, &keys);
    Py_END_ALLOW_THREADS
    size_t size = 1024;
    while (size < keys.n + keys.n / 2) size *= 2; /* anagrams share a slot: load under 2/3 */
    if (!keys.failed) out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(size * 4));
    if (out) {
        uint32_t *slot = (uint32_t *)PyBytes_AS_STRING(out), fp;
        memset(slot, 0, size * 4);
        for (size_t i = 0; i < keys.n; i++)
            *bingo_slot(slot, (uint32_t)(size - 1), keys.v[i], &fp) = fp;
    } else if (keys.failed) {
        PyErr_NoMemory();
    }
    free(keys.v);
    release(&nodes);
    return out;
}

static PyMethodDef methods[] = {
    {"configure", py_configure, METH_VARARGS, "Tile values, premium maps and the bingo bonus (from atril)."},
    {"excess", py_excess, METH_VARARGS, "A tile code with more tiles than the game has, or -1."},
    {"generate", py_generate, METH_VARARGS, "Every legal move as sorted packed records."},
    {"best", py_best, METH_VARARGS, "The best n moves by equity as packed records."},
    {"leave_counts", py_leave_counts, METH_O, "Words under each node of a leave DAWG."},
    {"bingo_table", py_bingo_table, METH_O, "The table of tile multisets that spell words."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "atril._movegen", NULL, -1, methods, NULL, NULL, NULL, NULL};

static const EngineConstant CONSTANTS[] = {
    ENGINE_CONSTANT(RECORD_SIZE),    ENGINE_CONSTANT(RECORD_SCORE), ENGINE_CONSTANT(RECORD_KIND),
    ENGINE_CONSTANT(RECORD_DIR),     ENGINE_CONSTANT(RECORD_ROW),   ENGINE_CONSTANT(RECORD_COL),
    ENGINE_CONSTANT(RECORD_LEN),     ENGINE_CONSTANT(RECORD_NPLACED),
    ENGINE_CONSTANT(RECORD_TILES),   ENGINE_CONSTANT(RECORD_EQUITY), ENGINE_CONSTANT(KIND_PLAY),
    ENGINE_CONSTANT(KIND_EXCHANGE),  ENGINE_CONSTANT(KIND_PASS),    ENGINE_CONSTANT(NEW_BIT),
    {NULL, 0},
};

PyMODINIT_FUNC PyInit__movegen(void) {
    engine_init();
    PyObject *m = PyModule_Create(&module);
    if (m && add_engine_constants(m, CONSTANTS) < 0) Py_CLEAR(m);
    return m;
}
