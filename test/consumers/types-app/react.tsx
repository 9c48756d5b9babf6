// <otp-verify> written straight into React 19 JSX, with the package's element types.
import type {} from 'verify-widgets/types/react';
import 'verify-widgets/otp-verify';

export const Verify = ({ onReceipt }: { onReceipt: (receipt: string) => void }) => (
  <otp-verify endpoint="/api/verify" channels="sms email" requestTimeout={20_000} onverify-success={(event) => onReceipt(event.detail.receipt)} />
);

// @ts-expect-error: the endpoint is a string
export const wrongEndpoint = <otp-verify endpoint={42} />;
// @ts-expect-error: a success carries no attemptsLeft
export const wrongDetail = <otp-verify onverify-success={(event) => event.detail.attemptsLeft} />;
