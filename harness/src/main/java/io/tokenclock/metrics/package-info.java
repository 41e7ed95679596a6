/**
 * What a request's stamps become: the metric definitions ({@link io.tokenclock.metrics.Metric}), their formulas,
 * and the HdrHistogram recorders and distributions. Whether the client itself was healthy during the window (wake-up
 * hiccups, GC pauses, safepoints, process CPU) is package {@code health}.
 */
package io.tokenclock.metrics;
