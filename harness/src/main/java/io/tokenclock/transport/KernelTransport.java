package io.tokenclock.transport;

import java.util.function.Consumer;

import io.tokenclock.clock.SystemNanoClock;
import io.tokenclock.transport.kernel.KernelStamps;

/**
 * The kernel-stamped transport: epoll loops of its own over FFM, each read a {@code recvmsg} stamped by the kernel
 * ({@link KernelStreamClient}, {@link KernelLoop}, {@link KernelConnection}). Linux on x86-64, on the run's own
 * clock ({@code System.nanoTime()}, to which the kernel's stamps are converted).
 */
final class KernelTransport implements Transport
{
    /** The name in {@code record.json}. */
    static final String NAME = "kernel";

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Stamping stamping()
    {
        return Stamping.KERNEL;
    }

    /** @return why the kernel-stamped client cannot serve these settings here, or null when it can. */
    @Override
    public String unavailable(final ClientSettings settings)
    {
        if (settings.clock() != SystemNanoClock.INSTANCE)
        {
            return "the run's clock is not System.nanoTime()";
        }
        return KernelStamps.unavailableReason();
    }

    @Override
    public StreamClient open(final ClientSettings settings, final Consumer<String> note)
    {
        return new KernelStreamClient(settings, note);
    }
}
