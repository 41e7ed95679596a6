package io.tokenclock.run;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What the probe saw: served model ids, the raw /models answer and its status (with the body as one escaped line
 * when it was not 200), response headers that name the engine, the preflight's status and latency, and how long
 * the server took to become ready and in how many probes ({@code --wait-ready}).
 */
public record ServerInfo(List<String> modelIds, JsonNode modelsResponse, int modelsStatus, String modelsDetail,
    Map<String, String> engineHeaders, Integer preflightStatus, double preflightMs, double readyAfterS,
    int probes)
{
    /** No probe was made ({@code --no-preflight}). */
    public static final ServerInfo NONE = new ServerInfo(List.of(), null, 0, "", Map.of(), null, Double.NaN, 0, 0);
}
