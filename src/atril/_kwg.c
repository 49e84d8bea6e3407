/* atril._kwg: build, check and read KWG word graphs (wolges format) at native speed.
 *
 * The building algorithm is exactly the one of atril.kwg._ReferenceBuilder (itself wolges'
 * build.rs with the depth-first "MagpieMerged" layout), so both produce identical arrays;
 * read that Python class first, this file mirrors it step by step.
 *
 *   build(blob: bytes) -> bytes      words separated by 0 bytes, any order, repeats allowed
 *   check(nodes: buffer, gaddag: bool) -> (words, tiles, longest, gaddag_paths, tile_set)
 *                                    ValueError (Spanish) unless it is safe to walk
 *   child_masks(nodes: buffer) -> bytes   per node, the tiles of its list from it to the end
 *   accepts(nodes: buffer, word: bytes) -> bool   DAWG lookup
 *   words(nodes: buffer) -> bytes    every DAWG word, sorted, separated by 0 bytes
 *
 * Node buffers hold native uint32 (atril.kwg keeps them as array('I')). The node bits and
 * limits are in atril_engine.h, exported as module attributes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atril_engine.h"

#define UNSET 0xFFFFFFFFu

/* ---- growable arrays ------------------------------------------------------------------ */

typedef struct { uint32_t *v; size_t n, cap; } U32Vec;

static int u32_push(U32Vec *a, uint32_t x) {
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 1024;
        uint32_t *v = realloc(a->v, cap * sizeof *v);
        if (!v) return -1;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return 0;
}

/* ---- words ---------------------------------------------------------------------------- */

typedef struct { const uint8_t *p; uint32_t len; } Str;

static int str_cmp(const void *a, const void *b) {
    const Str *x = a, *y = b;
    uint32_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->p, y->p, n);
    if (c) return c;
    return (x->len > y->len) - (x->len < y->len);
}

/* Byte at depth d as a sort key: 0 past the end, so a prefix sorts first. */
static inline unsigned key_at(const Str *s, uint32_t d) { return d < s->len ? s->p[d] + 1u : 0; }

/* Most-significant-digit radix sort from depth d (same order as str_cmp); tmp holds n. Far
 * faster than qsort for millions of short strings over a small alphabet (the GADDAG). */
static void radix_sort(Str *a, Str *tmp, size_t n, uint32_t d) {
    if (n < 32) {
        for (size_t i = 1; i < n; i++) {
            Str x = a[i];
            size_t j = i;
            while (j > 0) {
                const Str *y = &a[j - 1];
                uint32_t m = (x.len < y->len ? x.len : y->len);
                int c = m > d ? memcmp(y->p + d, x.p + d, m - d) : 0;
                if (c < 0 || (c == 0 && y->len <= x.len)) break;
                a[j] = a[j - 1];
                j--;
            }
            a[j] = x;
        }
        return;
    }
    size_t start[258] = {0};
    for (size_t i = 0; i < n; i++) start[key_at(&a[i], d) + 1]++;
    for (int b = 1; b < 258; b++) start[b] += start[b - 1];
    size_t pos[257];
    memcpy(pos, start, sizeof pos);
    for (size_t i = 0; i < n; i++) tmp[pos[key_at(&a[i], d)]++] = a[i];
    memcpy(a, tmp, n * sizeof *a);
    for (int b = 1; b < 257; b++)  /* bucket 0: strings that ended here, all equal */
        if (start[b + 1] - start[b] > 1)
            radix_sort(a + start[b], tmp, start[b + 1] - start[b], d + 1);
}

static int sort_strs(Str *a, size_t n) {
    Str *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp) return -1;
    radix_sort(a, tmp, n, 0);
    free(tmp);
    return 0;
}

/* ---- states: sibling-list chains deduplicated by (tile, accepts, arc, next) ------------ */

typedef struct {
    uint8_t *tile;
    uint8_t *acc;
    uint32_t *arc;
    uint32_t *next;
    size_t n, cap;
    uint32_t *table; /* open addressing, state ids, UNSET = empty */
    size_t table_mask;
} States;

static uint64_t mix(uint64_t x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static uint64_t state_hash(uint8_t tile, uint8_t acc, uint32_t arc, uint32_t next) {
    return mix(((uint64_t)arc << 32 | next) ^ mix((uint64_t)tile << 1 | acc));
}

static int states_grow_table(States *s) {
    size_t size = s->table_mask ? (s->table_mask + 1) * 2 : 1 << 16;
    uint32_t *t = malloc(size * sizeof *t);
    if (!t) return -1;
    memset(t, 0xFF, size * sizeof *t);
    for (size_t i = 0; i < s->n; i++) {
        size_t h = state_hash(s->tile[i], s->acc[i], s->arc[i], s->next[i]) & (size - 1);
        while (t[h] != UNSET) h = (h + 1) & (size - 1);
        t[h] = (uint32_t)i;
    }
    free(s->table);
    s->table = t;
    s->table_mask = size - 1;
    return 0;
}

static int states_reserve(States *s) {
    if (s->n < s->cap) return 0;
    size_t cap = s->cap ? s->cap * 2 : 1 << 16;
    uint8_t *tile = realloc(s->tile, cap);
    if (!tile) return -1;
    s->tile = tile;
    uint8_t *acc = realloc(s->acc, cap);
    if (!acc) return -1;
    s->acc = acc;
    uint32_t *arc = realloc(s->arc, cap * sizeof *arc);
    if (!arc) return -1;
    s->arc = arc;
    uint32_t *next = realloc(s->next, cap * sizeof *next);
    if (!next) return -1;
    s->next = next;
    s->cap = cap;
    return 0;
}

/* The id of state (tile, acc, arc, next), made if new; UNSET on allocation failure. */
static uint32_t states_get(States *s, uint8_t tile, uint8_t acc, uint32_t arc, uint32_t next) {
    size_t h = state_hash(tile, acc, arc, next) & s->table_mask;
    for (;;) {
        uint32_t id = s->table[h];
        if (id == UNSET) break;
        if (s->tile[id] == tile && s->acc[id] == acc && s->arc[id] == arc && s->next[id] == next)
            return id;
        h = (h + 1) & s->table_mask;
    }
    if (s->n >= 0xFFFFFFF0u || states_reserve(s) < 0) return UNSET;
    uint32_t id = (uint32_t)s->n++;
    s->tile[id] = tile;
    s->acc[id] = acc;
    s->arc[id] = arc;
    s->next[id] = next;
    s->table[h] = id;
    if (s->n * 2 > s->table_mask + 1 && states_grow_table(s) < 0) return UNSET;
    return id;
}

static void states_free(States *s) {
    free(s->tile); free(s->acc); free(s->arc); free(s->next); free(s->table);
}

/* ---- the trie walk that makes states (make_dawg) --------------------------------------- */

typedef struct { uint8_t tile, acc; uint32_t arc; } Transition;

typedef struct {
    Transition *t;
    size_t n, cap;
    U32Vec indexes;
} Stack;

static int stack_push(Stack *st, uint8_t tile) {
    if (st->n == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 256;
        Transition *t = realloc(st->t, cap * sizeof *t);
        if (!t) return -1;
        st->t = t;
        st->cap = cap;
    }
    st->t[st->n].tile = tile;
    st->t[st->n].acc = 0;
    st->t[st->n].arc = 0;
    st->n++;
    return u32_push(&st->indexes, (uint32_t)st->n);
}

static uint32_t make_state(States *s, const Transition *t, size_t count) {
    uint32_t ret = 0;
    for (size_t i = count; i-- > 0;) {
        ret = states_get(s, t[i].tile, t[i].acc, t[i].arc, ret);
        if (ret == UNSET) return UNSET;
    }
    return ret;
}

static int stack_pop(Stack *st, States *s) {
    uint32_t start = st->indexes.v[--st->indexes.n];
    uint32_t arc = make_state(s, st->t + start, st->n - start);
    if (arc == UNSET) return -1;
    st->t[start - 1].arc = arc;
    st->n = start;
    return 0;
}

/* States for sorted unique strings; in the GADDAG phase a string ending in the separator
 * points its last transition at the DAWG node of its reversed prefix. UNSET on failure. */
static uint32_t make_dawg(States *s, const Str *words, size_t count, uint32_t dawg_start,
                          int gaddag) {
    Stack st = {0};
    uint32_t ret = UNSET;
    for (size_t w = 0; w < count; w++) {
        const uint8_t *word = words[w].p;
        uint32_t len = words[w].len, prefix = 0;
        if (w > 0) {
            const uint8_t *prev = words[w - 1].p;
            uint32_t prev_len = (uint32_t)st.indexes.n;
            uint32_t limit = len < prev_len ? len : prev_len;
            while (prefix < limit && prev[prefix] == word[prefix]) prefix++;
            for (uint32_t i = prefix; i < prev_len; i++)
                if (stack_pop(&st, s) < 0) goto done;
        }
        for (uint32_t i = prefix; i < len; i++)
            if (stack_push(&st, word[i]) < 0) goto done;
        if (gaddag && word[len - 1] == SEPARATOR) {
            st.indexes.n--;
            uint32_t p = dawg_start;
            for (uint32_t i = len - 1; i-- > 0;) {
                while (s->tile[p] != word[i]) p = s->next[p];
                p = s->arc[p];
            }
            st.t[st.n - 1].arc = p;
        } else {
            st.t[st.n - 1].acc = 1;
        }
    }
    while (st.indexes.n)
        if (stack_pop(&st, s) < 0) goto done;
    ret = make_state(s, st.t, st.n);
done:
    free(st.t);
    free(st.indexes.v);
    return ret;
}

/* GADDAG strings of sorted unique words (see _gaddag_strings), sorted; NULL on failure. */
static Str *gaddag_strings(const Str *words, size_t count, size_t *out_count, uint8_t **arena) {
    size_t total = 0, strings = 0;
    for (size_t w = 0; w < count; w++) {
        total += (size_t)words[w].len + 1;
        strings += words[w].len;
    }
    *arena = malloc(total ? total : 1);
    Str *out = malloc((strings ? strings : 1) * sizeof *out);
    if (!*arena || !out) { free(out); return NULL; }
    size_t k = 0;
    uint8_t *a = *arena;
    for (size_t w = 0; w < count; w++) {
        const uint8_t *word = words[w].p;
        uint32_t n = words[w].len, prefix = 0;
        if (w > 0) {
            const uint8_t *prev = words[w - 1].p;
            uint32_t limit = words[w - 1].len - 1;
            if (n < limit) limit = n;
            while (prefix < limit && prev[prefix] == word[prefix]) prefix++;
        }
        for (uint32_t i = 0; i < n; i++) a[i] = word[n - 1 - i];
        a[n] = SEPARATOR;
        out[k].p = a; out[k].len = n; k++;
        for (uint32_t j = 1; j < n - prefix; j++) {
            out[k].p = a + j; out[k].len = n + 1 - j; k++;
        }
        a += n + 1;
    }
    if (sort_strs(out, k) < 0) { free(out); return NULL; }
    *out_count = k;
    return out;
}

/* ---- layout (depth-first, shared list tails) ------------------------------------------ */

typedef struct {
    const States *s;
    uint32_t *head, *to_end, *dest;
    uint32_t written;
} Layout;

static void defrag(Layout *L, uint32_t p) {
    const States *s = L->s;
    p = L->head[p];
    if (L->dest[p]) return;
    uint32_t first = L->written;
    L->dest[p] = UNSET;
    uint32_t num = L->to_end[p];
    L->written += num;
    uint32_t w = p;
    for (;;) {
        if (s->arc[p]) defrag(L, s->arc[p]);
        p = s->next[p];
        if (!p) break;
    }
    L->dest[w] = 0;
    for (uint32_t ofs = 0; ofs < num; ofs++) {
        if (L->dest[w]) break;
        L->dest[w] = first + ofs;
        w = s->next[w];
    }
}

static PyObject *layout(const States *s, uint32_t dawg_start, uint32_t gaddag_start) {
    size_t n = s->n;
    Layout L = {s, malloc(n * 4), malloc(n * 4), calloc(n, 4), 2};
    PyObject *result = NULL;
    if (!L.head || !L.to_end || !L.dest) { PyErr_NoMemory(); goto done; }
    for (size_t p = 0; p < n; p++) L.head[p] = (uint32_t)p;
    for (size_t p = n - 1; p > 0; p--) L.head[s->next[p]] = (uint32_t)p;
    for (size_t p = n - 1; p > 0; p--) L.head[p] = L.head[L.head[p]];
    for (size_t p = 0; p < n; p++) L.to_end[p] = 1 + (p && s->next[p] ? L.to_end[s->next[p]] : 0);
    L.dest[0] = UNSET;
    defrag(&L, dawg_start);
    defrag(&L, gaddag_start);
    L.dest[0] = 0;
    if (L.written > MAX_NODES) {
        PyErr_Format(PyExc_OverflowError,
                     "el KWG necesitaría %u nodos; el formato admite %u", L.written, MAX_NODES);
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)L.written * 4);
    if (!result) goto done;
    uint8_t *out = (uint8_t *)PyBytes_AS_STRING(result);
    memset(out, 0, (size_t)L.written * 4);
#define PUT(i, v) do { uint32_t v_ = (v); uint8_t *o_ = out + 4 * (size_t)(i); \
        o_[0] = v_; o_[1] = v_ >> 8; o_[2] = v_ >> 16; o_[3] = v_ >> 24; } while (0)
    PUT(0, IS_END_BIT | L.dest[dawg_start]);
    PUT(1, IS_END_BIT | L.dest[gaddag_start]);
    for (size_t p0 = 1; p0 < n; p0++) {
        uint32_t d = L.dest[p0], p = (uint32_t)p0;
        if (!d) continue;
        for (;;) {
            uint32_t np = s->next[p];
            PUT(d, (uint32_t)s->tile[p] << TILE_SHIFT | (s->acc[p] ? ACCEPTS_BIT : 0)
                       | (np ? 0 : IS_END_BIT) | L.dest[s->arc[p]]);
            if (!np) break;
            p = np;
            d++;
        }
    }
#undef PUT
done:
    free(L.head); free(L.to_end); free(L.dest);
    return result;
}

static PyObject *kwg_build(PyObject *self, PyObject *args) {
    Py_buffer blob;
    if (!PyArg_ParseTuple(args, "y*", &blob)) return NULL;
    const uint8_t *b = blob.buf;
    size_t len = (size_t)blob.len, count = 0, gcount = 0;
    Str *words = NULL, *gwords = NULL;
    uint8_t *arena = NULL;
    States s = {0};
    PyObject *result = NULL;

    for (size_t i = 0; i < len; i++) count += b[i] == 0;
    if (len) count++;
    words = malloc((count ? count : 1) * sizeof *words);
    if (!words) { PyErr_NoMemory(); goto done; }
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= len && len; i++) {
        if (i == len || b[i] == 0) {
            if (i == start) {
                PyErr_SetString(PyExc_ValueError, "palabra vacía");
                goto done;
            }
            words[k].p = b + start;
            words[k].len = (uint32_t)(i - start);
            k++;
            start = i + 1;
        }
    }
    if (sort_strs(words, count) < 0) { PyErr_NoMemory(); goto done; }
    size_t u = 0;
    for (size_t i = 0; i < count; i++)
        if (!u || str_cmp(&words[u - 1], &words[i])) words[u++] = words[i];
    count = u;

    uint32_t dawg_start = UNSET, gaddag_start = UNSET;
    Py_BEGIN_ALLOW_THREADS
    if (states_reserve(&s) == 0 && states_grow_table(&s) == 0
            && states_get(&s, 0, 0, 0, 0) == 0) {
        dawg_start = make_dawg(&s, words, count, 0, 0);
        if (dawg_start != UNSET) {
            gwords = gaddag_strings(words, count, &gcount, &arena);
            if (gwords) gaddag_start = make_dawg(&s, gwords, gcount, dawg_start, 1);
        }
    }
    Py_END_ALLOW_THREADS
    if (gaddag_start == UNSET) { PyErr_NoMemory(); goto done; }
    result = layout(&s, dawg_start, gaddag_start);
done:
    PyBuffer_Release(&blob);
    free(words); free(gwords); free(arena);
    states_free(&s);
    return result;
}

/* ---- reading -------------------------------------------------------------------------- */

/* A node from a buffer that may not be 4-byte aligned (e.g. a memoryview slice). */
static inline uint32_t node_at(const uint8_t *nodes, size_t i) {
    uint32_t v;
    memcpy(&v, nodes + 4 * i, 4);
    return v;
}

static int get_nodes(PyObject *obj, Py_buffer *view, const uint8_t **nodes, size_t *n) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return -1;
    if (view->len % 4 || view->len < 8) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "un KWG es una lista de nodos de 4 bytes, al menos dos");
        return -1;
    }
    *nodes = view->buf;
    *n = (size_t)view->len / 4;
    return 0;
}

/* ---- validation: once per graph, before anything walks it ------------------------------ */

/* A ValueError with a Spanish message (it may hold any UTF-8; PyErr_Format's may not).
 * Returns -1. */
static int fail(const char *fmt, ...) {
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    PyErr_SetString(PyExc_ValueError, msg);
    return -1;
}

/* Per node once counted: the accepted paths that start at it or at a later sibling, and
 * their tiles in total (a word list's count is at its root). Saturating: the caps are
 * checked on the totals. */
typedef struct { uint32_t paths, tiles; } Count;

/* Per node: NEW, OPEN (on the current path), or DONE + its height (the most tiles on a
 * path from it or a later sibling). */
enum { NODE_NEW = 0, NODE_OPEN = 1, NODE_DONE = 2 };
_Static_assert(NODE_DONE + MAX_DEPTH <= UINT8_MAX, "heights must fit a byte");

static inline uint32_t sat_add(uint32_t a, uint32_t b) {
    return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

typedef struct {
    const uint8_t *nodes;
    uint8_t *mark;
    Count *count;
    int dawg; /* walking the DAWG: words are tiles 1..255, 0 is the GADDAG's separator */
} Check;

/* Count the list starting at `start`, depth tiles below a root; its nodes are new. Depth
 * first: each node's children before the node, its later siblings before it. */
static int visit(Check *c, uint32_t start, int depth) {
    if (depth > MAX_DEPTH) return fail("el KWG tiene caminos de más de %d fichas", MAX_DEPTH);
    uint32_t last = start;
    for (;; last++) { /* open the list down to its end or to a tail already counted */
        uint32_t node = node_at(c->nodes, last), arc = node & ARC_MASK;
        c->mark[last] = NODE_OPEN;
        if (c->dawg && node >> TILE_SHIFT == SEPARATOR)
            return fail("el nodo %u del DAWG tiene la ficha %d, el separador del GADDAG", last,
                        SEPARATOR);
        if (arc && c->mark[arc] < NODE_DONE) {
            if (c->mark[arc] == NODE_OPEN)
                return fail("el KWG tiene un ciclo: el nodo %u lleva de vuelta al nodo %u", last,
                            arc);
            if (visit(c, arc, depth + 1) < 0) return -1;
        }
        if (node & IS_END_BIT || c->mark[last + 1] >= NODE_DONE) break;
        if (c->mark[last + 1] == NODE_OPEN)
            return fail("el KWG tiene un ciclo: el nodo %u lleva de vuelta al nodo %u", last,
                        last + 1);
    }
    for (uint32_t i = last;; i--) { /* and count it back up */
        uint32_t node = node_at(c->nodes, i), arc = node & ARC_MASK;
        uint32_t paths = (node & ACCEPTS_BIT) ? 1 : 0, tiles = paths, height = 1;
        if (arc) {
            Count below = c->count[arc];
            paths = sat_add(paths, below.paths);
            tiles = sat_add(tiles, sat_add(below.tiles, below.paths)); /* + this tile each */
            height += c->mark[arc] - NODE_DONE;
        }
        if (!paths) /* then the paths through it, not only the words, would be unbounded */
            return fail("el nodo %u no lleva a ninguna palabra", i);
        if (!(node & IS_END_BIT)) {
            Count next = c->count[i + 1];
            paths = sat_add(paths, next.paths);
            tiles = sat_add(tiles, next.tiles);
            uint32_t h = c->mark[i + 1] - NODE_DONE;
            if (h > height) height = h;
        }
        if (height + depth - 1 > MAX_DEPTH)
            return fail("el KWG tiene caminos de más de %d fichas", MAX_DEPTH);
        c->count[i] = (Count){paths, tiles};
        c->mark[i] = (uint8_t)(NODE_DONE + height);
        if (i == start) return 0;
    }
}

static int walk(Check *c, uint32_t root, int dawg) {
    c->dawg = dawg;
    return root && c->mark[root] == NODE_NEW ? visit(c, root, 1) : 0;
}

/* A tile set as an int (bit t for tile t). */
static PyObject *tile_set(const uint8_t *seen) {
    uint8_t bytes[32] = {0};
    for (int t = 0; t < 256; t++) bytes[t / 8] |= (uint8_t)(seen[t] << (t % 8));
    PyObject *b = PyBytes_FromStringAndSize((const char *)bytes, 32), *out = NULL;
    if (b) out = PyObject_CallMethod((PyObject *)&PyLong_Type, "from_bytes", "Os", b, "little");
    Py_XDECREF(b);
    return out;
}

/* The first node breaking a rule of the one-pass check below, with its message. */
static void report_bad_node(const uint8_t *nodes, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint32_t node = node_at(nodes, i), arc = node & ARC_MASK;
        if (arc >= n) {
            fail("el nodo %zu apunta fuera (%u ≥ %zu)", i, arc, n);
            return;
        }
        if (node & IS_END_BIT) continue;
        if (i + 1 == n) {
            fail("la última lista de hermanos no termina");
            return;
        }
        uint32_t next = node_at(nodes, i + 1) >> TILE_SHIFT;
        if (node >> TILE_SHIFT >= next) {
            fail("lista de hermanos desordenada en el nodo %zu (ficha %u antes de la %u)", i,
                 node >> TILE_SHIFT, next);
            return;
        }
    }
}

/* Everything a reader of the graph relies on:
 * - at most MAX_NODES nodes (what arcs can address), every arc inside the array (the move
 *   generator reads masks[arc] unchecked), every sibling list ending inside the array and
 *   strictly increasing by tile (the generator steps to a child by counting the tiles below
 *   it in the list): one branch-free pass over all nodes;
 * - from the DAWG root: no cycle, no path of more than MAX_DEPTH tiles, every node on the
 *   way to a word, at most MAX_WORDS words (counted per node, never walked one by one), no
 *   separator in a word: so every walk ends, after at most the words' tiles in steps, and
 *   what it makes fits in memory;
 * - with `gaddag`, the same from the GADDAG root (nodes[1]'s arc), separators allowed.
 * Returns (words, tiles, longest, gaddag_paths or None, tile_set): the DAWG's words, their
 * tiles in total and the most in one; the GADDAG's accepted paths (a GADDAG made from the
 * DAWG has one per tile of each word); the tiles of all nodes (bit t for tile t). */
static PyObject *kwg_check(PyObject *self, PyObject *args) {
    PyObject *obj;
    int gaddag;
    if (!PyArg_ParseTuple(args, "Op", &obj, &gaddag)) return NULL;
    Py_buffer view;
    const uint8_t *nodes;
    size_t n;
    if (get_nodes(obj, &view, &nodes, &n) < 0) return NULL;
    PyObject *result = NULL;
    Check *c = NULL;
    if (n > MAX_NODES) {
        fail("el KWG tiene %zu nodos; el formato admite como mucho %u", n, MAX_NODES);
        goto done;
    }
    uint8_t all[256] = {0};
    uint32_t bad = 0, node = node_at(nodes, 0);
    for (size_t i = 0; i + 1 < n; i++) {
        uint32_t next = node_at(nodes, i + 1);
        bad |= ((node & ARC_MASK) >= n) |
               (!(node & IS_END_BIT) & (node >> TILE_SHIFT >= next >> TILE_SHIFT));
        all[node >> TILE_SHIFT] = 1;
        node = next;
    }
    all[node >> TILE_SHIFT] = 1;
    if (bad | ((node & ARC_MASK) >= n) | !(node & IS_END_BIT)) {
        report_bad_node(nodes, n);
        goto done;
    }
    c = calloc(1, sizeof *c); /* the arrays: only the pages of nodes walked are touched */
    if (c) {
        c->nodes = nodes;
        c->mark = calloc(n, 1);
        c->count = malloc(n * sizeof *c->count);
    }
    if (!c || !c->mark || !c->count) {
        PyErr_NoMemory();
        goto done;
    }
    uint32_t dawg = node_at(nodes, 0) & ARC_MASK, root = node_at(nodes, 1) & ARC_MASK;
    if (walk(c, dawg, 1) < 0) goto done;
    uint32_t words = dawg ? c->count[dawg].paths : 0;
    if (words > MAX_WORDS) {
        fail("el KWG tiene más de %u palabras", MAX_WORDS);
        goto done;
    }
    PyObject *paths = NULL, *tiles = tile_set(all);
    if (!gaddag) {
        paths = Py_NewRef(Py_None);
    } else if (walk(c, root, 0) == 0) {
        paths = PyLong_FromUnsignedLong(root ? c->count[root].paths : 0);
    }
    if (tiles && paths)
        result = Py_BuildValue("IIIOO", words, dawg ? c->count[dawg].tiles : 0,
                               dawg ? c->mark[dawg] - NODE_DONE : 0, paths, tiles);
    Py_XDECREF(tiles);
    Py_XDECREF(paths);
done:
    if (c) {
        free(c->mark);
        free(c->count);
    }
    free(c);
    PyBuffer_Release(&view);
    return result;
}

/* masks[i]: bit t set for each tile t (< 32) of node i and the siblings after it. With sorted
 * lists (see check), the child for tile t of a list starting at arc is arc + popcount(masks[arc]
 * below t): one lookup instead of a scan. masks[0] = 0, so arc 0 ("no children") has none. */
static PyObject *kwg_child_masks(PyObject *self, PyObject *obj) {
    Py_buffer view;
    const uint8_t *nodes;
    size_t n;
    if (get_nodes(obj, &view, &nodes, &n) < 0) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * 4));
    if (!out) {
        PyBuffer_Release(&view);
        return NULL;
    }
    uint32_t *masks = (uint32_t *)PyBytes_AS_STRING(out), next = 0;
    for (size_t i = n; i-- > 0;) {
        uint32_t node = node_at(nodes, i), t = node >> TILE_SHIFT;
        if (node & IS_END_BIT) next = 0;
        masks[i] = next = (t < 32 ? 1u << t : 0) | next;
    }
    masks[0] = 0;
    PyBuffer_Release(&view);
    return out;
}

static PyObject *kwg_accepts(PyObject *self, PyObject *args) {
    PyObject *obj;
    Py_buffer word;
    if (!PyArg_ParseTuple(args, "Oy*", &obj, &word)) return NULL;
    Py_buffer view;
    const uint8_t *nodes;
    size_t n;
    if (get_nodes(obj, &view, &nodes, &n) < 0) { PyBuffer_Release(&word); return NULL; }
    const uint8_t *w = word.buf;
    int found = word.len > 0;
    uint32_t arc = node_at(nodes, 0) & ARC_MASK, node = 0;
    for (Py_ssize_t i = 0; found && i < word.len; i++) {
        found = 0;
        for (uint32_t j = arc; j && j < n; j++) {
            uint32_t t = node_at(nodes, j) >> TILE_SHIFT;
            if (t == w[i]) { node = node_at(nodes, j); found = 1; break; }
            if (t > w[i] || node_at(nodes, j) & IS_END_BIT) break;
        }
        arc = node & ARC_MASK;
    }
    PyBuffer_Release(&view);
    PyBuffer_Release(&word);
    return PyBool_FromLong(found && (node & ACCEPTS_BIT));
}

static PyObject *kwg_words(PyObject *self, PyObject *obj) {
    Py_buffer view;
    const uint8_t *nodes;
    size_t n;
    if (get_nodes(obj, &view, &nodes, &n) < 0) return NULL;
    uint8_t *buf = NULL, prefix[MAX_DEPTH];
    size_t len = 0, cap = 0;
    uint32_t stack[MAX_DEPTH];
    int depth = 0, entered = 0, ok = 1;
    uint32_t root = node_at(nodes, 0) & ARC_MASK;
    if (root && root < n) stack[depth++] = root;
    /* iterative DFS: stack[d] is the node at depth d; `entered` = tiles of stack in prefix */
    while (depth && ok) {
        uint32_t i = stack[depth - 1];
        if (entered == depth) {
            entered--;
            if (node_at(nodes, i) & IS_END_BIT || i + 1 >= n) { depth--; continue; }
            stack[depth - 1] = ++i;
        }
        uint32_t node = node_at(nodes, i);
        prefix[entered++] = (uint8_t)(node >> TILE_SHIFT);
        if (node & ACCEPTS_BIT) {
            if (len + (size_t)entered + 1 > cap) {
                size_t c = cap ? cap * 2 : 1 << 20;
                while (c < len + (size_t)entered + 1) c *= 2;
                uint8_t *nb = realloc(buf, c);
                if (!nb) { ok = 0; PyErr_NoMemory(); break; }
                buf = nb;
                cap = c;
            }
            if (len) buf[len++] = 0;
            memcpy(buf + len, prefix, (size_t)entered);
            len += (size_t)entered;
        }
        uint32_t arc = node & ARC_MASK;
        if (arc && arc < n) {
            if (depth == MAX_DEPTH) {
                ok = 0;
                PyErr_SetString(PyExc_ValueError, "KWG con un ciclo o una palabra demasiado larga");
                break;
            }
            stack[depth++] = arc;
        }
    }
    PyBuffer_Release(&view);
    PyObject *result = ok ? PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)len) : NULL;
    free(buf);
    return result;
}

static PyMethodDef methods[] = {
    {"build", kwg_build, METH_VARARGS, "build(blob) -> KWG bytes; words separated by 0 bytes."},
    {"check", kwg_check, METH_VARARGS, "check(nodes, gaddag) -> (words, tiles, longest, "
                                       "gaddag_paths, tile_set); ValueError if unsafe."},
    {"child_masks", kwg_child_masks, METH_O, "child_masks(nodes) -> bytes; uint32 tile set per node."},
    {"accepts", kwg_accepts, METH_VARARGS, "accepts(nodes, word) -> bool via the DAWG."},
    {"words", kwg_words, METH_O, "words(nodes) -> bytes; DAWG words separated by 0 bytes."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "atril._kwg", "Native KWG building, checking and reading.", -1, methods,
};

static const EngineConstant CONSTANTS[] = {
    ENGINE_CONSTANT(TILE_SHIFT), ENGINE_CONSTANT(ACCEPTS_BIT), ENGINE_CONSTANT(IS_END_BIT),
    ENGINE_CONSTANT(ARC_MASK),   ENGINE_CONSTANT(MAX_NODES),   ENGINE_CONSTANT(MAX_WORDS),
    ENGINE_CONSTANT(MAX_DEPTH),  ENGINE_CONSTANT(SEPARATOR),   {NULL, 0},
};

PyMODINIT_FUNC PyInit__kwg(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && add_engine_constants(m, CONSTANTS) < 0) Py_CLEAR(m);
    return m;
}
