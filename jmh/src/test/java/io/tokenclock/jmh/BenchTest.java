package io.tokenclock.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

final class BenchTest
{
    @Test
    void shouldCarryTheRepositoryJvmFlagsIntoTheJar() throws IOException
    {
        final String file = Files.readString(Path.of("..", "jvm.flags"), StandardCharsets.UTF_8);
        assertEquals(Bench.parse(file), Bench.flags());
        assertTrue(Bench.flags().contains("--add-exports"), "Agrona's export");
    }

    @Test
    void shouldSkipCommentsAndBlankLinesWhenParsingTheArgfile()
    {
        assertEquals(List.of("--add-exports", "a=b", "-XX:+X"),
            Bench.parse("# why\n\n--add-exports a=b # more\n-XX:+X\n"));
    }

    @Test
    void shouldPrependTheFlagsToEveryForkAheadOfTheUsersArguments()
    {
        assertArrayEquals(new String[] {"-jvmArgsPrepend", "-a b=c", "PerChunk", "-f", "1"},
            Bench.withFlags(new String[] {"PerChunk", "-f", "1"}, List.of("-a", "b=c")));
        assertArrayEquals(new String[] {"-l"}, Bench.withFlags(new String[] {"-l"}, List.of()));
    }
}
