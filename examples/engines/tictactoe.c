/*
 * A tic-tac-toe engine in C that speaks the Plyground engine protocol, version 1
 * (docs/guide/engine-protocol.md): one JSON object per line on standard input and output.
 *
 * Search: negamax with alpha-beta pruning over the 9 cells, iterative deepening from depth 1 to the
 * number of empty cells (a full-depth search is exact: it never loses a won or drawn position), moves
 * ordered centre, corners, edges. `nodes` counts every position visited, the root and the leaves included;
 * a `nodes` or `time` budget stops the deepening and the last completed depth answers.
 *
 * JSON is read minimally: the referee's messages are flat objects, so a key is found by its quoted name and
 * its value (a string, null or an array of strings) read after the colon. A line it cannot read is answered
 * with {"type":"error"} and the engine goes on.
 *
 * Build: cc -O2 -std=c99 -o tictactoe tictactoe.c
 * Check: plyground engine-check ./tictactoe --game tictactoe
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_LINE (1 << 20)
#define FULL 0x1ff
#define WIN 100
#define INF 1000

static const int LINES[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};
static const int ORDER[9] = {4, 0, 2, 6, 8, 1, 3, 5, 7}; /* centre, corners, edges */
static char line[MAX_LINE + 2];

/* The game: bits of X and of O (bit i is square i in reading order, a3 = 0, c1 = 8), and who moves. */
typedef struct { int x, o, mover; } Position;
static Position start_pos = {0, 0, 0}; /* the start of the current game (`new`'s start) */

static int has_line(int bits) {
    for (int i = 0; i < 8; i++)
        if ((bits & LINES[i]) == LINES[i]) return 1;
    return 0;
}

static int over(const Position *p) { return has_line(p->x) || has_line(p->o) || (p->x | p->o) == FULL; }

/* ---- search ------------------------------------------------------------------------------------ */

static long long nodes, node_limit;
static double deadline;
static int aborted;
static int pv[10][10], pv_len[10];

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Lines still open for `me` minus those open for `opp`: the static evaluation at the depth limit. */
static int evaluate(int me, int opp) {
    int score = 0;
    for (int i = 0; i < 8; i++) score += !(LINES[i] & opp) - !(LINES[i] & me);
    return score;
}

/* The value of the position for the side to move (`me` its marks, `opp` the other side's, which just moved). */
static int negamax(int me, int opp, int depth, int alpha, int beta, int ply) {
    if ((node_limit > 0 && nodes >= node_limit) || ((nodes & 1023) == 0 && deadline > 0 && now() > deadline)) {
        aborted = 1; /* the budget is spent: this node is not visited */
        return 0;
    }
    nodes++;
    pv_len[ply] = 0;
    if (has_line(opp)) return -(WIN - ply);
    if ((me | opp) == FULL) return 0;
    if (depth == 0) return evaluate(me, opp);
    int best = -INF;
    for (int k = 0; k < 9; k++) {
        int sq = ORDER[k];
        if ((me | opp) >> sq & 1) continue;
        int value = -negamax(opp, me | 1 << sq, depth - 1, -beta, -alpha, ply + 1);
        if (aborted) return 0;
        if (value > best) {
            best = value;
            pv[ply][0] = sq;
            memcpy(&pv[ply][1], pv[ply + 1], sizeof(int) * pv_len[ply + 1]);
            pv_len[ply] = 1 + pv_len[ply + 1];
        }
        if (value > alpha) alpha = value;
        if (alpha >= beta) break;
    }
    return best;
}

typedef struct { int move, score, depth, exact, line[10], line_len; long long nodes; } Result;

/* Iterative deepening from `p` within the budget (0: none); the deepest completed search answers. */
static Result search(const Position *p, long long budget_nodes, double budget_time) {
    Result r = {-1, 0, 0, 0, {0}, 0, 0};
    int me = p->mover ? p->o : p->x, opp = p->mover ? p->x : p->o;
    int empty = 9 - __builtin_popcount(p->x | p->o);
    nodes = 0;
    node_limit = budget_nodes;
    deadline = budget_time > 0 ? now() + budget_time / 2 : 0;
    for (int depth = 1; depth <= empty; depth++) {
        aborted = 0;
        int value = negamax(me, opp, depth, -INF, INF, 0);
        if (aborted && r.move >= 0) break;
        if (!aborted || r.move < 0) {
            r.score = value;
            r.depth = aborted ? depth - 1 : depth; /* a search cut short completed no depth */
            r.line_len = pv_len[0];
            memcpy(r.line, pv[0], sizeof(int) * pv_len[0]);
            r.move = pv_len[0] ? pv[0][0] : -1;
            r.exact = depth == empty && !aborted;
        }
        if (aborted) break; /* a depth that did not finish stops the deepening */
    }
    if (r.move < 0) /* even depth 1 was cut short: the first empty cell in our order */
        for (int k = 0; k < 9 && r.move < 0; k++)
            if (!((p->x | p->o) >> ORDER[k] & 1)) r.move = ORDER[k];
    r.nodes = nodes;
    return r;
}

/* ---- messages ---------------------------------------------------------------------------------- */

static void say(const char *text) {
    fputs(text, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

static void error(const char *message) {
    printf("{\"type\":\"error\",\"message\":\"%s\"}\n", message);
    fflush(stdout);
}

/* The value of `"key":` in the flat object `text`, its first character (NULL: absent). */
static const char *value_of(const char *text, const char *key) {
    char quoted[64];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    for (const char *at = strstr(text, quoted); at; at = strstr(at + 1, quoted)) {
        const char *v = at + strlen(quoted);
        while (*v == ' ' || *v == '\t') v++;
        if (*v != ':') continue;
        v++;
        while (*v == ' ' || *v == '\t') v++;
        return v;
    }
    return NULL;
}

/* Copy the JSON string at `v` (no escapes needed here) into `out`; 0 when `v` is no such string. */
static int string_at(const char *v, char *out, size_t size) {
    if (!v || *v != '"') return 0;
    size_t n = 0;
    for (v++; *v && *v != '"'; v++) {
        if (*v == '\\' || n + 1 >= size) return 0;
        out[n++] = *v;
    }
    out[n] = 0;
    return *v == '"';
}

static double number_at(const char *v) { return v ? atof(v) : 0; }

static const char *NAMES[9] = {"a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"};

static int square(const char *name) {
    for (int i = 0; i < 9; i++)
        if (!strcmp(NAMES[i], name)) return i;
    return -1;
}

static int play(Position *p, int sq) {
    if (sq < 0 || over(p) || ((p->x | p->o) >> sq & 1)) return 0;
    if (p->mover) p->o |= 1 << sq; else p->x |= 1 << sq;
    p->mover ^= 1;
    return 1;
}

/* A position's text, "XXO/.X./O.. o"; 0 when it is not one. */
static int parse_position(const char *text, Position *p) {
    Position q = {0, 0, 0};
    int i = 0;
    for (; *text && *text != ' '; text++) {
        if (*text == '/') continue;
        if (i >= 9) return 0;
        if (*text == 'X') q.x |= 1 << i; else if (*text == 'O') q.o |= 1 << i; else if (*text != '.') return 0;
        i++;
    }
    if (i != 9 || *text != ' ' || (text[1] != 'x' && text[1] != 'o')) return 0;
    q.mover = text[1] == 'o';
    *p = q;
    return 1;
}

/* The position a `go` or `solve` names: its own `start` or the game's, then its `moves`; 0 on a bad one. */
static int position_of(const char *msg, Position *p) {
    char text[64], move[16];
    const char *v = value_of(msg, "start");
    *p = start_pos;
    if (v && *v == '"' && !(string_at(v, text, sizeof text) && parse_position(text, p))) return 0;
    v = value_of(msg, "moves");
    if (!v) return 1;
    if (*v != '[') return 0;
    for (v++;;) {
        while (*v == ' ' || *v == ',') v++;
        if (*v == ']') return 1;
        if (!string_at(v, move, sizeof move) || !play(p, square(move))) return 0;
        v = strchr(v + 1, '"') + 1;
    }
}

static void stats(char *out, size_t size, const Result *r) {
    int n = snprintf(out, size, "{\"nodes\":%lld,\"depth\":%d,\"score\":%d,\"pv\":[", r->nodes, r->depth, r->score);
    for (int i = 0; i < r->line_len; i++)
        n += snprintf(out + n, size - n, "%s\"%s\"", i ? "," : "", NAMES[r->line[i]]);
    snprintf(out + n, size - n, "],\"extra\":{\"complete\":%s}}", r->exact ? "true" : "false");
}

static void answer(const char *msg) {
    char kind[32], text[64], out[512];
    if (msg[0] != '{' || !string_at(value_of(msg, "type"), kind, sizeof kind)) {
        error("not a JSON object with a type");
        return;
    }
    if (!strcmp(kind, "hello")) {
        const char *v = value_of(msg, "protocol");
        if (!v || atoi(v) != 1) {
            error("this engine speaks protocol 1");
            return;
        }
        say("{\"type\":\"hello\",\"protocol\":1,\"engine\":\"tictactoe-negamax-c\",\"version\":\"1.0\",\"params\":{}}");
    } else if (!strcmp(kind, "new")) {
        const char *v = value_of(msg, "start");
        start_pos = (Position){0, 0, 0};
        if (v && *v == '"' && !(string_at(v, text, sizeof text) && parse_position(text, &start_pos)))
            error("new: a start this engine cannot read");
    } else if (!strcmp(kind, "isready")) {
        say("{\"type\":\"readyok\"}");
    } else if (!strcmp(kind, "go") || !strcmp(kind, "solve")) {
        Position p;
        if (!position_of(msg, &p) || over(&p)) {
            error("a position this engine cannot play from");
            return;
        }
        const char *budget = value_of(msg, "budget");
        long long budget_nodes = 0;
        double budget_time = 0;
        if (budget && *budget == '{') {
            budget_nodes = (long long)number_at(value_of(budget, "nodes"));
            budget_time = number_at(value_of(budget, "time"));
        }
        Result r = search(&p, budget_nodes, budget_time);
        char figures[400];
        stats(figures, sizeof figures, &r);
        if (kind[0] == 'g') {
            snprintf(out, sizeof out, "{\"type\":\"move\",\"move\":\"%s\",\"stats\":%s}", NAMES[r.move], figures);
        } else {
            const char *value = !r.exact ? "unknown" : r.score > 0 ? "win" : r.score < 0 ? "loss" : "draw";
            snprintf(out, sizeof out, "{\"type\":\"solved\",\"value\":\"%s\",\"move\":\"%s\",\"stats\":%s}", value,
                     NAMES[r.move], figures);
        }
        say(out);
    } else if (!strcmp(kind, "quit")) {
        exit(0);
    } else {
        snprintf(out, sizeof out, "this engine does not answer '%s'", kind);
        error(out);
    }
}

int main(void) {
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strlen(line);
        if (n && line[n - 1] != '\n' && !feof(stdin)) { /* longer than the protocol allows: skip the rest */
            int c;
            while ((c = getchar()) != EOF && c != '\n') {}
            error("a line longer than 1 MiB");
            continue;
        }
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        if (n) answer(line);
    }
    return 0;
}
