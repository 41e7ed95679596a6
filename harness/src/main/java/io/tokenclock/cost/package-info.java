/**
 * The price model and what a run's usage and successes cost under it ({@code cost} in the record); no I/O.
 * <p>
 * It imports no other tokenclock package: its row, {@code cost}, in docs/ARCHITECTURE.md's table, which LayeringTest
 * holds it to.
 */
package io.tokenclock.cost;
