// What a Go site does beside the stand-alone service, with the standard library alone. The
// secrets are the service's own: VERIFY_TOKEN_SECRET and VERIFY_SERVER_SECRET; VERIFY_INTERNAL_URL
// is where the site's server reaches the service.
package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"time"
)

// SessionToken is a session token for the widgets: the signed-in user ("" for a guest) and this browser session.
func SessionToken(userID, sessionID string, ttl time.Duration) string {
	now := time.Now().Unix()
	claims := map[string]any{"sid": sessionID, "aud": "verify-widgets", "iat": now, "exp": now + int64(math.Min(ttl.Seconds(), 900))}
	if userID != "" {
		claims["sub"] = userID
	}
	encode := base64.RawURLEncoding.EncodeToString
	header, _ := json.Marshal(map[string]string{"alg": "HS256", "typ": "JWT"})
	payload, _ := json.Marshal(claims)
	signed := encode(header) + "." + encode(payload)
	mac := hmac.New(sha256.New, []byte(os.Getenv("VERIFY_TOKEN_SECRET")))
	mac.Write([]byte(signed))
	return signed + "." + encode(mac.Sum(nil))
}

var signature = regexp.MustCompile(`^t=(\d+),v1=([0-9a-f]{64})$`)

// SignatureOK tells whether a reference call or a webhook comes from the service: its Verify-Signature, made at most 300 s ago.
func SignatureOK(method, path string, body []byte, header string) bool {
	match := signature.FindStringSubmatch(header)
	if match == nil {
		return false
	}
	t, err := strconv.ParseInt(match[1], 10, 64)
	if err != nil || math.Abs(float64(time.Now().Unix()-t)) > 300 {
		return false
	}
	mac := hmac.New(sha256.New, []byte(os.Getenv("VERIFY_SERVER_SECRET")))
	fmt.Fprintf(mac, "%s.%s.%s.", match[1], method, path)
	mac.Write(body)
	return hmac.Equal([]byte(hex.EncodeToString(mac.Sum(nil))), []byte(match[2]))
}

// RedeemReceipt redeems a receipt once: its claims, or {"error": {"code": "receipt_used" or "receipt_invalid", ...}}.
func RedeemReceipt(receipt string) map[string]any {
	body, _ := json.Marshal(map[string]string{"receipt": receipt})
	request, _ := http.NewRequest("POST", os.Getenv("VERIFY_INTERNAL_URL")+"/api/verify/receipts/redeem", bytes.NewReader(body))
	request.Header.Set("Authorization", "Bearer "+os.Getenv("VERIFY_SERVER_SECRET"))
	request.Header.Set("Content-Type", "application/json")
	unavailable := map[string]any{"error": map[string]any{"code": "upstream_unavailable"}}
	answer, err := (&http.Client{Timeout: 5 * time.Second}).Do(request)
	if err != nil {
		return unavailable
	}
	defer answer.Body.Close()
	var claims map[string]any
	if json.NewDecoder(answer.Body).Decode(&claims) != nil {
		return unavailable
	}
	return claims
}
