/**
 * Results read back from disk: {@link io.tokenclock.results.Results#open} opens any output directory by its
 * {@code index.json} (or, written before it, by the file it holds), or a peer tool's file, as a sealed
 * {@link io.tokenclock.results.Result}: one run, a repetition set, a sweep, an A/B, a merged run, an imported file;
 * every kind gives its runs as typed records. Also the rules every writer of a result directory shares:
 * {@code index.json} ({@link io.tokenclock.results.Index}), no result overwritten without {@code --force}
 * ({@link io.tokenclock.results.OutputDir}), and whether a {@code requests.jsonl} belongs to its record
 * ({@link io.tokenclock.results.RequestsFile}). The typed records themselves are {@code results.record}; one run's
 * result in memory, before it is written, is package {@code run}.
 * <p>
 * What it may import is its row, {@code results}, in docs/ARCHITECTURE.md's table, which {@code LayeringTest} holds
 * it to; it never imports {@code run}, {@code runner}, {@code report} or {@code cli}: what a directory holds is read
 * from its files alone.
 */
package io.tokenclock.results;
