/**
 * Per-request policy, kept out of the hot path: the service-level objective ({@link io.tokenclock.goodput.Slo}),
 * every measured request's verdict against it and its group's, tallied per constraint and settled with the quality
 * verdicts after the window ({@link io.tokenclock.goodput.GoodputBook}, {@code GoodputTally}, {@code GoodputCounts}),
 * and each group's own figures ({@link io.tokenclock.goodput.GroupStats}). The request stage of package
 * {@code recording} calls them through its {@code RequestVerdicts} and {@code RequestGroup} seams, once per measured
 * request and without allocating; it knows no SLO.
 * <p>
 * What it may import is its row, {@code goodput}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to; it
 * never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.goodput;
