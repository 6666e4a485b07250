/* Exact solvers for Twaalven en veertienen and Stapelen (Jogledor), the
 * compiled twin of the pure-Python searches in engine/twaalven/solver.py and
 * engine/stapelen/solver.py.  Both implement the SAME depth-first search: the
 * same move generation and ordering, the same table of positions proven dead,
 * the same node counting and budget, so they return identical answers
 * (status, node count and witness line).  tests/engine/test_solvers_native.py
 * checks that on many deals.
 *
 * Positions: ranks[52] = rank (1..13) of card (column c, layer l) at c*4+l,
 * bottom to top; heights[13] = cards left per column.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- a growable open-addressing set of nonzero 64-bit keys ---------------- */
typedef struct {
    uint64_t *slots;
    size_t mask;
    size_t count;
    int oom;
} keyset;

static int ks_init(keyset *s, size_t cap) {
    s->slots = (uint64_t *)calloc(cap, sizeof(uint64_t));
    s->mask = cap - 1;
    s->count = 0;
    s->oom = 0;
    return s->slots != NULL;
}

static void ks_free(keyset *s) { free(s->slots); s->slots = NULL; }

static inline size_t ks_hash(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return (size_t)k;
}

static inline int ks_has(const keyset *s, uint64_t k) {
    size_t i = ks_hash(k) & s->mask;
    for (;;) {
        uint64_t v = s->slots[i];
        if (v == k) return 1;
        if (v == 0) return 0;
        i = (i + 1) & s->mask;
    }
}

static void ks_put_raw(uint64_t *slots, size_t mask, uint64_t k) {
    size_t i = ks_hash(k) & mask;
    while (slots[i] != 0) {
        if (slots[i] == k) return;
        i = (i + 1) & mask;
    }
    slots[i] = k;
}

static void ks_add(keyset *s, uint64_t k) {
    if ((s->count + 1) * 2 > s->mask + 1) {
        size_t cap = (s->mask + 1) * 2;
        uint64_t *n = (uint64_t *)calloc(cap, sizeof(uint64_t));
        if (n == NULL) { s->oom = 1; return; }  /* keep going without the table */
        for (size_t i = 0; i <= s->mask; i++)
            if (s->slots[i]) ks_put_raw(n, cap - 1, s->slots[i]);
        free(s->slots);
        s->slots = n;
        s->mask = cap - 1;
    }
    size_t before = s->count;
    size_t i = ks_hash(k) & s->mask;
    while (s->slots[i] != 0) {
        if (s->slots[i] == k) return;
        i = (i + 1) & s->mask;
    }
    s->slots[i] = k;
    s->count = before + 1;
}

enum { R_LOSS = 0, R_WIN = 1, R_ABORT = 2 };

/* ---- Twaalven en veertienen ----------------------------------------------- */
static signed char TW_TYPE[2][14][14]; /* [mover is 14][rank][rank] -> pair type or -1 */
static const int TW_PATH[13] = {6, 8, 4, 10, 2, 12, 13, 1, 11, 3, 9, 5, 7};

static void tw_tables(void) {
    memset(TW_TYPE, -1, sizeof(TW_TYPE));
    TW_TYPE[0][6][6] = 0;
    for (int i = 0; i < 12; i++) {
        int a = TW_PATH[i], b = TW_PATH[i + 1];
        int fourteen = (i % 2 == 0);
        TW_TYPE[fourteen][a][b] = TW_TYPE[fourteen][b][a] = (signed char)(i + 1);
    }
    TW_TYPE[1][7][7] = 13;
}

typedef struct {
    unsigned char ranks[52];
    unsigned char h[13];
    unsigned char need[14];
    unsigned char line[64];
    int depth;
    long long nodes, budget;
    keyset dead;
} tw_ctx;

static int tw_dfs(tw_ctx *x, uint64_t key, int mover14, int left) {
    if (left == 0) return R_WIN;
    if (x->dead.count && ks_has(&x->dead, key)) return R_LOSS;
    if (++x->nodes > x->budget) return R_ABORT;
    signed char (*tab)[14] = TW_TYPE[mover14];
    int tc[13], tr[13], nt = 0;
    for (int c = 0; c < 13; c++)
        if (x->h[c]) { tc[nt] = c; tr[nt] = x->ranks[c * 4 + x->h[c] - 1]; nt++; }
    for (int i = 0; i < nt; i++) {
        int a = tc[i];
        signed char *row = tab[tr[i]];
        for (int j = i + 1; j < nt; j++) {
            int t = row[tr[j]];
            if (t < 0 || x->need[t] == 0) continue;
            int b = tc[j];
            x->need[t]--; x->h[a]--; x->h[b]--;
            x->line[x->depth * 2] = (unsigned char)a;
            x->line[x->depth * 2 + 1] = (unsigned char)b;
            x->depth++;
            int r = tw_dfs(x, key - (1ULL << (3 * a)) - (1ULL << (3 * b)), !mover14, left - 2);
            if (r != R_LOSS) return r;
            x->depth--;
            x->need[t]++; x->h[a]++; x->h[b]++;
        }
    }
    ks_add(&x->dead, key);
    return R_LOSS;
}

/* ranks 1..13 and heights 0..4, else a ValueError (the tables are indexed by them) */
static int valid_tableau(const unsigned char *ranks, const unsigned char *heights) {
    for (int i = 0; i < 52; i++)
        if (ranks[i] < 1 || ranks[i] > 13) return 0;
    for (int c = 0; c < 13; c++)
        if (heights[c] > 4) return 0;
    return 1;
}

static PyObject *py_twaalven_search(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer ranks, heights, need;
    int mover14;
    long long budget;
    if (!PyArg_ParseTuple(args, "y*y*y*pL", &ranks, &heights, &need, &mover14, &budget)) return NULL;
    if (ranks.len != 52 || heights.len != 13 || need.len != 14 ||
        !valid_tableau((const unsigned char *)ranks.buf, (const unsigned char *)heights.buf)) {
        PyBuffer_Release(&ranks); PyBuffer_Release(&heights); PyBuffer_Release(&need);
        PyErr_SetString(PyExc_ValueError, "ranks[52], heights[13], need[14] expected");
        return NULL;
    }
    tw_ctx *x = (tw_ctx *)calloc(1, sizeof(tw_ctx));
    if (!x || !ks_init(&x->dead, 1 << 12)) {
        free(x);
        PyBuffer_Release(&ranks); PyBuffer_Release(&heights); PyBuffer_Release(&need);
        return PyErr_NoMemory();
    }
    memcpy(x->ranks, ranks.buf, 52);
    memcpy(x->h, heights.buf, 13);
    memcpy(x->need, need.buf, 14);
    PyBuffer_Release(&ranks); PyBuffer_Release(&heights); PyBuffer_Release(&need);
    x->budget = budget;
    uint64_t key = 0;
    int left = 0;
    for (int c = 0; c < 13; c++) { key |= (uint64_t)x->h[c] << (3 * c); left += x->h[c]; }
    int r;
    Py_BEGIN_ALLOW_THREADS
    r = tw_dfs(x, key, mover14, left);
    Py_END_ALLOW_THREADS
    PyObject *line = PyBytes_FromStringAndSize((const char *)x->line, r == R_WIN ? x->depth * 2 : 0);
    PyObject *out = Py_BuildValue("iLNn", r, x->nodes, line, (Py_ssize_t)x->dead.count);
    ks_free(&x->dead);
    free(x);
    return out;
}

/* ---- Stapelen ---------------------------------------------------------------- */
static const int ST_PRED[14] = {0, 13, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

typedef struct {
    unsigned char ranks[52];
    unsigned char h[13];
    unsigned char f[2][3];
    unsigned char line[128];
    int depth;
    long long nodes, budget;
    keyset dead;
} st_ctx;

static inline uint64_t st_tops_key(const unsigned char *t) {
    unsigned a = t[0], b = t[1], c = t[2], s;
    if (a > b) { s = a; a = b; b = s; }
    if (b > c) { s = b; b = c; c = s; }
    if (a > b) { s = a; a = b; b = s; }
    return (uint64_t)a | ((uint64_t)b << 4) | ((uint64_t)c << 8);
}

static inline int st_has(const unsigned char *t, int v) { return t[0] == v || t[1] == v || t[2] == v; }
static inline int st_index(const unsigned char *t, int v) { return t[0] == v ? 0 : (t[1] == v ? 1 : 2); }

static int st_dfs(st_ctx *x, uint64_t hkey, int p, int left) {
    if (left == 0) return R_WIN;
    uint64_t key = hkey | (st_tops_key(x->f[0]) << 39) | (st_tops_key(x->f[1]) << 51);
    if (x->dead.count && ks_has(&x->dead, key)) return R_LOSS;
    if (++x->nodes > x->budget) return R_ABORT;
    unsigned char *fp = x->f[p], *fo = x->f[1 - p];
    /* moves: (score, column, foundation); stable by generation order within a score */
    int mc[26], mi[26], ms[26], n = 0;
    int other_empty = st_has(fo, 0);
    for (int c = 0; c < 13; c++) {
        int hc = x->h[c];
        if (!hc) continue;
        int r = x->ranks[c * 4 + hc - 1];
        int ufit = 0;
        if (hc > 1) {
            int u = x->ranks[c * 4 + hc - 2];
            ufit = other_empty || st_has(fo, ST_PRED[u]);
        }
        int pr = ST_PRED[r];
        if (st_has(fp, pr)) { mc[n] = c; mi[n] = st_index(fp, pr); ms[n] = 2 + ufit; n++; }
        if (st_has(fp, 0)) { mc[n] = c; mi[n] = st_index(fp, 0); ms[n] = ufit; n++; }
    }
    for (int score = 3; score >= 0; score--) {
        for (int k = 0; k < n; k++) {
            if (ms[k] != score) continue;
            int c = mc[k], i = mi[k];
            int old = fp[i];
            fp[i] = x->ranks[c * 4 + x->h[c] - 1];
            x->h[c]--;
            x->line[x->depth * 2] = (unsigned char)c;
            x->line[x->depth * 2 + 1] = (unsigned char)i;
            x->depth++;
            int r = st_dfs(x, hkey - (1ULL << (3 * c)), 1 - p, left - 1);
            if (r != R_LOSS) return r;
            x->depth--;
            x->h[c]++;
            fp[i] = (unsigned char)old;
        }
    }
    ks_add(&x->dead, key);
    return R_LOSS;
}

static PyObject *py_stapelen_search(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer ranks, heights, tops;
    int mover;
    long long budget;
    if (!PyArg_ParseTuple(args, "y*y*y*iL", &ranks, &heights, &tops, &mover, &budget)) return NULL;
    int tops_ok = tops.len == 6;
    for (int i = 0; tops_ok && i < 6; i++)
        if (((const unsigned char *)tops.buf)[i] > 13) tops_ok = 0;
    if (ranks.len != 52 || heights.len != 13 || !tops_ok || (mover != 0 && mover != 1) ||
        !valid_tableau((const unsigned char *)ranks.buf, (const unsigned char *)heights.buf)) {
        PyBuffer_Release(&ranks); PyBuffer_Release(&heights); PyBuffer_Release(&tops);
        PyErr_SetString(PyExc_ValueError, "ranks[52], heights[13], tops[6], mover 0/1 expected");
        return NULL;
    }
    st_ctx *x = (st_ctx *)calloc(1, sizeof(st_ctx));
    if (!x || !ks_init(&x->dead, 1 << 12)) {
        free(x);
        PyBuffer_Release(&ranks); PyBuffer_Release(&heights); PyBuffer_Release(&tops);
        return PyErr_NoMemory();
    }
    memcpy(x->ranks, ranks.buf, 52);
    memcpy(x->h, heights.buf, 13);
    memcpy(x->f[0], tops.buf, 3);
    memcpy(x->f[1], (const char *)tops.buf + 3, 3);
    PyBuffer_Release(&ranks); PyBuffer_Release(&heights); PyBuffer_Release(&tops);
    x->budget = budget;
    uint64_t hkey = 0;
    int left = 0;
    for (int c = 0; c < 13; c++) { hkey |= (uint64_t)x->h[c] << (3 * c); left += x->h[c]; }
    int r;
    Py_BEGIN_ALLOW_THREADS
    r = st_dfs(x, hkey, mover, left);
    Py_END_ALLOW_THREADS
    PyObject *line = PyBytes_FromStringAndSize((const char *)x->line, r == R_WIN ? x->depth * 2 : 0);
    PyObject *out = Py_BuildValue("iLNn", r, x->nodes, line, (Py_ssize_t)x->dead.count);
    ks_free(&x->dead);
    free(x);
    return out;
}

static PyMethodDef methods[] = {
    {"twaalven_search", py_twaalven_search, METH_VARARGS,
     "twaalven_search(ranks, heights, need, mover14, budget) -> (status, nodes, line, dead)"},
    {"stapelen_search", py_stapelen_search, METH_VARARGS,
     "stapelen_search(ranks, heights, tops, mover, budget) -> (status, nodes, line, dead)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "Compiled Jogledor solvers.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    tw_tables();
    return PyModule_Create(&module);
}
