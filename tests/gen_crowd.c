// Generates tests/data/crowd.txt, the 256 x 64 tile map of the "crowd"
// benchmark scene (docs/benchmarks.md, "The scenes"), in ledge's ASCII form
// (docs/tilemap.md). The benchmark and the tests only read the shipped text;
// this program documents how it was made and remakes it bit for bit:
//
//   gcc -std=c11 -O1 -Iinclude $(pkg-config --cflags cglm) tests/gen_crowd.c -o gen_crowd
//   ./gen_crowd > tests/data/crowd.txt
//
// (run from the repository root; it needs only the tile ids of tiles.h).
//
// The map is y up with gravity toward -y. A ground profile is walked left
// to right, one feature at a time, from a fixed seed with its own RNG:
// flat runs with half steps, hills of each slope group (45, 22 small + big,
// 67 small + big) going up and coming down, round hills (convex quarter
// discs), valleys with concave quarter-pipe sides, pits (gaps in the floor),
// FULL and half-thick walls. Everything below the surface is FULL. Floating
// islands are then dropped into the sky; their undersides use the ceiling
// orientations (and their rims the half tiles), so every one of the 34 tile
// ids appears. Hills and walls stay low enough (at most 3 cells) for the
// scene's characters, who jump about 4 m, and pits are at most 3 deep.
#include <ledge/tiles.h>

#include <stdio.h>
#include <string.h>

#define W 256
#define H 64

static ledge_tile map[W][H];

// splitmix64, fixed seed: the same map on every platform.
#define SEED 0x43524F5744ull // "CROWD"
static uint64_t rng_state = SEED;
static uint64_t rng_next(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/// Uniform integer in [lo, hi].
static int rnd(int lo, int hi) {
    return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}

// The legend of docs/tilemap.md, by tile id (kept apart from the loader's
// table on purpose: the loader test checks the two agree on this file).
static const char glyphs[LEDGE_TILE_COUNT + 1] = ".#ZN/\\F7JL}{()`'<>pqdbf1jlPQDB\"]_[";

// ---------------------------------------------------------------------------
// The ground walk. `x` is the next column to fill, `h` the surface height:
// cells y < h of a column are FULL, the cell at y = h holds its surface tile
// (or stays empty for a flat column).

static int x = 0, h = 12;
#define H_MIN 4
#define H_MAX 30
#define X_END (W - 1) // the last column is the right border wall

/// A column of FULL up to (not including) `top`, with `surface` at y = top.
static void column(int top, ledge_tile surface) {
    if (x >= X_END) return;
    for (int y = 0; y < top; ++y) map[x][y] = LEDGE_TILE_FULL;
    map[x][top] = surface;
    ++x;
}

static void flat(int n) {
    for (int i = 0; i < n; ++i) column(h, LEDGE_TILE_EMPTY);
}

/// A run of half steps (HALF_U on the surface).
static void half_step(int n) {
    for (int i = 0; i < n; ++i) column(h, LEDGE_TILE_HALF_U);
}

/// Up or down by one cell along a 45 degree slope.
static void up45(void) {
    column(h, LEDGE_TILE_45DEG_NP);
    ++h;
}
static void down45(void) {
    --h;
    column(h, LEDGE_TILE_45DEG_PP);
}

/// Up or down one cell over two columns along the 22 degree slope.
static void up22(void) {
    column(h, LEDGE_TILE_22DEG_SMALL_NP);
    column(h, LEDGE_TILE_22DEG_BIG_NP);
    ++h;
}
static void down22(void) {
    --h;
    column(h, LEDGE_TILE_22DEG_BIG_PP);
    column(h, LEDGE_TILE_22DEG_SMALL_PP);
}

/// Up or down two cells in one column along the 67 degree slope: the big
/// (wide) piece below, the small (thin) piece on top.
static void up67(void) {
    if (x >= X_END) return;
    map[x][h + 1] = LEDGE_TILE_67DEG_SMALL_NP;
    column(h, LEDGE_TILE_67DEG_BIG_NP);
    h += 2;
}
static void down67(void) {
    if (x >= X_END) return;
    h -= 2;
    map[x][h + 1] = LEDGE_TILE_67DEG_SMALL_PP;
    column(h, LEDGE_TILE_67DEG_BIG_PP);
}

/// A hill of one slope group: `steps` rises, a flat top, as many falls.
static void hill(void (*up)(void), void (*down)(void), int rise_per_step, int steps) {
    while (steps > 0 && h + steps * rise_per_step > H_MAX) --steps;
    for (int i = 0; i < steps; ++i) up();
    flat(rnd(1, 4));
    for (int i = 0; i < steps; ++i) down();
}

/// A round hill: a convex quarter disc up, a flat top, one down.
static void round_hill(void) {
    column(h, LEDGE_TILE_CONVEX_NP);
    ++h;
    flat(rnd(0, 3));
    --h;
    column(h, LEDGE_TILE_CONVEX_PP);
}

/// A valley one cell deep with concave quarter-pipe sides.
static void valley(void) {
    if (h - 1 < H_MIN) return;
    --h;
    column(h, LEDGE_TILE_CONCAVE_PP);
    flat(rnd(1, 4));
    column(h, LEDGE_TILE_CONCAVE_NP);
    ++h;
}

/// A gap in the floor: a pit 2..3 cells deep and 2..4 wide.
static void pit(void) {
    int depth = rnd(2, 3);
    if (h - depth < H_MIN) return;
    h -= depth;
    flat(rnd(2, 4));
    h += depth;
}

/// A wall standing on the surface, FULL or half-thick, 1..3 cells high.
static void wall(void) {
    int height = rnd(1, 3);
    ledge_tile kind = (ledge_tile[]){LEDGE_TILE_FULL, LEDGE_TILE_FULL, LEDGE_TILE_HALF_L,
                                     LEDGE_TILE_HALF_R}[rnd(0, 3)];
    int width = kind == LEDGE_TILE_FULL ? rnd(1, 2) : 1;
    flat(1);
    for (int i = 0; i < width && x < X_END; ++i) {
        for (int y = h; y < h + height; ++y) map[x][y] = kind;
        column(h, map[x][h]);
    }
    flat(1);
}

static void ground(void) {
    // Left border wall: the characters turn round at the map's edges.
    for (int y = 0; y < h + 6; ++y) map[0][y] = LEDGE_TILE_FULL;
    x = 1;
    flat(3);
    while (x < X_END) {
        switch (rnd(0, 10)) {
        case 0:
            flat(rnd(2, 6));
            break;
        case 1:
            half_step(rnd(1, 3));
            break;
        case 2:
            hill(up45, down45, 1, rnd(1, 3));
            break;
        case 3:
            hill(up22, down22, 1, rnd(1, 2));
            break;
        case 4:
            hill(up67, down67, 2, 1);
            break;
        case 5:
            round_hill();
            break;
        case 6:
            valley();
            break;
        case 7:
            pit();
            break;
        case 8:
            wall();
            break;
        case 9: // a lasting change of level, up or down, along any slope
            if (h + 2 <= H_MAX && rnd(0, 1)) {
                switch (rnd(0, 2)) {
                case 0:
                    up45();
                    break;
                case 1:
                    up22();
                    break;
                default:
                    up67();
                    break;
                }
            } else if (h - 2 >= H_MIN) {
                switch (rnd(0, 2)) {
                case 0:
                    down45();
                    break;
                case 1:
                    down22();
                    break;
                default:
                    down67();
                    break;
                }
            }
            break;
        default:
            flat(rnd(1, 3));
            break;
        }
    }
    // Right border wall, as tall as the left one.
    int top = 0;
    while (top < H && map[X_END - 1][top] != LEDGE_TILE_EMPTY) ++top;
    for (int y = 0; y < top + 6 && y < H; ++y) map[X_END][y] = LEDGE_TILE_FULL;
}

// ---------------------------------------------------------------------------
// Floating islands, drawn y-up (the first string is the top row) in the same
// glyphs as the file. They use the ceiling orientations of every group.

typedef struct island {
    int rows;
    const char *art[4];
} island;

static const island islands[] = {
    {2, {"/##\\", "N##Z"}},                        // 45 degree diamond
    {2, {"(###)", "{###}"}},                       // rounded slab: convex, top and bottom
    {2, {"<d##b>", "'q##p`"}},                     // 22 degree lens
    {4, {"j##l", "D##B", "Q##P", "1##f"}},         // 67 degree spindle
    {4, {"######", "#F..7#", "#L..J#", "######"}}, // hollow box, rounded inside
    {1, {"]\"\"\"\"["}},                           // thin slab of half tiles
};

static int glyph_id(char c) {
    const char *p = strchr(glyphs, c);
    return p ? (int)(p - glyphs) : -1;
}

/// Whether the island fits at (x0, y0 = its top row) with a free margin of
/// one cell around it and at least 4 free cells between it and the ground.
static bool island_fits(const island *is, int x0, int y0) {
    int w = (int)strlen(is->art[0]);
    if (x0 < 2 || x0 + w + 1 >= X_END || y0 + 1 >= H) return false;
    for (int xx = x0 - 1; xx <= x0 + w; ++xx) {
        for (int yy = y0 - is->rows - 4; yy <= y0 + 1; ++yy) {
            if (yy < 0 || map[xx][yy] != LEDGE_TILE_EMPTY) return false;
        }
    }
    return true;
}

static void place_island(const island *is, int x0, int y0) {
    for (int r = 0; r < is->rows; ++r) {
        for (int c = 0; is->art[r][c]; ++c)
            map[x0 + c][y0 - r] = (ledge_tile)glyph_id(is->art[r][c]);
    }
}

static void sky(void) {
    int placed = 0;
    for (int tries = 0; tries < 4000 && placed < 24; ++tries) {
        const island *is = &islands[placed < 6 ? placed : rnd(0, 5)];
        int x0 = rnd(2, W - 10), y0 = rnd(H_MIN + 8, H - 8);
        if (!island_fits(is, x0, y0)) continue;
        place_island(is, x0, y0);
        ++placed;
    }
}

static void write_map(FILE *f) {
    fprintf(f, "; The crowd benchmark map (docs/benchmarks.md): %d x %d cells,\n", W, H);
    fprintf(f, "; generated by tests/gen_crowd.c (seed 0x%llx); do not edit by hand.\n",
            (unsigned long long)SEED);
    fprintf(f,
            "; ledge ASCII tilemap (docs/tilemap.md): the first row is y = %d, the last y = 0.\n",
            H - 1);
    for (int y = H - 1; y >= 0; --y) {
        char line[W + 1];
        for (int i = 0; i < W; ++i) line[i] = glyphs[map[i][y]];
        line[W] = '\0';
        fprintf(f, "%s\n", line);
    }
}

// `gen_crowd --check FILE` (a meson test) regenerates the map and compares
// it with the shipped file byte for byte, so the generator cannot drift
// from the data the benchmark reads.
static int check_against(const char *path) {
    FILE *fresh = tmpfile(), *shipped = fopen(path, "rb");
    if (fresh == NULL || shipped == NULL) {
        fprintf(stderr, "gen_crowd: cannot open %s\n", fresh ? path : "a temporary file");
        return 1;
    }
    write_map(fresh);
    rewind(fresh);
    long offset = 0;
    for (;; ++offset) {
        int a = fgetc(fresh), b = fgetc(shipped);
        if (a != b) {
            printf("crowd map differs from %s at byte %ld\n", path, offset);
            return 1;
        }
        if (a == EOF) break;
    }
    printf("crowd map regenerated: identical to %s (%ld bytes)\n", path, offset);
    return 0;
}

int main(int argc, char **argv) {
    ground();
    sky();
    if (argc == 3 && strcmp(argv[1], "--check") == 0) return check_against(argv[2]);
    write_map(stdout);
    return 0;
}
