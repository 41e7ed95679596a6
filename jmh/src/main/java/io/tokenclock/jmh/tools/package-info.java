/**
 * Tools over the suite's results: the overhead report, the noise-aware comparison of two runs, the exact
 * allocation check, and the planted slowdown its self-test uses.
 */
package io.tokenclock.jmh.tools;
