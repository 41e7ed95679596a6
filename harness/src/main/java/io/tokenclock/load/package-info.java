/**
 * When requests are sent: arrival processes and rate or concurrency schedules, the load plan, and the open-loop,
 * closed-loop and user-session drivers that take a slot, stamp the intended start and hand the request on.
 * <p>
 * What it may import is its row, {@code load}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to; it
 * never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.load;
