/* atril_engine.h: the numbers the C engine shares with Python, defined once.
 *
 * Included by _kwg.c and _movegen.c. Each module exports the constants it uses as module
 * attributes (atril.kwg and atril.movegen read them there, so Python always agrees with the
 * compiled code); a source tree run without building the extensions reads this file's
 * #defines instead (atril.kwg.engine_constants). So every constant Python reads is a plain
 * `#define NAME number` line here.
 */
#ifndef ATRIL_ENGINE_H
#define ATRIL_ENGINE_H

#include <stddef.h>
#include <stdint.h>

/* ---- KWG nodes (wolges format): tile = node >> TILE_SHIFT -------------------------------- */

#define TILE_SHIFT 24
#define ACCEPTS_BIT 0x800000u
#define IS_END_BIT 0x400000u
#define ARC_MASK 0x3FFFFFu
/* the GADDAG's separator tile: ci..c1 SEPARATOR ci+1..cn */
#define SEPARATOR 0
/* the most nodes the 22-bit arc field can address */
#define MAX_NODES 0x400000u
/* validation limits: words in a DAWG (a count, not a walk: the cap keeps every walk of the
 * word list, and the memory it takes, bounded), tiles on any path of the graph */
#define MAX_WORDS 10000000u
#define MAX_DEPTH 64

/* ---- the move record: one move as _movegen returns it, 32 bytes ------------------------- */

#define KIND_PLAY 0
#define KIND_EXCHANGE 1
#define KIND_PASS 2
/* in a record's tiles: a tile this move places (a blank also keeps its 0x80 bit) */
#define NEW_BIT 0x40
/* byte offsets of the fields (native byte order): score int16, then one byte each for kind,
 * dir (0 across, 1 down), row, col, len and nplaced, then len tiles (the whole word, board
 * tiles as they lie and placed ones with NEW_BIT; or the tiles an exchange gives back), then
 * equity as float32. The C code sorts records by equity, then by the bytes from kind to the
 * last tile, so the field order is also the order of the moves. */
#define RECORD_SCORE 0
#define RECORD_KIND 2
#define RECORD_DIR 3
#define RECORD_ROW 4
#define RECORD_COL 5
#define RECORD_LEN 6
#define RECORD_NPLACED 7
#define RECORD_TILES 8
#define RECORD_EQUITY 24
#define RECORD_SIZE 32

typedef struct {
    int16_t score;
    uint8_t kind, dir, row, col, len, nplaced;
    uint8_t tiles[RECORD_EQUITY - RECORD_TILES];
    float equity;
    uint32_t tag; /* to RECORD_SIZE; the endgame keeps the bits and value of the tiles placed */
} Rec;

_Static_assert(offsetof(Rec, score) == RECORD_SCORE, "RECORD_SCORE");
_Static_assert(offsetof(Rec, kind) == RECORD_KIND, "RECORD_KIND");
_Static_assert(offsetof(Rec, dir) == RECORD_DIR, "RECORD_DIR");
_Static_assert(offsetof(Rec, row) == RECORD_ROW, "RECORD_ROW");
_Static_assert(offsetof(Rec, col) == RECORD_COL, "RECORD_COL");
_Static_assert(offsetof(Rec, len) == RECORD_LEN, "RECORD_LEN");
_Static_assert(offsetof(Rec, nplaced) == RECORD_NPLACED, "RECORD_NPLACED");
_Static_assert(offsetof(Rec, tiles) == RECORD_TILES, "RECORD_TILES");
_Static_assert(offsetof(Rec, equity) == RECORD_EQUITY, "RECORD_EQUITY");
_Static_assert(sizeof(Rec) == RECORD_SIZE, "RECORD_SIZE");

/* ---- exporting them ------------------------------------------------------------------- */

typedef struct { const char *name; long value; } EngineConstant;

#define ENGINE_CONSTANT(name) {#name, (long)(name)}

/* Add each constant of a {NULL}-terminated list to a module; -1 on failure. Needs Python.h
 * included first (both modules do). */
static inline int add_engine_constants(PyObject *module, const EngineConstant *c) {
    for (; c->name; c++)
        if (PyModule_AddIntConstant(module, c->name, c->value) < 0) return -1;
    return 0;
}

#endif
