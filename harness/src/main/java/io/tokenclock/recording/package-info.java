/**
 * The per-chunk and per-request path: the reusable request slots and the pool that caps requests in flight, the
 * stream recorder on the I/O thread, the Agrona ring of chunk records, the collector that drains it, and the request
 * stage that derives each finished request's metrics, counters, goodput and its {@code requests.jsonl} line.
 */
package io.tokenclock.recording;
