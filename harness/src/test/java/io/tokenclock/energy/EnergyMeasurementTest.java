package io.tokenclock.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The boundary made of what was measured, and the total inside it. */
final class EnergyMeasurementTest
{
    private static Integral joules(final double j, final double error)
    {
        return new Integral("counter", j, error, 10, 100, 100, null);
    }

    @Test
    void shouldAddAcceleratorCpuAndDramIntoOneBoundary()
    {
        final EnergyMeasurement e = EnergyMeasurement.of(List.of("nvml", "rapl"), List.of(
            new EnergyMeasurement.Part("rapl:package-0", Component.CPU, true, joules(300, 1)),
            new EnergyMeasurement.Part("nvml:0", Component.ACCELERATOR, true, joules(2000, 5)),
            new EnergyMeasurement.Part("nvml:1", Component.ACCELERATOR, true, joules(1800, 5)),
            new EnergyMeasurement.Part("rapl:dram-0", Component.DRAM, true, joules(100, 1))), List.of(), 10);
        assertEquals("accelerator + CPU + DRAM", e.boundary());
        assertEquals(4200.0, e.joules(), 1e-9);
        assertEquals(12.0, e.uncertaintyJoules(), 1e-9);
        assertEquals(420.0, e.averageWatts(), 1e-9);
        assertEquals("accelerator + CPU + DRAM (accelerator: nvml:0, nvml:1; CPU: rapl:package-0; DRAM: " +
            "rapl:dram-0)", e.powerBoundary());
    }

    @Test
    void shouldTakeAWallMetersBoundaryAndNotAddWhatIsInsideIt()
    {
        final EnergyMeasurement e = EnergyMeasurement.of(List.of("meter", "nvml"), List.of(
            new EnergyMeasurement.Part("nvml:0", Component.ACCELERATOR, true, joules(2000, 5)),
            new EnergyMeasurement.Part("meter:wall.csv", Component.WALL, true, joules(5000, 50))), List.of(), 10);
        assertEquals("wall", e.boundary());
        assertEquals(5000.0, e.joules(), 1e-9);
        assertFalse(e.parts().get(0).inBoundary(), "the GPU is inside the wall meter's boundary");
    }

    @Test
    void shouldNarrowTheBoundaryToWhatCouldBeReadAndSaySo()
    {
        final EnergyMeasurement e = EnergyMeasurement.of(List.of("nvml", "rapl"), List.of(
            new EnergyMeasurement.Part("nvml:0", Component.ACCELERATOR, true, joules(2000, 5)),
            new EnergyMeasurement.Part("rapl:package-0", Component.CPU, true, Integral.unavailable("no readings"))),
            List.of("dcgm: unavailable: refused"), 10);
        assertEquals("accelerator", e.boundary());
        assertEquals(List.of("dcgm: unavailable: refused", "rapl:package-0: unavailable: no readings"),
            e.unavailable());
        final EnergyMeasurement none = EnergyMeasurement.of(List.of("nvml"), List.of(), List.of("nvml: unavailable: " +
            "x"), 10);
        assertNull(none.joules());
        assertNull(none.powerBoundary());
    }
}
