/**
 * The per-chunk and per-request path: the reusable request slots and the pool that caps requests in flight, the
 * stream recorder on the I/O thread, the Agrona ring of chunk records, the collector that drains it, and the request
 * stage that derives each finished request's metrics and counters and writes its {@code requests.jsonl} line. What a
 * request is judged against (SLOs, goodput, per-group figures) is policy, in package {@code goodput}, which the stage
 * reaches through {@link io.tokenclock.recording.RequestVerdicts} and {@link io.tokenclock.recording.RequestGroup}.
 * <p>
 * What it may import is its row, {@code recording}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to;
 * it never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.recording;
