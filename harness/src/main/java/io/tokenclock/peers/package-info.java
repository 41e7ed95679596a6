/**
 * The peers' result files read into tokenclock's types ({@link io.tokenclock.peers.Peers}): vLLM's
 * {@code bench serve}, SGLang's {@code bench_serving}, AIPerf's and GuideLLM's exports, each told by its shape. A
 * {@link io.tokenclock.peers.PeerRun} keeps the peer's own figures beside a typed record whose distributions are
 * recomputed under tokenclock's definitions from the file's per-request data, in memory bounded by the requests,
 * never by the file; a file that is not what it claims is one line ({@link io.tokenclock.peers.PeerFormatException}).
 * <p>
 * What it may import is its row, {@code peers}, in docs/ARCHITECTURE.md's table, which {@code LayeringTest} holds it
 * to; it never imports {@code results}, {@code compare}, {@code report} or {@code cli}: {@code results} opens a
 * peer's file through this package, not the other way round.
 */
package io.tokenclock.peers;
