'use client';
import { useState } from 'react';
import { OtpVerify } from 'verify-widgets/react/otp-verify';

export function VerifyPhone({ endpoint }: { endpoint: string }) {
  const [step, setStep] = useState('');
  const [confirmed, setConfirmed] = useState('');
  return (
    <>
      <OtpVerify
        endpoint={endpoint}
        country="SA"
        onVerifyStepChange={(event) => setStep(event.detail.step)}
        onVerifySuccess={async (event) => {
          // The event proves nothing: the server checks the receipt.
          const answer = await fetch('/api/confirm', { method: 'POST', body: JSON.stringify({ receipt: event.detail.receipt }) });
          setConfirmed(answer.ok ? ((await answer.json()) as { user: string }).user : `refused ${answer.status}`);
        }}
      />
      <p id="step">{step}</p>
      <p id="confirmed">{confirmed}</p>
    </>
  );
}
