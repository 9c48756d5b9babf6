// What a Java site does beside the stand-alone service, with the JDK alone (11 or later). The
// secrets are the service's own: VERIFY_TOKEN_SECRET and VERIFY_SERVER_SECRET; VERIFY_INTERNAL_URL
// is where the site's server reaches the service.
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public final class Verify {
    private Verify() {}

    private static byte[] hmac(String secretVariable, byte[] data) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(System.getenv(secretVariable).getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return mac.doFinal(data);
    }

    /** A JSON string (the JDK has no JSON writer): quotes and backslashes escaped, control characters dropped. */
    private static String quote(String text) {
        return "\"" + text.replaceAll("\\p{Cntrl}", "").replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** A session token for the widgets: the signed-in user (null for a guest) and this browser session. */
    public static String sessionToken(String userId, String sessionId, Duration ttl) throws Exception {
        long now = Instant.now().getEpochSecond();
        long exp = now + Math.min(ttl.toSeconds(), 900);
        String sub = userId == null ? "" : "\"sub\":" + quote(userId) + ",";
        String claims = "{" + sub + "\"sid\":" + quote(sessionId) + ",\"aud\":\"verify-widgets\",\"iat\":" + now + ",\"exp\":" + exp + "}";
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        String signed = base64.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)) + "."
            + base64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
        return signed + "." + base64.encodeToString(hmac("VERIFY_TOKEN_SECRET", signed.getBytes(StandardCharsets.UTF_8)));
    }

    private static final Pattern SIGNATURE = Pattern.compile("t=(\\d+),v1=([0-9a-f]{64})");

    /** Whether a reference call or a webhook comes from the service: its Verify-Signature, made at most 300 s ago. */
    public static boolean signatureOk(String method, String path, byte[] body, String header) throws Exception {
        var match = SIGNATURE.matcher(header == null ? "" : header);
        if (!match.matches() || Math.abs(Instant.now().getEpochSecond() - Long.parseLong(match.group(1))) > 300) return false;
        byte[] head = (match.group(1) + "." + method + "." + path + ".").getBytes(StandardCharsets.UTF_8);
        byte[] signed = new byte[head.length + body.length];
        System.arraycopy(head, 0, signed, 0, head.length);
        System.arraycopy(body, 0, signed, head.length, body.length);
        byte[] expected = HexFormat.of().formatHex(hmac("VERIFY_SERVER_SECRET", signed)).getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(expected, match.group(2).getBytes(StandardCharsets.UTF_8));
    }

    /** Redeems a receipt once: the service's JSON answer, its claims or {"error": {"code": "receipt_used" or "receipt_invalid", ...}}. */
    public static String redeemReceipt(String receipt) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(System.getenv("VERIFY_INTERNAL_URL") + "/api/verify/receipts/redeem"))
                .header("Authorization", "Bearer " + System.getenv("VERIFY_SERVER_SECRET"))
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(5))
                // A receipt is a JWT: letters, digits, -, _ and dots, nothing to escape.
                .POST(HttpRequest.BodyPublishers.ofString("{\"receipt\":\"" + receipt.replaceAll("[^A-Za-z0-9._-]", "") + "\"}"))
                .build();
            return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception error) {
            return "{\"error\":{\"code\":\"upstream_unavailable\"}}";
        }
    }
}
