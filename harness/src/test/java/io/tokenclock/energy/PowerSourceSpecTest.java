package io.tokenclock.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.tokenclock.clock.ManualNanoClock;

/** {@code --power SOURCE[:ARGS]}, and a source whose library is missing. */
final class PowerSourceSpecTest
{
    @Test
    void shouldParseEachSourceFlag()
    {
        assertEquals(new PowerSourceSpec(PowerSourceSpec.Kind.RAPL, "/sys/class/powercap", List.of(), 100,
            PowerSourceSpec.Align.WALL, 0), PowerSourceSpec.parse("rapl"));
        assertEquals(new PowerSourceSpec(PowerSourceSpec.Kind.NVML, null, List.of(0, 1), 50,
            PowerSourceSpec.Align.WALL, 0), PowerSourceSpec.parse("nvml:0,1,interval_ms=50"));
        assertEquals(new PowerSourceSpec(PowerSourceSpec.Kind.NVIDIA_SMI, "nvidia-smi", List.of(), 100,
            PowerSourceSpec.Align.WALL, 0), PowerSourceSpec.parse("nvidia-smi"));
        assertEquals(new PowerSourceSpec(PowerSourceSpec.Kind.DCGM, "http://gpu-node:9400/metrics", List.of(), 1000,
            PowerSourceSpec.Align.WALL, 0), PowerSourceSpec.parse("dcgm:http://gpu-node:9400/metrics"));
        assertEquals(new PowerSourceSpec(PowerSourceSpec.Kind.METER, "data/wall.csv", List.of(), 100,
            PowerSourceSpec.Align.RUN_START, -0.25), PowerSourceSpec.parse("meter:data/wall.csv,align=run_start," +
            "offset_s=-0.25"));
    }

    @Test
    void shouldRejectABadSourceWithOneLine()
    {
        assertEquals("power source must be one of nvml, nvidia-smi, dcgm, rapl, meter: tdp",
            assertThrows(IllegalArgumentException.class, () -> PowerSourceSpec.parse("tdp:300")).getMessage());
        assertEquals("dcgm needs the exporter's URL",
            assertThrows(IllegalArgumentException.class, () -> PowerSourceSpec.parse("dcgm")).getMessage());
        assertEquals("dcgm: the exporter's URL must be http(s) with a host",
            assertThrows(IllegalArgumentException.class, () -> PowerSourceSpec.parse("dcgm:file:///x")).getMessage());
        assertEquals("rapl: interval_ms must be in [10, 60000]: 1",
            assertThrows(IllegalArgumentException.class, () -> PowerSourceSpec.parse("rapl,interval_ms=1"))
                .getMessage());
        assertEquals("--power meter: unknown key watts",
            assertThrows(IllegalArgumentException.class, () -> PowerSourceSpec.parse("meter:x.csv,watts=3"))
                .getMessage());
        assertEquals("align must be wall or run_start: now",
            assertThrows(IllegalArgumentException.class, () -> PowerSourceSpec.parse("meter:x.csv,align=now"))
                .getMessage());
    }

    @Test
    void shouldTakeAnExportersUrlWithAQueryAndCredentialsAsOneValue()
    {
        final String url = "http://u:pw-51c2@127.0.0.1:1/metrics?t=tok-9e1f&x";
        assertEquals(new PowerSourceSpec(PowerSourceSpec.Kind.DCGM, url, List.of(), 1000,
            PowerSourceSpec.Align.WALL, 0), PowerSourceSpec.parse("dcgm:" + url));
        assertEquals(new PowerSourceSpec(PowerSourceSpec.Kind.DCGM, url, List.of(), 500,
            PowerSourceSpec.Align.WALL, 0), PowerSourceSpec.parse("dcgm:" + url + ",interval_ms=500"));
    }

    @Test
    void shouldNeverPrintTheExportersUrlInAnError()
    {
        for (final String bad : List.of("dcgm:http://u:pw-51c2@127.0.0.1:1/metrics?t=tok-9e1f,bogus=1",
            "dcgm:http://u:pw-51c2@127.0.0.1:1/metrics?t=tok-9e1f,interval_ms=tok-9e1f",
            "dcgm:ftp://u:pw-51c2@127.0.0.1:1/metrics?t=tok-9e1f", "dcgm:http://u:pw-51c2@/m?t=tok-9e1f"))
        {
            final String message = assertThrows(IllegalArgumentException.class, () -> PowerSourceSpec.parse(bad))
                .getMessage();
            assertFalse(message.contains("pw-51c2") || message.contains("tok-9e1f"), message);
        }
    }

    @Test
    void shouldReportAMissingNvmlLibraryCleanly()
    {
        final NvmlSource nvml = new NvmlSource("nvidia-ml-absent-in-this-test", List.of(), 100,
            new ManualNanoClock(0));
        assertEquals("nvml: libnvidia-ml not found (no NVIDIA driver on this machine)", nvml.unavailable());
        final EnergyMeasurement e = new PowerMeter(List.of(PowerSourceSpec.parse("nvml")), List.of(nvml))
            .measure(0, 1_000_000_000L);
        assertEquals(List.of("nvml: unavailable: libnvidia-ml not found (no NVIDIA driver on this machine)"),
            e.unavailable());
        nvml.close();
    }
}
