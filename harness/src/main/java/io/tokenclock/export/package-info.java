/**
 * Results written in other tools' formats: {@code tokenclock export --format llmd-report} maps any result that
 * {@code results.Results} opens (a run, repetitions, a sweep, an A/B, a merged run, a peer's file) onto llm-d's
 * Benchmark Report ({@link io.tokenclock.export.LlmdReport}). It reads records and {@code requests.jsonl}, and writes
 * nothing of its own: the command writes what it returns. What the format cannot hold stays in tokenclock's files
 * (docs/RESULTS.md, "llm-d Benchmark Report").
 * <p>
 * What it may import is its row, {@code export}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to; it
 * never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.export;
