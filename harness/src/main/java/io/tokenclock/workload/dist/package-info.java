/**
 * Length distributions (fixed, uniform, Gaussian, log-normal, mixtures, empirical, correlated) for prompts and
 * answers, each seeded and reproducible.
 * <p>
 * It imports no other tokenclock package: its row, {@code workload.dist}, in docs/ARCHITECTURE.md's table, which
 * LayeringTest holds it to.
 */
package io.tokenclock.workload.dist;
