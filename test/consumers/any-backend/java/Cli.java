// The consumer test's way into Verify.java: token USER SID | signature METHOD PATH HEADER (body on stdin) | redeem RECEIPT.
import java.time.Duration;

public final class Cli {
    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "token" -> System.out.println(Verify.sessionToken(args[1].isEmpty() ? null : args[1], args[2], Duration.ofMinutes(10)));
            case "signature" -> System.out.println(Verify.signatureOk(args[1], args[2], System.in.readAllBytes(), args[3]) ? "ok" : "refused");
            case "redeem" -> System.out.println(Verify.redeemReceipt(args[1]));
            default -> System.exit(2);
        }
    }
}
