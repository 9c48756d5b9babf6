import { VerifyPhone } from './verify-phone';

// A Server Component: the page is rendered on the server, the widget hydrates in the browser.
export default function Page() {
  return (
    <main>
      <h1>Confirm your phone</h1>
      <VerifyPhone endpoint="/api/verify" />
    </main>
  );
}
