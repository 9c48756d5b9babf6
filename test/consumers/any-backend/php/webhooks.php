<?php
// What happened, told by the service (VERIFY_WEBHOOK_URL): each event signed as the reference
// calls are, and kept once by its id, since the service tries again until it has a 2xx.
require_once __DIR__ . '/verify.php';

/** Answers the service's POST to $path: 401 when it is not the service's, else 204 once the event is kept (now or before). */
function verify_receive_webhook(string $path, string $eventsDir): void
{
    $body = file_get_contents('php://input');
    if (!verify_signature_ok('POST', $path, $body, $_SERVER['HTTP_VERIFY_SIGNATURE'] ?? null)) {
        http_response_code(401);
        return;
    }
    $event = json_decode($body, true);
    // 'x' creates the file only when no event of this id was kept: a retry changes nothing.
    $file = @fopen($eventsDir . '/' . hash('sha256', $event['id']) . '.json', 'x');
    if ($file !== false) {
        fwrite($file, $body);
        fclose($file);
        // Act on it here: $event['type'] is verified, abuse or low_balance, and $event['data'] says what.
    }
    http_response_code(204);
}
