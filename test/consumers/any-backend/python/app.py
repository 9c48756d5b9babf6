"""The Flask site of the consumer test: its own sessions and users, the page with the widgets, and
the endpoints the service and the page call."""
import hashlib
import os
import pathlib
import secrets
import sqlite3
from contextlib import closing

from flask import Flask, Response, abort, jsonify, redirect, request, session

from verify import ReceiptRefused, check_receipt, session_token, signature_ok
from webhooks import webhooks

app = Flask(__name__)
app.register_blueprint(webhooks)
app.secret_key = os.environ["SITE_SECRET"]
here = pathlib.Path(__file__).parent
references = pathlib.Path(os.environ["REFERENCES_DIR"])


@app.route("/references/<user>/<any(face, voice):kind>", methods=["GET", "PUT"])
def reference(user, kind):
    # The path as it was sent and signed, not as Flask decoded it.
    path = request.environ.get("RAW_URI", request.path).split("?")[0]
    if not signature_ok(request.method, path, request.get_data(), request.headers.get("Verify-Signature")):
        abort(401)
    file = references / f"{hashlib.sha256(user.encode()).hexdigest()}.{kind}"
    if request.method == "PUT":
        file.write_text(request.get_json()["sample"])
        return "", 204
    if not file.exists():
        abort(404)
    return jsonify(sample=file.read_text())


@app.before_request
def browser_session():
    session.setdefault("sid", secrets.token_hex(16))


@app.get("/login")
def login():
    session["user"] = request.args["user"]
    return redirect("/")


@app.get("/")
def page():
    token = session_token(session.get("user"), session["sid"], ttl=int(request.args.get("ttl", 600)))
    mode = "verify" if request.args.get("mode") == "verify" else "enroll"
    html = (here.parent / "page.html").read_text().replace("%TOKEN%", token).replace("%MODE%", mode)
    return Response(html, content_type="text/html; charset=utf-8")


@app.get("/page.js")
def script():
    return Response((here.parent / "page.js").read_text(), content_type="text/javascript")


@app.get("/token")
def token():
    return Response(session_token(session.get("user"), session["sid"]), content_type="text/plain", headers={"Cache-Control": "no-store"})


@app.post("/confirm")
def confirm():
    try:
        with closing(sqlite3.connect(os.environ["RECEIPTS_DB"])) as db:
            claims = check_receipt(str(request.get_json().get("receipt", "")), db)
    except ReceiptRefused as refused:
        return jsonify(refused=str(refused))
    if claims["sub"] != session.get("user"):
        return jsonify(refused="wrong_user")
    return jsonify(user=claims["sub"], method=claims["mth"])


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(os.environ["PORT"]), threaded=True)
