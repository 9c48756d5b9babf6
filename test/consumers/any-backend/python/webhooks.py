"""What happened, told by the service (VERIFY_WEBHOOK_URL): each event signed as the reference
calls are, and kept once by its id, since the service tries again until it has a 2xx."""
import hashlib
import json
import os
import pathlib

from flask import Blueprint, abort, request

from verify import signature_ok

webhooks = Blueprint("webhooks", __name__)
events = pathlib.Path(os.environ["EVENTS_DIR"])


@webhooks.post("/webhooks")
def receive():
    body = request.get_data()
    if not signature_ok("POST", request.path, body, request.headers.get("Verify-Signature")):
        abort(401)
    event = json.loads(body)
    try:
        # "x" creates the file only when no event of this id was kept: a retry changes nothing.
        with open(events / f"{hashlib.sha256(event['id'].encode()).hexdigest()}.json", "xb") as file:
            file.write(body)
        # Act on it here: event["type"] is verified, abuse or low_balance, and event["data"] says what.
    except FileExistsError:
        pass
    return "", 204
