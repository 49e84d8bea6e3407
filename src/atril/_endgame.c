/* atril._endgame: the exact endgame (read atril/endgame.py first).
 *
 * The bag is empty and both racks are known, so the rest of the game is a two-player game of
 * perfect information: negamax with alpha-beta (principal variation search), iterative
 * deepening, a transposition table and move ordering, over the moves of atril_movegen.h.
 * Values are points from now to the end for the side to move; the end follows the active
 * ruleset (art. 45): a play that empties a rack ends the game and its player gains the other
 * rack's value, which the other loses; `pass_limit` passes in a row end it with each player
 * losing their own rack's value (45.2, or 45.3 where only the scoreless turns count).
 *
 *   configure(...)  as atril._movegen.configure
 *   solve(board, rack_a, rack_b, nodes, masks, pass_limit, passes, seconds, max_nodes,
 *         tt_bits) -> (value, exact, nodes, depth, pv)
 *       rack_a moves first; value: its points minus rack_b's from now to the end under
 *       perfect play; exact: the search reached the end of every line (else it stopped at
 *       `seconds` or `max_nodes`, 0 = no limit, and value and pv are those of the deepest
 *       search completed); pv: the principal variation as packed move records (a pass is a
 *       KIND_PASS record), the best move first.
 *   words(board, pool, nodes, masks) -> bytes
 *       the words that can still be formed on the board with tiles of the pool (29 counts),
 *       separated by 0 bytes, repeated: what the endgame's own lexicon is built from.
 *   check_lists(on)
 *       for the tests: each list of one-tile plays the searches work out is checked against
 *       every square of its board (see Top), and each position of the best line reaches the
 *       value it is given (see reaching), a wrong one raising AssertionError.
 *
 * A search depth counts plies (a pass is one). A node at the depth limit that is not the end
 * of the game gets a heuristic value and makes the iteration inexact; the transposition table
 * remembers which values are exact (depth EXACT_DEPTH), so the next iteration reuses them.
 * The deepening goes ply by ply up to SHALLOW plies, then tries to prove the last value within
 * PROOF_DEPTH plies (see prove), then searches to the end of the game by null-window tests from
 * that value (see to_the_end); it stops at the first iteration without a heuristic value (or
 * the proof): its result is the game's exact value.
 * The KWG must have passed atril._kwg.check, as for atril._movegen.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __unix__
#include <sys/mman.h>
#endif

#include "atril_movegen.h"

#define MAX_PLY 120     /* plies of one line: 14 plays at most, passes between them */
#define INF 30000
#define EXACT_DEPTH 255 /* a table entry whose value needed no heuristic: good at any depth */
/* In a proof pass (see prove), what an unknown position at the depth limit is worth: more than
 * any score, less than INF, and kept in a table entry's 16 bits. */
#define UNKNOWN 20000
#define MAX_PASSES 16
#define EST_RANGE 2048 /* move estimates, clamped to 0..EST_RANGE-1 for a counting sort */
/* What a tile placed adds to a move's estimate (order_moves): about what an endgame play
 * scores, so the plays that shed more tiles mostly come first. A refutation that sheds more
 * leaves a smaller game below it to prove: 7 % fewer positions over the bench's endgames, 21 to
 * 44 % in five (stop 29; it was 2 a tile; 16 to 32 do about the same as 24). */
#define TILE_WEIGHT 24
/* The table's entries for the children of the next AHEAD moves are fetched from memory while
 * the moves before them are tried (known_child reads them): one move ahead was most of the
 * wait when the moves before it are settled by the table in a few nanoseconds (stop 30). */
#define AHEAD 4
/* The same in stuck_three_bound, for the entries that its plays keeping two tiles read:
 * THREE_AHEAD plays ahead, since most plays there take a few nanoseconds; at every play's turn,
 * the skipped ones' too (until stop 52 only a kept play's turn fetched, so a play after a
 * skipped one was never fetched), and the first ones before the loop. The same tree; on the
 * first 80 million positions of 45 and 29, plain builds 3 to 6 % less time, and the installed
 * build (from the profile) about 2 % on those of 45, 29, 26 and 36 (stop 52). */
#define THREE_AHEAD 12
/* Iterative deepening goes one ply at a time up to SHALLOW, then searches to the end of the
 * game at once: the shallow iterations fill the table with good first moves, and a search to
 * the end stores only exact values, which the next deeper iteration would redo (measured on
 * bench/bench_endgame.py: half the time of deepening ply by ply, and more endgames solved). */
#ifndef SHALLOW
#define SHALLOW 5
#endif
/* The depth of the proof passes tried after the shallow deepening (see prove); 0: none. 5
 * measured best on the bench: 7 proves more but costs more where it fails (stop 35). */
#ifndef PROOF_DEPTH
#define PROOF_DEPTH 5
#endif
/* The proof is tried early too, after each shallow iteration up to this one whose value held
 * from the iteration before (once a value): where the value is the game's and provable, that
 * saves the deeper shallow iterations, often most of the time (stop 37: endgame 24 of the
 * bench 35.3 → 6.9 million positions, its 4-ply iteration 26.4 million of them; 6 68.4 →
 * 11.5; after 2 and 3 plies rather than 3 alone, 31 65.9 → 49.5; after 4 too, no fewer). */
#ifndef EARLY_PROOF
#define EARLY_PROOF 3
#endif
/* The shapes of a node's blank plays whose bounds are kept for their other letters (Shapes):
 * a table of this many, half of it used at most. */
#define SHAPES 256
/* The remembered lines' plays and cross-sets grow with the table up to this many bits, no
 * further: more measured no faster (the table itself does gain). */
#define AUX_BITS 22
/* The table's size at the start of a search, in bits of entries (see grow): 4 MiB, the least
 * from which its keys can be made whole again. */
#define TT_START_BITS 18
_Static_assert(TT_START_BITS - 2 >= 16, "grow needs 2^16 buckets to make the keys whole");

enum { TT_EXACT = 1, TT_LOWER, TT_UPPER };

/* A table entry as the search reads it. */
typedef struct {
    uint64_t move; /* the best move found (see encode), 0 if none */
    int value;
    uint8_t flag, depth;
} Entry;

/* An entry as the table keeps it, in 16 bytes, four to a bucket of one cache line: the key's
 * high 48 bits and the value in one word (the bucket's index holds the low bits: all 64 are
 * compared from 2^16 buckets on, 56 at the least, 2^8), the move (54 bits, see encode), the
 * flag and the rank (see rank_of) in the other; both 0: empty. */
typedef struct {
    uint64_t key_value, move_flag_rank;
} Stored;

#define KEY_CHECK(key) ((key) & ~(uint64_t)0xFFFF)
#define BUCKET 4
#define MOVE_BITS 54
#define PASS_STORED (7ULL << 9) /* the pass, kept as eight tiles placed: no play's code */

/* Zobrist keys: a tile on a square (placed during the search), a count of a code on a rack,
 * the side to move and the passes in a row. */
static uint64_t Z_SQ[NSQ][64], Z_RACK[2][NCODES][RACK_SIZE + 1], Z_SIDE, Z_PASS[MAX_PASSES],
    Z_BAG;

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void zobrist_init(void) {
    uint64_t x = 0x61747269UL; /* any fixed seed: keys only need to differ */
    for (int sq = 0; sq < NSQ; sq++)
        for (int t = 0; t < 64; t++) Z_SQ[sq][t] = splitmix(&x);
    for (int p = 0; p < 2; p++)
        for (int c = 0; c < NCODES; c++)
            for (int n = 0; n <= RACK_SIZE; n++) Z_RACK[p][c][n] = splitmix(&x);
    Z_SIDE = splitmix(&x);
    for (int n = 0; n < MAX_PASSES; n++) Z_PASS[n] = splitmix(&x);
    Z_BAG = splitmix(&x);
}

static inline int z_tile(uint8_t t) { return (t & LETTER_MASK) | (t & BLANK_BIT ? 32 : 0); }

/* A play as 64 bits, the table's and the killers' form of a move: its first placed square
 * (8 bits), direction (1), tiles placed less one (3), then 6 bits per tile placed (the letter
 * and the blank's mark), in order. The squares follow from the board: each tile goes on the
 * next empty square of the line. A one-tile play takes the direction of its longer word, as
 * the generator reports it. 0 is no move; a pass is PASS_CODE. */
#define PASS_CODE (1ULL << 63)

/* The history heuristic's slot of a move: cutoffs by the same play anywhere in the tree
 * raise it (transpositions are everywhere in an endgame: the same play stays good). */
static inline uint32_t hist_slot(uint64_t code) {
    return (uint32_t)((code * 0x9E3779B97F4A7C15ULL) >> 48);
}

static uint64_t encode(const Rec *m) {
    int step = m->dir == 0 ? 1 : SIZE, sq0 = -1, k = 0;
    uint64_t tiles = 0;
    for (int i = 0; i < m->len; i++) {
        uint8_t t = m->tiles[i];
        if (!(t & NEW_BIT)) continue;
        if (sq0 < 0) sq0 = m->row * SIZE + m->col + i * step;
        tiles |= (uint64_t)((t & LETTER_MASK) | (t & BLANK_BIT ? 32 : 0)) << (6 * k);
        k++;
    }
    return (uint64_t)sq0 | (uint64_t)m->dir << 8 | (uint64_t)(k - 1) << 9 | tiles << 12;
}

/* A play's tag, in the endgame: the bits of the tiles it places (see rack_bits) in the low
 * TAG_BITS, the value of those tiles above them, worked out once when the play is recorded
 * (the search asks for it at most of the plays it settles or values without a search). */
#define TAG_BITS 16
#define TAG_MASK ((1u << TAG_BITS) - 1)
static inline uint32_t tag_of(uint32_t bits, int value) {
    return bits | (uint32_t)value << TAG_BITS;
}

/* Whether a play tagged `tag` fits a rack of bits `have` (see rack_bits): every tile it places
 * is among the rack's. */
static inline int fits(uint32_t tag, uint32_t have) {
    return !(tag & TAG_MASK & ~have);
}

/* The value of the tiles a play places (a blank is worth nothing), counted. */
static int tiles_value(const Rec *m) {
    int v = 0;
    for (int i = 0; i < m->len; i++)
        if ((m->tiles[i] & NEW_BIT) && !(m->tiles[i] & BLANK_BIT))
            v += VALUE[m->tiles[i] & LETTER_MASK];
    return v;
}

/* The same, kept in the tag of a play recorded by line_plays or decode. */
static inline int placed_value(const Rec *m) { return (int)(m->tag >> TAG_BITS); }

/* The length of the run of tiles through empty square `sq` along `dir` once a tile is there. */
static int run_through(const uint8_t *board, int dir, int sq) {
    int r = sq / SIZE, c = sq % SIZE, n = 1, line = dir == 0 ? r : c, pos = dir == 0 ? c : r;
    for (int p = pos - 1; p >= 0 && board[sq_of(dir, line, p)]; p--) n++;
    for (int p = pos + 1; p < SIZE && board[sq_of(dir, line, p)]; p++) n++;
    return n;
}

/* The play `code` stands for on this board, as the generator would record it, if the side's
 * rack holds its tiles and it is legal here (its main word in the lexicon, every tile allowed
 * by its cross-set, connected): 1, else 0. A code from another position (a killer, or a table
 * entry whose key collided) is checked, never trusted. */
static int decode(const Gen *g, const uint8_t *rack, uint64_t code, Rec *m) {
    int sq0 = (int)(code & 0xFF), k = (int)((code >> 9) & 7) + 1, dir = (int)((code >> 8) & 1);
    if (sq0 >= NSQ || g->board[sq0]) return 0;
    uint8_t need[NCODES] = {0}, tiles[RACK_SIZE];
    for (int i = 0; i < k; i++) {
        int x = (int)((code >> (12 + 6 * i)) & 63), letter = x & 31, blank = x & 32;
        if (letter < 1 || letter >= NCODES) return 0;
        if (++need[blank ? 0 : letter] > rack[blank ? 0 : letter]) return 0;
        tiles[i] = (uint8_t)(letter | (blank ? BLANK_BIT : 0));
    }
    if (k == 1) {
        int across = run_through(g->board, 0, sq0), down = run_through(g->board, 1, sq0);
        if (across < 2 && down < 2) return 0;
        if (dir != (down > across)) return 0;
    }
    int line = dir == 0 ? sq0 / SIZE : sq0 % SIZE, pos = dir == 0 ? sq0 % SIZE : sq0 / SIZE;
    int start = pos;
    while (start > 0 && g->board[sq_of(dir, line, start - 1)]) start--;
    int p = pos, placed = 0, main = 0, wmult = 1, cross = 0, len = 0, touches = start < pos;
    uint8_t word[SIZE];
    for (int q = start; q < pos; q++) { /* the board tiles the word starts with count too */
        uint8_t t = g->board[sq_of(dir, line, q)];
        word[len++] = t;
        if (!(t & BLANK_BIT)) main += VALUE[t];
    }
    for (; p < SIZE; p++) {
        int sq = sq_of(dir, line, p);
        uint8_t t = g->board[sq];
        if (t) {
            touches = 1;
            word[len++] = t;
            if (!(t & BLANK_BIT)) main += VALUE[t];
            continue;
        }
        if (placed == k) break;
        uint8_t x = tiles[placed++];
        if (!((g->xset[dir][sq] >> (x & LETTER_MASK)) & 1)) return 0;
        int v = x & BLANK_BIT ? 0 : VALUE[x] * LM[sq];
        main += v;
        wmult *= WM[sq];
        if (g->xscore[dir][sq] >= 0) {
            cross += (g->xscore[dir][sq] + v) * WM[sq];
            touches = 1;
        }
        word[len++] = (uint8_t)(x | NEW_BIT);
    }
    if (placed < k || !touches) return 0;
    if (len >= 2) { /* the main word must be a word (a lone tile's words are its cross-set's) */
        uint32_t arc = arc_of(&g->k, 0), j = 0;
        for (int i = 0; i < len; i++) {
            j = arc ? child(&g->k, arc, word[i] & LETTER_MASK) : 0;
            if (!j) return 0;
            arc = arc_of(&g->k, j);
        }
        if (!accepts(&g->k, j)) return 0;
    }
    memset(m, 0, sizeof *m);
    m->kind = KIND_PLAY;
    m->dir = (uint8_t)dir;
    m->row = (uint8_t)(dir == 0 ? line : start);
    m->col = (uint8_t)(dir == 0 ? start : line);
    m->len = (uint8_t)len;
    m->nplaced = (uint8_t)k;
    memcpy(m->tiles, word, (size_t)len);
    m->score = (int16_t)((len >= 2 ? main * wmult : 0) + cross + (k == RACK_SIZE ? BINGO_BONUS : 0));
    m->equity = m->score;
    m->tag = tag_of(0, tiles_value(m));
    return 1;
}

/* The best one-tile plays of one code on a board, best first (their scores v, their squares
 * sq): every play scoring more than the last one listed is listed, and when `cut` is 0 every
 * play there is. So a board a play on from this one has its list from this one's and the
 * squares the play changed alone: the plays listed on unchanged squares, and the changed
 * squares' plays, those scoring at least the last listed here when this list is cut (see
 * derive_top). Where a play covers the best square, as a play that blocks the other side's
 * last tile does, the next ones listed take its place; with the best alone kept, every square
 * was scanned again (endgame 25 of the bench: a million scans of 225 squares, a fifth of its
 * time; stop 38). */
#define TOP 4
typedef struct {
    int16_t v[TOP], sq[TOP];
    uint8_t n, cut;
} Top;

/* What a board slot knows besides the board: the squares the play that made it from the slot
 * before changed (`derived`: it was made so), and each code's best one-tile plays where
 * `single_done` says (see single). */
typedef struct {
    int16_t changed[4 * RACK_SIZE];
    int nchanged, derived;
    uint32_t single_done;
    Top top[NCODES];
} Slot;

/* A line's plays for one side, with or without its blank (`kind`, see line_kind): those of a
 * rack (`bits`, see rack_bits) that holds every rack asked for on that line so far, copied in
 * the solver's arena. */
typedef struct {
    uint64_t line_key;
    uint32_t kind, bits, off, n, stamp;
} LineEntry;

/* A line's best two-tile play for one rack (`have`, see rack_bits, and its kind): its score,
 * -1 if none. An entry of kind_have 0 is empty (no rack asked for is empty). */
typedef struct {
    uint64_t key;
    uint32_t kind_have;
    int32_t best;
} PairEntry;
#define PAIR_BITS 16

/* Cross-sets remembered by their perpendicular run, packed exactly (5 bits a letter, the
 * square between prefix and suffix marked by 31; a = 0: an empty entry): the same runs come
 * back all over the tree. */
typedef struct {
    uint64_t a, b;
    uint32_t mask;
} CrossEntry;

typedef struct {
    CrossEntry *table;
    uint64_t mask; /* table size less one, a power of two less one */
} CrossMemo;

typedef struct {
    Nodes k;
    uint32_t want; /* letters either rack may place: the cross-sets worked out */
    uint8_t rack[2][NCODES];
    int rack_value[2], rack_count[2];
    uint32_t held[2], bits[2]; /* each rack's codes (a bit each) and its rack_bits, kept by take */
    uint64_t hash, board_hash; /* board_hash: the tiles placed since the first root */
    int pass_limit;
    int bag; /* the one tile left in the bag (the pre-endgame), drawn by the next play; -1: empty */
    Stored *tt;     /* buckets of BUCKET entries, each one cache line */
    uint64_t tt_mask; /* buckets - 1 */
    uint64_t tt_max_mask; /* the most it may grow to (see grow) */
    uint64_t tt_used, tt_grow_at; /* entries filled; grown when they reach tt_grow_at */
    size_t tt_dirty; /* the table's bytes from its start an earlier search may have filled */
    /* Boards by slot: a play's child takes the next slot, a pass's child shares its parent's
     * (the board is the same), so a line of n plays uses n + 1 slots whatever its passes. */
    Gen *gens;                 /* per slot: the board, its cross-sets (the generator's state) */
    uint64_t (*lkey)[2][SIZE]; /* per slot: each line's key (see sq_key) */
    Slot *slots;               /* per slot: what a play changed, the best one-tile plays */
    Rec *list[MAX_PLY + 1];    /* per ply: the moves generated */
    size_t list_n[MAX_PLY + 1], list_cap[MAX_PLY + 1];
    uint32_t *order[MAX_PLY + 1]; /* per ply: move indexes in the order tried (n = the pass) */
    uint16_t *est[MAX_PLY + 1];
    uint64_t *code[MAX_PLY + 1]; /* per ply: each move's code (encode), worked out once */
    size_t order_cap[MAX_PLY + 1];
    uint32_t count[EST_RANGE];
    uint64_t nodes, heuristic; /* heuristic: values given at the depth limit so far */
    uint64_t max_nodes;
    double deadline; /* CLOCK_MONOTONIC seconds, 0 = none */
    int stopped, failed, bad_check; /* bad_check: see check_lists */
    int checking; /* check_lists: a node the blank's letters settled is being searched again */
    /* A search in the main thread looks for a signal (Ctrl-C) now and then (see check_limits),
     * and tells `progress` (a callable, or NULL) how far it got: interrupted when a signal's
     * handler or the callable raised, the exception then pending. */
    int poll, interrupted;
    double next_poll; /* CLOCK_MONOTONIC seconds */
    PyObject *progress;
    int done_depth, done_value; /* the last iteration completed (see deepen): plies, value */
    uint64_t killer[MAX_PLY + 1][2]; /* per ply: the last two moves that refuted a move */
    uint64_t out_killer[MAX_PLY + 1][4]; /* per ply: the last four such plays that went out */
    Rec outs[MAX_PLY + 1][7]; /* per ply: its node's ways out for the other side (find_outs) */
    uint64_t near[MAX_PLY + 1][7][4]; /* per way out: the squares a play must avoid (apart) */
    uint64_t root_best;
    /* A proof pass (see prove): 0 none; 1 an unknown position is the worst for root_side, -1
     * the best. */
    int proof, root_side;
    int proof_depth; /* PROOF_DEPTH unless the caller asks otherwise (0: no proof pass) */
    uint32_t *hist; /* 1 << 16 entries: history heuristic: cutoffs per move code (hashed) */
    struct Shapes *shapes; /* per ply: the bounds of its node's plays of the blank, by shape */
    PairEntry *pairs; /* PAIR_BITS entries: a line's best two-tile play by rack (see line_pair) */
    /* the plays of a line by the line, the side and its blank (see line_plays) */
    uint8_t max_rack[2][NCODES]; /* each side's rack at the root, and the bag's tile */
    uint8_t bit0[2][NCODES];     /* the first bit of each code's tiles in rack_bits */
    LineEntry *lines;
    uint64_t lines_mask;
    Rec *walk; /* line_plays' walk */
    size_t walk_cap;
    Rec *arena;
    size_t arena_used, arena_cap;
    uint32_t stamp; /* the arena's generation: entries of an older one are empty */
    CrossMemo cross; /* cross-sets by their run (see cross_prepare) */
} Solver;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int rack_points(const uint8_t *rack) {
    int v = 0;
    for (int c = 1; c < NCODES; c++) v += rack[c] * VALUE[c];
    return v;
}

static uint64_t full_hash(const Solver *s, int side, int passes) {
    uint64_t h = side ? Z_SIDE : 0;
    for (int p = 0; p < 2; p++)
        for (int c = 0; c < NCODES; c++) h ^= Z_RACK[p][c][s->rack[p][c]];
    return h ^ Z_PASS[passes] ^ (s->bag >= 0 ? Z_BAG : 0);
}

/* ---- the board after a move ---------------------------------------------------------------- */

/* A line's key is what its plays depend on besides the rack: the XOR over its squares of this,
 * a hash of the square's tile, and its cross-set, cross-score and perpendicular length for
 * plays along `dir` (the anchors follow from them). Kept up to date by place. */
static inline uint64_t sq_key(const Gen *g, int dir, int sq) {
    uint64_t v = (uint64_t)g->xset[dir][sq] << 32 ^ (uint64_t)(uint16_t)g->xscore[dir][sq] << 16 ^
                 (uint64_t)g->xlen[dir][sq] << 8 ^ g->board[sq];
    if (g->board[sq] == WILD_TILE) v ^= mix64(g->wild_mask); /* the letters it may stand for */
    return mix64(v ^ (uint64_t)(2 * sq + dir + 1) * 0x9E3779B97F4A7C15ULL);
}

static inline int line_of(int dir, int sq) { return dir == 0 ? sq / SIZE : sq % SIZE; }

/* Every line's key from scratch (the root). */
static void line_keys(const Gen *g, uint64_t lk[2][SIZE]) {
    memset(lk, 0, 2 * SIZE * sizeof **lk);
    for (int dir = 0; dir < 2; dir++)
        for (int sq = 0; sq < NSQ; sq++) lk[dir][line_of(dir, sq)] ^= sq_key(g, dir, sq);
}

/* The cross-set of an empty square a play changed, in two steps, so that the memo entries of
 * all the squares one play changes are fetched from memory at once: its perpendicular run
 * packed, its entry fetched (cross_prepare), then the entry read, or filled on a miss
 * (cross_apply), the board unchanged in between. Worked out a square at a time, the cross-sets
 * were a sixth of endgame 11's time, most of it waiting for the entries (stop 38). */
typedef struct {
    uint64_t a, b;
    CrossEntry *e; /* NULL: no perpendicular neighbour */
    int16_t sum;
    uint8_t len;
} CrossJob;

/* The run is walked here and packed as it is read, not copied out by perpendicular() (which
 * cross_apply calls on a miss alone): with the copies, endgame 11 took 3 to 7 % longer. */
static void cross_prepare(Solver *s, const Gen *g, int dir, int sq, CrossJob *j) {
    const uint8_t *b = g->board;
    int step = dir == 0 ? SIZE : 1, pos = dir == 0 ? sq / SIZE : sq % SIZE, lo = pos, hi = pos;
    while (lo > 0 && b[sq - (pos - lo + 1) * step]) lo--;
    while (hi < SIZE - 1 && b[sq + (hi - pos + 1) * step]) hi++;
    j->e = NULL;
    if (lo == pos && hi == pos) return;
    uint64_t a = 0, c = 0;
    int sum = 0, at = 0, wild = 0;
    for (int p = lo; p <= hi; p++, at++) {
        uint64_t v = 31;
        if (p != pos) {
            uint8_t t = b[sq + (p - pos) * step];
            v = t & LETTER_MASK;
            wild |= t == WILD_TILE;
            if (!(t & BLANK_BIT)) sum += VALUE[t];
        }
        if (at < 12) a |= v << (5 * at);
        else c |= v << (5 * (at - 12));
    }
    if (wild) c |= (uint64_t)g->wild_mask << 20; /* its cross-set is for those letters */
    j->a = a, j->b = c, j->sum = (int16_t)sum, j->len = (uint8_t)(hi - lo);
    j->e = &s->cross.table[mix64(a ^ c * 0x9E3779B97F4A7C15ULL) & s->cross.mask];
    __builtin_prefetch(j->e);
}

static void cross_apply(Solver *s, Gen *g, int dir, int sq, const CrossJob *j) {
    g->xscore[dir][sq] = -1;
    g->xlen[dir][sq] = 0;
    if (!j->e) {
        g->xset[dir][sq] = ALL_LETTERS;
        return;
    }
    CrossEntry *e = j->e;
    if (e->a != j->a || e->b != j->b) {
        uint8_t pre[SIZE], suf[SIZE];
        int plen, slen, sum;
        perpendicular(g, dir, sq, pre, &plen, suf, &slen, &sum);
        e->a = j->a;
        e->b = j->b;
        e->mask = cross_set_wild(g, pre, plen, suf, slen, s->want);
    }
    g->xset[dir][sq] = e->mask;
    g->xscore[dir][sq] = j->sum;
    g->xlen[dir][sq] = j->len;
}

/* The squares whose cross-sets play m changes (it is on g's board already), each with the
 * direction of the plays it is for: just past each end of its line's run (plays across it) and
 * past each end of the perpendicular run of every tile it placed. At most 2 + 2 * RACK_SIZE. */
static int crossings(const Gen *g, const Rec *m, uint8_t *dirs, int16_t *sqs) {
    int d = m->dir, n = 0;
    int line_pos0 = d == 0 ? m->col : m->row, line = d == 0 ? m->row : m->col;
    int lo = line_pos0, hi = line_pos0 + m->len - 1;
    while (lo > 0 && g->board[sq_of(d, line, lo - 1)]) lo--;
    while (hi < SIZE - 1 && g->board[sq_of(d, line, hi + 1)]) hi++;
    if (lo > 0) dirs[n] = (uint8_t)(1 - d), sqs[n++] = (int16_t)sq_of(d, line, lo - 1);
    if (hi < SIZE - 1) dirs[n] = (uint8_t)(1 - d), sqs[n++] = (int16_t)sq_of(d, line, hi + 1);
    for (int i = 0; i < m->len; i++) {
        if (!(m->tiles[i] & NEW_BIT)) continue;
        int p = line_pos0 + i;
        /* the perpendicular line through p: its squares are line positions `line` */
        int a = line, b = line;
        while (a > 0 && g->board[sq_of(1 - d, p, a - 1)]) a--;
        while (b < SIZE - 1 && g->board[sq_of(1 - d, p, b + 1)]) b++;
        if (a > 0) dirs[n] = (uint8_t)d, sqs[n++] = (int16_t)sq_of(1 - d, p, a - 1);
        if (b < SIZE - 1) dirs[n] = (uint8_t)d, sqs[n++] = (int16_t)sq_of(1 - d, p, b + 1);
    }
    return n;
}

/* The tiles a play places (as the board holds them) and their squares; how many. */
static int new_tiles(const Rec *m, int16_t *sqs, uint8_t *tiles) {
    int step = m->dir == 0 ? 1 : SIZE, first = m->row * SIZE + m->col, n = 0;
    for (int i = 0; i < m->len && i < SIZE; i++)
        if (m->tiles[i] & NEW_BIT) {
            sqs[n] = (int16_t)(first + i * step);
            tiles[n++] = (uint8_t)(m->tiles[i] & ~NEW_BIT);
        }
    return n;
}

/* The cross-sets play m changes (see crossings; it is on the slot's board already) worked out
 * again, each line key following its square's change, the squares added to the slot's changed
 * ones. */
static void recross(Solver *s, int slot, const Rec *m) {
    Gen *g = &s->gens[slot];
    uint64_t (*lk)[SIZE] = s->lkey[slot];
    Slot *sl = &s->slots[slot];
    uint8_t dirs[2 + 2 * RACK_SIZE];
    int16_t sqs[2 + 2 * RACK_SIZE];
    int n = crossings(g, m, dirs, sqs);
    CrossJob jobs[2 + 2 * RACK_SIZE];
    for (int i = 0; i < n; i++) cross_prepare(s, g, dirs[i], sqs[i], &jobs[i]);
    for (int i = 0; i < n; i++) {
        int dir = dirs[i], sq = sqs[i];
        uint64_t *k = &lk[dir][line_of(dir, sq)];
        sl->changed[sl->nchanged++] = (int16_t)sq;
        *k ^= sq_key(g, dir, sq);
        cross_apply(s, g, dir, sq, &jobs[i]);
        *k ^= sq_key(g, dir, sq);
    }
}

/* The play on the board, its squares' cross-sets cleared, and the cross-sets it changes (see
 * recross); the line keys follow every change. */
static void place(Solver *s, int slot, const Rec *m, uint64_t *hash) {
    Gen *g = &s->gens[slot];
    uint64_t (*lk)[SIZE] = s->lkey[slot];
    Slot *sl = &s->slots[slot];
    int16_t put[SIZE];
    uint8_t tile[SIZE];
    int nput = new_tiles(m, put, tile);
    sl->nchanged = 0;
    for (int i = 0; i < nput; i++) {
        int sq = put[i];
        sl->changed[sl->nchanged++] = (int16_t)sq;
        lk[0][line_of(0, sq)] ^= sq_key(g, 0, sq);
        lk[1][line_of(1, sq)] ^= sq_key(g, 1, sq);
        g->board[sq] = tile[i];
        g->xset[0][sq] = g->xset[1][sq] = 0;
        g->xscore[0][sq] = g->xscore[1][sq] = -1;
        g->xlen[0][sq] = g->xlen[1][sq] = 0;
        lk[0][line_of(0, sq)] ^= sq_key(g, 0, sq);
        lk[1][line_of(1, sq)] ^= sq_key(g, 1, sq);
        *hash ^= Z_SQ[sq][z_tile(tile[i])];
    }
    recross(s, slot, m);
}

/* Slot `to`'s board, cross-sets and line keys as slot `from`'s (which a play is about to
 * change). */
static void copy_slot(Solver *s, int to, int from) {
    Gen *t = &s->gens[to];
    const Gen *f = &s->gens[from];
    memcpy(t->board, f->board, sizeof t->board);
    memcpy(t->xset, f->xset, sizeof t->xset);
    memcpy(t->xscore, f->xscore, sizeof t->xscore);
    memcpy(t->xlen, f->xlen, sizeof t->xlen);
    memcpy(s->lkey[to], s->lkey[from], sizeof s->lkey[to]);
    t->wild_mask = f->wild_mask; /* what a wild square on it stands for (see wild_slot) */
    s->slots[to].single_done = 0;
    s->slots[to].derived = to == from + 1;
}

/* The rack code of a placed tile: a blank is code 0 whatever letter it stands for. */
static inline int rack_code(uint8_t t) { return t & BLANK_BIT ? 0 : t & LETTER_MASK; }

/* Whether play m of `side` empties its rack and so ends the game (art. 45.4): with a tile in
 * the bag the play draws it instead. */
static inline int goes_out(const Solver *s, const Rec *m, int side) {
    return m->nplaced == s->rack_count[side] && s->bag < 0;
}

/* Whether `side` holds one tile with the bag empty: its only play ends the game (45.4). */
static inline int last_tile(const Solver *s, int side) {
    return s->bag < 0 && s->rack_count[side] == 1;
}

/* The lowest code a rack holds (its only one, for a rack of one tile). */
static inline int first_code(const uint8_t *rack) {
    int c = 0;
    while (!rack[c]) c++;
    return c;
}

/* The lowest code a side's rack holds (its only one, for a rack of one tile). */
static inline int first_held(const Solver *s, int side) { return __builtin_ctz(s->held[side]); }

/* Tiles a play takes from the rack (a blank as code 0), and their count. */
static void take(Solver *s, int side, const Rec *m, int sign) {
    for (int i = 0; i < m->len; i++) {
        uint8_t t = m->tiles[i];
        if (!(t & NEW_BIT)) continue;
        int c = rack_code(t);
        s->hash ^= Z_RACK[side][c][s->rack[side][c]];
        s->bits[side] ^= 1u << (s->bit0[side][c] + s->rack[side][c] - (sign > 0));
        s->rack[side][c] = (uint8_t)(s->rack[side][c] - sign);
        s->held[side] = s->rack[side][c] ? s->held[side] | 1u << c : s->held[side] & ~(1u << c);
        s->hash ^= Z_RACK[side][c][s->rack[side][c]];
        s->rack_value[side] -= sign * (c ? VALUE[c] : 0);
        s->rack_count[side] -= sign;
    }
}

/* The play's player draws the bag's last tile (sign 1), or puts it back (-1). */
static void draw_bag(Solver *s, int side, int tile, int sign) {
    s->hash ^= Z_RACK[side][tile][s->rack[side][tile]] ^ Z_BAG;
    s->bits[side] ^= 1u << (s->bit0[side][tile] + s->rack[side][tile] - (sign < 0));
    s->rack[side][tile] = (uint8_t)(s->rack[side][tile] + sign);
    s->held[side] = s->rack[side][tile] ? s->held[side] | 1u << tile
                                        : s->held[side] & ~(1u << tile);
    s->hash ^= Z_RACK[side][tile][s->rack[side][tile]];
    s->rack_value[side] += sign * (tile ? VALUE[tile] : 0);
    s->rack_count[side] += sign;
    s->bag = sign > 0 ? -1 : tile;
}

/* The anchors of one line (an empty square next to a tile; the board is never empty here)
 * where the rack has a letter the square's cross-set allows: whether it has any. Every play
 * puts a tile on an anchor, so one the rack cannot fill is covered by no play (the walks from
 * the anchors right of it stop there), and a line without the others has no play: with the
 * small racks of an endgame, half the lines generated. */
static int line_anchors(Gen *g, int dir, int line) {
    int any = 0;
    uint32_t letters = g->rack[0] ? ALL_LETTERS : g->rack_mask;
    for (int p = 0; p < SIZE; p++) {
        int sq = sq_of(dir, line, p);
        int a = (g->xset[dir][sq] & letters) && !g->board[sq] && touches_tile(g->board, sq);
        g->anchor[dir][sq] = (uint8_t)a;
        any |= a;
    }
    return any;
}

/* A rack of `side` as bits: of each code's tiles in its max_rack, the first as many as the
 * rack holds. Every rack the side holds is part of max_rack, so a play fits a rack when the
 * bits of the tiles it places are all among the rack's, and the union of two racks' bits is
 * the bits of the smallest rack holding both. */
static inline uint32_t rack_bits(const Solver *s, int side, const uint8_t *rack) {
    uint32_t b = 0;
    for (int c = 0; c < NCODES; c++)
        if (rack[c]) b |= ((1u << rack[c]) - 1) << s->bit0[side][c];
    return b;
}

/* Which lists a rack of `side` reads: a rack without a blank has lists of its own, without
 * the blank's plays, which are most of a line's plays where a blank is in the union (in three
 * endgames with a blank, 36 to 52 % more positions a second, stop 30). */
static inline uint32_t line_kind(const Solver *s, int side) {
    return (uint32_t)side | (s->rack[side][0] ? 0 : 2);
}

static inline LineEntry *line_entry(const Solver *s, uint64_t key, uint32_t kind) {
    uint64_t mix = key ^ (uint64_t)(kind + 1) * 0x9E3779B97F4A7C15ULL;
    return &s->lines[(mix ^ mix >> 29) & s->lines_mask];
}

/* The plays along one line for a rack of kind `kind` (its side and blank: see line_kind)
 * holding the rack `have` (bits), each with the bits of the tiles it places in `tag`; NULL
 * when out of memory. A line's plays depend only on
 * its squares and the rack, and the plays of a smaller rack are those of a larger one whose
 * tiles it holds, in the same order (its walk is part of the larger rack's walk). So each line
 * is walked once per side for the union of the racks it was asked for, and a rack's plays are
 * filtered from that list: a line comes back with many racks (in the bench's endgames, 38 to
 * 270 racks a line), and a walk costs more than a filter. */
static const Rec *line_plays(Solver *s, Gen *g, int dir, int line, uint64_t key, uint32_t kind,
                             uint32_t have, uint32_t *n_out) {
    int side = (int)(kind & 1);
    LineEntry *e = line_entry(s, key, kind);
    uint32_t bits = have;
    if (e->stamp == s->stamp && e->line_key == key && e->kind == kind) {
        if (!(have & ~e->bits)) {
            *n_out = e->n;
            return s->arena + e->off;
        }
        bits |= e->bits;
    }
    g->rack_mask = 0;
    g->rack_total = 0;
    for (int c = 0; c < NCODES; c++) {
        int n = __builtin_popcount(bits >> s->bit0[side][c] & ((1u << s->max_rack[side][c]) - 1));
        g->rack[c] = (uint8_t)n;
        g->rack_total += n;
        if (n) g->rack_mask |= 1u << c;
    }
    /* the walk's own buffer, grown as it needs; its leave index stays 0 (the endgame's
     * generators never set a radix, and their leaves are all 0) */
    g->recs = s->walk;
    g->cap = s->walk_cap;
    g->nrecs = 0;
    g->topn = 0;
    g->at = g->reach = NULL;
    g->failed = 0;
    if (line_anchors(g, dir, line)) gen_line(g, dir, line);
    s->walk = g->recs;
    s->walk_cap = g->cap;
    g->recs = NULL;
    g->cap = 0;
    if (g->failed) return NULL;
    size_t n = g->nrecs;
    for (size_t i = 0; i < n; i++) {
        Rec *m = &s->walk[i];
        uint8_t used[NCODES] = {0};
        for (int j = 0; j < m->len; j++)
            if (m->tiles[j] & NEW_BIT) used[rack_code(m->tiles[j])]++;
        m->tag = tag_of(rack_bits(s, side, used), tiles_value(m));
    }
    *n_out = (uint32_t)n;
    if (n > s->arena_cap) return s->walk; /* too many to keep: used at once, walked again */
    if (s->arena_used + n > s->arena_cap) { /* full: start again */
        s->stamp++;
        s->arena_used = 0;
    }
    Rec *out = s->arena + s->arena_used;
    memcpy(out, s->walk, n * sizeof *out);
    *e = (LineEntry){key, kind, bits, (uint32_t)s->arena_used, (uint32_t)n, s->stamp};
    s->arena_used += n;
    return out;
}

/* The best score of a two-tile play of `side`'s rack along one line (-1: none; -2: out of
 * memory), remembered by the line's key and the rack: most lines of a node are as they were a
 * node before. */
static inline PairEntry *pair_entry(const Solver *s, uint64_t key, uint32_t kind,
                                    uint32_t have) {
    uint64_t mix = key ^ (uint64_t)(kind + 1) * 0x9E3779B97F4A7C15ULL ^
                   (uint64_t)have * 0xC2B2AE3D27D4EB4FULL;
    return &s->pairs[(mix ^ mix >> 31) & ((1u << PAIR_BITS) - 1)];
}

static int line_pair(Solver *s, Gen *g, int dir, int line, uint64_t key, uint32_t kind,
                     uint32_t have) {
    PairEntry *e = pair_entry(s, key, kind, have);
    uint32_t kh = kind << 30 | have;
    if (e->key == key && e->kind_have == kh) return e->best;
    uint32_t wn;
    const Rec *w = line_plays(s, g, dir, line, key, kind, have, &wn);
    if (!w) return -2;
    int best = -1;
    for (uint32_t i = 0; i < wn; i++)
        if (fits(w[i].tag, have) && w[i].nplaced == 2 && w[i].score > best) best = w[i].score;
    *e = (PairEntry){key, kh, best};
    return best;
}

/* Every play of `side` on the slot's board, in the ply's list, line by line: each line's
 * plays filtered from line_plays (most lines of a node are as they were at its grandparent, or
 * at a cousin's, the same play having been made, and only the lines the last plays changed are
 * walked, once for all the racks that ask). 0, or -1 out of memory. */
static int gen_moves(Solver *s, int ply, int slot, int side) {
    Gen *g = &s->gens[slot];
    const uint64_t(*lkey)[SIZE] = s->lkey[slot];
    uint32_t have = s->bits[side], kind = line_kind(s, side);
    for (int dir = 0; dir < 2; dir++) /* all fetched from memory at once */
        for (int line = 0; line < SIZE; line++)
            __builtin_prefetch(line_entry(s, lkey[dir][line], kind));
    size_t n = 0;
    for (int dir = 0; dir < 2; dir++)
        for (int line = 0; line < SIZE; line++) {
            uint32_t wn;
            const Rec *w = line_plays(s, g, dir, line, lkey[dir][line], kind, have, &wn);
            if (!w || grow_recs(&s->list[ply], &s->list_cap[ply], n + wn) < 0) return -1;
            Rec *out = s->list[ply];
            for (uint32_t i = 0; i < wn; i++) { /* no branch: which plays fit is unpredictable */
                out[n] = w[i];
                n += fits(w[i].tag, have);
            }
        }
    s->list_n[ply] = n;
    return 0;
}

/* The moves of the ply, best guess first: plays that go out (with what they gain from the
 * other rack), then by score and the tiles they shed (TILE_WEIGHT each); the pass last. A
 * counting sort on the estimate: no comparisons, and the generator's order within equal
 * estimates. Each move's code is kept (s->code) for the search that follows. */
static int order_moves(Solver *s, int ply, int side) {
    const Rec *recs = s->list[ply];
    size_t n = s->list_n[ply];
    if (s->order_cap[ply] < n + 1) {
        size_t cap = 2 * (n + 1);
        uint32_t *o = realloc(s->order[ply], cap * sizeof *o);
        uint16_t *e = realloc(s->est[ply], cap * sizeof *e);
        uint64_t *c = realloc(s->code[ply], cap * sizeof *c);
        if (o) s->order[ply] = o;
        if (e) s->est[ply] = e;
        if (c) s->code[ply] = c;
        if (!o || !e || !c) return -1;
        s->order_cap[ply] = cap;
    }
    uint32_t *o = s->order[ply], *count = s->count;
    uint16_t *est = s->est[ply];
    uint64_t *code = s->code[ply];
    int out_bonus = 2 * s->rack_value[1 - side] + 100, lo = EST_RANGE, hi = 0;
    for (size_t i = 0; i < n; i++) {
        const Rec *m = &recs[i];
        int e = m->score + TILE_WEIGHT * m->nplaced;
        code[i] = encode(m);
        uint32_t h = s->hist[hist_slot(code[i])];
        if (h) e += 32 - __builtin_clz(h); /* log2 of the history: a tie-break, mostly */
        if (goes_out(s, m, side)) e += out_bonus;
        if (e >= EST_RANGE) e = EST_RANGE - 1;
        est[i] = (uint16_t)e;
        if (e < lo) lo = e;
        if (e > hi) hi = e;
    }
    if (lo <= hi) {
        memset(count + lo, 0, (size_t)(hi - lo + 1) * sizeof *count);
        for (size_t i = 0; i < n; i++) count[est[i]]++;
        uint32_t at = 0;
        for (int b = hi; b >= lo; b--) {
            uint32_t c = count[b];
            count[b] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++) o[count[est[i]]++] = (uint32_t)i;
    }
    o[n] = (uint32_t)n; /* the pass */
    return 0;
}

/* A one-tile play of `code` (0: a blank, as any letter) on square sq: its score, -1 if it is
 * not one (an occupied square, no neighbour, a word the cross-sets refuse). Its words are the
 * square's two perpendicular runs. */
static inline int single_at(const Gen *g, int sq, int code) {
    int down = g->xscore[0][sq], across = g->xscore[1][sq];
    if ((down < 0 && across < 0) || g->board[sq]) return -1;
    uint32_t ok = g->xset[0][sq] & g->xset[1][sq];
    if (!(code ? (ok >> code) & 1 : ok & ALL_LETTERS)) return -1;
    int v = code ? VALUE[code] * LM[sq] : 0, wm = WM[sq];
    return (down >= 0 ? (down + v) * wm : 0) + (across >= 0 ? (across + v) * wm : 0);
}

/* Play (v, sq) into list t, kept best first and at most TOP long; one left out makes it cut.
 * A play scoring the same as the last is left out: the list still holds every play scoring
 * more than its last. */
static inline void top_add(Top *t, int v, int sq) {
    if (t->n == TOP) {
        t->cut = 1;
        if (v <= t->v[TOP - 1]) return;
        t->n--;
    }
    int i = t->n++;
    while (i > 0 && t->v[i - 1] < v) {
        t->v[i] = t->v[i - 1];
        t->sq[i] = t->sq[i - 1];
        i--;
    }
    t->v[i] = (int16_t)v;
    t->sq[i] = (int16_t)sq;
}

/* The list of `code`'s one-tile plays on g's board, every square scanned. */
static void scan_top(const Gen *g, int code, Top *t) {
    t->n = t->cut = 0;
    for (int q = 0; q < NSQ; q++) {
        int v = single_at(g, q, code);
        if (v >= 0) top_add(t, v, q);
    }
}

/* The list on g's board from list p of a board that differed from it only on the nch squares
 * `changed`: p's plays on the other squares are still there, scoring the same, and any play
 * there missing from p scores no more than p's last when p is cut; so the plays listed
 * are p's on unchanged squares and the changed squares' own, where p is cut only those
 * scoring at least its last. If that leaves none of a cut list, every square is scanned. */
static void derive_top(const Gen *g, int code, const Top *p, const int16_t *changed, int nch,
                       Top *t) {
    int floor = p->cut ? p->v[p->n - 1] : 0;
    t->n = 0;
    t->cut = p->cut;
    for (int i = 0; i < p->n; i++) {
        int moved = 0;
        for (int j = 0; j < nch; j++) moved |= changed[j] == p->sq[i];
        if (!moved) top_add(t, p->v[i], p->sq[i]);
    }
    for (int j = 0; j < nch; j++) {
        int v = single_at(g, changed[j], code);
        if (v >= floor) top_add(t, v, changed[j]);
    }
    if (!t->n && p->cut) scan_top(g, code, t);
}

/* For the tests (check_lists): every list single and peek work out is checked against every
 * square, every play put on and taken off again (check_peek) against the board it makes, every
 * last_bound against the board the play makes, and every node the bound of a blank's letters
 * settles (wild_key) by its own search; a wrong one stops the search with an AssertionError. */
static int check_lists;

/* Whether t is a list of `code`'s one-tile plays on g's board as Top says: each listed once,
 * at its score, best first, and every play scoring more than the last listed (every play, when
 * the list is not cut, or is empty) among them. */
static int top_holds(const Gen *g, int code, const Top *t) {
    for (int i = 0; i < t->n; i++) {
        if (single_at(g, t->sq[i], code) != t->v[i] || (i && t->v[i] > t->v[i - 1])) return 0;
        for (int j = 0; j < i; j++)
            if (t->sq[j] == t->sq[i]) return 0;
    }
    int last = t->n ? t->v[t->n - 1] : -1;
    for (int q = 0; q < NSQ; q++) {
        int v = single_at(g, q, code), listed = 0;
        for (int i = 0; i < t->n; i++) listed |= t->sq[i] == q;
        if (v >= 0 && !listed && (!t->cut || v > last)) return 0;
    }
    return 1;
}

static void check_top(Solver *s, const Gen *g, int code, const Top *t) {
    if (check_lists && !top_holds(g, code, t)) s->bad_check = s->failed = s->stopped = 1;
}

/* For the tests (check_lists): a sum of everything a slot's board holds (tiles, cross-sets,
 * line keys), which a play put on and taken off again must leave as it was. */
static uint64_t slot_sum(const Solver *s, int slot) {
    const Gen *g = &s->gens[slot];
    uint64_t h = 0;
    for (int q = 0; q < NSQ; q++)
        for (int d = 0; d < 2; d++)
            h = mix64(h ^ sq_key(g, d, q));
    for (int d = 0; d < 2; d++)
        for (int line = 0; line < SIZE; line++) h = mix64(h ^ s->lkey[slot][d][line]);
    return h;
}

/* The best score of a one-tile play of `code` on the slot's board, -1 if it has none (its
 * square: the list's first); the list remembered until the slot's board changes (a pass
 * leaves it), and derived from the slot before's where a play made this board from it. */
static int single(Solver *s, int slot, int code) {
    Slot *sl = &s->slots[slot];
    Top *t = &sl->top[code];
    if (!((sl->single_done >> code) & 1)) {
        if (sl->derived) {
            single(s, slot - 1, code);
            derive_top(&s->gens[slot], code, &s->slots[slot - 1].top[code], sl->changed,
                       sl->nchanged, t);
        } else {
            scan_top(&s->gens[slot], code, t);
        }
        sl->single_done |= 1u << code;
        check_top(s, &s->gens[slot], code, t);
    }
    return t->n ? t->v[0] : -1;
}

/* What the end by passes, now, is worth to `side`: each side loses its own rack (45.2). Also
 * the guess at the depth limit. */
static int end_by_passes(const Solver *s, int side) {
    return s->rack_value[1 - side] - s->rack_value[side];
}

/* How often a search in the main thread looks for a signal, in seconds: Ctrl-C stops a search
 * with no time limit (a hard endgame takes many minutes) at once, and taking the interpreter's
 * lock that often costs nothing measurable. The limits are checked 200 to 1,700 times a
 * second in the bench's endgames (each 1,024 positions counted one by one; plays settled in
 * bulk skip some), the clock read there. */
#define POLL_SECONDS 0.1

/* The main thread's identity (threading.main_thread()), 0 if unknown: signals reach Python
 * there only, and only a search there takes the interpreter's lock to look for them. */
static unsigned long main_thread;

/* Whether a signal's handler (KeyboardInterrupt, for Ctrl-C) or the progress callable, told
 * the positions so far and the last iteration completed, raised: the interpreter's lock taken
 * for both, the exception left pending for the search's caller. */
static int python_raised(const Solver *s) {
    PyGILState_STATE gil = PyGILState_Ensure();
    int raised = PyErr_CheckSignals() < 0;
    if (!raised && s->progress) {
        PyObject *r = PyObject_CallFunction(s->progress, "Kii", (unsigned long long)s->nodes,
                                            s->done_depth, s->done_value);
        raised = !r;
        Py_XDECREF(r);
    }
    PyGILState_Release(gil);
    return raised;
}

/* check_limits' look at the clock and at Python, out of line: the search inlines
 * check_limits where it counts positions, and this would only weigh on those loops. */
static __attribute__((noinline, cold)) void poll_python(Solver *s) {
    double t = now();
    if (t < s->next_poll) return;
    s->next_poll = t + POLL_SECONDS;
    if (python_raised(s)) s->stopped = s->interrupted = 1;
}

static void check_limits(Solver *s) {
    if ((s->max_nodes && s->nodes >= s->max_nodes) || (s->deadline > 0 && now() > s->deadline))
        s->stopped = 1;
    if (s->poll && !s->stopped) poll_python(s); /* once stopped, an exception may be pending */
}

/* Whether the other side holds one tile that fits nowhere on the slot's board (the bag empty):
 * it can only pass. */
static int other_stuck(Solver *s, int slot, int side) {
    int opp = 1 - side;
    return last_tile(s, opp) && single(s, slot, first_held(s, opp)) < 0;
}

/* Whether a pass here is worth exactly the end by passes: the other side holds one tile that
 * fits nowhere on this board, so its only move is to pass back (the bag is empty), and this
 * side is where it was with fewer passes left, the same plays before it. So the pass is worth
 * the best of this side's plays or the end by passes, and beside the plays, the end by passes
 * alone counts. */
static int pass_ends(Solver *s, int slot, int side, int passes) {
    return passes + 1 >= s->pass_limit || other_stuck(s, slot, side);
}

/* A play put on a slot's own board in place, as place would put it (peek_put), to be taken off
 * again (peek_back): what it changed, to derive the slot's lists from and to put back. With
 * `keys`, the line keys follow the changes too (for the lines' plays), and are put back. */
typedef struct {
    int16_t changed[SIZE + 2 + 2 * RACK_SIZE]; /* the play's squares, then the crossings */
    uint8_t dirs[2 + 2 * RACK_SIZE];
    int nput, nc, keys;
    uint32_t xset[SIZE + 2 + 2 * RACK_SIZE][2];
    int16_t xscore[SIZE + 2 + 2 * RACK_SIZE][2];
    uint8_t xlen[SIZE + 2 + 2 * RACK_SIZE][2];
    uint64_t lk[2][SIZE];
} Peek;

static void peek_put(Solver *s, int slot, const Rec *m, int keys, Peek *p) {
    Gen *g = &s->gens[slot];
    uint64_t(*lk)[SIZE] = s->lkey[slot];
    uint8_t tile[SIZE];
    p->keys = keys;
    if (keys) memcpy(p->lk, lk, sizeof p->lk);
    p->nput = new_tiles(m, p->changed, tile);
    for (int i = 0; i < p->nput; i++) {
        int sq = p->changed[i];
        for (int d = 0; d < 2; d++) {
            p->xset[i][d] = g->xset[d][sq], p->xscore[i][d] = g->xscore[d][sq];
            p->xlen[i][d] = g->xlen[d][sq];
            if (keys) lk[d][line_of(d, sq)] ^= sq_key(g, d, sq);
        }
        g->board[sq] = tile[i];
        for (int d = 0; d < 2; d++) {
            g->xset[d][sq] = 0, g->xscore[d][sq] = -1, g->xlen[d][sq] = 0;
            if (keys) lk[d][line_of(d, sq)] ^= sq_key(g, d, sq);
        }
    }
    int16_t *sqs = p->changed + p->nput;
    p->nc = crossings(g, m, p->dirs, sqs);
    CrossJob jobs[2 + 2 * RACK_SIZE];
    for (int i = 0; i < p->nc; i++) cross_prepare(s, g, p->dirs[i], sqs[i], &jobs[i]);
    for (int i = 0; i < p->nc; i++) {
        int d = p->dirs[i], sq = sqs[i], at = p->nput + i;
        p->xset[at][0] = g->xset[d][sq], p->xscore[at][0] = g->xscore[d][sq];
        p->xlen[at][0] = g->xlen[d][sq];
        if (keys) lk[d][line_of(d, sq)] ^= sq_key(g, d, sq);
        cross_apply(s, g, d, sq, &jobs[i]);
        if (keys) lk[d][line_of(d, sq)] ^= sq_key(g, d, sq);
    }
}

static void peek_back(Solver *s, int slot, const Peek *p) {
    Gen *g = &s->gens[slot];
    for (int i = p->nc - 1; i >= 0; i--) { /* a square may be crossed twice: the first last */
        int d = p->dirs[i], sq = p->changed[p->nput + i], at = p->nput + i;
        g->xset[d][sq] = p->xset[at][0], g->xscore[d][sq] = p->xscore[at][0];
        g->xlen[d][sq] = p->xlen[at][0];
    }
    for (int i = 0; i < p->nput; i++) {
        int sq = p->changed[i];
        g->board[sq] = 0;
        for (int d = 0; d < 2; d++)
            g->xset[d][sq] = p->xset[i][d], g->xscore[d][sq] = p->xscore[i][d],
            g->xlen[d][sq] = p->xlen[i][d];
    }
    if (p->keys) memcpy(s->lkey[slot], p->lk, sizeof p->lk);
}

/* The list (see Top) of `code`'s one-tile plays on the slot's board with the play p put on,
 * derived from the slot's own list, which single worked out before the play was put on. */
static void peek_top(Solver *s, int slot, const Peek *p, int code, Top *out) {
    const Gen *g = &s->gens[slot];
    derive_top(g, code, &s->slots[slot].top[code], p->changed, p->nput + p->nc, out);
    check_top(s, g, code, out);
}

/* The best one-tile plays of codes[0..n) (their lists) on the board after play m, without
 * making it. */
static void peek(Solver *s, int slot, const Rec *m, int n, const int *codes, Top *out) {
    Peek p;
    for (int k = 0; k < n; k++) single(s, slot, codes[k]);
    peek_put(s, slot, m, 0, &p);
    for (int k = 0; k < n; k++) peek_top(s, slot, &p, codes[k], &out[k]);
    peek_back(s, slot, &p);
}

/* The sum of the run of tiles next to empty square sq across plays along `dir` (the word a tile
 * there would make across them, less the tile; see xscore), -1 where there is none. */
static int run_sum(const Gen *g, int dir, int sq) {
    const uint8_t *b = g->board;
    int step = dir == 0 ? SIZE : 1, pos = dir == 0 ? sq / SIZE : sq % SIZE, sum = 0, any = 0;
    for (int p = pos - 1; p >= 0 && b[sq + (p - pos) * step]; p--) {
        uint8_t t = b[sq + (p - pos) * step];
        any = 1;
        if (!(t & BLANK_BIT)) sum += VALUE[t];
    }
    for (int p = pos + 1; p < SIZE && b[sq + (p - pos) * step]; p++) {
        uint8_t t = b[sq + (p - pos) * step];
        any = 1;
        if (!(t & BLANK_BIT)) sum += VALUE[t];
    }
    return any ? sum : -1;
}

/* An upper bound of what play m leaves this side, which keeps one tile (code z) against the
 * other side's one tile (worth opp_value), or against a rack of any size where that side only
 * passes (see pair_bound), besides m's own score: at most z played next (the other side going
 * out first, or the end by passes, leaves it less: 45.4), on a square where
 * one of z's plays here still stands (the slot's list, which single must have worked out, on
 * squares m leaves as they were) or on one whose words m changed (crossings), scored there as
 * if the cross-sets let z in; and twice the other tile. No cross-set is worked out: m's tiles
 * go on the board for the runs' sums and come off again. Most plays of two tiles out of three
 * against a stuck tile are settled by it, where a peek (cross-sets, lists) was made for each. */
static int last_bound(Solver *s, int slot, const Rec *m, int z, int opp_value) {
    Gen *g = &s->gens[slot];
    const Top *t = &s->slots[slot].top[z];
    int16_t sqs[SIZE + 2 + 2 * RACK_SIZE];
    uint8_t tile[SIZE], dirs[2 + 2 * RACK_SIZE];
    int nput = new_tiles(m, sqs, tile);
    for (int i = 0; i < nput; i++) g->board[sqs[i]] = tile[i];
    int nc = crossings(g, m, dirs, sqs + nput), best = 0;
    for (int i = 0; i < t->n; i++) {
        int moved = 0;
        for (int j = 0; j < nput + nc; j++) moved |= sqs[j] == t->sq[i];
        if (!moved && t->v[i] > best) best = t->v[i];
    }
    if (t->cut && t->v[t->n - 1] > best) best = t->v[t->n - 1]; /* those not listed: no more */
    for (int i = nput; i < nput + nc; i++) {
        int q = sqs[i], v = z ? VALUE[z] * LM[q] : 0, down = run_sum(g, 0, q);
        int across = run_sum(g, 1, q);
        int score = (down >= 0 ? (down + v) * WM[q] : 0) + (across >= 0 ? (across + v) * WM[q] : 0);
        if (score > best) best = score;
    }
    for (int i = 0; i < nput; i++) g->board[sqs[i]] = 0;
    if (check_lists) { /* the bound holds over the board the play makes */
        Top after;
        peek(s, slot, m, 1, &z, &after);
        if (after.n && after.v[0] > best) s->bad_check = s->failed = s->stopped = 1;
    }
    return best + 2 * opp_value;
}

/* In a proof pass, what a position at the depth limit is worth to `side`, its value unknown:
 * the worst for the root's side (proof 1) or the best (proof -1), whoever is to move. */
static inline int unknown(const Solver *s, int side) {
    return (s->proof > 0) == (side == s->root_side) ? -UNKNOWN : UNKNOWN;
}

/* negamax's node for one tile left on each side, their best one-tile plays (out[side], -1 if
 * none) known: the board can only change by a play that ends the game, so the values follow
 * without the board; the same nodes counted, the same values. */
static int one_each(Solver *s, int ply, int side, int passes, int depth, const int *out,
                    const int *value) {
    s->nodes++;
    if ((s->nodes & 1023) == 0) check_limits(s);
    if (s->stopped) return 0;
    int opp = 1 - side;
    if (out[side] >= 0) return out[side] + 2 * value[opp];
    if (passes + 1 >= s->pass_limit) return value[opp] - value[side];
    if (depth > 0) return -one_each(s, ply + 1, opp, passes + 1, depth - 1, out, value);
    s->heuristic++;
    return s->proof ? unknown(s, side) : value[opp] - value[side];
}

/* The bucket of a key, fetched from memory ahead of its reading. */
static inline Stored *bucket(const Solver *s, uint64_t key) {
    return &s->tt[BUCKET * (key & s->tt_mask)];
}

/* Whether stored entry b is key's (an empty one is no key's). */
static inline int holds(const Stored *b, uint64_t key) {
    return KEY_CHECK(b->key_value) == KEY_CHECK(key) && b->move_flag_rank;
}

/* The table's entry for key, in *e: 1 if it has one. */
static int probe(const Solver *s, uint64_t key, Entry *e) {
    const Stored *b = bucket(s, key);
    for (int i = 0; i < BUCKET; i++)
        if (holds(&b[i], key)) {
            uint64_t w = b[i].move_flag_rank;
            e->value = (int16_t)(b[i].key_value & 0xFFFF);
            e->move = w & ((1ULL << MOVE_BITS) - 1);
            if (e->move == PASS_STORED) e->move = PASS_CODE;
            e->flag = (uint8_t)(w >> MOVE_BITS & 3);
            e->depth = w >> 63 ? (uint8_t)(w >> 56 & 127) : EXACT_DEPTH;
            return 1;
        }
    return 0;
}

/* Whether entry e settles a search of `depth` plies in the window (alpha, beta): deep enough
 * (or needing no guess; in a proof pass, only that), and exact or a bound outside the window. */
static inline int settles(const Entry *e, int depth, int alpha, int beta, int proof) {
    return (e->depth == EXACT_DEPTH || (!proof && e->depth >= depth)) &&
           (e->flag == TT_EXACT || (e->flag == TT_LOWER && e->value >= beta) ||
            (e->flag == TT_UPPER && e->value <= alpha));
}

/* What a bucket keeps its entries by: a guess's depth and 128 (the high bit tells a guess), or
 * for an exact value the bit length of the count of positions its search took (`work`). The
 * guesses outlast the exact values: a guess holds the best move of a shallow iteration, which
 * orders the search to the end where it comes back to that position, and most exact values
 * are those of the tails' small searches, seldom read again (stop 43: with the exact values
 * kept first, endgame 45 of the bench took 607 million positions to the end, 269 million so;
 * the others within 1 % or fewer, up to 11 % fewer in 8). Among exact values the big searches
 * outlast the small ones (two searches of 17 and 20 s: 4 and 5 % fewer positions). */
static inline uint64_t rank_of(int depth, uint64_t work) {
    if (depth != EXACT_DEPTH) return 128 + (uint64_t)depth;
    return (uint64_t)(work ? 64 - __builtin_clzll(work) : 0);
}

static size_t table_bytes(uint64_t mask) {
    return BUCKET * ((size_t)mask + 1) * sizeof(Stored);
}

/* The table's bytes from `from` to `to` zeroed where an earlier search may have left entries. */
static void clear_table(Solver *s, size_t from, size_t to) {
    if (to > s->tt_dirty) to = s->tt_dirty;
    if (to > from) memset((char *)s->tt + from, 0, to - from);
}

/* How many entries filled make a table of mask + 1 buckets grow (a quarter of it; see grow):
 * never, once it is as large as it may be. */
static inline uint64_t grow_point(uint64_t mask, uint64_t max_mask) {
    return mask < max_mask ? (mask + 1) * BUCKET / 4 : UINT64_MAX;
}

/* The table sixteen times larger (or as large as it may be), in place, its entries moved
 * over: the table's memory is mapped for its largest size, but a search starts using only its
 * first 4 MiB and widens as it fills, so that the many small searches (the pre-endgame's, the
 * tests') do not each touch, and so have cleared, 256 MiB (0.05 s a search, and the first in a
 * process several tenths of a second where the memory is fresh). It grows once a quarter of it
 * is filled: early enough that the entries kept are nearly those the full table would keep (the
 * bench's endgames take 0.96 to 1.013 times the positions they took when it grew at a sixteenth;
 * grown at half full, endgame 1 took 24 % more), late enough that a search of a few million
 * positions stays within 64 MiB (since stop 49; at a sixteenth such a search grew to 256 MiB: a
 * one-shot `atril final` of endgame 39 took 331 MB and 0.63 s of system time, now 135 MB and
 * 0.24 s); sixteenfold, since each growth moves every entry. A key's low 16 bits are not
 * kept in its entry but are its bucket's (from 2^16 buckets on), so each entry's key is whole
 * again; the entries of bucket i go to buckets i, i + n, i + 2n... (n: the old count), which
 * no other bucket's entries go to, in their order. */
static void grow(Solver *s) {
    uint64_t mask = s->tt_mask, wide = ((mask + 1) << 4) - 1;
    if (wide > s->tt_max_mask) wide = s->tt_max_mask;
    clear_table(s, table_bytes(mask), table_bytes(wide));
    for (uint64_t i = 0; i <= mask; i++) {
        Stored *b = &s->tt[BUCKET * i], old[BUCKET];
        memcpy(old, b, sizeof old);
        memset(b, 0, sizeof old);
        for (int j = 0; j < BUCKET; j++) {
            if (!old[j].move_flag_rank) continue;
            uint64_t key = KEY_CHECK(old[j].key_value) | (i & 0xFFFF);
            Stored *to = &s->tt[BUCKET * (key & wide)];
            int k = 0;
            while (to[k].move_flag_rank) k++;
            to[k] = old[j];
        }
    }
    s->tt_mask = wide;
    s->tt_grow_at = grow_point(wide, s->tt_max_mask);
}

/* A bucket keeps its entries newest first; a new one goes first and pushes out the key's own
 * entry, or else the lowest ranked, the oldest of those. */
static void store(Solver *s, uint64_t key, int value, int flag, int depth, uint64_t move,
                  uint64_t work) {
    if (s->tt_used >= s->tt_grow_at) grow(s);
    Stored *b = bucket(s, key);
    int out = -1;
    for (int i = 0; i < BUCKET && out < 0; i++)
        if (holds(&b[i], key)) out = i;
    if (out < 0) {
        out = BUCKET - 1;
        for (int i = BUCKET - 2; i >= 0; i--)
            if (b[i].move_flag_rank >> 56 < b[out].move_flag_rank >> 56) out = i;
        if (!b[out].move_flag_rank) s->tt_used++;
    }
    memmove(b + 1, b, (size_t)out * sizeof *b);
    b[0].key_value = KEY_CHECK(key) | (uint16_t)(int16_t)value;
    if (move == PASS_CODE) move = PASS_STORED;
    b[0].move_flag_rank = move | (uint64_t)flag << MOVE_BITS | rank_of(depth, work) << 56;
}

/* Keeps a node's value v for `side`, found with the flag (exact or a bound) in a search of
 * `depth` plies, `guessed` if a value at the depth limit entered it. Without a guess the value
 * is good at any depth. In a proof pass the values at the limit are all the worst for one side
 * (see prove): where they are the worst for the side to move, a value that is not below the
 * window is a lower bound of the true one, good at any depth, and where they are its best, one
 * not above the window an upper bound; the other values bound nothing and are not kept. */
static void store_result(Solver *s, uint64_t key, int v, int flag, int side, int guessed,
                         int depth, uint64_t move, uint64_t work) {
    if (!guessed) {
        store(s, key, v, flag, EXACT_DEPTH, move, work);
    } else if (!s->proof) {
        store(s, key, v, flag, depth, move, work);
    } else if (unknown(s, side) < 0) {
        if (flag != TT_UPPER) store(s, key, v, TT_LOWER, EXACT_DEPTH, move, work);
    } else {
        if (flag != TT_LOWER) store(s, key, v, TT_UPPER, EXACT_DEPTH, move, work);
    }
}

static int negamax(Solver *s, int ply, int slot, int side, int passes, int depth, int alpha,
                   int beta);

/* The key of the position after a pass, from one with `passes` in a row. */
static inline uint64_t pass_key(uint64_t key, int passes) {
    return key ^ Z_SIDE ^ Z_PASS[passes] ^ Z_PASS[passes + 1];
}

/* The run of passes changes a position's value only where this side's pass would end the game
 * (45.2): a pass that does not leads, after the other side's pass back, to this same position
 * two passes on, with the same plays on both sides (a play starts the run again). So with a
 * limit of L passes, the value is the same for every run of L - 2 or fewer (by induction from
 * L - 2 down: max(A, min(-B, x)) with x the value two passes on, A and B the two sides' best
 * plays, is max(A, min(-B, E)) whether x is E, the end by passes, or max(A, E) or that value
 * itself); and where the other side holds one tile that fits nowhere (it can only pass: B is
 * none), for every run. The table keeps such a position under its key with no pass in the run,
 * so that it is found however it was reached: after the other side's last play (a run of none)
 * or after its pass (one). In endgame 45 of the bench, a tenth of the nodes of three tiles
 * against a stuck one were the same position as one searched before with another run. */
static inline uint64_t runless(uint64_t key, int passes) {
    return key ^ Z_PASS[passes] ^ Z_PASS[0];
}

/* The table's key (runless) of this side's position after play m (child_key) and the other
 * side's pass, that side holding one tile that fits nowhere. Where one pass ends the game there
 * is no such position, and the key is the one of a run of one, which no node has (under a run of
 * none, the position reached after the other side's last play, it would read that one's value). */
static inline uint64_t after_stuck_pass(const Solver *s, uint64_t child) {
    uint64_t after = pass_key(child, 0);
    return s->pass_limit > 1 ? runless(after, 1) : after;
}

/* The key of the position after play m (as try_move makes it, without making it). */
static uint64_t child_key(const Solver *s, uint64_t key, int side, int passes, const Rec *m) {
    uint64_t h = key ^ Z_SIDE ^ Z_PASS[passes] ^ Z_PASS[0];
    uint8_t rack[NCODES];
    memcpy(rack, s->rack[side], NCODES);
    int step = m->dir == 0 ? 1 : SIZE, first = m->row * SIZE + m->col;
    for (int i = 0; i < m->len; i++) {
        uint8_t t = m->tiles[i];
        if (!(t & NEW_BIT)) continue;
        h ^= Z_SQ[first + i * step][z_tile(t)];
        int c = rack_code(t);
        h ^= Z_RACK[side][c][rack[c]] ^ Z_RACK[side][c][rack[c] - 1];
        rack[c]--;
    }
    if (s->bag >= 0) {
        int c = s->bag;
        h ^= Z_BAG ^ Z_RACK[side][c][rack[c]] ^ Z_RACK[side][c][rack[c] + 1];
    }
    return h;
}

static int peek_pair_bound(Solver *s, int slot, const Peek *p, int side, const uint8_t *rack,
                           int opp_value);

/* One node's search so far: its window, best value and move, the moves already tried. */
typedef struct {
    int ply, slot, side, passes, depth, alpha, beta, a, best, tried;
    uint64_t best_move, hash0, done[9]; /* the moves known before generating, tried */
    int ndone;
    int outs_ready, nouts; /* the other side's plays that go out here: s->outs[ply] */
    const Rec *ahead;       /* the play tried, when known_child's key for it is ahead_key */
    uint64_t ahead_key;
} Node;

static void check_peek(Solver *s, const Node *n, const Rec *m, uint64_t before, int code_opp,
                       const Top *opp_top, int bound);

/* A play's squares and the codes it puts there, each blank's letter left out: the plays of one
 * shape, one for each letter of the blank, score the same (a blank scores nothing) and change
 * the same squares. In the tails of endgames 36 and 26 of the bench a rack holding the blank
 * made half the peeks of stuck_three_bound, one for each letter on about five times fewer
 * squares (stop 46), and most of its one-tile bounds (last_bound; stop 47). 0 where the play
 * places no blank. */
static uint64_t shape_of(const Rec *m) {
    uint64_t k = mix64((uint64_t)(m->row * SIZE + m->col) * 2 + m->dir + 1);
    int blank = 0;
    for (int i = 0; i < m->len && i < SIZE; i++)
        if (m->tiles[i] & NEW_BIT) {
            blank |= m->tiles[i] & BLANK_BIT;
            k = mix64(k ^ ((uint64_t)(i + 1) << 6 | (uint64_t)rack_code(m->tiles[i])));
        }
    return blank ? k | 1 : 0;
}

/* What a node found for each shape of the blank's plays (shape_of), for its other letters: a
 * table by key, cleared at the first play of the blank (n < 0 before). */
typedef struct Shapes {
    uint64_t key[SHAPES];
    int v[SHAPES], n;
} Shapes;

/* The bound kept for play m's shape, or NULL where it places no blank or the table is half full;
 * *fresh where it was not kept yet (to be worked out by the caller). */
static int *shape_bound(Shapes *c, const Rec *m, int *fresh) {
    uint64_t key = shape_of(m);
    *fresh = 0;
    if (!key) return NULL;
    if (c->n < 0) {
        memset(c->key, 0, sizeof c->key);
        c->n = 0;
    }
    uint32_t i = (uint32_t)(key >> 56) % SHAPES;
    while (c->key[i] && c->key[i] != key) i = (i + 1) % SHAPES;
    if (c->key[i]) return &c->v[i];
    if (2 * c->n >= SHAPES) return NULL;
    *fresh = 1;
    c->key[i] = key;
    c->n++;
    return &c->v[i];
}

/* This side's rack after its play m, in rest. */
static void rack_after(const Solver *s, int side, const Rec *m, uint8_t *rest) {
    memcpy(rest, s->rack[side], NCODES);
    for (int i = 0; i < m->len; i++)
        if (m->tiles[i] & NEW_BIT) rest[rack_code(m->tiles[i])]--;
}

/* Play m, which leaves this side the two tiles of `rest` against the other side's one tile
 * (code_opp), put on the node's board and taken off again: the other side's list after it in
 * *seen, and where that is empty, the two-tile bound after its pass (peek_pair_bound; -INF: out
 * of memory), else 0. The lists of code_opp and of rest's codes must be worked out (single). */
static int peek_two_left(Solver *s, const Node *n, const Rec *m, const uint8_t *rest,
                         int code_opp, Top *seen) {
    Peek p;
    int pb = 0;
    uint64_t before = check_lists ? slot_sum(s, n->slot) : 0;
    peek_put(s, n->slot, m, 1, &p);
    peek_top(s, n->slot, &p, code_opp, seen);
    if (!seen->n) pb = peek_pair_bound(s, n->slot, &p, n->side, rest, s->rack_value[1 - n->side]);
    peek_back(s, n->slot, &p);
    if (check_lists) check_peek(s, n, m, before, code_opp, seen, pb);
    return pb;
}

/* An upper bound of every play of m's shape (shape_of: m with its blank read as any letter its
 * square allows) that keeps this side two tiles (rest) against the other side's one tile
 * (code_opp), after that tile's pass: m put on with the blank as a wild square (see wild_slot)
 * and peeked at once for all those letters (peek_two_left). No letter's board has a play, for
 * either side, that the wild board has not with the same score (a blank scores nothing; see
 * wild_key), so where the other side's tile fits nowhere on the wild board it fits nowhere on
 * any letter's, and the two-tile bound there is at least each letter's. INF where m places two
 * blanks, where its blank's square allows one letter, or where the other side's tile fits on
 * the wild board; -INF: out of memory. */
static int wild_peek(Solver *s, const Node *n, const Rec *m, const uint8_t *rest, int code_opp) {
    Gen *g = &s->gens[n->slot];
    int at = -1;
    for (int i = 0; i < m->len && i < SIZE; i++)
        if ((m->tiles[i] & NEW_BIT) && (m->tiles[i] & BLANK_BIT)) {
            if (at >= 0) return INF;
            at = i;
        }
    int q = m->row * SIZE + m->col + at * (m->dir == 0 ? 1 : SIZE);
    /* a play along dir meets q's cross-set for dir; one tile, both (see line_plays) */
    uint32_t letters = (m->nplaced == 1 ? g->xset[0][q] & g->xset[1][q] : g->xset[m->dir][q]) &
                       ALL_LETTERS, mask = g->wild_mask;
    if (__builtin_popcount(letters) < 2) return INF;
    Rec wild = *m;
    wild.tiles[at] = WILD_TILE | NEW_BIT;
    Top seen;
    g->wild_mask = letters;
    int pb = peek_two_left(s, n, &wild, rest, code_opp, &seen);
    g->wild_mask = mask;
    return seen.n ? INF : pb;
}

/* Whether play m of the node's side, which keeps it two tiles (rest) against the other side's
 * one tile (code_opp), is settled at or below lim by the bound of its shape (wild_peek, kept in
 * the node's s->shapes for its other letters): 1, its value in *v; 0 where the rack holds no
 * blank, m places none or the bound is above lim; -1: out of memory. With check_lists on, the
 * play is peeked at with its own letter too: no more than the bound. */
static int shape_settles(Solver *s, const Node *n, const Rec *m, const uint8_t *rest,
                         int code_opp, int lim, int *v) {
    int fresh, *kept = s->rack[n->side][0] ? shape_bound(&s->shapes[n->ply], m, &fresh) : NULL;
    if (!kept) return 0;
    if (fresh) *kept = wild_peek(s, n, m, rest, code_opp);
    if (*kept == -INF) return -1;
    if (m->score + *kept > lim) return 0;
    *v = m->score + *kept;
    if (check_lists) {
        Top seen;
        int pb = peek_two_left(s, n, m, rest, code_opp, &seen);
        int own = seen.n ? m->score - seen.v[0] : m->score + pb;
        if (pb == -INF || own > *v) s->bad_check = s->failed = s->stopped = 1;
    }
    return 1;
}

/* The value of play m where after it both sides hold one tile, or the other side goes out: from
 * their best one-tile plays on the board it makes (out_opp, out_side; -1: none), by one_each. */
static int ones_value(Solver *s, const Node *n, const Rec *m, int out_opp, int out_side) {
    int side = n->side, opp = 1 - side, out[2], value[2];
    out[opp] = out_opp;
    out[side] = out_side;
    value[opp] = s->rack_value[opp];
    value[side] = s->rack_value[side] - placed_value(m);
    return m->score - one_each(s, n->ply + 1, opp, 0, n->depth - 1, out, value);
}

/* The squares where a play of ours would change play o of the other side (its words or its
 * score), as a mask: o's squares, and those whose cross-sets o would change (just past its
 * word, just past the perpendicular run through each tile it places: crossings, which finds
 * them without o on the board). Worked out once per node for each of its ways out. */
static void near_squares(const Gen *g, const Rec *o, uint64_t mask[4]) {
    int16_t near[SIZE + 2 + 2 * RACK_SIZE];
    uint8_t tile[SIZE], dirs[2 + 2 * RACK_SIZE];
    int nn = new_tiles(o, near, tile);
    nn += crossings(g, o, dirs, near + nn);
    memset(mask, 0, 4 * sizeof *mask);
    for (int j = 0; j < nn; j++) mask[near[j] >> 6] |= 1ULL << (near[j] & 63);
}

/* Whether a play o of the other side stays as it is, the same words and score, after play m:
 * m places no tile on the squares near_squares found for o. */
static int apart(const Rec *m, const uint64_t near[4]) {
    int step = m->dir == 0 ? 1 : SIZE, first = m->row * SIZE + m->col;
    for (int i = 0; i < m->len; i++) {
        if (!(m->tiles[i] & NEW_BIT)) continue;
        int sq = first + i * step;
        if (near[sq >> 6] >> (sq & 63) & 1) return 0;
    }
    return 1;
}

/* The other side's plays that would go out on this board, known without generating: the
 * plays that refuted a move one ply down (its killers, and the last four that went out),
 * checked here, and with one tile left, its best one-tile play. */
static void find_outs(Solver *s, Node *n) {
    n->outs_ready = 1;
    int opp = 1 - n->side;
    if (s->bag >= 0 || n->ply + 1 > MAX_PLY) return;
    uint64_t known[6];
    memcpy(known, s->killer[n->ply + 1], 2 * sizeof *known);
    memcpy(known + 2, s->out_killer[n->ply + 1], 4 * sizeof *known);
    for (int k = 0; k < 6; k++) {
        uint64_t code = known[k];
        int again = 0;
        for (int j = 0; j < k; j++) again |= known[j] == code;
        if (!code || code == PASS_CODE || again) continue;
        Rec *o = &s->outs[n->ply][n->nouts];
        if (decode(&s->gens[n->slot], s->rack[opp], code, o) && goes_out(s, o, opp))
            near_squares(&s->gens[n->slot], o, s->near[n->ply][n->nouts++]);
    }
    if (last_tile(s, opp) && !s->rack[opp][0]) { /* its best one-tile play (see single) */
        int c = first_held(s, opp);
        if (single(s, n->slot, c) >= 0) {
            uint64_t sq = (uint64_t)s->slots[n->slot].top[c].sq[0];
            for (uint64_t dir = 0; dir < 2; dir++) /* decode knows which way it reads */
                if (decode(&s->gens[n->slot], s->rack[opp], sq | dir << 8 | (uint64_t)c << 12,
                           &s->outs[n->ply][n->nouts])) {
                    near_squares(&s->gens[n->slot], &s->outs[n->ply][n->nouts],
                                 s->near[n->ply][n->nouts]);
                    n->nouts++;
                    break;
                }
        }
    }
}

/* An upper bound of our move's value when the other side can then go out with one of the
 * plays find_outs knew (m: our play, NULL: the pass), or INF. A move whose bound is no better
 * than a move already searched is not searched: the node's value and bound stay as they are
 * (a looser bound, stored, costs more search elsewhere than it saves here). Most moves of a
 * node that cannot stop the other side going out are settled so, without a board update. */
static int out_bound(Solver *s, Node *n, const Rec *m) {
    if (!n->outs_ready) find_outs(s, n);
    const Rec *outs = s->outs[n->ply];
    int best = INF, rest = s->rack_value[n->side] - (m ? placed_value(m) : 0);
    for (int k = 0; k < n->nouts; k++) {
        int bound = (m ? m->score : 0) - (outs[k].score + 2 * rest);
        if (bound < best && (!m || apart(m, s->near[n->ply][k]))) best = bound;
    }
    return best;
}

/* The value of the node's next move, whose child (the other side to move, on board `slot`,
 * `passes` in a row) is searched by principal variation search: the node's first move with the
 * full window, the others with a null window first, again in full if it fails high; `sc`: what
 * the move scored. */
static int search_child(Solver *s, const Node *n, int slot, int passes, int sc) {
    int opp = 1 - n->side, ply = n->ply + 1, d = n->depth - 1;
    if (!n->tried) return sc - negamax(s, ply, slot, opp, passes, d, sc - n->beta, sc - n->a);
    int v = sc - negamax(s, ply, slot, opp, passes, d, sc - n->a - 1, sc - n->a);
    if (v > n->a && v < n->beta && !s->stopped)
        v = sc - negamax(s, ply, slot, opp, passes, d, sc - n->beta, sc - n->a);
    return v;
}

/* Whether table entry e, `plies` below the node (1: the child; 2: this side again, after the
 * other side's pass), decides the value of a play that scored sc in the node's window (lo, hi),
 * as negamax's probe there would: the value in *v. */
static int decides(const Entry *e, int plies, int depth, int sc, int lo, int hi, int proof,
                   int *v) {
    int sign = plies == 1 ? -1 : 1;
    int alpha = sign < 0 ? sc - hi : lo - sc, beta = sign < 0 ? sc - lo : hi - sc;
    if (!settles(e, depth, alpha, beta, proof)) return 0;
    *v = sc + sign * e->value;
    return 1;
}

/* The value of a play that scored sc, read off the table before the play is made, where
 * search_child would first read it: at the child (plies 1), or, when the other side holds one
 * tile that fits nowhere, at this side's position after its pass (plies 2, key). The same
 * windows, re-search and node counts as search_child: the same tree, without the board update
 * (most plays of the hard endgames lead to a position the table holds: one order of the same
 * plays was searched before). 1 when the table decides the value (*v). With a limit of one
 * pass nothing is stored after a pass (the pass ends the game), so plies 2 finds nothing. */
static int known_child(Solver *s, const Node *n, uint64_t key, int plies, int sc, int *v) {
    if (n->depth < plies || n->ply + plies >= MAX_PLY) return 0;
    Entry entry, *e = &entry;
    int d = n->depth - plies, probes = 1;
    if (!probe(s, key, e)) return 0;
    if (!n->tried) {
        if (!decides(e, plies, d, sc, n->a, n->beta, s->proof, v)) return 0;
    } else {
        if (!decides(e, plies, d, sc, n->a, n->a + 1, s->proof, v)) return 0;
        if (*v > n->a && *v < n->beta) { /* the re-search in full */
            if (!decides(e, plies, d, sc, n->a, n->beta, s->proof, v)) return 0;
            probes = 2;
        }
    }
    if (e->depth != EXACT_DEPTH) s->heuristic += (uint64_t)probes;
    s->nodes += (uint64_t)(probes * plies);
    if ((s->nodes & 1023) < (uint64_t)(probes * plies)) check_limits(s);
    return 1;
}

/* Search the move (a play; NULL for the pass) as the node's next: its child by
 * search_child, or valued without a search where a shortcut knows it. 1 on a cutoff. */
static int try_move(Solver *s, Node *n, const Rec *m, uint64_t code) {
    int side = n->side, opp = 1 - side, v;
    if (!m) { /* the pass: the same board, in the same slot */
        int bound;
        if (pass_ends(s, n->slot, side, n->passes)) {
            v = end_by_passes(s, side);
        } else if (end_by_passes(s, side) <= n->best) {
            /* The end by passes worth no more than a move already tried: nor is the pass. The
             * other side may pass back, and this side is then where it is now with two more
             * passes in the run and the same plays, each leading where it leads now (a play
             * starts the run again); so the pass is worth at most the better of the best play
             * and the pass again, and so on until the run ends the game, each side losing its
             * own rack (45.2): at most the better of the best play and that end, which the node
             * reaches with its plays. Not searched, as a play settled by its bound. */
            s->nodes++;
            v = n->best;
        } else if ((bound = out_bound(s, n, NULL)) <= n->best) {
            s->nodes++;
            v = bound;
        } else {
            s->hash = pass_key(n->hash0, n->passes);
            v = search_child(s, n, n->slot, n->passes + 1, 0);
            s->hash = n->hash0;
        }
    } else if (goes_out(s, m, side)) {
        /* out (art. 45.4): the other rack's value, gained and lost: twice over the spread */
        v = m->score + 2 * s->rack_value[opp];
    } else {
        int sc = m->score, ply = n->ply + 1, slot = n->slot + 1;
        int code_opp = -1, stuck = 0, placed = 0, read = 0;
        Top seed; /* the peek's list for the other side's tile, for the child (code_opp) */
        uint64_t h = n->hash0 ^ Z_SIDE ^ Z_PASS[n->passes] ^ Z_PASS[0];
        int bound = out_bound(s, n, m);
        if (bound <= n->best) { /* the other side goes out after it: see out_bound */
            s->nodes++;
            v = bound;
            goto tried;
        }
        if (s->bag < 0 && s->rack_count[side] - m->nplaced == 1 &&
            sc + 2 * s->rack_value[opp] <= n->best &&
            (s->rack_count[opp] > 1 || other_stuck(s, n->slot, side))) {
            /* A play that keeps one tile, no better than a move already searched by last_bound
             * (that tile's best play next and twice the other rack): settled. Against one tile
             * that fits nowhere (since stop 39; one that fits most often goes out at once after
             * the play, which the peek below sees and the bound does not: in endgame 29, 9.88 of
             * the 9.90 million such plays were against a stuck tile), and against a rack of two
             * or more, where the play is worth at most what it is worth if the other side only
             * passes (since stop 44; see pair_bound). Not worked out where the play's score and
             * twice the other rack are already better. */
            uint8_t rest[NCODES];
            rack_after(s, side, m, rest);
            int z = first_code(rest);
            single(s, n->slot, z);
            int lb = sc + last_bound(s, n->slot, m, z, s->rack_value[opp]);
            if (lb <= n->best) {
                s->nodes++;
                v = lb;
                goto tried;
            }
        }
        if (last_tile(s, opp) && ply + MAX_PASSES + 2 < MAX_PLY) {
            /* The other side has one tile left: the child's value is its best one-tile play,
             * read off this board with the play peeked at, not made; and when this side then
             * has one tile too, so is the rest (see one_each). */
            int codes[2], best[2], left = s->rack_count[side] - m->nplaced;
            Top seen[2];
            /* When its tile fits nowhere here, it most likely fits nowhere after the play
             * either, and the table is read before the peek: the position after its pass is in
             * the table only if the tile fits nowhere there (a node with one tile passes only
             * then; the root may pass anyway, but no play leads back to the root's board). */
            stuck = other_stuck(s, n->slot, side);
            if (left > 1 && stuck &&
                known_child(s, n,
                            m == n->ahead
                                ? n->ahead_key
                                : after_stuck_pass(s, child_key(s, n->hash0, side, n->passes, m)),
                            2, sc, &v))
                goto tried;
            codes[0] = first_held(s, opp);
            uint8_t rest[NCODES]; /* this side's rack after the play, where it keeps two or one */
            if (left <= 2) rack_after(s, side, m, rest);
            if (left == 1) codes[1] = first_code(rest);
            if (left == 2 && n->depth >= 4) {
                /* Where the other side's tile fits nowhere after the play, the position after
                 * its pass is one of two tiles against one, which pair_bound settles most
                 * often: the bound is worked out with the play put on this board and taken
                 * off again (peek_pair_bound), and where it settles that position as the
                 * position would itself (after its table entry, with four plies or more left
                 * here: two or more there), the play is worth it without being made. */
                single(s, n->slot, codes[0]);
                for (int c = 0; c < NCODES; c++)
                    if (rest[c]) single(s, n->slot, c);
                /* a play of the blank: bounded for all its letters at once */
                int settled = stuck ? shape_settles(s, n, m, rest, codes[0], n->a, &v) : 0;
                if (settled < 0) {
                    s->failed = s->stopped = 1;
                    return 1;
                }
                if (settled) {
                    s->nodes += 2;
                    goto tried;
                }
                int pb = peek_two_left(s, n, m, rest, codes[0], &seen[0]);
                best[0] = seen[0].n ? seen[0].v[0] : -1;
                if (best[0] < 0) {
                    uint64_t after =
                        after_stuck_pass(s, child_key(s, n->hash0, side, n->passes, m));
                    if (pb == -INF) {
                        s->failed = s->stopped = 1;
                        return 1;
                    }
                    if (!stuck && known_child(s, n, after, 2, sc, &v)) goto tried;
                    read = 1;
                    if (sc + pb <= n->a) {
                        store(s, after, pb, TT_UPPER, EXACT_DEPTH, 0, 2);
                        s->nodes += 2;
                        v = sc + pb;
                        goto tried;
                    }
                }
            } else if (left > 1 && stuck) {
                /* its tile still fits nowhere, most likely: the play is made now, not peeked
                 * at and then made (the same answer, single derives it from the changed
                 * squares as the peek would, the cross-sets worked out once) */
                copy_slot(s, slot, n->slot);
                place(s, slot, m, &h);
                placed = 1;
                best[0] = single(s, slot, codes[0]);
            } else {
                peek(s, n->slot, m, left == 1 ? 2 : 1, codes, seen);
                for (int k = 0; k < (left == 1 ? 2 : 1); k++)
                    best[k] = seen[k].n ? seen[k].v[0] : -1;
            }
            if (best[0] >= 0 || left == 1) {
                v = ones_value(s, n, m, best[0], left == 1 ? best[1] : -1);
                goto tried;
            }
            if (!placed) seed = seen[0], code_opp = codes[0];
        }
        /* the table first (known_child): the child, or, when the other side's tile fits
         * nowhere (the peek found no play for it, and it was not read before), this side
         * after its pass. A child that draws the bag's tile and has one tile to play reads
         * no table: its entry is only fetched from memory while the board is updated */
        if (s->rack_count[opp] > 1) {
            uint64_t ck = m == n->ahead ? n->ahead_key : child_key(s, n->hash0, side, n->passes, m);
            if (known_child(s, n, ck, 1, sc, &v))
                goto tried;
        } else if (s->bag >= 0) {
            __builtin_prefetch(bucket(s, child_key(s, n->hash0, side, n->passes, m)));
        } else if (code_opp >= 0 && !stuck && !read &&
                   known_child(s, n,
                               after_stuck_pass(s, child_key(s, n->hash0, side, n->passes, m)), 2,
                               sc, &v)) {
            goto tried;
        }
        if (s->proof && n->depth == 2 && unknown(s, opp) > 0 && s->bag < 0 &&
            s->rack_count[opp] > 1 && s->rack_count[side] - m->nplaced > 1 &&
            s->pass_limit > 1 && !placed) {
            /* The child is a frontier node that its pass alone makes worth UNKNOWN to the
             * other side (see frontier): that pass starts a run, which ends the game only where
             * one pass does, and this side keeps two tiles or more, so none is stuck. The play
             * is worth that without being made. */
            s->nodes++;
            s->heuristic++;
            v = sc + unknown(s, side);
            goto tried;
        }
        if (!placed) {
            copy_slot(s, slot, n->slot);
            place(s, slot, m, &h);
        }
        if (code_opp >= 0) { /* what the peek found, for the child's one-tile node */
            Slot *sl = &s->slots[slot];
            sl->top[code_opp] = seed;
            sl->single_done |= 1u << code_opp;
        }
        s->hash = h;
        take(s, side, m, 1);
        int drawn = s->bag;
        if (drawn >= 0) draw_bag(s, side, drawn, 1);
        v = search_child(s, n, slot, 0, sc);
        if (drawn >= 0) draw_bag(s, side, drawn, -1);
        take(s, side, m, -1);
        s->hash = n->hash0;
    }
tried:
    n->tried++;
    if (s->stopped) return 1;
    if (v > n->best) {
        n->best = v;
        n->best_move = code;
    }
    if (v > n->a) n->a = v;
    if (n->a < n->beta) return 0;
    if (m && n->ply <= MAX_PLY && goes_out(s, m, side)) {
        uint64_t *o = s->out_killer[n->ply]; /* most recent first, each once */
        int at = 3;
        for (int j = 0; j < 3; j++)
            if (o[j] == code) at = j;
        memmove(o + 1, o, (size_t)at * sizeof *o);
        o[0] = code;
    }
    /* the pass too: where one side holds tiles that fit nowhere, its pass refutes most moves
     * one ply up, and tried first it saves generating the plays (there are often none) */
    if (n->ply <= MAX_PLY && s->killer[n->ply][0] != code) {
        s->killer[n->ply][1] = s->killer[n->ply][0];
        s->killer[n->ply][0] = code;
    }
    if (m) {
        uint32_t *h = &s->hist[hist_slot(code)];
        uint32_t add = (uint32_t)(n->depth * n->depth);
        *h = *h > UINT32_MAX - add ? UINT32_MAX : *h + add;
    }
    return 1;
}

static int already(const Node *n, uint64_t code) {
    for (int i = 0; i < n->ndone; i++)
        if (n->done[i] == code) return 1;
    return 0;
}

/* A move known before generating (the table's, a killer), tried if legal here; with `out`,
 * only if it is a play that goes out here (a play that went out at this ply elsewhere,
 * s->out_killer: its value is known at once, 45.4, with no search below it). */
static int try_known(Solver *s, Node *n, uint64_t code, int out) {
    if (!code || already(n, code)) return 0;
    Rec m;
    if (code != PASS_CODE) {
        if (!decode(&s->gens[n->slot], s->rack[n->side], code, &m)) return 0;
        if (out && !goes_out(s, &m, n->side)) return 0;
    }
    n->done[n->ndone++] = code;
    return try_move(s, n, code == PASS_CODE ? NULL : &m, code);
}

/* In the search to the end, at a node of four tiles or more: the play that keeps one or two
 * tiles with the best estimate (order_moves'), tried before the table's move and the killers
 * (the node's plays generated for it, and kept for the rest). Where it cuts, what is left below
 * it is small: two tiles or fewer against any rack are mostly settled by pair_bound and the
 * one-tile nodes, where the table's move, most often a shallow iteration's, may keep more tiles
 * and need a far larger tree to prove the same cutoff; where it fails, it was cheap to refute.
 * Endgame 26 of the bench: 722.6 → 354.7 million positions to the end, 45 226.3 → 213.9; the 47
 * solved within 30 s 941.1 → 746.6 million, endgame 10 151.5 → 27.7 million (stop 56). 1: a
 * cutoff, -1: out of memory. */
static int few_left_first(Solver *s, Node *n, int *listed) {
    int ply = n->ply, mine = s->rack_count[n->side];
    if (!*listed) {
        if (gen_moves(s, ply, n->slot, n->side) < 0) return -1;
        *listed = 1;
    }
    const Rec *pick = NULL;
    int best = -1;
    for (size_t i = 0; i < s->list_n[ply]; i++) {
        const Rec *m = &s->list[ply][i];
        int left = mine - m->nplaced, e = m->score + TILE_WEIGHT * m->nplaced;
        if (left >= 1 && left <= 2 && e > best) best = e, pick = m;
    }
    if (!pick) return 0;
    Rec m = *pick;
    uint64_t code = encode(&m);
    n->done[n->ndone++] = code;
    return try_move(s, n, &m, code);
}

/* One ply from the depth limit: every child's value is known without playing it (the end of
 * the game, or the heuristic of the child), so the best is taken straight from the move list,
 * with no board updates: the frontier is most of the tree. The exact values come first: when
 * they alone reach beta, the guesses are not needed and the node's bound is exact. The table
 * is not read for the children: a solved child is rare this shallow, and the reads, one per
 * play waiting on memory, were most of a shallow iteration's time (docs/ENDGAME.md). In a
 * proof pass where the unknown positions are the best for this side, its pass alone reaches
 * one (unless the pass ends the game): the node is worth that much (UNKNOWN, above any value a
 * game can have, so above any window), and its plays are not generated. */
static int frontier(Solver *s, int ply, int slot, int side, int passes, int beta, uint64_t key) {
    if (ply > 0 && s->proof && unknown(s, side) > 0 && !pass_ends(s, slot, side, passes)) {
        s->heuristic++;
        return -unknown(s, 1 - side);
    }
    if (gen_moves(s, ply, slot, side) < 0) {
        s->failed = s->stopped = 1;
        return 0;
    }
    const Rec *recs = s->list[ply];
    size_t count = s->list_n[ply];
    int opp = 1 - side, ends = pass_ends(s, slot, side, passes);
    int pass_value = end_by_passes(s, side); /* its end, or its guess */
    if (s->proof && !ends) pass_value = -unknown(s, opp);
    int drawn = s->bag > 0 ? VALUE[s->bag] : 0;
    int exact_best = ends ? pass_value : -INF, guess_best = ends ? -INF : pass_value;
    uint64_t exact_move = ends ? PASS_CODE : 0, guess_move = ends ? 0 : PASS_CODE;
    s->nodes += count;
    for (size_t i = 0; i < count; i++) {
        const Rec *m = &recs[i];
        if (goes_out(s, m, side)) {
            int v = m->score + 2 * s->rack_value[opp];
            if (v > exact_best) exact_best = v, exact_move = encode(m);
            continue;
        }
        int v = s->proof ? m->score - unknown(s, opp)
                         : m->score - (s->rack_value[side] - placed_value(m) + drawn -
                                       s->rack_value[opp]);
        if (v > guess_best) guess_best = v, guess_move = encode(m);
    }
    int best = exact_best;
    uint64_t best_move = exact_move;
    if (exact_best >= beta) {
        store(s, key, best, TT_LOWER, EXACT_DEPTH, best_move, count);
    } else {
        if (guess_move) {
            s->heuristic++;
            if (guess_best > best) best = guess_best, best_move = guess_move;
        }
        store_result(s, key, best, TT_EXACT, side, guess_move != 0, 1, best_move, count);
    }
    if (ply == 0) s->root_best = best_move;
    return best;
}

/* The best two-tile play of a rack (`have`, `kind`: see line_pair) on g's board, whose line
 * keys are lk: -1 none, -2 out of memory. */
static int best_pair(Solver *s, Gen *g, const uint64_t (*lk)[SIZE], uint32_t kind, uint32_t have) {
    int pair = -1;
    for (int dir = 0; dir < 2; dir++) /* all fetched from memory at once */
        for (int line = 0; line < SIZE; line++)
            __builtin_prefetch(pair_entry(s, lk[dir][line], kind, have));
    for (int dir = 0; dir < 2; dir++)
        for (int line = 0; line < SIZE; line++) {
            int best = line_pair(s, g, dir, line, lk[dir][line], kind, have);
            if (best < -1) return -2;
            if (best > pair) pair = best;
        }
    return pair;
}

/* The codes of a rack of two tiles, lowest first. */
static void two_codes(const uint8_t *rack, int code[2]) {
    int k = 0;
    for (int c = 0; c < NCODES && k < 2; c++)
        for (int j = 0; j < rack[c] && k < 2; j++) code[k++] = c;
}

/* The bound from the best pair play (-1: none) and the two tiles' best one-tile plays (a, b;
 * -1: none), against another rack worth opp_value. */
static int pair_most(int pair, int a, int b, int opp_value) {
    int one = a > b ? a : b, most = pair > one ? pair : one;
    if (most < 0) most = 0;
    if (a >= 0 && b >= 0 && a + b > most) most = a + b;
    if (pair >= 0 && one >= 0 && pair + one > most) most = pair + one;
    return most + 2 * opp_value;
}

/* An upper bound of a node where this side has two tiles (the bag empty), its plays not
 * generated (-INF: out of memory). Against one tile: whatever happens, this side gains at most
 * what its plays score and twice the other rack (45.4; the end by passes or the other side
 * going out give less), and the board changes only by its plays (the other side's one play ends
 * the game). Its plays: both tiles at once (the best: pair), or one tile, then the other on the
 * board the first made: away from the first tile, the second scores at most its best one-tile
 * play here; through it, along the line the two share, the two put down at once make a play
 * here scoring at least the second's, so the two score at most pair and the first. Against a
 * rack of any size too (since stop 44): the other side may always pass, and it takes the least
 * of its moves, so the node is worth no more than where the other side only passes; there, only
 * this side's plays change the board, and going out gains it twice the other rack as it stands:
 * the same bound, with that rack's value (with last_bound's, below, for a play that keeps one
 * tile: endgame 45 of the bench, to the end, 269 → 241 million positions; 8, 123 → 45 million).
 * The bound holds for every value the search gives the node, heuristic ones too. Pair is read
 * line by line (line_pair), so that the nodes it settles, nearly all it is asked for against
 * one tile (in endgame 31, 99.5 %), never generate their plays (stop 34: the same tree, 7 % less
 * time on the bench). */
static int pair_bound(Solver *s, int slot, int side) {
    int code[2];
    int pair = best_pair(s, &s->gens[slot], s->lkey[slot], line_kind(s, side),
                         s->bits[side]);
    if (pair < -1) return -INF;
    two_codes(s->rack[side], code);
    return pair_most(pair, single(s, slot, code[0]), single(s, slot, code[1]),
                     s->rack_value[1 - side]);
}

/* For the tests (check_lists): after a play of the node's side was put on its board and taken
 * off again (peek_put, peek_back), the board is as it was (`before`: slot_sum), and what was
 * found with the play put on (the other side's list for code_opp, and where that is empty the
 * bound pair_bound gives after its pass) is what the board the play makes gives. */
static void check_peek(Solver *s, const Node *n, const Rec *m, uint64_t before, int code_opp,
                       const Top *opp_top, int bound) {
    int slot = n->slot + 1, ok = slot_sum(s, n->slot) == before;
    uint64_t h = 0;
    copy_slot(s, slot, n->slot);
    place(s, slot, m, &h);
    int best = single(s, slot, code_opp);
    ok = ok && best == (opp_top->n ? opp_top->v[0] : -1);
    if (best < 0) {
        take(s, n->side, m, 1);
        ok = ok && pair_bound(s, slot, n->side) == bound;
        take(s, n->side, m, -1);
    }
    s->slots[slot].single_done = 0;
    if (!ok) s->bad_check = s->failed = s->stopped = 1;
}

/* pair_bound's bound for `side` holding `rack` (two tiles) against a rack worth opp_value, on
 * the slot's board with play p put on (its line keys followed): the two codes' lists derived
 * (single must have worked them out on the slot before), the lines' best pairs read with the
 * changed keys (-INF: out of memory). The tails are most of the endgames that stop (a side
 * plays alone against a stuck tile), and in them most nodes lie below three tiles against the
 * stuck one (in endgames 29 and 36 of the bench, 75 and 66 % of the search to the end), whose
 * plays of one tile lead to two against one: such a play is valued by the bound without being
 * made where the bound settles the position it leads to (see try_move). */
static int peek_pair_bound(Solver *s, int slot, const Peek *p, int side, const uint8_t *rack,
                           int opp_value) {
    int code[2];
    Top t[2];
    two_codes(rack, code);
    for (int k = 0; k < 2; k++) peek_top(s, slot, p, code[k], &t[k]);
    int pair = best_pair(s, &s->gens[slot], s->lkey[slot], (uint32_t)side | (rack[0] ? 0 : 2),
                         rack_bits(s, side, rack));
    if (pair < -1) return -INF;
    return pair_most(pair, t[0].n ? t[0].v[0] : -1, t[1].n ? t[1].v[0] : -1, opp_value);
}

/* An upper bound of a node where this side has three tiles and the other side one that fits
 * nowhere (the bag empty), its plays generated, worked out play by play as try_move would value
 * each, without ordering them or making any: the best of the pass (the end by passes: see
 * pass_ends), the plays that go out, those that keep one tile (last_bound, and where that is
 * above `lim`, their value from a peek, as try_move finds it) and those that keep two (the
 * table's entry after the other side's pass where it bounds the play; else a peek: the other
 * side going out where its tile then fits, or pair_bound after its pass, which is stored there
 * for the other orders of the same plays). It stops at the first play above lim and returns its
 * value; the search then goes on with the list. -INF: out of memory. In the tails (a side plays
 * alone against a stuck tile) most positions lie below such nodes, and nearly all of them are
 * settled so (endgame 36 of the bench: 99 %), where the search tried the known moves one by one,
 * then ordered the plays and valued each by the same bounds. */
static int stuck_three_bound(Solver *s, const Node *n, int lim) {
    int side = n->side, opp = 1 - side, slot = n->slot, ov = s->rack_value[opp];
    int most = end_by_passes(s, side), code_opp = first_held(s, opp);
    Shapes lasts; /* the last_bound of each shape of the blank's plays */
    int blank = s->rack[side][0] > 0; /* else no play has a shape (and none is worked out) */
    lasts.n = -1;
    const Rec *list = s->list[n->ply];
    size_t count = s->list_n[n->ply];
    for (int c = 0; c < NCODES; c++) /* the lists last_bound and the peeks derive from */
        if (s->rack[side][c]) single(s, slot, c);
    single(s, slot, code_opp);
    for (int pass = 0; pass < 2; pass++) /* those that go out or keep one tile first: cheaper */
        for (size_t i = 0; i < count; i++) {
            const Rec *m = &list[i];
            int v, sc = m->score, left = s->rack_count[side] - m->nplaced;
            if (pass) /* every play's turn, kept or skipped: see THREE_AHEAD */
                for (size_t j = i ? i + THREE_AHEAD : 0; j <= i + THREE_AHEAD && j < count; j++)
                    if (list[j].nplaced == 1)
                        __builtin_prefetch(bucket(
                            s, after_stuck_pass(s, child_key(s, n->hash0, side, n->passes,
                                                             &list[j]))));
            if ((left == 2) != pass) continue;
            uint8_t rest[NCODES]; /* this side's rack after the play, where it keeps tiles */
            if (left > 0) rack_after(s, side, m, rest);
            if (left == 0) {
                v = sc + 2 * ov;
            } else if (left == 1) {
                int z = first_code(rest), fresh;
                int *kept = blank ? shape_bound(&lasts, m, &fresh) : NULL;
                v = kept && !fresh && !check_lists ? *kept : sc + last_bound(s, slot, m, z, ov);
                if (kept && !fresh && *kept != v) s->bad_check = s->failed = s->stopped = 1;
                if (kept) *kept = v;
                if (v > lim) { /* its value, as try_move finds it (a peek, then one_each) */
                    int codes[2] = {code_opp, z};
                    Top seen[2];
                    uint64_t guesses = s->heuristic;
                    peek(s, slot, m, 2, codes, seen);
                    v = ones_value(s, n, m, seen[0].n ? seen[0].v[0] : -1,
                                   seen[1].n ? seen[1].v[0] : -1);
                    if (s->heuristic != guesses || s->stopped) return INF; /* a guess: no bound */
                }
            } else {
                Entry e;
                Top seen;
                uint64_t after = after_stuck_pass(s, child_key(s, n->hash0, side, n->passes, m));
                int settled = shape_settles(s, n, m, rest, code_opp, lim, &v);
                if (settled < 0) return -INF;
                if (settled) goto valued; /* for all the blank's letters at once */
                if (probe(s, after, &e) && e.depth == EXACT_DEPTH) {
                    if (e.flag == TT_LOWER && sc + e.value > lim) return sc + e.value;
                    if (e.flag != TT_LOWER) {
                        v = sc + e.value;
                        goto valued;
                    }
                }
                int pb = peek_two_left(s, n, m, rest, code_opp, &seen);
                if (pb == -INF) return -INF;
                if (seen.n) { /* the other side goes out (one_each) */
                    v = sc - seen.v[0] - 2 * (s->rack_value[side] - placed_value(m));
                } else {
                    store(s, after, pb, TT_UPPER, EXACT_DEPTH, 0, 2);
                    v = sc + pb;
                }
            }
        valued:
            if (v > lim) return v;
            if (v > most) most = v;
        }
    s->nodes += count; /* each play valued, as try_move counts one it settles */
    return most;
}

/* A blank put down in the search is most often there once for each letter it could stand
 * for, the rest of the board the same: in the tails of endgames 36 and 26 of the bench, about 3.4
 * and 3.8 times over (stop 46). A bound for all of them at once: the position with the blank read
 * as any of those letters (WILD_TILE), where the other side only passes. Every letter's position
 * is worth at most that to this side: it has every play it has in any of them (a play forms one
 * word through the square, so it is a play of some letter), the scores are the same (a blank
 * scores nothing), and the other side may always pass (see pair_bound). Its key is the position's
 * with the blank's letter left out and its letters in, so that the table holds it once for all of
 * them. 0 where there is no such blank, or where its words leave it one letter. */
static int wild_key(const Solver *s, int slot, uint64_t key, int *sq, uint32_t *letters,
                    uint64_t *out) {
    if (!s->max_rack[0][0] && !s->max_rack[1][0]) return 0; /* no blank on either rack */
    const uint8_t *b = s->gens[slot].board, *root = s->gens[0].board;
    int q = -1;
    for (int i = 0; i < NSQ && q < 0; i++)
        if ((b[i] & BLANK_BIT) && !root[i]) q = i;
    if (q < 0) return 0;
    uint32_t can = ALL_LETTERS;
    for (int dir = 0; dir < 2; dir++) { /* the letters both its words allow */
        uint8_t pre[SIZE], suf[SIZE];
        int plen, slen, sum;
        if (perpendicular(&s->gens[slot], dir, q, pre, &plen, suf, &slen, &sum))
            can &= cross_set(&s->gens[slot].k, pre, plen, suf, slen, ALL_LETTERS);
    }
    if (__builtin_popcount(can) < 2) return 0;
    *sq = q;
    *letters = can;
    *out = key ^ Z_SQ[q][z_tile(b[q])] ^ Z_SQ[q][z_tile(WILD_TILE)] ^ mix64(can);
    return 1;
}

/* Slot ws made slot from's board with the blank on q wild (standing for `letters`), its line
 * keys following, the cross-sets past each end of its two words worked out again, its one-tile
 * lists to be worked out afresh. */
static void wild_slot(Solver *s, int ws, int from, int q, uint32_t letters) {
    copy_slot(s, ws, from);
    s->slots[ws].derived = 0;
    s->slots[ws].nchanged = 0;
    Gen *g = &s->gens[ws];
    uint64_t(*lk)[SIZE] = s->lkey[ws];
    g->wild_mask = letters;
    for (int d = 0; d < 2; d++) lk[d][line_of(d, q)] ^= sq_key(g, d, q);
    g->board[q] = WILD_TILE;
    for (int d = 0; d < 2; d++) lk[d][line_of(d, q)] ^= sq_key(g, d, q);
    Rec wild = {.row = (uint8_t)(q / SIZE), .col = (uint8_t)(q % SIZE), .len = 1, .nplaced = 1};
    wild.tiles[0] = WILD_TILE | NEW_BIT; /* as if put down there: the same squares' cross-sets */
    recross(s, ws, &wild);
}

/* The bound for every letter of the blank at once of `side`'s three or four tiles against the
 * other side's one on the slot's board (wild, see wild_slot; `key` the position's wild key,
 * `passes` its run of passes): its plays generated (the ply's list), each bounded as
 * stuck_three_bound bounds it where the other side only passes: going out; keeping one tile,
 * last_bound, or where that is above lim, that tile's best play after it or the end by passes;
 * keeping two, the two-tile bound after it; keeping three, this bound again on the board it makes
 * (the next slot and ply). Those after plays keeping two or three are kept in the table under
 * their wild keys. -INF: out of memory; above lim, the first play found above it. */
static int wild_bound(Solver *s, int ply, int slot, int side, uint64_t key, int lim) {
    int ov = s->rack_value[1 - side], most = end_by_passes(s, side);
    if (gen_moves(s, ply, slot, side) < 0) return -INF;
    const Rec *list = s->list[ply];
    size_t count = s->list_n[ply];
    for (int c = 0; c < NCODES; c++)
        if (s->rack[side][c]) single(s, slot, c);
    for (int cost = 0; cost < 3; cost++) /* the cheaper first: out or one kept, two, three */
        for (size_t i = 0; i < count; i++) {
            const Rec *m = &list[i];
            int v, sc = m->score, left = s->rack_count[side] - m->nplaced;
            if ((left <= 1 ? 0 : left - 1) != cost) continue;
            uint8_t rest[NCODES];
            if (left > 0) rack_after(s, side, m, rest);
            if (left == 0) {
                v = sc + 2 * ov;
            } else if (left == 1) {
                int z = first_code(rest);
                v = sc + last_bound(s, slot, m, z, ov);
                if (v > lim) { /* its value: the last tile's best play after it, or the passes */
                    Top seen;
                    peek(s, slot, m, 1, &z, &seen);
                    v = sc + (seen.n ? seen.v[0] + 2 * ov : ov - VALUE[z]);
                }
            } else {
                Entry e;
                uint64_t after = after_stuck_pass(s, child_key(s, key, side, 0, m));
                if (probe(s, after, &e) && e.depth == EXACT_DEPTH && e.flag == TT_UPPER) {
                    v = sc + e.value;
                } else if (left == 2) {
                    Peek p;
                    peek_put(s, slot, m, 1, &p);
                    int pb = peek_pair_bound(s, slot, &p, side, rest, ov);
                    peek_back(s, slot, &p);
                    if (pb == -INF) return -INF;
                    store(s, after, pb, TT_UPPER, EXACT_DEPTH, 0, 2);
                    v = sc + pb;
                } else {
                    uint64_t unused = 0, nodes = s->nodes;
                    copy_slot(s, slot + 1, slot);
                    place(s, slot + 1, m, &unused);
                    take(s, side, m, 1);
                    int b = wild_bound(s, ply + 1, slot + 1, side, after, lim - sc);
                    take(s, side, m, -1);
                    if (b == -INF) return -INF;
                    if (b <= lim - sc)
                        store(s, after, b, TT_UPPER, EXACT_DEPTH, 0, s->nodes - nodes);
                    v = sc + b;
                }
            }
            if (v > lim) return v;
            if (v > most) most = v;
        }
    s->nodes += count;
    return most;
}

/* Whether a node of three or four tiles against a stuck one is settled by the bound for every
 * letter of a blank put down in the search (wild_key): read from the table, where another of its
 * letters left it, or worked out here (on the next slot) and kept there. With check_lists on,
 * each node so settled is searched again to the end with its own letter: no more than the bound.
 * -INF: out of memory. */
static int wild_settles(Solver *s, const Node *n, int *value) {
    int q;
    uint32_t letters;
    uint64_t wkey;
    if (s->checking || !wild_key(s, n->slot, runless(n->hash0, n->passes), &q, &letters, &wkey))
        return 0;
    Entry w;
    int bound = INF, known = probe(s, wkey, &w);
    if (known && w.depth == EXACT_DEPTH && w.flag == TT_UPPER) {
        bound = w.value;
        s->nodes++;
    } else if (!known) {
        uint64_t nodes = s->nodes;
        wild_slot(s, n->slot + 1, n->slot, q, letters);
        bound = wild_bound(s, n->ply, n->slot + 1, n->side, wkey, n->alpha);
        if (bound == -INF) return -INF;
        if (bound <= n->alpha) store(s, wkey, bound, TT_UPPER, EXACT_DEPTH, 0, s->nodes - nodes);
    }
    if (bound > n->alpha) return 0;
    if (check_lists) { /* this letter's own search to the end: no more */
        int proof = s->proof;
        uint64_t guesses = s->heuristic;
        s->checking = 1;
        s->proof = 0;
        int v = negamax(s, n->ply, n->slot, n->side, n->passes, MAX_PLY, bound, bound + 1);
        s->checking = 0;
        s->proof = proof;
        s->heuristic = guesses;
        if (v > bound && !s->stopped) s->bad_check = s->failed = s->stopped = 1;
    }
    *value = bound;
    return 1;
}

/* The generated plays that try_move would settle by out_bound whatever the order, since their
 * bound is no better than a move already searched (n->best only rises), settled before they
 * are ordered: counted as try_move counts them, and taken off the list, whose other plays keep
 * their order; the same tree. Where the other side can go out, most plays are (in endgame 25,
 * 86 % of the plays tried against one tile): they need no code, estimate or place in the
 * order. */
static void settle_outs(Solver *s, Node *n) {
    if (n->best == -INF) return;
    if (!n->outs_ready) find_outs(s, n);
    if (!n->nouts) return;
    Rec *list = s->list[n->ply];
    size_t count = s->list_n[n->ply], left = 0;
    uint64_t settled = 0;
    for (size_t i = 0; i < count; i++) {
        const Rec *m = &list[i];
        if (!goes_out(s, m, n->side) && out_bound(s, n, m) <= n->best) {
            if (!n->ndone || !already(n, encode(m))) settled++;
            continue;
        }
        if (left != i) list[left] = *m;
        left++;
    }
    s->list_n[n->ply] = left;
    s->nodes += settled;
    n->tried += (int)settled;
}

static int negamax(Solver *s, int ply, int slot, int side, int passes, int depth, int alpha,
                   int beta) {
    s->nodes++;
    if ((s->nodes & 1023) == 0) check_limits(s);
    if (s->stopped) return 0;
    uint64_t key = s->hash, ttmove = 0, nodes0 = s->nodes;
    if (ply > 0 && last_tile(s, side)) {
        /* One tile left: every play goes out, and going out now is worth at least as much as
         * passing (the other side could pass back, or end the game by passes, which costs
         * more): the value is the best one-tile play's, exactly, known without the table.
         * Without one, the pass. */
        int out = single(s, slot, first_held(s, side)), opp = 1 - side;
        if (out >= 0) return out + 2 * s->rack_value[opp];
        if (passes + 1 >= s->pass_limit) return end_by_passes(s, side);
        if (depth > 0 && ply + 1 < MAX_PLY) {
            s->hash = pass_key(key, passes);
            int v = -negamax(s, ply + 1, slot, opp, passes + 1, depth - 1, -beta, -alpha);
            s->hash = key;
            return v;
        }
    }
    /* the table's key: with no pass in the run where the run does not change the value */
    uint64_t at =
        passes + 1 < s->pass_limit || other_stuck(s, slot, side) ? runless(key, passes) : key;
    Entry e;
    if (probe(s, at, &e)) {
        ttmove = e.move;
        if (ply > 0 && settles(&e, depth, alpha, beta, s->proof)) {
            if (e.depth != EXACT_DEPTH) s->heuristic++;
            return e.value;
        }
    }
    if (depth == 0 || ply >= MAX_PLY) {
        s->heuristic++;
        return s->proof ? unknown(s, side) : end_by_passes(s, side);
    }
    if (depth == 1 && ply + 1 < MAX_PLY) return frontier(s, ply, slot, side, passes, beta, at);
    Node n = {ply, slot, side, passes, depth, alpha, beta, alpha, -INF, 0, 0, key, {0}, 0, 0, 0,
              NULL, 0};
    s->shapes[ply].n = -1;
    uint64_t heuristic0 = s->heuristic;
    /* Moves known before generating: a cutoff from one of them saves the generation. First
     * the plays that went out at this ply elsewhere, where they go out here: a cutoff by one
     * costs no search below it, where the table's move may need a large one to prove it (and
     * where none cuts, the best so far is higher, so the other side's ways out settle more
     * plays). A pass among the killers comes after the plays known (tried first, where it
     * failed to cut it cost a search of the whole position again: one endgame, 6.6 → 17.3
     * million positions). */
    uint64_t k0 = s->killer[ply][0], k1 = s->killer[ply][1];
    int cut = 0, listed = 0, mine = s->rack_count[side];
    int alone = ply > 0 && s->bag < 0 && (mine == 3 || mine == 4) && last_tile(s, 1 - side) &&
                other_stuck(s, slot, side); /* three or four tiles against a stuck one */
    if (alone && ply + MAX_PASSES + 3 < MAX_PLY) {
        /* The blank's letters first, all at once (wild_settles): where another of its letters
         * already bounded them all, or where this one's bound does, the node is settled so. */
        int v, settled = wild_settles(s, &n, &v);
        if (settled < 0) {
            s->failed = s->stopped = 1;
            return 0;
        }
        if (settled) return v;
    }
    if (alone && mine == 3 && ply + MAX_PASSES + 2 < MAX_PLY) {
        /* Three tiles against a stuck one: nearly all such nodes are settled by the bound of
         * their plays (stuck_three_bound), which values the known moves too, so it comes
         * before them (tried first, each decoded and bounded alone, they were mostly wasted:
         * endgame 29 15.2 → 14.6 s, the same count of positions within 0.1 %) */
        if (gen_moves(s, ply, slot, side) < 0) {
            s->failed = s->stopped = 1;
            return 0;
        }
        listed = 1;
        int bound = stuck_three_bound(s, &n, alpha);
        if (bound == -INF) {
            s->failed = s->stopped = 1;
            return 0;
        }
        if (s->stopped) return 0;
        if (bound <= alpha) {
            store(s, at, bound, TT_UPPER, EXACT_DEPTH, ttmove, s->nodes - nodes0);
            return bound;
        }
    }
    for (int k = 0; k < 4 && !cut && s->bag < 0; k++)
        cut = try_known(s, &n, s->out_killer[ply][k], 1);
    if (!cut && ply > 0 && mine >= 4 && s->bag < 0 && depth > SHALLOW + 1 && !s->proof &&
        (cut = few_left_first(s, &n, &listed)) < 0) {
        s->failed = s->stopped = 1;
        return 0;
    }
    cut = cut || try_known(s, &n, ttmove, 0) || (k0 != PASS_CODE && try_known(s, &n, k0, 0)) ||
          (k1 != PASS_CODE && try_known(s, &n, k1, 0)) ||
          ((k0 == PASS_CODE || k1 == PASS_CODE) && try_known(s, &n, PASS_CODE, 0));
    if (!cut) {
        /* Two tiles: most such nodes fail low, and pair_bound settles many before their plays
         * are generated. Against a stuck tile (fitting nowhere) at first, since stop 27 against
         * any one tile (10 to 30 % fewer positions where the other side's tile can still go
         * out), since stop 44 against any rack (see pair_bound). The known moves already tried
         * score no more than the bound. */
        if (ply > 0 && s->rack_count[side] == 2 && s->bag < 0 &&
            2 * s->rack_value[1 - side] <= alpha) { /* the bound is never less */
            int bound = pair_bound(s, slot, side);
            if (bound == -INF) {
                s->failed = s->stopped = 1;
                return 0;
            }
            if (bound <= alpha) {
                store(s, at, bound, TT_UPPER, EXACT_DEPTH, n.best_move ? n.best_move : ttmove,
                      s->nodes - nodes0);
                return bound;
            }
        }
        if (!listed && gen_moves(s, ply, slot, side) < 0) {
            s->failed = s->stopped = 1;
            return 0;
        }
        settle_outs(s, &n);
        if (order_moves(s, ply, side) < 0) {
            s->failed = s->stopped = 1;
            return 0;
        }
        size_t count = s->list_n[ply];
        const uint32_t *o = s->order[ply];
        /* the table's entry that known_child reads for a play's child (against one tile that
         * fits nowhere, the position after the play and that tile's pass) is fetched from
         * memory AHEAD moves ahead: plays that go out, or leave a last tile, read none */
        int stuck = other_stuck(s, slot, side), many = s->rack_count[1 - side] > 1;
        uint64_t ahead_key[AHEAD];
        const Rec *ahead[AHEAD];
        for (size_t i = 0; i <= count && !cut; i++) {
            size_t idx = o[i];
            if (stuck || many) {
                for (size_t j = i == 0 ? 0 : i + AHEAD - 1; j < i + AHEAD && j < count; j++) {
                    const Rec *next = &s->list[ply][o[j]];
                    ahead[j % AHEAD] = NULL;
                    if (o[j] >= count || next->nplaced + (stuck ? 1 : 0) >=
                                             s->rack_count[side] + (s->bag >= 0 ? 1 : 0))
                        continue;
                    uint64_t k = child_key(s, key, side, passes, next);
                    ahead[j % AHEAD] = next;
                    ahead_key[j % AHEAD] = stuck ? after_stuck_pass(s, k) : k;
                    __builtin_prefetch(bucket(s, ahead_key[j % AHEAD]));
                }
                n.ahead = i < count ? ahead[i % AHEAD] : NULL;
                if (n.ahead) n.ahead_key = ahead_key[i % AHEAD];
            }
            if (idx == count) {
                if (!already(&n, PASS_CODE)) cut = try_move(s, &n, NULL, PASS_CODE);
                continue;
            }
            const Rec *m = &s->list[ply][idx];
            uint64_t code = s->code[ply][idx];
            if (n.ndone && already(&n, code)) continue;
            cut = try_move(s, &n, m, code);
        }
    }
    if (s->stopped) return 0;
    if (ply == 0) s->root_best = n.best_move;
    store_result(s, at, n.best,
                 n.best <= alpha ? TT_UPPER : n.best >= beta ? TT_LOWER : TT_EXACT, side,
                 s->heuristic != heuristic0, depth, n.best_move, s->nodes - nodes0);
    return n.best;
}

/* One search from the root in the window (alpha, beta), to `depth` plies: its value, and in
 * *best the best move it found. */
static int window(Solver *s, int side, int passes, int depth, int alpha, int beta,
                  uint64_t *best) {
    s->hash = full_hash(s, side, passes) ^ s->board_hash;
    int v = negamax(s, 0, 0, side, passes, depth, alpha, beta);
    *best = s->root_best;
    return v;
}

/* Whether the game's value from the root is v, proved within s->proof_depth plies: two
 * null-window searches where a position at the depth limit is worth, not a guess, but the worst
 * for one side, so that a line counts only where the game ends within the depth. The first (every
 * unknown position the worst for the root's side) shows the value at least v, the second (the
 * best) at most v; *best, the move the first found. The shallow deepening's value is most often
 * the game's, and a short proof of it most often exists where the search to the end, ordered by
 * the shallow iterations' guesses, follows longer lines to the end (endgame 20 of the bench:
 * over 30 s to the end, 0.4 s so; stop 35). The table keeps only what such a pass bounds
 * (store_result) and reads only what needed no guess; the killers and the history are put back
 * as they were, so that a failed proof leaves the search to the end as it would have been. */
static int prove(Solver *s, int side, int passes, int v, uint64_t *best) {
    uint64_t killer[MAX_PLY + 1][2], out_killer[MAX_PLY + 1][4];
    uint32_t *hist = malloc(((size_t)1 << 16) * sizeof *hist);
    if (!hist) return 0;
    memcpy(killer, s->killer, sizeof killer);
    memcpy(out_killer, s->out_killer, sizeof out_killer);
    memcpy(hist, s->hist, ((size_t)1 << 16) * sizeof *hist);
    uint64_t move = 0;
    int proved = 0;
    s->root_side = side;
    s->proof = 1;
    if (window(s, side, passes, s->proof_depth, v - 1, v, &move) >= v && !s->stopped) {
        *best = move;
        s->proof = -1;
        proved = window(s, side, passes, s->proof_depth, v, v + 1, &move) <= v && !s->stopped;
    }
    s->proof = 0;
    memcpy(s->killer, killer, sizeof killer);
    memcpy(s->out_killer, out_killer, sizeof out_killer);
    memcpy(s->hist, hist, ((size_t)1 << 16) * sizeof *hist);
    free(hist);
    return proved;
}

/* The search to the end of the game, as null-window tests from the shallow value `guess`
 * (MTD(f)): each test shows the value below or at least its bound, the next test is where the
 * last one left it (one above a lower bound, at an upper one), until the two bounds meet. The
 * best move is that of the last test that showed a lower bound (a move reaching it). A
 * full-window search spent most of its positions on windows wide open on one side: endgame 37
 * of the bench 85.4 million positions to the end, the tests 1.2 million (stop 55). */
static int to_the_end(Solver *s, int side, int passes, int depth, int guess, uint64_t *best) {
    int lower = -INF, upper = INF, g = guess;
    while (lower < upper) {
        int b = g == lower ? g + 1 : g;
        uint64_t move = 0;
        g = window(s, side, passes, depth, b - 1, b, &move);
        if (s->stopped) break;
        if (g < b) upper = g;
        else lower = g, *best = move;
    }
    return g;
}

/* Iterative deepening from the root (gens[0], `side` to move): the value, and in *best the
 * best move's code; *exact when the last iteration needed no heuristic, or a shallow value was
 * proved (prove): after the last shallow iteration, and early, after those up to EARLY_PROOF
 * plies whose value is the one before's too. */
static int deepen(Solver *s, int side, int passes, int *exact, int *depth_out, uint64_t *best) {
    int value = 0, last = -INF, tried = -INF; /* tried: the value last tried early */
    *exact = 0;
    *best = 0;
    *depth_out = 0;
    for (int iteration = 1; iteration <= SHALLOW + 1; iteration++) {
        int depth = iteration <= SHALLOW ? iteration : MAX_PLY - 1; /* the last: to the end */
        uint64_t before = s->heuristic;
        uint64_t found = 0;
        int v = iteration <= SHALLOW ? window(s, side, passes, depth, -INF, INF, &found)
                                     : to_the_end(s, side, passes, depth, value, &found);
        if (s->stopped) break;
        value = v;
        *best = found;
        *depth_out = depth;
        s->done_depth = depth, s->done_value = v;
        if (s->heuristic == before) {
            *exact = 1;
            break;
        }
        int early = iteration <= EARLY_PROOF && v == last && v != tried;
        if (s->proof_depth && (iteration == SHALLOW || early)) {
            uint64_t proved_best = 0;
            if (early) tried = v;
            if (prove(s, side, passes, value, &proved_best)) {
                *best = proved_best;
                *exact = 1;
                *depth_out = s->proof_depth;
                return value;
            }
            if (s->stopped) break;
        }
        last = v;
    }
    return value;
}

typedef struct {
    Rec *v;
    size_t n, cap;
} Line;

static int line_push(Line *l, const Rec *r) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        Rec *v = realloc(l->v, cap * sizeof *v);
        if (!v) return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = *r;
    return 0;
}

/* A move of the root reaching its exact value `known`: one null-window test at the value, to
 * the end (it fails high on such a move), 0 if it does not (with check_lists on, for the tests,
 * that is an error: the value was not the position's). */
static int reaching(Solver *s, int side, int passes, int known, uint64_t *best) {
    uint64_t move = 0;
    int g = window(s, side, passes, MAX_PLY - 1, known - 1, known, &move);
    *best = g >= known && !s->stopped ? move : 0;
    if (check_lists && g < known && !s->stopped) s->bad_check = s->failed = s->stopped = 1;
    return g;
}

/* Solve, then follow the best line to the end. Once the first search is exact, each later
 * position's value is known (the move's score less the value before it), so its best move is
 * one test at that value with the warm table (reaching), not a search of its own: that search's
 * shallow iterations pushed out the bounds the first left for those positions (a guess takes
 * its key's entry), and endgame 36 of the bench spent 171 of its 507 million positions on
 * its best line so (stop 56). */
static int run(Solver *s, int passes, int *value, int *exact, int *depth, Line *pv) {
    int side = 0, first_value = 0, known = 0;
    for (int step = 0; step < MAX_PLY; step++) {
        uint64_t code = 0;
        int ex, d, v;
        if (step > 0 && *exact) reaching(s, side, passes, known, &code);
        if (s->failed) return -1;
        v = code ? known : deepen(s, side, passes, &ex, &d, &code);
        if (s->failed) return -1;
        if (step == 0) {
            first_value = v;
            *exact = ex;
            *depth = d;
        }
        if (!code) break; /* stopped before the first iteration ended */
        Rec m;
        memset(&m, 0, sizeof m);
        if (code == PASS_CODE) m.kind = KIND_PASS;
        else if (!decode(&s->gens[0], s->rack[side], code, &m)) return -1;
        if (line_push(pv, &m) < 0) return -1;
        if (!*exact || s->stopped) break; /* an inexact search: only its best move */
        known = (m.kind == KIND_PASS ? 0 : m.score) - v; /* the next position's, for its side */
        if (m.kind == KIND_PASS) {
            if (passes + 1 >= s->pass_limit) break;
            passes++;
        } else {
            if (goes_out(s, &m, side)) break;
            copy_slot(s, 1, 0);
            place(s, 1, &m, &s->board_hash);
            copy_slot(s, 0, 1);
            take(s, side, &m, 1);
            if (s->bag >= 0) draw_bag(s, side, s->bag, 1);
            passes = 0;
        }
        side = 1 - side;
    }
    *value = first_value;
    if (*exact) *depth = (int)pv->n; /* solved to the end: the plies of the best line */
    return 0;
}

/* ---- Python glue --------------------------------------------------------------------------- */

static int read_rack(const Buf *b, uint8_t *rack) {
    if (b->buf.len != NCODES) return -1;
    memcpy(rack, b->buf.buf, NCODES);
    int n = 0;
    for (int c = 0; c < NCODES; c++) n += rack[c];
    return n > RACK_SIZE ? -1 : n;
}

/* Zeroed memory for the search's large tables: mapped where the system can, on huge pages
 * where asked and the system lets a program ask (the transposition table is read at random all
 * over: one translation for 2 MiB instead of 4 KiB, measured 11 to 17 % of the search's time;
 * for the lines' tables, no faster). */
static void *region_alloc(size_t bytes, int huge) {
#ifdef __unix__
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    if (huge) madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
#else
    (void)huge;
    return calloc(1, bytes);
#endif
}

static void region_free(void *p, size_t bytes) {
    if (!p) return;
#ifdef __unix__
    munmap(p, bytes);
#else
    free(p);
#endif
}

/* Memory kept for the next search that the system may take back if it needs it (its pages
 * then come back zeroed, else as they were: the next search clears what it uses either way). */
static void region_release(void *p, size_t bytes) {
#if defined(__unix__) && defined(MADV_FREE)
    if (p && bytes) madvise(p, bytes, MADV_FREE);
#else
    (void)p;
    (void)bytes;
#endif
}

/* A search's large memory: the table, the lines' plays and the cross-sets. The process keeps
 * one set from search to search (`kept`), which the system may take back while no search runs
 * (region_release): memory fresh from the system is cleared by it on first touch, with a page
 * fault each time (in a pre-endgame of 221 candidates, 15 s of 159 s were spent so), where
 * memory kept needs only what the search uses zeroed (`tt_dirty`: the table's bytes from its
 * start that may hold another search's entries; the lines' entries of an older stamp are
 * empty). A search that finds it taken (by another thread) gets its own, freed when it ends. */
typedef struct {
    Stored *tt;
    size_t tt_bytes, tt_dirty;
    LineEntry *lines;
    size_t lines_bytes;
    Rec *arena;
    size_t arena_bytes;
    CrossEntry *cross;
    size_t cross_bytes;
    uint32_t stamp; /* the last stamp a search used */
} Memory;

static Memory kept;
static int kept_busy; /* taken and given back with the GIL held */

static void memory_free(Memory *m) {
    region_free(m->tt, m->tt_bytes);
    region_free(m->lines, m->lines_bytes);
    region_free(m->arena, m->arena_bytes);
    region_free(m->cross, m->cross_bytes);
    memset(m, 0, sizeof *m);
}

/* Region *p of *have bytes at least `want` bytes large (its content lost when it grows). */
static int region_fit(void **p, size_t *have, size_t want, int huge) {
    if (*have >= want) return 0;
    region_free(*p, *have);
    *p = region_alloc(want, huge);
    *have = *p ? want : 0;
    return *p ? 1 : -1;
}

/* `m` large enough for a search of these sizes, its cross-sets empty; -1: out of memory. */
static int memory_fit(Memory *m, size_t tt_bytes, size_t lines_n, size_t arena_n,
                      size_t cross_n) {
    int tt = region_fit((void **)&m->tt, &m->tt_bytes, tt_bytes, 1);
    if (tt > 0) m->tt_dirty = 0;
    if (m->stamp >= UINT32_MAX - (1u << 20)) { /* stamps used up: every entry empty again */
        region_free(m->lines, m->lines_bytes);
        m->lines = NULL;
        m->lines_bytes = 0;
    }
    int lines = region_fit((void **)&m->lines, &m->lines_bytes, lines_n * sizeof *m->lines, 0);
    if (lines > 0) m->stamp = 0;
    int arena = region_fit((void **)&m->arena, &m->arena_bytes, arena_n * sizeof *m->arena, 0);
    int cross = region_fit((void **)&m->cross, &m->cross_bytes, cross_n * sizeof *m->cross, 0);
    if (tt < 0 || lines < 0 || arena < 0 || cross < 0) return -1;
    if (!cross) memset(m->cross, 0, cross_n * sizeof *m->cross); /* kept: an earlier search's */
    return 0;
}

/* The memory handed back after a search: the table's part it filled now may hold entries. */
static void memory_return(Memory *m, const Solver *s) {
    if (s->tt) {
        size_t used = table_bytes(s->tt_mask);
        if (used > m->tt_dirty) m->tt_dirty = used;
        m->stamp = s->stamp;
    }
    if (m != &kept) {
        memory_free(m);
        return;
    }
    region_release(m->tt, m->tt_dirty);
    region_release(m->lines, m->lines_bytes);
    region_release(m->arena, m->arena_bytes);
    kept_busy = 0;
}

/* What solve returns, and an interrupted search's exception carries as `partial`: (value,
 * exact, nodes, depth, the best line as packed move records). */
static PyObject *answer(int value, int exact, uint64_t nodes, int depth, const Line *pv) {
    return Py_BuildValue("iiKiy#", value, exact, (unsigned long long)nodes, depth,
                         pv->v ? (const char *)pv->v : "", (Py_ssize_t)(pv->n * sizeof(Rec)));
}

static PyObject *py_solve(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"", "", "", "", "", "", "", "", "", "", "", "", "progress", NULL};
    PyObject *ob, *oa, *obr, *onodes, *omasks, *progress = Py_None;
    int pass_limit, passes, tt_bits, bag = -1, proof_depth = PROOF_DEPTH;
    double seconds;
    unsigned long long max_nodes;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOiidKi|ii$O", names, &ob, &oa, &obr,
                                     &onodes, &omasks, &pass_limit, &passes, &seconds,
                                     &max_nodes, &tt_bits, &bag, &proof_depth, &progress))
        return NULL;
    if (proof_depth < 0 || proof_depth >= MAX_PLY) {
        PyErr_SetString(PyExc_ValueError, "proof_depth out of range");
        return NULL;
    }
    if (progress != Py_None && !PyCallable_Check(progress)) {
        PyErr_SetString(PyExc_TypeError, "progress: a callable or None");
        return NULL;
    }
    Buf board = {0}, ra = {0}, rb = {0}, nodes = {0}, masks = {0};
    PyObject *out = NULL;
    Solver s;
    memset(&s, 0, sizeof s);
    Memory own = {0}, *mem = &own;
    Line pv = {0};
    if (get_buf(ob, &board, "tablero") < 0 || get_buf(oa, &ra, "atril") < 0 ||
        get_buf(obr, &rb, "atril") < 0 || get_buf(onodes, &nodes, "kwg") < 0 ||
        get_buf(omasks, &masks, "kwg") < 0)
        goto done;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "atril._endgame sin configurar");
        goto done;
    }
    if (board.buf.len != NSQ || read_rack(&ra, s.rack[0]) < 1 || read_rack(&rb, s.rack[1]) < 1) {
        PyErr_SetString(PyExc_ValueError, "tablero de 225 casillas y dos atriles de 1 a 7 fichas");
        goto done;
    }
    if (pass_limit < 1 || pass_limit >= MAX_PASSES || passes < 0 || passes >= pass_limit ||
        tt_bits < 10 || tt_bits > 30 || seconds < 0 || bag < -1 || bag >= NCODES) {
        PyErr_SetString(PyExc_ValueError, "límites de la búsqueda fuera de rango");
        goto done;
    }
    if (!board_valid(board.buf.buf) || read_kwg(&nodes, &masks, &s.k) < 0) goto done;
    s.pass_limit = pass_limit;
    s.proof_depth = proof_depth;
    s.max_nodes = max_nodes;
    s.tt_max_mask = ((uint64_t)1 << (tt_bits - 2)) - 1;
    s.tt_mask = ((uint64_t)1 << ((tt_bits < TT_START_BITS ? tt_bits : TT_START_BITS) - 2)) - 1;
    s.tt_grow_at = grow_point(s.tt_mask, s.tt_max_mask);
    int aux = tt_bits < AUX_BITS ? tt_bits : AUX_BITS;
    s.cross.mask = ((uint64_t)1 << (aux - 6)) - 1;
    s.lines_mask = ((uint64_t)1 << (aux - 4)) - 1;
    s.arena_cap = (size_t)1 << (aux - 1);
    if (!kept_busy) {
        mem = &kept;
        kept_busy = 1;
    }
    if (memory_fit(mem, table_bytes(s.tt_max_mask), s.lines_mask + 1, s.arena_cap,
                   s.cross.mask + 1) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    s.tt = mem->tt;
    s.tt_dirty = mem->tt_dirty;
    s.lines = mem->lines;
    s.arena = mem->arena;
    s.cross.table = mem->cross;
    s.stamp = mem->stamp + 1;
    s.gens = calloc(MAX_PLY + 2, sizeof *s.gens);
    s.hist = calloc(1 << 16, sizeof *s.hist);
    s.shapes = malloc((MAX_PLY + 2) * sizeof *s.shapes);
    s.lkey = calloc(MAX_PLY + 2, sizeof *s.lkey);
    s.slots = calloc(MAX_PLY + 2, sizeof *s.slots);
    s.pairs = calloc((size_t)1 << PAIR_BITS, sizeof *s.pairs);
    if (!s.gens || !s.hist || !s.shapes || !s.lkey || !s.slots || !s.pairs) {
        PyErr_NoMemory();
        goto done;
    }
    clear_table(&s, 0, table_bytes(s.tt_mask));
    for (int p = 0; p < 2; p++) {
        s.rack_value[p] = rack_points(s.rack[p]);
        s.rack_count[p] = 0;
        for (int c = 0; c < NCODES; c++) s.rack_count[p] += s.rack[p][c];
    }
    int any_blank = s.rack[0][0] || s.rack[1][0];
    for (int c = 1; c < NCODES; c++)
        if (s.rack[0][c] || s.rack[1][c]) s.want |= 1u << c;
    if (bag > 0) s.want |= 1u << bag;
    if (any_blank || bag == 0) s.want = ALL_LETTERS;
    s.bag = bag;
    for (int p = 0; p < 2; p++) { /* every rack a side holds later is part of max_rack */
        memcpy(s.max_rack[p], s.rack[p], NCODES);
        if (bag >= 0) s.max_rack[p][bag]++;
        for (int c = 0, at = 0; c < NCODES; c++) {
            s.bit0[p][c] = (uint8_t)at;
            at += s.max_rack[p][c];
            if (s.rack[p][c]) s.held[p] |= 1u << c;
        }
        s.bits[p] = rack_bits(&s, p, s.rack[p]);
    }
    for (int i = 0; i <= MAX_PLY + 1; i++) s.gens[i].k = s.k;
    memcpy(s.gens[0].board, board.buf.buf, NSQ);
    int value = 0, exact = 0, depth = 0, rc;
    s.poll = main_thread && PyThread_get_thread_ident() == main_thread;
    s.progress = s.poll && progress != Py_None ? progress : NULL; /* held by the call's args */
    Py_BEGIN_ALLOW_THREADS
    compute_cross_for(&s.gens[0], s.want);
    line_keys(&s.gens[0], s.lkey[0]);
    s.deadline = seconds > 0 ? now() + seconds : 0;
    rc = run(&s, passes, &value, &exact, &depth, &pv);
    Py_END_ALLOW_THREADS
    if (s.interrupted) { /* the handler's exception, pending: what was found goes with it */
        PyObject *type, *exc, *tb;
        PyErr_Fetch(&type, &exc, &tb);
        PyErr_NormalizeException(&type, &exc, &tb);
        PyObject *partial = answer(value, 0, s.nodes, depth, &pv);
        if (!partial || !exc || PyObject_SetAttrString(exc, "partial", partial) < 0)
            PyErr_Clear(); /* the exception goes on without it */
        Py_XDECREF(partial);
        PyErr_Restore(type, exc, tb);
        goto done;
    }
    if (s.bad_check) {
        PyErr_SetString(PyExc_AssertionError,
                        "a one-tile list, a play taken back, a bound that the board refutes, "
                        "or a best line's value that its position does not reach");
        goto done;
    }
    if (rc < 0) {
        PyErr_NoMemory();
        goto done;
    }
    out = answer(value, exact, s.nodes, depth, &pv);
done:
    release(&board);
    release(&ra);
    release(&rb);
    release(&nodes);
    release(&masks);
    for (int i = 0; i <= MAX_PLY; i++) {
        free(s.list[i]);
        free(s.order[i]);
        free(s.est[i]);
        free(s.code[i]);
    }
    free(s.gens);
    free(s.hist);
    free(s.shapes);
    free(s.lkey);
    free(s.slots);
    free(s.pairs);
    free(s.walk);
    memory_return(mem, &s);
    free(pv.v);
    return out;
}

/* ---- the words an endgame can form ------------------------------------------------------ */

/* Every word that can still be formed on a board whose empty squares are filled only from a
 * pool of tiles (both racks, and a tile in the bag): on some line, a run of squares with an
 * empty square or the edge at each end, each square either a tile of the board or a tile of
 * the pool (a blank for any letter), the pool's tiles used at most once each, one at least.
 * The endgame only ever forms such words, so the lexicon cut down to them gives the same
 * plays and cross-sets, and the move generator walks a far smaller graph. */
typedef struct {
    const Nodes *k;
    uint8_t line[SIZE], pool[NCODES], word[SIZE];
    uint32_t pool_mask; /* letters with tiles in the pool (blanks apart) */
    uint8_t *out;
    size_t len, cap;
    int failed;
} Words;

static void words_emit(Words *w, int n) {
    if (w->len + (size_t)n + 1 > w->cap) {
        size_t cap = w->cap ? 2 * w->cap : (size_t)1 << 16;
        while (cap < w->len + (size_t)n + 1) cap *= 2;
        uint8_t *b = realloc(w->out, cap);
        if (!b) {
            w->failed = 1;
            return;
        }
        w->out = b;
        w->cap = cap;
    }
    if (w->len) w->out[w->len++] = 0;
    memcpy(w->out + w->len, w->word, (size_t)n);
    w->len += (size_t)n;
}

static void words_at(Words *w, int pos, uint32_t arc, int n, int fresh);

/* After the letter at `pos` (DAWG node j, n letters so far, `fresh` of them from the pool). */
static void words_next(Words *w, int pos, uint32_t j, int n, int fresh) {
    if (fresh && accepts(w->k, j) && (pos == SIZE - 1 || !w->line[pos + 1])) words_emit(w, n);
    uint32_t a = arc_of(w->k, j);
    if (pos < SIZE - 1 && a && !w->failed) words_at(w, pos + 1, a, n, fresh);
}

static void words_at(Words *w, int pos, uint32_t arc, int n, int fresh) {
    uint32_t list = w->k->m[arc];
    uint8_t t = w->line[pos];
    if (t) {
        uint32_t l = t & LETTER_MASK;
        if (!((list >> l) & 1)) return;
        w->word[n] = (uint8_t)l;
        words_next(w, pos, nth(arc, list, l), n + 1, fresh);
        return;
    }
    /* a letter with a tile of its own in the pool uses it, else a blank: when the pool can
     * spell the word at all, taking its own tiles first can */
    for (uint32_t todo = list & (w->pool[0] ? ALL_LETTERS : w->pool_mask); todo; todo &= todo - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(todo);
        int code = w->pool[l] ? (int)l : 0;
        if (!--w->pool[code] && code) w->pool_mask &= ~(1u << code);
        w->word[n] = (uint8_t)l;
        words_next(w, pos, nth(arc, list, l), n + 1, fresh + 1);
        if (!w->pool[code]++ && code) w->pool_mask |= 1u << code;
    }
}

static PyObject *py_words(PyObject *self, PyObject *args) {
    PyObject *ob, *op, *onodes, *omasks;
    if (!PyArg_ParseTuple(args, "OOOO", &ob, &op, &onodes, &omasks)) return NULL;
    Buf board = {0}, pool = {0}, nodes = {0}, masks = {0};
    PyObject *out = NULL;
    Nodes k;
    Words w;
    memset(&w, 0, sizeof w);
    if (get_buf(ob, &board, "tablero") < 0 || get_buf(op, &pool, "fichas") < 0 ||
        get_buf(onodes, &nodes, "kwg") < 0 || get_buf(omasks, &masks, "kwg") < 0)
        goto done;
    if (board.buf.len != NSQ || pool.buf.len != NCODES) {
        PyErr_SetString(PyExc_ValueError, "tablero de 225 casillas y 29 cuentas de fichas");
        goto done;
    }
    const uint8_t *b = board.buf.buf;
    if (!board_valid(b) || read_kwg(&nodes, &masks, &k) < 0) goto done;
    w.k = &k;
    int total = 0;
    for (int c = 0; c < NCODES; c++) {
        w.pool[c] = ((const uint8_t *)pool.buf.buf)[c];
        total += w.pool[c];
        if (c && w.pool[c]) w.pool_mask |= 1u << c;
    }
    if (total > 2 * RACK_SIZE + 1) { /* two racks and the bag's tile: more would take ages */
        PyErr_SetString(PyExc_ValueError, "como mucho 15 fichas: dos atriles y la de la bolsa");
        goto done;
    }
    uint32_t root = arc_of(&k, 0);
    Py_BEGIN_ALLOW_THREADS
    for (int dir = 0; dir < 2 && root; dir++)
        for (int line = 0; line < SIZE; line++) {
            for (int p = 0; p < SIZE; p++) w.line[p] = b[sq_of(dir, line, p)];
            for (int p = 0; p < SIZE && !w.failed; p++)
                if (p == 0 || !w.line[p - 1]) words_at(&w, p, root, 0, 0);
        }
    Py_END_ALLOW_THREADS
    if (w.failed) PyErr_NoMemory();
    else out = PyBytes_FromStringAndSize((const char *)w.out, (Py_ssize_t)w.len);
done:
    free(w.out);
    release(&board);
    release(&pool);
    release(&nodes);
    release(&masks);
    return out;
}

static PyObject *py_check_lists(PyObject *self, PyObject *arg) {
    (void)self;
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    check_lists = on;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", py_configure, METH_VARARGS, "Tile values, premium maps and the bingo bonus (from atril)."},
    {"solve", (PyCFunction)(void (*)(void))py_solve, METH_VARARGS | METH_KEYWORDS, "The exact endgame: value, exactness, nodes, depth, best line."},
    {"words", py_words, METH_VARARGS, "The words a board and a pool of tiles can still form."},
    {"check_lists", py_check_lists, METH_O, "Tests only: check one-tile lists and plays taken back."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "atril._endgame", NULL, -1, methods,
                                    NULL, NULL, NULL, NULL};

/* 1 when built from a profile of its own run, -1 when setup.py did not try (ATRIL_PGO=0, a
 * compiler other than GCC, no workload), 0 when it tried and the profile failed (setup.py
 * defines it but for 0). */
#ifndef ATRIL_PROFILED
#define ATRIL_PROFILED 0
#endif

PyMODINIT_FUNC PyInit__endgame(void) {
    engine_init();
    zobrist_init();
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "PROFILED", ATRIL_PROFILED) < 0) Py_CLEAR(m);
    if (!m) return NULL;
    PyObject *threading = PyImport_ImportModule("threading");
    PyObject *main = threading ? PyObject_CallMethod(threading, "main_thread", NULL) : NULL;
    PyObject *ident = main ? PyObject_GetAttrString(main, "ident") : NULL;
    main_thread = ident && ident != Py_None ? PyLong_AsUnsignedLong(ident) : 0;
    if (PyErr_Occurred()) { /* no polling then: a search stops at its limits only */
        PyErr_Clear();
        main_thread = 0;
    }
    Py_XDECREF(ident);
    Py_XDECREF(main);
    Py_XDECREF(threading);
    return m;
}
