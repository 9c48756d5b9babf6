/**
 * What each widget says on its first step, before anything else is fetched: its first load carries
 * these, and the rest of its English comes with its later steps.
 */
export const commonFirst = {
  valueMissing: 'Please complete the verification.',
  /** Also what the first step says when the code of the next one cannot be fetched. */
  error_upstream_unavailable: 'We couldn’t reach the verification service. Please try again.',
};

/** Spread-free, as each object here is, so that a bundler drops those a widget never says. */
export const biometricFirst = {
  otherWay: 'Verify another way',
  handoffOffer: 'Continue on your phone',
};

export const faceFirst = {
  faceHeading: 'Verify with a selfie',
  faceEnrollHeading: 'Register your face',
  facePriming: 'We’ll use your camera to take one photo of your face, only to check it’s you.',
  startCamera: 'Start camera',
  uploadPhoto: 'Upload a photo instead',
};

export const voiceFirst = {
  voiceHeading: 'Verify with your voice',
  voiceEnrollHeading: 'Register your voice',
  voicePriming: 'We’ll use your microphone to record you reading a few words, only to check it’s you.',
  startMicrophone: 'Start microphone',
};

export const otpFirst = {
  contactHeading: 'Verify it’s you',
  contactIntro: 'We’ll send you a one-time code.',
  channelLegend: 'Send the code by',
  channel_sms: 'SMS',
  channel_whatsapp: 'WhatsApp',
  channel_email: 'Email',
  countryLabel: 'Country',
  phoneLabel: 'Phone number',
  emailLabel: 'Email address',
  sendCode: 'Send code',
  didYouMean: 'Did you mean {suggestion}?',
  useSuggestion: 'Use {suggestion}',
  phoneInvalid: 'Enter a full phone number, with its country.',
  emailInvalid: 'Enter an email address such as name@example.com.',
};
