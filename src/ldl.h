// A sparse LDL^T factorization without fill (ldl.c): the joints' system
// (joint_solve.c) in an elimination order where each row's later
// neighbours are already neighbours of each other (a perfect elimination
// order, which the rows of a forest of joints have when they are ordered
// leaves first), so that the factors take exactly the matrix's own
// entries. In double: mass ratios of 1e6 and more stay exact.
#ifndef LEDGE_LDL_H
#define LEDGE_LDL_H

#include "core.h"

/// A symmetric positive semi-definite matrix of `n` rows, stored by rows in
/// elimination order: row k's entries with later rows are start[k] ..
/// start[k + 1] - 1 of `col` (a later row) and `val`; `diag` its diagonal.
/// ledge__ldl_factor overwrites val with L's entries and diag with D.
typedef struct ledge__ldl {
    int n;
    int *start;       ///< n + 1 entries.
    int *col;         ///< Per entry: its later row.
    double *val;      ///< Per entry: A's, then L's value.
    double *diag;     ///< Per row: A's diagonal, then D.
    double *first;    ///< Per row: A's diagonal as it was (the drop test's scale).
    uint8_t *dropped; ///< Per row: D vanished (a row dependent on earlier ones): its unknown is 0.
    int start_cap, col_cap, val_cap, diag_cap, first_cap, dropped_cap;
} ledge__ldl;

/// Room for `rows` rows and `entries` entries (kept when there is already
/// room); false when an allocation fails (the contents are not kept).
bool ledge__ldl_reserve(ledge__ldl *m, int rows, int entries);

/// Frees the matrix's arrays.
void ledge__ldl_free(ledge__ldl *m);

/// Factors the matrix in place: A = L D L^T. A row whose pivot falls to
/// `drop` times its own diagonal or less is dropped (its unknown
/// solves to 0). False when an update needs an entry the matrix lacks
/// (the order is no perfect elimination order): the factors are then
/// unusable.
bool ledge__ldl_factor(ledge__ldl *m, double drop);

/// Solves L D L^T x = b in place (x holds b on entry).
void ledge__ldl_solve(const ledge__ldl *m, double *x);

#endif // LEDGE_LDL_H
