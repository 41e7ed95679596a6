package io.tokenclock.report.html;

import java.util.List;
import java.util.Locale;

/**
 * A forest plot as inline SVG: one row per figure, its difference as a dot, the bootstrap interval as a thick bar,
 * Welch's t interval as a thin line through it, 0 as a vertical line, and the verdict coloured at the right. The
 * figures have different units, so each is drawn relative to A (% of A's mean); a figure whose A is 0 (errors) is
 * listed without a bar. Drawn in Java, not by the page's script: a forest plot is rows, not an x-y series, and as
 * SVG it needs no script at all. Every number reaches the page through {@link #f}; every text through {@link Html}.
 */
final class Forest
{
    private static final int WIDTH = 1100;
    private static final int LABEL = 200;
    private static final int VERDICT = 170;
    private static final int ROW = 26;
    private static final int TOP = 28;
    /** A t interval wider than this many times the widest bootstrap end is clipped (n = 2 gives t = 12.7). */
    private static final double CLIP = 3;

    /**
     * One row.
     *
     * @param label   the figure's name.
     * @param point   B - A in % of A, or NaN when A is 0.
     * @param low     the bootstrap interval's low end, % of A.
     * @param high    its high end.
     * @param tLow    Welch's interval's low end, % of A (NaN: none).
     * @param tHigh   its high end.
     * @param verdict {@code differs}, {@code within noise}, {@code n too small to tell}, or another word.
     */
    record Row(String label, double point, double low, double high, double tLow, double tHigh, String verdict)
    {
    }

    private Forest()
    {
    }

    /** @return the CSS class of a verdict: its colour in the table and in the plot. */
    static String verdictClass(final String verdict)
    {
        return "differs".equals(verdict) ? "v-differs" : verdict != null && verdict.startsWith("n too small") ?
            "v-too-few" : "v-noise";
    }

    private static String colour(final String verdict)
    {
        return switch (verdictClass(verdict))
        {
            case "v-differs" -> "#c0392b";
            case "v-too-few" -> "#a66d00";
            default -> "#7f8c8d";
        };
    }

    /** @return the plot of {@code rows}. */
    static String svg(final List<Row> rows)
    {
        final double domain = domain(rows);
        final int height = TOP + ROW * rows.size() + 30;
        final int plot = WIDTH - LABEL - VERDICT;
        final StringBuilder sb = new StringBuilder();
        sb.append("<svg class=\"forest\" role=\"img\" width=\"").append(WIDTH).append("\" height=\"").append(height)
            .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height).append("\">");
        axis(sb, domain, plot, height);
        for (int i = 0; i < rows.size(); i++)
        {
            row(sb, rows.get(i), TOP + ROW * i + ROW / 2, domain, plot);
        }
        return sb.append("</svg>").toString();
    }

    /** @return the half-width of the x axis, % of A: the widest end, with a clipped t interval left out. */
    private static double domain(final List<Row> rows)
    {
        double boot = 0;
        double t = 0;
        for (final Row r : rows)
        {
            boot = Math.max(boot, Math.max(abs(r.low()), abs(r.high())));
            t = Math.max(t, Math.max(abs(r.tLow()), abs(r.tHigh())));
        }
        final double d = Math.max(boot, Math.min(t, CLIP * Math.max(boot, 1e-9)));
        return d > 0 ? nice(d * 1.1) : 1;
    }

    private static double abs(final double v)
    {
        return Double.isFinite(v) ? Math.abs(v) : 0;
    }

    /** @return the smallest of 1, 2, 2.5, 5 times a power of ten that is at least {@code v}. */
    static double nice(final double v)
    {
        final double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (final double m : new double[] {1, 2, 2.5, 5, 10})
        {
            if (m * p >= v)
            {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static void axis(final StringBuilder sb, final double domain, final int plot, final int height)
    {
        final int bottom = height - 24;
        sb.append(line(LABEL, bottom, LABEL + plot, bottom, "#999", 1));
        for (int k = -4; k <= 4; k++)
        {
            final double v = domain * k / 4;
            final double x = x(v, domain, plot);
            sb.append(line(x, TOP - 6, x, bottom, k == 0 ? "#333" : "#e3e3e3", k == 0 ? 1.5 : 1));
            sb.append("<text x=\"").append(f(x)).append("\" y=\"").append(bottom + 16)
                .append("\" text-anchor=\"middle\" fill=\"#555\">").append(Html.text(label(v))).append("</text>");
        }
        sb.append("<text x=\"").append(LABEL + plot / 2).append("\" y=\"").append(TOP - 12)
            .append("\" text-anchor=\"middle\" fill=\"#333\">B - A, % of A: dot the difference, thick bar the ")
            .append("bootstrap 95% interval, thin line Welch's t 95% interval</text>");
    }

    private static String label(final double v)
    {
        return (v > 0 ? "+" : "") + (Math.abs(v) >= 10 || v == 0 ? String.format(Locale.ROOT, "%.0f", v) :
            String.format(Locale.ROOT, "%.2g", v)) + "%";
    }

    private static void row(final StringBuilder sb, final Row r, final int y, final double domain, final int plot)
    {
        final String c = colour(r.verdict());
        sb.append("<text x=\"").append(LABEL - 8).append("\" y=\"").append(y + 4)
            .append("\" text-anchor=\"end\" fill=\"#222\">").append(Html.text(r.label())).append("</text>");
        if (Double.isFinite(r.point()))
        {
            if (Double.isFinite(r.tLow()) && Double.isFinite(r.tHigh()))
            {
                sb.append(line(clip(x(r.tLow(), domain, plot), plot), y, clip(x(r.tHigh(), domain, plot), plot), y,
                    c, 1.2));
            }
            if (Double.isFinite(r.low()) && Double.isFinite(r.high()))
            {
                sb.append(line(x(r.low(), domain, plot), y, x(r.high(), domain, plot), y, c, 6));
            }
            sb.append("<circle cx=\"").append(f(x(r.point(), domain, plot))).append("\" cy=\"").append(y)
                .append("\" r=\"4.5\" fill=\"#fff\" stroke=\"").append(c).append("\" stroke-width=\"2\"/>");
        }
        else
        {
            sb.append("<text x=\"").append(LABEL + 6).append("\" y=\"").append(y + 4).append("\" fill=\"#777\">")
                .append("A is 0: no relative difference (see the table)</text>");
        }
        sb.append("<text x=\"").append(LABEL + plot + 10).append("\" y=\"").append(y + 4).append("\" fill=\"")
            .append(c).append("\" font-weight=\"").append("differs".equals(r.verdict()) ? "bold" : "normal")
            .append("\">").append(Html.text(r.verdict() == null ? "-" : r.verdict())).append("</text>");
    }

    private static double x(final double v, final double domain, final int plot)
    {
        return LABEL + plot / 2.0 + v / domain * (plot / 2.0);
    }

    private static double clip(final double x, final int plot)
    {
        return Math.max(LABEL, Math.min(LABEL + plot, x));
    }

    private static String line(final double x1, final double y1, final double x2, final double y2, final String c,
        final double width)
    {
        return "<line x1=\"" + f(x1) + "\" y1=\"" + f(y1) + "\" x2=\"" + f(x2) + "\" y2=\"" + f(y2) + "\" stroke=\"" +
            c + "\" stroke-width=\"" + f(width) + "\"/>";
    }

    /** @return a coordinate with one decimal: a number, never text that could reach the markup. */
    static String f(final double v)
    {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
