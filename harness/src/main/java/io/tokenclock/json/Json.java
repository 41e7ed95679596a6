package io.tokenclock.json;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one JSON mapper of the harness, configured once here, instead of a mapper per class (there were 29): every
 * package that reads a JSON tree or writes one takes {@link #MAPPER}, and {@link #PRETTY} where a file is written for
 * people to read. A mapper is thread-safe once configured and costly to build (its serializer caches are per
 * instance), so one is both cheaper and the one place its behaviour is set: Jackson's defaults, that is, unknown
 * properties fail a bind, and a bare {@code NaN} is refused.
 * <p>
 * Never reconfigure it ({@code configure}, {@code enable}, {@code registerModule}): that would change every caller's
 * behaviour, and is not thread-safe once in use. For a different configuration take an {@code ObjectReader} or
 * {@code ObjectWriter} from it ({@code MAPPER.reader().with(...)}), which are immutable. Files with a documented
 * configuration of their own keep their mapper: {@code results.record.RecordJson} (the typed results, read leniently),
 * {@code peers.PeerFile} (Python's bare {@code Infinity}), and the YAML and CSV mappers of {@code contract},
 * {@code deploy} and {@code report.CsvFiles}.
 */
public final class Json
{
    /** The harness's mapper, with Jackson's defaults. */
    public static final ObjectMapper MAPPER = JsonMapper.builder().build();

    /** {@link #MAPPER}'s writer with the default pretty printer: what {@code INDENT_OUTPUT} wrote, two-space indent. */
    public static final ObjectWriter PRETTY = MAPPER.writerWithDefaultPrettyPrinter();

    private Json()
    {
    }
}
