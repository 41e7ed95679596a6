/**
 * What a request's stamps become: the metric definitions ({@link io.tokenclock.metrics.Metric}), their formulas,
 * the HdrHistogram recorders and distributions, and the client-health monitors (wake-up hiccups, GC pauses,
 * safepoints, process CPU) that say whether the client itself was healthy during the window.
 */
package io.tokenclock.metrics;
