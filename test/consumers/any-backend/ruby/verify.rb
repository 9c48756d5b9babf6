# What a Ruby site does beside the stand-alone service, with the jwt gem. The secrets are the
# service's own: VERIFY_TOKEN_SECRET and VERIFY_SERVER_SECRET; VERIFY_INTERNAL_URL is where the
# site's server reaches the service.
require 'json'
require 'jwt'
require 'net/http'
require 'openssl'

module Verify
  # A session token for the widgets: the signed-in user (nil for a guest) and this browser session.
  def self.session_token(user_id, session_id, enroll: false, ttl: 600)
    now = Time.now.to_i
    claims = { sub: user_id, sid: session_id, aud: 'verify-widgets', iat: now, exp: now + [ttl, 900].min }.compact
    claims[:enroll] = true if enroll # only right after the site's own fresh check of another factor
    JWT.encode(claims, ENV.fetch('VERIFY_TOKEN_SECRET'), 'HS256')
  end

  # Whether a reference call or a webhook comes from the service: its Verify-Signature, made at most 300 s ago.
  def self.signature_ok?(method, path, body, header)
    match = /\At=(\d+),v1=([0-9a-f]{64})\z/.match(header.to_s)
    return false unless match && (Time.now.to_i - match[1].to_i).abs <= 300
    expected = OpenSSL::HMAC.hexdigest('SHA256', ENV.fetch('VERIFY_SERVER_SECRET'), "#{match[1]}.#{method}.#{path}.#{body}")
    OpenSSL.fixed_length_secure_compare(expected, match[2])
  end

  # Redeems a receipt once: its claims, or { 'error' => { 'code' => 'receipt_used' or 'receipt_invalid', ... } }.
  def self.redeem_receipt(receipt)
    uri = URI("#{ENV.fetch('VERIFY_INTERNAL_URL')}/api/verify/receipts/redeem")
    request = Net::HTTP::Post.new(uri, 'Authorization' => "Bearer #{ENV.fetch('VERIFY_SERVER_SECRET')}", 'Content-Type' => 'application/json')
    request.body = JSON.generate(receipt: receipt)
    answer = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == 'https', open_timeout: 5, read_timeout: 5) { |http| http.request(request) }
    JSON.parse(answer.body)
  rescue StandardError
    { 'error' => { 'code' => 'upstream_unavailable' } }
  end
end
