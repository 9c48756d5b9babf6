// <otp-verify> written straight into React 19 JSX, with the package's element types.
import type {} from 'verify-widgets/types/react';
import 'verify-widgets/otp-verify';
import type { FailureCode, VerifyStep } from 'verify-widgets';

export const Verify = ({ onReceipt }: { onReceipt: (receipt: string) => void }) => (
  <otp-verify endpoint="/api/verify" channels="sms email" requestTimeout={20_000} onverify-success={(event) => onReceipt(event.detail.receipt)} />
);

// @ts-expect-error: the endpoint is a string
export const wrongEndpoint = <otp-verify endpoint={42} />;
// @ts-expect-error: a success carries no attemptsLeft
export const wrongDetail = <otp-verify onverify-success={(event) => event.detail.attemptsLeft} />;

// The step is the widgets' union, not any string; a failure's code is one of the failure codes.
export const onStep = (event: GlobalEventHandlersEventMap['verify-step-change']): VerifyStep => event.detail.step;
// @ts-expect-error: 'ringing' is no step of any widget
export const noSuchStep = (event: GlobalEventHandlersEventMap['verify-step-change']) => event.detail.step === 'ringing';
export const failureCode = (event: GlobalEventHandlersEventMap['verify-failure']): FailureCode => event.detail.code;
// @ts-expect-error: a network fault is an error, never a failure
export const notAFailure = (event: GlobalEventHandlersEventMap['verify-failure']) => event.detail.code === 'upstream_unavailable';
