/* atril_movegen.h: the move generator's core (read atril/movegen.py first), shared by every
 * extension that generates moves: _movegen.c (generate, best), _endgame.c (the exact endgame)
 * and _sim.c (simulation). Each module keeps its own copy of the tables below, set by its
 * configure() from the same Python values (atril.movegen.configure), and calls engine_init()
 * once when it loads.
 *
 * Gordon's GADDAG algorithm as in Macondo and wolges: cross-sets and cross-scores per square
 * and direction, anchors, a left-then-right walk of the GADDAG from each anchor with scoring
 * kept up to date at every step; and the best-n search by shadow bounds. Needs Python.h
 * included first (the glue helpers at the end read Python buffers).
 */
#ifndef ATRIL_MOVEGEN_H
#define ATRIL_MOVEGEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atril_engine.h"

#define SIZE 15
#define NSQ 225
#define NCODES 29
#define BLANK_BIT 0x80
#define LETTER_MASK 0x3F
#define ALL_LETTERS 0x1FFFFFFEu /* bits 1..28 */
#define RACK_SIZE 7
static int BINGO_BONUS; /* art. 19: set by configure() from atril.rules, the one place for it */
#define MAX_LEAVES 128 /* sub-multisets of a 7-tile rack: at most 2^7 */

static uint8_t VALUE[NCODES], COUNT[NCODES];
static uint64_t TILE_KEY[256]; /* a random key per tile: see bingo_possible */
static uint8_t LM[NSQ], WM[NSQ];
static int configured = 0;

/* ---- KWG ------------------------------------------------------------------------------ */

/* v: the nodes; m: per node, the tiles of it and its later siblings (m[0] = 0); NULL for a
 * DAWG read by scanning (the leave table). */
typedef struct { const uint32_t *v, *m; uint32_t n; } Nodes;

/* Index of tile t's node in a list whose tile set is `mask` and which starts at `arc`. */
static inline uint32_t nth(uint32_t arc, uint32_t mask, uint32_t t) {
    return arc + (uint32_t)__builtin_popcount(mask & ((1u << t) - 1));
}

/* The node for `tile` in the sibling list starting at `arc`, or 0. */
static inline uint32_t child(const Nodes *k, uint32_t arc, uint32_t tile) {
    uint32_t mask = k->m[arc];
    return (mask >> tile) & 1 ? nth(arc, mask, tile) : 0;
}

/* Tile multisets of 7 to 15 tiles that spell a word: see bingo_possible. */
typedef struct { const uint32_t *slot; uint32_t mask; } BingoTable;

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

static inline uint32_t arc_of(const Nodes *k, uint32_t i) { return k->v[i] & ARC_MASK; }
static inline int accepts(const Nodes *k, uint32_t i) { return (k->v[i] & ACCEPTS_BIT) != 0; }

/* Letters c among `want` such that pre + c + suf is a word (pre, suf in reading order,
 * letters only). */
static uint32_t cross_set(const Nodes *k, const uint8_t *pre, int plen, const uint8_t *suf,
                          int slen, uint32_t want) {
    uint32_t arc = arc_of(k, 1), mask = 0;
    if (!(want &= ALL_LETTERS)) return 0;
    if (slen > 0) { /* GADDAG path cn..c1: suf reversed, c, pre reversed */
        for (int i = slen - 1; i >= 0; i--) {
            uint32_t j = child(k, arc, suf[i]);
            if (!j) return 0;
            arc = arc_of(k, j);
        }
        uint32_t list = k->m[arc];
        for (uint32_t todo = list & want; todo; todo &= todo - 1) {
            uint32_t t = (uint32_t)__builtin_ctz(todo), x = nth(arc, list, t);
            for (int i = plen - 1; i >= 0 && x; i--) x = child(k, arc_of(k, x), pre[i]);
            if (x && accepts(k, x)) mask |= 1u << t;
        }
    } else { /* pre reversed, separator, c */
        for (int i = plen - 1; i >= 0; i--) {
            uint32_t j = child(k, arc, pre[i]);
            if (!j) return 0;
            arc = arc_of(k, j);
        }
        uint32_t s = child(k, arc, SEPARATOR);
        if (!s) return 0;
        arc = arc_of(k, s);
        uint32_t list = k->m[arc];
        for (uint32_t todo = list & want; todo; todo &= todo - 1) {
            uint32_t t = (uint32_t)__builtin_ctz(todo);
            if (accepts(k, nth(arc, list, t))) mask |= 1u << t;
        }
    }
    return mask & want;
}

/* ---- generator state ------------------------------------------------------------------ */

typedef struct {
    Nodes k;
    uint8_t board[NSQ];
    uint32_t xset[2][NSQ];  /* letters allowed by the perpendicular word, per play direction */
    int16_t xscore[2][NSQ]; /* value of the perpendicular tiles, -1 if there are none */
    uint8_t xlen[2][NSQ];   /* how many perpendicular tiles touch the square */
    uint8_t anchor[2][NSQ];
    uint8_t rack[NCODES];
    int rack_total;
    uint32_t rack_mask; /* bit c set while the rack holds code c */
    int radix[NCODES]; /* mixed-radix weight of each code: index of the tiles used */
    int codes[RACK_SIZE], ncodes; /* the rack's distinct codes, ascending */
    uint64_t rack_key; /* the rack's letters (blanks left out) as a bingo-table key */
    BingoTable bingos; /* best only */
    float leave[MAX_LEAVES]; /* leave value by index of the tiles used */
    int has_leaves;          /* leave values were given */
    /* the line being generated */
    int dir, line, anchor_pos, word_end, left_limit; /* word_end: see gen_anchor */
    uint8_t ltile[SIZE], lxlen[SIZE], llm[SIZE], lwm[SIZE];
    uint32_t lxset[SIZE];
    int16_t lxscore[SIZE];
    uint8_t word[SIZE];
    /* output */
    Rec *recs;
    size_t nrecs, cap;
    int topn; /* 0: keep every move; otherwise keep the best topn by equity */
    const float *at, *reach; /* topn: bounds by start square (see Anchor), else NULL */
    int failed;
    uint32_t wild_mask; /* the letters a WILD_TILE on the board may stand for (see below) */
} Gen;

/* A square that stands for any of the letters g->wild_mask holds: the exact endgame bounds
 * every letter a blank put down could be at once with it (docs/ENDGAME.md, "the blank's
 * letters"). A word through it is a word for some letter of the mask: the walk goes on through
 * each, and a cross-set beside it is the union over them. It scores nothing, as a blank. Boards
 * outside that bound never hold it. */
#define WILD_LETTER 30
#define WILD_TILE (BLANK_BIT | WILD_LETTER)

/* The cross-set of pre + c + suf (see cross_set), where one of their squares may be the wild
 * one. */
static uint32_t cross_set_wild(const Gen *g, uint8_t *pre, int plen, uint8_t *suf, int slen,
                               uint32_t want) {
    uint8_t *w = NULL;
    for (int i = 0; i < plen; i++)
        if (pre[i] == WILD_LETTER) w = &pre[i];
    for (int i = 0; i < slen; i++)
        if (suf[i] == WILD_LETTER) w = &suf[i];
    if (!w) return cross_set(&g->k, pre, plen, suf, slen, want);
    uint32_t any = 0;
    for (uint32_t todo = g->wild_mask; todo; todo &= todo - 1) {
        *w = (uint8_t)__builtin_ctz(todo);
        any |= cross_set(&g->k, pre, plen, suf, slen, want);
    }
    *w = WILD_LETTER;
    return any;
}

static inline int sq_of(int dir, int line, int pos) {
    return dir == 0 ? line * SIZE + pos : pos * SIZE + line;
}

/* The perpendicular run through empty square `sq` for a play along `dir`: the tiles before
 * and after it (letters only, reading order) and their value; 0 when it has no neighbour. */
static int perpendicular(const Gen *g, int dir, int sq, uint8_t *pre, int *plen, uint8_t *suf,
                         int *slen, int *sum) {
    int r = sq / SIZE, c = sq % SIZE;
    int dr = dir == 0 ? 1 : 0, dc = dir == 0 ? 0 : 1, d = dir == 0 ? SIZE : 1;
    if (!((dir == 0 ? r : c) > 0 && g->board[sq - d]) &&
        !((dir == 0 ? r : c) < SIZE - 1 && g->board[sq + d]))
        return 0;
    *plen = *slen = *sum = 0;
    int rr = r - dr, cc = c - dc;
    while (rr >= 0 && cc >= 0 && g->board[rr * SIZE + cc]) { rr -= dr; cc -= dc; }
    for (rr += dr, cc += dc; rr != r || cc != c; rr += dr, cc += dc) {
        uint8_t t = g->board[rr * SIZE + cc];
        pre[(*plen)++] = t & LETTER_MASK;
        if (!(t & BLANK_BIT)) *sum += VALUE[t];
    }
    for (rr = r + dr, cc = c + dc; rr < SIZE && cc < SIZE && g->board[rr * SIZE + cc];
         rr += dr, cc += dc) {
        uint8_t t = g->board[rr * SIZE + cc];
        suf[(*slen)++] = t & LETTER_MASK;
        if (!(t & BLANK_BIT)) *sum += VALUE[t];
    }
    return 1;
}

/* The cross-set, cross-score and perpendicular length of square `sq` for a play along `dir`
 * (the perpendicular word runs along the other direction), for the letters in `want`. */
static void cross_square(Gen *g, int dir, int sq, uint32_t want) {
    uint8_t pre[SIZE], suf[SIZE];
    int plen, slen, sum;
    g->xset[dir][sq] = 0;
    g->xscore[dir][sq] = -1;
    g->xlen[dir][sq] = 0;
    if (g->board[sq]) return;
    if (!perpendicular(g, dir, sq, pre, &plen, suf, &slen, &sum)) {
        g->xset[dir][sq] = ALL_LETTERS; /* no perpendicular neighbour */
        return;
    }
    g->xset[dir][sq] = cross_set_wild(g, pre, plen, suf, slen, want);
    g->xscore[dir][sq] = (int16_t)sum;
    g->xlen[dir][sq] = (uint8_t)(plen + slen);
}

/* Every square's cross-set for the letters in `want`. */
static void compute_cross_for(Gen *g, uint32_t want) {
    for (int dir = 0; dir < 2; dir++)
        for (int sq = 0; sq < NSQ; sq++) cross_square(g, dir, sq, want);
}

/* Only the rack's letters (all of them with a blank) are worked out: nothing else is asked. */
static void compute_cross(Gen *g) {
    compute_cross_for(g, g->rack[0] ? ALL_LETTERS : g->rack_mask);
}

/* Whether empty square `sq` touches a tile: an anchor (on a board that is not empty). */
static inline int touches_tile(const uint8_t *board, int sq) {
    int r = sq / SIZE, c = sq % SIZE;
    return (r > 0 && board[sq - SIZE]) || (r < SIZE - 1 && board[sq + SIZE]) ||
           (c > 0 && board[sq - 1]) || (c < SIZE - 1 && board[sq + 1]);
}

static void compute_anchors(Gen *g) {
    memset(g->anchor, 0, sizeof g->anchor);
    int empty = 1;
    for (int sq = 0; sq < NSQ; sq++) if (g->board[sq]) { empty = 0; break; }
    if (empty) { /* the first play covers the centre; across only, as Quackle counts */
        g->anchor[0][7 * SIZE + 7] = 1;
        return;
    }
    for (int sq = 0; sq < NSQ; sq++)
        if (!g->board[sq] && touches_tile(g->board, sq)) g->anchor[0][sq] = g->anchor[1][sq] = 1;
}

static void load_line(Gen *g, int dir, int line) {
    g->dir = dir;
    g->line = line;
    for (int p = 0; p < SIZE; p++) {
        int sq = sq_of(dir, line, p);
        g->ltile[p] = g->board[sq];
        g->lxset[p] = g->xset[dir][sq];
        g->lxscore[p] = g->xscore[dir][sq];
        g->lxlen[p] = g->xlen[dir][sq];
        g->llm[p] = LM[sq];
        g->lwm[p] = WM[sq];
        g->word[p] = g->board[sq];
    }
}

/* ---- output --------------------------------------------------------------------------- */

/* The canonical order: equity (= score without leaves) desc, then kind, dir, row, col, word. */
static int rec_cmp(const void *a, const void *b) {
    const Rec *x = a, *y = b;
    if (x->equity != y->equity) return x->equity > y->equity ? -1 : 1;
    return memcmp(&x->kind, &y->kind, offsetof(Rec, equity) - offsetof(Rec, kind));
}

/* Room for `need` records in *v of capacity *cap (doubling from 1024): 0, or -1 out of
 * memory. */
static int grow_recs(Rec **v, size_t *cap, size_t need) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    Rec *p = realloc(*v, c * sizeof *p);
    if (!p) return -1;
    *v = p;
    *cap = c;
    return 0;
}

/* Room for n more records in g->recs. */
static int reserve(Gen *g, size_t n) { return grow_recs(&g->recs, &g->cap, g->nrecs + n); }

static void emit(Gen *g, const Rec *r) {
    if (g->topn) { /* keep the best topn, sorted */
        size_t n = g->nrecs;
        if (n == (size_t)g->topn) {
            if (rec_cmp(r, &g->recs[n - 1]) >= 0) return;
            n--;
        }
        size_t i = n;
        while (i > 0 && rec_cmp(r, &g->recs[i - 1]) < 0) {
            g->recs[i] = g->recs[i - 1];
            i--;
        }
        g->recs[i] = *r;
        g->nrecs = n + 1;
        return;
    }
    if (reserve(g, 1) < 0) {
        g->failed = 1;
        return;
    }
    g->recs[g->nrecs++] = *r;
}

static void record_play(Gen *g, int start, int end, int main, int wmult, int cross, int nplaced,
                        int lidx) {
    int len = end - start + 1;
    if (len < 2) return;
    if (nplaced == 1) { /* one tile: report it once, along its longer word (across on a tie) */
        int a = g->anchor_pos, cross_len = g->lxlen[a] + 1;
        if (g->dir == 0 ? cross_len > len : cross_len >= len) return;
    }
    int score = main * wmult + cross + (nplaced == RACK_SIZE ? BINGO_BONUS : 0);
    float equity = (float)score + g->leave[lidx];
    if (g->topn && g->nrecs == (size_t)g->topn && equity < g->recs[g->nrecs - 1].equity) return;
    Rec r;
    memset(&r, 0, sizeof r);
    r.score = (int16_t)score;
    r.kind = KIND_PLAY;
    r.dir = (uint8_t)g->dir;
    r.row = (uint8_t)(g->dir == 0 ? g->line : start);
    r.col = (uint8_t)(g->dir == 0 ? start : g->line);
    r.len = (uint8_t)len;
    r.nplaced = (uint8_t)nplaced;
    memcpy(r.tiles, g->word + start, (size_t)len);
    r.equity = equity;
    emit(g, &r);
}

/* ---- Gordon's walk -------------------------------------------------------------------- */

static void go_left(Gen *g, int pos, uint32_t arc, int main, int wmult, int cross, int np,
                    int lidx);
static void go_right(Gen *g, int pos, uint32_t arc, int start, int main, int wmult, int cross,
                     int np, int lidx);

/* In best mode: whether the plays bounded by bounds[pos] cannot make the top n. */
static inline int hopeless(const Gen *g, const float *bounds, int pos) {
    return bounds && g->nrecs == (size_t)g->topn && bounds[pos] < g->recs[g->nrecs - 1].equity;
}

/* In best mode: whether the plays that start at `pos` cannot make the top n. A play whose
 * bound only ties the n-th best cannot either when it would sort after it (canonical order:
 * plays before exchanges, then direction, row, column). */
static inline int hopeless_start(const Gen *g, int pos) {
    if (!g->at || g->nrecs != (size_t)g->topn) return 0;
    const Rec *worst = &g->recs[g->nrecs - 1];
    if (g->at[pos] != worst->equity) return g->at[pos] < worst->equity;
    int row = g->dir == 0 ? g->line : pos, col = g->dir == 0 ? pos : g->line;
    return worst->kind == KIND_PLAY &&
           (worst->dir != g->dir ? worst->dir < g->dir
                                 : worst->row != row ? worst->row < row : worst->col < col);
}

/* After the tile at `pos` (node j) on the way left from word_end. Starts further left come
 * first: on a tie, the leftmost play wins, and then the starts right of it need no walk. */
static void left_next(Gen *g, int pos, uint32_t j, int main, int wmult, int cross, int np,
                      int lidx) {
    int e = g->word_end;
    if (pos == 0 || !g->ltile[pos - 1]) {
        if (pos > 0 && pos - 1 >= g->left_limit && g->rack_total && !hopeless(g, g->reach, pos - 1))
            go_left(g, pos - 1, arc_of(&g->k, j), main, wmult, cross, np, lidx);
        if (pos <= g->anchor_pos && !hopeless_start(g, pos)) { /* the word may start here */
            if (np && accepts(&g->k, j)) record_play(g, pos, e, main, wmult, cross, np, lidx);
            if (e < SIZE - 1 && g->rack_total) {
                uint32_t s = child(&g->k, arc_of(&g->k, j), SEPARATOR);
                if (s) go_right(g, e + 1, arc_of(&g->k, s), pos, main, wmult, cross, np, lidx);
            }
        }
    } else if (!hopeless(g, g->reach, pos - 1)) {
        go_left(g, pos - 1, arc_of(&g->k, j), main, wmult, cross, np, lidx);
    }
}

static void right_next(Gen *g, int pos, uint32_t j, int start, int main, int wmult, int cross,
                       int np, int lidx) {
    if ((pos == SIZE - 1 || !g->ltile[pos + 1]) && accepts(&g->k, j))
        record_play(g, start, pos, main, wmult, cross, np, lidx);
    if (pos < SIZE - 1 && (g->ltile[pos + 1] || g->rack_total))
        go_right(g, pos + 1, arc_of(&g->k, j), start, main, wmult, cross, np, lidx);
}

/* Put each possible tile on `pos` (or read the board tile there) and continue: the shared
 * step of both directions; `start` < 0 means "going left". */
static inline void step(Gen *g, int pos, uint32_t arc, int start, int main, int wmult, int cross,
                        int np, int lidx) {
    const Nodes *k = &g->k;
    uint8_t bt = g->ltile[pos];
    if (bt) {
        if (bt == WILD_TILE) { /* on through each letter it may stand for, scoring nothing */
            for (uint32_t todo = g->wild_mask; todo; todo &= todo - 1) {
                uint32_t j = child(k, arc, (uint32_t)__builtin_ctz(todo));
                if (!j) continue;
                if (start < 0) left_next(g, pos, j, main, wmult, cross, np, lidx);
                else right_next(g, pos, j, start, main, wmult, cross, np, lidx);
            }
            return;
        }
        uint32_t j = child(k, arc, bt & LETTER_MASK);
        if (!j) return;
        int m = main + ((bt & BLANK_BIT) ? 0 : VALUE[bt]);
        if (start < 0) left_next(g, pos, j, m, wmult, cross, np, lidx);
        else right_next(g, pos, j, start, m, wmult, cross, np, lidx);
        return;
    }
    uint32_t list = k->m[arc];
    uint32_t todo = list & g->lxset[pos] & (g->rack[0] ? ALL_LETTERS : g->rack_mask);
    if (!todo) return;
    int lm = g->llm[pos], wm = g->lwm[pos], xsc = g->lxscore[pos];
    for (; todo; todo &= todo - 1) {
        uint32_t t = (uint32_t)__builtin_ctz(todo), j = nth(arc, list, t);
        for (int blank = 0; blank < 2; blank++) {
            int code = blank ? 0 : (int)t;
            if (!g->rack[code]) continue;
            int v = blank ? 0 : VALUE[t] * lm;
            int c = cross + (xsc >= 0 ? (xsc + v) * wm : 0);
            if (!--g->rack[code]) g->rack_mask &= ~(1u << code);
            g->rack_total--;
            g->word[pos] = (uint8_t)(t | NEW_BIT | (blank ? BLANK_BIT : 0));
            if (start < 0) left_next(g, pos, j, main + v, wmult * wm, c, np + 1, lidx + g->radix[code]);
            else right_next(g, pos, j, start, main + v, wmult * wm, c, np + 1, lidx + g->radix[code]);
            g->rack[code]++;
            g->rack_mask |= 1u << code;
            g->rack_total++;
        }
    }
    g->word[pos] = 0;
}

static void go_left(Gen *g, int pos, uint32_t arc, int main, int wmult, int cross, int np,
                    int lidx) {
    step(g, pos, arc, -1, main, wmult, cross, np, lidx);
}

static void go_right(Gen *g, int pos, uint32_t arc, int start, int main, int wmult, int cross,
                     int np, int lidx) {
    step(g, pos, arc, start, main, wmult, cross, np, lidx);
}

/* Every play through the anchor. The GADDAG walk reads the letters already on the board first,
 * so only rack tiles that fit them are tried: it starts at word_end, the last board tile of the
 * run right after the anchor; else, with a run just left of it, at that run's last tile (the
 * anchor is then filled on the way right); else at the anchor. */
static void gen_anchor(Gen *g, int pos, int left_limit) {
    int e = pos;
    while (e < SIZE - 1 && g->ltile[e + 1]) e++;
    if (e == pos && pos > 0 && g->ltile[pos - 1]) e = pos - 1;
    g->anchor_pos = pos;
    g->word_end = e;
    g->left_limit = left_limit;
    go_left(g, e, arc_of(&g->k, 1), 0, 1, 0, 0, 0);
}

static inline int line_has_anchor(const Gen *g, int dir, int line) {
    for (int p = 0; p < SIZE; p++)
        if (g->anchor[dir][sq_of(dir, line, p)]) return 1;
    return 0;
}

/* Every play along one line (the line's anchors known). Each play is generated from the
 * leftmost anchor it covers: the walk left from an anchor stops before the previous anchor. */
static void gen_line(Gen *g, int dir, int line) {
    load_line(g, dir, line);
    int prev = -1;
    for (int p = 0; p < SIZE; p++) {
        if (!g->anchor[dir][sq_of(dir, line, p)]) continue;
        gen_anchor(g, p, prev + 1);
        prev = p;
    }
}

static void gen_all_plays(Gen *g) {
    for (int dir = 0; dir < 2; dir++)
        for (int line = 0; line < SIZE; line++)
            if (line_has_anchor(g, dir, line)) gen_line(g, dir, line);
}

/* ---- racks, leaves and exchanges ------------------------------------------------------ */

/* Mixed-radix weights so that the tiles used index a table of at most 128 leaves. */
static void set_radix(Gen *g) {
    int w = 1;
    g->rack_total = 0;
    for (int c = 0; c < NCODES; c++) {
        g->radix[c] = w;
        w *= g->rack[c] + 1;
        g->rack_total += g->rack[c];
        if (g->rack[c]) {
            g->rack_mask |= 1u << c;
            g->codes[g->ncodes++] = c;
        }
        if (c) g->rack_key += g->rack[c] * TILE_KEY[c];
    }
    memset(g->leave, 0, sizeof g->leave);
}

/* The rack split by a mixed-radix index: the tiles used and the tiles kept, each in code
 * order; returns how many are used. */
static int split_rack(const Gen *g, int idx, uint8_t *used, uint8_t *kept, int *nkept) {
    int nu = 0, nk = 0;
    for (int i = 0; i < g->ncodes; i++) {
        int c = g->codes[i], u = idx / g->radix[c] % (g->rack[c] + 1);
        for (int m = 0; m < g->rack[c]; m++) {
            if (m < u) used[nu++] = (uint8_t)c;
            else kept[nk++] = (uint8_t)c;
        }
    }
    *nkept = nk;
    return nu;
}

static int num_leaves(const Gen *g) { return g->radix[NCODES - 1] * (g->rack[NCODES - 1] + 1); }

/* Rank of a sorted leave in a DAWG of leaves (words before it in sorted order), or -1. */
static long leave_rank(const Nodes *k, const uint32_t *counts, const uint8_t *tiles, int n) {
    long idx = 0;
    uint32_t arc = k->n ? arc_of(k, 0) : 0;
    for (int i = 0; i < n; i++) {
        uint32_t j = arc;
        if (!j) return -1;
        for (;; j++) {
            if (j >= k->n) return -1;
            uint32_t t = k->v[j] >> TILE_SHIFT;
            if (t == tiles[i]) break;
            if (t > tiles[i] || (k->v[j] & IS_END_BIT)) return -1;
            idx += counts[j];
        }
        if (i == n - 1) return accepts(k, j) ? idx : -1;
        if (accepts(k, j)) idx++;
        arc = arc_of(k, j);
    }
    return -1;
}

static void fill_leaves(Gen *g, const Nodes *lk, const uint32_t *counts, const float *values,
                        Py_ssize_t nvalues) {
    int total = num_leaves(g);
    for (int idx = 0; idx < total; idx++) {
        uint8_t used[RACK_SIZE], tiles[RACK_SIZE];
        int n;
        split_rack(g, idx, used, tiles, &n);
        long r = n ? leave_rank(lk, counts, tiles, n) : -1;
        g->leave[idx] = (r >= 0 && r < nvalues) ? values[r] : 0.0f;
    }
}

static void gen_exchanges(Gen *g, int bag) {
    int total = num_leaves(g);
    for (int idx = 0; idx < total; idx++) {
        uint8_t kept[RACK_SIZE];
        int nkept;
        Rec r;
        memset(&r, 0, sizeof r);
        r.len = (uint8_t)split_rack(g, idx, r.tiles, kept, &nkept);
        if (r.len > bag) continue;
        r.kind = idx ? KIND_EXCHANGE : KIND_PASS;
        r.equity = g->leave[idx];
        emit(g, &r);
    }
}

/* ---- best moves: anchors in order of an upper bound (shadow play, as MAGPIE and wolges) -- */

/* An anchor to walk, with bounds: `bound` for any play from it, `at[p]` for the plays that
 * start at square p, `reach[p]` for those that start at p or left of it. */
typedef struct {
    float bound, nobingo, at[SIZE], reach[SIZE];
    uint8_t dir, line, pos, left_limit, pending;
} Anchor;

static inline void insert_desc(int *v, int n, int x) {
    while (n > 0 && v[n - 1] < x) { v[n] = v[n - 1]; n--; }
    v[n] = x;
}

/* Tile value times the per-square weights, best tiles on the biggest weights. */
static inline int best_dot(const int *w, const int *vals, int k) {
    int s = 0;
    for (int i = 0; i < k; i++) s += w[i] * vals[i];
    return s;
}

/* Which bingos the rack could make at all (a necessary condition the bound uses): do its
 * seven tiles and the board letters of the span spell a word, in any order? The answer is a
 * lookup in a table of every tile multiset of 7 to 15 tiles that spells a word (built once
 * per lexicon by bingo_table). A multiset's key is the sum of one random 64-bit key per tile,
 * so it is built up one tile at a time; the table keeps 32-bit fingerprints, and a false
 * "yes" only costs a walk. A blank tries every letter; two blanks are taken as possible. */
static inline uint32_t *bingo_slot(uint32_t *slot, uint32_t mask, uint64_t key, uint32_t *fp) {
    uint64_t h = mix64(key);
    uint32_t i = (uint32_t)h & mask;
    *fp = (uint32_t)(h >> 32) | 1u; /* 0 marks an empty slot */
    for (uint32_t probes = 0; slot[i] && slot[i] != *fp && probes <= mask; probes++)
        i = (i + 1) & mask; /* the table is never full; the bound guards a foreign buffer */
    return &slot[i];
}

static inline int bingo_has(const BingoTable *b, uint64_t key) {
    uint32_t fp;
    return *bingo_slot((uint32_t *)b->slot, b->mask, key, &fp) == fp;
}

/* `through`: the key of the board letters in the span. */
static int bingo_possible(const Gen *g, uint64_t through) {
    if (g->rack[0] > 1) return 1;
    uint64_t key = g->rack_key + through;
    if (!g->rack[0]) return bingo_has(&g->bingos, key);
    for (int c = 1; c < NCODES; c++)
        if (bingo_has(&g->bingos, key + TILE_KEY[c])) return 1;
    return 0;
}

/* The squares of a span as the shadow sees them. Two relaxations of "each rack tile on at most
 * one square it may go to" bound the score, and the smaller one counts:
 * - any: the cross-sets ignored, the best tiles on the best squares (sorted weights);
 * - fit: on a square with a perpendicular word, the best rack tile its cross-set allows, each
 *   square on its own; the rest as in `any`. It catches a high tile that fits almost nowhere. */
typedef struct {
    int k, w, b, c;               /* tiles placed, word multiplier, board tiles' value, cross */
    int lm[RACK_SIZE + 1], cw[RACK_SIZE + 1]; /* letter and cross weights, highest first */
    int kfree, lmfree[RACK_SIZE + 1];         /* squares with no perpendicular word */
    int fit_main, fit_cross;                  /* fitted tile values on the other squares */
} Span;

static inline void span_add(const Gen *g, Span *s, int p) {
    int lm = g->llm[p], wm = g->lwm[p], xs = g->lxscore[p];
    insert_desc(s->lm, s->k, lm);
    insert_desc(s->cw, s->k, xs >= 0 ? lm * wm : 0);
    s->k++;
    s->w *= wm;
    if (xs < 0) {
        insert_desc(s->lmfree, s->kfree++, lm);
        return;
    }
    s->c += xs * wm;
    int top = 0; /* the best rack tile the cross-set takes (a blank is worth 0) */
    for (uint32_t fits = g->lxset[p] & g->rack_mask & ~1u; fits; fits &= fits - 1) {
        int v = VALUE[__builtin_ctz(fits)];
        if (v > top) top = v;
    }
    s->fit_main += lm * top;
    s->fit_cross += lm * wm * top;
}

static inline int span_bound(const Span *s, const int *vals) {
    int any = s->w * best_dot(s->lm, vals, s->k) + best_dot(s->cw, vals, s->k);
    int fit = s->w * (s->fit_main + best_dot(s->lmfree, vals, s->kfree)) + s->fit_cross;
    return s->b * s->w + s->c + (fit < any ? fit : any);
}

/* An upper bound on the equity of any play generated from anchor `a` (line loaded): every
 * span of fillable squares through the anchor, tiles placed as Span says, words not checked.
 * vals: rack tile values, highest first; maxleave[k]: best leave after playing k tiles. */
static float shadow(const Gen *g, int a, int left_limit, const int *vals, int nrack,
                    const float *maxleave, int exact, float *at, float *reach,
                    float *nobingo, uint8_t *pending) {
    uint32_t avail = g->rack[0] ? ALL_LETTERS : g->rack_mask;
    float best = -1e30f, nb = -1e30f;
    *pending = 0;
    *nobingo = best;
    for (int p = 0; p < SIZE; p++) at[p] = best;
    if (!(g->lxset[a] & avail)) return best;
    Span left = {.w = 1}, span;
    int l = a;
    uint64_t throughL = 0, through; /* key of the letters already on the board in the span */
    span_add(g, &left, a);
    for (;;) {
        while (l > 0 && g->ltile[l - 1]) {
            l--;
            if (!(g->ltile[l] & BLANK_BIT)) left.b += VALUE[g->ltile[l]];
            throughL += TILE_KEY[g->ltile[l] & LETTER_MASK];
        }
        int r = a;
        span = left;
        through = throughL;
        for (;;) {
            while (r < SIZE - 1 && g->ltile[r + 1]) {
                r++;
                if (!(g->ltile[r] & BLANK_BIT)) span.b += VALUE[g->ltile[r]];
                through += TILE_KEY[g->ltile[r] & LETTER_MASK];
            }
            int last = r == SIZE - 1 || span.k == nrack || !(g->lxset[r + 1] & avail);
            /* The score bound only grows with the span: without leave values the longest span
             * from l bounds all the shorter ones. */
            if (r > l && (last || g->has_leaves)) {
                int bingo = 0;
                if (span.k == RACK_SIZE) {
                    if (exact) bingo = bingo_possible(g, through);
                    else {
                        bingo = 1;
                        if (g->rack[0] < 2) *pending = 1;
                    }
                }
                float bound = (float)span_bound(&span, vals) + maxleave[span.k];
                if (bound > nb) nb = bound;
                if (bingo) bound += BINGO_BONUS;
                if (bound > best) best = bound;
                if (bound > at[l]) at[l] = bound;
            }
            if (last) break;
            span_add(g, &span, ++r);
        }
        if (l == 0 || left.k == nrack || l - 1 < left_limit || !(g->lxset[l - 1] & avail)) break;
        span_add(g, &left, --l);
    }
    reach[0] = at[0];
    for (int p = 1; p < SIZE; p++) reach[p] = at[p] > reach[p - 1] ? at[p] : reach[p - 1];
    *nobingo = nb;
    return best;
}

/* Put anchor x at heap slot i (the new last one) and sift it up. */
static inline void heap_up(const Anchor *an, int *heap, int i, int x) {
    while (i > 0 && an[heap[(i - 1) / 2]].bound < an[x].bound) {
        heap[i] = heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    heap[i] = x;
}

/* Put anchor x at the root of a heap of hn and sift it down. */
static inline void heap_down(const Anchor *an, int *heap, int hn, int x) {
    int i = 0;
    for (;;) {
        int m = 2 * i + 1;
        if (m >= hn) break;
        if (m + 1 < hn && an[heap[m + 1]].bound > an[heap[m]].bound) m++;
        if (an[heap[m]].bound <= an[x].bound) break;
        heap[i] = heap[m];
        i = m;
    }
    heap[i] = x;
}

/* Anchors from the most promising down; stop once no anchor can beat the n-th best move. */
static int gen_best_plays(Gen *g) {
    Anchor *anchors = malloc(2 * NSQ * sizeof *anchors);
    if (!anchors) return -1;
    int vals[RACK_SIZE], nrack = 0, n = 0;
    for (int c = 0; c < NCODES; c++)
        for (int m = 0; m < g->rack[c]; m++) insert_desc(vals, nrack++, c ? VALUE[c] : 0);
    float maxleave[RACK_SIZE + 1];
    for (int k = 0; k <= RACK_SIZE; k++) maxleave[k] = g->has_leaves ? -1e30f : 0.0f;
    for (int idx = 0, total = g->has_leaves ? num_leaves(g) : 0; idx < total; idx++) {
        uint8_t used[RACK_SIZE], kept[RACK_SIZE];
        int nkept, k = split_rack(g, idx, used, kept, &nkept);
        if (g->leave[idx] > maxleave[k]) maxleave[k] = g->leave[idx];
    }
    for (int dir = 0; dir < 2; dir++)
        for (int line = 0; line < SIZE; line++) {
            int prev = -1, loaded = 0;
            for (int p = 0; p < SIZE; p++) {
                if (!g->anchor[dir][sq_of(dir, line, p)]) continue;
                if (!loaded) load_line(g, dir, line);
                loaded = 1;
                Anchor *an = &anchors[n];
                an->bound = shadow(g, p, prev + 1, vals, nrack, maxleave, 0, an->at, an->reach,
                                   &an->nobingo, &an->pending);
                an->dir = (uint8_t)dir;
                an->line = (uint8_t)line;
                an->pos = (uint8_t)p;
                an->left_limit = (uint8_t)(prev + 1);
                if (an->bound > -1e29f) n++;
                prev = p;
            }
        }
    /* A max-heap of anchors by bound. Bingo bonuses are first assumed possible; an anchor
     * whose bound needs one to beat the n-th best is checked when it comes up, and goes back
     * in with its exact bound. */
    int heap[2 * NSQ], hn = 0;
    for (int i = 0; i < n; i++) heap_up(anchors, heap, hn++, i);
    int cur_dir = -1, cur_line = -1;
    while (hn > 0) {
        Anchor *an = &anchors[heap[0]];
        int full = g->nrecs == (size_t)g->topn;
        if (full && an->bound < g->recs[g->nrecs - 1].equity) break;
        if (an->dir != cur_dir || an->line != cur_line) {
            load_line(g, an->dir, an->line);
            cur_dir = an->dir;
            cur_line = an->line;
        }
        if (an->pending && full && an->nobingo < g->recs[g->nrecs - 1].equity) {
            float nb;
            an->bound = shadow(g, an->pos, an->left_limit, vals, nrack, maxleave, 1,
                               an->at, an->reach, &nb, &an->pending);
            an->pending = 0;
            heap_down(anchors, heap, hn, heap[0]);
            continue;
        }
        hn--;
        if (hn > 0) heap_down(anchors, heap, hn, heap[hn]);
        g->at = an->at;
        g->reach = an->reach;
        gen_anchor(g, an->pos, an->left_limit);
    }
    free(anchors);
    return 0;
}

/* ---- Python glue ---------------------------------------------------------------------- */

typedef struct { Py_buffer buf; int held; } Buf;

static int get_buf(PyObject *obj, Buf *b, const char *what) {
    if (PyObject_GetBuffer(obj, &b->buf, PyBUF_SIMPLE) < 0) {
        PyErr_Format(PyExc_TypeError, "%s: %s", what, "se esperaba un búfer"); /* format: ASCII */
        return -1;
    }
    b->held = 1;
    return 0;
}

static void release(Buf *b) {
    if (b->held) PyBuffer_Release(&b->buf);
    b->held = 0;
}

/* Whether each of the NSQ squares holds nothing or a tile code (a blank's letter flagged);
 * else the error is set. */
static int board_valid(const uint8_t *board) {
    for (int sq = 0; sq < NSQ; sq++) {
        uint8_t t = board[sq], l = t & (uint8_t)~BLANK_BIT;
        if (t && (l < 1 || l >= NCODES)) {
            PyErr_SetString(PyExc_ValueError, "código de ficha no válido en el tablero");
            return 0;
        }
    }
    return 1;
}

/* The graph from its buffers (at least two nodes, a mask per node): 0, or -1 with the error
 * set. The nodes themselves must have passed atril._kwg.check. */
static int read_kwg(const Buf *nodes, const Buf *masks, Nodes *k) {
    if (nodes->buf.len < 8 || nodes->buf.len % 4 || masks->buf.len != nodes->buf.len) {
        PyErr_SetString(PyExc_ValueError, "kwg: al menos dos nodos y una máscara por nodo");
        return -1;
    }
    k->v = nodes->buf.buf;
    k->m = masks->buf.buf;
    k->n = (uint32_t)(nodes->buf.len / 4);
    return 0;
}

/* Sort by score desc with a counting pass, then each run of equal scores canonically. */
static int sort_recs(Gen *g) {
    size_t n = g->nrecs;
    if (n < 2) return 0;
    int lo = g->recs[0].score, hi = lo;
    for (size_t i = 1; i < n; i++) {
        int s = g->recs[i].score;
        if (s < lo) lo = s;
        if (s > hi) hi = s;
    }
    size_t span = (size_t)(hi - lo) + 2;
    size_t *start = calloc(span, sizeof *start);
    Rec *out = malloc(n * sizeof *out);
    if (!start || !out) {
        free(start);
        free(out);
        return -1;
    }
    for (size_t i = 0; i < n; i++) start[hi - g->recs[i].score + 1]++;
    for (size_t b = 1; b < span; b++) start[b] += start[b - 1];
    for (size_t i = 0; i < n; i++) out[start[hi - g->recs[i].score]++] = g->recs[i];
    size_t a = 0;
    while (a < n) {
        size_t b = a + 1;
        while (b < n && out[b].score == out[a].score) b++;
        if (b - a > 1) qsort(out + a, b - a, sizeof *out, rec_cmp);
        a = b;
    }
    free(start);
    free(g->recs);
    g->recs = out;
    g->cap = n;
    return 0;
}

static PyObject *py_configure(PyObject *self, PyObject *args) {
    Py_buffer v, n, lm, wm;
    int bingo;
    if (!PyArg_ParseTuple(args, "y*y*y*y*i", &v, &n, &lm, &wm, &bingo)) return NULL;
    int ok = v.len == NCODES && n.len == NCODES && lm.len == NSQ && wm.len == NSQ;
    if (ok) {
        BINGO_BONUS = bingo;
        memcpy(VALUE, v.buf, NCODES);
        memcpy(COUNT, n.buf, NCODES);
        memcpy(LM, lm.buf, NSQ);
        memcpy(WM, wm.buf, NSQ);
        configured = 1;
    }
    PyBuffer_Release(&v);
    PyBuffer_Release(&n);
    PyBuffer_Release(&lm);
    PyBuffer_Release(&wm);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "tablas de 29, 29, 225 y 225 bytes");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* Once per module, when it loads: the random key of each tile (see bingo_possible). */
static void engine_init(void) {
    for (int t = 0; t < 256; t++) TILE_KEY[t] = mix64(0x9E3779B97F4A7C15ULL * (uint64_t)(t + 1));
}

#endif
