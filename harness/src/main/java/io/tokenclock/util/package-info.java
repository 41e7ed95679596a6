/**
 * Small helpers that several layers share and that depend on nothing else in tokenclock, so that any package may use
 * them without a dependency cycle (e.g. {@code load} and {@code workload}, where {@code workload} already depends on
 * {@code load}).
 * <p>
 * It imports no other tokenclock package: its row, {@code util}, in docs/ARCHITECTURE.md's table, which LayeringTest
 * holds it to.
 */
package io.tokenclock.util;
