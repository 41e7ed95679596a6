/**
 * The contract file (YAML): its schema, and its sections read into the same options builder the command line
 * feeds.
 */
package io.tokenclock.contract;
