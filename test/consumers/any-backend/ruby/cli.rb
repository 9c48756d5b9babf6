# The consumer test's way into verify.rb: token USER SID | signature METHOD PATH HEADER (body on stdin) | redeem RECEIPT.
require_relative 'verify'

command, *args = ARGV
case command
when 'token' then puts Verify.session_token(args[0].to_s.empty? ? nil : args[0], args[1])
when 'signature' then puts Verify.signature_ok?(args[0], args[1], $stdin.read, args[2]) ? 'ok' : 'refused'
when 'redeem' then puts JSON.generate(Verify.redeem_receipt(args[0]))
else abort "unknown command #{command}"
end
