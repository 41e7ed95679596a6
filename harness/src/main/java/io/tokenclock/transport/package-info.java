/**
 * Netty under the core: the streaming HTTP client whose event loop stamps each read once, the response handler
 * that feeds the framer, endpoints, header rules, request limits and TLS trust. The only package that knows Netty.
 */
package io.tokenclock.transport;
