import { OtpVerify } from 'verify-widgets/react/otp-verify';

// The component imported straight into a Server Component: it is a client component of its own.
export default function Page() {
  return (
    <main>
      <OtpVerify endpoint="/api/verify" country="SA" />
    </main>
  );
}
