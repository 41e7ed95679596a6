package io.tokenclock.report;

import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.health.StampingSaturation;
import io.tokenclock.run.RunResult;
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
        return kernelClient(p) ? "tokenclock HTTP/1.1 over " + p.transport() +
            ", keep-alive, TCP_NODELAY" : "Netty HTTP/1.1, " + p.transport() + " event loops, keep-alive, TCP_NODELAY";
    }

    /** @return whether the kernel-stamped transport read (whatever stamped each read: it may have fallen back). */
    static boolean kernelClient(final RunResult.Provenance p)
    {
        return "kernel".equals(p.stamping().transport());
    }

    /** @return {@code measurement.stamping}, with the stamping threads' saturation ({@code null}: not sampled). */
    static ObjectNode json(final StampingReport s, final StampingSaturation.Result saturation)
    {
        final ObjectNode n = NODES.objectNode();
        n.put("transport", s.transport());
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
        final StampingReport.Chunks chunks = s.chunks();
        if (chunks != null)
        {
            n.putObject("shared_stamp_chunks").put("chunks", chunks.stamped()).put("shared", chunks.shared())
                .put("arrived_together", chunks.together()).put("first_chunks", chunks.firsts())
                .put("first_shared", chunks.firstsShared())
                .put("bound_fraction", StampingReport.SHARED_CHUNKS_BOUND).put("compromised", chunks.compromised());
        }
        if (saturation != null)
        {
            n.putObject("thread_saturation").put("bound_fraction_of_core", StampingSaturation.BOUND)
                .put("seconds_sampled", saturation.secondsSampled()).put("seconds_above", saturation.secondsAbove())
                .put("worst_fraction", Math.round(saturation.worstFraction() * 1000) / 1000.0)
                .put("worst_thread", saturation.worstThread()).put("unavailable", saturation.unavailable());
        }
        final StampingReport.PacketTap tap = s.packetTap();
        if (tap != null)
        {
            final ObjectNode t = n.putObject("packet_tap").put("selection", tap.selection())
                .put("interface", tap.interfaceName()).put("reason", tap.reason()).put("error", tap.error());
            if (tap.open())
            {
                t.put("reads", tap.reads()).put("missed", tap.missed()).put("packets", tap.packets())
                    .put("segments", tap.segments()).put("drops", tap.drops())
                    .put("stamped_at_capture", tap.stampedAtCapture()).put("ring_frames", tap.ringFrames())
                    .put("thread_cpu", tap.threadCpu() < 0 ? null : tap.threadCpu());
            }
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

    /**
     * @return the one line that says the client's reading compromised the figures, when more chunks shared a stamp
     * than {@link StampingReport#SHARED_CHUNKS_BOUND} lets: how many, how late the client read at worst, and what to
     * do; empty otherwise (a healthy run says nothing).
     */
    static Optional<String> compromised(final StampingReport s, final StampingSaturation.Result saturation)
    {
        final StampingReport.Chunks c = s.chunks();
        if (c == null || !c.compromised())
        {
            return Optional.empty();
        }
        final StampingReport.ReceiveDelay d = s.receiveDelay();
        final StampingReport.PacketTap tap = s.packetTap();
        final boolean tapped = tap != null && tap.open();
        final String why = saturation != null && saturation.saturated() ? String.format(Locale.ROOT,
            "a stamping thread used over %.0f%% of its core in %d of %d s", 100 * StampingSaturation.BOUND,
            saturation.secondsAbove(), saturation.secondsSampled()) : "the client read late";
        return Optional.of(String.format(Locale.ROOT, "%d of %d chunks (%d of %d first chunks) took a later " +
            "chunk's stamp: %s, by up to %.1f ms (worst client receive delay), and the kernel had merged their " +
            "arrivals; %s", c.shared(), c.stamped(), c.firstsShared(), c.firsts(), why,
            d == null ? 0.0 : d.maxNs() / 1e6, tapped ? String.format(Locale.ROOT, "the packet tap on %s missed %d " +
            "reads (%d packets dropped): give the client more cores", tap.interfaceName(), tap.missed(),
            tap.drops()) : "rerun with --packet-tap (root or CAP_NET_RAW) or give the client more cores"));
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
