import { biometricEnglish, type BiometricStrings } from './biometric.js';
import { biometricFirst, commonFirst, faceFirst } from './first.js';

/** What <face-verify> says. English is built in; other languages are registered (see localize). */
export const face = {
  cameraAsking: 'Allow the camera when your browser asks.',
  previewHeading: 'Put your face in the oval',
  takePhoto: 'Take photo',
  switchCamera: 'Switch camera',
  reviewHeading: 'Use this photo?',
  usePhoto: 'Use photo',
  retake: 'Retake',
  checkingPhoto: 'Checking your photo…',
  faceVerified: 'Your face was verified.',
  faceEnrolled: 'Your face is registered.',
  qualityGood: 'Hold still…',
  qualityWaiting: 'Getting ready to check your photo…',
  'quality_too-dark': 'Find more light.',
  'quality_too-bright': 'Too bright: turn away from the light.',
  quality_blurry: 'Hold still, the picture is blurred.',
  'quality_no-face': 'No face found: look at the camera.',
  'quality_several-faces': 'Only one face, please.',
  'quality_off-centre': 'Move your face into the oval.',
  'quality_too-far': 'Come a little closer.',
  'quality_too-close': 'Move back a little.',
  liveHeading: 'Follow the movements',
  liveFrontal: 'Look straight at the camera.',
  move_left: 'Turn your head to your left.',
  move_right: 'Turn your head to your right.',
  move_up: 'Tilt your head up.',
  move_down: 'Tilt your head down.',
  move_closer: 'Move closer to the camera.',
  liveHold: 'Hold it there until the next step.',
  liveProgress: 'Step {step} of {total}',
  error_liveness_failed: 'We couldn’t see a live person. Try again, following each movement.',
  error_liveness_required: 'This check has expired. Please try again.',
  live_no_face: 'Your face left the picture. Keep it in the oval, in good light.',
  live_several_faces: 'Another face was in the picture. Make sure you’re alone in it.',
  live_not_same_person: 'The pictures didn’t all show the same person.',
  live_not_frontal: 'Look straight at the camera before the first movement.',
  live_move_not_seen: 'We didn’t see the movement.',
  live_screen_or_print: 'Make sure the camera sees you, not a screen or a photo.',
  live_flat: 'We saw the movements, but not the depth of a face. Hold the camera still, face a light, and turn your head itself, not the camera.',
  lightHeading: 'Colours on your screen',
  lightCloser: 'Bring your face close to the screen, to fill the larger oval.',
  lightWarning: 'Your whole screen will flash {count} colours, one after another, for {seconds} seconds in all. Stop, or the Escape key, ends them at once. If flashing colours could make you unwell, don’t start them.',
  lightNoOtherWay: 'This page offers no other way to check your face. If you’d rather not see the colours, stop here and ask the site how else to verify.',
  lightDecline: 'Don’t show the colours',
  lightStart: 'Show the colours',
  lightShowing: 'Keep still, close to the screen, until the colours end.',
  lightAway: 'Bring your face back into the oval, close to the screen.',
  lightStop: 'Stop the colours',
  live_light_not_seen: 'The screen’s colours weren’t seen on your face. Come closer to the screen, turn its brightness up, and keep bright light off your face.',
  live_light_moved: 'You moved while the colours showed. Stay close to the screen and keep still until they end.',
  face_no_match_hint: 'Face a light, look straight at the camera, and take off glasses or anything that covers your face.',
  camera_denied: 'Camera access is blocked. Allow it in your browser’s settings for this site, then try again.',
  camera_denied_chrome: 'Camera access is blocked. Click the camera icon in the address bar, choose Allow, then try again.',
  camera_denied_firefox: 'Camera access is blocked. Click the crossed-out camera left of the address, clear the block, then try again.',
  camera_denied_safari: 'Camera access is blocked. Open Safari › Settings for This Website › Camera › Allow, then try again.',
  'camera_no-camera': 'No camera was found on this device.',
  camera_busy: 'Another app is using the camera. Close it, then try again.',
  camera_constraints: 'This camera can’t be used. Try another one.',
  camera_insecure: 'The camera works only on a secure (https) page.',
  camera_unsupported: 'This browser can’t use the camera here. Open the page in your usual browser, or upload a photo.',
  error_bad_file: 'That file isn’t a photo we can read. Choose a JPEG or PNG photo of your face.',
};

export type FaceStrings = BiometricStrings & typeof faceFirst & typeof face;

/** Everything <face-verify> says in English: its own strings, the face and voice ones, and the common ones. */
export const faceEnglish: FaceStrings = { ...commonFirst, ...biometricFirst, ...faceFirst, ...biometricEnglish, ...face };

/** What it says after its first step, which comes with those steps' code (the first step's words are in first.ts). */
export const faceLater = { ...biometricEnglish, ...face };
