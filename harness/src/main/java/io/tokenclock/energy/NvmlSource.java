package io.tokenclock.energy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

import io.tokenclock.clock.NanoClock;

/**
 * NVIDIA GPUs through NVML ({@code libnvidia-ml}, the driver's own library) over JNA: each device's total energy
 * counter ({@code nvmlDeviceGetTotalEnergyConsumption}, mJ since the driver loaded; Volta and later) where supported,
 * else its power ({@code nvmlDeviceGetPowerUsage}, mW). Without the library (no NVIDIA driver) the source is
 * unavailable: {@code libnvidia-ml not found}. Measures the GPUs of the machine tokenclock runs on.
 * <p>
 * Thread-safety: {@link #poll} is synchronized; NVML itself is thread-safe.
 */
final class NvmlSource extends PolledSource
{
    /** NVML's success and not-supported return codes. */
    private static final int NVML_SUCCESS = 0;
    private static final int NVML_ERROR_NOT_SUPPORTED = 3;
    private static final double J_PER_MJ = 1e-3;
    private static final double W_PER_MW = 1e-3;
    /** NVML's library, {@code libnvidia-ml.so.1} on Linux. */
    static final String LIBRARY = "nvidia-ml";

    /** The part of NVML's C API this source calls. JNA binds by name, so the methods carry NVML's C names. */
    @SuppressWarnings("checkstyle:MethodName")
    interface Nvml extends Library
    {
        int nvmlInit_v2();

        int nvmlShutdown();

        int nvmlDeviceGetCount_v2(IntByReference count);

        int nvmlDeviceGetHandleByIndex_v2(int index, PointerByReference device);

        int nvmlDeviceGetTotalEnergyConsumption(Pointer device, LongByReference energyMj);

        int nvmlDeviceGetPowerUsage(Pointer device, IntByReference milliwatts);

        String nvmlErrorString(int result);
    }

    /** One device: its handle, whether its energy counter works, and its channel. */
    private record Device(Pointer handle, boolean counter, Channel channel)
    {
    }

    private final List<Integer> indices;
    private final List<Device> devices = new ArrayList<>();
    private Nvml nvml;
    private boolean initialized;
    private String unavailable;

    /** @param indices the devices to read; empty for all. */
    NvmlSource(final List<Integer> indices, final long intervalMs, final NanoClock clock)
    {
        this(LIBRARY, indices, intervalMs, clock);
    }

    /** @param library the library's name as JNA loads it (tests name one that does not exist). */
    NvmlSource(final String library, final List<Integer> indices, final long intervalMs, final NanoClock clock)
    {
        super("nvml", intervalMs, clock);
        this.indices = List.copyOf(indices);
        nvml = load(library);
        if (nvml == null)
        {
            unavailable = "nvml: libnvidia-ml not found (no NVIDIA driver on this machine)";
            return;
        }
        unavailable = open();
    }

    /** @return NVML, or null: the driver installs only {@code libnvidia-ml.so.1}, which JNA may not find alone. */
    private static Nvml load(final String library)
    {
        for (final String name : library.equals(LIBRARY) ? List.of(LIBRARY, "libnvidia-ml.so.1") : List.of(library))
        {
            try
            {
                return Native.load(name, Nvml.class);
            }
            catch (final LinkageError ex)
            {
                // try the next name
            }
        }
        return null;
    }

    private String open()
    {
        final int init = nvml.nvmlInit_v2();
        if (init != NVML_SUCCESS)
        {
            return "nvml: nvmlInit failed: " + nvml.nvmlErrorString(init);
        }
        initialized = true;
        final IntByReference count = new IntByReference();
        final int counted = nvml.nvmlDeviceGetCount_v2(count);
        if (counted != NVML_SUCCESS)
        {
            return "nvml: cannot count devices: " + nvml.nvmlErrorString(counted);
        }
        final List<Integer> wanted = new ArrayList<>(indices);
        if (wanted.isEmpty())
        {
            for (int i = 0; i < count.getValue(); i++)
            {
                wanted.add(i);
            }
        }
        for (final int i : wanted)
        {
            final String failure = addDevice(i, count.getValue());
            if (failure != null)
            {
                return failure;
            }
        }
        return devices.isEmpty() ? "nvml: no device" : null;
    }

    private String addDevice(final int index, final int count)
    {
        if (index < 0 || index >= count)
        {
            return "nvml: no device " + index + " (" + count + " found)";
        }
        final PointerByReference handle = new PointerByReference();
        final int got = nvml.nvmlDeviceGetHandleByIndex_v2(index, handle);
        if (got != NVML_SUCCESS)
        {
            return "nvml: device " + index + ": " + nvml.nvmlErrorString(got);
        }
        final int energy = nvml.nvmlDeviceGetTotalEnergyConsumption(handle.getValue(), new LongByReference());
        final int power = nvml.nvmlDeviceGetPowerUsage(handle.getValue(), new IntByReference());
        if (energy != NVML_SUCCESS && power != NVML_SUCCESS)
        {
            return "nvml: device " + index + " reports neither energy nor power: " + nvml.nvmlErrorString(
                energy == NVML_ERROR_NOT_SUPPORTED ? power : energy);
        }
        devices.add(new Device(handle.getValue(), energy == NVML_SUCCESS,
            new Channel("nvml:" + index, Component.ACCELERATOR, J_PER_MJ)));
        return null;
    }

    @Override
    synchronized void poll(final long nowNs)
    {
        for (final Device d : devices)
        {
            if (d.counter())
            {
                final LongByReference mj = new LongByReference();
                final int r = nvml.nvmlDeviceGetTotalEnergyConsumption(d.handle(), mj);
                if (r == NVML_SUCCESS)
                {
                    d.channel().addEnergy(nowNs, mj.getValue() * J_PER_MJ);
                    continue;
                }
                d.channel().note("nvml: " + d.channel().id() + ": " + nvml.nvmlErrorString(r));
            }
            final IntByReference mw = new IntByReference();
            final int r = nvml.nvmlDeviceGetPowerUsage(d.handle(), mw);
            if (r == NVML_SUCCESS)
            {
                d.channel().addPower(nowNs, mw.getValue() * W_PER_MW);
            }
            else
            {
                d.channel().note("nvml: " + d.channel().id() + ": " + nvml.nvmlErrorString(r));
            }
        }
    }

    @Override
    public String describe()
    {
        return String.format(Locale.ROOT, "NVML (libnvidia-ml via JNA) on this machine, devices %s: total energy " +
            "counter where supported, else power", indices.isEmpty() ? "all" : indices);
    }

    @Override
    public List<Channel> channels(final long windowStartNs)
    {
        final List<Channel> list = new ArrayList<>();
        devices.forEach(d -> list.add(d.channel()));
        return list;
    }

    @Override
    public String unavailable()
    {
        return unavailable;
    }

    @Override
    public void close()
    {
        super.close();
        if (initialized)
        {
            nvml.nvmlShutdown();
            initialized = false;
        }
    }
}
