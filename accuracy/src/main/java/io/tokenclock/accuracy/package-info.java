/**
 * Ground truth for measuring the harness itself (docs/ACCURACY.md): {@link io.tokenclock.accuracy.TruthServer}
 * streams scripted chunks (fixed TTFT, gaps, tokens per chunk) from exact deadlines and records when each chunk was
 * due and actually written, stamping the send time into the chunk ({@code tc_sent_ns}) and into a truth log;
 * {@link io.tokenclock.accuracy.JdkBaselineClient} is a plain {@code java.net.http} client for comparison;
 * {@link io.tokenclock.accuracy.AccuracyReport} joins a client's {@code requests.jsonl} with the truth log and reports
 * the client's delay and inter-chunk error against the server's stamps, all on the machine's one CLOCK_MONOTONIC.
 * The package is named for the module ({@code tokenclock-accuracy}); the harness's own ground-truth tests
 * ({@code GroundTruthIT}) share it.
 */
package io.tokenclock.accuracy;
