import { biometricEnglish, type BiometricStrings } from './biometric.js';

/** What <face-verify> says. English is built in; other languages are registered (see localize). */
export const face = {
  faceHeading: 'Verify with a selfie',
  faceEnrollHeading: 'Register your face',
  facePriming: 'We’ll use your camera to take one photo of your face, only to check it’s you.',
  startCamera: 'Start camera',
  uploadPhoto: 'Upload a photo instead',
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

export type FaceStrings = BiometricStrings & typeof face;

/** Everything <face-verify> says in English: its own strings, the face and voice ones, and the common ones. */
export const faceEnglish: FaceStrings = { ...biometricEnglish, ...face };
