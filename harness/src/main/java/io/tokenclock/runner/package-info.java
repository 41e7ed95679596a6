/**
 * One run from options to result: probe and preflight, readiness before t0 (self-warm-up, pre-connection, GC), the
 * wiring of pool, collector, request stage and load generator, supervision of the window, the drain, and the result.
 */
package io.tokenclock.runner;
