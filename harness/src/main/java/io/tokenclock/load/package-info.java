/**
 * When requests are sent: arrival processes and rate or concurrency schedules, the load plan, and the open-loop,
 * closed-loop and user-session drivers that take a slot, stamp the intended start and hand the request on.
 */
package io.tokenclock.load;
