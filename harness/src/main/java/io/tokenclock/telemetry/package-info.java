/**
 * The server's own view of a run: its Prometheus {@code /metrics}, scraped on a thread of its own
 * ({@link io.tokenclock.telemetry.ServerMetricsScraper}), parsed ({@link io.tokenclock.telemetry.Exposition}),
 * mapped from each engine's names to common fields ({@link io.tokenclock.telemetry.EngineNames}), written to
 * {@code server_metrics.jsonl}, and summarised over the measured window
 * ({@link io.tokenclock.telemetry.ServerMetricsSummary}). Nothing here runs on the stamping path.
 */
package io.tokenclock.telemetry;
