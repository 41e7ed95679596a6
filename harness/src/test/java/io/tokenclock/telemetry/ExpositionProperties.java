package io.tokenclock.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * A server's metrics page is untrusted: random text, and valid expositions with characters flipped or cut, go through
 * the parser. It never throws, never reports more errors than lines, and never lets a control character into an
 * error message. Valid sample lines, generated with escaped labels, survive any malformed lines mixed in between
 * them exactly: each is read back as written, and each malformed line is one counted error.
 */
final class ExpositionProperties
{
    /** Lines that break the format in one way each. */
    private static final List<String> MALFORMED = List.of("bad{", "bad{a=\"x} 1", "bad{a=x} 1", "bad{=\"x\"} 1",
        "bad{a=\"x\",a=\"y\"} 1", "bad{a=\"\\q\"} 1", "0bad 1", "bad 1 2 3", "bad", "bad 0x1F", "bad one",
        "# TYPE", "# TYPE x nonsense", "bad{a=\"x\"}", "{a=\"x\"} 1", "bad 1 NaN", "bad 1 1e", "bad{a=\"x\" 1");

    @Property(tries = 2000)
    void shouldParseAnyTextWithoutThrowing(@ForAll @Size(max = 300) final String text)
    {
        final Scrape s = Exposition.parse(text);

        final long lines = text.chars().filter(c -> c == '\n').count() + 1;
        assertTrue(s.errorCount() + s.samples().size() <= lines, "one sample or one error per line at most");
        assertTrue(s.errors().size() <= Exposition.MAX_ERRORS_KEPT);
        for (final Scrape.ParseError e : s.errors())
        {
            assertTrue(e.message().chars().noneMatch(c -> c < 0x20 || c == 0x7f), e.message());
        }
    }

    @Property(tries = 1500)
    void shouldParseMutatedExpositionsWithoutThrowing(@ForAll("mutated") final String text)
    {
        final Scrape s = Exposition.parse(text);

        assertEquals(Math.min(s.errorCount(), Exposition.MAX_ERRORS_KEPT), s.errors().size(),
            "every malformed line counted, the first of them kept");
        int previousLine = 0;
        for (final Scrape.ParseError e : s.errors())
        {
            assertTrue(e.line() > previousLine, "kept in line order, one per line: " + s.errors());
            previousLine = e.line();
        }
        EngineNames.map(s);
        for (final Sample sample : s.samples())
        {
            assertFalse(sample.name().isEmpty());
            Exposition.parse(sample.series() + " 1");
        }
    }

    @Property(tries = 1000)
    void shouldReadEveryValidLineExactlyWhateverMalformedLinesSitBetween(
        @ForAll("validLines") final List<Line> valid, @ForAll("malformedIndexes") final List<Integer> bad)
    {
        final List<String> text = new ArrayList<>();
        int inserted = 0;
        for (int i = 0; i < valid.size(); i++)
        {
            if (i < bad.size())
            {
                text.add(MALFORMED.get(bad.get(i)));
                inserted++;
            }
            text.add(valid.get(i).text());
        }
        final Scrape s = Exposition.parse(String.join("\n", text) + "\n");

        assertEquals(inserted, s.errorCount(), s.errors().toString());
        assertEquals(valid.size(), s.samples().size());
        for (int i = 0; i < valid.size(); i++)
        {
            final Sample sample = s.samples().get(i);
            assertEquals(valid.get(i).name(), sample.name());
            assertEquals(valid.get(i).labels(), sample.labels());
            assertEquals(Double.doubleToLongBits(valid.get(i).value()), Double.doubleToLongBits(sample.value()));
            assertEquals(Exposition.parse(sample.series() + " 0").samples().get(0).labels(), sample.labels(),
                "series() writes the labels back so that they read the same");
        }
    }

    /** A valid sample line and what it says. */
    record Line(String name, Map<String, String> labels, double value, String text)
    {
    }

    @Provide
    Arbitrary<List<Line>> validLines()
    {
        final Arbitrary<String> names = Arbitraries.strings().withChars("abcxyz_:").ofMinLength(1).ofMaxLength(8)
            .map(n -> "m" + n);
        final Arbitrary<String> labelValues = Arbitraries.strings().withChars("ab \\\"\n{}=,#é").ofMaxLength(8);
        final Arbitrary<Map<String, String>> labels = Arbitraries.maps(Arbitraries.strings().withChars("lkq_")
            .ofMinLength(1).ofMaxLength(4), labelValues).ofMaxSize(3).map(LinkedHashMap::new);
        final Arbitrary<Double> values = Arbitraries.oneOf(Arbitraries.doubles(), Arbitraries.of(Double.NaN,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0, -0.0, 1e300, 4.9e-324));
        final Arbitrary<String> blanks = Arbitraries.of(" ", "\t", "  ", " \t ");
        return Combinators.combine(names, labels, values, blanks, Arbitraries.of(true, false))
            .as((name, l, value, blank, timestamp) ->
            {
                final Sample s = new Sample(name, l, value, Double.NaN);
                final String number = Double.isNaN(value) ? "NaN" : Double.isInfinite(value) ?
                    (value > 0 ? "+Inf" : "-Inf") : Double.toString(value).replace("E", "e");
                return new Line(name, l, value, s.series() + blank + number + (timestamp ? " 1712345678901" : ""));
            }).list().ofMaxSize(12);
    }

    @Provide
    Arbitrary<List<Integer>> malformedIndexes()
    {
        return Arbitraries.integers().between(0, MALFORMED.size() - 1).list().ofMaxSize(12);
    }

    @Provide
    Arbitrary<String> mutated()
    {
        final byte[] valid = ("# HELP vllm:x a \\\\ help\n# TYPE vllm:x histogram\n" +
            "vllm:x_bucket{le=\"0.1\",model_name=\"m\\\"q\"} 3 1712345678901\nvllm:x_bucket{le=\"+Inf\"} 4\n" +
            "vllm:x_sum 0.5\nvllm:x_count 4\nvllm:num_requests_running{a=\"b\",} NaN\n# EOF\n")
            .getBytes(StandardCharsets.UTF_8);
        return Arbitraries.integers().between(0, valid.length - 1).list().ofMaxSize(10).flatMap(positions ->
            Arbitraries.bytes().list().ofSize(positions.size()).map(values ->
            {
                final byte[] b = valid.clone();
                for (int i = 0; i < positions.size(); i++)
                {
                    b[positions.get(i)] = values.get(i);
                }
                return b;
            })).flatMap(b -> Arbitraries.integers().between(0, b.length).map(cut ->
                new String(Arrays.copyOf(b, cut), StandardCharsets.UTF_8)));
    }
}
