// The consumer test's way into verify.go: token USER SID | signature METHOD PATH HEADER (body on stdin) | redeem RECEIPT.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"
)

func main() {
	args := os.Args[1:]
	switch args[0] {
	case "token":
		fmt.Println(SessionToken(args[1], args[2], 10*time.Minute))
	case "signature":
		body, _ := io.ReadAll(os.Stdin)
		if SignatureOK(args[1], args[2], body, args[3]) {
			fmt.Println("ok")
		} else {
			fmt.Println("refused")
		}
	case "redeem":
		answer, _ := json.Marshal(RedeemReceipt(args[1]))
		fmt.Println(string(answer))
	default:
		os.Exit(2)
	}
}
