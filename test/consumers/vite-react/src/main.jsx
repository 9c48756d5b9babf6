import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { OtpVerify } from 'verify-widgets/react';

function App() {
  const [receipt, setReceipt] = useState('');
  const [step, setStep] = useState('');
  return (
    <main>
      <OtpVerify endpoint="/api/verify" country="SA" onVerifyStepChange={(e) => setStep(e.detail.step)} onVerifySuccess={(e) => setReceipt(e.detail.receipt)} />
      <p id="step">{step}</p>
      <p id="receipt">{receipt}</p>
    </main>
  );
}

createRoot(document.getElementById('root')).render(<App />);
