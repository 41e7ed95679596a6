/**
 * What is sent: synthetic prompts, shared prefixes, sessions and agent turns, cancellation rules, seeds, and the
 * request bodies built from them.
 */
package io.tokenclock.workload;
