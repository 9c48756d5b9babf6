<?php
// What a PHP site does beside the stand-alone service, with nothing but PHP itself. The secrets
// are the service's own: VERIFY_TOKEN_SECRET and VERIFY_SERVER_SECRET; VERIFY_INTERNAL_URL is
// where the site's server reaches the service.

/** A session token for the widgets: the signed-in user (null for a guest) and this browser session. */
function verify_session_token(?string $userId, string $sessionId, bool $enroll = false, int $ttl = 600): string
{
    $now = time();
    $claims = ['sid' => $sessionId, 'aud' => 'verify-widgets', 'iat' => $now, 'exp' => $now + min($ttl, 900)];
    if ($userId !== null) $claims['sub'] = $userId;
    if ($enroll) $claims['enroll'] = true; // only right after the site's own fresh check of another factor
    $b64 = fn (string $bytes) => rtrim(strtr(base64_encode($bytes), '+/', '-_'), '=');
    $signed = $b64(json_encode(['alg' => 'HS256', 'typ' => 'JWT'])) . '.' . $b64(json_encode($claims));
    return $signed . '.' . $b64(hash_hmac('sha256', $signed, getenv('VERIFY_TOKEN_SECRET'), true));
}

/** Whether a reference request comes from the service: its Verify-Signature, made at most 300 s ago. */
function verify_signature_ok(string $method, string $path, string $body, ?string $header): bool
{
    if (!preg_match('/^t=(\d+),v1=([0-9a-f]{64})$/', $header ?? '', $m)) return false;
    if (abs(time() - (int) $m[1]) > 300) return false;
    $expected = hash_hmac('sha256', "{$m[1]}.{$method}.{$path}.{$body}", getenv('VERIFY_SERVER_SECRET'));
    return hash_equals($expected, $m[2]);
}

/** Redeems a receipt once: its claims, or ['error' => ['code' => 'receipt_used' or 'receipt_invalid', ...]]. */
function verify_redeem_receipt(string $receipt): array
{
    $context = stream_context_create(['http' => [
        'method' => 'POST',
        'header' => "Authorization: Bearer " . getenv('VERIFY_SERVER_SECRET') . "\r\nContent-Type: application/json\r\n",
        'content' => json_encode(['receipt' => $receipt]),
        'ignore_errors' => true,
        'timeout' => 5,
    ]]);
    $answer = @file_get_contents(getenv('VERIFY_INTERNAL_URL') . '/api/verify/receipts/redeem', false, $context);
    return json_decode($answer ?: '', true) ?? ['error' => ['code' => 'upstream_unavailable']];
}
