/**
 * The picocli commands and their flag mixins, and the only code that knows the terminal ({@code Terminal}). Bad
 * input ends here, as one line and exit status 2.
 */
package io.tokenclock.cli;
