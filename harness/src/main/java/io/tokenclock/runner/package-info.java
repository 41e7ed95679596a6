/**
 * One run from options to result: probe and preflight, the self-warm-up's phase (on a client of its own to the
 * embedded simulator), readiness before t0 (pre-connection, GC), the wiring of pool, collector, request stage and load
 * generator, supervision of the window, the drain, and the result.
 */
package io.tokenclock.runner;
