package io.tokenclock.architecture;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Dependencies point one way: the measurement core (clock, framing, recording, metrics, load) takes bytes and a clock
 * and knows nothing of Netty, JSON trees, the CLI, reports or the runner, so that JMH can drive it alone and another
 * transport can reuse it. The shared helpers (util) are held to the same rule, so that the core may use them. This reads the core's sources and fails on any import that breaks the rule.
 */
final class CoreDependencyTest
{
    private static final List<String> FORBIDDEN = List.of(
        "io.netty.", "com.fasterxml.", "picocli.", "io.tokenclock.transport.", "io.tokenclock.report.",
        "io.tokenclock.runner.", "io.tokenclock.cli.", "io.tokenclock.workload.", "io.tokenclock.fixtures.");

    @ParameterizedTest
    @ValueSource(strings = {"clock", "framing", "recording", "metrics", "load", "util"})
    void shouldKeepCorePackageFreeOfTransportJsonCliAndReports(final String pkg) throws IOException
    {
        final Path dir = Path.of("src/main/java/io/tokenclock", pkg);
        assertTrue(Files.isDirectory(dir), "missing package directory " + dir.toAbsolutePath());
        final List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir))
        {
            for (final Path file : files.filter(f -> f.toString().endsWith(".java")).toList())
            {
                for (final String line : Files.readAllLines(file))
                {
                    final String l = line.strip();
                    if (l.startsWith("import ") && FORBIDDEN.stream().anyMatch(f -> l.contains(" " + f) ||
                        l.contains("static " + f)))
                    {
                        violations.add(file.getFileName() + ": " + l);
                    }
                    if (!l.startsWith("import ") && !l.startsWith("*") && !l.startsWith("//") &&
                        FORBIDDEN.stream().anyMatch(l::contains))
                    {
                        violations.add(file.getFileName() + " (qualified use): " + l);
                    }
                }
            }
        }
        assertTrue(violations.isEmpty(), "core package " + pkg + " depends on the outer layers: " + violations);
    }
}
