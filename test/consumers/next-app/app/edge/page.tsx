import { VerifyPhone } from '../verify-phone';

export default function Page() {
  return (
    <main>
      <h1>Confirm your phone (edge runtime)</h1>
      <VerifyPhone endpoint="/api/edge/verify" />
    </main>
  );
}
