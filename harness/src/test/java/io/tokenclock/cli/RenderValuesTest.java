package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every value {@code slurm render} and {@code k8s render} put into a script or a manifest, given what its place
 * cannot hold: one line naming the flag, exit 2, nothing printed and no credentials file written. What a place can
 * hold is quoted instead ({@code ShardRenderTest}, {@code RenderQuotingProperties}); these are the values no quoting
 * represents: a line break on a line of its own (a comment, an {@code #SBATCH} directive), a NUL anywhere, a lone
 * surrogate in UTF-8 text, Slurm's own reserved characters and words, and what the Kubernetes API refuses.
 */
final class RenderValuesTest
{
    private static final String START = "2030-01-01T00:00:00Z";
    private static final String CONTRACT = Path.of("..", "examples", "chat-slo.yaml").toString();
    private static final String URL = "http://vllm.bench.svc:8000/v1";

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path tmp;

    /** Each case: the flags after the command (a credential among the run's, so a file would be written), the line. */
    static Stream<Arguments> slurmFields()
    {
        return Stream.of(
            Arguments.of(List.of("--output-dir", "/shared/c4\ntouch /tmp/pwned"), "--output-dir holds a line break"),
            Arguments.of(List.of("--output-dir", "/shared/c4\rx"), "--output-dir holds a line break"),
            Arguments.of(List.of("--output-dir", "/shared/c4\u001b]0;x\u0007"), "--output-dir holds a control char"),
            Arguments.of(List.of("--output-dir", "/shared/c4\u0085"), "--output-dir holds a control character"),
            Arguments.of(List.of("--output-dir", "/shared/c\0"), "--output-dir holds a NUL byte"),
            Arguments.of(List.of("--output-dir", "/shared/a\\b"), "--output-dir holds a backslash"),
            Arguments.of(List.of("--output-dir", "/shared/hetjob-4"), "--output-dir holds the word 'hetjob'"),
            Arguments.of(List.of("--output-dir", "/shared/PackJob"), "--output-dir holds the word 'hetjob' or " +
                "'packjob'"),
            Arguments.of(List.of("--tokenclock", "/opt/tc\0"), "--tokenclock holds a NUL byte"),
            Arguments.of(List.of("--tokenclock", "/opt/\ud800tc"), "--tokenclock holds a lone UTF-16 surrogate"),
            Arguments.of(List.of("--secrets-file", "/tmp/s\n.env"), "--secrets-file holds a line break"),
            Arguments.of(List.of("--name", "Bench One"), "--name must be lowercase letters"),
            Arguments.of(List.of("--start-at", "soon"), "--start-at must be an ISO-8601 UTC time"),
            Arguments.of(List.of("--cpus-per-task", "0"), "--cpus-per-task must be >= 1"),
            Arguments.of(List.of("--", "--model", "m\0"), "the run's argument 2 (after --) holds a NUL byte"),
            Arguments.of(List.of("--", "--model", "m\udc00"), "the run's argument 2 (after --) holds a lone"));
    }

    static Stream<Arguments> k8sFields()
    {
        return Stream.of(
            Arguments.of(List.of("--namespace", "Bench"), "--namespace must be a DNS-1123 label"),
            Arguments.of(List.of("--namespace", "bench\nkind: Pod"), "--namespace must be a DNS-1123 label"),
            Arguments.of(List.of("--image", "registry.example/tc:1 --privileged"), "--image must be an image " +
                "reference without spaces"),
            Arguments.of(List.of("--image", "tc:1\nsecurityContext: {}"), "--image holds a line break"),
            Arguments.of(List.of("--image", ""), "--image must be an image reference"),
            Arguments.of(List.of("--storage", "5 GB"), "--storage must be a Kubernetes quantity"),
            Arguments.of(List.of("--storage", "lots"), "--storage must be a Kubernetes quantity"),
            Arguments.of(List.of("--storage-class", "Fast_NFS"), "--storage-class must be a DNS-1123 subdomain"),
            Arguments.of(List.of("--merge-timeout", "0"), "--merge-timeout must be >= 1 s"),
            Arguments.of(List.of("--start-in", "-5"), "--start-in must be >= 0 s"),
            Arguments.of(List.of("--tokenclock", "tokenclock\0"), "--tokenclock holds a NUL byte"),
            Arguments.of(List.of("--tokenclock", "token\u0085clock"), "--tokenclock holds U+0085, a line break to " +
                "YAML 1.1"),
            Arguments.of(List.of("--", "--model", "m:\u2028b"), "the run's argument 2 (after --) holds U+2028"),
            Arguments.of(List.of("--name", "x".repeat(43)), "--name must be lowercase letters"),
            Arguments.of(List.of("--", "--model", "m\0"), "the run's argument 2 (after --) holds a NUL byte"));
    }

    @ParameterizedTest
    @MethodSource("slurmFields")
    void shouldRefuseASlurmValueItsPlaceCannotHoldWithOneLine(final List<String> flags, final String expected)
    {
        final List<String> args = new ArrayList<>(List.of("slurm", "render", "--shards", "2"));
        refused(args, flags, expected, "--start-at", START, "--secrets-file", tmp.resolve("secrets.env").toString(),
            "--output-dir", tmp.resolve("out").toString());
    }

    @ParameterizedTest
    @MethodSource("k8sFields")
    void shouldRefuseAKubernetesValueTheApiOrYamlCannotHoldWithOneLine(final List<String> flags, final String expected)
    {
        final List<String> args = new ArrayList<>(List.of("k8s", "render", "--shards", "2", "--config", CONTRACT));
        refused(args, flags, expected, "--start-at", START, "--secrets-file", tmp.resolve("secrets.env").toString());
    }

    @Test
    void shouldRefuseAContractThatIsNotUtf8TextWithOneLine() throws Exception
    {
        final Path contract = tmp.resolve("latin1.yaml");
        Files.write(contract, "name: caf\u00e9\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        final List<String> args = new ArrayList<>(List.of("k8s", "render", "--shards", "2", "--config",
            contract.toString(), "--start-at", START));
        refused(args, List.of(), "latin1.yaml");
    }

    /**
     * Adds the case's {@code flags}, then each {@code defaults} pair whose flag the case did not give, then the run's
     * arguments (one a credential, so that a file would be written), and checks the refusal.
     */
    private void refused(final List<String> args, final List<String> flags, final String expected,
        final String... defaults)
    {
        for (int i = 0; i < defaults.length; i += 2)
        {
            if (!flags.contains(defaults[i]))
            {
                args.addAll(List.of(defaults[i], defaults[i + 1]));
            }
        }
        args.addAll(flags);
        if (!flags.contains("--"))
        {
            args.add("--");
        }
        args.addAll(List.of("--url", URL, "--rate", "4", "--duration", "5", "-H", "X-Api-Key: k-refused-1"));
        assertEquals(Main.EXIT_USAGE, Main.execute(args.toArray(String[]::new)), console.err());
        final String err = console.err().strip();
        assertEquals(1, err.lines().count(), "one line: " + err);
        assertTrue(err.startsWith("tokenclock: ") && err.contains(expected), err);
        assertFalse(err.contains("k-refused-1"), err);
        assertEquals("", console.out(), "nothing printed");
        assertFalse(Files.exists(tmp.resolve("secrets.env")), "no credentials file left behind");
    }
}
