/**
 * One run from options to result: probe and preflight, the self-warm-up's phase (on a client of its own to the
 * embedded simulator), readiness before t0 (pre-connection, GC), the wiring of pool, collector, request stage and load
 * generator, supervision of the window, the drain, and the result.
 * <p>
 * What it may import is its row, {@code runner}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to; it
 * never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.runner;
