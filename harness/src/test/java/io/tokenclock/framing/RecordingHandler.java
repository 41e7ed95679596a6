package io.tokenclock.framing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Test handler that copies every framed event, since the framer's buffer is only valid during the callback.
 */
final class RecordingHandler implements SseEventHandler
{
    /** One event as the framer delivered it. */
    record Event(byte[] data, boolean errorType, long arrivalNs)
    {
        String text()
        {
            return new String(data, StandardCharsets.UTF_8);
        }

        /** The (data, errorType) pair, with value equality, for comparing parses. */
        Payload payload()
        {
            return new Payload(text(), errorType);
        }

        @Override
        public boolean equals(final Object o)
        {
            return o instanceof Event e && Arrays.equals(data, e.data) && errorType == e.errorType &&
                arrivalNs == e.arrivalNs;
        }

        @Override
        public int hashCode()
        {
            return Arrays.hashCode(data) * 31 + Long.hashCode(arrivalNs) + (errorType ? 1 : 0);
        }

        @Override
        public String toString()
        {
            return "Event[" + text() + ", error=" + errorType + ", at=" + arrivalNs + "]";
        }
    }

    /** What an event carries, ignoring when it arrived. */
    record Payload(String data, boolean errorType)
    {
    }

    final List<Event> events = new ArrayList<>();

    @Override
    public void onEvent(final byte[] data, final int offset, final int length, final boolean errorType, final long ns)
    {
        events.add(new Event(Arrays.copyOfRange(data, offset, offset + length), errorType, ns));
    }

    List<String> texts()
    {
        return events.stream().map(Event::text).toList();
    }

    List<Payload> payloads()
    {
        return events.stream().map(Event::payload).toList();
    }

    List<Long> stamps()
    {
        return events.stream().map(Event::arrivalNs).toList();
    }
}
