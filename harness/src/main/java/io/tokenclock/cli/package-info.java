/**
 * The picocli commands and their flag mixins, and the only code that knows the terminal ({@code Terminal}). Bad
 * input ends here, as one line and exit status 2.
 * <p>
 * What it may import is its row, {@code cli}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to; it is
 * the top layer, and no package imports it.
 */
package io.tokenclock.cli;
