package io.tokenclock.report.html;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;

/**
 * One self-contained HTML page: plain HTML sections and tables (readable with scripts off), the charts' data as one
 * JSON block (every {@code <} escaped, so no value can close the script element), uPlot's own build inlined from its
 * webjar with its MIT notice, and the page's drawing script. A Content-Security-Policy meta tag allows only those
 * inline scripts, by their SHA-256, and inline style (uPlot sizes its elements), and forbids every fetch: no network
 * request, no other script.
 */
final class Page
{
    static final String UPLOT_VERSION = "1.6.30";
    private static final String WEBJAR = "/META-INF/resources/webjars/uplot/" + UPLOT_VERSION + "/";
    private static final ObjectMapper JSON = Json.MAPPER;

    private final StringBuilder body = new StringBuilder();
    private final List<Chart> charts = new ArrayList<>();
    private int nextId;

    /** One headline figure: what it is, its value, and one line under it (its interval, its share, its cause). */
    record Card(String title, String value, String detail)
    {
    }

    /** Appends a section heading. */
    Page h2(final String text)
    {
        body.append("<h2>").append(Html.text(text)).append("</h2>\n");
        return this;
    }

    /** Appends a section heading that a link can reach ({@code #id}). */
    Page h2(final String text, final String id)
    {
        body.append("<h2 id=\"").append(Html.attr(id)).append("\">").append(Html.text(text)).append("</h2>\n");
        return this;
    }

    /** Appends the headline figures, as cards in a row that wraps. */
    Page cards(final List<Card> cards)
    {
        body.append("<div class=\"cards\">\n");
        for (final Card c : cards)
        {
            body.append("<div class=\"card\"><div class=\"card-title\">").append(Html.text(c.title()))
                .append("</div><div class=\"card-value\">").append(Html.text(c.value()))
                .append("</div><div class=\"card-detail\">").append(Html.text(c.detail())).append("</div></div>\n");
        }
        body.append("</div>\n");
        return this;
    }

    /** Appends the sentence that says what the result shows. */
    Page answer(final String sentence)
    {
        body.append("<p class=\"answer\">").append(Html.text(sentence)).append("</p>\n");
        return this;
    }

    /** Appends a warning line, marked as one. */
    Page warning(final String text)
    {
        body.append("<p class=\"warning\">warning: ").append(Html.text(text)).append("</p>\n");
        return this;
    }

    /** Appends the grade in one line, linking to the record's list of what is missing ({@code #record}). */
    Page grade(final String grade, final int missing)
    {
        body.append("<p class=\"grade\">Grade: <b>").append(Html.text(grade)).append("</b>");
        if (missing > 0)
        {
            body.append(" &mdash; <a href=\"#record\">").append(missing).append(missing == 1 ? " thing" : " things")
                .append(" missing for a comparison-grade record</a>");
        }
        body.append("</p>\n");
        return this;
    }

    Page h3(final String text)
    {
        body.append("<h3>").append(Html.text(text)).append("</h3>\n");
        return this;
    }

    Page p(final String text)
    {
        body.append("<p>").append(Html.text(text)).append("</p>\n");
        return this;
    }

    Page pre(final String text)
    {
        body.append("<pre>").append(Html.text(text)).append("</pre>\n");
        return this;
    }

    /** Appends HTML the caller built with {@link Html} (every value escaped there). */
    Page raw(final String html)
    {
        body.append(html);
        return this;
    }

    /** Appends a figure drawn as inline SVG that the caller built (every value escaped there), with a caption. */
    Page svg(final String svg, final String caption)
    {
        body.append("<figure>").append(svg).append("<figcaption>").append(Html.text(caption))
            .append("</figcaption></figure>\n");
        return this;
    }

    /** @return a fresh chart id, unique in the page. */
    String id(final String stem)
    {
        return stem.replaceAll("[^A-Za-z0-9_-]", "-") + "-" + nextId++;
    }

    /** Adds a chart with a caption; an empty chart is replaced by one line saying there is nothing to draw. */
    Page chart(final Chart chart, final String caption)
    {
        if (chart.isEmpty())
        {
            return p(caption + ": nothing to draw.");
        }
        charts.add(chart);
        body.append("<figure><div class=\"chart\" id=\"").append(Html.attr(chart.id())).append("\"></div>")
            .append("<figcaption>").append(Html.text(caption)).append("</figcaption></figure>\n");
        return this;
    }

    /** @return the whole page. */
    String render(final String title) throws IOException
    {
        final String uplot = resource(WEBJAR + "dist/uPlot.iife.min.js");
        final String script = resource("/io/tokenclock/report/html/report.js");
        final String style = resource(WEBJAR + "dist/uPlot.min.css") + "\n" + resource(
            "/io/tokenclock/report/html/report.css");
        final String csp = "default-src 'none'; script-src " + hash(uplot) + " " + hash(script) +
            "; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; base-uri 'none'; form-action 'none'";
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n" +
            "<meta http-equiv=\"Content-Security-Policy\" content=\"" + Html.attr(csp) + "\">\n" +
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n" +
            "<title>" + Html.text(title) + "</title>\n<style>" + style + "</style>\n</head><body>\n" +
            "<h1>" + Html.text(title) + "</h1>\n" +
            "<p id=\"report-status\" data-charts=\"" + charts.size() + "\" data-drawn=\"0\" data-errors=\"0\">" +
            "Charts need JavaScript; every figure is also in the tables below.</p>\n" + body +
            "<footer><p>Charts drawn by uPlot " + UPLOT_VERSION + " (https://github.com/leeoniya/uPlot), inlined " +
            "from the webjar org.webjars.npm:uplot under the MIT License:</p><pre class=\"license\">" +
            Html.text(resource(WEBJAR + "LICENSE")) + "</pre></footer>\n" +
            "<script type=\"application/json\" id=\"report-data\">" + data() + "</script>\n" +
            "<script>" + uplot + "</script>\n<script>" + script + "</script>\n</body></html>\n";
    }

    /** The charts as JSON, with every {@code <} written as {@code \u003c} so that no string can end the script. */
    private String data() throws JsonProcessingException
    {
        final ObjectNode root = JSON.createObjectNode();
        final ArrayNode list = root.putArray("charts");
        charts.forEach(c -> list.add(c.json()));
        return JSON.writeValueAsString(root).replace("<", "\\u003c");
    }

    private static String resource(final String name) throws IOException
    {
        try (InputStream in = Page.class.getResourceAsStream(name))
        {
            if (in == null)
            {
                throw new IOException("missing from the jar: " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String hash(final String inline)
    {
        try
        {
            return "'sha256-" + Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256")
                .digest(inline.getBytes(StandardCharsets.UTF_8))) + "'";
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
