package io.tokenclock.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The render's quoting, read back by what reads it: every string but one holding a NUL, {@link Shell#quote}d, is
 * read back by {@code sh} and {@code bash} as itself; every directive value {@link SlurmScript#directive} lets
 * through is read back by sbatch's parser (both generations of it, ported below) as itself; every string in a
 * manifest or Secret is read back by a YAML parser as itself. The strings are drawn from what breaks quoting: quotes
 * of both kinds, backslashes, {@code $}, backquotes, globs, {@code #}, {@code %}, line breaks (LF, CR, NEL, U+2028),
 * control characters, YAML's indicators and document markers, and non-ASCII text.
 */
final class RenderQuotingProperties
{
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String NASTY = "'\"\\$`*?[]{}()<>|&;!~#%=:,-. \t\n\r\u000b\u000c\u0001\u001b\u007f" +
        "\u0085\u00a0\u2028\u2029\ufeff\u00e9\u4e2d";

    @Provide
    Arbitrary<String> anything()
    {
        return Arbitraries.strings().withChars(NASTY).withCharRange('a', 'z').ofMaxLength(24);
    }

    /** What may sit on one line: no control character, no line break. */
    @Provide
    Arbitrary<String> oneLine()
    {
        return Arbitraries.strings().withChars("'\"\\$`*?#% :=,\u00a0\u00e9\u4e2d").withCharRange('a', 'z')
            .ofMinLength(1).ofMaxLength(24).filter(s -> !s.toLowerCase().contains("hetjob") &&
                !s.toLowerCase().contains("packjob"));
    }

    @Property(tries = 150)
    void shouldReadBackEveryQuotedWordAsItselfInShAndBash(@ForAll("anything") final String a,
        @ForAll("anything") final String b) throws Exception
    {
        final String script = "printf '%s\\0' " + Shell.quote(a) + " " + Shell.quote(b) + "\n";
        for (final String shell : List.of("sh", "bash"))
        {
            assertEquals(List.of(a, b), run(shell, script), shell + " read back " + script);
        }
    }

    @Property(tries = 1000)
    void shouldReadBackEveryDirectiveValueAsItselfInBothSbatchParsers(@ForAll("oneLine") final String value)
    {
        final String line = "--output=" + SlurmScript.directive("--output-dir", value) + " # a comment";
        assertEquals(List.of("--output=" + value), sbatchArguments(line, true), line);
        assertEquals(List.of("--output=" + value), sbatchArguments(line, false), line);
    }

    /** What a manifest may hold: anything but NEL, LS and PS, YAML 1.1's own line breaks (RenderChecks.yaml). */
    @Provide
    Arbitrary<String> yamlText()
    {
        return anything().map(s -> s.replace("\u0085", "").replace("\u2028", "").replace("\u2029", ""));
    }

    @Property(tries = 300)
    void shouldReadBackEveryManifestStringAsItselfInYaml(@ForAll("yamlText") final String contract,
        @ForAll("yamlText") final String command, @ForAll("yamlText") final String argument) throws IOException
    {
        final ShardJob job = new ShardJob("bench", 2, List.of("-H", argument), K8sManifests.RESULTS_DIR,
            Instant.parse("2030-01-01T00:00:00Z"), 1, command, JobCredentials.of(List.of("-H", argument), Map.of()));
        final K8sManifests.Cluster cluster = new K8sManifests.Cluster("tokenclock:1", "bench", "c.yaml", contract,
            "5Gi", null, 60, true);
        final List<JsonNode> objects = documents(K8sManifests.render(job, cluster));
        final JsonNode env = objects.get(1).path("spec").path("template").path("spec").path("containers").get(0)
            .path("env");
        assertEquals(command, env.get(0).path("value").asText());
        final JsonNode secret = YAML.readTree(K8sManifests.secret(job, cluster));
        assertEquals(contract, secret.path("stringData").path("c.yaml").asText());
        assertEquals(argument, secret.path("stringData").path(JobCredentials.ARG_PREFIX + 1).asText());
        final K8sManifests.Cluster inConfigMap = new K8sManifests.Cluster("tokenclock:1", "bench", "c.yaml",
            contract, "5Gi", null, 60, false);
        assertEquals(contract, documents(K8sManifests.render(job, inConfigMap)).get(0).path("data").path("c.yaml")
            .asText());
    }

    @Property(tries = 100)
    void shouldExportEveryCredentialAsItselfFromTheSlurmSecretsFile(@ForAll("anything") final String value)
        throws Exception
    {
        final ShardJob job = new ShardJob("bench", 2, List.of("-H", value), "/shared/out", null, 1, "tokenclock",
            JobCredentials.of(List.of("-H", value), Map.of("OPENAI_API_KEY", value + "k")));
        final String script = SlurmScript.secretsFile(job) + "printf '%s\\0' \"$" + JobCredentials.ARG_PREFIX +
            "1\" \"$OPENAI_API_KEY\"\n";
        assertEquals(List.of(value, value + "k"), run("bash", script));
    }

    private static List<JsonNode> documents(final String yaml) throws IOException
    {
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(yaml))
        {
            return it.readAll();
        }
    }

    /** @return the NUL-separated words {@code script} prints under {@code shell}. */
    private static List<String> run(final String shell, final String script) throws Exception
    {
        final Path file = Files.createTempFile("quoting", ".sh");
        try
        {
            Files.writeString(file, script, StandardCharsets.UTF_8);
            final Process p = new ProcessBuilder(shell, file.toString()).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
            final byte[] out = p.getInputStream().readAllBytes();
            assertTrue(p.waitFor(10, TimeUnit.SECONDS));
            final String text = new String(out, StandardCharsets.UTF_8);
            assertTrue(text.endsWith("\0"), shell + " printed: " + text);
            return Arrays.asList(text.substring(0, text.length() - 1).split("\0", -1));
        }
        finally
        {
            Files.delete(file);
        }
    }

    /**
     * sbatch's reading of an {@code #SBATCH} line's arguments, ported from its {@code _get_argument} (src/sbatch/opt.c,
     * Slurm, GPL-2.0; read, not copied): {@code modern} as Slurm 17.11 and later read it (a backslash escapes, single
     * and double quotes group, an unescaped {@code #} ends the line), else as before (only the double quote toggles).
     */
    static List<String> sbatchArguments(final String line, final boolean modern)
    {
        final List<String> args = new ArrayList<>();
        int i = 0;
        boolean comment = false;
        while (!comment)
        {
            while (i < line.length() && line.charAt(i) == ' ')
            {
                i++;
            }
            if (i >= line.length())
            {
                break;
            }
            final StringBuilder arg = new StringBuilder();
            boolean escape = false;
            char quote = 0;
            for (; i < line.length() && (quote != 0 || line.charAt(i) != ' '); i++)
            {
                final char c = line.charAt(i);
                if (escape)
                {
                    escape = false;
                }
                else if (c == '\\')
                {
                    escape = true;
                    continue;
                }
                else if (quote != 0 && c == quote)
                {
                    quote = 0;
                    continue;
                }
                else if (quote == 0 && (c == '"' || (modern && c == '\'')))
                {
                    quote = c;
                    continue;
                }
                else if (quote == 0 && c == '#')
                {
                    comment = true;
                    break;
                }
                arg.append(c);
            }
            assertEquals(0, quote, "an unmatched quote in: " + line);
            if (!arg.isEmpty())
            {
                args.add(arg.toString());
            }
        }
        return args;
    }
}
