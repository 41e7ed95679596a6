package io.tokenclock.run;

/**
 * What the runner did before t0 to be ready (self-warm-up, pre-connection, GC), for the record.
 *
 * @param warmupRequests requests of the self-warm-up (0 when off).
 * @param warmupChunks   chunks the self-warm-up received.
 * @param warmupS        seconds it took.
 * @param jitMsInWarmup  JIT compilation time spent during it, ms (summed over compiler threads).
 * @param preconnected   connections opened before t0.
 * @param preconnectS    seconds that took.
 * @param gcBeforeT0Ms   the full collection's duration, ms.
 * @param compilerDrainMs how long the last drain waited for the JIT's compiler threads to fall idle, ms (0 without
 *                       a self-warm-up).
 * @param compilerThreadsIdle JIT compiler threads moved to the idle scheduling class before t0.
 * @param aotCache       whether the JVM ran with an AOT cache: {@code used}, {@code refused} or {@code none}
 *                       ({@code health.AotCache}).
 */
public record ReadinessReport(long warmupRequests, long warmupChunks, double warmupS, double jitMsInWarmup,
    int preconnected, double preconnectS, double gcBeforeT0Ms, double compilerDrainMs, int compilerThreadsIdle,
    String aotCache)
{
    public static final ReadinessReport NONE = new ReadinessReport(0, 0, 0, 0, 0, 0, 0, 0, 0, "none");
}
