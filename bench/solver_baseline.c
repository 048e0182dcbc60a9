/* A plain C edge-matching counter, the peer bench/solver_eternity.py measures photosolve against in the same run.
 * Reads `W H` then W*H lines `n e s w` (0 = frame colour, edges fit when equal) and counts every solution
 * (raw: every tile and turn, whole-board rotations included) the textbook way: row by row, recursion, each
 * cell's candidates pre-turned and bucketed by the (top, left) colours it needs, a used flag per tile, no
 * symmetry breaking. Build: gcc -O3 -o baseline solver_baseline.c; run: ./baseline puzzle.txt */
#include <stdio.h>
#include <stdlib.h>

#define MAXC 64                 /* colours */
#define MAXT 256                /* tiles */
typedef struct { int tile, right, bottom; } Cand;

static int W, H, n, colours;
static int edge[MAXT][4];
static Cand *bucket[3][3][MAXC][MAXC]; /* [row kind][col kind][top][left]: kind 0 first, 1 middle, 2 last */
static int size[3][3][MAXC][MAXC];
static int used[MAXT], right_of[MAXT * 2], bottom_of[MAXT * 2];
static long long nodes, found;

static int kind(int i, int last) { return i == 0 ? 0 : (i == last ? 2 : 1); }

static void search(int cell) {
    if (cell == n) { found++; return; }
    int r = cell / W, c = cell % W;
    int top = r ? bottom_of[cell - W] : 0, left = c ? right_of[cell - 1] : 0;
    int rk = kind(r, H - 1), ck = kind(c, W - 1);
    Cand *list = bucket[rk][ck][top][left];
    for (int i = 0; i < size[rk][ck][top][left]; i++) {
        if (used[list[i].tile]) continue;
        nodes++;
        used[list[i].tile] = 1;
        right_of[cell] = list[i].right;
        bottom_of[cell] = list[i].bottom;
        search(cell + 1);
        used[list[i].tile] = 0;
    }
}

int main(int argc, char **argv) {
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f || fscanf(f, "%d %d", &W, &H) != 2 || W * H > MAXT) { fprintf(stderr, "usage: baseline W-H-file\n"); return 2; }
    n = W * H;
    for (int t = 0; t < n; t++)
        for (int k = 0; k < 4; k++) {
            if (fscanf(f, "%d", &edge[t][k]) != 1 || edge[t][k] < 0 || edge[t][k] >= MAXC) { fprintf(stderr, "bad tile\n"); return 2; }
            if (edge[t][k] >= colours) colours = edge[t][k] + 1;
        }
    for (int rk = 0; rk < 3; rk++)
        for (int ck = 0; ck < 3; ck++)
            for (int t = 0; t < n; t++)
                for (int turn = 0; turn < 4; turn++) {
                    int e[4];  /* turned clockwise: the edge that faced W faces N */
                    for (int k = 0; k < 4; k++) e[k] = edge[t][(k - turn + 4) % 4];
                    /* the frame colour on the frame's sides and only there */
                    int frame[4] = {rk == 0, ck == 2, rk == 2, ck == 0};
                    if (H == 1) frame[0] = frame[2] = 1;
                    if (W == 1) frame[1] = frame[3] = 1;
                    int ok = 1;
                    for (int k = 0; k < 4; k++) ok &= (e[k] == 0) == frame[k];
                    if (!ok) continue;
                    int top = rk == 0 ? 0 : e[0], left = ck == 0 ? 0 : e[3];
                    Cand **b = &bucket[rk][ck][top][left];
                    *b = realloc(*b, sizeof(Cand) * (size[rk][ck][top][left] + 1));
                    (*b)[size[rk][ck][top][left]++] = (Cand){t, e[1], e[2]};
                }
    search(0);
    printf("%lld %lld\n", found, nodes);
    return 0;
}
