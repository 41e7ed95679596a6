package io.tokenclock.workload.dataset;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.lifecycle.AfterProperty;

/**
 * A dataset file is user input, and may be anything: random bytes (not even UTF-8), or a valid line of each format
 * with characters changed. Loading it either succeeds or fails with {@link IllegalArgumentException}, the one clear
 * line and exit 2 of the CLI; never with any other exception.
 */
final class DatasetProperties
{
    private final Path file;

    DatasetProperties() throws IOException
    {
        file = Files.createTempFile("tokenclock-dataset", ".jsonl");
    }

    @AfterProperty
    void delete() throws IOException
    {
        Files.deleteIfExists(file);
    }

    private void load(final byte[] content, final String format) throws IOException
    {
        Files.write(file, content);
        try
        {
            Datasets.load(file, format);
        }
        catch (final IllegalArgumentException expected)
        {
            // the one clear line
        }
    }

    @Property(tries = 500)
    void shouldLoadOrRefuseRandomBytes(@ForAll @Size(max = 300) final byte[] content,
        @ForAll @From("formats") final String format) throws IOException
    {
        load(content, format);
    }

    @Property(tries = 1000)
    void shouldLoadOrRefuseMutatedLines(@ForAll @StringLength(max = 6) final String insert,
        @ForAll final int where, @ForAll @From("formats") final String format) throws IOException
    {
        final String valid = switch (format)
        {
            case "sharegpt" -> "[{\"conversations\":[{\"from\":\"human\",\"value\":\"hi\"},{\"from\":\"gpt\"," +
                "\"value\":\"hello\"}]}]";
            case "mooncake" -> "{\"timestamp\":0,\"input_length\":10,\"output_length\":5,\"hash_ids\":[1,2]}";
            default -> "{\"prompt\":\"hi there\",\"output_tokens\":5}";
        };
        final int at = Math.floorMod(where, valid.length() + 1);
        load((valid.substring(0, at) + insert + valid.substring(at)).getBytes(StandardCharsets.UTF_8),
            format);
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<String> formats()
    {
        return net.jqwik.api.Arbitraries.of(Datasets.FORMATS);
    }
}
