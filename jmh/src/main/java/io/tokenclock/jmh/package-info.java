/**
 * The JMH suite: the harness measuring itself, one benchmark class per stage of the per-chunk and per-request
 * path, each opening with the question it answers; {@link io.tokenclock.jmh.Bench} is the jar's entry point.
 */
package io.tokenclock.jmh;
