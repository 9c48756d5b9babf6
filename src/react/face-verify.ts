'use client';
/**
 * The React component for `<face-verify>` alone (`verify-widgets/react/face-verify`), so that an app showing
 * only this widget carries only it. A client component: importing it registers the element.
 */
import * as React from 'react';
import { createComponent } from '@lit/react';
import { FaceVerify as Element } from '../face-verify/define.js';
import { biometricEvents } from './events.js';

export const FaceVerify = createComponent({ tagName: 'face-verify', elementClass: Element, react: React, events: biometricEvents });
