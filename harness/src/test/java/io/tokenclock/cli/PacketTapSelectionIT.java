package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.accuracy.TruthScript;
import io.tokenclock.accuracy.TruthServer;
import io.tokenclock.transport.kernel.KernelStamps;
import io.tokenclock.transport.kernel.PacketTap;

/**
 * The packet tap's default, end to end: {@code tokenclock run} with default flags takes the tap where the process may
 * open a packet socket (as root here) and says nothing; the same run without {@code CAP_NET_RAW} (started under
 * {@code setpriv}, which drops it from the bounding set, so root itself may not open one) stamps as before and says
 * why in one line; {@code --packet-tap off} opens nothing and says nothing. Each records its choice and reason in
 * {@code measurement.stamping.packet_tap}. Needs root and util-linux's {@code setpriv}; skips in one line otherwise.
 */
@Timeout(300)
@Tag("slow") // three JVMs of their own: skipped by -Pfast
final class PacketTapSelectionIT
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NO_TAP = "stamping: no packet tap (";

    @TempDir
    Path dir;

    /** One run: its console and its {@code measurement.stamping.packet_tap}. */
    private record Run(String console, JsonNode tap)
    {
        long noTapLines()
        {
            return console.lines().filter(l -> l.startsWith(NO_TAP)).count();
        }
    }

    private Run run(final String name, final List<String> prefix, final List<String> flags) throws Exception
    {
        try (TruthServer server = TruthServer.start(TruthServer.Options.of(TruthScript.fixed(0, 2, 30))
            .withIoThreads(1)))
        {
            final Path out = dir.resolve(name);
            final List<String> command = new ArrayList<>(prefix);
            command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                System.getProperty("tokenclock.jvmFlags"), "-Dtokenclock.selfWarmup=false", "-Dtokenclock.tty=0",
                "-jar", "target/tokenclock.jar", "run", "--url", server.baseUrl(), "--model", "m", "--concurrency",
                "2", "--requests", "4", "--max-tokens", "30", "--ignore-eos", "--no-progress", "--server-metrics",
                "off", "--timeout", "60", "--output-dir", out.toString()));
            command.addAll(flags);
            final Path console = dir.resolve(name + ".txt");
            final Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(console.toFile())
                .start();
            final boolean ended = p.waitFor(200, TimeUnit.SECONDS);
            if (!ended)
            {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            final String said = Files.readString(console, StandardCharsets.UTF_8);
            assertTrue(ended && p.exitValue() == 0, "the run ended well: " + said);
            return new Run(said, JSON.readTree(out.resolve("record.json").toFile()).path("measurement")
                .path("stamping").path("packet_tap"));
        }
    }

    @Test
    void shouldTapByDefaultWhereItMaySayWhyNotWhereItMayNotAndStayQuietWhenOff() throws Exception
    {
        assumeTrue(KernelStamps.unavailableReason() == null, "PacketTapSelectionIT skipped: kernel stamps: " +
            KernelStamps.unavailableReason());
        assumeTrue(PacketTap.privilegeReason() == null, "PacketTapSelectionIT skipped: " +
            PacketTap.privilegeReason());
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "PacketTapSelectionIT skipped: no " +
            "/usr/bin/setpriv (util-linux) to drop CAP_NET_RAW with");

        final Run privileged = run("privileged", List.of(), List.of());
        assertEquals("auto", privileged.tap().path("selection").asText(), privileged.tap().toString());
        assertEquals("lo", privileged.tap().path("interface").asText());
        assertTrue(privileged.tap().path("reason").asText().startsWith("auto: a packet socket may be opened"),
            privileged.tap().toString());
        assertTrue(privileged.tap().path("reads").asLong() > 0, "its reads took the tap's stamps: " +
            privileged.tap());
        assertEquals(0, privileged.noTapLines(), privileged.console());

        final Run unprivileged = run("unprivileged", List.of("/usr/bin/setpriv", "--inh-caps=-net_raw",
            "--bounding-set=-net_raw", "--"), List.of());
        assertEquals("auto", unprivileged.tap().path("selection").asText());
        assertTrue(unprivileged.tap().path("reason").asText().startsWith("auto: a packet tap needs CAP_NET_RAW"),
            unprivileged.tap().toString());
        assertTrue(unprivileged.tap().path("reads").isMissingNode(), "no tap, no tap counts");
        assertEquals(1, unprivileged.noTapLines(), "one line: " + unprivileged.console());

        final Run off = run("off", List.of(), List.of("--packet-tap", "off"));
        assertEquals("off", off.tap().path("selection").asText());
        assertEquals("--packet-tap off", off.tap().path("reason").asText());
        assertNull(off.tap().get("reads"));
        assertEquals(0, off.noTapLines(), off.console());
    }
}
