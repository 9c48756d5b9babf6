// The site's page script: a fresh session token when the service asks for one, and each receipt
// sent to the site's own server, which redeems it once.
const freshToken = () => fetch('/token', { credentials: 'same-origin' }).then((response) => response.text());
document.addEventListener('verify-session-token', (event) => event.respondWith(freshToken()));

document.addEventListener('verify-success', async (event) => {
  const response = await fetch('/confirm', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ receipt: event.detail.receipt }),
  });
  const answer = await response.json();
  document.querySelector('#confirmed').textContent = answer.user ? `${answer.method}:${answer.user}` : `refused:${answer.refused}`;
});
