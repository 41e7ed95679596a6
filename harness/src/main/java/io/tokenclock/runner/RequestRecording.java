package io.tokenclock.runner;

import java.io.IOException;
import java.nio.file.Path;
import java.text.ParseException;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;

import io.tokenclock.recording.RequestMetrics;
import io.tokenclock.recording.RequestSlot;

/**
 * {@code --jfr-events}: a JFR recording of the run, {@code requests.jfr} in the run directory, with the JDK's
 * {@code default} settings (GC, safepoints, threads, about 1% overhead) and one {@link RequestEvent} per finished
 * request. The events that would carry the environment, arguments or command lines are disabled, as in
 * {@code --profile}'s recording. Off by default: without the flag no event is created.
 */
final class RequestRecording implements AutoCloseable
{
    static final String FILE = "requests.jfr";

    private final Recording recording;

    private RequestRecording(final Recording recording)
    {
        this.recording = recording;
    }

    /** Starts the recording into {@code dir/requests.jfr}. */
    static RequestRecording start(final Path dir) throws IOException
    {
        try
        {
            final Recording r = new Recording(Configuration.getConfiguration("default"));
            for (final String event : ProfilerSession.SECRET_BEARING_EVENTS)
            {
                r.disable(event);
            }
            for (final String event : ProfilerSession.LEFT_OUT_EVENTS)
            {
                r.disable(event);
            }
            r.enable(RequestEvent.class);
            r.setName("tokenclock-requests");
            r.setDestination(dir.resolve(FILE));
            r.start();
            return new RequestRecording(r);
        }
        catch (final ParseException ex)
        {
            throw new IOException("cannot read the JFR 'default' settings: " + ex.getMessage(), ex);
        }
    }

    /** Request stage thread. */
    void onRequestComplete(final RequestSlot slot, final RequestMetrics m)
    {
        RequestEvent.commit(slot, m);
    }

    /** Stops the recording and writes the file. */
    @Override
    public void close()
    {
        recording.stop();
        recording.close();
    }
}
