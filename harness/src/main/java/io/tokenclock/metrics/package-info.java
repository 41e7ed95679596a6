/**
 * What a request's stamps become: the metric definitions ({@link io.tokenclock.metrics.Metric}), their formulas,
 * and the HdrHistogram recorders and distributions. Whether the client itself was healthy during the window (wake-up
 * hiccups, GC pauses, safepoints, process CPU) is package {@code health}.
 * <p>
 * What it may import is its row, {@code metrics}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to; it
 * never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.metrics;
