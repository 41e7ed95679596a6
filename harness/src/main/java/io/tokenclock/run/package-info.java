/**
 * One run's result in memory, as the runner builds it and before anything is written: what a finished run measured,
 * the input of every report. {@link io.tokenclock.run.RunResult} and its named parts, the client machine
 * ({@link io.tokenclock.run.ClientHost}), the server's identity ({@link io.tokenclock.run.ServerInfo}), the
 * readiness before t0, a shard's place in its run, and the answer text decoded from the kept bytes. Results read back
 * from disk are package {@code results}; the typed {@code record.json} is {@code results.record}.
 * <p>
 * What it may import is its row, {@code run}, in docs/ARCHITECTURE.md's table, which {@code LayeringTest} holds it
 * to; it never imports {@code runner}, {@code report}, {@code results} or {@code cli}: a result is data that those
 * read, and knows nothing of how it was measured or how it will be shown.
 */
package io.tokenclock.run;
