// The demo host's pieces on the pages that carry live widgets: the sign-in picker, the emulator's
// balance, the live development outbox, and the face detector. A file, not inline script, so that
// every page runs under a strict CSP.
import { modelFaceDetector } from '/dist/cdn/face-detector.js';

// Where the browser has no FaceDetector of its own, the quality gate uses the model-based one,
// loaded when the camera first shows a frame; one detector serves every <face-verify>.
const detector = modelFaceDetector({ modelUrl: '/models/' });
export const withDetector = (element) => Object.assign(element, { detector: element.detector ?? detector });
document.querySelectorAll('face-verify').forEach(withDetector);

const list = document.getElementById('outbox');

function show(message) {
  const item = document.createElement('li');
  const meta = document.createElement('span');
  meta.className = 'meta';
  meta.textContent = `${message.channel}${message.fallback ? ' (fallback)' : ''} → ${message.to} · ${new Date(message.sentAt).toLocaleTimeString()}`;
  const code = document.createElement('strong');
  code.className = 'code';
  code.textContent = message.code;
  const text = document.createElement('p');
  // Arabic templates read right to left; the metadata line stays left to right.
  text.dir = 'auto';
  text.textContent = message.text;
  item.append(meta, code, text);
  list.prepend(item);
  document.getElementById('outbox-empty').hidden = true;
  refreshBalance();
}

async function refreshBalance() {
  const response = await fetch('/demo/balance');
  if (response.ok) document.getElementById('balance').textContent = (await response.json()).balance;
}

async function showEnrolment() {
  const config = await (await fetch('/api/verify/config')).json();
  const mark = (yes) => (yes ? 'registered' : 'not registered');
  document.getElementById('enrolled').textContent = config.enrolled
    ? `Face ${mark(config.enrolled.face)} · voice ${mark(config.enrolled.voice)}`
    : 'Sign in to enrol a face or a voice.';
}

/** A new widget of this kind, in this mode, in place of the one in the home page's slot. */
function freshWidget(kind, mode) {
  const slot = document.querySelector(`[data-widget="${kind}-verify"]`);
  if (!slot) return;
  const element = Object.assign(document.createElement(`${kind}-verify`), { endpoint: '/api/verify', mode, otherWay: true });
  slot.replaceChildren(kind === 'face' ? withDetector(element) : element);
}

/** Says whose widgets are on the page (for the tests), once a sign-in has started them again. */
const signedIn = (user) => (document.body.dataset.user = user);

// The demo "session": a real host takes the user from its own sign-in.
const picker = document.getElementById('user');
if (picker) {
  picker.value = document.cookie.match(/demo_user=(\w+)/)?.[1] ?? '';
  signedIn(picker.value);
  picker.addEventListener('change', async () => {
    delete document.body.dataset.user;
    await fetch('/demo/user', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: picker.value || null }) });
    // As after a real sign-in: the face and voice widgets start again, for the person now signed in.
    for (const kind of ['face', 'voice']) freshWidget(kind, document.querySelector(`#${kind}-mode input:checked`)?.value ?? 'enroll');
    document.dispatchEvent(new CustomEvent('demo-signed-in'));
    signedIn(picker.value);
    showEnrolment();
  });
  // Widgets say when something changed; the enrolment line follows.
  document.addEventListener('verify-success', showEnrolment);
  document.addEventListener('verify-enrolled', showEnrolment);
  showEnrolment();
}

// Register, then verify: a fresh widget in the chosen mode.
for (const kind of ['face', 'voice']) {
  document.getElementById(`${kind}-mode`)?.addEventListener('change', (event) => freshWidget(kind, event.target.value));
}

// The home page's other way, for a person who cannot use the camera or the microphone, or make the
// movements (the widgets' `other-way`): a code, in the widget's slot, focused so that Tab goes on
// into it. A playground answers its own widget's (playground.js).
document.addEventListener('verify-other-way', (event) => {
  const slot = event.target.closest('.slot[data-widget]');
  if (!slot) return;
  const code = Object.assign(document.createElement('otp-verify'), { endpoint: '/api/verify', country: 'SA', tabIndex: -1 });
  slot.replaceChildren(code);
  code.focus();
});

if (list) {
  const { messages } = await (await fetch('/__emulator/messages')).json();
  messages.reverse().forEach(show);
  new EventSource('/__emulator/messages/stream').addEventListener('message', (event) => show(JSON.parse(event.data)));
  refreshBalance();
}
