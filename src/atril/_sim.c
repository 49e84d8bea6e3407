/* atril._sim: the simulation's hot loop (read atril/sim.py first). For each iteration it deals
 * the opponent a random rack from the unseen tiles and shuffles the rest as the bag, then, for
 * every candidate still in the race, plays the candidate and `plies` replies (each side its best
 * move by static equity, the move generator of atril_movegen.h) on a copy of the board, and
 * writes down what came of it. No Python runs between plies.
 *
 *   configure(values, counts, letter_mult, word_mult, bingo_bonus) -> None   (as _movegen)
 *   simulate(board: bytes[225], rack: bytes[29], unseen: bytes[29], bag: int, cands: bytes,
 *            active: bytes, nodes, masks, bingos, leaves: (nodes, counts, values),
 *            plies: int, exchange_min_bag: int, seed: int, first: int, count: int) -> bytes
 *
 * `rack` is the mover's rack and `unseen` what the mover cannot see (bag plus the opponent's
 * rack), counts per tile code; `bag` how many of the unseen tiles are in the bag. `cands` holds
 * packed move records (Rec, atril_engine.h) and `active` one byte per candidate (0: skip it).
 * Iteration i (first <= i < first + count) draws from its own random stream, seeded from
 * (seed, i): the same opponent rack and bag order for every candidate (common random numbers,
 * so the differences between candidates carry less luck), and the same answer however the
 * iterations are split into calls.
 *
 * The result holds count x ncands records of four float32 (see OUT_*): the spread the mover
 * gained over the playout (its points minus the opponent's, the art. 45 rack adjustments if
 * someone went out), the leave term (mover's leave value minus the opponent's, while the bag
 * holds tiles; a side's leave is what its last move kept, before the refill), the tiles unseen
 * by the side to move at the end, and flags.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atril_movegen.h"

#define OUT_SPREAD 0
#define OUT_LEAVE 1
#define OUT_UNSEEN 2
#define OUT_FLAGS 3
#define OUT_FIELDS 4
#define FLAG_OVER 1         /* someone went out during the playout (art. 45) */
#define FLAG_MOVER_TO_MOVE 2 /* at the end it is the mover's turn again */
#define MAX_PLIES 8
#define MAX_UNSEEN 100

typedef struct {
    Nodes k, lk;
    BingoTable bingos;
    const uint32_t *lcounts;
    const float *lvalues;
    Py_ssize_t nvalues;
    int has_leaves, exchange_min_bag;
} Ctx;

/* ---- random numbers: splitmix64, one stream per iteration ----------------------------- */

static inline uint64_t next_u64(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint32_t below(uint64_t *s, uint32_t n) {
    return (uint32_t)(((next_u64(s) >> 32) * (uint64_t)n) >> 32);
}

static void shuffle(uint8_t *v, int n, uint64_t *s) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)below(s, (uint32_t)i + 1);
        uint8_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* ---- one side's state in a playout ----------------------------------------------------- */

typedef struct {
    uint8_t rack[NCODES];
    int n;
    float kept; /* the value of the tiles its last move kept (before the refill) */
} Side;

static int rack_value(const Side *s) {
    int v = 0;
    for (int c = 1; c < NCODES; c++) v += s->rack[c] * VALUE[c];
    return v;
}

static float leave_value(const Ctx *c, const Side *s) {
    if (!c->has_leaves || s->n == 0 || s->n >= RACK_SIZE) return 0.0f;
    uint8_t tiles[RACK_SIZE];
    int n = 0;
    for (int t = 0; t < NCODES; t++)
        for (int m = 0; m < s->rack[t] && n < RACK_SIZE; m++) tiles[n++] = (uint8_t)t;
    long r = leave_rank(&c->lk, c->lcounts, tiles, n);
    return (r >= 0 && r < c->nvalues) ? c->lvalues[r] : 0.0f;
}

static void draw(Side *s, const uint8_t *bag, int *pos, int end) {
    while (s->n < RACK_SIZE && *pos < end) {
        s->rack[bag[(*pos)++]]++;
        s->n++;
    }
}

/* The best move of `s` by static equity (leave values while the bag holds tiles, exchanges
 * while the rules allow one), as the `equity` player chooses; 0 if it has none (a pass). */
static int best_move(const Ctx *c, Gen *g, const uint8_t *board, const Side *s, int bag,
                     Rec *out) {
    memset(g, 0, sizeof *g);
    memcpy(g->board, board, NSQ);
    memcpy(g->rack, s->rack, NCODES);
    g->k = c->k;
    set_radix(g);
    g->bingos = c->bingos;
    g->topn = 1;
    g->recs = out;
    g->cap = 1;
    int leaves = bag > 0 && c->has_leaves;
    if (leaves) {
        fill_leaves(g, &c->lk, c->lcounts, c->lvalues, c->nvalues);
        g->has_leaves = 1;
    }
    compute_cross(g);
    compute_anchors(g);
    int min_bag = c->exchange_min_bag > 1 ? c->exchange_min_bag : 1;
    if (leaves && bag >= min_bag) gen_exchanges(g, bag < RACK_SIZE ? bag : RACK_SIZE);
    if (gen_best_plays(g) < 0) return -1;
    return (int)g->nrecs;
}

/* Make move r for side s: tiles onto the board (a play) or back into the bag (an exchange:
 * the new tiles are drawn first, then the old ones go in and the rest of the bag is shuffled);
 * then the refill. Returns the points. */
static int apply(const Ctx *c, Side *s, const Rec *r, uint8_t *board, uint8_t *bag, int *pos,
                 int *end, uint64_t *rng) {
    if (r->kind == KIND_PLAY) {
        int step = r->dir == 0 ? 1 : SIZE, sq = r->row * SIZE + r->col;
        for (int i = 0; i < r->len; i++, sq += step) {
            uint8_t t = r->tiles[i];
            if (!(t & NEW_BIT)) continue;
            t &= (uint8_t)~NEW_BIT;
            board[sq] = t;
            s->rack[t & BLANK_BIT ? 0 : t & LETTER_MASK]--;
            s->n--;
        }
        s->kept = leave_value(c, s);
        draw(s, bag, pos, *end);
        return r->score;
    }
    s->kept = leave_value(c, s); /* a pass keeps everything: no 7-tile leave has a value */
    if (r->kind == KIND_EXCHANGE) {
        for (int i = 0; i < r->len; i++) {
            s->rack[r->tiles[i]]--;
            s->n--;
        }
        s->kept = leave_value(c, s);
        draw(s, bag, pos, *end);
        for (int i = 0; i < r->len; i++) bag[(*end)++] = r->tiles[i];
        shuffle(bag + *pos, *end - *pos, rng);
    }
    return 0;
}

typedef struct {
    uint8_t board[NSQ];
    Side mover, opp;
    uint8_t bag[MAX_UNSEEN + (MAX_PLIES + 1) * RACK_SIZE]; /* exchanges append */
    int pos, end;
} Playout;

/* One candidate over one deal: fills the OUT_FIELDS floats of `out`. */
static int playout(const Ctx *c, Gen *g, const Playout *start, const Rec *cand, int plies,
                   uint64_t rng, float *out) {
    Playout p = *start;
    int spread = apply(c, &p.mover, cand, p.board, p.bag, &p.pos, &p.end, &rng);
    int over = 0, ply = 0, bag_left = p.end - p.pos;
    if (cand->kind == KIND_PLAY && p.mover.n == 0 && bag_left == 0) { /* art. 45: out */
        spread += 2 * rack_value(&p.opp);
        over = 1;
    }
    for (ply = 1; ply <= plies && !over; ply++) {
        Side *s = ply % 2 ? &p.opp : &p.mover, *other = ply % 2 ? &p.mover : &p.opp;
        int sign = ply % 2 ? -1 : 1;
        Rec best;
        int found = best_move(c, g, p.board, s, p.end - p.pos, &best);
        if (found < 0) return -1;
        if (found == 0) { /* nothing to do: a pass */
            s->kept = 0.0f;
            continue;
        }
        spread += sign * apply(c, s, &best, p.board, p.bag, &p.pos, &p.end, &rng);
        if (best.kind == KIND_PLAY && s->n == 0 && p.end == p.pos) {
            spread += sign * 2 * rack_value(other);
            over = 1;
        }
    }
    bag_left = p.end - p.pos;
    float leave = 0.0f;
    if (!over && bag_left > 0) leave = p.mover.kept - p.opp.kept;
    /* After the candidate and k replies (passes count) the opponent moves if k is even. */
    int replies = ply - 1, mover_to_move = replies % 2 == 1;
    const Side *waiting = mover_to_move ? &p.opp : &p.mover;
    out[OUT_SPREAD] = (float)spread;
    out[OUT_LEAVE] = leave;
    out[OUT_UNSEEN] = (float)(bag_left + waiting->n);
    out[OUT_FLAGS] = (float)((over ? FLAG_OVER : 0) | (mover_to_move ? FLAG_MOVER_TO_MOVE : 0));
    return 0;
}

/* ---- Python glue ---------------------------------------------------------------------- */

static PyObject *py_simulate(PyObject *self, PyObject *args) {
    PyObject *ob, *orack, *ounseen, *ocands, *oactive, *onodes, *omasks, *obingos, *oleaves;
    int bag, plies, exchange_min_bag;
    unsigned long long seed;
    long long first, count;
    if (!PyArg_ParseTuple(args, "OOOiOOOOOOiiKLL", &ob, &orack, &ounseen, &bag, &ocands,
                          &oactive, &onodes, &omasks, &obingos, &oleaves, &plies,
                          &exchange_min_bag, &seed, &first, &count))
        return NULL;
    Buf board = {0}, rack = {0}, unseen = {0}, cands = {0}, active = {0}, nodes = {0},
        masks = {0}, bingos = {0}, lnodes = {0}, lcounts = {0}, lvalues = {0};
    PyObject *out = NULL;
    Gen *g = NULL;
    Ctx c;
    memset(&c, 0, sizeof c);
    if (get_buf(ob, &board, "tablero") < 0 || get_buf(orack, &rack, "atril") < 0 ||
        get_buf(ounseen, &unseen, "no vistas") < 0 || get_buf(ocands, &cands, "jugadas") < 0 ||
        get_buf(oactive, &active, "activas") < 0 || get_buf(onodes, &nodes, "kwg") < 0 ||
        get_buf(omasks, &masks, "kwg") < 0 || get_buf(obingos, &bingos, "bingos") < 0)
        goto done;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "atril._sim sin configurar");
        goto done;
    }
    size_t ncands = (size_t)cands.buf.len / sizeof(Rec);
    size_t slots = (size_t)bingos.buf.len / 4;
    if (board.buf.len != NSQ || rack.buf.len != NCODES || unseen.buf.len != NCODES ||
        cands.buf.len % sizeof(Rec) || (size_t)active.buf.len != ncands || count < 0 ||
        plies < 0 || plies > MAX_PLIES || nodes.buf.len < 8 || nodes.buf.len % 4 ||
        masks.buf.len != nodes.buf.len || bingos.buf.len % 4 || slots < 2 ||
        (slots & (slots - 1))) {
        PyErr_SetString(PyExc_ValueError, "simulate: argumentos con tamaños no válidos");
        goto done;
    }
    c.k.v = nodes.buf.buf;
    c.k.m = masks.buf.buf;
    c.k.n = (uint32_t)(nodes.buf.len / 4);
    c.bingos.slot = bingos.buf.buf;
    c.bingos.mask = (uint32_t)(slots - 1);
    c.exchange_min_bag = exchange_min_bag;
    if (oleaves != Py_None) {
        PyObject *a, *b, *v;
        if (!PyArg_ParseTuple(oleaves, "OOO", &a, &b, &v) || get_buf(a, &lnodes, "hojas") < 0 ||
            get_buf(b, &lcounts, "hojas") < 0 || get_buf(v, &lvalues, "hojas") < 0)
            goto done;
        if (lcounts.buf.len != lnodes.buf.len) {
            PyErr_SetString(PyExc_ValueError, "hojas: una cuenta por nodo");
            goto done;
        }
        c.lk.v = lnodes.buf.buf;
        c.lk.m = NULL;
        c.lk.n = (uint32_t)(lnodes.buf.len / 4);
        c.lcounts = lcounts.buf.buf;
        c.lvalues = lvalues.buf.buf;
        c.nvalues = lvalues.buf.len / 4;
        c.has_leaves = 1;
    }
    /* The deal every iteration starts from: the unseen tiles as a list. */
    Playout start;
    memset(&start, 0, sizeof start);
    memcpy(start.board, board.buf.buf, NSQ);
    memcpy(start.mover.rack, rack.buf.buf, NCODES);
    uint8_t pool[MAX_UNSEEN];
    int npool = 0, nrack = 0;
    const uint8_t *un = unseen.buf.buf;
    for (int t = 0; t < NCODES; t++) {
        nrack += start.mover.rack[t];
        for (int m = 0; m < un[t]; m++) {
            if (npool == MAX_UNSEEN) break;
            pool[npool++] = (uint8_t)t;
        }
    }
    start.mover.n = nrack;
    int opp_n = npool - bag;
    if (nrack > RACK_SIZE || bag < 0 || opp_n < 0 || opp_n > RACK_SIZE) {
        PyErr_SetString(PyExc_ValueError, "simulate: atril, bolsa y fichas no vistas no cuadran");
        goto done;
    }
    out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((size_t)count * ncands * OUT_FIELDS *
                                                       sizeof(float)));
    g = malloc(sizeof *g);
    if (!out || !g) {
        Py_CLEAR(out);
        PyErr_NoMemory();
        goto done;
    }
    float *res = (float *)PyBytes_AS_STRING(out);
    memset(res, 0, (size_t)count * ncands * OUT_FIELDS * sizeof(float));
    const Rec *recs = cands.buf.buf;
    const uint8_t *act = active.buf.buf;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (long long it = 0; it < count && !failed; it++) {
        uint64_t rng = seed ^ (0xD1B54A32D192ED03ULL * (uint64_t)(first + it + 1));
        next_u64(&rng);
        Playout deal = start;
        memcpy(deal.bag, pool, (size_t)npool);
        shuffle(deal.bag, npool, &rng);
        /* the opponent's rack: the first opp_n tiles; the bag: the rest, in order */
        for (int i = 0; i < opp_n; i++) deal.opp.rack[deal.bag[i]]++;
        deal.opp.n = opp_n;
        deal.pos = opp_n;
        deal.end = npool;
        for (size_t k = 0; k < ncands && !failed; k++) {
            if (!act[k]) continue;
            uint64_t crng = rng ^ (0x9E3779B97F4A7C15ULL * (uint64_t)(k + 1));
            float *o = res + ((size_t)it * ncands + k) * OUT_FIELDS;
            if (playout(&c, g, &deal, &recs[k], plies, crng, o) < 0) failed = 1;
        }
    }
    Py_END_ALLOW_THREADS
    if (failed) {
        Py_CLEAR(out);
        PyErr_NoMemory();
    }
done:
    free(g);
    release(&board);
    release(&rack);
    release(&unseen);
    release(&cands);
    release(&active);
    release(&nodes);
    release(&masks);
    release(&bingos);
    release(&lnodes);
    release(&lcounts);
    release(&lvalues);
    return out;
}

static PyMethodDef methods[] = {
    {"configure", py_configure, METH_VARARGS, "Tile values, premium maps and the bingo bonus (from atril)."},
    {"simulate", py_simulate, METH_VARARGS, "Play candidates out over random deals."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "atril._sim", NULL, -1, methods, NULL, NULL, NULL, NULL};

static const EngineConstant CONSTANTS[] = {
    ENGINE_CONSTANT(OUT_SPREAD), ENGINE_CONSTANT(OUT_LEAVE), ENGINE_CONSTANT(OUT_UNSEEN),
    ENGINE_CONSTANT(OUT_FLAGS), ENGINE_CONSTANT(OUT_FIELDS), ENGINE_CONSTANT(FLAG_OVER),
    ENGINE_CONSTANT(FLAG_MOVER_TO_MOVE), ENGINE_CONSTANT(MAX_PLIES),
    {NULL, 0},
};

PyMODINIT_FUNC PyInit__sim(void) {
    engine_init();
    PyObject *m = PyModule_Create(&module);
    if (m && add_engine_constants(m, CONSTANTS) < 0) Py_CLEAR(m);
    return m;
}
