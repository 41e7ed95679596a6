package io.tokenclock.transport;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;

import io.tokenclock.api.Api;
import io.tokenclock.secrets.Redaction;

/**
 * Where requests go: scheme, host, port, and the paths of the API's endpoint and of {@code /models}, derived from
 * the user's {@code --url}. The URL is the API base (ending in {@code /v1}), or a full endpoint URL
 * ({@code .../chat/completions}, {@code .../completions}, {@code .../responses}, {@code .../messages}), which then
 * also fixes the API ({@link Api}).
 * <p>
 * A query ({@code ?api-version=...}, as Azure OpenAI wants) is sent with every request, and user information
 * ({@code https://user:pass@host}) becomes a Basic {@code Authorization} header; both may carry credentials, so
 * whatever shows a URL to a person or a file uses {@link #shownCompletionUrl()} or {@link #shownModelsUrl()}.
 *
 * @param query    the raw query without {@code ?}, or null.
 * @param userInfo the raw (percent-encoded) user information, or null.
 */
public record Endpoint(String scheme, String host, int port, String basePath, Api api, String query, String userInfo)
{
    /**
     * Parses {@code --url}.
     *
     * @throws IllegalArgumentException with a one-line reason if the URL is not an http(s) URL with a host.
     */
    public static Endpoint parse(final String url, final Api defaultApi)
    {
        return parse(url, defaultApi, "--url");
    }

    /**
     * Parses a URL given as {@code what} (a flag or a contract key, e.g. {@code quality.judge.url}) exactly as
     * {@code --url} is parsed: one place for how a URL becomes an endpoint, so that every endpoint joins its path
     * before its query and turns its user information into a header.
     *
     * @throws IllegalArgumentException with a one-line reason naming {@code what}, the URL redacted.
     */
    public static Endpoint parse(final String url, final Api defaultApi, final String what)
    {
        final URI uri;
        try
        {
            uri = new URI(url.trim());
        }
        catch (final URISyntaxException ex)
        {
            throw new IllegalArgumentException(what + " is not a URL: " + Redaction.url(url));
        }
        final String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https"))
        {
            throw new IllegalArgumentException(what + " must start with http:// or https://: " + Redaction.url(url));
        }
        if (uri.getHost() == null || uri.getHost().isEmpty())
        {
            throw new IllegalArgumentException(what + " has no host: " + Redaction.url(url));
        }
        final int port = uri.getPort() > 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (path.endsWith("/"))
        {
            path = path.substring(0, path.length() - 1);
        }
        Api api = defaultApi;
        final Api named = Api.ofPathEnd(path);
        if (named != null)
        {
            api = named;
            path = path.substring(0, path.length() - named.path().length());
        }
        return new Endpoint(scheme, uri.getHost(), port, path, api, uri.getRawQuery(), uri.getRawUserInfo());
    }

    public boolean tls()
    {
        return scheme.equals("https");
    }

    /** @return the request target of the completion endpoint, e.g. {@code /v1/chat/completions}, query included. */
    public String completionPath()
    {
        return withQuery(basePath + api.path());
    }

    /** @return the URL of the completion endpoint, to send to (it may hold a secret query: never show it). */
    public String completionUrl()
    {
        return origin() + completionPath();
    }

    /** @return the URL of {@code /models} under the base path, to send to (never show it). */
    public String modelsUrl()
    {
        return origin() + withQuery(basePath + "/models");
    }

    /** @return {@link #completionUrl()} as it may be shown or written: query values redacted. */
    public String shownCompletionUrl()
    {
        return Redaction.url(completionUrl());
    }

    /** @return {@link #modelsUrl()} as it may be shown or written: query values redacted. */
    public String shownModelsUrl()
    {
        return Redaction.url(modelsUrl());
    }

    /** @return the {@code Authorization} header's value made of the URL's user information (Basic), or null. */
    public String basicAuthorization()
    {
        return userInfo == null ? null : "Basic " + Base64.getEncoder().encodeToString(
            decodedUserInfo().getBytes(StandardCharsets.UTF_8));
    }

    /** @return the decoded {@code user:password} of the URL, for a Basic Authorization header, or null. */
    public String decodedUserInfo()
    {
        return userInfo == null ? null : URLDecoder.decode(userInfo.replace("+", "%2B"),
            StandardCharsets.UTF_8);
    }

    /** @return {@link #shownCompletionUrl()}: the record's generated string would print the query and user info. */
    @Override
    public String toString()
    {
        return shownCompletionUrl();
    }

    private String withQuery(final String path)
    {
        return query == null ? path : path + "?" + query;
    }

    /** @return {@code host:port} as the Host header wants it (IPv6 literals bracketed). */
    public String hostHeader()
    {
        final String h = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        final boolean defaultPort = (tls() && port == 443) || (!tls() && port == 80);
        return defaultPort ? h : h + ":" + port;
    }

    public String origin()
    {
        return scheme + "://" + hostHeader();
    }

    /** @return true if the host is a loopback address or name. */
    public boolean isLoopback()
    {
        final String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        return h.equals("localhost") || h.startsWith("127.") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1");
    }
}
