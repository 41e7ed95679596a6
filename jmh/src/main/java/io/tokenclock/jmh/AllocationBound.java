package io.tokenclock.jmh;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The most heap bytes one operation of a benchmark may allocate in steady state, for the allocation gate
 * ({@code tools.AllocationCheck}, run by {@code ./tokenclock test}). Benchmarks without it must allocate nothing
 * (at most 1 B/op, the gate's tolerance for the counter itself).
 * <p>
 * Why a bound and not zero: per-request work off the I/O threads (a {@code requests.jsonl} line) may allocate a
 * little, but how much must be known and must not grow unnoticed, since it becomes GC work that shares the core with
 * the stamping thread. Set it from a measurement, with headroom for JVM and library versions, and say why.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface AllocationBound
{
    /** @return bytes per operation allowed. */
    int bytesPerOp();

    /** @return where the allocation comes from, and the figure it was measured at. */
    String why();
}
