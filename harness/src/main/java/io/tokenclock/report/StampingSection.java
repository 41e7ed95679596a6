package io.tokenclock.report;

import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.result.RunResult;
import io.tokenclock.transport.StampingReport;

/**
 * How the reads were stamped, in record.json: {@code measurement.stamping} (kernel or user, fallbacks, the realtime
 * offset's range), {@code report.client_receive_delay} (kernel stamp to user stamp), {@code
 * report.client_send_delay} (user send stamp to kernel send stamp), and the tail warning of a
 * realtime step. docs/RESULTS.md describes each field.
 */
final class StampingSection
{
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private StampingSection()
    {
    }

    /** @return {@code measurement.transport}, in words. */
    static String transport(final RunResult.Provenance p)
    {
        return p.transport().startsWith("recvmsg") ? "tokenclock HTTP/1.1 over " + p.transport() +
            ", keep-alive, TCP_NODELAY" : "Netty HTTP/1.1, " + p.transport() + " event loops, keep-alive, TCP_NODELAY";
    }

    /** @return {@code measurement.stamping}. */
    static ObjectNode json(final StampingReport s)
    {
        final ObjectNode n = NODES.objectNode();
        n.put("mode", s.mode());
        n.put("requested", s.requested());
        n.put("rule", s.kernel() ? "one stamp per network read: the kernel's software receive stamp " +
            "(SO_TIMESTAMPING, the last segment the read consumed), CLOCK_REALTIME converted to CLOCK_MONOTONIC " +
            "with an offset sampled beside the read; while more than one event is queued, each read ends at an " +
            "event's end; reads without a kernel stamp take the user stamp and are counted" :
            "one stamp per network read, System.nanoTime() on the event loop after the read, before TLS/HTTP/SSE " +
            "decoding; an SSE event is stamped with the read that completed it");
        n.put("reads", s.reads());
        n.put("fallback_reads", s.fallbackReads());
        n.put("fallback_reason", s.fallbackReason());
        n.put("backlog_reads", s.backlogReads());
        n.put("shared_stamp_reads", s.sharedStamps());
        final StampingReport.PacketTap tap = s.packetTap();
        if (tap != null)
        {
            n.putObject("packet_tap").put("interface", tap.interfaceName()).put("error", tap.error())
                .put("reads", tap.reads()).put("missed", tap.missed()).put("packets", tap.packets())
                .put("segments", tap.segments()).put("drops", tap.drops());
        }
        if ("kernel".equals(s.requested()) && s.receiveDelay() != null)
        {
            n.putObject("realtime_offset_ns").put("min", s.offsetMinNs()).put("max", s.offsetMaxNs());
            n.put("realtime_steps", s.realtimeSteps());
        }
        return n;
    }

    /** @return {@code report.client_receive_delay}: kernel stamp to user stamp per read, µs; null with user stamps. */
    static JsonNode receiveDelay(final StampingReport s)
    {
        final StampingReport.ReceiveDelay d = s.receiveDelay();
        if (d == null || d.count() == 0)
        {
            return NODES.nullNode();
        }
        return NODES.objectNode()
            .put("unit", "us")
            .put("reads", d.count())
            .put("p50", d.p50Ns() / 1e3)
            .put("p99", d.p99Ns() / 1e3)
            .put("p99_9", d.p999Ns() / 1e3)
            .put("max", d.maxNs() / 1e3)
            .put("method", "per read: the user stamp taken right after recvmsg returned, minus the kernel's receive " +
                "stamp of the same read: the client's own delay in reading what had arrived");
    }

    /**
     * @return {@code report.client_send_delay}: user send stamp to the kernel's send stamp per request, µs; null
     * when no socket asked for send stamps (user stamps).
     */
    static JsonNode sendDelay(final StampingReport s)
    {
        final StampingReport.SendDelay d = s.sendDelay();
        if (d == null || d.requests() + d.unstamped() + d.socketsRefused() == 0)
        {
            return NODES.nullNode();
        }
        final ObjectNode n = NODES.objectNode()
            .put("unit", "us")
            .put("requests", d.requests())
            .put("unstamped", d.unstamped())
            .put("before_user_send", d.beforeUserSend())
            .put("sockets_refused", d.socketsRefused());
        if (d.requests() > 0)
        {
            n.put("p50", d.p50Ns() / 1e3).put("p99", d.p99Ns() / 1e3).put("p99_9", d.p999Ns() / 1e3)
                .put("max", d.maxNs() / 1e3);
        }
        else
        {
            n.putNull("p50").putNull("p99").putNull("p99_9").putNull("max");
        }
        return n.put("method", "per request: the kernel's software transmit stamp of the request's last byte " +
            "(SOF_TIMESTAMPING_TX_SOFTWARE with OPT_ID, read from the error queue; over TLS its last ciphertext " +
            "byte), converted to the run's clock, minus sent_ns (taken before the write): the client's own send " +
            "delay, and how much shorter TTFT would be from the kernel's send stamp; TTFT is still from sent_ns");
    }

    /** @return the tail warning of a run whose realtime clock stepped, if it did. */
    static Optional<String> tailWarning(final StampingReport s)
    {
        if (s.realtimeSteps() == 0)
        {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "the realtime clock stepped %d time(s) during the run " +
            "(offset range %.3f ms): kernel stamps read around a step may be off by the step",
            s.realtimeSteps(), (s.offsetMaxNs() - s.offsetMinNs()) / 1e6));
    }
}
