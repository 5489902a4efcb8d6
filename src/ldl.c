// A sparse LDL^T factorization without fill (ldl.h), right-looking: each
// row's pivot scales its entries into L's, then updates the entries among
// its later neighbours, which a perfect elimination order guarantees to
// exist.
#include "ldl.h"
#include "array.h"

bool ledge__ldl_reserve(ledge__ldl *m, int rows, int entries) {
    return LEDGE__RESERVE(m->start, m->start_cap, rows + 1, 0, 64) &&
           LEDGE__RESERVE(m->diag, m->diag_cap, rows, 0, 64) &&
           LEDGE__RESERVE(m->first, m->first_cap, rows, 0, 64) &&
           LEDGE__RESERVE(m->dropped, m->dropped_cap, rows, 0, 64) &&
           LEDGE__RESERVE(m->col, m->col_cap, entries, 0, 64) &&
           LEDGE__RESERVE(m->val, m->val_cap, entries, 0, 64);
}

void ledge__ldl_free(ledge__ldl *m) {
    ledge__free(m->start);
    ledge__free(m->col);
    ledge__free(m->val);
    ledge__free(m->diag);
    ledge__free(m->dropped);
    ledge__free(m->first);
    memset(m, 0, sizeof *m);
}

// The entry of row i with later row j, or -1.
static int entry_of(const ledge__ldl *m, int i, int j) {
    for (int e = m->start[i]; e < m->start[i + 1]; ++e) {
        if (m->col[e] == j) return e;
    }
    return -1;
}

bool ledge__ldl_factor(ledge__ldl *m, double drop) {
    for (int k = 0; k < m->n; ++k) m->first[k] = m->diag[k];
    for (int k = 0; k < m->n; ++k) {
        double d = m->diag[k];
        int e0 = m->start[k], e1 = m->start[k + 1];
        m->dropped[k] = !(d > drop * m->first[k]);
        if (m->dropped[k]) {
            for (int e = e0; e < e1; ++e) m->val[e] = 0.0;
            continue;
        }
        for (int e = e0; e < e1; ++e) m->val[e] /= d;
        // The Schur complement among the later neighbours: A_ij -= L_ik d L_jk.
        for (int e = e0; e < e1; ++e) {
            int i = m->col[e];
            double li = m->val[e] * d;
            m->diag[i] -= li * m->val[e];
            for (int f = e + 1; f < e1; ++f) {
                int j = m->col[f];
                int at = i < j ? entry_of(m, i, j) : entry_of(m, j, i);
                if (at < 0) return false;
                m->val[at] -= li * m->val[f];
            }
        }
    }
    return true;
}

void ledge__ldl_solve(const ledge__ldl *m, double *x) {
    for (int k = 0; k < m->n; ++k) {
        if (m->dropped[k]) {
            x[k] = 0.0;
            continue;
        }
        for (int e = m->start[k]; e < m->start[k + 1]; ++e) x[m->col[e]] -= m->val[e] * x[k];
    }
    for (int k = 0; k < m->n; ++k) {
        if (!m->dropped[k]) x[k] /= m->diag[k];
    }
    for (int k = m->n - 1; k >= 0; --k) {
        if (m->dropped[k]) continue;
        double s = x[k];
        for (int e = m->start[k]; e < m->start[k + 1]; ++e) s -= m->val[e] * x[m->col[e]];
        x[k] = s;
    }
}
