/**
 * Datasets of prompts (and references for the quality checks), read from files into entries.
 * <p>
 * What it may import is its row, {@code workload.dataset}, in docs/ARCHITECTURE.md's table, which LayeringTest holds
 * it to; it never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.workload.dataset;
