/**
 * Statistics of repetitions and A/B comparisons: the bootstrap, distribution-free order-statistic bounds on
 * quantiles, and the outlier rule.
 * <p>
 * It imports no other tokenclock package: its row, {@code stats}, in docs/ARCHITECTURE.md's table, which LayeringTest
 * holds it to.
 */
package io.tokenclock.stats;
