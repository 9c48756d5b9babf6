"""What a Python site does beside the stand-alone service. The secrets are the service's own:
VERIFY_TOKEN_SECRET, VERIFY_SERVER_SECRET and VERIFY_RECEIPT_SECRET (to check receipts here)."""
import hashlib
import hmac
import os
import re
import sqlite3
import time

import jwt  # PyJWT


def session_token(user_id, session_id, enroll=False, ttl=600):
    """A session token for the widgets: the signed-in user (None for a guest) and this browser session."""
    now = int(time.time())
    claims = {"sid": session_id, "aud": "verify-widgets", "iat": now, "exp": now + min(ttl, 900)}
    if user_id is not None:
        claims["sub"] = user_id
    if enroll:  # only right after the site's own fresh check of another factor
        claims["enroll"] = True
    return jwt.encode(claims, os.environ["VERIFY_TOKEN_SECRET"], algorithm="HS256")


def signature_ok(method, path, body, header):
    """Whether a reference request comes from the service: its Verify-Signature, made at most 300 s ago."""
    match = re.fullmatch(r"t=(\d+),v1=([0-9a-f]{64})", header or "")
    if not match or abs(time.time() - int(match[1])) > 300:
        return False
    signed = f"{match[1]}.{method}.{path}.".encode() + body
    expected = hmac.new(os.environ["VERIFY_SERVER_SECRET"].encode(), signed, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, match[2])


class ReceiptRefused(Exception):
    pass


def check_receipt(receipt, db: sqlite3.Connection):
    """A receipt's claims, checked here with PyJWT and used once in the site's own table."""
    try:
        claims = jwt.decode(receipt, os.environ["VERIFY_RECEIPT_SECRET"], algorithms=["HS256"],
                            options={"require": ["jti", "sub", "mth", "iat", "exp"]})
    except jwt.InvalidTokenError as error:
        raise ReceiptRefused("receipt_invalid") from error
    with db:
        db.execute("CREATE TABLE IF NOT EXISTS used_receipts (jti TEXT PRIMARY KEY, expires INTEGER)")
        db.execute("DELETE FROM used_receipts WHERE expires < ?", (int(time.time()),))
        try:
            db.execute("INSERT INTO used_receipts VALUES (?, ?)", (claims["jti"], claims["exp"]))
        except sqlite3.IntegrityError as error:
            raise ReceiptRefused("receipt_used") from error
    return claims
