/**
 * The saturation sweep's logic, free of servers and the command line: a point's figures, the knee, the maximum
 * goodput, the stop rule, the SLO search, and {@code sweep.json}.
 * <p>
 * What it may import is its row, {@code sweep}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to; it
 * never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.sweep;
