/**
 * {@code report.html}: one self-contained page for any result {@code results} opens, or several overlaid under
 * {@code compare}'s refusal rules ({@link io.tokenclock.report.html.HtmlReport}), leading with the answer; charts as
 * data drawn by uPlot, forest plots and bars as inline SVG, every value escaped on its way in
 * ({@code Html}) and no network request from the page
 * ({@code Page}). Read from the files on disk only, so it can be written for any result at
 * any time.
 * <p>
 * What it may import is its row, {@code report.html}, in docs/ARCHITECTURE.md's table, which {@code LayeringTest}
 * holds it to; it never imports {@code run}, {@code runner} or {@code cli}: a run reaches it only as the files the
 * run wrote.
 */
package io.tokenclock.report.html;
