/**
 * The saturation sweep's logic, free of servers and the command line: a point's figures, the knee, the maximum
 * goodput, the stop rule, the SLO search, and {@code sweep.json}.
 */
package io.tokenclock.sweep;
