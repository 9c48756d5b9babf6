<?php
// The PHP site of the consumer test, run by `php -S` with this file as its router: its own
// sessions and users, the page with the widgets, and the endpoints the service and the page call.
require __DIR__ . '/verify.php';
require __DIR__ . '/webhooks.php';

$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$method = $_SERVER['REQUEST_METHOD'];

// The service's signed calls for the references this site keeps (in files here; a table in life).
if (preg_match('#^/references/([^/]+)/(face|voice)$#', $path, $m)) {
    $body = file_get_contents('php://input');
    if (!verify_signature_ok($method, $path, $body, $_SERVER['HTTP_VERIFY_SIGNATURE'] ?? null)) {
        http_response_code(401);
        exit;
    }
    $file = getenv('REFERENCES_DIR') . '/' . hash('sha256', rawurldecode($m[1])) . ".{$m[2]}";
    if ($method === 'PUT') {
        file_put_contents($file, json_decode($body, true)['sample']);
        http_response_code(204);
    } elseif (is_file($file)) {
        header('Content-Type: application/json');
        echo json_encode(['sample' => file_get_contents($file)]);
    } else {
        http_response_code(404);
    }
    exit;
}

// What happened, told by the service.
if ($path === '/webhooks' && $method === 'POST') {
    verify_receive_webhook($path, getenv('EVENTS_DIR'));
    exit;
}

session_start();
$_SESSION['sid'] ??= bin2hex(random_bytes(16));
$user = $_SESSION['user'] ?? null;

switch ($path) {
    case '/login':
        $_SESSION['user'] = $_GET['user'];
        header('Location: /');
        exit;
    case '/':
        $token = verify_session_token($user, $_SESSION['sid'], false, (int) ($_GET['ttl'] ?? 600));
        $mode = ($_GET['mode'] ?? '') === 'verify' ? 'verify' : 'enroll';
        header('Content-Type: text/html; charset=utf-8');
        echo str_replace(['%TOKEN%', '%MODE%'], [htmlspecialchars($token), $mode], file_get_contents(__DIR__ . '/../page.html'));
        exit;
    case '/page.js':
        header('Content-Type: text/javascript');
        readfile(__DIR__ . '/../page.js');
        exit;
    case '/token':
        header('Content-Type: text/plain');
        header('Cache-Control: no-store');
        echo verify_session_token($user, $_SESSION['sid']);
        exit;
    case '/confirm':
        $answer = verify_redeem_receipt(json_decode(file_get_contents('php://input'), true)['receipt'] ?? '');
        header('Content-Type: application/json');
        if (isset($answer['error'])) {
            echo json_encode(['refused' => $answer['error']['code']]);
        } elseif ($answer['sub'] !== $user) {
            echo json_encode(['refused' => 'wrong_user']);
        } else {
            echo json_encode(['user' => $answer['sub'], 'method' => $answer['mth']]);
        }
        exit;
    default:
        http_response_code(404);
}
