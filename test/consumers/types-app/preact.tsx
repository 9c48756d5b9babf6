/** @jsxImportSource preact */
// <face-verify> in Preact's JSX, with the package's element types.
import type {} from 'verify-widgets/types/preact';
import 'verify-widgets/face-verify';

export const Selfie = () => <face-verify endpoint="/api/verify" mode="enroll" onverify-enrolled={(event) => event.detail.kind} />;

// @ts-expect-error: mode is verify or enroll
export const wrongMode = <face-verify mode="register" />;
