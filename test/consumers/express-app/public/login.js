// The event proves nothing: the receipt goes to the server, which checks it.
document.querySelector('otp-verify').addEventListener('verify-success', async (event) => {
  const answer = await fetch('/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ receipt: event.detail.receipt }),
  });
  document.getElementById('signed-in').textContent = answer.ok ? `signed in as ${(await answer.json()).user}` : `refused (${answer.status})`;
});
