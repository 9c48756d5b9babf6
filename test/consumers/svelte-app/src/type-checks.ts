// Not bundled: svelte-check checks that the package's element types are the ones Svelte 5 reads.
type Otp = svelteHTML.IntrinsicElements['otp-verify'];

export const right: Otp = { endpoint: '/api/verify', 'request-timeout': 20_000, 'onverify-success': (event) => void event.detail.receipt };
// @ts-expect-error: the endpoint is a string
export const wrongEndpoint: Otp = { endpoint: 42 };
// @ts-expect-error: a success carries no attemptsLeft
export const wrongDetail: Otp = { 'onverify-success': (event) => void event.detail.attemptsLeft };
