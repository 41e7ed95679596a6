package io.tokenclock.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class RedactionTest
{
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "http://127.0.0.1:8000/v1|http://127.0.0.1:8000/v1",
        "https://bob:pw@api.example.com/v1|https://<redacted>@api.example.com/v1",
        "https://tok@api.example.com|https://<redacted>@api.example.com",
        "https://h/v1?api-version=2024-10-21&key=abc|https://h/v1?api-version=<redacted>&key=<redacted>",
        "https://h/v1?sk-bare-secret|https://h/v1?<redacted>",
        "https://u:p@h:443/v1?k=v#frag|https://<redacted>@h:443/v1?k=<redacted>#<redacted>",
        "not a url u:p@x|<redacted>@x",
        "http://h/path/with@sign|http://h/path/with@sign"})
    void shouldRedactUserInformationQueryValuesAndFragments(final String url, final String shown)
    {
        assertEquals(shown, Redaction.url(url));
        assertEquals(!url.equals(shown), Redaction.urlHasSecrets(url));
    }

    @Test
    void shouldRedactEveryUrlInFreeTextAndKeepTheRest()
    {
        // the query's value runs to the word's end: the closing quote goes with it
        assertEquals("Unmatched argument at index 3: 'http://<redacted>@h/v1?key=<redacted>  (see --help)",
            Redaction.urlsIn("Unmatched argument at index 3: 'http://u:pw@h/v1?key=k'  (see --help)"));
        assertEquals(" leading and\ttabs kept, line breaks made spaces ",
            Redaction.urlsIn(" leading and\ttabs kept, line breaks made spaces\n"));
    }

    @Test
    void shouldKeepTheHeaderNameAndNeverTheValue()
    {
        assertEquals("X-Api-Key: <redacted>", Redaction.headerArgument("X-Api-Key:abc"));
        assertEquals("X-Api-Key: <redacted>", Redaction.headerArgument(" X-Api-Key : abc: def"));
        assertEquals("<redacted>", Redaction.headerArgument("Bearer sk-no-colon"));
    }

    @Test
    void shouldRedactJvmOptionsThatCarryPasswordsAndAgentOptions()
    {
        final List<String> shown = Redaction.jvmArguments(List.of("-Xmx1g", "-Dtokenclock.home=/opt/tc",
            "-Djavax.net.ssl.trustStorePassword=changeit", "-Dhttps.proxyPassword=pw", "-Dmy.api.token=t",
            "-javaagent:/a.jar=secret=1", "-agentlib:jdwp=transport=dt_socket", "-XX:+UseParallelGC"));
        assertEquals(List.of("-Xmx1g", "-Dtokenclock.home=/opt/tc", "-Djavax.net.ssl.trustStorePassword=<redacted>",
            "-Dhttps.proxyPassword=<redacted>", "-Dmy.api.token=<redacted>", "-javaagent:/a.jar=<redacted>",
            "-agentlib:jdwp=<redacted>", "-XX:+UseParallelGC"), shown);
    }

    @Test
    void shouldRedactTheValueOfEverySystemPropertyThatIsNeitherTheJvmsNorTokenclocks()
    {
        final List<String> shown = Redaction.jvmArguments(List.of("-Dplain.opt=hunter2", "-Dx=1",
            "-Djava.io.tmpdir=/tmp/x", "-Djdk.tracePinnedThreads=full", "-Dsun.net.inetaddr.ttl=5",
            "-Dfile.encoding=UTF-8", "-Dtokenclock.tty=0", "-Dflag", "-Djava.secret.thing=s"));
        assertEquals(List.of("-Dplain.opt=<redacted>", "-Dx=<redacted>", "-Djava.io.tmpdir=/tmp/x",
            "-Djdk.tracePinnedThreads=full", "-Dsun.net.inetaddr.ttl=5", "-Dfile.encoding=UTF-8",
            "-Dtokenclock.tty=0", "-Dflag", "-Djava.secret.thing=<redacted>"), shown);
    }

    @Test
    void shouldTakeNamesThatSayPasswordKeyOrTokenAsSecret()
    {
        assertTrue(Redaction.isSecretName("keyStorePassword"));
        assertTrue(Redaction.isSecretName("API_KEY"));
        assertTrue(Redaction.isSecretName("x-auth-token"));
        assertTrue(Redaction.isSecretName("apikey"));
        assertTrue(Redaction.isSecretName("db.credentials"));
        assertFalse(Redaction.isSecretName("tokenclock.home"));
        assertFalse(Redaction.isSecretName("keyboard.layout"));
        assertFalse(Redaction.isSecretName("java.io.tmpdir"));
    }
}
