/**
 * The server's own view of a run: its Prometheus {@code /metrics}, scraped on a thread of its own
 * ({@link io.tokenclock.telemetry.ServerMetricsScraper}), parsed ({@link io.tokenclock.telemetry.Exposition}),
 * mapped from each engine's names to common fields ({@link io.tokenclock.telemetry.EngineNames}), written to
 * {@code server_metrics.jsonl}, and summarised over the measured window
 * ({@link io.tokenclock.telemetry.ServerMetricsSummary}). Nothing here runs on the stamping path.
 * <p>
 * What it may import is its row, {@code telemetry}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to;
 * it never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.telemetry;
